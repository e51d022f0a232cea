"""A player that lives in another process and speaks the text protocol, as a kit player.

``RemotePlayer(["python", "-m", "fanorona.engine.serve", "level5"])`` (or any program in any
language that speaks docs/reference/player-protocol.md) has ``choose_turn(board)`` like every kit
player, so the arena plays it like any other.  Every call has a time limit; whatever the program
does wrong (a line it should not send, an illegal turn, silence past its time, an exit) raises
``PlayerFault`` with one sentence naming the player and the line, which the arena counts as a
forfeit.  python-chess's ``SimpleEngine`` is the model.  How the program is reached is a
``Pipe``: a plain process by default (``ProcessPipe``), the sandbox's for the tournament's players.
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

__all__ = ["Pipe", "ProcessPipe", "RemotePlayer", "Timeouts", "read_answer"]


@dataclass(frozen=True)
class Timeouts:
    """Seconds each call may take before the player forfeits."""

    start: float = 60.0  # from starting the program to its answer to the handshake
    newgame: float = 300.0  # a kit level may read (or build) its endgame table here
    command: float = 10.0  # position, legal, takeback
    turn: float = 60.0  # a 'go' without a movetime
    grace: float = 5.0  # beyond a 'go movetime', on top of the movetime itself


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


class Pipe:
    """The way to a player's program: started by ``open``, written a line at a time, read a line
    at a time until a deadline, and ended by ``close``.  ``wake`` and ``rest`` come before and
    after each exchange (the tournament's sandbox stops its players between their turns)."""

    def open(self) -> None:
        """Start the program (an ``OSError`` if it cannot be)."""
        raise NotImplementedError

    def send(self, line: str) -> None:
        """Write one line (an ``OSError`` if the program is gone)."""
        raise NotImplementedError

    def read(self, deadline: float) -> str | None:
        """The program's next line, None once it closed its output; ``TimeoutError`` at
        ``deadline`` (``time.monotonic``)."""
        raise NotImplementedError

    def pending(self) -> bool:
        """Whether the program wrote something no command asked for."""
        raise NotImplementedError

    def gone(self) -> str:
        """How the program ended, said after its name: ``ended (exit code 3)``."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def wake(self) -> None:
        """Before an exchange."""

    def rest(self) -> None:
        """After an exchange."""


class ProcessPipe(Pipe):
    """A program started as a process of its own (and its own process group), read by a thread
    a stream so that neither fills up; its last lines on standard error name how it ended."""

    def __init__(self, command: list[str], cwd: str | None = None, env: dict | None = None):
        self.command, self.cwd, self.env = list(command), cwd, env
        self._process: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._stderr: list[str] = []
        self._pumps: list[threading.Thread] = []

    def __getstate__(self):
        """Copies (the arena's, a worker's) carry the command, never the running program."""
        return {"command": self.command, "cwd": self.cwd, "env": self.env}

    def __setstate__(self, state):
        fresh = ProcessPipe(**state)
        self.__dict__.update(fresh.__dict__)

    def open(self) -> None:
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
        self._lines, self._stderr = queue.Queue(), []
        self._pumps = [
            threading.Thread(target=self._pump, args=(stream, target), daemon=True)
            for stream, target in (
                (self._process.stdout, self._lines.put),
                (self._process.stderr, None),
            )
        ]
        for pump in self._pumps:
            pump.start()

    def _pump(self, stream, put) -> None:
        """Read one of the program's streams to its end."""
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
            put(None)

    def send(self, line: str) -> None:
        assert self._process is not None and self._process.stdin is not None, "open() first"
        self._process.stdin.write(line + "\n")
        self._process.stdin.flush()

    def read(self, deadline: float) -> str | None:
        try:
            return self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise TimeoutError from None

    def pending(self) -> bool:
        return not self._lines.empty()

    def gone(self) -> str:
        assert self._process is not None, "open() first"
        try:
            code = self._process.wait(1)
        except subprocess.TimeoutExpired:
            return "closed its output"
        for pump in self._pumps:
            pump.join(1)  # the last words on its error stream, read to their end
        said = f", its last words {self._stderr[-1]!r}" if self._stderr else ""
        return f"ended (exit code {code}{said})"

    def close(self) -> None:
        """``quit``, then a kill if it has not gone within two seconds."""
        process, self._process = self._process, None
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


class RemotePlayer:
    """A player in a program of its own, started on first use and ended by ``close``.

    ``program`` is the command that starts it (a list of words) or a ``Pipe``.  ``movetime``
    (seconds) is sent with every ``go``; without it the program uses its own clock and has
    ``Timeouts.turn`` seconds.  A copy (the arena makes one a game) starts a program of its own.
    """

    def __init__(
        self,
        program: list[str] | Pipe,
        name: str | None = None,
        movetime: float | None = None,
        timeouts: Timeouts = Timeouts(),
        seed: int | None = None,
        cwd: str | None = None,
        env: dict | None = None,
    ):
        if isinstance(program, Pipe):
            self.pipe = program
        elif program and isinstance(program, list) and all(isinstance(w, str) for w in program):
            self.pipe = ProcessPipe(program, cwd, env)
        else:
            raise ValueError(f"a remote player's command is a list of words; got {program!r}")
        self.name = name or os.path.basename(getattr(self.pipe, "command", ["player"])[-1])
        self.movetime, self.timeouts, self.seed = movetime, timeouts, seed
        self.last_search: _Info | None = None
        self._open = False
        self._game: tuple | None = None

    def __getstate__(self):
        """Copies (the arena's, a worker's) carry the command, never the running program."""
        return dict(self.__dict__, _open=False, _game=None)

    # -- the calls -------------------------------------------------------------------------

    def begin(self, board: Board) -> None:
        """Start the program if it is not running and set up ``board``'s game (a board played
        from its size's start): what ``choose_turn`` does first, for loading before any clock."""
        game = self._game_of(board)
        with self._exchange():
            self._begin(board, game)

    def choose_turn(self, board: Board, stop: threading.Event | None = None) -> Turn:
        """The program's turn for ``board`` (a board played from its size's start)."""
        game = self._game_of(board)
        with self._exchange():
            self._begin(board, game)
            self._ask(protocol.position_line(board), "ok", self.timeouts.command)
            legal = " ".join(str(t) for t in board.legal_turns())
            self._ask(f"legal {legal}", "ok", self.timeouts.command)
            if self.movetime:
                asked = f"go movetime {round(self.movetime * 1000)}"
                limit = self.movetime + self.timeouts.grace
            else:
                asked, limit = "go", self.timeouts.turn
            self._send(asked)
            started = time.monotonic()
            turn = self._turn(board, asked, limit, stop)
        if self.last_search is not None:
            self.last_search.time = time.monotonic() - started
        return turn

    def close(self) -> None:
        """End the program (the pipe's way: ``quit``, then a kill)."""
        self._open, self._game = False, None
        self.pipe.close()

    # -- the exchanges -----------------------------------------------------------------------

    @staticmethod
    def _game_of(board: Board) -> tuple:
        rules = board.rules.name()
        if not rules:
            raise ValueError("the protocol carries the named rule sets only (rules.PRESETS)")
        game = (board.size, rules, board.root().fen())
        if game[2] != Board(board.size, board.rules).fen():
            raise ValueError("the protocol carries games played from the size's starting position")
        return game

    @contextlib.contextmanager
    def _exchange(self):
        """One call's lines: refused if the program wrote between calls, and bracketed by the
        pipe's ``wake`` and ``rest``."""
        if self._open and self.pipe.pending():
            line = self.pipe.read(time.monotonic())
            said = f"wrote {_short(line)!r} by itself" if line is not None else self.pipe.gone()
            raise PlayerFault(self.name, f"{said}, between its turns")
        self.pipe.wake()
        try:
            yield
        finally:
            self.pipe.rest()

    def _begin(self, board: Board, game: tuple) -> None:
        if not self._open:
            self._start()
        if game != self._game:
            width, height = board.size
            seed = "" if self.seed is None else f" seed {self.seed}"
            self._ask(f"newgame {width}x{height} {game[1]}{seed}", "ready", self.timeouts.newgame)
            self._game = game

    def _start(self) -> None:
        try:
            self.pipe.open()
        except OSError as e:
            command = " ".join(getattr(self.pipe, "command", [self.name]))
            raise PlayerFault(self.name, f"could not be started ({command}): {e}") from None
        self._open = True
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

    def _send(self, line: str) -> None:
        try:
            self.pipe.send(line)
        except OSError:
            raise PlayerFault(
                self.name, f"{self.pipe.gone()} before reading {_short(line)!r}"
            ) from None

    def _read(self, deadline: float, asked: str, seconds: float = 0.0) -> str:
        try:
            line = self.pipe.read(deadline)
        except TimeoutError:
            raise PlayerFault(
                self.name, f"did not answer {_short(asked)!r} within {seconds:g} s"
            ) from None
        if line is None:
            raise PlayerFault(self.name, f"{self.pipe.gone()} without answering {_short(asked)!r}")
        if len(line) > protocol.MAX_LINE:
            raise PlayerFault(self.name, f"answered a line of {len(line):,} characters")
        return line

    def _ask(self, line: str, expected: str | None, seconds: float) -> str:
        """Send a command and read its one answer: ``expected`` exactly, or any line if None."""
        self._send(line)
        answer = self._read(time.monotonic() + seconds, line, seconds)
        if expected is not None and answer.strip() != expected:
            said = answer.split(maxsplit=1)
            why = f"saying {said[1]!r}" if said[:1] == ["error"] and len(said) > 1 else "instead"
            raise PlayerFault(
                self.name,
                f"answered {answer!r} to {_short(line)!r} ({why}; expected {expected!r})",
            )
        return answer

    def _turn(self, board: Board, asked: str, seconds: float, stop) -> Turn:
        stopped, self.last_search = False, None
        deadline = time.monotonic() + seconds
        while True:
            if stop is not None and stop.is_set() and not stopped:
                self._send("stop")
                stopped, deadline = True, time.monotonic() + self.timeouts.command
            wait = deadline if stop is None or stopped else min(deadline, time.monotonic() + 0.05)
            try:
                line = self._read(wait, asked, seconds)
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
