"""Games per minute of a tournament on a local Dask cluster of 1 and 2 workers, and what that
means for a class: ``python benchmarks/bench_tournament.py`` prints the figures.

The games: the built-in levels 1 to 3 and the template player, a round robin on 9x5 with at most
80 turns a game (the issue's typical game length), every player sandboxed as on tournament night.
These players take milliseconds a turn, so the figures measure the tournament's own cost a game
(two sandboxed processes, the pipes, the database); students' players that think for up to 1 s a
turn add up to 80 s of one core a game, which the projection adds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from fanorona.tournament import Limits, Tournament, builtin, dask_client
from fanorona.tournament.players import TEMPLATE

CLASSES = [
    (
        "30 players, double round robin of 2 games a pairing (--games-per-pairing 4)",
        30 * 29 // 2 * 4,
    ),
    ("200 players, Swiss, 10 rounds of 2 games a pairing", 200 // 2 * 10 * 2),
]


def entries():
    return [
        builtin("level1"),
        builtin("level2"),
        builtin("level3"),
        {"name": "template", "source": TEMPLATE},
    ]


def one_run(workers: int, repeat: int, seed: int) -> tuple[float, float, float]:
    """(games a minute, mean wall seconds a game inside a worker, mean seconds the players
    thought)."""
    with tempfile.TemporaryDirectory() as folder:
        t = Tournament.create(
            Path(folder) / "bench.sqlite",
            (
                entries() * 1
                if repeat == 1
                else [dict(e, name=f"{e['name']}-{k}") for k in range(repeat) for e in entries()]
            ),
            size=(9, 5),
            max_turns=80,
            limits=Limits(turn_seconds=1.0),
            seed=seed,
        )
        with dask_client(workers=workers, dashboard=False) as client:
            client.run(lambda: None)  # workers up before the clock starts
            started = time.perf_counter()
            games = t.play(client, progress=False)
            elapsed = time.perf_counter() - started
        rows = t.store.db.execute("SELECT white_seconds + black_seconds FROM games").fetchall()
        thinking = statistics.mean(r[0] for r in rows)
        t.close()
    return games / elapsed * 60, elapsed / games * workers, thinking


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--runs", type=int, default=3, help="runs for each number of workers (default 3)"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="copies of the four players (more games a run)"
    )
    args = parser.parse_args(argv)
    figures = {}
    for workers in (1, 2):
        runs = [one_run(workers, args.repeat, seed) for seed in range(args.runs)]
        figures[workers] = [statistics.median(r[i] for r in runs) for i in range(3)]
        rate, per_game, thinking = figures[workers]
        print(
            f"{workers} worker(s): {rate:.1f} games a minute (median of {args.runs} runs); "
            f"{per_game:.2f} s of a worker a game, {thinking:.2f} s of it the players' thinking"
        )
    speedup = figures[2][0] / figures[1][0]
    overhead = max(figures[1][1] - figures[1][2], 0.0)
    print(
        f"2 workers against 1: {speedup:.2f}x the games a minute (load average"
        f" {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end: other work slows both)"
    )
    print(
        f"the tournament's own cost a game: {overhead:.2f} s of a worker (two sandboxed processes,"
        " pipes, database)"
    )
    print()
    print(
        "Projection: a game of 80 turns at up to 1 s a turn costs 80 s + the cost above of one core"
    )
    for label, games in CLASSES:
        core_hours = games * (80 + overhead) / 3600
        fast_hours = games * figures[1][1] / 3600
        print(
            f"  {label}: {games} games = {core_hours:.0f} core-hours if every turn takes its full"
            f" second ({core_hours / 2:.1f} h on this machine's 2 cores, {core_hours / 32:.1f} h on"
            f" 32 Dask workers); with players as quick as these, {fast_hours:.2f} core-hours"
        )


if __name__ == "__main__":
    main()
