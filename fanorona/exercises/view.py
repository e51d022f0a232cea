"""The view checker: it reads back what a student's matplotlib function drew and compares it with
the position.

The student draws on a given Axes in data coordinates (column, row) from 0, as ``draw_board``
does: stones as filled markers (``scatter``, ``plot`` markers or ``Circle`` patches), light for
White and dark for Black, and the grid lines as lines (``plot`` or a ``LineCollection``).  The
checker lays the figure out (so colours mapped through a colour map are known), collects every
filled marker on a point that is big enough to be a stone (small dots on points are not stones)
and every line segment (NaN-separated pieces apart, infinite ends ignored), cut into the unit
edges between neighbouring points, and compares them with the board's stones and graph.
"""

from __future__ import annotations

import io
import math
import sys

import numpy as np

from ..board import Board
from ..rules import Rules
from .checking import (
    ExerciseFailed,
    Guard,
    board_code,
    board_state,
    checked,
    cut,
    fmt,
    in_notebook,
    unchanged,
)
from .samples import sample_boards

#: A filled marker lighter than this is a white stone, darker than DARK a black one; between the
#: two it is some other mark (a point, a highlight) and not a stone.
LIGHT, DARK = 0.6, 0.3
#: A marker narrower than this (in the distance between neighbouring points), or than half the
#: widest marker drawn, is a dot on a point, not a stone.
SMALLEST_STONE = 0.15
#: How far (in the distance between points) a coordinate may be from a point or the board's edge.
NEAR = 0.05
#: Seconds one drawing may take (the first one lays out fonts, which can be slow).
VIEW_CALL_LIMIT = 20.0


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
    x, y = float(x), float(y)
    if not (math.isfinite(x) and math.isfinite(y)):
        return None
    c, r = round(x), round(y)
    if (
        abs(x - c) > NEAR
        or abs(y - r) > NEAR
        or not (0 <= c < board.size[0] and 0 <= r < board.size[1])
    ):
        return None
    return board.geometry.names[r * board.size[0] + c]


def _unit_in_points(ax) -> float:
    """The distance between neighbouring points, in typographic points, as laid out."""
    origin, right, up = ax.transData.transform([(0, 0), (1, 0), (0, 1)])
    pixels = min(abs(right[0] - origin[0]), abs(up[1] - origin[1]))
    return pixels * 72 / ax.figure.dpi if math.isfinite(pixels) and pixels > 0 else 0.0


def _marks(board: Board, ax):
    """(zorder, order, point, colour, width in points) of every marker drawn on a point."""
    from matplotlib.collections import PathCollection
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Circle, Ellipse

    unit = _unit_in_points(ax)
    for n, artist in enumerate(ax.get_children()):
        if isinstance(artist, PathCollection):
            faces, sizes = artist.get_facecolor(), artist.get_sizes()
            for i, (x, y) in enumerate(
                np.ma.filled(np.ma.asarray(artist.get_offsets(), dtype=float), np.nan)
            ):
                if len(faces):
                    width = math.sqrt(sizes[i % len(sizes)]) if len(sizes) else 6.0
                    yield (
                        artist.get_zorder(),
                        n,
                        _on_point(board, x, y),
                        stone_color(faces[i % len(faces)]),
                        width,
                    )
        elif isinstance(artist, (Circle, Ellipse)):
            x, y = artist.center
            width = (
                2 * artist.radius * unit
                if isinstance(artist, Circle)
                else min(artist.width, artist.height) * unit
            )
            yield (
                artist.get_zorder(),
                n,
                _on_point(board, x, y),
                stone_color(artist.get_facecolor()) if artist.get_fill() else None,
                width,
            )
        elif (
            hasattr(artist, "get_marker")
            and hasattr(artist, "get_xydata")
            and artist.get_marker() not in (None, "None", "", " ")
        ):
            face = artist.get_markerfacecolor()
            rgba = None if face in ("none", "None") else to_rgba(face, artist.get_alpha())
            for x, y in artist.get_xydata():
                yield (
                    artist.get_zorder(),
                    n,
                    _on_point(board, x, y),
                    stone_color(rgba),
                    artist.get_markersize(),
                )


