"""Budgets of grading time counted from outside the worker: a notebook's, and a student's across
all their notebooks in one run.  A student who reaches theirs keeps the points of the checks done
and reads one sentence; the next student starts on time."""

import gc
import time
from pathlib import Path

import nbformat
import pytest

from fanorona.grading import budget
from fanorona.grading.budget import Allowance, Budget, for_student
from fanorona.grading.grade import Notebook, grade_notebook

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
STALLS = {
    budget.STUDENT_WALL: "import time\ntime.sleep(120)  # an experiment left running",
    budget.STUDENT_CPU: "while True:  # an experiment left running\n    pass",
}
#: Seconds the student's budget allows in these tests, and how far past it grading may end.
ALLOWED, MARGIN = 14.0, 6.0


def solved(notebook: str, extra: str = ""):
    """The teacher's notebook with its solutions as a student hands them in, ``extra`` a cell of
    the student's own at its end."""
    nb = nbformat.read(NOTEBOOKS / notebook, as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source = "\n".join(line for line in cell.source.splitlines() if "### " not in line)
    if extra:
        nb.cells.append(nbformat.v4.new_code_cell(extra))
    return nb


class Run:
    """Stands for nbgrader's exporter: an object as long-lived as one autograde run."""


def timed(nb, state):
    started = time.monotonic()
    results = grade_notebook(nb, state)
    return results, time.monotonic() - started


def test_a_worker_started_again_counts_the_cpu_the_ones_before_it_used():
    state = Notebook(budget=Budget(wall=100, cpu=40, student=Allowance(wall=100, cpu=40)))
    state.run("total = sum(i * i for i in range(2 * 10**7))")
    state.close()  # as after a check that stopped the worker
    first = state.cpu
    state.run("total")
    assert first > 0.3 and state.budget.left()[1] <= 40 - first, "the first worker was forgotten"
    state.close()


@pytest.mark.parametrize("variable", STALLS, ids=["wall", "cpu"])
def test_a_student_at_their_budget_keeps_the_checks_done_and_the_next_starts_on_time(
    variable, monkeypatch
):
    monkeypatch.setenv(variable, str(ALLOWED))
    run = Run()
    first, seconds = timed(solved("01_board_graph.ipynb", STALLS[variable]), for_state(run, "a"))
    assert first["check_neighbours"].score is None, "the check done before keeps its points"
    assert seconds < ALLOWED + MARGIN, f"the stalled cell ran {seconds:.0f} s"
    later, seconds = timed(solved("02_strings.ipynb"), for_state(run, "a"))
    result = later["check_strings_through"]
    assert result.score == 0 and result.refused and seconds < 3, (result, seconds)
    assert result.sentence.startswith("Grading your notebooks reached your budget for this run")
    assert f"{ALLOWED:g} s" in result.sentence
    assert result.sentence.count(".") == 1, "one sentence"
    nextone, seconds = timed(solved("02_strings.ipynb"), for_state(run, "b"))
    assert nextone["check_strings_through"].score is None, "the next student has their own"


def for_state(run, student):
    return Notebook(budget=for_student(run, student))


def test_a_new_run_gives_each_student_their_allowance_again(monkeypatch):
    monkeypatch.setenv(budget.STUDENT_CPU, "30")
    run = Run()
    spent = for_student(run, "a")
    spent.spend(31)
    spent.end()
    assert min(for_student(run, "a").left()) < 0 and min(for_student(run, "b").left()) > 0
    del run, spent
    gc.collect()
    fresh = for_student(Run(), "a")
    gc.collect()
    assert min(fresh.left()) > 0 and not budget._RUNS, "an ended run's allowances are dropped"


@pytest.mark.parametrize("text", ["ten", "-5", "0", "nan", "inf", "1e999"])
def test_a_budget_that_is_not_a_positive_number_of_seconds_is_refused_in_one_sentence(
    text, monkeypatch
):
    monkeypatch.setenv(budget.NOTEBOOK_WALL, text)
    with pytest.raises(ValueError, match=f"^{budget.NOTEBOOK_WALL} must be a positive number"):
        Budget()


def test_a_search_in_a_notebook_cell_is_not_compiled_again_for_every_worker():
    """numba's cache is out of the worker's reach, so the compiled search would be compiled anew
    in every worker (about 15 CPU seconds for notebook 07's depth-4 search); the worker runs the
    same search in Python."""
    from fanorona.grading.remote import Session

    with Session() as session:
        error = session.run(
            "import fanorona as fa\nfrom fanorona.engine import ai, compiled\n"
            "assert not compiled.available()\n"
            "player = ai.AlphaBetaPlayer(depth=4, seed=0)\n"
            "turn = player.choose_turn(fa.Board())\n"
            "assert player.last_search.depth == 4 and turn in fa.Board().legal_turns()"
        )
        assert error is None, error
