"""The limits the grader enforces are said where students read them: the first cell of every
graded notebook states the per-cell time limit, the per-call and per-check limits, the notebook's
budget and its memory in one sentence whose numbers are the grader's own constants, so the two
cannot drift apart; the reference page says them too."""

from pathlib import Path

import nbformat
import pytest

from fanorona.exercises.__main__ import WEEKS
from fanorona.exercises.guard import CALL_LIMIT, CHECK_LIMIT
from fanorona.exercises.view import VIEW_CALL_LIMIT
from fanorona.grading.budget import Budget
from fanorona.grading.remote import CELL_LIMIT, WORKER_LIMITS

ROOT = Path(__file__).resolve().parent.parent
GRADED = sorted({name for _title, names in WEEKS.values() for name in names})


def limits_sentence(drawing: bool) -> str:
    """The sentence as the code's constants make it (``drawing``: the notebook checks a
    drawing, whose calls have a limit of their own)."""
    budget = Budget()
    draw = f" ({VIEW_CALL_LIMIT:g} s to draw a board)" if drawing else ""
    return (
        f"**Limits when graded.** The grader runs your cells apart from your kernel: a cell may"
        f" run at most {CELL_LIMIT:g} s, a call of your function {CALL_LIMIT:g} s{draw} and a"
        f" check {CHECK_LIMIT:g} s; the whole notebook gets {budget.wall:g} s of wall-clock time,"
        f" {budget.cpu:g} s of CPU time and {WORKER_LIMITS.memory / 2**30:g} GiB of memory."
    )


@pytest.mark.parametrize("name", GRADED)
def test_the_first_cell_of_each_graded_notebook_says_the_limits_the_grader_enforces(name):
    nb = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    first = nb.cells[0]
    drawing = any("check_view(" in c.source for c in nb.cells if c.cell_type == "code")
    assert first.cell_type == "markdown" and "nbgrader" not in first.metadata
    text = " ".join(first.source.split())
    assert limits_sentence(drawing) in text, (
        f"its first cell should end: {limits_sentence(drawing)}"
    )


def test_the_reference_page_says_the_same_limits():
    text = " ".join((ROOT / "docs" / "reference" / "grader.md").read_text().split())
    assert limits_sentence(True) in text
