"""What the benchmark scripts share: a median timing and a readable number of milliseconds."""

from __future__ import annotations

import statistics
import time


def median_time(function, runs: int) -> tuple[object, float, float]:
    """The result of ``function()`` and the medians of ``runs`` timings: wall clock and CPU seconds.

    CPU time is the fairer figure on a shared machine; wall time is what a user waits.
    """
    walls, cpus, result = [], [], None
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        result = function()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return result, statistics.median(walls), statistics.median(cpus)


def ms(seconds: float) -> str:
    """Milliseconds with about three significant figures."""
    value = seconds * 1000
    return f"{value:.3f}" if value < 10 else f"{value:.1f}" if value < 1000 else f"{value:.0f}"
