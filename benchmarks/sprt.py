"""The sequential probability ratio test fishtest accepts a change by, on pairs of games.

Two games share an opening, one with each colour, so the pair is the unit: its points for the new
side (0, 1/2, 1, 3/2 or 2) fall in one of five classes, the pentanomial counts.  The test weighs
H0, the new side is ``elo0`` stronger (logistic Elo), against H1, it is ``elo1`` stronger, by the
generalised log-likelihood ratio: under each hypothesis the distribution of the five classes is
the one closest to the observed frequencies (maximum likelihood) whose expected score is that
hypothesis's; the ratio of their likelihoods, as a log, is the LLR.  The match stops when the LLR
leaves ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``: below, H0 is accepted (the change
is not elo1 better), above, H1.  Wald's bounds keep the chance of accepting H1 when H0 holds
near ``alpha`` and of accepting H0 when H1 holds near ``beta``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: A pair's score for the new side, by pentanomial class (its points over the two games, halved).
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
#: What an empty class counts, so that a few pairs do not make the fit degenerate (fishtest
#: regularises the same way).
EMPTY = 1e-3


def expected_score(elo: float) -> float:
    """The score a side ``elo`` points stronger expects (logistic)."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(score: float) -> float:
    """The Elo difference that expects ``score``; infinite at 0 and 1."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def pentanomial(pair_points) -> list[int]:
    """The five counts of pairs that scored 0, 1/2, 1, 3/2 and 2 points for the new side."""
    counts = [0] * 5
    for points in pair_points:
        index = round(points * 2)
        if not (0 <= index <= 4 and math.isclose(index, points * 2)):
            raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points; got {points!r}")
        counts[index] += 1
    return counts


def closest_with_mean(frequencies: list[float], mean: float) -> list[float]:
    """The distribution over ``PAIR_SCORES`` of expected score ``mean`` that maximises the
    likelihood of ``frequencies``: ``f_i / (1 + x (a_i - mean))`` for the one ``x`` that makes it
    sum to 1, found by bisection (the sum's excess falls as ``x`` grows)."""
    signed = [a - mean for a in PAIR_SCORES]
    # 1 + x (a_i - mean) stays positive where f_i > 0: x lies between these two
    low = max((-1 / d for d, f in zip(signed, frequencies) if f > 0 and d > 0), default=-1e9)
    high = min((-1 / d for d, f in zip(signed, frequencies) if f > 0 and d < 0), default=1e9)

    def excess(x: float) -> float:
        return sum(f * d / (1 + x * d) for f, d in zip(frequencies, signed))

    for _ in range(200):
        middle = (low + high) / 2
        if excess(middle) > 0:
            low = middle
        else:
            high = middle
    x = (low + high) / 2
    return [f / (1 + x * d) for f, d in zip(frequencies, signed)]


def llr(counts: list[int], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (``elo1``) over H0 (``elo0``) for pentanomial ``counts``."""
    pairs = sum(counts)
    if pairs == 0:
        return 0.0
    regular = [c if c else EMPTY for c in counts]
    total = sum(regular)
    frequencies = [c / total for c in regular]
    h0 = closest_with_mean(frequencies, expected_score(elo0))
    h1 = closest_with_mean(frequencies, expected_score(elo1))
    return pairs * sum(f * math.log(b / a) for f, a, b in zip(frequencies, h0, h1) if f > 0)


@dataclass(frozen=True)
class SPRT:
    """The test's settings: the two Elo hypotheses and the two error rates."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 is below elo1; got elo0={self.elo0}, elo1={self.elo1}")
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 0.5:
                raise ValueError(f"{name} is a probability between 0 and 0.5")

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds on the LLR: below the first, H0 is accepted; above the second, H1."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def decide(self, counts: list[int]) -> str | None:
        """ "H1" (the change gains elo1), "H0" (it does not gain elo1), or None (play on)."""
        value = llr(counts, self.elo0, self.elo1)
        low, high = self.bounds
        return "H1" if value >= high else "H0" if value <= low else None

    def line(self, counts: list[int]) -> str:
        """The fishtest-style summary: LLR, bounds, hypotheses, pairs, the counts, the verdict."""
        value, (low, high) = llr(counts, self.elo0, self.elo1), self.bounds
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "undecided"}[self.decide(counts)]
        return (
            f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g}:"
            f" LLR {value:.2f} ({low:.2f}, {high:.2f}), {sum(counts)} pairs,"
            f" pentanomial {' '.join(map(str, counts))}: {verdict}"
        )
