"""New games, positions and records, and what is shown: the board's actions that are not clicks.

``Setup`` is the part of ``fanorona.ui.controller.Controller`` that replaces the game (a new game,
a teaching position, a diagram, a game record) or changes how it is shown (the overlays, the
language), each through a method that checks its input first.  The computer's settings are its
seat's (``fanorona.ui.computer.ComputerSeat``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..board import Board
from ..game import Game as GameRecord
from ..notation import NotationError
from ..rules import PRESETS, Rules
from .adapter import GameAdapter
from .labels import labels, say
from .reply import Action, Reply, answer

if TYPE_CHECKING:
    from .controller import Controller

#: Board sizes offered by the size chooser, (width, height).
SIZES = ((9, 5), (5, 5), (3, 3), (5, 3), (3, 5), (7, 3), (3, 7))
#: The picture's overlays, all off at first.
OVERLAYS = ("strings", "legal", "names", "strong", "large")


def parse_size(size) -> tuple[int, int]:
    """A size given as (width, height) or as text like "5x3"."""
    if isinstance(size, str):
        try:
            width, height = (int(n) for n in size.lower().split("x"))
        except ValueError:
            raise ValueError(f"a board size is written like '5x3'; got {size!r}") from None
        return width, height
    return tuple(size)


def size_text(size) -> str:
    return f"{size[0]}x{size[1]}"


class Setup:
    """Replaces the board's game, or changes what is shown of it (see ``Controller``)."""

    def __init__(self, board: Controller):
        self.board = board

    def needs_board(self, what: str) -> None:
        """A ValueError saying that ``what`` needs a ``fanorona.Board``, if a plain model plays."""
        if not self.board.game.is_board:
            kind = type(self.board.model).__name__
            raise ValueError(f"{what} needs a fanorona.Board; this board plays a {kind}")

    def new_game(self, size=None, rules: Rules | str | None = None) -> Reply:
        """Start again from the start position, keeping the size and rules unless new ones are
        given."""
        game = self.board.game
        if not game.is_board:
            if size is not None or rules is not None:
                self.needs_board("a new size or rule set")
            return self.board.act(self._back_to_start)
        size = game.size if size is None else parse_size(size)
        chosen = game.rules if rules is None else rules
        if isinstance(chosen, str):
            chosen = Rules.named(chosen)
        board = Board(size, chosen)
        said = ("new", {"size": size_text(size), "rules": rules_name(chosen, self.board.language)})
        return self.board.act(lambda: self._replace(board, said))

    def _back_to_start(self) -> Reply:
        board = self.board
        board.runner.cancel()
        board.history.forget()
        board.game.back_to_start()
        board.clicks.settle()
        return answer(
            board.language,
            Action.NEW,
            "new",
            size=size_text(board.game.size),
            rules=type(board.model).__name__,
        )

    def load_position(self, name_or_diagram: str) -> Reply:
        """Set up a named teaching position (``positions.names()``), a diagram or a one-line
        position text.

        A diagram has White to move and the current rules; a bad one raises ValueError saying why.
        If the computer plays the side to move, it waits for "Computer move".
        """
        self.needs_board("loading a position")
        board, name = position_from_text(str(name_or_diagram).strip(), self.board.game.rules)
        return self.board.act(lambda: self._replace(board, ("loaded", {"name": name}), pause=True))

    def export_game(self) -> str:
        """The game so far (a chain in progress left out) as a ``fanorona.Game`` JSON record."""
        self.needs_board("a game record")
        with self.board.lock:
            board = self.board.model.copy()
            while board.chain:
                board.pop()
            white, black = (self.board.seat.player_name(side) for side in ("white", "black"))
        return GameRecord.from_board(board, white=white, black=black).to_json()

    def import_game(self, text: str) -> Reply:
        """Replace the game by a JSON game record; one that does not replay raises
        GameRecordError."""
        self.needs_board("a game record")
        board = GameRecord.from_json(text).board()
        said = ("imported", {"n": len(board.turns)})
        return self.board.act(lambda: self._replace(board, said, pause=True))

    def _replace(self, board: Board, said: tuple, pause: bool = False) -> Reply:
        """A new game or position: the computer stops, selection, history and replay are cleared."""
        b = self.board
        b.runner.cancel()
        b.game = GameAdapter(board)
        b.history.forget()
        b.clicks.settle()
        b.shown, b.progress = None, None
        notes = [said, *b.seat.new_game(pause)]
        text = ". ".join(say(b.language, key, **values) for key, values in notes)
        return Reply(Action.LOADED, text, tuple(notes))

    # -- what is shown, each through a method that checks it -----------------------------------

    def set_overlays(self, **overlays: bool) -> None:
        """Switch overlays: strings, legal, names, strong, large (for a projector)."""
        for name in overlays:
            if name not in OVERLAYS:
                raise ValueError(f"no overlay called {name!r}; they are {', '.join(OVERLAYS)}")
        with self.board.lock:
            self.board.overlays = {
                **self.board.overlays,
                **{n: bool(on) for n, on in overlays.items()},
            }
            self.board.changed()

    def set_language(self, language: str) -> None:
        """The language of every label and sentence, the status line's included."""
        labels(language)
        with self.board.lock:
            self.board.language = language
            self.board.changed()


def rules_name(rules: Rules, language: str) -> str:
    name = rules.name() or "custom"
    return labels(language)[f"preset_{name}"] if name in PRESETS + ("custom",) else name


def position_from_text(text: str, rules: Rules) -> tuple[Board, str]:
    """A named teaching position, a diagram or a one-line position text, and its name; ValueError if
    none."""
    from .. import positions

    if text in positions.names():
        return positions.load(text), text
    try:
        return (
            Board.from_fen(text, rules) if "/" in text else Board.from_diagram(text, rules=rules)
        ), "diagram"
    except (NotationError, ValueError) as e:
        raise ValueError(
            f"{text!r} is neither a position name ({', '.join(positions.names())}) "
            f"nor a diagram: {e}"
        ) from None


__all__ = ["OVERLAYS", "SIZES", "Setup", "parse_size", "size_text"]
