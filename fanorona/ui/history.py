"""Undo and redo, by turn and by step: the turns taken back and the rules of taking back.

``History`` owns the turns taken back, which Redo plays again; anything else that changes the
game forgets them (``forget``).  Against the computer, Undo and Redo go a whole exchange at a
time, back to the person's turn.  It is a part of ``fanorona.ui.controller.Controller`` and runs
every action through the controller's ``act``.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from .adapter import ModelFault
from .reply import Action, Reply, answer

if TYPE_CHECKING:
    from .controller import Controller


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


class History:
    """The turns taken back (``taken``, the last one last), for Redo."""

    def __init__(self, board: Controller):
        self.board = board
        self.taken: list = []

    def forget(self) -> None:
        """A new step or game: the turns taken back cannot be played again."""
        self.taken.clear()

    @no_on_fault
    def can_undo(self) -> bool:
        """There is a turn (or a turn in progress) to take back."""
        return bool(self.board.game.turns or self.board.game.chain)

    def undo(self) -> Reply:
        """Take back a whole turn (the one in progress, else the last); against the computer, back
        to your turn."""
        board = self.board

        def undo():
            if not self.can_undo():
                return self._say(Action.REFUSED, "nothing_to_undo")
            board.runner.cancel()
            taken = [self._undo_turn()]
            seat = board.seat
            while (
                seat.settings.against_person()
                and seat.computer_to_move(live_only=False)
                and board.game.turns
            ):
                taken.append(self._undo_turn())  # and the computer's answer before it
            return self._say(Action.UNDONE, "undone", move=", ".join(reversed(taken)))

        return board.act(undo)

    def _undo_turn(self) -> str:
        """Take back the turn in progress, else the last whole turn (which redo can replay)."""
        game = self.board.game
        if game.chain:
            taken = game.undo_chain()
        else:
            turn = game.undo_turn()
            self.taken.append(turn)
            taken = str(turn)
        self.board.clicks.settle()
        return taken

    @no_on_fault
    def can_undo_step(self) -> bool:
        """A step of a person's can be taken back: of the turn in progress, or of the last turn
        (never while the computer plays its chain, never one of its turns)."""
        board = self.board
        if board.shown is not None or not self.can_undo():
            return False
        sides = board.seat.settings.sides()
        if board.game.chain:
            return board.game.to_move not in sides
        return other(board.game.to_move) not in sides

    def undo_step(self) -> Reply:
        """Take back one step of a person's turn; the stone that made it is selected again."""
        board = self.board

        def undo_step():
            game, clicks = board.game, board.clicks
            if not self.can_undo():
                return self._say(Action.REFUSED, "nothing_to_undo")
            if not self.can_undo_step():
                animating = game.chain and board.seat.computer_to_move()
                return self._say(Action.REFUSED, "busy" if animating else "step_not_yours")
            board.runner.cancel()
            step = game.undo_step()
            self.forget()
            clicks.settle()
            if clicks.selected is None and game.stone_at(step.origin) == game.to_move:
                clicks.selected = step.origin
            return self._say(Action.UNDONE, "step_undone", move=str(step))

        return board.act(undo_step)

    @no_on_fault
    def can_redo(self) -> bool:
        return bool(self.taken) and not self.board.game.chain and self.board.shown is None

    def redo(self) -> Reply:
        """Play again a turn taken back by ``undo`` (and the computer's answer to it)."""
        board = self.board

        def redo():
            if not self.can_redo():
                return self._say(Action.REFUSED, "nothing_to_redo")
            board.runner.cancel()
            reply, answers = self._redo_turn(), board.seat.settings.against_person()
            replayed = [reply]
            while (
                reply.action == Action.REDONE
                and answers
                and self.taken
                and board.seat.computer_to_move()
            ):
                reply = self._redo_turn()  # and the computer's answer
                replayed.append(reply)
            if reply.action != Action.REDONE or len(replayed) == 1:
                return reply
            moves = ", ".join(r.said[0][1]["move"] for r in replayed)
            return self._say(Action.REDONE, "redone", move=moves)

        return board.act(redo)

    def _redo_turn(self) -> Reply:
        """Replay a taken-back turn step by step, so Undo step can take back its steps; all or
        nothing."""
        turn = self.taken.pop()
        try:
            self.board.game.replay_turn(turn)
        except ValueError as e:
            self.forget()
            return self._say(Action.REFUSED, "redo_failed", move=str(turn), reason=str(e))
        finally:
            self.board.clicks.settle()
        return self._say(Action.REDONE, "redone", move=str(turn))

    def _say(self, action: Action, key: str, **values) -> Reply:
        return answer(self.board.language, action, key, **values)


__all__ = ["History"]