def drawn_stones(board: Board, ax) -> dict:
    """{point: colour} of the filled markers drawn on points that are big enough to be stones; a
    later marker covers an earlier one.  Lay the figure out first (``laid_out``)."""
    marks = [m for m in _marks(board, ax) if m[2] is not None and m[3] is not None]
    unit = _unit_in_points(ax)
    widest = max((m[4] for m in marks), default=0.0)
    return {
        point: color
        for _z, _n, point, color, width in sorted(marks, key=lambda m: (m[0], m[1]))
        if width >= SMALLEST_STONE * unit and width >= widest / 2
    }


def laid_out(ax) -> None:
    """Lay the figure out as drawing would (limits, colours through a colour map), without
    pixels."""
    ax.figure.draw_without_rendering()


def _segments(ax):
    """Every straight piece of line drawn, as ((x1, y1), (x2, y2)); NaN ends a piece."""
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    pieces: list[np.ndarray] = []
    for artist in ax.get_children():
        if isinstance(artist, Line2D) and artist.get_linestyle() not in ("None", "", " ", "none"):
            pieces.append(np.asarray(artist.get_xydata()))  # an array already; typed ArrayLike
        elif isinstance(artist, LineCollection):
            pieces += list(artist.get_segments())
    for path in pieces:
        for (x1, y1), (x2, y2) in zip(map(tuple, path), map(tuple, path[1:])):
            if all(math.isfinite(v) for v in (x1, y1, x2, y2)):
                yield (float(x1), float(y1)), (float(x2), float(y2))


def _grid_direction(dx: float, dy: float):
    """(ux, uy) of a grid line's direction (one of E, N, NE, SE) for a segment, or None."""
    length = max(abs(dx), abs(dy))
    if length < NEAR:
        return None
    if dx < 0 or (dx == 0 and dy < 0):
        dx, dy = -dx, -dy
    ux, uy = dx / length, dy / length
    for gx, gy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        if abs(ux - gx) < 0.01 and abs(uy - gy) < 0.01:
            return gx, gy
    return None


def drawn_edges(board: Board, ax) -> tuple[set, list]:
    """The unit edges between points that the drawn lines cover, as frozensets of two point names
    (a line through points that are not neighbours on the board shows up as a pair of them too),
    and the pieces of grid line drawn outside the board, as ((x1, y1), (x2, y2))."""
    width, height = board.size
    edges, outside = set(), []
    for (x1, y1), (x2, y2) in _segments(ax):
        direction = _grid_direction(x2 - x1, y2 - y1)
        if direction is None:
            continue
        ux, uy = direction
        if (x2 - x1) * ux + (y2 - y1) * uy < 0:
            (x1, y1), (x2, y2) = (x2, y2), (x1, y1)
        # a lattice point on the line, and the segment as the range [t1, t2] of steps from it
        if ux == 0:
            base, t1, t2 = (round(x1), 0), y1, y2
            on_lattice = abs(x1 - round(x1)) <= NEAR
        else:
            base_y = y1 - uy * x1
            base, t1, t2 = (0, round(base_y)), x1, x2
            on_lattice = abs(base_y - round(base_y)) <= NEAR
        if not on_lattice:
            continue  # a frame or some other line between the points
        ends = [(base[0] + ux * t, base[1] + uy * t) for t in (t1, t2)]
        if any(
            x < -NEAR or y < -NEAR or x > width - 1 + NEAR or y > height - 1 + NEAR for x, y in ends
        ):
            outside.append(((x1, y1), (x2, y2)))
        for k in range(math.ceil(t1 - NEAR), math.floor(t2 + NEAR)):
            a = _on_point(board, base[0] + ux * k, base[1] + uy * k)
            b = _on_point(board, base[0] + ux * (k + 1), base[1] + uy * (k + 1))
            if a is not None and b is not None:
                edges.add(frozenset((a, b)))
    return edges, outside


def board_edges(board: Board) -> set:
    g = board.geometry
    return {frozenset((g.names[p], g.names[q])) for p, q in g.edges()}


