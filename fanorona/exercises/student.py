"""Student copies of the notebooks, made by nbgrader itself (``nbgrader generate_assignment``).

The teacher's notebooks are an nbgrader source folder as they stand: each exercise's solution
cell carries nbgrader's ``solution`` metadata and its ``### BEGIN SOLUTION`` / ``### END SOLUTION``
markers, and each checker cell is a graded, locked test cell with points.  This module only
points nbgrader at a folder and collects what it releases.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: The assignment name nbgrader files the notebooks under in a course folder.
ASSIGNMENT = "fanorona"


class ReleaseError(RuntimeError):
    """nbgrader refused to release the notebooks; the message holds its own explanation."""


def nbgrader(*args: str, cwd) -> subprocess.CompletedProcess:
    """Run the nbgrader command of this Python environment."""
    return subprocess.run(
        [sys.executable, "-m", "nbgrader", *args], cwd=cwd, capture_output=True, text=True
    )


def make_student_copies(src_dir, out_dir) -> list[Path]:
    """Release every notebook in ``src_dir`` through ``nbgrader generate_assignment`` into
    ``out_dir``
    (solutions replaced by nbgrader's stub, outputs cleared, test cells locked); return their paths.
    """
    src, out = Path(src_dir).resolve(), Path(out_dir).resolve()
    notebooks = sorted(src.glob("*.ipynb"))
    if not notebooks:
        raise FileNotFoundError(f"no notebooks (*.ipynb) in {src}")
    with tempfile.TemporaryDirectory() as root:
        source = Path(root, "source", ASSIGNMENT)
        source.mkdir(parents=True)
        for path in notebooks:
            shutil.copy(path, source / path.name)
        done = nbgrader(
            "generate_assignment",
            ASSIGNMENT,
            "--no-db",
            "--force",
            f"--CourseDirectory.root={root}",
            cwd=root,
        )
        released = Path(root, "release", ASSIGNMENT)
        if done.returncode != 0 or not released.is_dir():
            lines = [
                line for line in done.stderr.splitlines() if "ERROR" in line or "Error" in line
            ] or done.stderr.splitlines()[-5:]
            raise ReleaseError("nbgrader generate_assignment failed:\n" + "\n".join(lines))
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for path in notebooks:
            shutil.copy(released / path.name, out / path.name)
            written.append(out / path.name)
    return written
