"""The board as a graph: points, their names, strong points, directions, neighbours and grid lines.

A Fanorona board of width x height points is a grid whose orthogonal neighbours are always
joined, and whose *strong* points (column + row even, so ``a1`` is strong) are also joined
diagonally.  Everything here depends only on the size, so it is computed once per size.
"""

from __future__ import annotations

import operator
import re
import reprlib
import string
from dataclasses import dataclass, field
from functools import cache

#: The eight directions as (column step, row step), counter-clockwise from east.
#: Rows grow towards Black (row 1 is White's side), columns towards the right of White.
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
DIRECTION_NAMES = (
    "east",
    "north-east",
    "north",
    "north-west",
    "west",
    "south-west",
    "south",
    "south-east",
)
#: The four directions a grid line can run in, read from its first point.
LINE_DIRECTIONS = (0, 1, 2, 3)

#: The widest board: one letter a column.
MAX_WIDTH = len(string.ascii_lowercase)
#: The tallest board, capped like the width so that no text or size can ask for a board so big
#: that building it is the problem (2,001 rows took 11 s and 573 MB before the cap).
MAX_HEIGHT = MAX_WIDTH
_SIZE_TEXT = re.compile(r"([0-9]{1,3})x([0-9]{1,3})", re.ASCII)


def opposite(direction: int) -> int:
    """The direction pointing the other way."""
    return (direction + 4) % 8


def point_name(column: int, row: int) -> str:
    """``(0, 0)`` is ``"a1"``: column letter from White's left, row number from White's side."""
    return f"{string.ascii_lowercase[column]}{row + 1}"


def check_size(size) -> tuple[int, int]:
    """Return ``(width, height)`` from two whole numbers or text like ``"9x5"``, or say what is
    wrong.

    Only true integers count: ``9.0``, ``"9"`` and other digits are refused rather than guessed at.
    """
    if isinstance(size, str) and (m := _SIZE_TEXT.fullmatch(size.strip())):
        size = (int(m[1]), int(m[2]))
    if not isinstance(size, (tuple, list)) or len(size) != 2:
        raise ValueError(
            f"a board size is (width, height), e.g. (9, 5), or text like '9x5'; got "
            f"{short_repr(size)}"
        )
    width, height = (_whole(what, n) for what, n in zip(("width", "height"), size))
    for what, n in (("width", width), ("height", height)):
        if n < 3 or n % 2 == 0:
            raise ValueError(f"the board {what} must be an odd number of at least 3; got {n}")
    if width > MAX_WIDTH:
        raise ValueError(
            f"the board width can be at most {MAX_WIDTH} (one letter per column); got {width}"
        )
    if height > MAX_HEIGHT:
        raise ValueError(
            f"the board height can be at most {MAX_HEIGHT}, like the width; got {height}"
        )
    return width, height


def _whole(what: str, n) -> int:
    """A Python or numpy integer (not a bool, a float or a string of digits) as an int."""
    if not isinstance(n, bool):
        try:
            return operator.index(n)
        except TypeError:
            pass
    raise ValueError(f"the board {what} must be a whole number (an int); got {short_repr(n)}")


def short_repr(value) -> str:
    """A repr short enough for an error message, however long or deeply nested the value."""
    return reprlib.repr(value)


@dataclass(frozen=True, eq=False)
class Geometry:
    """The graph of one board size. Points are numbered ``row * width + column``."""

    width: int
    height: int
    # made from the two above once, in __post_init__ (frozen: through object.__setattr__)
    names: tuple[str, ...] = field(init=False, repr=False)  # point number -> "a1", "b1", ...
    index: dict[str, int] = field(init=False, repr=False)  # point name -> number
    strong: tuple[bool, ...] = field(init=False, repr=False)  # whether a point has diagonals
    neighbour: tuple[tuple[int, ...], ...] = field(
        init=False, repr=False
    )  # [point][direction], -1: none
    ray: tuple[tuple[tuple[int, ...], ...], ...] = field(
        init=False, repr=False
    )  # [point][direction]
    lines: tuple[tuple[int, ...], ...] = field(
        init=False, repr=False
    )  # the grid lines, points in order

    def __post_init__(self):
        w, h = self.width, self.height
        points = range(w * h)
        names = tuple(point_name(i % w, i // w) for i in points)
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "index", {name: i for i, name in enumerate(names)})
        object.__setattr__(self, "strong", tuple((i % w + i // w) % 2 == 0 for i in points))
        object.__setattr__(
            self, "neighbour", tuple(tuple(self._step(i, d) for d in range(8)) for i in points)
        )
        object.__setattr__(
            self, "ray", tuple(tuple(self._ray(i, d) for d in range(8)) for i in points)
        )
        object.__setattr__(self, "lines", self._lines())

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def coordinates(self, point: int) -> tuple[int, int]:
        """``(column, row)`` of a point, both from 0."""
        return point % self.width, point // self.width

    def _step(self, point: int, direction: int) -> int:
        """The neighbour of ``point`` in ``direction``, or -1 where no line goes that way."""
        dc, dr = DIRECTIONS[direction]
        if dc and dr and not self.strong[point]:
            return -1
        c, r = self.coordinates(point)
        c, r = c + dc, r + dr
        if 0 <= c < self.width and 0 <= r < self.height:
            return r * self.width + c
        return -1

    def _ray(self, point: int, direction: int) -> tuple[int, ...]:
        """The points beyond ``point`` along a line, nearest first."""
        out = []
        p = self._step(point, direction)
        while p >= 0:
            out.append(p)
            p = self._step(p, direction)
        return tuple(out)

    def _lines(self) -> tuple[tuple[int, ...], ...]:
        """Every maximal grid line of two or more points, as points in order."""
        return tuple(
            (p,) + self.ray[p][d]
            for d in LINE_DIRECTIONS
            for p in range(self.width * self.height)
            if self._step(p, opposite(d)) < 0 and self._step(p, d) >= 0
        )

    def edges(self) -> list[tuple[int, int]]:
        """Each pair of joined points once."""
        return [
            (p, q)
            for p in range(self.width * self.height)
            for d in range(4)
            if (q := self.neighbour[p][d]) >= 0
        ]

    def symmetries(self) -> list[tuple[int, ...]]:
        """The mirror images and turns of the grid that send lines to lines, as permutations of the
        points, the identity first: they send legal turns to legal turns.

        >>> len(geometry(9, 5).symmetries()), len(geometry(3, 3).symmetries())
        (4, 8)
        """
        w, h = self.width, self.height
        moves = [
            lambda c, r: (c, r),
            lambda c, r: (w - 1 - c, r),
            lambda c, r: (c, h - 1 - r),
            lambda c, r: (w - 1 - c, h - 1 - r),
        ]
        if w == h:
            moves += [
                lambda c, r: (r, c),
                lambda c, r: (w - 1 - r, c),
                lambda c, r: (r, w - 1 - c),
                lambda c, r: (w - 1 - r, w - 1 - c),
            ]
        edges = {frozenset(e) for e in self.edges()}
        maps = [
            tuple(
                row * w + column
                for column, row in (move(*self.coordinates(p)) for p in range(w * h))
            )
            for move in moves
        ]
        return [m for m in maps if {frozenset((m[p], m[q])) for p, q in edges} == edges]


@cache
def geometry(width: int, height: int) -> Geometry:
    """The shared, immutable graph of a board size."""
    return Geometry(*check_size((width, height)))
