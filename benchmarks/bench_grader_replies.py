"""What one hostile answer costs the grader itself: ``python benchmarks/bench_grader_replies.py``
grades notebook 01 once for each answer below, each in a fresh process, and prints that process's
CPU seconds and peak memory beside a correct answer's, with the load average (the machine is
shared).  The goal: no answer costs the grader more than 5 CPU seconds or 300 MB beyond a
correct one.  The worker's own CPU is not counted here: it is the sandbox's, under its limits.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ANSWERS = {
    "correct": "",
    "a numpy array": "import numpy as np\n_n = neighbours\n"
    "def neighbours(w, h, p):\n    return np.array(sorted(_n(w, h, p)))",
    "90,000 members of one hash": "MANY = [[1 + k * (2**61 - 1) for k in range(4)] * 22_500]\n"
    "def neighbours(w, h, p):\n    return MANY[0]",
    "90,000 big integers of one hash": "MANY = [1 + k * (2**61 - 1) for k in range(90_000)]\n"
    "def neighbours(w, h, p):\n    return MANY",
    "an 8 MB answer each call": "BIG = [str(i) for i in range(700_000)]\n"
    "def neighbours(w, h, p):\n    return BIG",
    "1,000 objects of its own each call": "class O:\n    pass\nMANY = [O() for _ in range(1000)]\n"
    "def neighbours(w, h, p):\n    return MANY",
    "nested 20 deep": "def neighbours(w, h, p):\n    x = []\n    for _ in range(20):\n"
    "        x = [x]\n    return x",
}

ONE = """
import json, resource, sys, time
sys.path.insert(0, {tests!r})
from test_grading_answers import graded
result, seconds = graded("01_board_graph.ipynb", "neighbours", "check_neighbours", {code!r})
used = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps([used.ru_utime + used.ru_stime, used.ru_maxrss / 1024, seconds,
                  result.score, (result.sentence or "")[:90]]))
"""


def main() -> None:
    load = os.getloadavg()[0]
    print(f"{'answer':36} {'CPU s':>6} {'peak MB':>8} {'wall s':>7}  score, sentence")
    base = None
    for name, code in ANSWERS.items():
        done = subprocess.run(
            [sys.executable, "-c", ONE.format(tests=str(ROOT / "tests"), code=code)],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        if done.returncode:
            print(f"{name:36} failed: {done.stderr[-300:]}")
            continue
        cpu, peak, wall, score, sentence = json.loads(done.stdout.splitlines()[-1])
        base = base or (cpu, peak)
        extra = f"(+{cpu - base[0]:.1f} s, +{peak - base[1]:.0f} MB)"
        shown = "full" if score is None else f"{score:g}"
        print(f"{name:36} {cpu:6.1f} {peak:8.0f} {wall:7.1f}  {shown}, {sentence} {extra}")
    print(
        f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end,"
        f" {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
