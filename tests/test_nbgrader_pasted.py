"""A notebook nbgrader would refuse, under real ``nbgrader autograde`` with the repository's
nbgrader_config.py: a pasted copy of the locked check cell (JupyterLab copies its metadata) or a
cell whose nbgrader metadata is broken is graded as far as it can be and named in the
instructor's log, and the run goes on with the next student."""

import copy
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbgrader")
from nbgrader.api import Gradebook

pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = "01_board_graph.ipynb"
ASSIGNMENT = "graph"
BIN = str(Path(sys.executable).parent)


def cell_of(nb, grade_id):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    root = tmp_path_factory.mktemp("course")
    (root / "source" / ASSIGNMENT).mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / NOTEBOOK, root / "source" / ASSIGNMENT / NOTEBOOK)
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    env_path = f"{BIN}:/usr/bin:/bin"

    def nbgrader(*args):
        return subprocess.run(
            [sys.executable, "-m", "nbgrader", *args, f"--CourseDirectory.root={root}"],
            cwd=root, capture_output=True, text=True, env={"PATH": env_path, "HOME": str(root)},
        )  # fmt: skip

    assert nbgrader("generate_assignment", ASSIGNMENT).returncode == 0
    teacher = nbformat.read(root / "source" / ASSIGNMENT / NOTEBOOK, as_version=4)
    correct = "\n".join(
        line for line in cell_of(teacher, "neighbours").source.splitlines() if "###" not in line
    )

    def hand_in(student, change):
        nb = nbformat.read(root / "release" / ASSIGNMENT / NOTEBOOK, as_version=4)
        cell_of(nb, "neighbours").source = correct
        change(nb)
        folder = root / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / NOTEBOOK)

    def paste_the_check(nb):
        check = cell_of(nb, "check_neighbours")
        at = nb.cells.index(cell_of(nb, "neighbours")) + 1
        nb.cells.insert(at, copy.deepcopy(check))

    def break_a_cell(nb):
        cell = nb.cells[0]
        cell.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": False}

    hand_in("a-pasted-check", paste_the_check)
    hand_in("b-broken-metadata", break_a_cell)
    hand_in("c-after", lambda nb: None)
    done = nbgrader("autograde", ASSIGNMENT, "--create")
    return root, done


def score(root, student):
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
        return gradebook.find_submission(ASSIGNMENT, student).score


def test_the_run_goes_on_and_every_student_is_graded_as_far_as_can_be(course):
    root, done = course
    assert done.returncode == 0, done.stderr[-3000:]
    assert "SchemaTooOldError" not in done.stderr
    for student in ("a-pasted-check", "b-broken-metadata", "c-after"):
        assert score(root, student) == 2, student


def test_the_instructors_log_names_each_notebook_that_was_repaired(course):
    _, done = course
    assert "a-pasted-check, 01_board_graph: cell" in done.stderr
    assert "b-broken-metadata, 01_board_graph: cell 1 had nbgrader metadata" in done.stderr
    assert "c-after, 01_board_graph: cell" not in done.stderr
