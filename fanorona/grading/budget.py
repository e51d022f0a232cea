"""Budgets of grading time, counted in the grader from outside the worker: each notebook's, and each
student's across all their notebooks in one autograde run, so that no student holds up the ones
after them.

Both are seconds of wall-clock time (from the start of a notebook's grading to its end) and of
CPU time (of the sandboxed workers, with everything they started), read from the ``FANORONA_*``
variables below.  A worker starts with no more than what is left of both, and the sandbox stops it
there; a notebook whose student has nothing left starts none.
"""

from __future__ import annotations

import math
import os
import time
import weakref
from dataclasses import dataclass, field

NOTEBOOK_WALL = "FANORONA_GRADE_NOTEBOOK_WALL"
NOTEBOOK_CPU = "FANORONA_GRADE_NOTEBOOK_CPU"
STUDENT_WALL = "FANORONA_GRADE_STUDENT_WALL"
STUDENT_CPU = "FANORONA_GRADE_STUDENT_CPU"
#: Seconds each budget allows unless its variable says otherwise: a correct student's whole course
#: takes about a tenth of the student's.
DEFAULTS = {NOTEBOOK_WALL: 600.0, NOTEBOOK_CPU: 300.0, STUDENT_WALL: 1200.0, STUDENT_CPU: 600.0}


def setting(variable: str) -> float:
    """The seconds ``variable`` sets (its default when unset); a value that is not a positive
    number is refused with a sentence naming the variable."""
    text = os.environ.get(variable, "").strip()
    if not text:
        return DEFAULTS[variable]
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{variable} must be a positive number of seconds; got {text!r}")
    return value


@dataclass
class Allowance:
    """One student's seconds for all their notebooks in one run, and what the ended ones used."""

    wall: float = field(default_factory=lambda: setting(STUDENT_WALL))
    cpu: float = field(default_factory=lambda: setting(STUDENT_CPU))
    wall_spent: float = 0.0
    cpu_spent: float = 0.0


@dataclass
class Budget:
    """One notebook's seconds, within its student's ``Allowance`` (a notebook graded on its own has
    one of its own)."""

    wall: float = field(default_factory=lambda: setting(NOTEBOOK_WALL))
    cpu: float = field(default_factory=lambda: setting(NOTEBOOK_CPU))
    student: Allowance = field(default_factory=Allowance)
    started: float = field(default_factory=time.monotonic)
    cpu_spent: float = 0.0  # by this notebook's workers that have ended
    ended: bool = False

    def _lefts(self, running: float) -> tuple[tuple[float, float], tuple[float, float]]:
        elapsed = time.monotonic() - self.started
        cpu = self.cpu_spent + running
        mine = (self.wall - elapsed, self.cpu - cpu)
        theirs = (
            self.student.wall - self.student.wall_spent - elapsed,
            self.student.cpu - self.student.cpu_spent - cpu,
        )
        return mine, theirs

    def left(self, running: float = 0.0) -> tuple[float, float]:
        """(wall, CPU) seconds left of both budgets, ``running`` CPU seconds of a worker still
        alive counted."""
        mine, theirs = self._lefts(running)
        return min(mine[0], theirs[0]), min(mine[1], theirs[1])

    def spend(self, cpu: float) -> None:
        """Count the CPU seconds of a worker that has ended."""
        self.cpu_spent += cpu

    def end(self) -> None:
        """The notebook's grading is over: what it used is the student's to carry (once)."""
        if not self.ended:
            self.ended = True
            self.student.wall_spent += time.monotonic() - self.started
            self.student.cpu_spent += self.cpu_spent

    def sentence(self, running: float = 0.0) -> str:
        """The sentence for reaching whichever budget is the nearer to its end."""
        mine, theirs = self._lefts(running)
        if min(theirs) < min(mine):
            return (
                f"Grading your notebooks reached your budget for this run ({self.student.wall:g} s"
                f" of wall-clock time, or {self.student.cpu:g} s of CPU time, for all your"
                " notebooks together), so the checks after this point were not run and give no"
                " points; the checks before it keep theirs."
            )
        return (
            f"Grading this notebook reached its budget ({self.wall:g} s of wall-clock time, or"
            f" {self.cpu:g} s of CPU time, for all its cells and checks), so the checks after"
            " this point were not run and give no points; the checks before it keep theirs."
        )


#: The students' allowances of each autograde run, by the object that lives as long as the run.
_RUNS: weakref.WeakKeyDictionary[object, dict[str, Allowance]] = weakref.WeakKeyDictionary()


def for_student(run: object | None, student: str) -> Budget:
    """A new notebook's budget within ``student``'s allowance in the autograde run ``run`` (an
    object that lives as long as the run, as nbgrader's exporter does; None: an allowance of the
    notebook's own)."""
    if run is None:
        return Budget()
    allowances = _RUNS.setdefault(run, {})
    return Budget(student=allowances.setdefault(student, Allowance()))
