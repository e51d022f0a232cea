"""How soon a search stops once its stop event is set: ``python -m benchmarks bench_cancel``.

A depth-40 search of the middle game (it would run for hours) is started in a thread; after a
random 0.05 to 0.3 s the event is set, and the time until ``SearchCancelled`` reaches the thread
is one sample.  The pure-Python search looks at the event every 16 nodes, the compiled one every
1,024 (where it looks at its clock).  The board's runner cancels a search this way on Undo.
"""

from __future__ import annotations

import random
import statistics
import threading
import time

TARGET_MS = 50
SAMPLES = 15


def latencies(compiled: bool, samples: int = SAMPLES) -> list[float]:
    """Seconds from setting the event to the search raising, one per sample."""
    from benchmarks.bench_search import MIDDLE_GAME
    from fanorona import Board
    from fanorona.engine.ai import AlphaBetaPlayer, SearchCancelled

    rng, found = random.Random(1), []
    player = AlphaBetaPlayer(depth=40, seed=0, compiled=compiled)
    player.prepare(Board.from_fen(MIDDLE_GAME))  # loads the compiled code outside the timings
    for _ in range(samples):
        stop, raised = threading.Event(), []

        def search(stop=stop, raised=raised):
            try:
                player.choose_turn(Board.from_fen(MIDDLE_GAME), stop=stop)
            except SearchCancelled:
                raised.append(time.perf_counter())

        thread = threading.Thread(target=search)
        thread.start()
        time.sleep(rng.uniform(0.05, 0.3))
        set_at = time.perf_counter()
        stop.set()
        thread.join()
        found.append(raised[0] - set_at)
    return found


def main() -> None:
    from fanorona.engine import compiled

    paths = [("pure Python", False)] + ([("compiled", True)] if compiled.available() else [])
    print(
        f"cancel latency: stop event set during a depth-40 search of the middle game, {SAMPLES} "
        f"samples"
    )
    print(f"{'search':<12} {'median ms':>9} {'p90 ms':>7} {'max ms':>7}")
    worst = 0.0
    for name, flag in paths:
        found = sorted(latencies(flag))
        p90 = statistics.quantiles(found, n=10)[-1]
        worst = max(worst, statistics.median(found))
        print(
            f"{name:<12} {1000 * statistics.median(found):>9.1f} {1000 * p90:>7.1f} "
            f"{1000 * found[-1]:>7.1f}"
        )
    if not compiled.available():
        print("compiled: not installed (pip install 'fanorona[fast]')")
    print(f"target median <= {TARGET_MS} ms: {'met' if worst * 1000 <= TARGET_MS else 'MISSED'}")


if __name__ == "__main__":
    main()
