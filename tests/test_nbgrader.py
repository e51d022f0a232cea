"""The course works with real nbgrader as committed: it releases the notebooks without solutions,
and autogrades a correct, a wrong, an unfinished and two tampering submissions of one exercise
notebook with the scores a teacher expects (full points, then none), with feedback whose images
carry alt text and whose tampering is named."""

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
WRONG = '''def neighbours(width, height, point):
    """Every point around, diagonals everywhere."""
    col, row = ord(point[0]) - ord("a"), int(point[1:]) - 1
    return {name(col + dc, row + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)
            if (dc, dr) != (0, 0) and 0 <= col + dc < width and 0 <= row + dr < height}'''

#: Two ways to take the points without solving, from the solution cell: nbgrader restores
#: the locked check cell, so the attempt is on the checker or on the package it compares with.
REPLACES_THE_CHECKER = """


import fanorona.exercises
fanorona.exercises.check_neighbours = lambda neighbours: print("All 1 cases agree.")"""
PATCHES_THE_PACKAGE = """


import fanorona as fa

fa.Board.outcome = lambda self: None"""

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


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A course folder with the notebook released and three students' submissions autograded."""
    root = tmp_path_factory.mktemp("course")
    source = root / "source" / ASSIGNMENT
    source.mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / NOTEBOOK, source / NOTEBOOK)
    nbgrader(root, "generate_assignment", ASSIGNMENT)
    released = nbformat.read(root / "release" / ASSIGNMENT / NOTEBOOK, as_version=4)
    teacher = nbformat.read(source / NOTEBOOK, as_version=4)
    answers = {
        "correct": without_markers(solution_cell(teacher, "neighbours").source),
        "wrong": WRONG,
        "unfinished": None,
        "replaces-the-checker": WRONG + REPLACES_THE_CHECKER,
        "patches-the-package": WRONG + PATCHES_THE_PACKAGE,
    }
    for student, answer in answers.items():
        nb = nbformat.read(root / "release" / ASSIGNMENT / NOTEBOOK, as_version=4)
        if answer is not None:
            solution_cell(nb, "neighbours").source = answer
        folder = root / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / NOTEBOOK)
    nbgrader(root, "autograde", ASSIGNMENT, "--create")
    nbgrader(root, "generate_feedback", ASSIGNMENT)
    return root, released


def test_the_release_has_no_solution_and_a_locked_graded_checker(course):
    root, released = course
    text = (root / "release" / ASSIGNMENT / NOTEBOOK).read_text()
    assert "BEGIN SOLUTION" not in text and "int(point[1:]) - 1\n    found" not in text
    assert "raise NotImplementedError()" in solution_cell(released, "neighbours").source
    checker = solution_cell(released, "check_neighbours")
    assert checker.metadata.nbgrader["points"] == 2 and checker.metadata.editable is False


@pytest.mark.parametrize(
    "student, score",
    [
        ("correct", 2),
        ("wrong", 0),
        ("unfinished", 0),
        ("replaces-the-checker", 0),
        ("patches-the-package", 0),
    ],
)
def test_autograde_gives_each_submission_its_score_and_tampering_none(course, student, score):
    root, _ = course
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
        submission = gradebook.find_submission(ASSIGNMENT, student)
        assert submission.max_score == 2
        assert submission.score == score


@pytest.mark.parametrize("student", ["replaces-the-checker", "patches-the-package"])
def test_the_feedback_of_a_tampering_submission_says_the_package_was_changed(course, student):
    root, _ = course
    html = (
        root / "feedback" / student / ASSIGNMENT / NOTEBOOK.replace(".ipynb", ".html")
    ).read_text()
    assert "The fanorona package was changed in this kernel" in html


def test_the_wrong_answer_is_explained_in_the_feedback_with_alt_text_on_its_picture(course):
    root, _ = course
    html = (
        root / "feedback" / "wrong" / ASSIGNMENT / NOTEBOOK.replace(".ipynb", ".html")
    ).read_text()
    assert (
        "Your answer:" in html
        and "ExerciseFailed" in html
        and "weak point, without diagonals" in html
    )
    images = re.findall(r"<img[^>]*>", html)
    assert images and all(
        re.search(r'alt="The neighbours: neighbours\(', img)
        for img in images
        if "image/png" in img and "neighbours" in img
    )
    assert any('alt="The neighbours: neighbours(' in img for img in images)


def test_the_unfinished_submission_gets_one_sentence_not_a_traceback(course):
    root, _ = course
    html = (
        root / "feedback" / "unfinished" / ASSIGNMENT / NOTEBOOK.replace(".ipynb", ".html")
    ).read_text()
    assert "Write the function first" in html
    assert "most recent call last" not in html and "checking.py" not in html


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
    """A class of the assignment is worth more than any short function, and an answer at least
    twice as long as another is worth more points."""
    found = exercises()
    weekly = {
        name for week, (_title, names) in WEEKS.items() if week.startswith("week") for name in names
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
    """{grade id: points} from the README's points table (rows like | week1 | ... | `check_x` 2
    ... |)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
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
