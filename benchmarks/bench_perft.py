"""perft from the 9x5 start: ours, the generator it replaced (``benchmarks.baseline``), the compiled
search and fanorona-aec, timed in the same run: ``python -m benchmarks bench_perft``."""

from __future__ import annotations

import sys

from benchmarks.aec import AEC_START, aec_perft
from benchmarks.common import median_time, ms

PERFT_EXPECTED = {1: 5, 2: 39, 3: 724, 4: 18026, 5: 431852}
RUNS = {1: 9, 2: 9, 3: 5, 4: 3, 5: 1}  # timing runs per depth (the median is reported)
AEC_RUNS = {1: 5, 2: 3, 3: 1}  # fanorona-aec is slow: perft(3) once
TARGET_PERFT5_SECONDS = 5.0
TARGET_SPEEDUP = 100
TARGET_OVER_BASELINE = 3  # perft(5) through fa.perft against the generator it replaced (baseline)


def perft_section() -> None:
    """perft from the 9x5 start: ours and the generator it replaced at depths 1-5, fanorona-aec at
    1-3, timed in the same run."""
    from tqdm import tqdm

    from benchmarks import baseline
    from fanorona.board import Board, perft
    from fanorona.movegen import bitsets

    counters = {
        "ours": lambda d: perft(Board(), d),
        "baseline": lambda d: baseline.perft(Board(), d),
        "aec": lambda d: aec_perft(AEC_START, d),
    }
    twin = compiled_twin(Board())
    if twin is not None:
        me, opp = bitsets(Board())
        counters["compiled"] = lambda d: twin.perft(me, opp, d)
    ours = [who for who in ("ours", "baseline", "compiled") if who in counters]
    jobs = [(who, d) for d in PERFT_EXPECTED for who in ours] + [("aec", d) for d in AEC_RUNS]
    times: dict = {}
    for who, depth in tqdm(jobs, desc="perft", leave=False, file=sys.stderr):
        count, *seconds = median_time(
            lambda who=who, depth=depth: counters[who](depth),
            (AEC_RUNS if who == "aec" else RUNS)[depth],
        )
        if count != PERFT_EXPECTED[depth]:
            raise AssertionError(
                f"{who} perft({depth}) = {count}, expected {PERFT_EXPECTED[depth]}"
            )
        times[who, depth] = seconds
    print_perft_table(times)


def print_perft_table(times: dict) -> None:
    """One row per depth; the ratio and speed-up compare CPU times taken in the same run."""
    print("perft from the 9x5 start, standard rules: median milliseconds, wall clock and CPU;")
    print("'before' is the generator movegen replaced (benchmarks.baseline), timed in this run")
    print("'compiled' is the numba twin of fanorona.engine.compiled ('-' when it is not installed)")
    print(
        f"{'depth':>5} {'turns':>8} {'ours wall':>10} {'ours CPU':>10} {'before CPU':>10} "
        f"{'gain':>6}"
        f" {'compiled CPU':>12} {'gain':>6} {'aec wall':>10} {'aec CPU':>10} {'speed-up':>9}"
    )
    for depth, count in PERFT_EXPECTED.items():
        (wall, cpu), before, theirs = (
            times["ours", depth],
            times["baseline", depth],
            times.get(("aec", depth)),
        )
        row = (
            f"{depth:>5} {count:>8} {ms(wall):>10} {ms(cpu):>10} {ms(before[1]):>10} "
            f"{before[1] / cpu:>5.1f}x"
        )
        fast = times.get(("compiled", depth))
        row += (
            f" {ms(fast[1]):>12} {cpu / max(fast[1], 1e-9):>5.0f}x"
            if fast
            else f" {'-':>12} {'':>6}"
        )
        if theirs is not None:
            row += f" {ms(theirs[0]):>10} {ms(theirs[1]):>10} {theirs[1] / cpu:>8.0f}x"
        print(row)
    perft5_wall, perft5_cpu = times["ours", 5]
    gain = times["baseline", 5][1] / perft5_cpu
    speedup = times["aec", 3][1] / times["ours", 3][1]
    print(
        f"target perft(5) >= {TARGET_OVER_BASELINE}x faster than before: {gain:.1f}x: "
        f"{'met' if gain >= TARGET_OVER_BASELINE else 'MISSED'}"
    )
    print(
        f"target perft(5) < {TARGET_PERFT5_SECONDS:g} s: {perft5_wall:.2f} s wall, "
        f"{perft5_cpu:.2f} s CPU: "
        f"{'met' if perft5_cpu < TARGET_PERFT5_SECONDS else 'MISSED'}"
    )
    print(
        f"target >= {TARGET_SPEEDUP}x faster than fanorona-aec at perft(3): {speedup:.0f}x: "
        f"{'met' if speedup >= TARGET_SPEEDUP else 'MISSED'}"
    )


def compiled_twin(board):
    """The compiled generator for a board, or None (numba not installed, or switched off)."""
    from fanorona.engine import compiled
    from fanorona.movegen import generator

    return compiled.compiled_generator(generator(board.geometry, board.rules))


def main() -> None:
    perft_section()


if __name__ == "__main__":
    main()
