"""The course shipped in the wheel, copied out to a folder a course author chooses.

``python -m fanorona course DEST`` writes the notebooks and the files they read to
``DEST/notebooks/`` and the course's nbgrader settings to ``DEST/nbgrader_config.py``, the layout
of the repository, so the commands that make student copies and an nbgrader course work on DEST as
they do on a clone.  A file already in DEST that differs from the kit's is an author's change: it
is kept, and nothing is written, unless ``force`` says to overwrite.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

#: Where the wheel keeps the course (setup.py copies it there from the top of the repository).
PACKAGED = "course_files"


class CourseError(ValueError):
    """The course could not be copied; the message says why in one sentence."""


@dataclass(frozen=True)
class Copied:
    """What ``copy_course`` did: the files it wrote, those already the same, those it replaced."""

    written: list[Path]
    unchanged: list[Path]
    replaced: list[Path]


def course_files() -> dict[str, bytes]:
    """The course as {path relative to DEST: content}: from the installed wheel, or from the
    checkout an editable install points at."""
    packaged = resources.files("fanorona").joinpath(PACKAGED)
    if packaged.is_dir():
        return dict(_walk(packaged, ""))
    top = Path(__file__).resolve().parent.parent
    if (top / "notebooks").is_dir() and (top / "nbgrader_config.py").is_file():
        files = {"nbgrader_config.py": (top / "nbgrader_config.py").read_bytes()}
        for path in sorted((top / "notebooks").iterdir()):
            if path.suffix in (".ipynb", ".json"):
                files[f"notebooks/{path.name}"] = path.read_bytes()
        return files
    raise CourseError(
        "this installation of fanorona holds no course: install the wheel (pip install fanorona)"
    )


def _walk(folder, prefix: str):
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        name = f"{prefix}{entry.name}"
        if entry.is_dir():
            yield from _walk(entry, f"{name}/")
        else:
            yield name, entry.read_bytes()


def copy_course(dest: str | Path, force: bool = False) -> Copied:
    """Write the course into ``dest`` (made if missing).  A file there that differs from the
    kit's is refused with ``CourseError`` naming it, before anything is written, unless
    ``force``."""
    dest = Path(dest)
    if dest.exists() and not dest.is_dir():
        raise CourseError(f"{dest} is a file, not a folder: give a folder to copy the course into")
    files = course_files()
    written, unchanged, replaced = [], [], []
    for name, content in files.items():
        target = dest / name
        if not target.exists():
            written.append(target)
        elif target.is_file() and target.read_bytes() == content:
            unchanged.append(target)
        elif target.is_file():
            replaced.append(target)
        else:
            raise CourseError(f"{target} is a folder where the course has a file; move it away")
    if replaced and not force:
        names = ", ".join(str(p) for p in replaced[:3]) + (" ..." if len(replaced) > 3 else "")
        raise CourseError(
            f"{len(replaced)} file(s) in {dest} differ from the kit's ({names}); nothing was "
            "written: keep your changes elsewhere, or pass --force to overwrite them"
        )
    for target in written + replaced:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(files[target.relative_to(dest).as_posix()])
    return Copied(written, unchanged, replaced)


__all__ = ["PACKAGED", "Copied", "CourseError", "copy_course", "course_files"]
