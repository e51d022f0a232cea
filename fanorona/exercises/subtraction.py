"""The checker of notebook 7's Subtraction game (one pile; take 1, 3 or 4; taking the last stone
wins): ``check_subtraction(Subtraction)`` asks the student's game its actions, results, terminal
piles and utilities, works out the minimax value of every pile from 0 to ``LARGEST`` from them,
and compares each with the game's true value (a pile is lost for the player to move when it is 0
or 2 more than a multiple of 7).  Each pile is one case, so the grader can count those that agree.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from .checking import ExerciseFailed, Guard, sealed_check, short_repr

LARGEST = 20
TAKES = (1, 3, 4)


@cache
def true_value(pile: int) -> int:
    """+1 when the player to move wins the pile with best play, -1 when they lose."""
    if pile == 0:
        return -1
    return max(-true_value(pile - take) for take in TAKES if take <= pile)


class Asked:
    """The student's game as minimax reads it, each method asked once a pile, under the guard."""

    def __init__(self, game, guard: Guard):
        self.game, self.guard = game, guard
        self.answers: dict[tuple, object] = {}

    def ask(self, method: str, *args):
        key = (method, *args)
        if key not in self.answers:
            call = f"Subtraction().{method}({', '.join(map(repr, args))})"
            with self.guard.running(call):
                self.answers[key] = getattr(self.game, method)(*args)
        return self.answers[key]

    def value(self, pile, depth: int, seen: dict) -> int:
        """minimax(game, pile, depth) as notebook 7 defines it, each pile and depth worked out
        once."""
        if (pile, depth) in seen:
            return seen[pile, depth]
        if self.ask("terminal", pile):
            value = self.ask("utility", pile)
        elif depth == 0:
            value = 0
        else:
            asked = self.ask("actions", pile)
            try:
                actions = [] if isinstance(asked, str) else list(asked)
            except TypeError:
                actions = []
            if not actions:
                raise ExerciseFailed(
                    f"Subtraction().actions({pile!r}) should list the stones that may be taken"
                    f" from a pile that is not over; got {short_repr(asked)}."
                )
            value = max(-self.value(self.ask("result", pile, a), depth - 1, seen) for a in actions)
        if type(value) not in (int, float) or value not in (-1, 0, 1):
            raise ExerciseFailed(
                f"minimax on your game gave {short_repr(value)} for a pile of {pile!r}: utility"
                " should be -1 for the player to move when the last stone was taken."
            )
        seen[pile, depth] = value
        return value


def subtraction_cases(make, guard: Guard) -> Iterator[tuple[int, int, str | None]]:
    """(pile, its value on the student's game, the sentence when it differs) for every pile."""
    with guard.running("Subtraction()"):
        game = make()
    asked = Asked(game, guard)
    for pile in range(LARGEST + 1):
        value = asked.value(pile, pile, {})
        expected = true_value(pile)
        sentence = None
        if value != expected:
            result = "lost" if expected == -1 else "won"
            sentence = (
                f"minimax(Subtraction(), {pile}, depth={pile}) on your game gives {value}, but a"
                f" pile of {pile} is {result} for the player to move (value {expected}): the"
                f" moves take {', '.join(map(str, TAKES))} stones, and taking the last one wins."
            )
        yield pile, value, sentence


def check_subtraction(make) -> int:
    """Check the Subtraction class: the minimax value of every pile from 0 to ``LARGEST``.

    Partial credit: the share of the piles whose actions, results, end and value agree."""

    def run(guard: Guard) -> int:
        n = 0
        for pile, value, sentence in subtraction_cases(make, guard):
            if sentence is not None:
                print(f"Input:       minimax(Subtraction(), {pile}, depth={pile})")
                print(f"Expected:    {true_value(pile)}")
                print(f"Your answer: {value}")
                raise ExerciseFailed(sentence)
            n += 1
        return n

    return sealed_check(run)
