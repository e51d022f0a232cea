"""How much room the checkers' time limits leave a correct but slow solution.

``python benchmarks/checker_time_limits.py`` runs every checker of the course assignment
(notebooks 09, 10 and 10b) on the notebooks' own reference solutions, timing each call of the
solution, and prints per checker: the whole check, the solution's share, its slowest call, and
how many times slower the solution could be before a limit stops it (``CALL_LIMIT`` for one
call, ``CHECK_LIMIT`` for the check).  A solution five times slower than the reference must
pass: both factors must stay above 5 (on a busy machine they shrink; run it when it is quiet).
"""

import contextlib
import io
import time
from pathlib import Path

import matplotlib
import nbformat
from IPython.display import display
from tqdm import tqdm

matplotlib.use("Agg")

from fanorona import exercises
from fanorona.exercises import guard
from fanorona.exercises.view import VIEW_CALL_LIMIT

ROOT = Path(__file__).resolve().parent.parent
CHECKS = [
    ("check_apply_step", "apply_step"),
    ("check_winner", "winner"),
    ("check_compulsory_steps", "compulsory_steps"),
    ("check_turns", "turns"),
    ("check_model", "MyGame"),
    ("check_view", "draw_position"),
    ("check_control", "Clicks"),
]


def reference_solutions() -> dict:
    """The namespace of notebooks 09, 10 and 10b run without their checker cells (the solutions as
    written)."""
    namespace = {"display": display}  # as a notebook has it
    for name in (
        "09_assignment_model",
        "10_assignment_view_and_control",
        "10b_assignment_extensions",
    ):
        for cell in nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4).cells:
            if cell.cell_type != "code" or "check_" in cell.source or "BoardWidget" in cell.source:
                continue
            # the notebooks' IPython magics (``%matplotlib widget``) are not Python
            source = "\n".join(
                line for line in cell.source.splitlines() if not line.lstrip().startswith("%")
            )
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(source, name, "exec"), namespace)
    return namespace


def timed(fn, calls: list):
    """``fn`` that appends the time of each call to ``calls`` (a class is timed as its
    construction)."""

    def run(*args):
        started = time.perf_counter()
        try:
            return fn(*args)
        finally:
            calls.append(time.perf_counter() - started)

    run.__name__ = getattr(fn, "__name__", "solution")
    return run


def main() -> None:
    solutions = reference_solutions()
    rows = []
    for check, name in tqdm(CHECKS, desc="checkers"):
        calls = []
        fn = solutions[name] if isinstance(solutions[name], type) else timed(solutions[name], calls)
        started = time.perf_counter()
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                getattr(exercises, check)(fn)
            verdict = "passes"
        except exercises.ExerciseFailed as e:
            verdict = f"fails: {str(e)[:60]}"
        total = time.perf_counter() - started
        limit = VIEW_CALL_LIMIT if check == "check_view" else guard.CALL_LIMIT
        spent, slowest = sum(calls), max(calls, default=0.0)
        rows.append(
            (
                check,
                verdict,
                total,
                spent,
                slowest,
                limit / slowest if slowest else float("inf"),
                guard.CHECK_LIMIT / (spent or total),
            )
        )
    print(
        f"CALL_LIMIT {guard.CALL_LIMIT:g} s (a drawing {VIEW_CALL_LIMIT:g} s), CHECK_LIMIT"
        f" {guard.CHECK_LIMIT:g} s"
    )
    print(
        f"{'checker':24} {'verdict':10} {'check s':>8} {'solution s':>10} {'slowest call ms':>15} "
        f"{'room (call)':>11} {'room (check)':>12}"
    )
    for check, verdict, total, spent, slowest, room_call, room_check in rows:
        print(
            f"{check:24} {verdict[:10]:10} {total:8.2f} {spent:10.2f} {slowest * 1000:15.1f} "
            f"{room_call:10.0f}x {room_check:11.1f}x"
        )


if __name__ == "__main__":
    main()
