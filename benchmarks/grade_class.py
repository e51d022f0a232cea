"""Autograde a generated class with nbgrader, week by week, and print the minutes per student.

``python benchmarks/grade_class.py`` (``make grade-demo``) builds an nbgrader course folder from
notebooks/ (``python -m fanorona.exercises notebooks DIR --course``, with nbgrader_config.py),
releases every weekly assignment with ``nbgrader generate_assignment``, and hands in one
submission per student of eight kinds, in turn:

- correct: the teacher's solutions, pasted as the notebooks tell the student;
- partly wrong: correct but for one plausible mistake a week (the answers in WRONG);
- unfinished: the released copies as they are;
- slow: correct, with each week's main function three times slower than the reference;
- tampering: correct, but the ``turns`` of notebook 10b is wrong and its cell replaces the checker;
- stalling: correct, with a cell in each week's first notebook that sleeps for 10 minutes;
- memory-hungry: correct, with a cell that starts four processes of 1.5 GB each;
- deadlocking: correct, with ``captures`` answering in a ``defaultdict(set)`` (which once left the
  grader and its worker each waiting on the other's full pipe).

Then it runs ``nbgrader autograde`` on each assignment (with the course's nbgrader_config.py, so
the points come from the sandboxed grader, fanorona.grading), times it, and prints each student's
scores beside the ones the guide's points table predicts (a partly wrong answer gets a share of
the points: any score below full is as predicted), and the wall and CPU minutes per student: the
CPU time of nbgrader and of the sandboxed workers, which nbgrader's log reports, each assignment's
split between the two, and the load average beside them.
"""

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from fanorona.exercises.__main__ import WEEKS, course  # noqa: E402
from fanorona.grading.preprocessor import STUDENT_WALL, WORKER_CPU  # noqa: E402

NOTEBOOKS = ROOT / "notebooks"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
KINDS = [
    "correct",
    "partly-wrong",
    "unfinished",
    "slow",
    "tampering",
    "stalling",
    "memory-hungry",
    "deadlocking",
]
#: The stalling and memory-hungry students' own cell (``experiment``) and what the deadlocking
#: student adds to ``captures``: each costs its student nothing but the time the limits allow.
STALL = "import time\ntime.sleep(600)  # an experiment left running"
HOARD = """import os, time
for _ in range(4):
    if os.fork() == 0:
        hoard = bytearray(1536 * 2**20)
        hoard[::4096] = b"x" * len(hoard[::4096])
        time.sleep(600)
        os._exit(0)
time.sleep(600)"""
DEADLOCK = """


from collections import defaultdict
_captures = captures


def captures(board, origin, destination):
    found = defaultdict(set)
    for kind, points in _captures(board, origin, destination).items():
        found[kind] |= points
    return found"""
#: What the "your functions so far" cell of a notebook is told to hold: (notebook, grade id) of
#: each answer.
EARLIER = {
    "09_assignment_model.ipynb": [
        ("03_moves_and_captures.ipynb", "captures"),
        ("04_simple_game.ipynb", "simple_steps"),
    ],
    "10_assignment_view_and_control.ipynb": [
        ("03_moves_and_captures.ipynb", "captures"),
        ("04_simple_game.ipynb", "simple_steps"),
        ("09_assignment_model.ipynb", "apply_step"),
        ("09_assignment_model.ipynb", "winner"),
        ("09_assignment_model.ipynb", "my_game"),
    ],
    "10b_assignment_extensions.ipynb": [
        ("03_moves_and_captures.ipynb", "captures"),
        ("04_simple_game.ipynb", "simple_steps"),
        ("09_assignment_model.ipynb", "apply_step"),
        ("09_assignment_model.ipynb", "winner"),
        ("10_assignment_view_and_control.ipynb", "draw_position"),
    ],
}
# : One plausible mistake a week: (notebook, grade id) -> (text in the teacher's answer, its wrong
# version),
#: and the checker cells it fails.
WRONG = {
    ("01_board_graph.ipynb", "neighbours"): (
        "if dc and dr and not is_strong(col, row):",
        "if False:",
    ),
    ("04_simple_game.ipynb", "simple_steps"): (
        '["withdrawal"] * holds(column - dc, row - dr, enemy)',
        "[]",
    ),
    ("09_assignment_model.ipynb", "my_game"): (
        (
            "return sorted(captures(self, step.origin, step.destination)[step.capture]) if"
            " step.capture else []"
        ),
        (
            "return sorted(set().union(*captures(self, step.origin, step.destination).values())) if"
            " step.capture else []"
        ),
    ),
    ("10_assignment_view_and_control.ipynb", "draw_position"): (
        "FORWARD = [(1, 0), (0, 1), (1, 1), (-1, 1)]",
        "FORWARD = [(1, 0), (0, 1)]",
    ),
    ("07_computer_opponent.ipynb", "subtraction"): ("(1, 3, 4)", "(1, 2, 3)"),
}
WRONG_FAILS = {
    "check_neighbours",
    "check_simple_steps",
    "check_model",
    "check_view",
    "check_subtraction",
}
#: The checker cells the tampering student's wrong ``turns`` fails: its own, and MyFullGame's and
#: the clickable full game's, whose model takes its turns from ``turns``.
TAMPERING_FAILS = {"check_turns", "check_full_game", "check_clickable"}
#: The main function of each notebook that the slow student computes three times over.
SLOW = {
    "01_board_graph.ipynb": "neighbours",
    "02_strings.ipynb": "strings_through",
    "03_moves_and_captures.ipynb": "captures",
    "04_simple_game.ipynb": "simple_steps",
    "09_assignment_model.ipynb": "apply_step",
    "10_assignment_view_and_control.ipynb": "draw_position",
    "10b_assignment_extensions.ipynb": "turns",
}
SLOWLY = '''


def three_times(fn):
    """The same answer, computed three times: a correct solution three times slower."""
    def call(*args, **kwargs):
        fn(*args, **kwargs)
        fn(*args, **kwargs)
        return fn(*args, **kwargs)
    return call


{name} = three_times({name})'''
TAMPER = '''


def turns(board):
    """Wrong: only the first step of each turn."""
    return [(step,) for step in compulsory_steps(board)]


import fanorona.exercises
fanorona.exercises.check_turns = lambda fn: print("All 1 cases agree.")'''


