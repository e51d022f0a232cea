"""The scores and evaluation weights of level 5 before the strength work, frozen (a copy of
``fanorona/engine/scoring.py``)."""

from __future__ import annotations

__all__ = [
    "EVALUATION_NAMES",
    "EXACT",
    "LOWER",
    "MOBILITY",
    "PROVEN",
    "STONE",
    "STRONG_POINT",
    "THREAT",
    "UPPER",
    "WIN_SCORE",
    "from_table",
    "to_table",
]

WIN_SCORE = 1_000_000  # the score of a won position; a win in n turns scores WIN_SCORE - n
PROVEN = WIN_SCORE - 10_000  # scores beyond this are proven wins or losses

EXACT, LOWER, UPPER = 0, 1, 2  # what a stored score is: the value, a lower bound, an upper bound

#: The evaluations, in the order of their codes in the compiled search: material, material and
#: strong points, material and mobility, material and threat (``ai.EVALUATIONS`` has their
#: functions).
EVALUATION_NAMES = ("material", "strong", "mobility", "threat")
STONE = 100  # every evaluation: a stone ahead
STRONG_POINT = 10  # "strong": a stone more on a strong point (eight lines instead of four)
MOBILITY = 3  # "mobility": a single step more than the opponent has
THREAT = 50  # "threat": a stone the side to move can take with its best first step


def to_table(score: int, ply: int) -> int:
    """Proven scores count turns from the stored position, so they stay right wherever it recurs."""
    return score + ply if score >= PROVEN else score - ply if score <= -PROVEN else score


def from_table(score: int, ply: int) -> int:
    """The stored score back as seen from ``ply`` turns below the root."""
    return score - ply if score >= PROVEN else score + ply if score <= -PROVEN else score
