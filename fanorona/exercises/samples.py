"""The positions the checkers try: what can go wrong, sampled on purpose.

The start positions and the teaching positions; seeded random games on several sizes, a tall
board of 11 rows among them (so a row number of two digits comes up); and on every size built
positions where one stone faces an enemy string that fills the rest of a long line (the middle
row, the middle column, the long diagonal), by approach and by withdrawal, for both colours, so
the longest captures and strings of each size come up, edge to edge.
"""

from __future__ import annotations

import random
from functools import cache

from .. import positions
from ..board import Board
from ..geometry import geometry
from ..rules import Rules

#: Board sizes the neighbour checker walks through: small and large, wide and tall (>= 10 rows).
NEIGHBOUR_SIZES = ((3, 3), (5, 3), (3, 5), (5, 5), (7, 3), (9, 5), (11, 7), (3, 11), (5, 13))
#: Board sizes of the seeded random games and the built long lines.
GAME_SIZES = ((3, 3), (5, 3), (5, 5), (7, 5), (9, 5), (5, 11))
GAMES_PER_SIZE = 2
MAX_TURNS = 24


def random_game_fens(
    size, seed: int, rules: Rules | None = None, max_turns: int = MAX_TURNS
) -> list[str]:
    """The positions of one seeded random game, one per completed turn (the last may be its end)."""
    rng = random.Random(seed)
    board = Board(size, rules)
    fens = []
    for _ in range(max_turns):
        turns = board.legal_turns()
        if not turns:
            break
        board.push(rng.choice(turns))
        fens.append(board.fen())
    return fens


def long_lines(width: int, height: int) -> list[tuple[str, ...]]:
    """The middle row, the middle column and the longest diagonal of a size, as point names."""
    g = geometry(width, height)
    lines = [tuple(g.names[p] for p in line) for line in g.lines]
    row = next(line for line in lines if line[0] == f"a{height // 2 + 1}" and line[-1][0] != "a")
    column = next(
        line
        for line in lines
        if line[0] == f"{chr(ord('a') + width // 2)}1" and line[-1][0] == line[0][0]
    )
    diagonal = max(
        (line for line in lines if line[0][0] != line[-1][0] and line[0][1:] != line[-1][1:]),
        key=len,
    )
    return [row, column, diagonal]


def line_fens(width: int, height: int) -> list[str]:
    """On each long line, a stone at one end (or one point in) facing an enemy string that fills
    the rest: the longest approach and withdrawal the line allows, both colours to move.  A spare
    stone of each colour off the line keeps the game going."""
    found = []
    for line in long_lines(width, height):
        spare = [p for p in geometry(width, height).names if p not in line]
        for mover, enemy in (("W", "B"), ("B", "W")):
            for kind in ("approach", "withdrawal"):
                rows = [["."] * width for _ in range(height)]

                def put(point, stone):
                    rows[height - int(point[1:])][ord(point[0]) - ord("a")] = stone  # noqa: B023

                put(line[0] if kind == "approach" else line[1], mover)
                for point in line[2:]:
                    put(point, enemy)
                put(spare[0], mover)
                put(spare[-1], enemy)
                found.append("/".join("".join(r) for r in rows) + " " + mover.lower())
    return found


@cache
def sample_fens() -> tuple[tuple[str, str], ...]:
    """(position text, rules preset) of every sample position, without repeats, in a fixed order."""
    found: dict[str, str] = {}
    for name in positions.names():
        board = positions.load(name)
        found.setdefault(board.fen(), positions.POSITIONS[name].rules)
    for n, size in enumerate(GAME_SIZES):
        for fen in line_fens(*size):
            found.setdefault(fen, "standard")
        for game in range(GAMES_PER_SIZE):
            for fen in random_game_fens(size, seed=1000 * n + game):
                found.setdefault(fen, "standard")
    return tuple(found.items())


def sample_boards(rules: Rules | None = None) -> list[Board]:
    """Fresh boards of every sample position (with ``rules`` if given, else each one's own)."""
    return [
        Board.from_fen(fen, rules if rules is not None else Rules.named(preset))
        for fen, preset in sample_fens()
    ]


@cache
def ended_game_fens() -> tuple[str, ...]:
    """Last positions of seeded random games of the simple game played to their end on small
    boards: the side to move has no stone left or no step."""
    found = []
    for n, size in enumerate(((3, 3), (5, 3), (3, 5), (5, 5))):
        for seed in range(6):
            fens = random_game_fens(size, 7000 + 100 * n + seed, Rules.simple(), max_turns=400)
            if fens and Board.from_fen(fens[-1], Rules.simple()).outcome() is not None:
                found.append(fens[-1])
    return tuple(dict.fromkeys(found))
