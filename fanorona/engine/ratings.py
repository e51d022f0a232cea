"""Ratings from game results: a Bradley-Terry fit, intervals by bootstrap, a crosstable, a plot.

The model: White (rating ``r_w``) scores against Black (``r_b``) with probability
``1 / (1 + 10 ** (-(r_w - r_b + h) / 400))``, ``h`` being White's advantage; ratings are on the Elo
scale.  Its maximum-likelihood fit is a logistic regression, done by statsmodels' GLM (a binomial
family with a logit link): it takes a draw as half a point (a fractional outcome), fixed
ratings as an offset (the anchors) and a weight per row (the prior), and it is widely used and
tested.  ``choix`` fits the same model but has no draws, no fixed anchors and no colour term.

Anchors fix the scale: by default level1 (random play, whose strength no machine or year changes) is
0.  A prior of one virtual draw per pairing that met (half with each colour) keeps a player who won
or lost every game finite; the interval then says honestly that its open end has no bound.
Intervals come from refitting on pairings drawn with replacement (a pairing's games share an
opening, so they are resampled together).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

SCALE = 400 / math.log(10)  # logits to Elo points
DEFAULT_ANCHORS = {"level1": 0.0}


@dataclass(frozen=True)
class Result:
    """One game for the fit: White's name, Black's name, White's points (1, 1/2 or 0), its
    pairing."""

    white: str
    black: str
    points: float
    pairing: object = None


@dataclass
class Rating:
    name: str
    elo: float
    low: float
    high: float
    games: int
    points: float
    anchor: bool = False


@dataclass
class Ratings:
    """The fitted ratings, strongest first, with White's advantage and how they were made."""

    rows: list[Rating]
    white_advantage: float
    anchors: dict = field(default_factory=dict)
    samples: int = 0

    def __getitem__(self, name: str) -> Rating:
        return next(r for r in self.rows if r.name == name)

    def table(self) -> str:
        width = max([6] + [len(r.name) for r in self.rows])
        lines = [
            f"{'#':>3}  {'player':<{width}}  {'rating':>7}  {'95% interval':>17}  {'games':>5} "
            f" {'points':>6}"
        ]
        for n, r in enumerate(self.rows, 1):
            span = "(anchor)" if r.anchor else f"{_elo(r.low)} to {_elo(r.high)}"
            lines.append(
                f"{n:>3}  {r.name:<{width}}  {r.elo:>+7.0f}  {span:>17}  {r.games:>5} "
                f" {r.points:>6g}"
            )
        fixed = (
            ", ".join(f"{k} = {v:+g}" for k, v in self.anchors.items()) or "the field's mean = 0"
        )
        lines += [
            "",
            (
                f"Bradley-Terry ratings on the Elo scale, fixed by {fixed}; intervals from"
                f" {self.samples} bootstrap samples of the pairings; White's advantage"
                f" {self.white_advantage:+.0f}."
            ),
        ]
        return "\n".join(lines)

    __str__ = table

    def plot(self, ax=None):
        """The ratings with their intervals, strongest on top; anchors as squares; returns the
        axes."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 0.35 * len(self.rows) + 1.2))
        rows = list(reversed(self.rows))
        span = [r.elo for r in rows] + [
            x for r in rows for x in (r.low, r.high) if math.isfinite(x)
        ]
        edge = (max(span) - min(span)) * 0.15 + 50
        for y, r in enumerate(rows):
            low = r.low if math.isfinite(r.low) else min(span) - edge
            high = r.high if math.isfinite(r.high) else max(span) + edge
            ax.plot(
                [low, r.elo],
                [y, y],
                color="tab:blue",
                linestyle="-" if math.isfinite(r.low) else ":",
            )
            ax.plot(
                [r.elo, high],
                [y, y],
                color="tab:blue",
                linestyle="-" if math.isfinite(r.high) else ":",
            )
            ax.plot(
                [r.elo], [y], "s" if r.anchor else "o", color="black" if r.anchor else "tab:blue"
            )
        ax.set_yticks(range(len(rows)), [r.name for r in rows])
        ax.set_xlabel("rating (Elo scale), 95% intervals (dotted: no bound); squares: anchors")
        ax.grid(axis="x", alpha=0.3)
        return ax


def _elo(x: float) -> str:
    return "-inf" if x == -math.inf else "+inf" if x == math.inf else f"{x:+.0f}"


def fit(
    results: list[Result], anchors: dict | None = None, prior: float = 1.0
) -> tuple[dict, float]:
    """Maximum-likelihood ratings ({name: Elo}) and White's advantage, anchors held fixed."""
    import numpy as np

    try:
        import statsmodels.api as sm
    except ImportError:
        raise ImportError(
            "the ratings need the tournament extra: pip install 'fanorona[tournament]'"
        ) from None
    anchors = DEFAULT_ANCHORS if anchors is None else anchors
    names = sorted({r.white for r in results} | {r.black for r in results})
    fixed = {n: float(anchors[n]) for n in names if n in anchors}
    free = [n for n in names if n not in fixed]
    if not fixed and free:
        fixed, free = {free[0]: 0.0}, free[1:]
    column = {n: i + 1 for i, n in enumerate(free)}
    rows, y, offset, weight = [], [], [], []

    def add(white, black, points, colour, w):
        x = [colour] + [0.0] * len(free)
        if white in column:
            x[column[white]] += 1
        if black in column:
            x[column[black]] -= 1
        rows.append(x)
        y.append(points)
        offset.append((fixed.get(white, 0.0) - fixed.get(black, 0.0)) / SCALE)
        weight.append(w)

    for r in results:
        add(r.white, r.black, r.points, 1.0, 1.0)
    for a, b in {tuple(sorted((r.white, r.black))) for r in results}:
        add(a, b, 0.5, 1.0, prior / 2)  # one virtual draw, half of it with each colour
        add(b, a, 0.5, 1.0, prior / 2)
    model = sm.GLM(
        np.array(y),
        np.array(rows),
        family=sm.families.Binomial(),
        offset=np.array(offset),
        freq_weights=np.array(weight),
    )
    params = model.fit().params
    ratings = dict(fixed) | {n: params[column[n]] * SCALE for n in free}
    if len(fixed) == 1 and not set(fixed) & set(anchors):  # no anchor played: the mean is 0
        mean = sum(ratings.values()) / len(ratings)
        ratings = {n: v - mean for n, v in ratings.items()}
    return ratings, params[0] * SCALE


