"""The board's controller: what a click, a button or a program does to a game, with no GUI.

``Controller`` is the click, choice and undo state machine of the interactive board: the
selected stone, the step that waits for an approach-or-withdrawal choice, undo and redo by turn
and by step, the turn the replay slider shows.  Each action returns a ``Reply``: an ``Action``
for what happened and the sentence to show.  Its neighbours each do one job:
``fanorona.ui.adapter.GameAdapter`` talks to the model (a ``fanorona.Board`` or a student's class
following ``Model``) and turns its faults into sentences; ``fanorona.ui.settings.ComputerSettings``
holds who the computer plays and how; ``fanorona.ui.computer.ComputerRunner`` plays its turns in a
thread; ``fanorona.ui.scene`` derives what the view shows from this state.  The controller's other
jobs are its small bases, each in the module of its job: ``fanorona.ui.setup.Setup`` (new games,
positions, records, settings, each changed through a checking method),
``fanorona.ui.computer.ComputerSeat`` (what the runner may do) and ``fanorona.ui.scene.Shows`` (what
views read).  ``fanorona.ui.widget.BoardWidget`` only draws and forwards clicks, so every rule of a
click is tested here without ipywidgets or matplotlib.
"""

from __future__ import annotations

import functools
import threading

from ..board import Board
from ..rules import Rules
from .adapter import GameAdapter, Model, ModelFault, check_model, turn_text
from .computer import ComputerRunner, ComputerSeat
from .labels import labels, say
from .reply import Action, Reply
from .scene import Shows
from .settings import COMPUTER_SIDES, LEVELS, ComputerSettings
from .setup import OVERLAYS, SIZES, Setup, parse_size, size_text


def no_on_fault(question):
    """A yes-or-no question a view asks (may this button act?) answers no while the model fails,
    rather than raising into the view's redraw."""

    @functools.wraps(question)
    def asked(self) -> bool:
        try:
            return question(self)
        except ModelFault:
            return False

    return asked


def other(side: str) -> str:
    return "black" if side == "white" else "white"


