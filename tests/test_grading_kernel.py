"""Solution cells run as a kernel runs them: magics, ``display``, ``help``, ``inspect`` and the
checkers imported or reloaded in a solution cell cost a correct answer nothing, and a cell that
takes too long is named and stopped while the checks after it still run."""

import time

import pytest
from test_grading_answers import graded, solved

from fanorona.grading import grade, remote

INNOCENT = {
    "time-magic": "%time x = neighbours(3, 3, 'b2')",
    "cell-time-magic": "%%time\nx = neighbours(3, 3, 'b2')",
    "timeit": "%timeit neighbours(3, 3, 'b2')",
    "display": "display(neighbours(3, 3, 'b2'))\ndisplay(neighbours)",
    "matplotlib-widget": "%matplotlib widget\nimport matplotlib.pyplot as plt",
    "autoreload": "%load_ext autoreload\n%autoreload 2",
    "help-and-inspect": "import inspect\nhelp(neighbours)\nprint(inspect.getsource(neighbours))",
    "reload-the-checkers": "import importlib\nimport fanorona.exercises\n"
    "importlib.reload(fanorona.exercises)",
    "star-import-of-the-checkers": "from fanorona.exercises import *\n"
    "cases = check_neighbours(neighbours)",
    "shell-escape-and-help-request": "files = !ls\nneighbours?",
}


@pytest.mark.parametrize("cell", INNOCENT)
def test_innocent_kernel_code_in_a_solution_cell_costs_nothing(cell):
    result, _ = graded("01_board_graph.ipynb", "neighbours", "check_neighbours", INNOCENT[cell])
    assert result.score is None and "All 305 cases agree." in result.text, result


def test_reaching_for_a_checkers_reference_through_the_stand_in_scores_nothing_and_says_so():
    reach = (
        "def neighbours(width, height, point):\n    return set()\n"
        "from fanorona.exercises import check_neighbours\n"
        "neighbours = check_neighbours.reference"
    )
    result, _ = graded("01_board_graph.ipynb", "neighbours", "check_neighbours", reach)
    assert result.score == 0
    said = " ".join(result.text.split())  # as the page shows it, wrapped
    assert "check_neighbours.reference) that is not there while grading" in said


def test_a_long_cell_is_stopped_and_named_and_the_checks_after_it_still_score(monkeypatch):
    monkeypatch.setattr(remote, "CELL_LIMIT", 2.0)
    monkeypatch.setattr(grade, "CELL_LIMIT", 2.0)
    nb = solved("01_board_graph.ipynb", "neighbours", "import time\ntime.sleep(40)")
    started = time.monotonic()
    result = grade.grade_notebook(nb)["check_neighbours"]
    assert result.score is None and "All 305 cases agree." in result.text, result
    assert time.monotonic() - started < 30
    code = [c for c in nb.cells if c.cell_type == "code"]
    stopped = next(n for n, c in enumerate(code, 1) if "time.sleep(40)" in c.source)
    said = "".join(o.get("text", "") for o in code[stopped - 1].outputs)
    assert f"Code cell {stopped} of your notebook ran longer than 2 s" in said


def test_the_teachers_question_cells_run_against_the_stand_in_without_an_error():
    """The notebook's own question cells import the checkers' questions: graded, they show no
    error a student did not cause."""
    nb = solved("01_board_graph.ipynb", "neighbours")
    asks = [c for c in nb.cells if c.cell_type == "code" and "questions." in c.source]
    assert asks, "notebook 01 asks its questions through fanorona.exercises"
    result = grade.grade_notebook(nb)["check_neighbours"]
    assert result.score is None
    shown = [o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [text for text in shown if "Error" in text], shown
