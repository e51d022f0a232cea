"""One face for the board's game: a ``fanorona.Board``, or a plain model checked at every call.

The controller reads and changes its game only through ``GameAdapter``, so the difference
between the package's board and a student's class lives here, not in a type check at every
use.  A plain model is code someone hands the board: each member is called under a guard and
what it answers is checked, so a fault becomes a ``ModelFault`` that names the member
(``push()``, ``to_move``), and loops that wait for the model to go back (``pop()`` until
``turns`` shortens) are bounded.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..board import Board, Step
from ..geometry import point_name
from ..notation import CAPTURE_LETTER

SIDES = ("white", "black")
#: Calls of ``pop()`` allowed beyond a turn's own steps before the model is said never to shorten
#: ``turns`` (one more for an End turn, one to spare).
POP_SLACK = 2


MEMBERS = (
    "size",
    "points",
    "to_move",
    "turns",
    "chain",
    "chain_stone",
    "stone_at",
    "legal_steps",
    "captures",
    "push",
    "pop",
    "end_turn",
    "outcome",
)


@runtime_checkable
class Model(Protocol):
    """What the controller needs of a game; ``fanorona.Board`` is one, and so can a student's
    class be.

    Points are names like ``"c3"``; a step has ``origin``, ``destination`` and ``capture``
    (``"approach"``, ``"withdrawal"`` or None); a turn has ``steps`` and prints as turn text.
    """

    # fmt: off
    size: tuple[int, int]          # (width, height)
    points: tuple[str, ...]         # every point's name
    to_move: str                    # "white" or "black"
    turns: list                     # the whole turns played, oldest first
    chain: tuple                    # the steps of the turn in progress (empty between turns)
    chain_stone: str | None         # the point of the stone that is capturing in a chain

    def stone_at(self, point: str) -> str | None: ...      # "white", "black" or None
    def legal_steps(self) -> list: ...                      # the steps allowed now
    def captures(self, step) -> list[str]: ...              # what a legal step would capture
    def push(self, step) -> None: ...                       # play a legal step
    def pop(self): ...                                      # undo the last push or end_turn
    def end_turn(self) -> None: ...                         # stop a chain
    def outcome(self): ...                                  # None, or a result: winner, reason
    # fmt: on


def check_model(model) -> None:
    """A ValueError naming what a model lacks of ``Model``."""
    if not isinstance(model, Model):
        missing = [name for name in MEMBERS if not hasattr(model, name)]
        raise ValueError(
            f"a board model needs {', '.join(missing)} (see fanorona.ui.controller.Model); "
            f"{type(model).__name__} lacks them"
        )


class ModelFault(Exception):
    """A model's member failed or broke the protocol; ``member`` names it, ``problem`` says how."""

    def __init__(self, member: str, problem: str):
        super().__init__(f"{member}: {problem}")
        self.member, self.problem = member, problem


def turn_text(steps) -> str:
    """A turn's text from its steps (any model's steps: origin, destination, capture), e.g.
    "c1c2Ad2A"."""
    return steps[0].origin + "".join(
        s.destination + CAPTURE_LETTER.get(s.capture, "") for s in steps
    )


