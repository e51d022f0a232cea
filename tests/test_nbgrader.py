"""The course works with real nbgrader as committed: it releases the notebooks without solutions,
and ``nbgrader autograde`` with the repository's nbgrader_config.py takes its points from the
sandboxed grader: full points for a correct submission, a share for a partly right one, none for
a wrong or unfinished one, and none for each way a student tried to take the points without
solving, with a sentence naming what was refused.  One course folder serves every test."""

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

pytestmark = [pytest.mark.nbgrader, pytest.mark.xdist_group("nbgrader-course")]

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = "01_board_graph.ipynb"
ASSIGNMENT = "graph"
PACKAGE_FILE = ROOT / "fanorona" / "exercises" / "model.py"
WRONG = '''def neighbours(width, height, point):
    """Every point around, diagonals everywhere."""
    col, row = ord(point[0]) - ord("a"), int(point[1:]) - 1
    return {name(col + dc, row + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)
            if (dc, dr) != (0, 0) and 0 <= col + dc < width and 0 <= row + dr < height}'''
#: No answer at all: it agrees with the rules on no case, so only a way around the grader could
#: give it points.
NOTHING = """def neighbours(width, height, point):
    return set()"""

#: The ways around an in-kernel grader, each written as a student would, after NOTHING in the
#: solution cell; (the code, a sentence the feedback must hold).
#: What a route that changes nothing the grade depends on gets: the grade of its answer.
APART = "0 of 305 cases agree: 0 of 2 points"
ROUTES = {
    "patches-counter-eq": (
        "import collections\ncollections.Counter.__eq__ = lambda self, other: True\n"
        "collections.Counter.__ne__ = lambda self, other: False",
        APART,
    ),
    "turns-the-seal-off": (
        "import fanorona.exercises.seal as seal\nseal.Seal.verify = lambda self: []\n"
        "import fanorona.exercises as ex\nex.check_neighbours.reference = neighbours",
        APART,
    ),
    "clears-the-seal-records-through-gc": (
        "import gc\nfor o in gc.get_objects():\n"
        "    if type(o).__name__ == 'Seal':\n        o.entries.clear(); o.codes.clear()\n"
        "import fanorona.exercises.model as m\nm.check_neighbours.reference = neighbours",
        APART,
    ),
    "plants-a-fake-checker-module": (
        "import sys, types\nfake = types.ModuleType('fanorona.exercises')\n"
        "fake.check_neighbours = lambda fn: print('All 305 cases agree.')\n"
        "sys.modules['fanorona.exercises'] = fake",
        APART,
    ),
    "reads-the-expected-answer-from-frames": (
        "import sys\ndef neighbours(width, height, point):\n    frame = sys._getframe(1)\n"
        "    while frame is not None:\n        if 'expected' in frame.f_locals:\n"
        "            return frame.f_locals['expected']\n        frame = frame.f_back\n"
        "    return set()",
        APART,
    ),
    "empties-the-checkers-data": (
        "import fanorona.exercises.model as m\nm.NEIGHBOUR_SIZES = ()",
        APART,
    ),
    "calls-the-reference": (
        "from fanorona.exercises import check_neighbours\nneighbours = check_neighbours.reference",
        "that is not there while grading",
    ),
    "patches-the-timers-and-sleeps": (
        "import signal, time\nsignal.setitimer = lambda *args: (0.0, 0.0)\n"
        "time.perf_counter = lambda: 0.0\nslow = neighbours\n"
        "def neighbours(width, height, point):\n    time.sleep(12)\n"
        "    return slow(width, height, point)",
        "the time limit for one call",
    ),
    "raises-the-call-limit": (
        "import fanorona.exercises.guard as guard\nguard.CALL_LIMIT = 10**6",
        APART,
    ),
    "edits-the-package-on-disk": (
        f"with open({str(PACKAGE_FILE)!r}, 'a') as f:\n    f.write('\\nNEIGHBOUR_SIZES = ()\\n')",
        "read-only",
    ),
}
#: Graded in this order, one autograde each, after the routes: the package on disk must still be
#: the one recorded, and these two must get what they earn.
AFTER = {"correct": None, "wrong": WRONG}

BIN = str(Path(sys.executable).parent)


