"""Isolation that fails safe, under real ``nbgrader autograde`` with the repository's
nbgrader_config.py and no bubblewrap on PATH: the grader refuses to run students' code and says
why on every check cell, going on with the next student; allowed the weaker mode, it grades, says
so in the log and on every check cell, and students' code cannot rewrite the gradebook, a
classmate's submission or the package's hash record, nor read a classmate's work."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbgrader")
from nbgrader.api import Gradebook

pytestmark = [
    pytest.mark.nbgrader,
    pytest.mark.slow,
    pytest.mark.skipif(os.geteuid() != 0, reason="the weaker mode grades only as root"),
]

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = "01_board_graph.ipynb"
ASSIGNMENT = "graph"
BIN = str(Path(sys.executable).parent)
NOTHING = "def neighbours(width, height, point):\n    return set()"


def hostile(root: Path) -> dict[str, str]:
    """What a clever student would try from a solution cell, knowing where the course lies."""
    gradebook = root / "gradebook.db"
    record = root / ".fanorona-package.json"
    classmate = root / "submitted" / "correct" / ASSIGNMENT / NOTEBOOK
    return {
        "rewrites-the-gradebook": (
            f"import sqlite3\ndb = sqlite3.connect({str(gradebook)!r})\n"
            "db.execute('UPDATE grade SET manual_score = 2')\ndb.commit()"
        ),
        "rewrites-the-hash-record": (
            f"open({str(record)!r}, 'w').write('{{}}')\n"
            f"open({str(ROOT / 'fanorona' / 'exercises' / 'model.py')!r}, 'a').write('#')"
        ),
        "spoils-a-classmate": f"open({str(classmate)!r}, 'w').write('{{}}')",
        "copies-a-classmate": (
            f"import json\nnb = json.load(open({str(classmate)!r}))\n"
            "exec(next(''.join(c['source']) for c in nb['cells']\n"
            "          if c['metadata'].get('nbgrader', {}).get('grade_id') == 'neighbours'))"
        ),
    }


def nbgrader(root, *args, path: str, allow: bool):
    env = {**os.environ, "PATH": path}
    env.pop("FANORONA_SANDBOX", None)
    env.pop("FANORONA_ALLOW_WEAK_ISOLATION", None)
    if allow:
        env["FANORONA_ALLOW_WEAK_ISOLATION"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "nbgrader", *args, f"--CourseDirectory.root={root}"],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
    )


def solution_cell(nb, grade_id):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def hand_in(root, student, answer):
    nb = nbformat.read(root / "release" / ASSIGNMENT / NOTEBOOK, as_version=4)
    solution_cell(nb, "neighbours").source = answer
    folder = root / "submitted" / student / ASSIGNMENT
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / NOTEBOOK)


@pytest.fixture(scope="module")
def without_bubblewrap(tmp_path_factory):
    """A PATH with every tool of /usr/bin but bwrap (and this Python's, for alembic)."""
    tools = tmp_path_factory.mktemp("tools")
    for entry in os.scandir("/usr/bin"):
        if entry.name != "bwrap":
            os.symlink(entry.path, tools / entry.name)
    return f"{BIN}:{tools}"


@pytest.fixture(scope="module")
def course(tmp_path_factory, without_bubblewrap):
    root = tmp_path_factory.mktemp("course")
    assert not os.stat(root.parent.parent).st_mode & 0o007, "pytest's own folder is private"
    (root / "source" / ASSIGNMENT).mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / NOTEBOOK, root / "source" / ASSIGNMENT / NOTEBOOK)
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    done = nbgrader(root, "generate_assignment", ASSIGNMENT, path=without_bubblewrap, allow=True)
    assert done.returncode == 0, done.stderr[-2000:]
    teacher = nbformat.read(root / "source" / ASSIGNMENT / NOTEBOOK, as_version=4)
    correct = "\n".join(
        line
        for line in solution_cell(teacher, "neighbours").source.splitlines()
        if "###" not in line
    )
    hand_in(root, "correct", correct)
    for student, code in hostile(root).items():
        hand_in(root, student, NOTHING + "\n\n" + code)
    model = ROOT / "fanorona" / "exercises" / "model.py"
    before = model.read_bytes()
    allowed = nbgrader(
        root, "autograde", ASSIGNMENT, "--create", path=without_bubblewrap, allow=True
    )
    assert allowed.returncode == 0, allowed.stderr[-3000:]
    assert model.read_bytes() == before, "a submission changed the package on disk"
    hand_in(root, "refused", correct)
    hand_in(root, "refused-too", correct)
    refused = nbgrader(
        root, "autograde", ASSIGNMENT, "--create", "--student=refused*",
        path=without_bubblewrap, allow=False,
    )  # fmt: skip
    return root, allowed.stderr, refused


def score(root, student):
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
        return gradebook.find_submission(ASSIGNMENT, student).score


def check_output(root, student) -> str:
    nb = nbformat.read(root / "autograded" / student / ASSIGNMENT / NOTEBOOK, as_version=4)
    return "\n".join(
        o.get("text", "") + o.get("evalue", "") + str(o.get("data", {}).get("text/plain", ""))
        for o in solution_cell(nb, "check_neighbours").outputs
    )


def test_allowed_the_weaker_mode_grades_and_says_so_in_the_log_and_on_each_check(course):
    root, log, _ = course
    assert score(root, "correct") == 2
    assert "Graded code ran with no namespaces here" in log
    for student in ["correct", *hostile(root)]:
        assert "Graded code ran with no namespaces here" in check_output(root, student)


@pytest.mark.parametrize(
    "student",
    [
        "rewrites-the-gradebook",
        "rewrites-the-hash-record",
        "spoils-a-classmate",
        "copies-a-classmate",
    ],
)
def test_without_namespaces_a_students_code_reaches_no_grade_file_or_classmate(course, student):
    root, _, _ = course
    assert score(root, student) == 0
    assert score(root, "correct") == 2, "the classmate's score stands"
    submitted = root / "submitted" / "correct" / ASSIGNMENT / NOTEBOOK
    assert nbformat.read(submitted, as_version=4).cells, "the classmate's submission stands"
    assert (root / ".fanorona-package.json").read_text().startswith("{\n"), "the record stands"
    assert os.stat(root / ".fanorona-package.json").st_mode & 0o077 == 0


def test_without_bubblewrap_and_not_allowed_nothing_runs_and_each_check_says_why(course):
    root, _, refused = course
    assert refused.returncode == 0, "the run goes on with the next student"
    for student in ("refused", "refused-too"):
        assert score(root, student) == 0
        shown = check_output(root, student)
        assert "bubblewrap (bwrap) is not on PATH" in shown
        assert "apt-get install bubblewrap" in shown
        assert "FANORONA_ALLOW_WEAK_ISOLATION=1" in shown
    assert "not on PATH" in refused.stderr
