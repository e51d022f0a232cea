"""The positions the evaluation is tuned on, each with a result known for the side to move (1 a
win, 1/2 a draw, 0 a loss), written to a CSV file by a command rather than committed:

- ``endgame``: the 9x5 endgame table's positions (exact, from retrograde analysis);
- ``solved``: positions of the solved small boards, 5x3 and 3x5 (exact);
- ``selfplay``: every position of games between fixed-depth compiled searches on 9x5, each
  opening from the three-turn book, labelled by the game's result (a game cut at the turn cap is
  decided on stones, as the arena does);
- ``records``: every position of the games that ``bench_strength --record FILE`` wrote (level 5's
  own time, so the strongest play the kit has), labelled by the game's result; a game cut at the
  turn cap is left out, since stones do not decide it.

``python -m benchmarks.evaluation_data --games 200 --exact 4000 [--records FILE ...]`` (progress
bars on stderr); ``benchmarks/tune_evaluation.py`` fits the weights to the file.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from pathlib import Path

from tqdm import tqdm

from fanorona.board import Board
from fanorona.engine.ai import AlphaBetaPlayer
from fanorona.engine.arena import recorded_games
from fanorona.engine.endgame import endgame_table
from fanorona.engine.solve import solve
from fanorona.game import play_game
from fanorona.movegen import bitsets
from fanorona.rules import Rules

from .openings import opening_book

DEFAULT_FILE = Path("build/evaluation-positions.csv")
COLUMNS = ("source", "width", "height", "me", "opp", "result")
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def endgame_rows(count: int, rng: random.Random, stones: int = 3) -> list[tuple]:
    """``count`` positions of the 9x5 table of ``stones`` stones, drawn at random."""
    table = endgame_table((9, 5), stones)
    entries = list(table.entries())
    return [
        ("endgame", 9, 5, me, opp, POINTS[value])
        for me, opp, value, _ in rng.sample(entries, min(count, len(entries)))
    ]


def solved_rows(count: int, rng: random.Random, size) -> list[tuple]:
    """``count`` positions of a solved small board, as many of each result as it has in
    proportion."""
    table = solve(size, progress=False)
    rows = []
    for value, points in POINTS.items():
        boards = list(table.boards(value))
        share = round(count * len(boards) / len(table))
        rows += [
            ("solved", *size, *bitsets(board), points)
            for board in rng.sample(boards, min(share, len(boards)))
        ]
    return rows


def selfplay_rows(games: int, depth: int, max_turns: int, seed: int) -> list[tuple]:
    """Every position between turns of ``games`` games of two depth-``depth`` searches."""
    rows = []
    book = opening_book(games, seed=seed)
    for i in tqdm(range(games), desc="self-play games", unit="game", file=sys.stderr):
        board = Board()
        for turn in book[i].split():
            board.push(turn)
        seen: list[tuple[int, int, str]] = []

        def record(b: Board, _turn, seen=seen) -> None:
            if b.outcome() is None:
                seen.append((*bitsets(b), b.to_move.value))

        record(board, None)
        players = [AlphaBetaPlayer(depth=depth, seed=seed * 1000 + 2 * i + k) for k in (0, 1)]
        game = play_game(*players, board, max_turns=max_turns, on_turn=record)
        winner = game.outcome.winner
        for me, opp, mover in seen:
            result = 0.5 if winner is None else 1.0 if winner == mover else 0.0
            rows.append(("selfplay", 9, 5, me, opp, result))
    return rows


def record_rows(path: Path) -> list[tuple]:
    """Every position before a turn of the recorded match's games that the rules ended."""
    settings, games = recorded_games(path)
    size, rules = tuple(settings["size"]), Rules(**settings["rules"])
    rows = []
    for game in tqdm(games, desc=f"games of {path.name}", unit="game", file=sys.stderr):
        if game.adjudicated:
            continue
        colours = ("white", "black") if game.a_white else ("black", "white")
        winner = dict(zip(("a", "b"), colours)).get(game.winner)  # None for a draw
        board = Board(size, rules)
        for turn in game.opening.split():
            board.push(turn)
        for turn in game.turns:
            result = 0.5 if winner is None else float(winner == board.to_move.value)
            rows.append(("records", *size, *bitsets(board), result))
            board.push(turn)
    return rows


def main(argv=()) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.evaluation_data", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=100, help="self-play games (default 100)")
    parser.add_argument("--depth", type=int, default=3, help="their searches' depth (default 3)")
    parser.add_argument("--max-turns", type=int, default=120, help="turn cap (default 120)")
    parser.add_argument(
        "--exact", type=int, default=3000, help="positions from each exact source (default 3000)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--records", type=Path, nargs="*", default=[], help="bench_strength --record files"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_FILE, help=f"default {DEFAULT_FILE}")
    args = parser.parse_args(argv)
    for name in ("games", "depth", "max_turns", "exact"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} is a whole number, at least 1")
    rng = random.Random(args.seed)
    rows = endgame_rows(args.exact, rng)
    for size in ((5, 3), (3, 5)):
        rows += solved_rows(args.exact // 2, rng, size)
    rows += selfplay_rows(args.games, args.depth, args.max_turns, args.seed)
    for path in args.records:
        try:
            rows += record_rows(path)
        except (OSError, ValueError) as error:
            parser.error(str(error))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        writer.writerows(rows)
    counts = {s: sum(r[0] == s for r in rows) for s in ("endgame", "solved", "selfplay", "records")}
    told = ", ".join(f"{n} {s}" for s, n in counts.items())
    print(f"{len(rows)} positions written to {args.out}: {told}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
