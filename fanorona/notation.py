"""Text forms: point names, turn text, diagrams and the one-line position text.

Pure text in and out; ``Board`` turns these into positions and turns.  Every reading
function raises ``NotationError`` naming the character or line it could not read, and refuses
a text longer than ``MAX_TEXT`` before reading it.
"""

from __future__ import annotations

import re

from .geometry import MAX_HEIGHT, MAX_WIDTH, short_repr

STONES = {"W": "white", "B": "black", ".": None}
SYMBOL = {"white": "W", "black": "B", None: "."}
CAPTURE_LETTERS = {"A": "approach", "W": "withdrawal"}
CAPTURE_LETTER: dict[str | None, str] = {v: k for k, v in CAPTURE_LETTERS.items()}
SIDE_LETTERS = {"w": "white", "b": "black"}

_POINT = re.compile(r"[a-z][1-9][0-9]*", re.ASCII)
#: The longest text read: room for the biggest board's diagram, spaced and indented, and for
#: the longest turn (each step captures, so a turn has fewer steps than the board has points).
MAX_TEXT = 8 * MAX_WIDTH * MAX_HEIGHT
_ROW_DIGITS = len(str(MAX_HEIGHT))


class NotationError(ValueError):
    """A text could not be read as a point, a turn, a diagram or a position."""


def parse_point_name(text: str) -> tuple[int, int]:
    """``"c4"`` -> ``(2, 3)``: column and row from 0."""
    if not isinstance(text, str) or len(text) > 1 + _ROW_DIGITS or not _POINT.fullmatch(text):
        raise NotationError(
            f"{short_repr(text)} is not a point name: a column letter and a row number "
            f"up to {MAX_HEIGHT}, like 'e3'"
        )
    return ord(text[0]) - ord("a"), int(text[1:]) - 1


def _check_length(text: str, what: str) -> None:
    if len(text) > MAX_TEXT:
        raise NotationError(
            f"{what} is at most {MAX_TEXT:,} characters (the biggest board is "
            f"{MAX_WIDTH}x{MAX_HEIGHT}); this one has {len(text):,}"
        )


def tokenize_turn(text: str) -> tuple[str, list[tuple[str, str | None]]]:
    """Split turn text into its start point and each step's (destination, capture or None).

    ``"e2e3Ad4W"`` -> ``("e2", [("e3", "approach"), ("d4", "withdrawal")])``.
    """
    if not isinstance(text, str):
        raise NotationError(
            f"a turn is written as text like 'e2e3' or 'e2e3Ad4W'; got {short_repr(text)}"
        )
    _check_length(text, "a turn's text")
    text = text.strip()
    points: list[str] = []
    captures: list[str | None] = []
    i = 0
    while i < len(text):
        m = _POINT.match(text, i)
        if m and len(m.group()) > 1 + _ROW_DIGITS:
            raise NotationError(
                f"cannot read {short_repr(text)} at character {i + 2}: the row number "
                f"{short_repr(m.group()[1:])} is too big, a board has at most {MAX_HEIGHT} rows"
            )
        if m:
            points.append(m.group())
            captures.append(None)
            i = m.end()
        elif text[i] in CAPTURE_LETTERS and len(points) >= 2 and captures[-1] is None:
            captures[-1] = CAPTURE_LETTERS[text[i]]
            i += 1
        else:
            raise NotationError(_unreadable(text, i))
    if len(points) < 2:
        raise NotationError(
            f"{short_repr(text)} needs a start point and at least one destination, like 'e2e3'"
        )
    return points[0], list(zip(points[1:], captures[1:]))


def _unreadable(text: str, i: int) -> str:
    ch = text[i]
    hint = (
        "A (approach) or W (withdrawal) can only follow a destination, once"
        if ch in CAPTURE_LETTERS
        else "points are a lower-case column letter and a row number; A or W after a capturing step"
    )
    return f"cannot read {short_repr(text)} at character {i + 1} ({ch!r}): {hint}"


def parse_diagram(text: str) -> list[list[str | None]]:
    """Rows top first, one character a point (W, B or '.'): returns rows bottom first, as
    colours."""
    if not isinstance(text, str):
        raise NotationError(f"a diagram is text, one line a row; got {short_repr(text)}")
    _check_length(text, "a diagram")
    lines = [line.strip().replace(" ", "") for line in text.strip().splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        raise NotationError("the diagram is empty")
    width = len(lines[0])
    if len(lines) > MAX_HEIGHT:
        raise NotationError(f"the diagram has {len(lines)} rows; a board has at most {MAX_HEIGHT}")
    if width > MAX_WIDTH:
        raise NotationError(
            f"diagram line 1 has {width} points; a board has at most {MAX_WIDTH} columns"
        )
    rows = []
    for n, line in enumerate(lines, 1):
        if len(line) != width:
            raise NotationError(f"diagram line {n} has {len(line)} points, but line 1 has {width}")
        for col, ch in enumerate(line):
            if ch not in STONES:
                raise NotationError(
                    f"diagram line {n}, column {col + 1}: {ch!r} is not W, B or '.'"
                )
        rows.append([STONES[ch] for ch in line])
    return rows[::-1]


def format_diagram(rows_bottom_first) -> str:
    """The inverse of ``parse_diagram``."""
    return "\n".join("".join(SYMBOL[c] for c in row) for row in reversed(rows_bottom_first))


def parse_fen(text: str) -> tuple[str, str]:
    """``"BBB/B.W/WWW w"`` -> (diagram text, side to move)."""
    if isinstance(text, str):
        _check_length(text, "a position text")
    if not isinstance(text, str) or len(text.split()) != 2:
        raise NotationError(
            f"a position text is rows top first joined by '/', a space, then w or b; "
            f"got {short_repr(text)}"
        )
    rows, side = text.split()
    if side not in SIDE_LETTERS:
        raise NotationError(
            f"the side to move in {short_repr(text)} must be 'w' or 'b', not {short_repr(side)}"
        )
    return "\n".join(rows.split("/")), SIDE_LETTERS[side]


def format_fen(diagram: str, to_move: str) -> str:
    return diagram.replace("\n", "/") + " " + to_move[0]
