"""The entrants: built-in levels by name, and submissions from a folder (files or nbgrader's).

A submission is a Python file defining a player the way the kit's own are written: an object
``player`` with ``choose_turn(board)``, a function ``choose_turn(board)``, or one class with a
``choose_turn(self, board)`` method; or a program in any language (an executable file) that speaks
the player protocol (docs/reference/player-protocol.md) on its standard input and output.  In
nbgrader's ``submitted/<student>/<assignment>/`` folders the student's name names the player, and
a notebook counts by its cell with the nbgrader id ``tournament_player`` (notebook 11's exercise),
a ``%%writefile`` line at its top left out.
"""

from __future__ import annotations

import base64
import json
import os
import re
import stat
from pathlib import Path

from ..engine import ai

PLAYER_CELL = "tournament_player"
NAME = re.compile(r"^[A-Za-z0-9_.\-]{1,40}$")
#: The largest submission read: a player's file is a few KB, notebook 11 with its pictures some
#: hundred; more is refused before it is read (it would cost the run its size many times over).
MAX_BYTES = 4 * 1024 * 1024


def shown(path) -> str:
    """A path as a sentence can show it: as it is, or as its bytes if it is not UTF-8."""
    text = str(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return repr(os.fsencode(text))
    return text


def read_submission(path: Path) -> str:
    """The text of a handed-in file (``read_bytes``)."""
    return read_bytes(path).decode("utf-8", errors="replace")


def read_bytes(path: Path) -> bytes:
    """A handed-in file, opened without following a link and refused unless it is a regular file
    of at most ``MAX_BYTES`` with a UTF-8 name: what the student handed in, never a file they
    could point the instructor's rights at."""
    if shown(path.name) != path.name:
        raise ValueError(f"a file name that is not UTF-8 ({shown(path.name)})")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as e:
        if path.is_symlink():
            raise ValueError(
                f"{path}: a symbolic link, which the tournament does not follow"
            ) from None
        raise ValueError(f"{path}: cannot be read ({e.strerror})") from None
    with os.fdopen(fd, "rb") as f:
        status = os.fstat(f.fileno())
        if not stat.S_ISREG(status.st_mode):
            raise ValueError(f"{path}: not a regular file (a folder, FIFO, socket or device)")
        if status.st_size > MAX_BYTES:
            raise ValueError(
                f"{path}: {status.st_size / 1024 / 1024:.1f} MB; the limit is"
                f" {MAX_BYTES // 1024} KB a submission"
            )
        return f.read(MAX_BYTES + 1)


def builtin(spec: str) -> dict:
    """A built-in player by its spec (``level3``, ``greedy``, ``alphabeta:depth=2``, ...)."""
    ai.make_player(spec)  # a bad spec fails here, with make_player's sentence
    return {"name": spec, "spec": spec}


def from_file(path, name: str | None = None) -> dict:
    """A submission from one Python file, notebook or program (in any language, speaking
    docs/reference/player-protocol.md); named after the file unless ``name`` is given."""
    path = Path(path)
    name = name or path.stem
    if not NAME.match(name):
        raise ValueError(
            f"{path}: a player's name is 1 to 40 letters, digits, '_', '-' or '.'; got {name!r}"
        )
    if path.suffix == ".ipynb":
        source = notebook_player(path)
    elif path.suffix == ".py":
        source = read_submission(path)
    elif path.is_file() and os.access(path, os.X_OK):
        program = base64.b64encode(read_bytes(path)).decode("ascii")
        return {"name": name, "program": program, "origin": str(path)}
    else:
        raise ValueError(
            f"{path}: a submission is a .py file, a notebook (.ipynb) or a program that speaks"
            " the player protocol (an executable file)"
        )
    return {"name": name, "source": source, "origin": str(path)}


def notebook_player(path) -> str:
    """The player's code in a notebook: the cell(s) with the nbgrader id ``tournament_player``."""
    text = read_submission(Path(path))  # its own sentence if it is refused
    try:
        cells = json.loads(text)["cells"]
    except (ValueError, KeyError, TypeError):
        raise ValueError(f"{path}: not a notebook that can be read") from None
    if not isinstance(cells, list):
        raise ValueError(f"{path}: its 'cells' is not a list of cells")
    chosen = []
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or not isinstance(cell.get("metadata", {}), dict):
            raise ValueError(f"{path}: cell {number} is damaged (not a cell with metadata)")
        nbgrader = cell.get("metadata", {}).get("nbgrader") or {}
        if cell.get("cell_type") != "code" or not isinstance(nbgrader, dict):
            continue
        if nbgrader.get("grade_id") != PLAYER_CELL:
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise ValueError(f"{path}: the source of cell {number} is not text")
        chosen.append(source)
    if not chosen:
        raise ValueError(
            f"{path}: no cell with the nbgrader id {PLAYER_CELL!r} (notebook 11's player cell)"
        )
    return (
        "\n\n".join(
            "\n".join(line for line in s.splitlines() if not line.startswith("%%")) for s in chosen
        )
        + "\n"
    )


def submissions(folder, assignment: str | None = None, left_out: list | None = None) -> list[dict]:
    """Every submission in ``folder``: its .py files, and its sub-folders as nbgrader's
    ``<student>/<assignment>/`` (the student's name naming the player).  With a ``left_out``
    list, a submission that cannot be read is left out with its sentence added there (naming the
    student and the file), instead of stopping them all."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder}: no such folder of submissions")
    entries = []
    for child in sorted(folder.iterdir()):
        try:
            if child.is_symlink() or child.suffix == ".py" or child.is_dir():
                entries.append(_entry(child, assignment))
        except (ValueError, OSError) as e:
            if left_out is None:
                raise
            reason = shown(str(e).strip(chr(39)))
            left_out.append(f"{shown(child.name)}'s submission is left out: {reason}")
    if not entries and not left_out:
        raise ValueError(
            f"{folder}: no submissions in it (.py files, or nbgrader's <student>/<assignment>/"
            " folders)"
        )
    return entries


def _entry(child: Path, assignment: str | None) -> dict:
    """One submission: a .py file, or a student's folder."""
    if child.is_symlink():
        raise ValueError(f"{child}: a symbolic link, which the tournament does not follow")
    if child.is_dir():
        return from_file(_the_file(child, assignment), name=child.name)
    return from_file(child)


def _the_file(student: Path, assignment: str | None) -> Path:
    where = student / assignment if assignment else student
    if where.is_symlink():
        raise ValueError(f"{where}: a symbolic link, which the tournament does not follow")
    candidates = [
        p for p in where.rglob("*") if ".ipynb_checkpoints" not in p.relative_to(where).parts
    ]
    for p in candidates:
        if shown(p.name) != p.name:
            raise ValueError(f"a file name that is not UTF-8 ({shown(p.name)}) in {where}")
    found = sorted(
        p
        for p in candidates
        if p.suffix in (".py", ".ipynb")
        and (p.is_symlink() or not p.is_file() or p.suffix == ".py" or PLAYER_CELL in _text(p))
    )
    if len(found) != 1:
        what = (
            "no player file or notebook"
            if not found
            else f"{len(found)} candidates ({', '.join(p.name for p in found)})"
        )
        raise ValueError(
            f"{where}: {what}; a submission holds one .py file or one notebook with the player cell"
            + ("" if assignment else "; name the assignment with --assignment")
        )
    return found[0]


def _text(path: Path) -> str:
    try:
        return read_submission(path)
    except ValueError:
        return PLAYER_CELL  # a candidate still: read again, refused with its sentence


def readable_by_others(path) -> bool:
    """True if users other than the owner can read ``path``: then players could read it too."""
    path = Path(path).resolve()
    for part in [path] + list(path.parents):
        mode = part.stat().st_mode
        if (not mode & stat.S_IXOTH and part != path) or (part == path and not mode & stat.S_IROTH):
            return False
    return True


TEMPLATE = '''"""My Fanorona player for tournament night.

Rename the file to your name, make choose_turn better, and check it before you submit:
    python -m fanorona.tournament check my_player.py
It runs in a process of its own with a time limit per turn (1 s unless the instructor says
otherwise), a memory limit and no other processes or threads; printing is fine but is cut.
"""
import random

import fanorona as fa


class MyPlayer:
    name = "my player"

    def __init__(self):
        self.rng = random.Random(1)

    def choose_turn(self, board):
        """A legal whole turn for the side to move: one that leaves the opponent fewest stones."""
        opponent = board.to_move.other
        return min(
            board.legal_turns(),
            key=lambda t: (board.after(t).count(opponent), self.rng.random()),
        )

player = MyPlayer()
'''
