"""Proof by games: one version of the kit against another, each built from the repository and
played over the player protocol, until a sequential test decides or the games run out.

``--new`` and ``--old`` name git references (a tag such as ``v0.2.0``, a branch, a commit, or
``WORKTREE``: this checkout as it is); each is built once in a worktree and environment of its own
(``benchmarks.builds``) and serves its level 5 (``--spec``) at ``--time`` seconds a turn.  Games go
in pairs that share an opening, one with each colour, drawn from the book without repeating one
(``--book``, the balanced book of ``benchmarks.openings``; without it, every two-turn line).
With ``--sprt`` the match stops when the SPRT over the pairs' pentanomial counts accepts H0 or
H1 (``benchmarks.sprt``); without it, after ``--games``.  Prints the arena's table, the score as
White and as Black, the score and Elo with 95% intervals, the pairs one colour won twice, the
SPRT line and the load.

``python -m benchmarks.bench_strength --old HEAD --time 1.8 --games 400 --sprt --jobs 2`` is the
full measurement (hours on an idle two-core machine); ``python -m benchmarks bench_strength``
plays a short match of the working tree against itself at 0.1 s a turn.
"""

from __future__ import annotations

import argparse
import copy
import math
import os
import statistics
import sys
import tempfile
from pathlib import Path

from fanorona.engine import arena
from fanorona.engine.remote import RemotePlayer, Timeouts

from . import builds
from .openings import all_lines, read_book
from .sprt import SPRT, elo_of, pentanomial

Z95 = 1.959964  # the normal distribution's two-sided 95% point
#: The balanced book the match draws from by default, when it exists.
BOOK = Path(__file__).with_name("openings_9x5.txt")


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


def by_colour(result: arena.MatchResult) -> dict[str, tuple[float, int]]:
    """A's score and games as White and as Black."""
    out = {}
    for colour, white in (("White", True), ("Black", False)):
        games = [g for g in result.games if g.a_white == white]
        out[colour] = (statistics.fmean(g.points for g in games) if games else math.nan, len(games))
    return out