class Controller(Setup, ComputerSeat, Shows):
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
        self.lock = threading.RLock()
        self.game = GameAdapter(model if model is not None else Board(parse_size(size), rules))
        self.language = language
        self.selected: str | None = None
        self.pending: tuple[str, str] | None = None  # a two-way capture awaiting its choice
        self.said: tuple = ()  # the last sentence, as (template key, values) parts
        self.searched: tuple = ()  # the computer's last search line, the same way
        self.overlays = dict.fromkeys(OVERLAYS, False)
        self.shown: int | None = None  # turns shown by the replay slider; None: the live game
        self.settings = ComputerSettings()
        self.progress = None  # a long wait in progress (fanorona.ui.progress.Progress)
        self.error: Exception | None = None  # the last failure of the model or the computer
        self._redo: list = []
        self._listeners: list = []
        self.runner = ComputerRunner(self)
        if opponent is not None:
            self._needs_board("the computer")
            self.settings = self.settings.with_opponent(opponent)

    # -- each action runs under the lock, keeps its sentence, tells the views, kicks the computer

    def observe(self, listener) -> None:
        """Call ``listener()`` after every change (from any thread, with the lock held)."""
        self._listeners.append(listener)

    def changed(self) -> None:
        for listener in self._listeners:
            listener()

    def _act(self, action) -> Reply:
        with self.lock:
            try:
                reply = action()
            except ModelFault as fault:  # a model that fails: a sentence naming the member
                self.error = fault
                self._settle()
                reply = self._say(
                    Action.ERROR, "model_error", member=fault.member, reason=fault.problem
                )
            self._tidy()
            self.said = reply.said
            self.changed()
        self.runner.kick()
        return reply

    def _tidy(self) -> None:
        """What an undo may leave behind: a replay past the game's end, a pause for a side a person
        plays."""
        if self.shown is not None and self.shown >= len(self.game.turns):
            self.shown = None
        if self.settings.paused and not self.computer_to_move(live_only=False):
            self.settings = self.settings.with_paused(False)

    def _say(self, action: Action, key: str | None = None, **values) -> Reply:
        said = ((key, values),) if key else ()
        return Reply(action, self.sentence(key, **values) if key else "", said)

    def sentence(self, key: str, **values) -> str:
        """A sentence of the board's language (see ``fanorona.ui.labels``)."""
        return say(self.language, key, **values)

    # -- the click state machine ---------------------------------------------------------------

    def click(self, point: str) -> Reply:
        """A click at ``point``: select a stone, move it, choose a capture, or say why not."""
        if point not in self.game.points:
            raise ValueError(f"there is no point {point!r} on a {size_text(self.game.size)} board")
        return self._act(lambda: self._blocked() or self._react(point))

    def choose(self, kind: str) -> Reply:
        """Settle a step that captures both ways: ``"approach"`` or ``"withdrawal"``."""
        if kind not in ("approach", "withdrawal"):
            raise ValueError(f"choose 'approach' or 'withdrawal'; got {kind!r}")
        return self._act(lambda: self._blocked() or self._choose(kind))

    def end_turn(self) -> Reply:
        """Stop the capture chain in progress here (where the rules let it stop)."""
        return self._act(lambda: self._blocked() or self._end_chain())

    def _blocked(self) -> Reply | None:
        """Why the board takes no move now (replaying, game over, the computer's turn), or None."""
        if self.shown is not None:
            return self._say(Action.REFUSED, "replaying", n=self.shown, total=len(self.game.turns))
        if self.game.outcome() is not None:
            return self._say(Action.REFUSED, "game_over")
        if self.computer_to_move():
            if self.settings.paused:
                return self._say(Action.REFUSED, "computer_paused", side=self.game.to_move)
            return self._say(Action.REFUSED, "busy")
        return None

    def _react(self, point: str) -> Reply:
        game = self.game
        if self.pending:
            for kind, stones in self.choice_strings().items():
                if point in stones:
                    return self._choose(kind)
            if point == self.pending[0]:
                self.pending = None
                return self._say(Action.CANCELLED, "cancelled")
            return self._say(Action.REFUSED, "choose", step="-".join(self.pending))
        steps = game.legal_steps()
        options = [s for s in steps if (s.origin, s.destination) == (self.selected, point)]
        if len(options) > 1 and self.selected:
            self.pending = (self.selected, point)
            return self._say(Action.CHOOSE, "choose", step=f"{self.selected}-{point}")
        if options:
            return self._play(options[0])
        if game.chain_stone:
            if point == game.chain_stone:
                return self._say(Action.REFUSED, "chain", point=point)
            return self._say(
                Action.REFUSED, "illegal", reason=game.why_not(game.chain_stone, point)
            )
        if point == self.selected:
            self.selected = None
            return self._say(Action.DESELECTED, "deselected")
        if self.selected and game.stone_at(point) is None:
            return self._say(Action.REFUSED, "illegal", reason=game.why_not(self.selected, point))
        stone = game.stone_at(point)
        if stone is None or stone != game.to_move:
            return self._say(
                Action.REFUSED, "no_stone" if stone is None else "not_yours", point=point
            )
        if not any(s.origin == point for s in steps):
            capturers = self.must_capture(steps)
            if capturers:
                return self._say(Action.REFUSED, "must_capture", points=", ".join(capturers))
            return self._say(Action.REFUSED, "stuck", point=point)
        self.selected = point
        return self._say(Action.SELECTED, "select", point=point)

    def _choose(self, kind: str) -> Reply:
        if not self.pending:
            return self._say(Action.REFUSED, "no_choice")
        return self._play(self.game.step(*self.pending, kind))

    def _play(self, step) -> Reply:
        self.game.push(step)
        self._redo.clear()
        self.settings = self.settings.with_paused(False)
        self._settle()
        if self.game.chain:
            return self._say(Action.CHAIN, "chain", point=self.game.chain_stone)
        return self._say(Action.MOVED, "played", move=str(self.game.turns[-1]))

    def _end_chain(self) -> Reply:
        if not self.game.chain:
            return self._say(
                Action.REFUSED, "illegal", reason="there is no capture chain in progress to end"
            )
        try:
            self.game.end_turn()
        except ValueError as e:
            return self._say(Action.REFUSED, "illegal", reason=str(e))
        self._redo.clear()
        self._settle()
        return self._say(Action.ENDED, "turn_ended", move=str(self.game.turns[-1]))

    def _settle(self) -> None:
        """After any change of the game: no choice waits, and only a chain's stone stays
        selected."""
        self.pending = None
        try:
            self.selected = self.game.chain_stone
        except ModelFault:
            self.selected = None

    # -- undo and redo -------------------------------------------------------------------------

    @no_on_fault
    def can_undo(self) -> bool:
        """There is a turn (or a turn in progress) to take back."""
        return bool(self.game.turns or self.game.chain)

    def undo(self) -> Reply:
        """Take back a whole turn (the one in progress, else the last); against the computer, back
        to your turn."""

        def undo():
            if not self.can_undo():
                return self._say(Action.REFUSED, "nothing_to_undo")
            self.runner.cancel()
            taken = self._undo_turn()
            while (
                self.settings.against_person()
                and self.computer_to_move(live_only=False)
                and self.game.turns
            ):
                taken = self._undo_turn()
            return self._say(Action.UNDONE, "undone", move=taken)

        return self._act(undo)

    def _undo_turn(self) -> str:
        """Take back the turn in progress, else the last whole turn (which redo can replay)."""
        if self.game.chain:
            taken = self.game.undo_chain()
        else:
            turn = self.game.undo_turn()
            self._redo.append(turn)
            taken = str(turn)
        self._settle()
        return taken

    @no_on_fault
    def can_undo_step(self) -> bool:
        """A step of a person's can be taken back: of the turn in progress, or of the last turn
        (never while the computer plays its chain, never one of its turns)."""
        if self.shown is not None or not self.can_undo():
            return False
        if self.game.chain:
            return self.game.to_move not in self.settings.sides()
        return other(self.game.to_move) not in self.settings.sides()

    def undo_step(self) -> Reply:
        """Take back one step of a person's turn; the stone that made it is selected again."""

        def undo_step():
            if not self.can_undo():
                return self._say(Action.REFUSED, "nothing_to_undo")
            if not self.can_undo_step():
                animating = self.game.chain and self.computer_to_move()
                return self._say(Action.REFUSED, "busy" if animating else "step_not_yours")
            self.runner.cancel()
            step = self.game.undo_step()
            self._redo.clear()
            self._settle()
            if self.selected is None and self.game.stone_at(step.origin) == self.game.to_move:
                self.selected = step.origin
            return self._say(Action.UNDONE, "step_undone", move=str(step))

        return self._act(undo_step)

    @no_on_fault
    def can_redo(self) -> bool:
        return bool(self._redo) and not self.game.chain and self.shown is None

    def redo(self) -> Reply:
        """Play again a turn taken back by ``undo`` (and the computer's answer to it)."""

        def redo():
            if not self.can_redo():
                return self._say(Action.REFUSED, "nothing_to_redo")
            self.runner.cancel()
            reply, answers = self._redo_turn(), self.settings.against_person()
            while (
                reply.action == Action.REDONE and answers and self._redo and self.computer_to_move()
            ):
                reply = self._redo_turn()  # and the computer's answer
            return reply

        return self._act(redo)

    def _redo_turn(self) -> Reply:
        """Replay a taken-back turn step by step, so Undo step can take back its steps; all or
        nothing."""
        turn = self._redo.pop()
        try:
            self.game.replay_turn(turn)
        except ValueError as e:
            self._redo.clear()
            return self._say(Action.REFUSED, "redo_failed", move=str(turn), reason=str(e))
        finally:
            self._settle()
        return self._say(Action.REDONE, "redone", move=str(turn))

    # -- the replay slider -----------------------------------------------------------------------

    def replay(self, turns: int | None) -> Reply:
        """Show the position after the first ``turns`` turns (None or all: the live game)."""
        total = len(self.game.turns)
        if turns is not None:
            self._needs_board("the replay")
            if isinstance(turns, bool) or not isinstance(turns, int) or not 0 <= turns <= total:
                raise ValueError(
                    f"the game has {total} turns; replay shows 0 to {total}; got {turns!r}"
                )

        def replay():
            self.shown = None if turns is None or turns == total else turns
            self._settle()
            return self._say(Action.LIVE if self.shown is None else Action.REPLAYING)

        return self._act(replay)


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