def rate(
    results: list[Result],
    anchors: dict | None = None,
    samples: int = 200,
    seed: int = 0,
    prior: float = 1.0,
) -> Ratings:
    """Ratings with 95% bootstrap intervals (``samples`` refits on pairings drawn with
    replacement)."""
    import numpy as np

    if not results:
        raise ValueError("there are no finished games to rate")
    anchors = DEFAULT_ANCHORS if anchors is None else anchors
    ratings, white = fit(results, anchors, prior)
    by_pairing: defaultdict[object, list[Result]] = defaultdict(list)
    for n, r in enumerate(results):
        by_pairing[r.pairing if r.pairing is not None else n].append(r)
    groups = list(by_pairing.values())
    rng = np.random.default_rng(seed)
    draws: defaultdict[str, list[float]] = defaultdict(list)
    for _ in range(samples):
        picked = [r for i in rng.integers(0, len(groups), len(groups)) for r in groups[i]]
        refit, _ = fit(picked, anchors, prior)
        for name in ratings:
            draws[name].append(refit.get(name, math.nan))
    played: defaultdict[str, int] = defaultdict(int)
    points: defaultdict[str, float] = defaultdict(float)
    for r in results:
        played[r.white] += 1
        played[r.black] += 1
        points[r.white] += r.points
        points[r.black] += 1 - r.points
    rows = []
    for name, elo in ratings.items():
        low, high = np.nanpercentile(draws[name], [2.5, 97.5]) if samples else (math.nan, math.nan)
        low, high = min(low, elo), max(high, elo)
        if name in anchors:
            low = high = elo
        elif points[name] == played[name]:
            high = math.inf  # won every game: no upper bound
        elif points[name] == 0:
            low = -math.inf
        rows.append(
            Rating(name, elo, float(low), float(high), played[name], points[name], name in anchors)
        )
    rows.sort(key=lambda r: -r.elo)
    return Ratings(rows, white, {k: v for k, v in anchors.items() if k in ratings}, samples)


def crosstable(results: list[Result], order: list[str]) -> str:
    """Points each player (row) took from each opponent (column), out of the games they played."""
    got: defaultdict[tuple[str, str], float] = defaultdict(float)
    games: defaultdict[tuple[str, str], int] = defaultdict(int)
    for r in results:
        for me, other, p in ((r.white, r.black, r.points), (r.black, r.white, 1 - r.points)):
            got[me, other] += p
            games[me, other] += 1
    width = max([6] + [len(n) for n in order])
    head = (
        f"{'':>3}  {'':<{width}}  "
        + " ".join(f"{n:>5}" for n in range(1, len(order) + 1))
        + "  total"
    )
    lines = [head]
    for i, me in enumerate(order, 1):
        cells = [
            ("  ·" if me == o else f"{_half(got[me, o])}/{games[me, o]}" if games[me, o] else "  -")
            for o in order
        ]
        total = sum(got[me, o] for o in order)
        lines.append(
            f"{i:>3}  {me:<{width}}  "
            + " ".join(f"{c:>5}" for c in cells)
            + f"  {_half(total)}/{sum(games[me, o] for o in order)}"
        )
    return "\n".join(lines)


def _half(x: float) -> str:
    whole = int(x)
    return (str(whole) if whole or x == whole else "") + ("½" if x - whole else "")
