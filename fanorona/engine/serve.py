"""A player served over the text protocol on standard input and output.

``python -m fanorona.engine.serve level5`` (or ``--level 5``, a spec such as
``alphabeta:depth=3``, or a Python file defining a player the way a tournament submission does:
an object ``player``, a function ``choose_turn(board)`` or one class with ``choose_turn``).  The
protocol is docs/reference/player-protocol.md; a client is ``fanorona.engine.remote``.
"""

from __future__ import annotations

import argparse
import inspect
import queue
import runpy
import sys
import threading
from pathlib import Path

from ..board import Board, Turn
from . import protocol
from .ai import SearchCancelled, make_player
from .protocol import ProtocolError

__all__ = ["Server", "load_player", "main"]


def load_player(spec: str, seed=None):
    """A kit player by its spec (``level5``, ``greedy``, ...), or the player a Python file
    defines."""
    if spec.endswith(".py"):
        return _file_player(Path(spec))
    return make_player(spec, seed)


def _file_player(path: Path):
    if not path.is_file():
        raise ValueError(f"{path}: no such Python file")
    names = runpy.run_path(str(path), run_name="player")
    if hasattr(names.get("player"), "choose_turn"):
        return names["player"]
    classes = [
        v
        for v in names.values()
        if inspect.isclass(v) and v.__module__ == "player" and hasattr(v, "choose_turn")
    ]
    if len(classes) == 1:
        return classes[0]()
    if callable(names.get("choose_turn")):
        return _Function(names["choose_turn"])
    raise ValueError(
        f"{path}: defines no player (an object 'player', a function 'choose_turn(board)' or "
        f"one class with a 'choose_turn' method; found {len(classes)} such classes)"
    )


class _Function:
    """A ``choose_turn(board)`` function as a player."""

    def __init__(self, function):
        self.choose_turn = function


