"""A simulated class on the course hub: what each student hands in for week 1, and the points
that earns (shared by tests/test_hub.py and benchmarks/bench_hub.py)."""

from __future__ import annotations

from pathlib import Path

import nbformat

from benchmarks.grade_class import WRONG_FAILS, solved
from hub.course import Layout, run_as

WEEK = "week1"
#: The checker cell a tamperer rewrites (and gives 100 points in its metadata).
TAMPERED = ("01_board_graph.ipynb", "check_neighbours")
#: What a class hands in, in turn: the teacher's answers, one plausible mistake, the copy as
#: fetched, correct but three times slower, and a wrong answer whose checker cell is rewritten.
KINDS = ["correct", "partly-wrong", "unfinished", "slow", "tampering"]


def expected_points(kind: str, checks: dict[str, int]) -> dict[str, float | None]:
    """What each checker cell of week 1 gives a kind of student: its points, none, or ``None``
    where a partly wrong answer earns the share of the checker's cases that agree (the tamperer's
    rewritten checker is graded as released); ``browser`` answers only the first notebook's
    exercise."""
    earned = {
        "correct": set(checks),
        "slow": set(checks),
        "partly-wrong": set(checks) - WRONG_FAILS,
        "unfinished": set(),
        "tampering": set(checks) - WRONG_FAILS,
        "browser": {"check_neighbours"},
    }[kind]
    shared = WRONG_FAILS if kind in ("partly-wrong", "tampering") else set()
    return {
        g: float(points) if g in earned else (None if g in shared else 0.0)
        for g, points in checks.items()
    }


def fill_in(folder: Path, kind: str) -> None:
    """Answer the fetched notebooks in ``folder`` as a student of ``kind`` would."""
    for path in sorted(folder.glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            meta = cell.metadata.get("nbgrader", {})
            if kind != "unfinished" and meta.get("solution"):
                answer_kind = "partly-wrong" if kind == "tampering" else kind
                cell.source = solved(path.name, meta["grade_id"], answer_kind)
            if kind == "tampering" and (path.name, meta.get("grade_id")) == TAMPERED:
                cell.source = 'print("All 305 cases agree.")'
                meta["points"] = 100
        nbformat.write(notebook, path)


def hand_in(layout: Layout, student: str, kind: str) -> None:
    """A student on the command line of their server: fetch week 1, answer it, submit."""
    run_as(layout, student, "fetch_assignment", WEEK)
    fill_in(layout.home(student) / WEEK, kind)
    run_as(layout, student, "submit", WEEK)
