"""One player in the kit's sandbox (``fanorona.sandbox``), asked for turns over a pipe.

The player's process runs ``fanorona.tournament.host`` under bubblewrap (its own network, so the
Dask scheduler is out of reach; private /tmp and /dev/shm that vanish with it; a user id of its
own, with no second process or thread), and everything that counts is measured from outside:

* time: wall clock on every answer, and the CPU of its whole process tree, read from /proc;
* its opponent's time: it is stopped (SIGSTOP) from its answer until its next request, so it
  cannot think between its turns, and its CPU over the game is held to a budget;
* the channel: a request carries a number drawn then, and an answer must name it, so nothing the
  player wrote on the channel by itself stands for an answer.

Any breach is a ``Forfeit`` with one sentence saying what the player did.
"""

from __future__ import annotations

import json
import os
import secrets
import select
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .. import sandbox
from ..sandbox.command import PACKAGE

MB = 1024 * 1024
ANSWER_BYTES = 4096  # an answer longer than this is not a turn
OUTPUT_CAP = MB  # printing more than this in one game is a forfeit; the record keeps less
#: How a player's process starts: the folder holding the package (its one argument) first on the
#: path, as the sandbox shows it (an editable install's finder names the host's place, which the
#: sandbox may show elsewhere).
BOOT = (
    "import os, runpy, sys; sys.path.insert(0, os.path.dirname(sys.argv.pop(1)));"
    " runpy.run_module('fanorona.tournament.host', run_name='__main__', alter_sys=True)"
)


class Forfeit(Exception):
    """The player loses the game; the message is the sentence saying why."""


@dataclass(frozen=True)
class Limits:
    """What one player may use in one game."""

    turn_seconds: float = 1.0  # wall and CPU time for one turn
    memory_mb: int = 512  # address space of its process
    load_seconds: float = 10.0  # to start Python and load its file
    output_bytes: int = 4096  # printed output kept for the record
    file_mb: int = 10  # the largest file it may write (and all of /tmp and /dev/shm)

    def __post_init__(self):
        for name in ("turn_seconds", "memory_mb", "load_seconds", "output_bytes", "file_mb"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"Limits.{name} is a positive number; got {value!r}")

    def for_game(self, game_turns: int) -> sandbox.Limits:
        """The sandbox's limits for one player's whole game: CPU for loading and its turns; wall
        time for both players' turns, since it waits (stopped) through its opponent's."""
        cpu = self.load_seconds + self.turn_seconds * (game_turns + 2) + 1
        return sandbox.Limits(
            wall=2 * cpu + 30,
            cpu=cpu,
            memory=self.memory_mb * MB,
            output=max(OUTPUT_CAP, self.output_bytes),
            processes=1,
            file_size=self.file_mb * MB,
        )


