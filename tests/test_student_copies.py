"""Every student copy runs top to bottom: released by nbgrader's own generate_assignment (through
``python -m fanorona.exercises``, as ``make student`` does), each copy runs in a fresh kernel

- unfilled: the only errors are at graded checker cells, each the checker's one sentence;
- with the reference solutions pasted the way the text tells the student (in 09, 10 and 10b their
  earlier functions into the "your functions so far" cell): no error at all.
"""

import re
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbgrader")
from nbclient import NotebookClient

from benchmarks.grade_class import EARLIER  # the earlier answers each notebook asks for
from fanorona.exercises import UNFINISHED
from fanorona.exercises.__main__ import WEEKS, release

pytestmark = [pytest.mark.nbgrader, pytest.mark.notebook, pytest.mark.xdist_group("student-copies")]

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
GRADED = sorted({name for _title, names in WEEKS.values() for name in names})
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"


def read(path):
    return nbformat.read(path, as_version=4)


def grade_id(cell):
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def answer(notebook, gid):
    """The teacher's solution cell as a student who solved it hands it in: the markers gone."""
    cell = next(c for c in read(NOTEBOOK_DIR / notebook).cells if grade_id(c) == gid)
    return "\n".join(line for line in cell.source.splitlines() if line.strip() not in (BEGIN, END))


def run(nb, folder):
    NotebookClient(
        nb,
        timeout=120,
        allow_errors=True,
        kernel_name="python3",
        resources={"metadata": {"path": str(folder)}},
    ).execute()
    return [
        (n, cell, output)
        for n, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "error"
    ]


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    folder = tmp_path_factory.mktemp("student")
    written = release(NOTEBOOK_DIR, folder)
    return folder, {p.name for p in written}


def test_make_student_ships_every_file_a_notebook_reads(released):
    folder, names = released
    read_in_code = {
        m
        for path in NOTEBOOK_DIR.glob("*.ipynb")
        for c in read(path).cells
        if c.cell_type == "code"
        for m in re.findall(r"""open\(\s*['"]([^'"]+)['"]""", c.source)
    }
    assert read_in_code, "the notebooks read no file: this test would check nothing"
    assert read_in_code <= names and all((folder / name).is_file() for name in read_in_code)


@pytest.mark.parametrize("name", GRADED)
def test_an_unfilled_copy_fails_only_at_its_checkers_with_their_sentence(released, name):
    folder, _ = released
    nb = read(folder / name)
    errors = run(nb, folder)
    graded = [n for n, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("grade")]
    for n, _cell, error in errors:
        assert n in graded, f"{name} cell {n} (not graded) raised {error.ename}: {error.evalue}"
        assert (error.ename, error.evalue) == (
            "ExerciseFailed",
            UNFINISHED,
        ), f"{name} cell {n}: {error.evalue}"
    if any(cell.metadata.get("nbgrader", {}).get("solution") for cell in nb.cells):
        assert errors, f"{name}: an unfinished copy passed its checkers"


@pytest.mark.parametrize("name", GRADED)
def test_a_copy_with_the_reference_solutions_pasted_runs_without_error(released, name):
    folder, _ = released
    nb = read(folder / name)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):
            if grade_id(cell) == "earlier_functions":
                cell.source = "\n\n\n".join(answer(*where) for where in EARLIER[name])
            else:
                cell.source = answer(name, grade_id(cell))
    errors = run(nb, folder)
    assert not [(n, e.ename, e.evalue) for n, _c, e in errors]