def cells(path):
    return nbformat.read(path, as_version=4).cells


def meta(cell):
    return cell.metadata.get("nbgrader", {})


def answer(notebook, grade_id):
    """The teacher's solution cell as a student who solved it hands it in: the markers gone."""
    cell = next(c for c in cells(NOTEBOOKS / notebook) if meta(c).get("grade_id") == grade_id)
    return "\n".join(line for line in cell.source.splitlines() if line.strip() not in (BEGIN, END))


def solved(notebook, grade_id, kind):
    if grade_id == "earlier_functions":
        return "\n\n\n".join(solved(*where, "correct") for where in EARLIER[notebook])
    source = answer(notebook, grade_id)
    if kind == "partly-wrong" and (notebook, grade_id) in WRONG:
        right, wrong = WRONG[notebook, grade_id]
        assert right in source, (notebook, grade_id)
        source = source.replace(right, wrong)
    if kind == "slow" and SLOW.get(notebook) == grade_id:
        source += SLOWLY.format(name=grade_id)
    if kind == "tampering" and (notebook, grade_id) == ("10b_assignment_extensions.ipynb", "turns"):
        source += TAMPER
    if kind == "deadlocking" and (notebook, grade_id) == (
        "03_moves_and_captures.ipynb",
        "captures",
    ):
        source += DEADLOCK
    return source


def experiment(nb, notebook, kind):
    """The stalling or memory-hungry student's own cell, after the first solution cell of each
    week's first notebook."""
    if kind not in ("stalling", "memory-hungry") or first_solution(notebook) is None:
        return
    at = next(n for n, c in enumerate(nb.cells) if meta(c).get("solution")) + 1
    nb.cells.insert(at, nbformat.v4.new_code_cell(STALL if kind == "stalling" else HOARD))


def first_solution(notebook):
    """The grade id of the first solution cell of the first notebook of its week."""
    for _title, names in WEEKS.values():
        if names and names[0] == notebook:
            return next(
                meta(c)["grade_id"] for c in cells(NOTEBOOKS / notebook) if meta(c).get("solution")
            )
    return None


def points_table():
    """{assignment: {checker grade id: points}} from the notebooks' nbgrader metadata."""
    return {
        week: {
            meta(c)["grade_id"]: meta(c)["points"]
            for name in names
            for c in cells(NOTEBOOKS / name)
            if meta(c).get("grade")
        }
        for week, (_title, names) in WEEKS.items()
    }


def expected_score(kind, checks):
    """(lowest, highest) points a kind of student should get from an assignment's ``checks``.  A
    partly wrong answer gets the share of its cases that agree, so anything below full points;
    the tampering student's change reaches nothing, so only its wrong ``turns`` costs points: its
    own check's and those of notebook 10b's model and program, which play by that ``turns``."""
    if kind == "unfinished":
        return 0, 0
    failed = WRONG_FAILS if kind == "partly-wrong" else set()
    if kind == "tampering":
        failed = TAMPERING_FAILS
    sure = sum(p for g, p in checks.items() if g not in failed)
    share = sum(p for g, p in checks.items() if g in failed)
    return sure, sure + share - (0.01 if share else 0)


def children_cpu():
    """CPU seconds (user and system) of the finished child processes: nbgrader and the kernels it
    ran."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def student_seconds(log: str) -> dict[str, float]:
    """Wall seconds the grader took for each student, from its lines in nbgrader's log."""
    found: dict[str, float] = {}
    for student, seconds in re.findall(re.escape(STUDENT_WALL) + r" (\S+) [^:]*: ([0-9.]+)", log):
        found[student] = found.get(student, 0.0) + float(seconds)
    return found