@pytest.fixture(scope="module", autouse=True)
def alembic_on_the_path():
    """nbgrader's gradebook runs the ``alembic`` command, installed next to this Python."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PATH", BIN + os.pathsep + os.environ.get("PATH", ""))
        yield


def nbgrader(root, *args):
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args, f"--CourseDirectory.root={root}"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def solution_cell(nb, grade_id):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def without_markers(source):
    """The teacher's solution as a student who solved it would hand it in."""
    return "\n".join(
        line
        for line in source.splitlines()
        if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")
    )


def hand_in(root, student, answer):
    nb = nbformat.read(root / "release" / ASSIGNMENT / NOTEBOOK, as_version=4)
    if answer is not None:
        solution_cell(nb, "neighbours").source = answer
    folder = root / "submitted" / student / ASSIGNMENT
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / NOTEBOOK)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A course folder with the repository's nbgrader_config.py, the notebook released, and every
    submission autograded: the routes and the unfinished one together, then a correct and a wrong
    one, each on its own, after the one that tried to edit the package on disk."""
    root = tmp_path_factory.mktemp("course")
    source = root / "source" / ASSIGNMENT
    source.mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / NOTEBOOK, source / NOTEBOOK)
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    nbgrader(root, "generate_assignment", ASSIGNMENT)
    released = nbformat.read(root / "release" / ASSIGNMENT / NOTEBOOK, as_version=4)
    teacher = nbformat.read(source / NOTEBOOK, as_version=4)
    correct = without_markers(solution_cell(teacher, "neighbours").source)
    before = PACKAGE_FILE.read_bytes()
    for student, (code, _sentence) in ROUTES.items():
        base = correct if student == "patches-the-timers-and-sleeps" else NOTHING
        hand_in(root, student, base + "\n\n\n" + code)
    hand_in(root, "unfinished", None)
    hand_in(
        root,
        "partly-right",
        correct.replace("if dc and dr and not is_strong(col, row):", "if dc and dr and col == 0:"),
    )
    nbgrader(root, "autograde", ASSIGNMENT, "--create")
    for student, answer in AFTER.items():
        hand_in(root, student, correct if answer is None else answer)
        nbgrader(root, "autograde", ASSIGNMENT, "--create", f"--student={student}")
    assert PACKAGE_FILE.read_bytes() == before, "a submission changed the package on disk"
    nbgrader(root, "generate_feedback", ASSIGNMENT, "--student=wrong")
    return root, released


def test_the_release_has_no_solution_and_a_locked_graded_checker(course):
    root, released = course
    text = (root / "release" / ASSIGNMENT / NOTEBOOK).read_text()
    assert "BEGIN SOLUTION" not in text and "int(point[1:]) - 1\n    found" not in text
    assert "raise NotImplementedError()" in solution_cell(released, "neighbours").source
    checker = solution_cell(released, "check_neighbours")
    assert checker.metadata.nbgrader["points"] == 2 and checker.metadata.editable is False


def score(root, student):
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
        submission = gradebook.find_submission(ASSIGNMENT, student)
        assert submission.max_score == 2
        return submission.score


def check_output(root, student) -> str:
    """Everything the graded check cell of the student's autograded notebook shows."""
    nb = nbformat.read(root / "autograded" / student / ASSIGNMENT / NOTEBOOK, as_version=4)
    cell = solution_cell(nb, "check_neighbours")
    return "\n".join(
        o.get("text", "") + o.get("evalue", "") + str(o.get("data", {}).get("text/plain", ""))
        for o in cell.outputs
    )


@pytest.mark.parametrize("student", ROUTES)
def test_each_way_around_the_grader_scores_nothing_and_says_what_was_refused(course, student):
    root, _ = course
    assert score(root, student) == 0
    said = " ".join(check_output(root, student).split())
    # a route that reaches code by a computed name may be refused before it runs, by the check
    # that the exercise, not the kit, gets the points (exercises.own_work)
    assert ROUTES[student][1] in said or re.search(r"Your code \(.*\) uses \S+:", said), said


def share(root, student) -> float:
    """The points the check cell's own sentence gives: its share of the cases that agree."""
    agreed, total = map(
        int, re.search(r"(\d+)\s+of\s+(\d+)\s+cases\s+agree", check_output(root, student)).groups()
    )
    assert 0 < agreed < total
    return int(200 * agreed / total) / 100


def test_graded_after_a_package_edit_each_gets_what_it_earns(course):
    root, _ = course
    assert score(root, "correct") == 2 and "All 305 cases agree." in check_output(root, "correct")
    assert score(root, "wrong") == pytest.approx(share(root, "wrong"))
    assert score(root, "wrong") < 1.5
    assert score(root, "unfinished") == 0


