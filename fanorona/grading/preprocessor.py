"""The grader as nbgrader runs it: a preprocessor that takes the place of executing the notebook.

``nbgrader_config.py`` puts ``SandboxedGrades`` where nbgrader's ``Execute`` stands in
``Autograde.autograde_preprocessors``, so a plain ``nbgrader autograde`` fills each graded cell's
output from ``grade.grade_notebook`` (the student's cells in the sandbox, the checks here) and
nbgrader's own ``SaveAutoGrades`` reads the points from it.  Before each notebook it checks the
installed package against the hashes recorded beside the course's gradebook (``package.verify``).
"""

from __future__ import annotations

from pathlib import Path

from .._extras import require

require("course", "The grader", "nbgrader", "nbconvert", "nbformat")

# ruff: noqa: E402
from nbconvert.preprocessors import ClearMetadataPreprocessor
from nbformat import from_dict
from nbgrader.preprocessors import (
    AssignLatePenalties,
    CheckCellMetadata,
    IgnorePattern,
    LimitOutput,
    NbGraderPreprocessor,
    SaveAutoGrades,
)
from traitlets import Unicode

from .grade import Notebook, grade_notebook
from .package import RECORD_NAME, PackageChanged, verify

#: How the preprocessor's log line with the CPU seconds of a notebook's sandboxed workers starts.
WORKER_CPU = "CPU seconds of the sandboxed workers:"


class SandboxedGrades(NbGraderPreprocessor):
    """Grade the notebook out of the student's reach instead of running it in a kernel."""

    record = Unicode(
        "",
        help="File of the package's recorded hashes (default: beside the course's gradebook).",
    ).tag(config=True)

    def record_path(self) -> Path:
        if self.record:
            return Path(self.record)
        root = self.config.get("CourseDirectory", {}).get("root", "") or "."
        return Path(root) / RECORD_NAME

    def preprocess(self, nb, resources):
        try:
            verify(self.record_path())
        except PackageChanged as e:
            for cell in nb.cells:
                meta = cell.metadata.get("nbgrader", {})
                if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution"):
                    cell.outputs = [
                        from_dict(
                            {
                                "output_type": "error",
                                "ename": "PackageChanged",
                                "evalue": str(e),
                                "traceback": [str(e)],
                            }
                        )
                    ]
            self.log.error("%s", e)  # noqa: TRY400 - the sentence is the message
            return nb, resources
        state = Notebook()
        grade_notebook(nb, state)
        # benchmarks/grade_class.py reads this line: the sandbox's processes are not nbgrader's
        # children, so their CPU time is not in nbgrader's own
        self.log.info("%s %.3f", WORKER_CPU, state.cpu)
        return nb, resources


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
