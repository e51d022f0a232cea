"""One player in the kit's sandbox (``fanorona.sandbox``), asked for turns over the text protocol.

The player's process runs ``fanorona.tournament.host`` under bubblewrap (its own network, so the
Dask scheduler is out of reach; private /tmp and /dev/shm that vanish with it; a user id of its
own, with no second process or thread) and is spoken to by the kit's protocol client
(``engine.remote.RemotePlayer``) over the sandboxed process's pipes (``SandboxPipe``), like any
player in another process.  Everything that counts is measured from outside:

* time: wall clock on every answer, and the CPU of its whole process tree, read from /proc;
* its opponent's time: it is stopped (SIGSTOP) from its answer until its next command, so it
  cannot think between its turns, and its CPU over the game is held to a budget;
* the channel: a line it wrote that no command asked for (an answer forged ahead) is a forfeit.

Any breach is a ``PlayerFault``: one sentence naming the player and what it did.
"""

from __future__ import annotations

import base64
import os
import select
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .. import sandbox
from ..board import Board, Turn
from ..engine.protocol import MAX_LINE, PlayerFault
from ..engine.remote import Pipe, RemotePlayer, Timeouts
from ..sandbox.command import PACKAGE

MB = 1024 * 1024
OUTPUT_CAP = MB  # printing more than this in one game is a forfeit; the record keeps less
#: How a player's process starts: the folder holding the package (its one argument) first on the
#: path, as the sandbox shows it (an editable install's finder names the host's place, which the
#: sandbox may show elsewhere).
BOOT = (
    "import os, runpy, sys; sys.path.insert(0, os.path.dirname(sys.argv.pop(1)));"
    " runpy.run_module('fanorona.tournament.host', run_name='__main__', alter_sys=True)"
)


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


class SandboxPipe(Pipe):
    """The pipes of a player's process in the sandbox, for the protocol client: started (once)
    with the player's source ahead of the protocol, resumed for each exchange and stopped after
    it, read without a thread of the reader's."""

    def __init__(self, entry: dict, limits: Limits, game_turns: int):
        self.entry, self.limits = entry, limits
        # a built-in level is the kit's own code: it keeps the tournament's user id (without
        # capabilities) to read the endgame tables the tournament cached, private to that user
        self.box = sandbox.Sandbox(limits.for_game(game_turns), own_user="spec" not in entry)
        self.process: sandbox.Running | None = None  # from open() on
        self._buffer = b""

    def open(self) -> None:
        if self.process is not None:
            return
        env = {"MPLBACKEND": "Agg", "PYTHONHASHSEED": "0", "FANORONA_COMPILED": "0"}
        readable: list[Path] = []
        argv = ["--name", self.entry["name"], "--turn-seconds", str(self.limits.turn_seconds)]
        source = self.entry.get("source", "").encode("utf-8")
        if "program" in self.entry:  # the host puts the program in its place (exec)
            source = base64.b64decode(self.entry["program"])
            argv += ["--program-bytes", str(len(source))]
        elif "spec" in self.entry:  # a built-in level reads the endgame tables' cache
            from ..engine.tablefile import cache_dir

            env["FANORONA_CACHE_DIR"] = str(cache_dir())
            readable = [cache_dir()] if cache_dir().exists() else []
            argv += ["--spec", self.entry["spec"]]
        else:
            argv += ["--source-bytes", str(len(source))]
        self.process = self.box.start(
            [sys.executable, "-I", "-c", BOOT, str(PACKAGE), *argv], readable=readable, env=env
        )
        if source:
            self.send_bytes(source)

    def running(self) -> sandbox.Running:
        """Its process; asking for it before ``open()`` is a mistake in the tournament's code."""
        if self.process is None:
            raise RuntimeError(f"the process of {self.entry['name']!r} is used before open()")
        return self.process

    def send_bytes(self, data: bytes) -> None:
        stdin = self.running().stdin
        assert stdin is not None, "the sandbox opens its standard input as a pipe"
        stdin.write(data)
        stdin.flush()

    def send(self, line: str) -> None:
        self.send_bytes((line + "\n").encode("utf-8"))

    def read(self, deadline: float) -> str | None:
        stdout = self.running().stdout
        assert stdout is not None, "the sandbox opens its standard output as a pipe"
        fd = stdout.fileno()
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_LINE:  # the client refuses it, naming its length
                line, self._buffer = self._buffer, b""
                return line.decode("utf-8", "replace")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            if not select.select([fd], [], [], left)[0]:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace").rstrip("\r")

    def pending(self) -> bool:
        stdout = self.running().stdout
        assert stdout is not None, "the sandbox opens its standard output as a pipe"
        return bool(self._buffer) or bool(select.select([stdout], [], [], 0)[0])

    def gone(self) -> str:
        """Why the process is gone, from how it ended."""
        process = self.running()
        code = process.wait(timeout=2)
        reason = process.reason()
        if reason is not None:
            return self.box.limits.sentence(reason).removeprefix("it ")
        if code is None:
            return "closed its channel to the tournament"
        if code < 0:
            return f"was killed by signal {-code}"
        return f"ended (exit code {code}) in the middle of the game"

    def wake(self) -> None:
        if self.process is not None:  # not yet open: it starts running
            self.process.resume()

    def rest(self) -> None:
        self.running().pause()

    def close(self) -> None:
        """End its process, whatever it started, and remove all it wrote."""
        if self.process is not None:
            self.process.close()


class Player:
    """A tournament player: its process in the sandbox (``pipe``) spoken to by the protocol
    client, with the tournament's limits on each turn.  ``pipe.open()`` launches it,
    ``begin(board)`` waits for it to load, ``choose_turn(board)`` asks for a turn, ``close()``
    ends it and removes all it wrote; a breach is a ``PlayerFault`` naming it.

    ``entry`` is ``{"name": ..., "spec": "level2"}`` for a built-in player,
    ``{"name": ..., "source": "<the file's text>"}`` for a Python submission and
    ``{"name": ..., "program": "<its bytes in base64>"}`` for a program in any language.
    """

    def __init__(self, entry: dict, limits: Limits, seed: int, game_turns: int):
        self.name, self.limits = entry["name"], limits
        self.pipe = SandboxPipe(entry, limits, game_turns)
        load, turn = limits.load_seconds, limits.turn_seconds
        timeouts = Timeouts(start=load, newgame=load, command=load, turn=turn)
        self.remote = RemotePlayer(self.pipe, name=self.name, timeouts=timeouts, seed=seed)
        self.seconds = self.slowest = 0.0

    @property
    def output(self) -> bytes:
        """What it printed, cut at the limit kept for the record."""
        process = self.pipe.process
        return process.errors()[: self.limits.output_bytes] if process else b""

    def begin(self, board: Board) -> None:
        """Start it if need be and wait until it has loaded for ``board``'s game."""
        self.remote.begin(board)

    def choose_turn(self, board: Board) -> Turn:
        """Its turn for ``board``; a ``PlayerFault`` if it breaks the protocol or a limit."""
        self.pipe.open()  # started already, unless the game skipped ``begin``
        process = self.pipe.running()
        cpu, started = process.cpu_seconds(), time.perf_counter()
        turn = self.remote.choose_turn(board)
        spent = time.perf_counter() - started
        used = process.cpu_seconds() - cpu
        self.seconds += spent
        self.slowest = max(self.slowest, spent)
        if used > self.limits.turn_seconds:
            raise PlayerFault(
                self.name,
                f"used {used:.2f} s of CPU for one turn; the limit is"
                f" {self.limits.turn_seconds:g} s",
            )
        return turn

    def close(self) -> None:
        self.remote.close()
