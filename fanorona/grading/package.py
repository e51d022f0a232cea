"""The package as graded code sees it, and the check that the installed one is still the original.

``student_view()`` copies the package's source into a private folder without the checkers (a
stand-in takes their place, ``standin``), the grader and the tournament: the worker imports
``fanorona`` from there, so a student's function cannot call a checker's reference or read the
grader's cases.  ``verify(record)`` compares the
installed files with the hashes recorded the first time a course was graded (a file beside the
course's gradebook): a package edited on disk is refused with one sentence before any student is
graded, rather than graded with.
"""

from __future__ import annotations

import atexit
import compileall
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
#: Sub-packages graded code does not get: what decides grades and results.  THE one list of
#: package parts hidden from graded code: add a part here to hide it ("exercises" is replaced by
#: a stand-in, ``standin``; "grading" by the worker's own modules, ``WORKER_MODULES``).
HIDDEN = ("exercises", "grading", "tournament", "lobby")
#: Modules of the grader the worker needs (plain data, the worker itself).
WORKER_MODULES = ("plain.py", "worker.py", "kernel.py")
RECORD_NAME = ".fanorona-package.json"


class PackageChanged(RuntimeError):
    """The installed package differs from the one recorded: nothing is graded with it."""


def package_files() -> list[Path]:
    """The package's source files (what an edit on disk would change)."""
    return sorted(p for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def hashes() -> dict[str, str]:
    """SHA-256 of every package file, by its path inside the package."""
    return {
        str(p.relative_to(PACKAGE)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in package_files()
    }


def verify(record: Path) -> dict[str, str]:
    """Record the package's hashes in ``record`` the first time; after that, raise
    ``PackageChanged`` naming the files that differ from it.  Returns the hashes."""
    now = hashes()
    if not record.exists():  # the instructor's alone: no one else may read or write it
        with os.fdopen(os.open(record, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
            f.write(json.dumps(now, indent=0, sort_keys=True))
        return now
    try:
        then = json.loads(record.read_text())
    except ValueError:
        raise PackageChanged(
            f"{record} is not the package's recorded hashes (not JSON): delete it to record them"
            " again from a package installed afresh."
        ) from None
    changed = sorted(k for k in set(now) | set(then) if now.get(k) != then.get(k))
    if changed:
        shown = ", ".join(changed[:5]) + (
            f" and {len(changed) - 5} more" if len(changed) > 5 else ""
        )
        raise PackageChanged(
            f"The installed fanorona package differs from the one recorded in {record} ({shown}),"
            " so no student is graded with it: reinstall the package, or delete the record if the"
            " change is the teacher's own."
        )
    return now


_VIEW: list[Path] = []


def student_view() -> Path:
    """A folder holding ``fanorona/`` as graded code may import it (made once a process)."""
    if _VIEW:
        return _VIEW[0]
    # not under /tmp: the sandbox gives graded code a private /tmp, which would hide the view
    shared = Path("/var/tmp")
    root = Path(
        tempfile.mkdtemp(prefix="fanorona-graded-", dir=shared if shared.is_dir() else None)
    )
    root.chmod(0o755)  # the sandbox runs graded code as a user of its own
    atexit.register(shutil.rmtree, root, True)
    shutil.copytree(
        PACKAGE,
        root / "fanorona",
        ignore=lambda folder, names: [
            n
            for n in names
            if n == "__pycache__"
            or (Path(folder) == PACKAGE and n in HIDDEN)
            or n.endswith(".egg-info")
        ],
    )
    from .. import exercises

    (root / "fanorona" / "exercises").mkdir()
    standin = (PACKAGE / "grading" / "standin.py").read_text(encoding="utf-8")
    names = sorted(set(exercises.__all__))
    standin = standin.replace("NAMES: list[str] = []", f"NAMES: list[str] = {names!r}", 1)
    (root / "fanorona" / "exercises" / "__init__.py").write_text(standin, encoding="utf-8")
    grading = root / "fanorona" / "grading"
    grading.mkdir()
    (grading / "__init__.py").write_text('"""Only what the sandboxed worker needs."""\n')
    for name in WORKER_MODULES:
        shutil.copy(PACKAGE / "grading" / name, grading / name)
    # compiled here once: the sandbox writes no bytecode, so each worker would compile it again
    compileall.compile_dir(root, quiet=2)
    _VIEW.append(root)
    return root
