"""The click state machine: what a click, a capture choice or End turn means now.

``Clicks`` owns the two things a click leaves behind: the selected stone and the step that waits
for its approach-or-withdrawal choice.  It reads the game, the replay slider and the computer's
seat from its controller (``fanorona.ui.controller.Controller``) and runs every action through
the controller's ``act``, which holds the lock, keeps the sentence and tells the views.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .adapter import ModelFault
from .labels import named_person
from .reply import Action, Reply, answer
from .scene import choice_strings, must_capture

if TYPE_CHECKING:
    from .controller import Controller


class Clicks:
    """The selection (``selected``) and the two-way capture awaiting its choice (``pending``)."""

    def __init__(self, board: Controller):
        self.board = board
        self.selected: str | None = None  # the point of the selected stone
        self.pending: tuple[str, str] | None = None  # a step that captures both ways

    def click(self, point: str) -> Reply:
        """A click at ``point``: select a stone, move it, choose a capture, or say why not."""
        if point not in self.board.game.points:
            size = "x".join(map(str, self.board.game.size))
            raise ValueError(f"there is no point {point!r} on a {size} board")
        return self.board.act(lambda: self._blocked() or self._react(point))

    def choose(self, kind: str) -> Reply:
        """Settle a step that captures both ways: ``"approach"`` or ``"withdrawal"``."""
        if kind not in ("approach", "withdrawal"):
            raise ValueError(f"choose 'approach' or 'withdrawal'; got {kind!r}")
        return self.board.act(lambda: self._blocked() or self._choose(kind))

    def end_turn(self) -> Reply:
        """Stop the capture chain in progress here (where the rules let it stop)."""
        return self.board.act(lambda: self._blocked() or self._end_chain())

    def settle(self) -> None:
        """After any change of the game: no choice waits, and only a chain's stone stays
        selected."""
        self.pending = None
        try:
            self.selected = self.board.game.chain_stone
        except ModelFault:
            self.selected = None

    # -- the state machine: choosing, in a chain, a stone selected, nothing selected ------------

    def _react(self, point: str) -> Reply:
        game, selected = self.board.game, self.selected
        if self.pending:
            return self._choosing(point)
        steps = game.legal_steps()
        options = [s for s in steps if (s.origin, s.destination) == (selected, point)]
        if len(options) > 1 and selected:
            self.pending = (selected, point)
            return self._say(Action.CHOOSE, "choose", step=f"{selected}-{point}")
        if options:
            return self._play(options[0])
        if game.chain_stone:
            if point == game.chain_stone:
                return self._say(Action.REFUSED, "chain", point=point)
            return self._say(
                Action.REFUSED, "illegal", reason=game.why_not(game.chain_stone, point)
            )
        if point == selected:
            self.selected = None
            return self._say(Action.DESELECTED, "deselected")
        stone = game.stone_at(point)
        if selected and stone is None:
            return self._say(Action.REFUSED, "illegal", reason=game.why_not(selected, point))
        if stone != game.to_move:
            return self._say(Action.REFUSED, "not_yours" if stone else "no_stone", point=point)
        if not any(s.origin == point for s in steps):
            capturers = must_capture(game, steps)
            if capturers:
                return self._say(Action.REFUSED, "must_capture", points=", ".join(capturers))
            return self._say(Action.REFUSED, "stuck", point=point)
        self.selected = point
        return self._say(Action.SELECTED, "select", point=point)

    def _choosing(self, point: str) -> Reply:
        """A click while a choice waits: on a string to capture, on the stone (cancel), or not."""
        assert self.pending is not None
        for kind, stones in choice_strings(self.board.game, self.pending).items():
            if point in stones:
                return self._choose(kind)
        if point == self.pending[0]:
            self.pending = None
            return self._say(Action.CANCELLED, "cancelled")
        return self._say(Action.REFUSED, "choose", step="-".join(self.pending))

    # -- what the machine does to the game -----------------------------------------------------

    def _blocked(self) -> Reply | None:
        """Why the board takes no move now (replaying, game over, the computer's turn), or None."""
        board = self.board
        if board.shown is not None:
            return self._say(
                Action.REFUSED, "replaying", n=board.shown, total=len(board.game.turns)
            )
        if board.game.outcome() is not None or board.seat.ended:
            return self._say(Action.REFUSED, "game_over")
        if board.seat.computer_to_move():
            if board.seat.settings.paused:
                return self._say(Action.REFUSED, "computer_paused", side=board.game.to_move)
            name = board.seat.player_words(board.game.to_move)
            if named_person(name):  # a classmate in the lobby, by the name the lobby gives
                return self._say(Action.REFUSED, "busy_named", name=name)
            return self._say(Action.REFUSED, "busy")
        return None

    def _choose(self, kind: str) -> Reply:
        if not self.pending:
            return self._say(Action.REFUSED, "no_choice")
        return self._play(self.board.game.step(*self.pending, kind))

    def _play(self, step) -> Reply:
        game = self.board.game
        game.push(step)
        self.board.history.forget()
        self.board.seat.unpause()
        self.settle()
        if game.chain:
            return self._say(Action.CHAIN, "chain", point=game.chain_stone)
        return self._say(Action.MOVED, "played", move=str(game.turns[-1]))

    def _end_chain(self) -> Reply:
        game = self.board.game
        if not game.chain:
            return self._say(
                Action.REFUSED, "illegal", reason="there is no capture chain in progress to end"
            )
        try:
            game.end_turn()
        except ValueError as e:
            return self._say(Action.REFUSED, "illegal", reason=str(e))
        self.board.history.forget()
        self.settle()
        return self._say(Action.ENDED, "turn_ended", move=str(game.turns[-1]))

    def _say(self, action: Action, key: str, **values) -> Reply:
        return answer(self.board.language, action, key, **values)


__all__ = ["Clicks"]
