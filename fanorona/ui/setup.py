"""New games, positions, records and settings: the board's actions that are not clicks.

``Setup`` is the part of ``fanorona.ui.controller.Controller`` that replaces the game (a new game,
a teaching position, a diagram, a game record) or changes how it is played and shown (the
computer's side and level, the step delay, the overlays, the language).  Every setting is
changed through a method that checks it first; the computer's settings are a frozen
``ComputerSettings``, so nothing is changed by writing an attribute.
"""

from __future__ import annotations

from ..board import Board
from ..game import Game as GameRecord
from ..notation import NotationError
from ..rules import PRESETS, Rules
from .adapter import GameAdapter
from .labels import labels
from .reply import Action, Reply
from .settings import COMPUTER_SIDES, STRONGEST, ComputerSettings, perfect_offered
from .state import BoardState

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


class Setup(BoardState):
    """The controller's actions that replace the game or change a setting (see ``Controller``)."""

    def _needs_board(self, what: str) -> None:
        if not self.game.is_board:
            raise ValueError(
                f"{what} needs a fanorona.Board; this board plays a {type(self.model).__name__}"
            )

    def new_game(self, size=None, rules: Rules | str | None = None) -> Reply:
        """Start again from the start position, keeping the size and rules unless new ones are
        given."""
        if not self.game.is_board:
            if size is not None or rules is not None:
                self._needs_board("a new size or rule set")
            return self._act(self._back_to_start)
        size = self.game.size if size is None else parse_size(size)
        chosen = self.game.rules if rules is None else rules
        if isinstance(chosen, str):
            chosen = Rules.named(chosen)
        board = Board(size, chosen)
        said = ("new", {"size": size_text(size), "rules": rules_name(chosen, self.language)})
        return self._act(lambda: self._replace(board, said))

    def _back_to_start(self) -> Reply:
        self.runner.cancel()
        self._redo.clear()
        self.game.back_to_start()
        self._settle()
        return self._say(
            Action.NEW, "new", size=size_text(self.game.size), rules=type(self.model).__name__
        )

    def load_position(self, name_or_diagram: str) -> Reply:
        """Set up a named teaching position (``positions.names()``), a diagram or a one-line
        position text.

        A diagram has White to move and the current rules; a bad one raises ValueError saying why.
        If the computer plays the side to move, it waits for "Computer move".
        """
        self._needs_board("loading a position")
        board, name = position_from_text(str(name_or_diagram).strip(), self.game.rules)
        return self._act(lambda: self._replace(board, ("loaded", {"name": name}), pause=True))

    def export_game(self) -> str:
        """The game so far (a chain in progress left out) as a ``fanorona.Game`` JSON record."""
        self._needs_board("a game record")
        with self.lock:
            board = self.model.copy()
            while board.chain:
                board.pop()
            white, black = self.player_name("white"), self.player_name("black")
        return GameRecord.from_board(board, white=white, black=black).to_json()

    def import_game(self, text: str) -> Reply:
        """Replace the game by a JSON game record; one that does not replay raises
        GameRecordError."""
        self._needs_board("a game record")
        board = GameRecord.from_json(text).board()
        return self._act(
            lambda: self._replace(board, ("imported", {"n": len(board.turns)}), pause=True)
        )

    def _replace(self, board: Board, said: tuple, pause: bool = False) -> Reply:
        """A new game or position: the computer stops, selection, history and replay are cleared."""
        self.runner.cancel()
        self.game = GameAdapter(board)
        self._redo.clear()
        self._settle()
        self.searched, self.shown, self.progress = (), None, None
        notes = [said]
        if self.settings.level == "perfect" and not perfect_offered(self.game):
            self.settings = self.settings.with_level(STRONGEST, False)
            notes.append(("level_changed", {"level": STRONGEST}))
        self.settings = self.settings.with_paused(pause and self.computer_to_move(live_only=False))
        if self.settings.paused:
            notes.append(("computer_paused", {"side": self.game.to_move}))
        return Reply(
            Action.LOADED, ". ".join(self.sentence(k, **v) for k, v in notes), tuple(notes)
        )

    # -- settings, each through a method that checks it -----------------------------------------

    def set_computer(self, side: str) -> Reply:
        """Who the computer plays: 'nobody', 'white', 'black' or 'both'."""
        if side != "nobody" and side in COMPUTER_SIDES:
            self._needs_board("the computer")
        return self._act(lambda: self._computer_changed(self.settings.with_side(side)))

    def set_level(self, level) -> Reply:
        """The computer's level: 1 to 5, 'perfect' (small boards, standard rules) or 'custom'."""
        return self._act(
            lambda: self._computer_changed(
                self.settings.with_level(level, perfect_offered(self.game))
            )
        )

    def _computer_changed(self, settings: ComputerSettings) -> Reply:
        self.runner.cancel()
        self.settings, self.searched, self.progress = settings, (), None
        self._settle()
        return self._say(Action.SETTINGS)

    def set_delay(self, seconds: float) -> None:
        """Seconds between the computer's animated steps (0 for tests)."""
        with self.lock:
            self._change(settings=self.settings.with_delay(seconds))

    def set_overlays(self, **overlays: bool) -> None:
        """Switch overlays: strings, legal, names, strong, large (for a projector)."""
        for name in overlays:
            if name not in OVERLAYS:
                raise ValueError(f"no overlay called {name!r}; they are {', '.join(OVERLAYS)}")
        self._change(
            overlays={**self.overlays, **{name: bool(on) for name, on in overlays.items()}}
        )

    def set_language(self, language: str) -> None:
        """The language of every label and sentence, the status line's included."""
        labels(language)
        self._change(language=language)

    def _change(self, **state) -> None:
        """A setting that changes only what is shown (checked before; the lock held while set)."""
        with self.lock:
            for name, value in state.items():
                setattr(self, name, value)
            self.changed()

    def computer_move(self) -> Reply:
        """Let a paused computer move now (after a position was loaded)."""

        def move():
            self.settings = self.settings.with_paused(False)
            if self.computer_to_move():
                return self._say(Action.RESUMED)
            if self.shown is not None:
                return self._say(
                    Action.REFUSED, "replaying", n=self.shown, total=len(self.game.turns)
                )
            return self._say(
                Action.REFUSED, "game_over" if self.game.outcome() else "computer_nothing"
            )

        return self._act(move)

    def levels(self) -> list:
        """The levels offered for this board: 1-5, 'perfect' where the solver answers, 'custom' if
        given."""
        return self.settings.levels(perfect_offered(self.game))


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