def pair_counts(result: arena.MatchResult) -> list[int]:
    """The pentanomial counts of the finished pairs, for A."""
    pairs: dict[int, list[float]] = {}
    for game in result.games:
        pairs.setdefault(game.index // 2, []).append(game.points)
    return pentanomial(sum(p) for p in pairs.values() if len(p) == 2)


def player(build: builds.Build, spec: str, seconds: float) -> RemotePlayer:
    """``spec`` of ``build``, served over the protocol at ``seconds`` a turn."""
    return RemotePlayer(
        build.serve(spec),
        name=f"{spec} {build.label}",
        movetime=seconds,
        cwd=str(build.folder),
        timeouts=Timeouts(newgame=900),
    )


def warm_up(side: RemotePlayer) -> None:
    """One turn with no hurry, so that the build's compiled code and tables are ready before any
    clock runs."""
    from fanorona.board import Board

    slow = copy.deepcopy(side)  # the same command, not yet started
    slow.movetime, slow.timeouts = None, Timeouts(newgame=900, turn=900)
    try:
        slow.choose_turn(Board())
    finally:
        slow.close()


def play(args, new: RemotePlayer, old: RemotePlayer, book: list[str], test: SPRT | None):
    """The match: all ``--games`` at once, or with the SPRT a batch of pairs at a time (as many as
    ``--jobs``) until it decides or the games or the book run out."""
    record = args.record or os.path.join(tempfile.mkdtemp(), "games.jsonl")
    batch = 2 * max(1, args.jobs // 2) if test else args.games
    played = 0
    while True:
        played = min(args.games, played + batch)
        result = arena.run_match(
            new,
            old,
            played,
            jobs=args.jobs,
            seed=args.seed,
            max_turns=args.max_turns,
            openings=book,
            record=record,
            progress=test is None,
            scheduler=args.scheduler,
        )
        if test is None or played >= args.games or test.decide(pair_counts(result)):
            return result
        print(test.line(pair_counts(result)), flush=True)


def main(argv=()) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_strength", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--new", default=builds.WORKTREE, help="git reference (default WORKTREE)")
    parser.add_argument("--old", default=builds.WORKTREE, help="git reference (default WORKTREE)")
    parser.add_argument("--spec", default="level5", help="the player each serves (level5)")
    parser.add_argument("--new-spec", help="another player for the new side only")
    parser.add_argument("--old-spec", help="another player for the old side only")
    parser.add_argument("--time", type=float, default=0.1, help="seconds a turn (level 5's: 1.8)")
    parser.add_argument("--games", type=int, default=20, help="games at most, in pairs (20)")
    parser.add_argument("--book", type=Path, help=f"opening book file (default {BOOK.name})")
    parser.add_argument("--sprt", action="store_true", help="stop when the SPRT decides")
    parser.add_argument("--elo0", type=float, default=0.0, help="the SPRT's H0 (default 0)")
    parser.add_argument("--elo1", type=float, default=10.0, help="the SPRT's H1 (default 10)")
    parser.add_argument("--alpha", type=float, default=0.05, help="false H1 rate (0.05)")
    parser.add_argument("--beta", type=float, default=0.05, help="false H0 rate (0.05)")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing at once")
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play on a Dask cluster (tcp://HOST:PORT) instead of local processes; --jobs is then"
        " the games a batch of the SPRT, the cluster's workers",
    )
    parser.add_argument("--max-turns", type=int, default=400, help="turn cap (default 400)")
    parser.add_argument("--seed", type=int, default=1, help="draws the book's order")
    parser.add_argument("--builds", type=Path, default=builds.BUILDS, help="where builds live")
    parser.add_argument("--record", metavar="FILE", help="games as they end; again goes on")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games is an even number, at least 2 (games go in pairs); got {args.games}")
    if not args.time > 0:
        parser.error(f"--time is a positive number of seconds; got {args.time}")
    try:
        if args.scheduler:
            from fanorona.tournament.cluster import check_scheduler

            check_scheduler(args.scheduler)
        test = SPRT(args.elo0, args.elo1, args.alpha, args.beta) if args.sprt else None
        book_file = args.book or (BOOK if BOOK.exists() else None)
        book = _shuffled(read_book(book_file) if book_file else all_lines(turns=2), args.seed)
        sides = [
            player(builds.build(ref, args.builds), spec or args.spec, args.time)
            for ref, spec in ((args.new, args.new_spec), (args.old, args.old_spec))
        ]
    except ValueError as e:
        parser.error(str(e))
    if len(book) < args.games // 2:
        parser.error(
            f"the book has {len(book)} openings, fewer than the {args.games // 2} pairs asked for:"
            " no opening is played twice"
        )
    print(
        f"{sides[0].name} against {sides[1].name}, {args.time:g} s a turn, at most {args.games}"
        f" games from {book_file or 'the two-turn lines'} ({len(book)} openings)"
    )
    print(f"load average at the start: {_load()}", flush=True)
    for side in sides:
        warm_up(side)
    result = play(args, sides[0], sides[1], book, test)
    print(result.table())
    colours = by_colour(result)
    print(
        "score of the new side as "
        + ", as ".join(f"{c} {s:.1%} ({n} games)" for c, (s, n) in colours.items())
    )
    score, low, high = score_interval(result)
    print(
        f"score {score:.1%} (95% interval {low:.1%} to {high:.1%}); "
        f"Elo {elo_of(score):+.0f} (95% interval {elo_of(low):+.0f} to {elo_of(high):+.0f})"
    )
    same = colour_won_both(result)
    print(
        f"pairs the same colour won twice (the opening decided them, whoever played it): "
        f"White {same['white']}, Black {same['black']}, of {len(result.games) // 2}"
    )
    if test:
        print(test.line(pair_counts(result)))
    print(f"load average at the end: {_load()}")
    return 0


def _shuffled(book: list[str], seed: int) -> list[str]:
    import random

    book = list(book)
    random.Random(seed).shuffle(book)
    return book


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
