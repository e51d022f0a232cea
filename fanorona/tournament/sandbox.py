"""One player in a process of its own, under limits, asked for turns over a pipe.

What it guards against, and how (no container needed):

* time: a wall-clock timer on every answer, and the CPU the process used for it (read from
  /proc); a hard RLIMIT_CPU for the whole game as a backstop;
* memory: RLIMIT_AS;  files: RLIMIT_FSIZE, and a fresh empty working folder holding only its own
  file; the results database's path is never passed and the environment is emptied;
* other processes: its own session, killed whole afterwards; as root, a user id of its own with no
  groups, so it cannot signal the tournament, read files private to their owner (the database is
  made 0600) or fork (RLIMIT_NPROC 1 for that user); not as root, RLIMIT_NPROC 0 stops forks
  but files the tournament's user can read stay readable (see the README);
* output: what it prints is read as it comes, the first ``output_bytes`` kept and the rest
thrown away.

Any breach is a ``Forfeit`` with one sentence saying what the player did.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

MB = 1024 * 1024
ANSWER_BYTES = 4096  # an answer longer than this is not a turn
UID_RANGE = (1_000_000, 2_000_000)  # user ids for players, far from any real user's


class Forfeit(Exception):
    """The player loses the game; the message is the sentence saying why."""


@dataclass(frozen=True)
class Limits:
    """What one player may use in one game."""

    turn_seconds: float = 1.0  # wall and CPU time for one turn
    memory_mb: int = 512  # address space of its process
    load_seconds: float = 10.0  # to start Python and load its file
    output_bytes: int = 4096  # printed output kept for the record
    file_mb: int = 10  # the largest file it may write in its folder

    def __post_init__(self):
        for name in ("turn_seconds", "memory_mb", "load_seconds", "output_bytes", "file_mb"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"Limits.{name} is a positive number; got {value!r}")


def is_root() -> bool:
    return os.geteuid() == 0


class Sandbox:
    """A player's process: ``start()`` launches it, ``ready()`` waits for it to load,
    ``choose(turns)`` asks for a turn, ``close()`` ends it.

    ``entry`` is ``{"name": ..., "spec": "level2"}`` for a built-in player or
    ``{"name": ..., "source": "<the file's text>"}`` for a submission.
    """

    def __init__(self, entry: dict, limits: Limits, seed: int, game_turns: int):
        self.entry, self.limits, self.seed = entry, limits, seed
        self.name = entry["name"]
        self.folder = tempfile.mkdtemp(prefix="fanorona-player-")
        self.uid = (
            secrets.randbelow(UID_RANGE[1] - UID_RANGE[0]) + UID_RANGE[0] if is_root() else None
        )
        self.cpu_budget = int(limits.load_seconds + limits.turn_seconds * (game_turns + 2)) + 1
        self.output = bytearray()
        self.process: subprocess.Popen[bytes] | None = None  # from start() on
        self._buffer = b""
        self.seconds = self.slowest = 0.0

    # -- the process -------------------------------------------------------------------------------

    def _limit(self) -> None:
        """Runs in the child before Python starts: the limits that need no privileges to set."""
        os.setsid()
        resource.setrlimit(resource.RLIMIT_AS, (self.limits.memory_mb * MB,) * 2)
        resource.setrlimit(resource.RLIMIT_CPU, (self.cpu_budget,) * 2)
        resource.setrlimit(resource.RLIMIT_FSIZE, (self.limits.file_mb * MB,) * 2)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if self.uid is None:
            resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))

    def start(self, start: str, rules: dict) -> None:
        if "source" in self.entry:
            path = os.path.join(self.folder, "player.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(self.entry["source"])
            if self.uid is not None:
                os.chown(self.folder, self.uid, self.uid)
                os.chown(path, self.uid, self.uid)
                os.chmod(self.folder, 0o700)
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": self.folder,
            "LANG": "C.UTF-8",
            "PYTHONHASHSEED": "0",
            "OMP_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1",
            "MPLBACKEND": "Agg",
            # pure-Python search: numba's LLVM reserves more address space than the memory limit
            "FANORONA_COMPILED": "0",
        }
        if "spec" in self.entry:  # a built-in level reads the endgame tables' cache
            from ..engine.tablefile import cache_dir

            env["FANORONA_CACHE_DIR"] = str(cache_dir())
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-m", "fanorona.tournament.host"],
            cwd=self.folder,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=self._limit,
            close_fds=True,
        )
        threading.Thread(target=self._drain, daemon=True).start()
        self._request = {
            "start": start,
            "rules": rules,
            "seed": self.seed,
            "uid": self.uid,
            "turn_seconds": self.limits.turn_seconds,
        }
        self._request.update({"spec": self.entry["spec"]} if "spec" in self.entry else {})

    def _running(self) -> subprocess.Popen[bytes]:
        """Its process; asking for it before ``start()`` is a mistake in the tournament's code."""
        if self.process is None:
            raise RuntimeError(f"the sandbox of {self.name!r} is used before start()")
        return self.process

    def ready(self) -> None:
        """Wait until the started player has loaded (both players of a game start at once)."""
        answer = self._ask(self._request, self.limits.load_seconds, "to start")
        if "ready" not in answer:
            raise Forfeit(self._sentence(answer, "could not be loaded"))

    def _drain(self) -> None:
        """Read everything it prints, so it never blocks on a full pipe; keep only the start."""
        stream = self._running().stderr
        assert isinstance(stream, io.BufferedReader), "start() opens stderr as a buffered pipe"
        while chunk := stream.read1(65536):
            room = self.limits.output_bytes - len(self.output)
            if room > 0:
                self.output += chunk[:room]

    def choose(self, turns: list[str]) -> str:
        """Its turn text for the game after ``turns``; a ``Forfeit`` if it breaks a limit."""
        cpu = self._cpu()
        started = time.perf_counter()
        answer = self._ask({"turns": turns}, self.limits.turn_seconds, "to choose a turn")
        spent = time.perf_counter() - started
        used = self._cpu() - cpu
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
        return answer.get("error") or answer.get("malformed") or otherwise

    def _ask(self, request: dict, seconds: float, what: str) -> dict:
        """Send one request and wait at most ``seconds`` for its one-line answer."""
        process = self._running()
        assert process.stdin is not None and process.stdout is not None, "start() opens both"
        try:
            process.stdin.write((json.dumps(request) + "\n").encode())
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise Forfeit(self._death()) from None
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
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            raise Forfeit("it wrote something on the tournament's channel that is not an answer")
        return answer

    def _death(self) -> str:
        """Why the process is gone, from how it ended."""
        try:
            code = self._running().wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "it closed its channel to the tournament"
        if code == -signal.SIGXCPU:
            return f"it used more than the game's {self.cpu_budget} s of CPU"
        if code == -signal.SIGXFSZ:
            return f"it wrote a file larger than {self.limits.file_mb} MB"
        if code < 0:
            return f"its process was killed by signal {signal.Signals(-code).name}"
        return f"its process ended (exit code {code}) in the middle of the game"

    def _cpu(self) -> float:
        """CPU seconds its process has used, from /proc (0 where there is none)."""
        try:
            with open(f"/proc/{self._running().pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return 0.0

    def close(self) -> None:
        """End its process, whatever it started, and remove its folder."""
        if self.process is not None:
            for stream in (self.process.stdin, self.process.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
            if self.uid is not None:
                kill_user(self.uid)
            self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def kill_user(uid: int) -> None:
    """Kill every process of a player's own user id (those that left its session too)."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/status") as f:
                uids = next(line for line in f if line.startswith("Uid:")).split()[1:]
            if int(uids[0]) == uid or int(uids[1]) == uid:
                os.kill(int(pid), signal.SIGKILL)
        except (OSError, StopIteration, ValueError):
            pass
