"""What the pure-Python search (``ai``) and its compiled form (``compiled``) share, written once:
the scores, the transposition table's flags and how proven scores are stored, and the
evaluations' names and weights.  The chain rules they share are ``movegen.ChainRule``'s.

Both modules import these names; the compiled functions read them as constants when numba
compiles them, so a change here reaches both (and the parity tests compare them node for node).
"""

from __future__ import annotations

__all__ = [
    "EVALUATION_NAMES",
    "EXACT",
    "LATER_TURN",
    "LATE_TURN",
    "LEARNED",
    "LOWER",
    "MOBILITY",
    "PROVEN",
    "REDUCE_FROM_DEPTH",
    "REDUCE_MORE_FROM_DEPTH",
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

#: With ``reductions``, a turn from this place on in the sorted list (the largest captures first)
#: is searched a turn shallower first, in nodes at least ``REDUCE_FROM_DEPTH`` turns deep: a late
#: turn seldom turns out best, and one that beats the best so far is searched again in full.
LATE_TURN = 3
REDUCE_FROM_DEPTH = 3
#: A turn from ``LATER_TURN`` on, in nodes at least ``REDUCE_MORE_FROM_DEPTH`` turns deep, is
#: searched two turns shallower first: the later in the list, the less often a turn is best.
LATER_TURN = 6
REDUCE_MORE_FROM_DEPTH = 5

#: The evaluations, in the order of their codes in the compiled search: material, material and
#: strong points, material and mobility, material and threat, and the learned one
#: (``ai.EVALUATIONS`` has their functions).
EVALUATION_NAMES = ("material", "strong", "mobility", "threat", "learned")
STONE = 100  # every evaluation: a stone ahead
STRONG_POINT = 10  # "strong": a stone more on a strong point (eight lines instead of four)
MOBILITY = 3  # "mobility": a single step more than the opponent has
THREAT = 50  # "threat": a stone the side to move can take with its best first step

#: "learned": a stone ahead is ``STONE``; then the weights of ``ai.FEATURES`` after material, in
#: that order (a stone the side to move can take with its best first step, a stone the opponent
#: could take with its own, a single step more than the opponent, a stone more on a strong point,
#: and having the move), fitted by ``python -m benchmarks.tune_evaluation`` to positions whose
#: result is known (``python -m benchmarks.evaluation_data``).
LEARNED = (151, -34, 14, -30, 26)


def to_table(score: int, ply: int) -> int:
    """Proven scores count turns from the stored position, so they stay right wherever it recurs."""
    return score + ply if score >= PROVEN else score - ply if score <= -PROVEN else score


def from_table(score: int, ply: int) -> int:
    """The stored score back as seen from ``ply`` turns below the root."""
    return score - ply if score >= PROVEN else score + ply if score <= -PROVEN else score
