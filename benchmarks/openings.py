"""Opening books for matches: every line a few turns deep, and the balanced book screened from it.

A pair of games plays one opening with each player as White.  An opening that one colour wins
whoever plays it measures the opening, not the players: both games of its pair go to that colour
and the pair scores 1 - 1 however strong either side is.  The balanced book keeps the openings
whose pairs a self-play screen did not give to one colour: the screen's player plays both games
of a pair against itself (different seeds, a short time a turn), and a position is kept only if
the same colour won both games of none of its ``--rounds`` pairs (each round with a seed of its
own, playing the positions the rounds before kept): one split pair at a short time control is
noise as often as balance.

``python -m benchmarks.openings --turns 3 --out benchmarks/openings_9x5.txt`` screens every
three-turn line (``--limit`` of them, drawn by ``--seed``) and writes the kept ones, one a line,
under a header with how each round's pairs went; ``--candidates BOOK`` screens a book's openings
again instead (a second screen of positions that passed one).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

from fanorona.board import Board
from fanorona.engine import arena
from fanorona.rules import Rules

#: The screen's player: level 5's search at a short time a turn, whose own noise (the clock) lets
#: a pair split when the position is balanced.
SCREEN = "alphabeta:time=0.05,endgame=4,eval=learned"


def opening_book(pairs: int, size=(9, 5), rules="standard", seed: int = 1, turns: int = 2):
    """``pairs`` openings of ``turns`` turns (more when that gives too few), each ending in another
    position, in an order drawn from ``seed``."""
    book = all_lines(size, rules, turns, at_least=pairs)
    random.Random(seed).shuffle(book)
    return book[:pairs]


def all_lines(size=(9, 5), rules="standard", turns: int = 2, at_least: int = 1) -> list[str]:
    """Every line of ``turns`` turns (or more, until there are ``at_least``) that ends in a
    position no other line reached, the game not over; in the generator's order."""
    rules = Rules.named(rules) if isinstance(rules, str) else rules
    lines: list[tuple[str, Board]] = [("", Board(size, rules))]
    depth = 0
    while depth < turns or len(lines) < at_least:
        deeper, seen = [], set()
        for text, board in lines:
            for turn in board.legal_turns():
                after = board.copy()
                after.push(turn)
                if after.outcome() is None and after.fen() not in seen:
                    seen.add(after.fen())
                    deeper.append((f"{text} {turn}".strip(), after))
        if not deeper:
            raise ValueError(f"the book of {size} has fewer than {at_least} openings")
        lines, depth = deeper, depth + 1
    return [text for text, _ in lines]


def balanced(result: arena.MatchResult) -> list[str]:
    """The openings of a self-play match (a pair each) whose pair no colour won twice."""
    pairs: dict[int, list] = {}
    for game in result.games:
        pairs.setdefault(game.index // 2, []).append(game)
    kept = []
    for games in pairs.values():
        colours = [_winning_colour(g) for g in games]
        if len(games) == 2 and not (colours[0] is not None and colours[0] == colours[1]):
            kept.append(games[0].opening)
    return kept


def _winning_colour(game: arena.GameResult) -> str | None:
    if game.winner is None:
        return None
    return "white" if (game.winner == "a") == game.a_white else "black"


def read_book(path) -> list[str]:
    """A book file's openings: one a line, turns separated by spaces; '#' starts a comment."""
    book = []
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        text = line.partition("#")[0].strip()
        if text:
            if text in book:
                raise ValueError(f"{path}, line {number}: {text!r} is in the book twice")
            book.append(text)
    if not book:
        raise ValueError(f"{path}: no openings in it")
    return book


def screen(
    candidates: list[str],
    player: str = SCREEN,
    size=(9, 5),
    jobs: int = 1,
    seed: int = 1,
    rounds: int = 2,
    report=None,
) -> list[str]:
    """The candidates none of whose ``rounds`` self-play pairs (seeds ``seed``, ``seed + 1``...)
    ``player`` gave to one colour: each round plays the ones the rounds before kept.  ``report``,
    if given, is called with each round's ``split``."""
    kept = list(candidates)
    for number in range(rounds):
        if not kept:
            break
        result = arena.run_match(
            player,
            player,
            2 * len(kept),
            size=size,
            jobs=jobs,
            seed=seed + number,
            max_turns=400,
            openings=kept,
            progress=True,
        )
        if report is not None:
            report(split(result))
        kept = balanced(result)
    return kept


def split(result: arena.MatchResult) -> dict[str, int]:
    """How a self-play match's pairs went: both games to White, both to Black, or neither."""
    counts = {"white twice": 0, "black twice": 0, "split or drawn": 0}
    pairs: dict[int, list] = {}
    for game in result.games:
        pairs.setdefault(game.index // 2, []).append(_winning_colour(game))
    for colours in pairs.values():
        same = len(colours) == 2 and colours[0] is not None and colours[0] == colours[1]
        counts[f"{colours[0]} twice" if same else "split or drawn"] += 1
    return counts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.openings", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--turns", type=int, default=3, help="turns in an opening (default 3)")
    parser.add_argument("--limit", type=int, default=200, help="candidates screened (default 200)")
    parser.add_argument("--screen", default=SCREEN, help=f"the self-play player ({SCREEN})")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing at once")
    parser.add_argument("--seed", type=int, default=1, help="draws the candidates")
    parser.add_argument(
        "--rounds", type=int, default=2, help="self-play pairs a kept position must split (2)"
    )
    parser.add_argument(
        "--candidates",
        type=Path,
        metavar="BOOK",
        help="screen the openings of this book file again (--limit of them) instead of new lines",
    )
    parser.add_argument("--out", type=Path, required=True, help="the book file to write")
    args = parser.parse_args(argv)
    if args.turns < 1 or args.limit < 1 or args.rounds < 1:
        parser.error("--turns, --limit and --rounds are whole numbers, at least 1")
    if args.candidates:
        try:
            candidates = read_book(args.candidates)[: args.limit]
        except (OSError, ValueError) as e:
            parser.error(str(e))
    else:
        candidates = all_lines(turns=args.turns)
        random.Random(args.seed).shuffle(candidates)
        candidates = candidates[: args.limit]
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    rounds: list[str] = []

    def report(counts: dict[str, int]) -> None:
        rounds.append(", ".join(f"{n} {what}" for what, n in counts.items()))
        print(f"round {len(rounds)}: {rounds[-1]}", flush=True)

    kept = screen(
        candidates, args.screen, jobs=args.jobs, seed=args.seed, rounds=args.rounds, report=report
    )
    end = " ".join(f"{x:.2f}" for x in os.getloadavg())
    whence = (
        f"openings of {args.candidates.name}" if args.candidates else f"{args.turns}-turn openings"
    )
    header = (
        f"# {len(kept)} of {len(candidates)} {whence} on 9x5 whose self-play"
        f" pairs ({args.screen}, {args.rounds} rounds from seed {args.seed}) no colour won twice;"
        f" load {load} at the start, {end} at the end\n"
        + "".join(f"# round {n}: {line}\n" for n, line in enumerate(rounds, start=1))
    )
    if args.candidates:  # what the book's own screen was, kept as its history
        header += "".join(
            f"# before: {line.lstrip('# ')}\n"
            for line in args.candidates.read_text().splitlines()
            if line.startswith("#")
        )
    args.out.write_text(header + "".join(line + "\n" for line in kept))
    print(header.strip("# \n"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