def test_a_partly_right_answer_gets_the_share_of_cases_that_agree(course):
    root, _ = course
    assert score(root, "partly-right") == pytest.approx(share(root, "partly-right"))
    assert 0 < score(root, "partly-right") < 2


def test_the_wrong_answer_is_explained_in_the_feedback(course):
    root, _ = course
    html = (
        root / "feedback" / "wrong" / ASSIGNMENT / NOTEBOOK.replace(".ipynb", ".html")
    ).read_text()
    html = " ".join(html.split())  # the partial-credit line is wrapped to fit the page
    assert "Your answer:" in html and "cases agree" in html
    assert "weak point, without diagonals" in html


def test_the_unfinished_submission_gets_one_sentence_not_a_traceback(course):
    root, _ = course
    shown = check_output(root, "unfinished")
    assert "Write the function first" in shown
    assert "most recent call last" not in shown and "checking.py" not in shown


# -- the course week by week
# ------------------------------------------------------------------------

from fanorona.exercises.__main__ import WEEKS  # noqa: E402
from fanorona.exercises.__main__ import course as build_course  # noqa: E402


def graded_cells(path):
    return [
        c
        for c in nbformat.read(path, as_version=4).cells
        if c.metadata.get("nbgrader", {}).get("grade")
    ]


def test_every_notebook_with_an_exercise_is_in_exactly_one_week_and_no_reading_is_graded():
    weeks_of = {}
    for week, (_title, names) in WEEKS.items():
        for name in names:
            weeks_of.setdefault(name, []).append(week)
    with_exercises = {p.name for p in (ROOT / "notebooks").glob("*.ipynb") if graded_cells(p)}
    assert with_exercises == set(weeks_of), (
        "a notebook without points costs grading time; one with points needs a week"
    )
    assert all(len(weeks) == 1 for weeks in weeks_of.values())


def exercises():
    """(points, is a class, lines of the solution) for each checker cell, with the solution cell
    before it."""
    found = []
    for path in (ROOT / "notebooks").glob("*.ipynb"):
        solution = None
        for cell in nbformat.read(path, as_version=4).cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("solution"):
                solution = cell.source
            elif meta.get("grade") and solution is not None:
                found.append(
                    (
                        meta["points"],
                        solution.lstrip().startswith("class "),
                        len(without_markers(solution).splitlines()),
                        f"{path.name} {meta['grade_id']}",
                    )
                )
    return found


def test_points_are_weighted_by_work():
    """A class of the assignment (the weeks and its extensions) is worth more than any short
    function, and an answer at least twice as long as another is worth more points."""
    found = exercises()
    weekly = {
        name
        for week, (_title, names) in WEEKS.items()
        if week.startswith("week") or week == "extensions"
        for name in names
    }
    classes = [
        points
        for points, is_class, _lines, where in found
        if is_class and where.split()[0] in weekly
    ]
    short = [points for points, is_class, lines, _where in found if not is_class and lines <= 12]
    assert len(classes) >= 3 and short
    assert min(classes) > max(short), sorted(found)
    for points, _c, lines, where in found:
        for fewer, _c2, shorter, other in found:
            assert lines < 2 * shorter or points > fewer, (
                f"{where} ({lines} lines) against {other} ({shorter} lines)"
            )


def readme_points():
    """{grade id: points} from the course guide's points table (rows like | week1 | ... |
    `check_x` 2 ... |)."""
    text = (ROOT / "docs" / "how-to" / "run-the-course.md").read_text(encoding="utf-8")
    return {gid: int(points) for gid, points in re.findall(r"`(check_\w+)` (\d+)", text)}


def test_the_readme_points_table_is_the_notebooks_points():
    from_notebooks = {
        c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"]["points"]
        for p in (ROOT / "notebooks").glob("*.ipynb")
        for c in graded_cells(p)
    }
    assert readme_points() == from_notebooks


def test_the_course_folder_releases_every_week_with_its_files_and_the_time_limit(tmp_path):
    build_course(ROOT / "notebooks", tmp_path, ROOT / "nbgrader_config.py")
    for week, (_title, names) in WEEKS.items():
        nbgrader(tmp_path, "generate_assignment", week, "--no-db")
        released = {p.name for p in (tmp_path / "release" / week).iterdir()}
        assert set(names) <= released
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(tmp_path)).load_config()
    assert config.Execute.timeout > 30, "nbgrader's own 30 s limit failed correct solutions"
