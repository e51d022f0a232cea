"""The solved small boards and
the 9x5 endgame tables built from scratch, their files, and what a table does for the search;
then the indexed tables of 4 and 5 stones, built by compiled code, each in a process of its own
so that its peak memory is its own."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from statistics import median
from unittest import mock


@contextmanager
def empty_cache():
    """A fresh cache directory for the solver, so every table is built from scratch."""
    with (
        tempfile.TemporaryDirectory() as folder,
        mock.patch.dict(os.environ, {"FANORONA_CACHE_DIR": folder}),
    ):
        yield


def solve_bench() -> None:
    """Each small board solved from scratch, its cache file, and reading it back."""
    from fanorona.engine.solve import DRAW, LOSS, WIN, Table, solve
    from fanorona.rules import Rules

    rules = Rules.solved()
    print("small boards solved from scratch (no cache), rules of the published solution")
    print(
        f"{'board':6} {'entries':>8} {'won':>7} {'lost':>7} {'drawn':>6} {'start':>6} {'turns':>5} "
        f"{'longest':>8} {'wall s':>7} {'CPU s':>6} {'file KB':>8} {'load ms':>8}"
    )
    for size in [(3, 3), (3, 5), (5, 3)]:
        with empty_cache():
            wall, cpu = time.perf_counter(), time.process_time()
            table = solve(size, rules, progress=False)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        data = table.to_bytes()
        load = time.perf_counter()
        Table.from_bytes(data, size, rules)
        load = time.perf_counter() - load
        c = table.counts
        longest = max(max(table.distance_counts(v), default=0) for v in (WIN, LOSS))
        print(
            f"{size[0]}x{size[1]:<4} {len(table):>8} {c[WIN]:>7} {c[LOSS]:>7} {c[DRAW]:>6} "
            f"{table.start_value:>6} "
            f"{table.start_distance:>5} {longest:>8} {wall:>7.2f} {cpu:>6.2f} "
            f"{len(data) / 1000:>8.0f} "
            f"{load * 1000:>8.0f}"
        )


def endgame_bench() -> None:
    """The 9x5 tables of 2, 3 and 4 stones built from scratch (4 take about half a minute), then
    won 2-against-1 positions played out with and without the 3-stone table."""
    from fanorona.engine.endgame import DRAW, LOSS, WIN, EndgameTable

    print("9x5 endgame tables built from scratch, rules of the published solution")
    print(
        f"{'stones':>6} {'entries':>8} {'won':>7} {'lost':>7} {'drawn':>6} {'longest':>8} "
        f"{'wall s':>7} {'CPU s':>6} "
        f"{'file KB':>8} {'load s':>7}"
    )
    tables = {}
    for stones in (2, 3, 4):
        cpu = time.process_time()
        table = tables[stones] = EndgameTable.build((9, 5), stones, progress=False)
        cpu = time.process_time() - cpu
        c = table.counts
        longest = max((d for _me, _opp, value, d in table.entries() if value != DRAW), default=0)
        data = table.to_bytes()
        load = time.perf_counter()
        EndgameTable.from_bytes(data, (9, 5), stones, table.rules)
        load = time.perf_counter() - load
        print(
            f"{stones:>6} {len(table):>8} {c[WIN]:>7} {c[LOSS]:>7} {c[DRAW]:>6} {longest:>8} "
            f"{table.seconds:>7.2f} {cpu:>6.2f} {len(data) / 1000:>8.0f} {load:>7.2f}"
        )
    play_out_wins(tables[3])


def play_out_wins(table, games: int = 20) -> None:
    """Won 2-against-1 positions of at least five turns, played out by alpha-beta at depth 2 with
    and without the table against alpha-beta at depth 2: games won within the table's distance."""
    from fanorona.engine.ai import AlphaBetaPlayer
    from fanorona.engine.endgame import WIN

    starts = [
        b
        for b in table.boards(WIN)
        if len(b.stones("white")) == 2 and len(b.stones("black")) == 1 and table.distance(b) >= 5
    ][:games]
    print(f"\n{len(starts)} won 2-against-1 positions (5 turns or more), depth 2 against depth 2")
    print(f"{'player':>14} {'won in time':>12} {'median ms a turn':>17}")
    for label, endgame in (("without table", None), ("with table", table)):
        won, times = 0, []
        for start in starts:
            board, player, defender = (
                start.copy(),
                AlphaBetaPlayer(depth=2, seed=1, endgame=endgame),
                AlphaBetaPlayer(depth=2, seed=2),
            )
            for turn in range(table.distance(start)):
                mover = player if turn % 2 == 0 else defender
                started = time.perf_counter()
                board.push(mover.choose_turn(board))
                if mover is player:
                    times.append(time.perf_counter() - started)
                if board.outcome() is not None:
                    break
            won += board.outcome() is not None and board.outcome().winner == start.to_move
        print(f"{label:>14} {won:>5} of {len(starts):<4} {1000 * median(times):>17.1f}")


def indexed_bench() -> None:
    """The 9x5 indexed tables of 4 and 5 stones built from scratch, each in a new process: build
    time, the longest win, the file, loading it, the memory it holds and the build's peak."""
    print(
        "9x5 indexed endgame tables built from scratch (compiled), rules of the published solution"
    )
    print(
        f"{'stones':>6} {'positions':>11} {'won':>9} {'lost':>9} {'drawn':>8} {'longest':>8} "
        f"{'build s':>8} {'file MB':>8} {'load s':>7} {'held MB':>8} {'peak MB':>8}"
    )
    for stones in (4, 5):
        with empty_cache():
            done = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    f"from benchmarks.bench_tables import one_indexed; one_indexed({stones})",
                ],
                capture_output=True,
                text=True,
                check=True,
            )
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"{done.stdout.strip()} {peak:>8.0f}")


def one_indexed(stones: int) -> None:
    """One line of ``indexed_bench`` (its peak memory is read by the parent)."""
    import numpy as np

    from fanorona.engine import compiled
    from fanorona.engine.indexed import IndexedTable, decode
    from fanorona.engine.retrograde import DRAW, LOSS, WIN

    compiled.warm_up(progress=False)
    table = IndexedTable.build((9, 5), stones, progress=False)
    c = table.counts
    longest = max(decode(int(code))[1] or 0 for code in np.unique(table.codes))
    data = table.to_bytes()
    load = time.perf_counter()
    IndexedTable.from_bytes(data, (9, 5), stones, table.rules)
    load = time.perf_counter() - load
    print(
        f"{stones:>6} {len(table):>11,} {c[WIN]:>9,} {c[LOSS]:>9,} {c[DRAW]:>8,} {longest:>8} "
        f"{table.seconds:>8.1f} {len(data) / 1e6:>8.1f} {load:>7.2f} "
        f"{table.codes.nbytes / 1e6:>8.1f}"
    )


def main() -> None:
    solve_bench()
    print()
    endgame_bench()
    print()
    indexed_bench()


if __name__ == "__main__":
    main()
