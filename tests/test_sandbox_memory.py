"""Memory limited for a sandboxed run's whole process tree, not per process: hostile code that
forks children each touching a share of memory, stopped with the memory sentence before all of
them together pass the limit by more than ``MARGIN``.  The children say themselves how much they
had touched, so the figure does not come from the watcher being tested."""

import os
import sys
import textwrap
import time
from pathlib import Path

import nbformat
import pytest

from fanorona.sandbox import Limits, Sandbox
from fanorona.sandbox import command as iso
from fanorona.sandbox.process import MEMORY_MARGIN

MB = 2**20
NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
BOTH = pytest.mark.parametrize(
    "namespaces",
    [
        pytest.param(
            True,
            marks=pytest.mark.skipif(not iso.bubblewrap_works(), reason="no namespaces here"),
        ),
        pytest.param(
            False,
            marks=pytest.mark.skipif(os.geteuid() != 0, reason="without namespaces, as root only"),
        ),
    ],
    ids=["bubblewrap", "rlimits"],
)
#: Each child touches ``share`` MB in steps of ``STEP`` MB, each in C, and says so after each step,
#: unbuffered.
HOARD = """
import os, sys, time
share, children = int(sys.argv[1]), int(sys.argv[2])
orphans = sys.argv[3] == "orphans"
for number in range(children):
    if os.fork() == 0:
        if orphans and os.fork() != 0:  # the hoarder's parent leaves: it is nobody's child
            os._exit(0)
        hoard = []
        for mb in range(0, share, {step}):
            hoard.append(bytearray({step} * 2**20))  # filled with zeros in C: as fast as it gets
            os.write(2, f"{{number}} {{mb + {step}}}\\n".encode())
        time.sleep(60)
        os._exit(0)
time.sleep(60)
"""
STEP = 8


def touched(stderr: bytes) -> int:
    """MB the children had touched together when the last of their lines was written."""
    last: dict[str, int] = {}
    for line in stderr.decode(errors="replace").splitlines():
        words = line.split()
        if len(words) == 2 and words[0].isdigit() and words[1].isdigit():
            last[words[0]] = int(words[1])
    return sum(last.values())


@BOTH
@pytest.mark.parametrize(
    "children,share,how",
    [(4, 1024, "children"), (8, 512, "children"), (4, 1024, "orphans")],
    ids=["4-children", "8-children", "4-orphans"],
)
def test_children_each_under_the_limit_are_stopped_together_within_the_margin(
    namespaces, children, share, how
):
    limit = 2048 * MB
    limits = Limits(wall=60, cpu=60, memory=limit, processes=16)
    code = textwrap.dedent(HOARD.format(step=STEP))
    sandbox = Sandbox(limits, namespaces=namespaces, allow_weak=True)
    done = sandbox.run([sys.executable, "-c", code, str(share), str(children), how])
    assert done.stopped == "memory", done
    assert done.sentence == "it ran out of memory (the limit is 2048 MB for all its processes)"
    most = touched(done.stderr)
    assert most * MB <= limit + MEMORY_MARGIN, f"{most} MB touched against a limit of 2048 MB"
    assert most * MB > limit / 2, f"only {most} MB touched: the hoard did not run"
    assert done.wall_seconds < 30


FORKS = """import os, time
for _ in range(4):
    if os.fork() == 0:
        hoard = bytearray(2**30)
        time.sleep(600)
        os._exit(0)
time.sleep(600)"""


def test_a_cell_whose_children_hold_more_than_the_workers_limit_is_stopped_and_named():
    """A student's cell forking four children of 1 GB each, against the worker's 2 GiB: the cell
    is stopped with the memory sentence on its output, and the check after it runs in a new
    worker with full points."""
    from fanorona.grading.grade import Notebook, grade_notebook
    from fanorona.grading.remote import WORKER_LIMITS

    assert WORKER_LIMITS.memory == 2048 * MB and WORKER_LIMITS.processes <= 16
    nb = nbformat.read(NOTEBOOKS / "01_board_graph.ipynb", as_version=4)
    at = next(n for n, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("solution"))
    nb.cells[at].source = "\n".join(
        line for line in nb.cells[at].source.splitlines() if "### " not in line
    )
    nb.cells.insert(at + 1, nbformat.v4.new_code_cell(FORKS))
    state = Notebook()
    started = time.monotonic()
    result = grade_notebook(nb, state)["check_neighbours"]
    assert time.monotonic() - started < 60
    assert result.score is None, result
    shown = "".join(o.get("text", "") for o in nb.cells[at + 1].outputs)
    assert "it ran out of memory (the limit is 2048 MB for all its processes)" in shown, shown


def test_the_isolation_line_says_how_memory_is_limited():
    for namespaces in (True, False):
        assert "memory of its whole process tree summed from /proc" in iso.isolation(namespaces)
