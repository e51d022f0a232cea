"""A player that lives in another process and speaks the text protocol, as a kit player.

``RemotePlayer(["python", "-m", "fanorona.engine.serve", "level5"])`` (or any program in any
language that speaks docs/reference/player-protocol.md) has ``choose_turn(board)`` like every kit
player, so the arena plays it like any other.  Every call has a time limit; whatever the program
does wrong (a line it should not send, an illegal turn, silence past its time, an exit) raises
``PlayerFault`` with one sentence naming the player and the line, which the arena counts as a
forfeit.  python-chess's ``SimpleEngine`` is the model.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import threading
import time
from dataclasses import dataclass

from ..board import Board, Turn
from . import protocol
from .ai import SearchCancelled
from .protocol import PlayerFault

__all__ = ["RemotePlayer", "Timeouts", "read_answer"]


@dataclass(frozen=True)
class Timeouts:
    """Seconds each call may take before the player forfeits."""

    start: float = 60.0  # from starting the program to its answer to the handshake
    newgame: float = 300.0  # a kit level may read (or build) its endgame table here
    command: float = 10.0  # position, legal, takeback
    turn: float = 60.0  # a 'go' without a movetime
    grace: float = 5.0  # beyond a 'go movetime', on top of the movetime itself


_EOF = object()


def read_answer(name: str, board: Board, line: str) -> Turn | None:
    """What a line sent in answer to ``go`` means: the turn it names, None for an ``info`` line
    (read on); anything else is a ``PlayerFault`` naming the player and the line."""
    words = line.split()
    if words[:1] == ["info"]:
        return None
    if words[:1] == ["error"]:
        raise PlayerFault(
            name, f"answered {line!r} (an error of its own) where a turn was expected"
        )
    if len(words) != 2 or words[0] != "turn":
        raise PlayerFault(
            name, f"answered {line!r} where 'turn TURN' (or an 'info' line) was expected"
        )
    try:
        return board.parse_turn(words[1])
    except ValueError as e:
        raise PlayerFault(name, f"answered {line!r}, which is not a legal turn here: {e}") from None


class RemotePlayer:
    """A player in a program of its own, started on first use and ended by ``close``.

    ``movetime`` (seconds) is sent with every ``go``; without it the program uses its own clock
    and has ``Timeouts.turn`` seconds.  A copy (the arena makes one a game) starts a program of
    its own.
    """

    def __init__(
        self,
        command: list[str],
        name: str | None = None,
        movetime: float | None = None,
        timeouts: Timeouts = Timeouts(),
        seed: int | None = None,
        cwd: str | None = None,
        env: dict | None = None,
    ):
        if not command or not all(isinstance(word, str) for word in command):
            raise ValueError(f"a remote player's command is a list of words; got {command!r}")
        self.command, self.movetime, self.timeouts = list(command), movetime, timeouts
        self.name = name or os.path.basename(command[-1])
        self.seed, self.cwd, self.env = seed, cwd, env
        self.last_search: _Info | None = None
        self._process: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._stderr: list[str] = []
        self._game: tuple | None = None
        self._pumps: list[threading.Thread] = []

    def __getstate__(self):
        """Copies (the arena's, a worker's) carry the command, never the running program."""
        state = dict(self.__dict__)
        state.update(_process=None, _lines=None, _stderr=[], _game=None, _pumps=[])
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lines = queue.Queue()

    # -- the calls -------------------------------------------------------------------------

    def choose_turn(self, board: Board, stop: threading.Event | None = None) -> Turn:
        """The program's turn for ``board`` (a board played from its size's start)."""
        rules = board.rules.name()
        if not rules:
            raise ValueError("the protocol carries the named rule sets only (rules.PRESETS)")
        game = (board.size, rules, board.root().fen())
        if game[2] != Board(board.size, board.rules).fen():
            raise ValueError("the protocol carries games played from the size's starting position")
        self._start()
        if game != self._game:
            width, height = board.size
            seed = "" if self.seed is None else f" seed {self.seed}"
            self._ask(f"newgame {width}x{height} {rules}{seed}", "ready", self.timeouts.newgame)
            self._game = game
        self._ask(protocol.position_line(board), "ok", self.timeouts.command)
        legal = " ".join(str(t) for t in board.legal_turns())
        self._ask(f"legal {legal}", "ok", self.timeouts.command)
        if self.movetime:
            self._send(f"go movetime {round(self.movetime * 1000)}")
            limit = self.movetime + self.timeouts.grace
        else:
            self._send("go")
            limit = self.timeouts.turn
        started = time.monotonic()
        turn = self._turn(board, started + limit, stop)
        if self.last_search is not None:
            self.last_search.time = time.monotonic() - started
        return turn

    def close(self) -> None:
        """End the program: ``quit``, then a kill if it has not gone within two seconds."""
        process, self._process, self._game = self._process, None, None
        if process is None:
            return
        try:
            if process.stdin is not None:
                process.stdin.write("quit\n")
                process.stdin.flush()
                process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(2)
        except subprocess.TimeoutExpired:
            _kill(process)
        for pump in self._pumps:
            pump.join(1)  # the pipes end with the program (or a child left holding them)

    def __del__(self):
        process = getattr(self, "_process", None)
        if process is not None:
            _kill(process)

    # -- the pipe ----------------------------------------------------------------------------

    def _start(self) -> None:
        if self._process is not None:
            return
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",
                bufsize=1,
                cwd=self.cwd,
                env=self.env,
                start_new_session=True,  # its own process group, so that close ends its children
            )
        except OSError as e:
            raise PlayerFault(
                self.name, f"could not be started ({' '.join(self.command)}): {e}"
            ) from None
        self._lines = queue.Queue()
        self._pumps = [
            threading.Thread(target=self._pump, args=(stream, target), daemon=True)
            for stream, target in (
                (self._process.stdout, self._lines.put),
                (self._process.stderr, None),
            )
        ]
        for pump in self._pumps:
            pump.start()
        line = self._ask(f"fanorona {protocol.VERSION}", None, self.timeouts.start)
        words = line.split()
        if words[:2] != ["fanorona", str(protocol.VERSION)] or (
            len(words) > 2 and (words[2] != "name" or len(words) != 4)
        ):
            raise PlayerFault(
                self.name,
                f"answered {line!r} to the handshake 'fanorona {protocol.VERSION}' "
                f"(expected 'fanorona {protocol.VERSION} name NAME')",
            )

    def _pump(self, stream, put) -> None:
        """Read one of the program's streams to its end (a thread each, so none fills up)."""
        try:
            for line in stream:
                if put is None:
                    self._stderr = [*self._stderr[-4:], line.rstrip()]
                else:
                    put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass  # the stream was closed under the thread
        stream.close()
        if put is not None:
            put(_EOF)

    def _send(self, line: str) -> None:
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except OSError:
            raise PlayerFault(
                self.name, f"{self._gone()} before reading {_short(line)!r}"
            ) from None

    def _read(self, deadline: float, asked: str) -> str:
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise PlayerFault(self.name, f"did not answer {_short(asked)!r} in time") from None
        if line is _EOF:
            raise PlayerFault(self.name, f"{self._gone()} without answering {_short(asked)!r}")
        if len(line) > protocol.MAX_LINE:
            raise PlayerFault(self.name, f"answered a line of {len(line):,} characters")
        return line

    def _ask(self, line: str, expected: str | None, seconds: float) -> str:
        """Send a command and read its one answer: ``expected`` exactly, or any line if None."""
        self._send(line)
        answer = self._read(time.monotonic() + seconds, line)
        if expected is not None and answer.strip() != expected:
            said = answer.split(maxsplit=1)
            why = f"saying {said[1]!r}" if said[:1] == ["error"] and len(said) > 1 else "instead"
            raise PlayerFault(
                self.name,
                f"answered {answer!r} to {_short(line)!r} ({why}; expected {expected!r})",
            )
        return answer

    def _turn(self, board: Board, deadline: float, stop) -> Turn:
        stopped, self.last_search = False, None
        while True:
            if stop is not None and stop.is_set() and not stopped:
                self._send("stop")
                stopped, deadline = True, time.monotonic() + self.timeouts.command
            wait = deadline if stop is None or stopped else min(deadline, time.monotonic() + 0.05)
            try:
                line = self._read(wait, "go")
            except PlayerFault:
                if wait < deadline:
                    continue
                raise
            if stopped and line.strip() == "cancelled":
                raise SearchCancelled
            turn = read_answer(self.name, board, line)
            if turn is not None:
                return turn
            self.last_search = _info(line) or self.last_search

    def _gone(self) -> str:
        assert self._process is not None
        try:
            code = self._process.wait(1)
        except subprocess.TimeoutExpired:
            return "closed its output"
        for pump in self._pumps:
            pump.join(1)  # the last words on its error stream, read to their end
        said = f", its last words {self._stderr[-1]!r}" if self._stderr else ""
        return f"ended (exit code {code}{said})"


@dataclass
class _Info:
    """What an ``info`` line said, for the arena's nodes a second."""

    depth: int
    nodes: int
    time: float = 0.0


def _info(line: str) -> _Info | None:
    words = line.split()[1:]
    said = dict(zip(words[::2], words[1::2]))
    try:
        return _Info(int(said["depth"]), int(said["nodes"]))
    except (KeyError, ValueError):
        return None  # an info line is the player's own business; a bad one is left unread


def _kill(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _short(line: str) -> str:
    return line if len(line) <= 60 else line[:57] + "..."
