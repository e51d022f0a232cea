"""The board's controller: what a click, a button or a program does to a game, with no GUI.

``Controller`` is a thin coordinator.  It holds the lock, the game (through
``fanorona.ui.adapter.GameAdapter``, which talks to a ``fanorona.Board`` or a student's class
following ``Model`` and turns its faults into sentences), the replay slider's turn and the status
line's state; ``act`` runs every action under the lock, keeps its sentence, tells the views and
lets the computer move.  Each other job is a part of its own, handed the controller:

- ``clicks``: the click state machine, owning the selection and the step waiting for its
  approach-or-withdrawal choice (``fanorona.ui.clicks.Clicks``);
- ``history``: undo and redo by turn and by step, owning the turns taken back
  (``fanorona.ui.history.History``);
- ``setup``: new games, positions, records, overlays and language (``fanorona.ui.setup.Setup``);
- ``seat``: the computer's settings, its search line and its thread
  (``fanorona.ui.computer.ComputerSeat``, which owns the ``ComputerRunner``);
- ``shows``: what a view reads (``fanorona.ui.scene.Shows``, over the functions of
  ``fanorona.ui.scene``).

``fanorona.ui.widget.BoardWidget`` only draws and forwards clicks, so every rule of a click is
tested here without ipywidgets or matplotlib.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..board import Board
from ..rules import Rules
from .adapter import GameAdapter, Model, ModelFault, check_model, turn_text
from .clicks import Clicks
from .computer import ComputerSeat
from .history import History
from .labels import labels
from .reply import Action, Reply, answer
from .scene import Shows, choice_strings, move_lines, must_capture, scene, status
from .settings import COMPUTER_SIDES, LEVELS
from .setup import OVERLAYS, SIZES, Setup, parse_size, size_text


class Controller:
    """The interactive board's state and rules of interaction; thread-safe (one lock).

    ``model``: a ``fanorona.Board`` (used as it is) or any object following ``Model``; without
    one, a new board of ``size`` and ``rules``.  ``opponent``: a level 1-5 or a player with
    ``choose_turn(board)``; the computer then plays Black.
    """

    def __init__(
        self, model=None, *, size=(9, 5), rules: Rules | None = None, opponent=None, language="en"
    ):
        labels(language)
        if model is not None:
            check_model(model)
        self.lock = threading.RLock()  # every change and every reading of a view holds it
        self.game = GameAdapter(model if model is not None else Board(parse_size(size), rules))
        self.language = language
        self.overlays = dict.fromkeys(OVERLAYS, False)
        self.shown: int | None = None  # turns shown by the replay slider; None: the live game
        # The status line's state, written by the parts with the lock held:
        self.said: tuple = ()  # the last sentence, as (template key, values) parts
        self.progress = None  # a long wait in progress (fanorona.ui.progress.Progress)
        self.error: Exception | None = None  # the last failure of the model or the computer
        self._listeners: list[Callable[[], None]] = []
        self.clicks, self.history, self.setup = Clicks(self), History(self), Setup(self)
        self.seat, self.shows = ComputerSeat(self), Shows(self)
        self.runner = self.seat.runner
        if opponent is not None:
            self.setup.needs_board("the computer")
            self.seat.settings = self.seat.settings.with_opponent(opponent)

    # -- every action runs under the lock, keeps its sentence, tells the views, kicks the computer

    def observe(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after every change (from any thread, with the lock held)."""
        self._listeners.append(listener)

    def changed(self) -> None:
        for listener in self._listeners:
            listener()

    def act(self, action: Callable[[], Reply]) -> Reply:
        """Run a part's ``action`` under the lock: a model's fault becomes a sentence naming its
        member, an undo's leftovers are tidied, the views are told, and the computer may move."""
        with self.lock:
            try:
                reply = action()
            except ModelFault as fault:
                self.error = fault
                self.clicks.settle()
                reply = answer(
                    self.language,
                    Action.ERROR,
                    "model_error",
                    member=fault.member,
                    reason=fault.problem,
                )
            if self.shown is not None and self.shown >= len(self.game.turns):
                self.shown = None  # an undo went back past the turn shown
            self.seat.tidy()
            self.said = reply.said
            self.changed()
        self.runner.kick()
        return reply

    def report(self, key: str, **values) -> None:
        """Say something in the status line (the computer thinking, a record written)."""
        with self.lock:
            self.clicks.settle()
            self.said = ((key, values),)
            self.changed()

    # -- the parts' actions, by the names a program calls ----------------------------------------

    def click(self, point: str) -> Reply:
        """A click at ``point``: select a stone, move it, choose a capture, or say why not."""
        return self.clicks.click(point)

    def choose(self, kind: str) -> Reply:
        """Settle a step that captures both ways: ``"approach"`` or ``"withdrawal"``."""
        return self.clicks.choose(kind)

    def end_turn(self) -> Reply:
        """Stop the capture chain in progress here (where the rules let it stop)."""
        return self.clicks.end_turn()

    def undo(self) -> Reply:
        """Take back a whole turn; against the computer, back to your turn."""
        return self.history.undo()

    def undo_step(self) -> Reply:
        """Take back one step of a person's turn; the stone that made it is selected again."""
        return self.history.undo_step()

    def redo(self) -> Reply:
        """Play again a turn taken back by ``undo`` (and the computer's answer to it)."""
        return self.history.redo()

    def new_game(self, size=None, rules: Rules | str | None = None) -> Reply:
        """Start again, keeping the size and rules unless new ones are given."""
        return self.setup.new_game(size, rules)

    def load_position(self, name_or_diagram: str) -> Reply:
        """Set up a named teaching position, a diagram or a one-line position text."""
        return self.setup.load_position(name_or_diagram)

    def import_game(self, text: str) -> Reply:
        """Replace the game by a JSON game record (GameRecordError if it does not replay)."""
        return self.setup.import_game(text)

    def export_game(self) -> str:
        """The game so far (a chain in progress left out) as a ``fanorona.Game`` JSON record."""
        return self.setup.export_game()

    def set_overlays(self, **overlays: bool) -> None:
        """Switch overlays: strings, legal, names, strong, large (for a projector)."""
        self.setup.set_overlays(**overlays)

    def set_language(self, language: str) -> None:
        """The language of every label and sentence, the status line's included."""
        self.setup.set_language(language)

    def set_computer(self, side: str) -> Reply:
        """Who the computer plays: 'nobody', 'white', 'black' or 'both'."""
        return self.seat.set_computer(side)

    def set_level(self, level) -> Reply:
        """The computer's level: 1 to 5, 'perfect' (small boards, standard rules) or 'custom'."""
        return self.seat.set_level(level)

    def set_delay(self, seconds: float) -> None:
        """Seconds between the computer's animated steps (0 for tests)."""
        self.seat.set_delay(seconds)

    def computer_move(self) -> Reply:
        """Let a paused computer move now (after a position was loaded)."""
        return self.seat.computer_move()

    def replay(self, turns: int | None) -> Reply:
        """Show the position after the first ``turns`` turns (None or all: the live game)."""
        total = len(self.game.turns)
        if turns is not None:
            self.setup.needs_board("the replay")
            if isinstance(turns, bool) or not isinstance(turns, int) or not 0 <= turns <= total:
                raise ValueError(
                    f"the game has {total} turns; replay shows 0 to {total}; got {turns!r}"
                )

        def replay():
            self.shown = None if turns is None or turns == total else turns
            self.clicks.settle()
            return Reply(Action.LIVE if self.shown is None else Action.REPLAYING, "")

        return self.act(replay)

    # -- what it shows ---------------------------------------------------------------------------

    model = property(lambda self: self.game.model, doc="The model being played.")
    selected = property(lambda self: self.clicks.selected, doc="The selected stone's point.")
    pending = property(lambda self: self.clicks.pending, doc="A two-way capture's step, waiting.")
    status = property(lambda self: status(self), doc="The last sentence, then whose turn it is.")
    moves = property(
        lambda self: "\n".join(move_lines(self)), doc="The move list; the turn shown marked ▸."
    )

    def scene(self) -> dict:
        """What the picture shows now, as plain data: the board and each mark (one meaning each)."""
        return scene(self)

    def must_capture(self) -> list[str]:
        """The stones that must capture: the origins of the legal steps when all of them capture."""
        return must_capture(self.game, self.game.legal_steps(), self.shown is not None)

    def choice_strings(self) -> dict[str, list[str]]:
        """While a choice waits: the stones each kind of capture would take."""
        return choice_strings(self.game, self.pending)


__all__ = [
    "COMPUTER_SIDES",
    "LEVELS",
    "OVERLAYS",
    "SIZES",
    "Action",
    "Controller",
    "Model",
    "Reply",
    "parse_size",
    "size_text",
    "turn_text",
]