class Server:
    """The player's side of the protocol: ``handle`` takes one line and gives the answer lines.

    ``go`` searches in a thread of its own (``start_search``), so ``stop`` can still be read while
    it runs; ``handle`` answers it with None and the turn comes through ``answers`` once found.
    """

    def __init__(self, player, name: str):
        self.player, self.name = player, name
        self.start: Board | None = None
        self.board: Board | None = None
        self.greeted = False
        self.answers: queue.Queue[str] = queue.Queue()
        self.stop = threading.Event()
        self.search: threading.Thread | None = None

    def handle(self, line: str) -> list[str] | None:
        """The answer to one line: a list of lines (``error ...`` for a line it cannot act on),
        or None for ``go``, whose answer comes later through ``answers``."""
        words = line.split()
        if not words:
            return []
        if self.search is not None and self.search.is_alive():
            if words[0] == "stop":
                self.stop.set()
                return []
            return [f"error {words[0]!r} came while a turn is being chosen; send 'stop' first"]
        try:
            return self._command(words)
        except ProtocolError as e:
            return [f"error {e}"]

    def _command(self, words: list[str]) -> list[str] | None:
        command, args = words[0], words[1:]
        if command == "stop":
            return []  # nothing to stop: no turn is being chosen
        if command == "fanorona":
            if args != [str(protocol.VERSION)]:
                raise ProtocolError(
                    f"this player speaks version {protocol.VERSION}; got {' '.join(args)!r}"
                )
            self.greeted = True
            return [f"fanorona {protocol.VERSION} name {self.name}"]
        if not self.greeted:
            raise ProtocolError(f"the first line is 'fanorona {protocol.VERSION}'")
        if command == "newgame":
            return self._newgame(args)
        if self.start is None:
            raise ProtocolError(f"{command!r} before 'newgame SIZE RULES'")
        if command == "position":
            self.board = protocol.board_from(self.start, args, self.board)
            return ["ok"]
        if command == "legal":
            return ["ok"]  # a kit player has its own move generator
        if command == "takeback":
            return self._takeback()
        if command == "go":
            self._go(args)
            return None
        raise ProtocolError(f"no command {command!r}")

    def _newgame(self, args: list[str]) -> list[str]:
        if len(args) not in (2, 4) or (len(args) == 4 and args[2] != "seed"):
            raise ProtocolError("a new game is written 'newgame SIZE RULES [seed N]'")
        start = protocol.new_board(args[0], args[1])
        if len(args) == 4:
            if not args[3].isdigit():
                raise ProtocolError(f"a seed is a whole number; got {args[3]!r}")
            if hasattr(self.player, "rng"):
                self.player.rng.seed(int(args[3]))
        prepare = getattr(self.player, "prepare", None)
        if prepare is not None:
            prepare(start, progress=False)
        forget = getattr(self.player, "forget", None)
        if forget is not None:
            forget()
        self.start, self.board = start, start.copy()
        return ["ready"]

    def _takeback(self) -> list[str]:
        assert self.board is not None and self.start is not None
        if not self.board.turns:
            raise ProtocolError("no turn to take back: the position is the start")
        turns = [str(t) for t in self.board.turns[:-1]]
        self.board = protocol.board_from(self.start, ["startpos", "turns", *turns])
        return ["ok"]

    def _go(self, args: list[str]) -> None:
        assert self.board is not None
        if self.board.outcome() is not None:
            raise ProtocolError("the game is over: there is no turn to choose")
        movetime = None
        if args:
            if len(args) != 2 or args[0] != "movetime" or not args[1].isdigit():
                raise ProtocolError("a search is asked for with 'go' or 'go movetime MS'")
            movetime = int(args[1]) / 1000
        if movetime and getattr(self.player, "depth", 0) is None:
            self.player.time_limit = movetime  # a clock-driven kit player takes the given time
        self.stop.clear()
        self.start_search(self.board.copy())

    def start_search(self, board: Board) -> None:
        """Choose the turn in a thread of its own, so that ``stop`` is read meanwhile."""
        self.search = threading.Thread(target=self._choose, args=(board,), daemon=True)
        self.search.start()

    def _choose(self, board: Board) -> None:
        try:
            if "stop" in inspect.signature(self.player.choose_turn).parameters:
                turn = self.player.choose_turn(board, stop=self.stop)
            else:
                turn = self.player.choose_turn(board)
        except SearchCancelled:
            self.answers.put("cancelled")
            return
        except BaseException as e:  # a player's own fault (exit() too), said as an error line
            self.answers.put(f"error {self.failure(e)}")
            return
        if not isinstance(turn, (Turn, str)):
            shown = f"{type(turn).__name__} {repr(turn)[:60]}"
            self.answers.put(f"error choose_turn returned {shown}, not a Turn or turn text")
            return
        info = getattr(self.player, "last_search", None)
        if info is not None and hasattr(info, "nodes"):
            score = f" score {int(info.score)}" if hasattr(info, "score") else ""
            self.answers.put(f"info depth {info.depth} nodes {info.nodes}{score}")
        self.answers.put(f"turn {turn}")

    @staticmethod
    def failure(error: BaseException) -> str:
        """The sentence for what the player's ``choose_turn`` raised."""
        return f"the player failed: {type(error).__name__}: {error}"


def serve(server: Server, lines, write) -> None:
    """Answer ``lines`` (an iterator of input lines) through ``write`` until ``quit`` or the end."""
    printer = threading.Thread(target=_forward, args=(server.answers, write), daemon=True)
    printer.start()
    for line in lines:
        if len(line) > protocol.MAX_LINE:
            server.answers.put(f"error a line is at most {protocol.MAX_LINE} characters")
            continue
        if line.split()[:1] == ["quit"]:
            break
        answer = server.handle(line)
        for out in answer or []:
            server.answers.put(out)
    server.stop.set()
    if server.search is not None:
        server.search.join()
    server.answers.put(None)  # type: ignore[arg-type]
    printer.join()


def _forward(answers: queue.Queue, write) -> None:
    while (line := answers.get()) is not None:
        write(line)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fanorona.engine.serve", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "player",
        nargs="?",
        help="a kit player (level5, greedy, alphabeta:depth=3, ...) or a Python file (mine.py)",
    )
    parser.add_argument("--level", type=int, help="a kit level, 1 to 5 (the same as levelN)")
    parser.add_argument("--name", help="the name the player gives in the handshake")
    args = parser.parse_args(argv)
    if (args.player is None) == (args.level is None):
        parser.error("name one player: a spec or file, or --level N")
    spec = args.player or f"level{args.level}"
    try:
        player = load_player(spec)
    except ValueError as e:
        parser.error(str(e))
    name = args.name or (Path(spec).stem if spec.endswith(".py") else spec)

    def write(line: str) -> None:
        sys.stdout.write(line.replace("\n", " ") + "\n")
        sys.stdout.flush()

    serve(Server(player, "".join(name.split()) or "player"), sys.stdin, write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