def _view_boards() -> list[Board]:
    """A few boards of every sample size, start and middle game, both colours to move, and one
    empty."""
    chosen: list[Board] = []
    per_size: dict[tuple[int, int], int] = {}
    for board in sample_boards(Rules.simple()):
        if per_size.get(board.size, 0) < 4:
            per_size[board.size] = per_size.get(board.size, 0) + 1
            chosen.append(board)
    chosen.append(Board.from_diagram(".....\n.....\n....."))
    return chosen


def _figure(board: Board):
    from matplotlib.figure import Figure

    from ..ui.draw import figure_size

    return Figure(figsize=figure_size(board)).add_subplot()


def _show_difference(fn, board: Board, wrong_points, title: str) -> None:
    """Your drawing beside the rules' board with the points that differ ringed."""
    if not in_notebook():
        print(title)
        print(board)
        return
    from IPython.display import Image, display
    from matplotlib.figure import Figure

    from ..ui.draw import draw_board

    w, h = board.size
    fig = Figure(figsize=(2 * (0.75 * w + 0.6), 0.75 * h + 1.2))
    yours, rules = fig.subplots(1, 2)
    try:
        with Guard(VIEW_CALL_LIMIT, VIEW_CALL_LIMIT).running("your drawing"):
            fn(board.copy(), yours)
    except Exception:  # the first call already showed how it failed
        pass
    yours.set_title("your drawing")
    draw_board(
        board, rules, highlight=sorted(wrong_points), title="the position, differences ringed"
    )
    fig.suptitle(title)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=70, bbox_inches="tight")
    display(
        Image(
            buffer.getvalue(),
            alt=(
                f"{title}. Left: your drawing; right: the position {board.fen()} "
                f"with the points that differ ringed: {', '.join(sorted(wrong_points))}."
            ),
        )
    )


def _pyplot_marks() -> dict:
    """{Axes: number of artists} of pyplot's figures, if pyplot is in use (a drawing that went to
    ``plt.gca()`` instead of ``ax`` shows up there)."""
    if "matplotlib.pyplot" not in sys.modules:
        return {}
    from matplotlib._pylab_helpers import Gcf  # pyplot's figures, without making one current

    return {
        ax: len(ax.get_children())
        for manager in Gcf.get_all_fig_managers()
        for ax in manager.canvas.figure.axes
    }


def _drawn_on(ax) -> bool:
    return bool(ax.lines or ax.collections or ax.patches or ax.images)


def _elsewhere(before: dict, ax) -> str:
    """Close the pyplot figures the call made; say so when it drew there and not on ``ax``."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return ""
    from matplotlib._pylab_helpers import Gcf

    after = _pyplot_marks()
    grew = [a for a, n in after.items() if n > before.get(a, 0)]
    for manager in Gcf.get_all_fig_managers():
        if all(a not in before for a in manager.canvas.figure.axes):
            plt.close(manager.canvas.figure)
    if grew and not _drawn_on(ax):
        return (
            "drew nothing on `ax`, but something on another Axes (pyplot's current one, from"
            " plt.plot or plt.scatter): draw with ax.plot, ax.scatter, ax.add_patch."
        )
    return ""


@checked
def check_view(fn, guard: Guard) -> int:
    """Check ``fn(board, ax)``, which draws the board on a matplotlib Axes in data coordinates
    (column, row) from 0: a filled marker on every stone, light for White and dark for Black,
    and every line of the board's graph, no more.  Tried on boards of every sample size."""
    n, guard.call_limit = 0, VIEW_CALL_LIMIT
    for board in _view_boards():
        call = f"draw_position({board_code(board)}, ax)"
        ax = _figure(board)
        given = board.copy()
        before, plotted = [board_state(given), None], _pyplot_marks()
        with guard.running(call, lambda: print(f"Input: {call}")):  # noqa: B023
            fn(given, ax)
        unchanged((given, ax), before, call)
        elsewhere = _elsewhere(plotted, ax)
        if elsewhere:
            print(f"Input: {call}")
            raise ExerciseFailed(f"{call} {elsewhere}")
        try:
            laid_out(ax)
        except Exception as e:
            print(f"Input: {call}")
            raise ExerciseFailed(
                cut(
                    f"Your drawing for {call} cannot be drawn by matplotlib:"
                    f" {type(e).__name__}: {e}",
                    600,
                )
            ) from None
        n += 1
        expected, actual = (
            {p: c.value for p in board.points if (c := board.stone_at(p))},
            drawn_stones(board, ax),
        )
        if actual != expected:
            wrong = {p for p in set(expected) | set(actual) if expected.get(p) != actual.get(p)}
            _show_difference(fn, board, wrong, "The stones differ")
            shown = sorted(wrong, key=lambda p: (p[0], int(p[1:])))[:10]
            more = " ..." if len(wrong) > len(shown) else ""
            print(f"Input:       {call}")
            print(f"Expected:    {fmt({p: expected.get(p) for p in shown})}{more}")
            print(f"Your answer: {fmt({p: actual.get(p) for p in shown})}{more}")
            raise ExerciseFailed(
                f"The stones drawn for {call} differ from the position."
                f" {_stones_hint(board, expected, actual)}"
            )
        lines, (drawn, outside) = board_edges(board), drawn_edges(board, ax)
        if drawn != lines or outside:
            missing, extra = lines - drawn, drawn - lines
            points = set().union(*missing, *extra)
            _show_difference(fn, board, points, "The lines differ")
            should = [f"lines {_edge_text(missing)}"] * bool(missing) + [
                f"no lines {_edge_text(extra)}"
            ] * bool(extra)
            drew = [f"no lines {_edge_text(missing)}"] * bool(missing) + [
                f"lines {_edge_text(extra)}"
            ] * bool(extra)
            if outside:
                should.append("no line outside the board")
                drew.append(f"a line from {_xy(outside[0][0])} to {_xy(outside[0][1])}")
            print(f"Input:       {call}")
            print(f"Expected:    {'; '.join(should)}")
            print(f"Your answer: {'; '.join(drew)}")
            raise ExerciseFailed(
                f"The lines drawn for {call} differ from the board's graph. "
                f"{_lines_hint(board, missing, extra, outside)}"
            )
    return n


