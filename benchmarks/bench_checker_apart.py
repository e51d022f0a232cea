"""What running a check in a forked child (``fanorona.exercises.apart``, as a kernel does) costs
beside running it in the process: ``python benchmarks/bench_checker_apart.py`` times notebook
01's neighbour check on its reference solution both ways and prints the medians, their
difference and the load average.
"""

import contextlib
import io
import os
import statistics
import time

from fanorona.exercises import Guard, check_neighbours
from fanorona.exercises.apart import apart
from fanorona.geometry import geometry

RUNS = 15


def neighbours(width, height, point):
    shape = geometry(width, height)
    index = shape.names.index(point)
    return {shape.names[q] for q in shape.neighbour[index] if q >= 0}


def here():
    return check_neighbours.run(neighbours, Guard())


def forked():
    return apart(lambda: check_neighbours.run(neighbours, Guard()))


def median_seconds(check) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            check()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    assert here() == forked()
    inside, apart_ = median_seconds(here), median_seconds(forked)
    print(f"check_neighbours, median of {RUNS}: in the process {inside * 1000:.0f} ms, in a forked")
    print(f"child {apart_ * 1000:.0f} ms ({(apart_ - inside) * 1000:+.0f} ms a check);")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
