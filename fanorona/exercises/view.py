"""The view checker: it reads back what a student's matplotlib function drew and compares it with
the position.

The student draws on a given Axes in data coordinates (column, row) from 0, as ``draw_board``
does: stones as filled markers (``scatter``, ``plot`` markers or ``Circle`` patches), light for
White and dark for Black, and the grid lines as lines (``plot`` or a ``LineCollection``).  The
checker collects every filled marker on a point and every line segment, cut into the unit edges
between neighbouring points, and compares them with the board's stones and the board's graph.
"""
from __future__ import annotations

import io

from ..board import Board
from ..rules import Rules
from .checking import (ExerciseFailed, _Unfinished, board_code, checked_unfinished, fmt, in_notebook,
                       unfinished_guard)
from .samples import sample_boards

#: A filled marker lighter than this is a white stone, darker than DARK a black one; between the
#: two it is some other mark (a point, a highlight) and not a stone.
LIGHT, DARK = 0.6, 0.3


def luminance(rgba) -> float:
    r, g, b = rgba[:3]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def stone_color(rgba) -> str | None:
    """'white', 'black' or None for a marker's face colour (None too when it is see-through)."""
    if rgba is None or len(rgba) < 3 or (len(rgba) == 4 and rgba[3] < 0.5):
        return None
    light = luminance(rgba)
    return "white" if light > LIGHT else "black" if light < DARK else None


def _on_point(board: Board, x, y) -> str | None:
    """The point at data coordinates (x, y), if they are (nearly) whole numbers on the board."""
    c, r = round(float(x)), round(float(y))
    if abs(x - c) > 0.05 or abs(y - r) > 0.05 or not (0 <= c < board.size[0] and 0 <= r < board.size[1]):
        return None
    return board.geometry.names[r * board.size[0] + c]


def drawn_stones(board: Board, ax) -> dict:
    """{point: colour} of the filled markers drawn on points; a later marker covers an earlier one."""
    from matplotlib.collections import PathCollection
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Circle, Ellipse

    marks = []   # (zorder, order, point, colour)
    for n, artist in enumerate(ax.get_children()):
        if isinstance(artist, PathCollection):
            faces = artist.get_facecolors()
            for i, (x, y) in enumerate(artist.get_offsets()):
                if len(faces):
                    marks.append((artist.get_zorder(), n, _on_point(board, x, y), stone_color(faces[i % len(faces)])))
        elif isinstance(artist, (Circle, Ellipse)):
            x, y = artist.center
            marks.append((artist.get_zorder(), n, _on_point(board, x, y),
                          stone_color(artist.get_facecolor()) if artist.get_fill() else None))
        elif hasattr(artist, "get_marker") and hasattr(artist, "get_xydata") and artist.get_marker() not in (None, "None", "", " "):
            face = artist.get_markerfacecolor()
            rgba = None if face in ("none", "None") else to_rgba(face, artist.get_alpha())
            for x, y in artist.get_xydata():
                marks.append((artist.get_zorder(), n, _on_point(board, x, y), stone_color(rgba)))
    stones = {}
    for _z, _n, point, color in sorted(marks, key=lambda m: (m[0], m[1])):
        if point is not None and color is not None:
            stones[point] = color
    return stones


def _segments(ax):
    """Every straight piece of line drawn, as ((x1, y1), (x2, y2))."""
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    for artist in ax.get_children():
        if isinstance(artist, Line2D) and artist.get_linestyle() not in ("None", "", " ", "none"):
            xy = artist.get_xydata()
            yield from zip(map(tuple, xy), map(tuple, xy[1:]))
        elif isinstance(artist, LineCollection):
            for path in artist.get_segments():
                yield from zip(map(tuple, path), map(tuple, path[1:]))


def drawn_edges(board: Board, ax) -> set:
    """The unit edges between points that the drawn lines cover, as frozensets of two point names;
    a line through points that are not neighbours on the board shows up as a pair of them too."""
    edges = set()
    for (x1, y1), (x2, y2) in _segments(ax):
        a, b = _on_point(board, x1, y1), _on_point(board, x2, y2)
        if a is None or b is None or a == b:
            continue
        dx, dy = round(x2 - x1), round(y2 - y1)
        n = max(abs(dx), abs(dy))
        if dx and dy and abs(dx) != abs(dy) or n == 0:
            continue
        ux, uy = dx // n, dy // n
        cx, cy = round(x1), round(y1)
        for _ in range(n):
            p = board.geometry.names[cy * board.size[0] + cx]
            cx, cy = cx + ux, cy + uy
            q = board.geometry.names[cy * board.size[0] + cx]
            edges.add(frozenset((p, q)))
    return edges


def board_edges(board: Board) -> set:
    g = board.geometry
    return {frozenset((g.names[p], g.names[q])) for p, q in g.edges()}


def _view_boards() -> list[Board]:
    """A few boards of every sample size, start and middle game, both colours to move, and one empty."""
    chosen, per_size = [], {}
    for board in sample_boards(Rules.simple()):
        if per_size.get(board.size, 0) < 4:
            per_size[board.size] = per_size.get(board.size, 0) + 1
            chosen.append(board)
    chosen.append(Board.from_diagram(".....\n.....\n....."))
    return chosen


