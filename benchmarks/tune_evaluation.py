"""Texel tuning of the learned evaluation: a logistic regression of each position's known result
on its ``ai.FEATURES`` (statsmodels' binomial GLM, which takes draws as 1/2), over the file that
``python -m benchmarks.evaluation_data`` writes.

The fitted coefficients are put on the search's scale, a stone ahead being ``scoring.STONE``, and
printed as the ``scoring.LEARNED`` line, with each feature's z value (a feature that does not earn
its place shows a small one) and the held-out log loss of the fit beside today's evaluations:
``python -m benchmarks.tune_evaluation [FILE] [--sources selfplay,endgame,solved]``.
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import sys
from pathlib import Path

import numpy as np
from tqdm import tqdm

from fanorona.engine.ai import EVALUATIONS, FEATURES, features
from fanorona.engine.scoring import LEARNED, STONE
from fanorona.geometry import geometry
from fanorona.movegen import generator
from fanorona.rules import Rules

from .evaluation_data import DEFAULT_FILE

SOURCES = ("selfplay", "endgame", "solved", "records")


def read_positions(path: Path, sources) -> tuple[np.ndarray, np.ndarray, list]:
    """The features, results and sources of the file's positions from ``sources``."""
    with path.open(newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["source"] in sources]
    if not rows:
        raise ValueError(f"{path} has no positions from {', '.join(sources)}")
    gens: dict = {}
    x, y, where = [], [], []
    for row in tqdm(rows, desc="features", unit="position", file=sys.stderr, mininterval=1):
        size = int(row["width"]), int(row["height"])
        if size not in gens:
            gens[size] = generator(geometry(*size), Rules())
        x.append(features(gens[size], int(row["me"]), int(row["opp"])))
        y.append(float(row["result"]))
        where.append((row["source"], size, int(row["me"]), int(row["opp"])))
    return np.array(x, dtype=float), np.array(y), where


def fit(x: np.ndarray, y: np.ndarray):
    """The binomial GLM of the results on the features (the tempo feature is its constant)."""
    import statsmodels.api as sm

    return sm.GLM(y, x, family=sm.families.Binomial()).fit()


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def evaluation_loss(name: str, where: list, y: np.ndarray, scale: float) -> float:
    """The log loss of an evaluation's scores turned into expected results at the fitted
    ``scale`` (results per score unit), and its own best scale tried around it."""
    gens: dict = {}
    scores = []
    for _source, size, me, opp in where:
        if size not in gens:
            gens[size] = generator(geometry(*size), Rules())
        scores.append(EVALUATIONS[name](gens[size], me, opp))
    s = np.array(scores, dtype=float)
    return min(
        log_loss(1 / (1 + np.exp(-k * scale * s)), y) for k in (0.25, 0.5, 0.75, 1, 1.5, 2, 3)
    )


def main(argv=()) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.tune_evaluation", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--sources", default=",".join(SOURCES), help="which positions to fit")
    parser.add_argument("--holdout", type=float, default=0.2, help="share kept out of the fit")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sources = [s.strip() for s in args.sources.split(",") if s.strip()]
    unknown = [s for s in sources if s not in SOURCES]
    if unknown:
        parser.error(f"no source {', '.join(unknown)}; choose from {', '.join(SOURCES)}")
    if not args.file.exists():
        parser.error(f"{args.file} does not exist: python -m benchmarks.evaluation_data makes it")
    x, y, where = read_positions(args.file, sources)
    order = list(range(len(y)))
    random.Random(args.seed).shuffle(order)
    cut = int(len(order) * (1 - args.holdout))
    train, test = np.array(order[:cut]), np.array(order[cut:])
    result = fit(x[train], y[train])
    beta = np.asarray(result.params)
    scale = beta[0] / STONE  # results per score unit, a stone being STONE
    weights = tuple(round(b / scale) for b in beta[1:])
    print(f"{len(y)} positions ({', '.join(sources)}), {len(train)} fitted, {len(test)} held out")
    print(f"{'feature':<10} {'coefficient':>11} {'z':>8} {'weight':>7} {'in scoring':>10}")
    for i, name in enumerate(FEATURES):
        now = STONE if i == 0 else LEARNED[i - 1]
        weight = STONE if i == 0 else weights[i - 1]
        print(
            f"{name:<10} {beta[i]:>11.4f} {np.asarray(result.tvalues)[i]:>8.1f} {weight:>7} "
            f"{now:>10}"
        )
    print(f"LEARNED = {weights}")
    fitted = log_loss(np.asarray(result.predict(x[test])), y[test])
    base = log_loss(np.full(len(test), y[train].mean()), y[test])
    print(f"held-out log loss: the fit {fitted:.4f}, no features {base:.4f}")
    held = [where[i] for i in test]
    for name in EVALUATIONS:
        print(f"  evaluation {name:<9} {evaluation_loss(name, held, y[test], scale):.4f}")
    if not all(math.isfinite(b) for b in beta):
        print("the fit did not converge", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
