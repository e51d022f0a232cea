"""The puzzle exercise: from every turn's exact result, say whether a position is a puzzle (one
winning turn, and only one) and which turn solves it.

The cases are the shipped puzzles of the solved small boards and positions of the same boards
that are no puzzle: won with two or more winning turns, drawn, lost.
"""

from __future__ import annotations

import random
from fractions import Fraction

from ..board import Board
from ..engine.puzzles import RULES, collection
from ..engine.solve import solve
from .checking import Case, Checker
from .credit import weigh

#: How many shipped puzzles and how many other positions of each value the check tries.
PUZZLES, OTHERS = 16, 6


def outcomes_of(board: Board) -> list[tuple[str, str, int | None]]:
    """Every turn of a solved-board position with its exact result for the player of it, as
    ``(turn text, "win" | "loss" | "draw", turns to the end or None)``."""
    table = solve(board.size, RULES, progress=False)
    return [(str(turn), value, distance) for turn, value, distance in table.outcomes(board)]


def _single_winning_turn(board: Board, outcomes) -> str | None:
    wins = [turn for turn, value, _distance in outcomes if value == "win"]
    return wins[0] if len(wins) == 1 else None


def _cases() -> list[Case]:
    rng = random.Random(11)
    puzzles = [p for p in collection() if p.source.startswith("solved")]
    boards = [p.board() for p in rng.sample(puzzles, min(PUZZLES, len(puzzles)))]
    table = solve((3, 5), RULES, progress=False)
    for value, distance in (("win", 3), ("win", 5), ("draw", None), ("loss", 4)):
        found = [
            b
            for b in table.sample(4 * OTHERS, rng, value, distance)
            if value != "win" or _single_winning_turn(b, outcomes_of(b)) is None
        ]
        boards += found[:OTHERS]
    return [Case((board, outcomes_of(board))) for board in boards]


def _read(answer, call):
    if answer is None or isinstance(answer, str):
        return answer
    raise TypeError(f"{call or 'the answer'} should be a turn's text such as 'b3b2W', or None")


def _hint(case, expected, actual) -> str:
    wins = [turn for turn, value, _d in case.args[1] if value == "win"]
    if expected is None and len(wins) > 1:
        return f"{len(wins)} turns win here: a puzzle has exactly one winning turn, so answer None."
    if expected is None:
        return "No turn wins here, so there is no puzzle: answer None."
    if actual is None:
        return f"Exactly one turn wins here ({expected}): that is the puzzle's answer."
    if actual != expected:
        return f"{actual} does not win; the one winning turn is {expected}."
    return ""


check_single_winning_turn = Checker(
    "single_winning_turn",
    _single_winning_turn,
    _cases,
    read=_read,
    hint=_hint,
    what="The winning turn",
)


def _puzzle_kind(_index: int, case: Case) -> str:
    return "puzzles" if _single_winning_turn(*case.args) is not None else "no puzzles"


#: An answer that is always None keeps half: finding the one winning turn is the other half.
weigh(
    "check_single_winning_turn",
    _puzzle_kind,
    {"puzzles": Fraction(1, 2), "no puzzles": Fraction(1, 2)},
    check_single_winning_turn,
)
