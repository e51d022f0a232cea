"""A student's budget under real ``nbgrader autograde`` with the repository's nbgrader_config.py:
the student whose cell never ends keeps the points of the checks done before, reads one sentence
on each check after, across both notebooks of the assignment, and the next student is graded in
full on time."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbgrader")
from nbgrader.api import Gradebook

from fanorona.grading.budget import STUDENT_WALL
from fanorona.grading.preprocessor import STUDENT_WALL as WALL_LINE

pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
ASSIGNMENT = "week1"
NOTEBOOKS = ["01_board_graph.ipynb", "02_strings.ipynb"]
BIN = str(Path(sys.executable).parent)
ALLOWED, MARGIN = 20, 8
STALL = "import time\ntime.sleep(600)  # an experiment left running"


def hand_in(root: Path, student: str, stall: bool) -> None:
    folder = root / "submitted" / student / ASSIGNMENT
    folder.mkdir(parents=True)
    for name in NOTEBOOKS:
        teacher = nbformat.read(root / "source" / ASSIGNMENT / name, as_version=4)
        nb = nbformat.read(root / "release" / ASSIGNMENT / name, as_version=4)
        answers = {
            c.metadata.nbgrader["grade_id"]: c.source
            for c in teacher.cells
            if c.metadata.get("nbgrader", {}).get("solution")
        }
        for cell in nb.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id in answers:
                lines = answers[grade_id].splitlines()
                cell.source = "\n".join(line for line in lines if "### " not in line)
        if stall and name == NOTEBOOKS[0]:
            nb.cells.append(nbformat.v4.new_code_cell(STALL))
        nbformat.write(nb, folder / name)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("course")
    (root / "source" / ASSIGNMENT).mkdir(parents=True)
    for name in NOTEBOOKS:
        shutil.copy(ROOT / "notebooks" / name, root / "source" / ASSIGNMENT / name)
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}", STUDENT_WALL: str(ALLOWED)}

    def nbgrader(*args):
        done = subprocess.run(
            [sys.executable, "-m", "nbgrader", *args, f"--CourseDirectory.root={root}"],
            cwd=root, capture_output=True, text=True, env=env,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        return done

    nbgrader("generate_assignment", ASSIGNMENT)
    hand_in(root, "a-stalls", stall=True)
    hand_in(root, "b-correct", stall=False)
    return root, nbgrader("autograde", ASSIGNMENT, "--create").stderr


def score(root: Path, student: str) -> float:
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
        return gradebook.find_submission(ASSIGNMENT, student).score


def seconds(log: str, student: str) -> float:
    found = re.findall(re.escape(WALL_LINE) + rf" {re.escape(student)} \S+: ([0-9.]+)", log)
    assert len(found) == len(NOTEBOOKS), log[-3000:]
    return sum(map(float, found))


def test_the_stalled_student_keeps_the_check_done_and_stops_within_the_budget(graded):
    root, log = graded
    assert score(root, "a-stalls") == 2, "check_neighbours, done before the stalled cell"
    assert seconds(log, "a-stalls") < ALLOWED + MARGIN
    nb = nbformat.read(root / "autograded" / "a-stalls" / ASSIGNMENT / NOTEBOOKS[1], as_version=4)
    shown = [
        o.get("evalue", "")
        for c in nb.cells
        if c.metadata.get("nbgrader", {}).get("grade")
        for o in c.outputs
        if o.get("output_type") == "error"
    ]
    assert shown and all(
        s.startswith("Grading your notebooks reached your budget for this run") for s in shown
    ), shown


def test_the_next_student_is_graded_in_full(graded):
    root, log = graded
    assert score(root, "b-correct") == 5
    assert seconds(log, "b-correct") < ALLOWED
