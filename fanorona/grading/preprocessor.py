"""The grader as nbgrader runs it: a preprocessor that takes the place of executing the notebook.

``nbgrader_config.py`` puts ``SandboxedGrades`` where nbgrader's ``Execute`` stands in
``Autograde.autograde_preprocessors``, so a plain ``nbgrader autograde`` fills each graded cell's
output from ``grade.grade_notebook`` (the student's cells in the sandbox, the checks here) and
nbgrader's own ``SaveAutoGrades`` reads the points from it.  Before each notebook it checks the
installed package against the hashes recorded beside the course's gradebook (``package.verify``).
"""

from __future__ import annotations

import time
from pathlib import Path

from .._extras import require

require("course", "The grader", "nbgrader", "nbconvert", "nbformat")

# ruff: noqa: E402
from nbconvert.preprocessors import ClearMetadataPreprocessor
from nbformat import from_dict
from nbgrader.nbgraderformat import MetadataValidator
from nbgrader.preprocessors import (
    AssignLatePenalties,
    CheckCellMetadata,
    ClearOutput,
    DeduplicateIds,
    IgnorePattern,
    LimitOutput,
    NbGraderPreprocessor,
    OverwriteCells,
    OverwriteKernelspec,
    SaveAutoGrades,
)
from traitlets import Bool, Unicode

from ..sandbox import IsolationUnavailable
from ..sandbox.reach import open_to_others
from .budget import for_student
from .grade import Notebook, grade_notebook
from .package import RECORD_NAME, PackageChanged, verify
from .remote import grading_isolation

#: How the preprocessor's log line with the CPU seconds of a notebook's sandboxed workers starts.
WORKER_CPU = "CPU seconds of the sandboxed workers:"
#: How the preprocessor's log line with the wall seconds one notebook of a student took starts.
STUDENT_WALL = "Wall seconds of grading"
#: How the line saying which isolation graded code had starts, in the log and on feedback pages.
ISOLATION = "Graded code ran with"


def refuse_all(nb, kind: str, sentence: str) -> None:
    """Every graded check cell shows ``sentence`` as its error: no points, nothing run."""
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution"):
            cell.outputs = [
                from_dict(
                    {
                        "output_type": "error",
                        "ename": kind,
                        "evalue": sentence,
                        "traceback": [sentence],
                    }
                )
            ]


def announce(nb, line: str) -> None:
    """The isolation line under every graded check cell's output (its points unchanged)."""
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution"):
            shown = from_dict({"output_type": "stream", "name": "stdout", "text": line + "\n"})
            cell.outputs.insert(0, shown)


def only_the_students(nb) -> None:
    """Clear the outputs of every code cell that is neither a solution cell nor a graded check
    cell: the teacher's cells (imports, reading and question cells) ran in the grader's worker,
    not in the student's kernel, and what they printed there is no feedback on the student's
    work (a cell that uses what graded code may not, such as the tournament, raises there)."""
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and not meta.get("solution") and not meta.get("grade"):
            cell.outputs = []


class SandboxedGrades(NbGraderPreprocessor):
    """Grade the notebook out of the student's reach instead of running it in a kernel."""

    record = Unicode(
        "",
        help="File of the package's recorded hashes (default: beside the course's gradebook).",
    ).tag(config=True)
    allow_weak_isolation = Bool(
        False,
        help="Grade without namespaces where bubblewrap cannot run (a trusted setting only; the"
        " log and every feedback page then say so). FANORONA_ALLOW_WEAK_ISOLATION=1 does the same.",
    ).tag(config=True)

    def course_root(self) -> Path:
        return Path(self.config.get("CourseDirectory", {}).get("root", "") or ".").resolve()

    def record_path(self) -> Path:
        return Path(self.record) if self.record else self.course_root() / RECORD_NAME

    def isolation(self) -> str:
        """The isolation line, after the checks that make the weaker mode safe for the course."""
        line = grading_isolation(self.allow_weak_isolation)
        if not line.startswith("bubblewrap") and open_to_others(self.course_root()):
            raise IsolationUnavailable(
                f"Without bubblewrap graded code could read the course folder {self.course_root()}"
                " (every student's work and the gradebook), as it is open to other users: close"
                f" it with `chmod 700 {self.course_root()}`, or install bubblewrap."
            )
        return line

    def preprocess(self, nb, resources):
        try:
            line = self.isolation()
            verify(self.record_path())
        except (IsolationUnavailable, PackageChanged) as e:
            refuse_all(nb, type(e).__name__, str(e))
            self.log.error("%s", e)  # noqa: TRY400 - the sentence is the message
            return nb, resources
        weak = not line.startswith("bubblewrap")
        self.log.log(30 if weak else 20, "%s %s", ISOLATION, line)
        student = resources.get("nbgrader", {}).get("student", "?")
        state = Notebook(allow_weak=weak, budget=for_student(self.parent, student))
        started = time.monotonic()
        grade_notebook(nb, state)
        only_the_students(nb)
        notebook = resources.get("nbgrader", {}).get("notebook", "?")
        self.log.info("%s %s %s: %.1f", STUDENT_WALL, student, notebook, time.monotonic() - started)
        if weak:
            announce(nb, f"{ISOLATION} {line}.")
        # benchmarks/grade_class.py reads this line: the sandbox's processes are not nbgrader's
        # children, so their CPU time is not in nbgrader's own
        self.log.info("%s %.3f", WORKER_CPU, state.cpu)
        return nb, resources


def unusable(validator: MetadataValidator, cell) -> str | None:
    """Why nbgrader would refuse the cell's metadata, or None."""
    if not cell.metadata.nbgrader:
        return "its nbgrader metadata is empty (a copy of another cell?)"
    try:
        validator.validate_cell(cell)
    except Exception as e:
        return str(e).splitlines()[0][:200] if str(e) else type(e).__name__
    return None


class UsableMetadata(NbGraderPreprocessor):
    """A cell whose nbgrader metadata nbgrader would refuse (a pasted copy of a locked check cell
    loses its metadata to ``DeduplicateIds``, which then fails validation and stops the whole
    run) becomes an ordinary cell of the student's, named in the instructor's log: the notebook
    is graded as far as it can be, and the run goes on."""

    def preprocess(self, nb, resources):
        validator = MetadataValidator()
        student = resources.get("nbgrader", {}).get("student", "?")
        notebook = resources.get("nbgrader", {}).get("notebook", "?")
        for number, cell in enumerate(nb.cells, 1):
            if "nbgrader" not in cell.metadata:
                continue
            why = unusable(validator, cell)
            if why is not None:
                del cell.metadata["nbgrader"]
                self.log.warning(
                    "%s, %s: cell %d had nbgrader metadata that cannot be used (%s); it is"
                    " graded as an ordinary cell of the student's.",
                    student,
                    notebook,
                    number,
                    why,
                )
        return nb, resources


#: nbgrader's sanitizing steps, with unusable metadata made ordinary before nbgrader reads it and
#: again after ``DeduplicateIds`` empties a copy's.
SANITIZE_PREPROCESSORS = [
    ClearOutput,
    UsableMetadata,
    DeduplicateIds,
    UsableMetadata,
    OverwriteKernelspec,
    OverwriteCells,
    CheckCellMetadata,
]

#: nbgrader's autograde steps with the sandboxed grades where ``Execute`` was.
AUTOGRADE_PREPROCESSORS = [
    SandboxedGrades,
    IgnorePattern,
    ClearMetadataPreprocessor,
    LimitOutput,
    SaveAutoGrades,
    AssignLatePenalties,
    CheckCellMetadata,
]