def worker_cpu(log: str) -> float:
    """CPU seconds of the sandboxed workers, from the grader's lines in nbgrader's log."""
    return sum(float(x) for x in re.findall(re.escape(WORKER_CPU) + r" ([0-9.]+)", log))


def nbgrader(root, *args):
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args, f"--CourseDirectory.root={root}"],
        cwd=root,
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"],
        },
    )
    if done.returncode != 0:
        sys.exit(f"nbgrader {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--students", type=int, default=10, help="class size (the five kinds in turn); at least 10"
    )
    parser.add_argument(
        "--weeks", nargs="*", default=list(WEEKS), help="assignments to grade (default: all)"
    )
    parser.add_argument(
        "--keep", help="build the course folder here and keep it (default: a temporary folder)"
    )
    args = parser.parse_args(argv)
    table = points_table()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.keep or tmp)
        if root.exists() and args.keep:
            shutil.rmtree(root)
        course(NOTEBOOKS, root, ROOT / "nbgrader_config.py")
        students = [f"{n + 1:02d}-{KINDS[n % len(KINDS)]}" for n in range(args.students)]
        for week in args.weeks:
            nbgrader(root, "generate_assignment", week)
            for student in students:
                kind = student.split("-", 1)[1]
                folder = root / "submitted" / student / week
                shutil.copytree(root / "release" / week, folder)
                for path in folder.glob("*.ipynb"):
                    nb = nbformat.read(path, as_version=4)
                    if kind != "unfinished":
                        for cell in nb.cells:
                            if meta(cell).get("solution"):
                                cell.source = solved(path.name, meta(cell)["grade_id"], kind)
                    experiment(nb, path.name, kind)
                    nbformat.write(nb, path)
        timings, cpu, per_student, split = {}, 0.0, {}, {}
        load = os.getloadavg()[0]
        for week in args.weeks:
            print(f"autograding {week} for {len(students)} students ...", flush=True)
            start, used = time.perf_counter(), children_cpu()
            done = nbgrader(root, "autograde", week, "--create")
            timings[week] = time.perf_counter() - start
            split[week] = (children_cpu() - used, worker_cpu(done.stderr))
            cpu += sum(split[week])
            for student, seconds in student_seconds(done.stderr).items():
                per_student[student] = per_student.get(student, 0.0) + seconds
        slowest = {}
        for path in (root / "autograded").glob("*/*/*.ipynb"):
            kind = path.parent.parent.name.split("-", 1)[1]
            for cell in nbformat.read(path, as_version=4).cells:
                timing = cell.metadata.get("execution", {})
                if meta(cell).get("grade") and "iopub.execute_input" in timing:
                    seconds = (
                        datetime.fromisoformat(timing["shell.execute_reply"].rstrip("Z"))
                        - datetime.fromisoformat(timing["iopub.execute_input"].rstrip("Z"))
                    ).total_seconds()
                    slowest[kind] = max(
                        slowest.get(kind, (0, "")),
                        (seconds, f"{path.name} {meta(cell)['grade_id']}"),
                    )
        mismatches = 0
        print(f"\n{'student':16}" + "".join(f"{week:>14}" for week in args.weeks))
        with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
            for student in students:
                kind = student.split("-", 1)[1]
                row = []
                for week in args.weeks:
                    got = gradebook.find_submission(week, student).score
                    low, high = expected_score(kind, table[week])
                    wrong = not low <= got <= high
                    mismatches += wrong
                    row.append(
                        f"{got:g}/{sum(table[week].values())}"
                        + (f" (≠{low:g}..{high:g})" if wrong else "")
                    )
                print(f"{student:16}" + "".join(f"{cell:>14}" for cell in row))
    for kind, (seconds, where) in sorted(slowest.items()):
        print(f"slowest graded cell, {kind}: {seconds:.1f} s ({where})")
    if per_student:
        student, seconds = max(per_student.items(), key=lambda item: item[1])
        print(f"slowest student: {student}, {seconds:.0f} s of grading in all")
    total = sum(timings.values())
    print(
        "\nautograde wall time: "
        + ", ".join(f"{week} {seconds:.0f} s" for week, seconds in timings.items())
    )
    print(
        f"{total / 60:.1f} minutes for {len(students)} students: {total / 60 / len(students):.2f}"
        f" minutes per student (load average {load:.1f} at the start, {os.cpu_count()} cores)"
    )
    print(
        "CPU seconds a student, nbgrader and the grader + the sandboxed workers: "
        + ", ".join(
            f"{week} {mine / len(students):.1f} + {theirs / len(students):.1f}"
            for week, (mine, theirs) in split.items()
        )
    )
    print(
        "CPU time of nbgrader, the grader and its sandboxed workers:"
        f" {cpu / 60 / len(students):.2f} CPU minutes per student (load average"
        f" {os.getloadavg()[0]:.1f} at the end)"
    )
    print(
        "every score as the points table predicts"
        if not mismatches
        else f"{mismatches} scores differ from the points table's prediction (marked ≠)"
    )
    return mismatches


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