def listed(member: str, value) -> list:
    """A member's answer as a list, or the fault saying it is not a collection."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ModelFault(member, f"is {value!r:.60}; it should be a list or tuple")
    try:
        return list(value)
    except Exception as e:  # a student's collection whose iteration fails
        raise ModelFault(member, f"{type(e).__name__}: {e}") from e


class GameAdapter:
    """The model behind the board, through which the controller plays, takes back and reads."""

    def __init__(self, model):
        self.model = model
        self.is_board = isinstance(model, Board)
        self.size = tuple(self._read("size"))
        self.points = tuple(self._read("points"))

    # -- calls under a guard -----------------------------------------------------------------

    def _read(self, member: str):
        try:
            return getattr(self.model, member)
        except Exception as e:  # a property of a student's class may raise anything
            raise ModelFault(member, f"{type(e).__name__}: {e}") from e

    def _call(self, member: str, *args, passes: tuple = ()):
        """Call ``model.member(*args)``; ``passes``: exception types that are answers (a refusal),
        not faults."""
        try:
            return getattr(self.model, member)(*args)
        except passes:
            raise
        except Exception as e:
            raise ModelFault(f"{member}()", f"{type(e).__name__}: {e}") from e

    # -- reading ----------------------------------------------------------------------------

    @property
    def to_move(self) -> str:
        side = self._read("to_move")
        if side not in SIDES:
            raise ModelFault("to_move", f"is {side!r}; it should be 'white' or 'black'")
        return side

    @property
    def turns(self) -> list:
        return listed("turns", self._read("turns"))

    @property
    def chain(self) -> tuple:
        return tuple(listed("chain", self._read("chain")))

    @property
    def chain_stone(self) -> str | None:
        return self._read("chain_stone")

    def stone_at(self, point: str) -> str | None:
        stone = self._call("stone_at", point)
        if stone not in SIDES + (None,):
            raise ModelFault(
                "stone_at()",
                f"answered {stone!r} for {point}; it should be 'white', 'black' or None",
            )
        return stone

    def legal_steps(self) -> list:
        steps = listed("legal_steps()", self._call("legal_steps"))
        if not self.is_board and not all(
            hasattr(s, "origin") and hasattr(s, "destination") and hasattr(s, "capture")
            for s in steps
        ):
            raise ModelFault(
                "legal_steps()", "gave something that is not a step (origin, destination, capture)"
            )
        return steps

    def captures(self, step) -> list[str]:
        """The stones a step would take; the model's ValueError (why the step is illegal) passes
        through."""
        return listed("captures()", self._call("captures", step, passes=(ValueError,)))

    def why_not(self, origin: str, point: str) -> str:
        """Why origin-point is no legal step: the model's own reason (a Board's error message),
        or a plain one."""
        try:
            self.captures(Step(origin, point))
        except ValueError as e:
            return str(e)
        return f"{origin}-{point} is not a legal step"

    def step(self, origin: str, destination: str, capture: str):
        """The model's legal step from origin to destination capturing that way."""
        return next(
            s
            for s in self.legal_steps()
            if (s.origin, s.destination, s.capture) == (origin, destination, capture)
        )

    def outcome(self):
        result = self._call("outcome")
        if result is not None and (
            getattr(result, "winner", "?") not in SIDES + (None,)
            or not isinstance(getattr(result, "reason", None), str)
        ):
            raise ModelFault(
                "outcome()",
                f"answered {result!r}; it should be None or have a winner "
                "('white', 'black' or None) and a reason (text)",
            )
        return result

    def _progress(self) -> tuple[int, int]:
        return len(self.turns), len(self.chain)

    # -- changing ---------------------------------------------------------------------------

    def push(self, step, passes: tuple = ()) -> None:
        """Play a step; a push that changes neither ``turns`` nor ``chain`` is a fault."""
        before = self._progress()
        self._call("push", step, passes=passes)
        if self._progress() == before:
            raise ModelFault("push()", f"played {step} but neither turns nor chain changed")

    def end_turn(self) -> None:
        """Stop the chain; the model's ValueError (the chain must go on) passes through."""
        self._call("end_turn", passes=(ValueError,))

    def pop(self):
        before = self._progress()
        popped = self._call("pop")
        if self._progress() == before and popped != "end_turn":
            raise ModelFault("pop()", f"returned {popped} but neither turns nor chain got shorter")
        return popped

    def replay_turn(self, turn) -> None:
        """Play a whole turn again step by step (so its steps can be taken back one by one); all
        or nothing: a step the model refuses (ValueError) takes back the ones played."""
        pushed = 0
        try:
            for step in turn.steps:
                self.push(step, passes=(ValueError,))
                pushed += 1
            if self.chain:
                self.end_turn()
                pushed += 1
        except ValueError:
            for _ in range(pushed):
                self.pop()
            raise

    def undo_chain(self) -> str:
        """Take back the chain in progress; its text, ending in '…'."""
        taken = turn_text(self.chain) + "…"
        for _ in range(len(self.chain) + POP_SLACK):
            if not self.chain:
                return taken
            self.pop()
        raise ModelFault(
            "pop()", f"{len(self.chain) + POP_SLACK} calls did not end the chain in progress"
        )

    def undo_turn(self):
        """Take back the last whole turn and return it; bounded, so a model that never shortens
        ``turns`` is caught, not waited for."""
        count, turn = len(self.turns), self.turns[-1]
        limit = len(getattr(turn, "steps", ())) + POP_SLACK
        for _ in range(limit):
            self.pop()
            if len(self.turns) < count and not self.chain:
                return turn
        raise ModelFault(
            "pop()", f"{limit} calls did not shorten turns (still {len(self.turns)} long)"
        )

    def undo_step(self):
        """Take back one step and return it.  A whole turn pushed at once (turn text) comes back
        whole: its other steps are played again, so only its last step is taken back."""
        popped = self.pop()
        if popped == "end_turn":  # a chain stopped by End turn: its last step goes with the stop
            popped = self.pop()
        if not hasattr(popped, "origin") and hasattr(popped, "steps"):
            for step in popped.steps[:-1]:
                self.push(step)
            popped = popped.steps[-1]
        if not hasattr(popped, "origin"):
            raise ModelFault(
                "pop()", f"returned {popped!r}; it should return the step it took back"
            )
        return popped

    def back_to_start(self) -> None:
        if self.chain:
            self.undo_chain()
        for _ in range(len(self.turns)):
            self.undo_turn()

    # -- what only a Board has ----------------------------------------------------------------

    def picture(self) -> Board:
        """A Board with the model's stones, for drawing (a Board draws as it is)."""
        if self.is_board:
            return self.model
        w, h = self.size
        symbol = {"white": "W", "black": "B", None: "."}
        rows = [
            "".join(symbol[self.stone_at(point_name(c, r))] for c in range(w))
            for r in reversed(range(h))
        ]
        return Board.from_diagram("\n".join(rows), to_move=self.to_move)

    def blank(self) -> Board:
        """An empty board of the model's size: the picture while the model cannot say its stones."""
        w, h = self.size
        return Board.from_diagram("\n".join("." * w for _ in range(h)))

    def replayed(self, turns: int) -> Board:
        """A fresh Board at the position after the first ``turns`` turns (a Board model only)."""
        board = self.model.root()
        for turn in self.model.turns[:turns]:
            board.push(turn)
        return board

    def black_began(self) -> bool:
        return self.is_board and self.model.root().to_move == "black"

    @property
    def rules(self):
        return self.model.rules if self.is_board else None


def strings(board) -> list[tuple[str, ...]]:
    """Both colours' strings of two or more stones."""
    return board.strings("white", 2) + board.strings("black", 2)


__all__ = ["GameAdapter", "Model", "ModelFault", "check_model", "turn_text"]