def _figure(board: Board):
    from matplotlib.figure import Figure
    from ..draw import figure_size
    return Figure(figsize=figure_size(board)).add_subplot()


def _show_difference(fn, board: Board, wrong_points, title: str) -> None:
    """Your drawing beside the rules' board with the points that differ ringed."""
    if not in_notebook():
        print(title)
        print(board)
        return
    from IPython.display import Image, display
    from matplotlib.figure import Figure
    from ..draw import draw_board
    w, h = board.size
    fig = Figure(figsize=(2 * (0.75 * w + 0.6), 0.75 * h + 1.2))
    yours, rules = fig.subplots(1, 2)
    try:
        fn(board.copy(), yours)
    except Exception:   # the first call already showed how it failed
        pass
    yours.set_title("your drawing")
    draw_board(board, rules, highlight=sorted(wrong_points), title="the position, differences ringed")
    fig.suptitle(title)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=70, bbox_inches="tight")
    display(Image(buffer.getvalue(), alt=f"{title}. Left: your drawing; right: the position {board.fen()} "
                                         f"with the points that differ ringed: {', '.join(sorted(wrong_points))}."))


@checked_unfinished
def check_view(fn) -> int:
    """Check ``fn(board, ax)``, which draws the board on a matplotlib Axes in data coordinates
    (column, row) from 0: a filled marker on every stone, light for White and dark for Black,
    and every line of the board's graph, no more.  Tried on boards of every sample size."""
    guarded = unfinished_guard(fn)
    n = 0
    for board in _view_boards():
        call = f"draw_position({board_code(board)}, ax)"
        ax = _figure(board)
        try:
            guarded(board.copy(), ax)
        except _Unfinished:
            raise
        except Exception:
            print(f"Input: {call}")
            raise
        n += 1
        expected, actual = {p: c.value for p in board.points if (c := board.stone_at(p))}, drawn_stones(board, ax)
        if actual != expected:
            wrong = {p for p in set(expected) | set(actual) if expected.get(p) != actual.get(p)}
            _show_difference(fn, board, wrong, "The stones differ")
            shown = sorted(wrong, key=lambda p: (p[0], int(p[1:])))[:10]
            more = " ..." if len(wrong) > len(shown) else ""
            print(f"Input:       {call}")
            print(f"Expected:    {fmt({p: expected.get(p) for p in shown})}{more}")
            print(f"Your answer: {fmt({p: actual.get(p) for p in shown})}{more}")
            raise ExerciseFailed(f"The stones drawn for {call} differ from the position. {_stones_hint(board, expected, actual)}")
        lines, drawn = board_edges(board), drawn_edges(board, ax)
        if drawn != lines:
            missing, extra = lines - drawn, drawn - lines
            points = set().union(*missing, *extra)
            _show_difference(fn, board, points, "The lines differ")
            should = [f"lines {_edge_text(missing)}"] * bool(missing) + [f"no lines {_edge_text(extra)}"] * bool(extra)
            drew = [f"no lines {_edge_text(missing)}"] * bool(missing) + [f"lines {_edge_text(extra)}"] * bool(extra)
            print(f"Input:       {call}")
            print(f"Expected:    {'; '.join(should)}")
            print(f"Your answer: {'; '.join(drew)}")
            raise ExerciseFailed(f"The lines drawn for {call} differ from the board's graph. "
                                 f"{_lines_hint(board, missing, extra)}")
    print(f"All {n} cases agree.")
    return n


def _edge_text(edges) -> str:
    return ", ".join(sorted("-".join(sorted(e, key=lambda p: (p[0], int(p[1:])))) for e in edges)[:8]) + \
        (" ..." if len(edges) > 8 else "")


def _stones_hint(board: Board, expected: dict, actual: dict) -> str:
    swap = {"white": "black", "black": "white"}
    if actual and actual == {p: swap[c] for p, c in expected.items()}:
        return "White and Black are swapped: draw White's stones light and Black's dark."
    w, h = board.size
    flipped = {f"{p[0]}{h + 1 - int(p[1:])}": c for p, c in expected.items()}
    if actual == flipped and flipped != expected:
        return "The board is upside down: row 1 is at the bottom, at y = 0, and row numbers grow upwards."
    missing = sorted(set(expected) - set(actual))
    if missing and not (set(actual) - set(expected)):
        return (f"No stone found on {', '.join(missing[:5])}: draw each stone as a filled marker at "
                f"(column, row), light for White and dark for Black.")
    return "Each stone is a filled marker at (column, row) from 0, so a1 is at (0, 0)."


def _lines_hint(board: Board, missing: set, extra: set) -> str:
    g = board.geometry
    diagonal = [e for e in extra if len({p[0] for p in e}) == 2 and len({p[1:] for p in e}) == 2]
    if diagonal:
        weak = sorted(p for e in diagonal for p in e if not g.strong[g.index[p]])
        return (f"There is a diagonal through {weak[0]}, a weak point: diagonals join strong points only "
                f"(column + row even).") if weak else "A drawn diagonal is not a line of the board."
    if missing and all(len({p[0] for p in e}) == 2 and len({p[1:] for p in e}) == 2 for e in missing):
        return "The diagonals are missing: every strong point (column + row even) has its diagonals."
    return "Draw every line of the board's graph between neighbouring points, and nothing else."
