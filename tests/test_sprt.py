"""The SPRT over pairs of games: its LLR against an independent fit and the normal approximation,
and its decisions on synthetic matches whose true strength is known."""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.sprt import (
    PAIR_SCORES,
    SPRT,
    closest_with_mean,
    elo_of,
    expected_score,
    llr,
    pentanomial,
)


def test_wald_bounds_are_the_published_ones():
    """alpha = beta = 0.05 gives fishtest's (-2.94, 2.94)."""
    low, high = SPRT(0, 10, 0.05, 0.05).bounds
    assert (round(low, 2), round(high, 2)) == (-2.94, 2.94)
    low, high = SPRT(0, 10, 0.1, 0.05).bounds
    assert math.isclose(low, math.log(0.05 / 0.9)) and math.isclose(high, math.log(0.95 / 0.1))


def test_the_elo_scale_round_trips():
    assert expected_score(0) == 0.5 and round(expected_score(400), 4) == round(10 / 11, 4)
    for elo in (-300, -10, 0, 7.5, 200):
        assert elo_of(expected_score(elo)) == pytest.approx(elo)
    assert elo_of(0) == -math.inf and elo_of(1) == math.inf


@settings(max_examples=60, deadline=None)
@given(
    counts=st.lists(st.integers(1, 300), min_size=5, max_size=5),
    elo=st.floats(-150, 150),
)
def test_the_constrained_fit_is_the_one_scipy_finds(counts, elo):
    """The bisection's distribution is the maximum-likelihood one with the asked mean: scipy's
    general optimiser, given the same problem, finds no likelier one."""
    from scipy.optimize import minimize

    total = sum(counts)
    f = [c / total for c in counts]
    mean = expected_score(elo)
    ours = closest_with_mean(f, mean)
    assert sum(ours) == pytest.approx(1, abs=1e-9)
    assert sum(a * q for a, q in zip(PAIR_SCORES, ours)) == pytest.approx(mean, abs=1e-9)
    found = minimize(
        lambda q: -sum(fi * math.log(max(qi, 1e-300)) for fi, qi in zip(f, q)),
        f,
        constraints=[
            {"type": "eq", "fun": lambda q: sum(q) - 1},
            {"type": "eq", "fun": lambda q: sum(a * qi for a, qi in zip(PAIR_SCORES, q)) - mean},
        ],
        bounds=[(1e-12, 1)] * 5,
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 500},
    )
    theirs = sum(fi * math.log(qi) for fi, qi in zip(f, found.x))
    mine = sum(fi * math.log(qi) for fi, qi in zip(f, ours))
    assert mine >= theirs - 1e-7


def test_the_llr_agrees_with_the_normal_approximation_on_many_pairs():
    """For small Elo differences the GSPRT's LLR is close to N (s1 - s0)(2m - s0 - s1) / 2 var."""
    counts = [100, 400, 1000, 450, 120]
    n = sum(counts)
    m = sum(a * c for a, c in zip(PAIR_SCORES, counts)) / n
    var = sum(a * a * c for a, c in zip(PAIR_SCORES, counts)) / n - m * m
    s0, s1 = expected_score(0), expected_score(10)
    assert llr(counts, 0, 10) == pytest.approx(n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var), 0.02)


def test_the_llr_is_zero_without_pairs_and_grows_with_them():
    assert llr([0] * 5, 0, 10) == 0
    assert llr([2, 8, 20, 12, 6], 0, 10) * 10 == pytest.approx(llr([20, 80, 200, 120, 60], 0, 10))


def test_a_sweep_accepts_h1_and_a_wipeout_h0():
    """Every pair alike says little of the spread, so a sweep takes a while to decide (the empty
    classes count a thousandth each): 40 pairs are not enough, 200 are."""
    test = SPRT(0, 10)
    assert test.decide([0, 0, 0, 0, 40]) is None
    assert test.decide([0, 0, 0, 0, 200]) == "H1"
    assert test.decide([200, 0, 0, 0, 0]) == "H0"
    assert test.decide([0, 0, 1, 0, 1]) is None
    assert "H1 accepted" in test.line([0, 0, 0, 0, 200])


def test_pentanomial_counts_pairs_by_their_points():
    assert pentanomial([0, 0.5, 1, 1, 1.5, 2, 2, 2]) == [1, 1, 2, 1, 3]
    with pytest.raises(ValueError, match="a pair scores 0, 0.5, 1, 1.5 or 2 points; got 0.7"):
        pentanomial([0.7])


def test_settings_are_checked():
    with pytest.raises(ValueError, match="elo0 is below elo1"):
        SPRT(10, 0)
    with pytest.raises(ValueError, match="alpha is a probability"):
        SPRT(0, 10, alpha=0.7)


def _pair(rng: random.Random, elo: float, draw: float = 0.4) -> float:
    """A pair's points when the new side is ``elo`` stronger: two games, each a draw with
    probability ``draw``, else won with the probability that gives the expected score."""
    score = expected_score(elo)
    win = score - draw / 2
    points = 0.0
    for _ in range(2):
        r = rng.random()
        points += 1.0 if r < win else 0.5 if r < win + draw else 0.0
    return points


def _run(test: SPRT, elo: float, rng: random.Random, most: int = 20_000) -> str | None:
    counts = [0] * 5
    for n in range(1, most + 1):
        counts[round(_pair(rng, elo) * 2)] += 1
        if n % 20 == 0 and (verdict := test.decide(counts)):
            return verdict
    return None


@pytest.mark.parametrize("elo, expected", [(40, "H1"), (-30, "H0")])
def test_a_clear_difference_is_decided_the_right_way(elo, expected):
    rng = random.Random(elo)
    assert [_run(SPRT(0, 10), elo, rng) for _ in range(5)] == [expected] * 5


def test_the_error_rates_hold_at_the_hypotheses():
    """At elo0 the test accepts H1 about alpha of the time, at elo1 H0 about beta of the time
    (Wald's bounds are a little conservative); 120 matches each, seeded."""
    test = SPRT(0, 20, 0.1, 0.1)
    rng = random.Random(3)
    false_h1 = sum(_run(test, 0, rng) == "H1" for _ in range(120)) / 120
    false_h0 = sum(_run(test, 20, rng) == "H0" for _ in range(120)) / 120
    assert false_h1 <= 0.1 + 0.06 and false_h0 <= 0.1 + 0.06
