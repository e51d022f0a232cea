"""Proof by games: today's level 5 against level 5 as it was frozen (``benchmarks.frozen_level5``),
at equal time a turn, in pairs that share an opening from the two-turn book (every White first
turn and Black reply, each position once; the three-turn book when more pairs are asked for), so
no two pairs open alike.  Games are played to their end by the rules (a cap of 400 turns, which
the 50-turn rule reaches first; a cap of 120, the default before, decided on stones games that a
table proves drawn).  Prints the arena's table, the score with a 95% interval and the Elo
difference with its interval, and how many pairs one colour won twice: openings that decided the
game whoever played them, on which no player scores above 50%.

``python -m benchmarks.bench_strength --games 100 --time 1.8 --jobs 2`` is the full measurement
(about two CPU hours, an hour with two games at once: for an idle machine); ``python -m
benchmarks bench_strength`` plays a short match at 0.1 s a turn.  ``--depth 5`` gives both sides
a fixed depth instead of a time: a match whose result does not depend on the machine's load (one
evaluation against another, say, with ``--player``), though not on equal time.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys

from fanorona.board import Board
from fanorona.engine import arena
from fanorona.engine.ai import LEVELS

from . import frozen_level5  # noqa: F401 - importing it registers the frozen5 spec

Z95 = 1.959964  # the normal distribution's two-sided 95% point


def opening_book(pairs: int, size=(9, 5), rules="standard", seed: int = 1) -> list[str]:
    """``pairs`` openings of two turns (three or more when two give too few), each ending in
    another position, in an order drawn from ``seed``."""
    rules = arena.Rules.named(rules) if isinstance(rules, str) else rules
    lines: list[tuple[str, Board]] = [("", Board(size, rules))]
    turns = 0
    while turns < 2 or len(lines) < pairs:
        deeper, seen = [], set()
        for text, board in lines:
            if board.outcome() is not None:
                continue
            for turn in board.legal_turns():
                after = board.copy()
                after.push(turn)
                position = after.fen()
                if position not in seen:
                    seen.add(position)
                    deeper.append((f"{text} {turn}".strip(), after))
        if not deeper:
            raise ValueError(f"the book of {size} has fewer than {pairs} openings")
        lines, turns = deeper, turns + 1
    book = [text for text, _ in lines]
    random.Random(seed).shuffle(book)
    return book[:pairs]


def score_interval(result: arena.MatchResult) -> tuple[float, float, float]:
    """The score and a 95% interval from the spread of the pairs' points (the two games of a pair
    share an opening, so the pair is the unit that varies)."""
    points = [g.points for g in result.games]
    pairs = [sum(points[i : i + 2]) / 2 for i in range(0, len(points) - 1, 2)]
    score = statistics.fmean(points)
    if len(pairs) < 2:
        return score, 0.0, 1.0
    half = Z95 * statistics.stdev(pairs) / math.sqrt(len(pairs))
    return score, max(0.0, score - half), min(1.0, score + half)


def colour_won_both(result: arena.MatchResult) -> dict[str, int]:
    """Pairs whose two games the same colour won, by that colour: openings that decided the game
    whichever side played them, so that no player can score above 50% on them."""
    pairs: dict[int, list[str | None]] = {}
    for game in result.games:
        pairs.setdefault(game.index // 2, []).append(_winning_colour(game))
    counts = {"white": 0, "black": 0}
    for colours in pairs.values():
        if len(colours) == 2 and colours[0] is not None and colours[0] == colours[1]:
            counts[colours[0]] += 1
    return counts


def _winning_colour(game: arena.GameResult) -> str | None:
    if game.winner is None:
        return None
    return "white" if (game.winner == "a") == game.a_white else "black"


def elo(score: float) -> float:
    """The Elo difference that expects ``score``; infinite at 0 and 1."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def new_level5(seconds: float | None = None, depth: int | None = None) -> str:
    """Today's level 5 with another time a turn, or searching to a fixed ``depth`` instead."""
    options = [o for o in LEVELS[5].partition(":")[2].split(",") if not o.startswith("time=")]
    budget = f"depth={depth}" if depth is not None else f"time={seconds:g}"
    return "alphabeta:" + ",".join([budget, *options])


def main(argv=()) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_strength", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=20, help="games, in pairs (default 20)")
    parser.add_argument(
        "--time",
        type=float,
        default=0.1,
        help="seconds a turn for both (default 0.1; level 5's: 1.8)",
    )
    parser.add_argument(
        "--depth",
        type=int,
        help="both search to this depth instead of a time a turn (the result then does not "
        "depend on the machine's load; the table's nodes/s tells what a depth costs)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes playing at once")
    parser.add_argument(
        "--player", help="another spec to play the frozen level 5 (default: today's level 5)"
    )
    parser.add_argument(
        "--opponent",
        help="another spec for the other side (default: the frozen level 5 with the same budget; "
        "frozen5:depth=7 gives it a turn more than --depth 6, say)",
    )
    parser.add_argument(
        "--max-turns",
        type=int,
        default=400,
        help="turn cap, a game reaching it decided on stones (default 400: the 50-turn rule ends "
        "games first, so they are played to their end)",
    )
    parser.add_argument("--seed", type=int, default=1, help="draws the openings and the players")
    parser.add_argument("--json", metavar="FILE", help="also write every game to FILE")
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="write each game to FILE as it ends; the same command again goes on from there",
    )
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games is an even number, at least 2 (games go in pairs); got {args.games}")
    if not args.time > 0:
        parser.error(f"--time is a positive number of seconds; got {args.time}")
    if args.depth is not None and args.depth < 1:
        parser.error(f"--depth is a whole number of turns, at least 1; got {args.depth}")
    book = opening_book(args.games // 2, seed=args.seed)
    new = args.player or new_level5(args.time, args.depth)
    old = args.opponent or (
        f"frozen5:depth={args.depth}" if args.depth else f"frozen5:time={args.time:g}"
    )
    print(f"{new} against {old}, {args.games} games, {len(set(book))} openings")
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in _load())}", flush=True)
    result = arena.run_match(
        new,
        old,
        args.games,
        jobs=args.jobs,
        seed=args.seed,
        max_turns=args.max_turns,
        openings=book,
        record=args.record,
    )
    print(result.table())
    score, low, high = score_interval(result)
    print(
        f"score {score:.1%} (95% interval {low:.1%} to {high:.1%}); "
        f"Elo {elo(score):+.0f} (95% interval {elo(low):+.0f} to {elo(high):+.0f})"
    )
    same = colour_won_both(result)
    print(
        f"pairs the same colour won twice (the opening decided them, whoever played it): "
        f"White {same['white']}, Black {same['black']}, of {len(result.games) // 2}"
    )
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in _load())}")
    if args.json:
        with open(args.json, "w") as f:
            f.write(result.to_json())
    return 0


def _load() -> tuple[float, float, float]:
    return os.getloadavg()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