class Player:
    """A player's process: ``start()`` launches it, ``ready()`` waits for it to load,
    ``choose(turns)`` asks for a turn, ``close()`` ends it and removes all it wrote.

    ``entry`` is ``{"name": ..., "spec": "level2"}`` for a built-in player or
    ``{"name": ..., "source": "<the file's text>"}`` for a submission.
    """

    def __init__(self, entry: dict, limits: Limits, seed: int, game_turns: int):
        self.entry, self.limits, self.seed = entry, limits, seed
        self.name = entry["name"]
        # a built-in level is the kit's own code: it keeps the tournament's user id (without
        # capabilities) to read the endgame tables the tournament cached, private to that user
        self.box = sandbox.Sandbox(limits.for_game(game_turns), own_user="source" in entry)
        self.process: sandbox.Running | None = None  # from start() on
        self._buffer = b""
        self.seconds = self.slowest = 0.0

    @property
    def output(self) -> bytes:
        """What it printed, cut at the limit kept for the record."""
        return self.process.errors()[: self.limits.output_bytes] if self.process else b""

    def start(self, start: str, rules: dict) -> None:
        env = {"MPLBACKEND": "Agg", "PYTHONHASHSEED": "0", "FANORONA_COMPILED": "0"}
        readable: list[Path] = []
        if "spec" in self.entry:  # a built-in level reads the endgame tables' cache
            from ..engine.tablefile import cache_dir

            env["FANORONA_CACHE_DIR"] = str(cache_dir())
            readable = [cache_dir()] if cache_dir().exists() else []
        self.process = self.box.start(
            [sys.executable, "-I", "-c", BOOT, str(PACKAGE)],
            readable=readable,
            env=env,
        )
        self._request = {
            "start": start,
            "rules": rules,
            "seed": self.seed,
            "turn_seconds": self.limits.turn_seconds,
        }
        self._request |= {"spec": self.entry["spec"]} if "spec" in self.entry else {}
        self._request |= {"source": self.entry["source"]} if "source" in self.entry else {}

    def _running(self) -> sandbox.Running:
        """Its process; asking for it before ``start()`` is a mistake in the tournament's code."""
        if self.process is None:
            raise RuntimeError(f"the process of {self.name!r} is used before start()")
        return self.process

    def ready(self) -> None:
        """Wait until the started player has loaded (both players of a game start at once)."""
        answer = self._ask(self._request, self.limits.load_seconds, "to start")
        if "ready" not in answer:
            raise Forfeit(self._sentence(answer, "could not be loaded"))

    def choose(self, turns: list[str]) -> str:
        """Its turn text for the game after ``turns``; a ``Forfeit`` if it breaks a limit."""
        cpu = self._running().cpu_seconds()
        started = time.perf_counter()
        answer = self._ask({"turns": turns}, self.limits.turn_seconds, "to choose a turn")
        spent = time.perf_counter() - started
        used = self._running().cpu_seconds() - cpu
        self.seconds += spent
        self.slowest = max(self.slowest, spent)
        if used > self.limits.turn_seconds:
            raise Forfeit(
                f"it used {used:.2f} s of CPU for one turn; the limit is"
                f" {self.limits.turn_seconds:g} s"
            )
        if "turn" not in answer:
            raise Forfeit(self._sentence(answer, "gave no turn"))
        if not isinstance(answer["turn"], str):
            raise Forfeit(f"it answered {str(answer['turn'])[:40]!r}, which is not turn text")
        return answer["turn"]

    def _sentence(self, answer: dict, otherwise: str) -> str:
        return str(answer.get("error") or answer.get("malformed") or otherwise)[:300]

    def _ask(self, request: dict, seconds: float, what: str) -> dict:
        """Resume it, send one request, wait at most ``seconds`` for the answer naming it, and
        stop it again."""
        process = self._running()
        assert process.stdin is not None and process.stdout is not None, "start() opens both"
        if self._buffer or select.select([process.stdout], [], [], 0)[0]:
            raise Forfeit("it wrote on the tournament's channel by itself, between its turns")
        number = secrets.token_hex(8)
        process.resume()
        try:
            process.stdin.write((json.dumps({**request, "id": number}) + "\n").encode())
            process.stdin.flush()
            line = self._line(process, seconds, what)
        finally:
            process.pause()
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            raise Forfeit("it wrote something on the tournament's channel that is not an answer")
        if answer.get("id") != number:
            raise Forfeit("it wrote an answer on the tournament's channel to no request made")
        return answer

    def _line(self, process: sandbox.Running, seconds: float, what: str) -> bytes:
        assert process.stdout is not None, "start() opens its standard output as a pipe"
        deadline = time.monotonic() + seconds
        fd = process.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Forfeit(f"it took longer than {seconds:g} s {what}")
            if not select.select([fd], [], [], left)[0]:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise Forfeit(self._death())
            self._buffer += chunk
            if len(self._buffer) > ANSWER_BYTES and b"\n" not in self._buffer:
                raise Forfeit("it sent an answer too long to be a turn")
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line

    def _death(self) -> str:
        """Why the process is gone, from how it ended."""
        process = self._running()
        code = process.wait(timeout=2)
        reason = process.reason()
        if reason is not None:
            return self.box.limits.sentence(reason)
        if code is None:
            return "it closed its channel to the tournament"
        if code < 0:
            return f"its process was killed by signal {-code}"
        return f"its process ended (exit code {code}) in the middle of the game"

    def close(self) -> None:
        """End its process, whatever it started, and remove all it wrote."""
        if self.process is not None:
            self.process.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