def _xy(point) -> str:
    return f"({point[0]:g}, {point[1]:g})"


def _edge_text(edges) -> str:
    return ", ".join(
        sorted("-".join(sorted(e, key=lambda p: (p[0], int(p[1:])))) for e in edges)[:8]
    ) + (" ..." if len(edges) > 8 else "")


def _stones_hint(board: Board, expected: dict, actual: dict) -> str:
    swap = {"white": "black", "black": "white"}
    if actual and actual == {p: swap[c] for p, c in expected.items()}:
        return "White and Black are swapped: draw White's stones light and Black's dark."
    _, h = board.size
    flipped = {f"{p[0]}{h + 1 - int(p[1:])}": c for p, c in expected.items()}
    if actual == flipped and flipped != expected:
        return (
            "The board is upside down: row 1 is at the bottom, at y = 0, and row numbers grow"
            " upwards."
        )
    missing = sorted(set(expected) - set(actual))
    if missing and not (set(actual) - set(expected)):
        return (
            f"No stone found on {', '.join(missing[:5])}: draw each stone as a filled marker at "
            "(column, row), light for White and dark for Black."
        )
    return "Each stone is a filled marker at (column, row) from 0, so a1 is at (0, 0)."


def _lines_hint(board: Board, missing: set, extra: set, outside: list) -> str:
    g = board.geometry
    if outside and not missing and not extra:
        (x1, y1), (x2, y2) = outside[0]
        w, h = board.size
        return (
            f"The line from {_xy((x1, y1))} to {_xy((x2, y2))} goes outside the board: the lines"
            f" end at its edge, from (0, 0) to ({w - 1}, {h - 1})."
        )
    diagonal = [e for e in extra if len({p[0] for p in e}) == 2 and len({p[1:] for p in e}) == 2]
    if diagonal:
        weak = sorted(p for e in diagonal for p in e if not g.strong[g.index[p]])
        return (
            f"There is a diagonal through {weak[0]}, a weak point: diagonals join strong points"
            " only (column + row even)."
            if weak
            else "A drawn diagonal is not a line of the board."
        )
    if missing and all(
        len({p[0] for p in e}) == 2 and len({p[1:] for p in e}) == 2 for e in missing
    ):
        return (
            "The diagonals are missing: every strong point (column + row even) has its diagonals."
        )
    return "Draw every line of the board's graph between neighbouring points, and nothing else."
