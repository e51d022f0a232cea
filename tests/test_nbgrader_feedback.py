"""The feedback page tells the truth: under real ``nbgrader autograde`` and ``nbgrader
generate_feedback`` with the repository's nbgrader_config.py, a student who solved notebook 01 or
11 reads no error at all, and one whose answer is wrong reads errors only on the check of that
answer: nothing from the cells the teacher wrote (the imports, the reading and question cells,
which may use what graded code cannot, as notebook 11's tournament night does)."""

import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbgrader")

pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = "01_board_graph.ipynb"
ASSIGNMENT = "week1"
#: (assignment, notebook, the solution cell's grade id) of each notebook handed in solved.
SOLVED = {
    "01": (ASSIGNMENT, NOTEBOOK, "neighbours"),
    "11": ("tournament", "11_tournament.ipynb", "tournament_player"),
}
BIN = str(Path(sys.executable).parent)
WRONG = "def neighbours(width, height, point):\n    return {point}"
#: What an error shown on the page looks like, whatever part of it nbgrader renders.
ERRORS = re.compile(r"Traceback|ModuleNotFoundError|ImportError|NameError|Error:")


def nbgrader(root: Path, *args: str) -> None:
    env = {**os.environ, "PATH": BIN + os.pathsep + os.environ.get("PATH", "")}
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args, f"--CourseDirectory.root={root}"],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]


def solution(nb, grade_id: str):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def answered(root: Path, assignment: str, notebook: str, student: str, grade_id: str, answer):
    nb = nbformat.read(root / "release" / assignment / notebook, as_version=4)
    solution(nb, grade_id).source = answer
    folder = root / "submitted" / student / assignment
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / notebook)


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """Notebooks 01 and 11 released as the course releases them, handed in solved (and 01 wrong),
    autograded, and their feedback pages made."""
    root = tmp_path_factory.mktemp("course")
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    for assignment, notebook, grade_id in SOLVED.values():
        (root / "source" / assignment).mkdir(parents=True)
        shutil.copy(ROOT / "notebooks" / notebook, root / "source" / assignment / notebook)
        nbgrader(root, "generate_assignment", assignment)
        teacher = nbformat.read(ROOT / "notebooks" / notebook, as_version=4)
        solved = "\n".join(
            line for line in solution(teacher, grade_id).source.splitlines() if "### " not in line
        )
        answered(root, assignment, notebook, "solved", grade_id, solved)
        if notebook == NOTEBOOK:
            answered(root, assignment, notebook, "wrong", grade_id, WRONG)
        nbgrader(root, "autograde", assignment, "--create")
        nbgrader(root, "generate_feedback", assignment)
    return root


def shown(root: Path, student: str, assignment: str = ASSIGNMENT, notebook: str = NOTEBOOK):
    """(grade id or "", every output's text) of each code cell of the autograded notebook that
    shows an error or a line naming one."""
    nb = nbformat.read(root / "autograded" / student / assignment / notebook, as_version=4)
    found = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        text = "\n".join(
            str(o.get("text", "")) + str(o.get("ename", "")) + str(o.get("evalue", ""))
            for o in cell.outputs
        )
        if ERRORS.search(text) or any(o.get("output_type") == "error" for o in cell.outputs):
            found.append((cell.metadata.get("nbgrader", {}).get("grade_id", ""), text))
    return found


def page(root: Path, student: str, assignment: str, notebook: str) -> str:
    path = root / "feedback" / student / assignment / notebook.replace(".ipynb", ".html")
    text = re.sub(r"<style.*?</style>|<script.*?</script>", "", path.read_text(), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


@pytest.mark.parametrize("which", SOLVED)
def test_a_student_who_solved_it_reads_no_error_on_the_feedback_page(course, which):
    assignment, notebook, _grade_id = SOLVED[which]
    assert shown(course, "solved", assignment, notebook) == []
    teacher = nbformat.read(ROOT / "notebooks" / notebook, as_version=4)
    written = "\n".join(c.source for c in teacher.cells)  # what the teacher wrote may name errors
    found = [
        m for m in ERRORS.findall(page(course, "solved", assignment, notebook)) if m not in written
    ]
    assert not found, found


def test_a_wrong_answer_shows_errors_only_on_its_check(course):
    errors = shown(course, "wrong")
    assert [gid for gid, _text in errors] == ["check_neighbours"], errors
    assert "All 305 cases agree." in page(course, "solved", ASSIGNMENT, NOTEBOOK)
