"""The view checker: it reads back what a student's matplotlib function drew and compares it with
the position.

The student draws on a given Axes in data coordinates (column, row) from 0, as ``draw_board``
does: stones as filled markers (``scatter``, ``plot`` markers, ``Circle`` patches or a
``PatchCollection`` of them), light for White and dark for Black, and the grid lines as lines
(``plot`` or a ``LineCollection``).  The figure is laid out (so colours mapped through a colour
map are known) and read back as plain data (``fanorona.readback``), in the kernel or in the
grader's sandbox; the checker keeps every filled marker on a point that is big enough to be a
stone (small dots on points are not stones) and every line segment (NaN-separated pieces apart,
infinite ends ignored), cut into the unit edges between neighbouring points, and compares them
with the board's stones and graph.  ``view_cases`` judges each board; ``check_view`` stops at the
first that differs, the grader counts those that agree.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterator

from ..board import Board
from ..readback import take
from ..rules import Rules
from .checking import ExerciseFailed, Guard, board_code, board_state, checked, cut, fmt, in_notebook
from .own_work import kit_use_in_kernel
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


def _number(value) -> float:
    return float(value) if isinstance(value, (int, float)) else math.nan


def _marks(board: Board, picture: dict) -> Iterator[tuple]:
    """(zorder, order, point or None, colour or None, width) of each mark of a picture
    (``readback.describe``'s plain data, read strictly: it may come from the student's side)."""
    for mark in picture.get("marks", []):
        if not (isinstance(mark, list) and len(mark) == 6):
            continue
        z, n, x, y, face, width = mark
        face = [_number(c) for c in face] if isinstance(face, list) else None
        yield _number(z), _number(n), _on_point(board, _number(x), _number(y)), face, _number(width)


def drawn_stones(board: Board, picture: dict) -> dict:
    """{point: colour} of the filled markers drawn on points that are big enough to be stones; a
    later marker covers an earlier one."""
    marks = [
        (z, n, point, colour, width)
        for z, n, point, face, width in _marks(board, picture)
        if point is not None and (colour := stone_color(face)) is not None
    ]
    unit = _number(picture.get("unit", 0.0))
    widest = max((m[4] for m in marks), default=0.0)
    return {
        point: color
        for _z, _n, point, color, width in sorted(marks, key=lambda m: (m[0], m[1]))
        if width >= SMALLEST_STONE * unit and width >= widest / 2
    }


def grey_marks(board: Board, picture: dict) -> list[str]:
    """The points that hold a filled mark big enough to be a stone whose colour is neither light
    nor dark (a stone drawn grey)."""
    unit = _number(picture.get("unit", 0.0))
    return sorted(
        {
            point
            for _z, _n, point, face, width in _marks(board, picture)
            if point is not None
            and face is not None
            and len(face) >= 3
            and (len(face) < 4 or face[3] >= 0.5)
            and stone_color(face) is None
            and width >= SMALLEST_STONE * unit
        },
        key=lambda p: (p[0], int(p[1:])),
    )


def _segments(picture: dict):
    for piece in picture.get("segments", []):
        if isinstance(piece, list) and len(piece) == 4:
            x1, y1, x2, y2 = (_number(v) for v in piece)
            if all(math.isfinite(v) for v in (x1, y1, x2, y2)):
                yield (x1, y1), (x2, y2)


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


def _crosses(board: Board, start, end) -> bool:
    """Whether the segment from ``start`` to ``end`` runs across the board's area (more than
    ``NEAR`` of it inside the rectangle of the points), clipped as Liang and Barsky do."""
    (x1, y1), (x2, y2) = start, end
    dx, dy = x2 - x1, y2 - y1
    width, height = board.size
    low, high = 0.0, 1.0
    for p, q in (
        (-dx, x1 - NEAR),
        (dx, width - 1 - NEAR - x1),
        (-dy, y1 - NEAR),
        (dy, height - 1 - NEAR - y1),
    ):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
    return high - low > 0 and (high - low) * math.hypot(dx, dy) > NEAR


def drawn_edges(board: Board, picture: dict) -> tuple[set, list, list]:
    """The unit edges between points that the drawn lines cover, as frozensets of two point names
    (a line through points that are not neighbours on the board shows up as a pair of them too),
    the pieces of grid line drawn outside the board, and the lines drawn across the board off its
    grid (a long line between far corners, a line between the points), each as ((x1, y1), (x2,
    y2))."""
    width, height = board.size
    edges, outside, stray = set(), [], []
    for (x1, y1), (x2, y2) in _segments(picture):
        direction = _grid_direction(x2 - x1, y2 - y1)
        if direction is None:
            if _crosses(board, (x1, y1), (x2, y2)):
                stray.append(((x1, y1), (x2, y2)))
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
        if not on_lattice:  # a frame around the board, or a line between its points
            if _crosses(board, (x1, y1), (x2, y2)):
                stray.append(((x1, y1), (x2, y2)))
            continue
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
    return edges, outside, stray


def board_edges(board: Board) -> set:
    g = board.geometry
    return {frozenset((g.names[p], g.names[q])) for p, q in g.edges()}


def view_boards() -> list[Board]:
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


def draw_call(board: Board) -> str:
    return f"draw_position({board_code(board)}, ax)"


def _show_difference(redraw, board: Board, wrong_points, title: str) -> None:
    """Your drawing beside the rules' board with the points that differ ringed (``redraw(board,
    ax)`` draws yours again; None where the student's code is not here to call)."""
    if not in_notebook() or redraw is None:
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
            redraw(board.copy(), yours)
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


def view_cases(shoot: Callable[[Board, str], dict], redraw=None) -> Iterator[str | None]:
    """For each board of ``view_boards``, None when the drawing ``shoot(board, call)`` took of it
    (``readback.take``'s answer, with ``changed``: whether the drawing changed the board) shows
    it, else the sentence saying what differs (after printing the difference)."""
    for board in view_boards():
        call = draw_call(board)
        yield judge_view(board, call, shoot(board, call), redraw)


def judge_view(board: Board, call: str, shot: dict, redraw=None) -> str | None:
    """None when ``shot`` shows ``board``, else the sentence (the difference printed first)."""
    if shot.get("changed"):
        return (
            f"{call} changed the board it was given: leave the board as it was and only draw it"
            " (draw from the board's stone_at and size)."
        )
    if shot.get("elsewhere"):
        print(f"Input: {call}")
        return (
            f"{call} drew nothing on `ax`, but something on another Axes (pyplot's current one,"
            " from plt.plot or plt.scatter): draw with ax.plot, ax.scatter, ax.add_patch."
        )
    picture = shot.get("picture")
    if not isinstance(picture, dict):
        print(f"Input: {call}")
        return cut(
            f"Your drawing for {call} cannot be drawn by matplotlib: {shot.get('unlaid')}", 600
        )
    expected = {p: c.value for p in board.points if (c := board.stone_at(p))}
    actual = drawn_stones(board, picture)
    if actual != expected:
        wrong = {p for p in set(expected) | set(actual) if expected.get(p) != actual.get(p)}
        _show_difference(redraw, board, wrong, "The stones differ")
        shown = sorted(wrong, key=lambda p: (p[0], int(p[1:])))[:10]
        more = " ..." if len(wrong) > len(shown) else ""
        print(f"Input:       {call}")
        print(f"Expected:    {fmt({p: expected.get(p) for p in shown})}{more}")
        print(f"Your answer: {fmt({p: actual.get(p) for p in shown})}{more}")
        hint = _stones_hint(board, expected, actual, grey_marks(board, picture))
        return f"The stones drawn for {call} differ from the position. {hint}"
    lines, (drawn, outside, stray) = board_edges(board), drawn_edges(board, picture)
    if drawn != lines or outside or stray:
        missing, extra = lines - drawn, drawn - lines
        points = set().union(*missing, *extra)
        _show_difference(redraw, board, points, "The lines differ")
        should = [f"lines {_edge_text(missing)}"] * bool(missing) + [
            f"no lines {_edge_text(extra)}"
        ] * bool(extra)
        drew = [f"no lines {_edge_text(missing)}"] * bool(missing) + [
            f"lines {_edge_text(extra)}"
        ] * bool(extra)
        if outside:
            should.append("no line outside the board")
            drew.append(f"a line from {_xy(outside[0][0])} to {_xy(outside[0][1])}")
        if stray:
            should.append("no line across the board off its grid")
            drew.append(f"a line from {_xy(stray[0][0])} to {_xy(stray[0][1])}")
        print(f"Input:       {call}")
        print(f"Expected:    {'; '.join(should)}")
        print(f"Your answer: {'; '.join(drew)}")
        return (
            f"The lines drawn for {call} differ from the board's graph. "
            f"{_lines_hint(board, missing, extra, outside, stray)}"
        )
    return None


@checked
def check_view(fn, guard: Guard) -> int:
    """Check ``fn(board, ax)``, which draws the board on a matplotlib Axes in data coordinates
    (column, row) from 0: a filled marker on every stone, light for White and dark for Black,
    and every line of the board's graph, no more (a line across the board off its grid is as
    wrong as a missing one).  Tried on boards of every sample size.

    Partial credit: the share of the boards drawn right."""
    from ..ui.draw import figure_size

    kit_use_in_kernel("check_view", fn)
    guard.call_limit = VIEW_CALL_LIMIT

    def shoot(board: Board, call: str) -> dict:
        given = board.copy()
        before = board_state(given)
        with guard.running(call, lambda: print(f"Input: {call}")):
            shot = take(lambda ax: fn(given, ax), figure_size(board))
        return {**shot, "changed": board_state(given) != before}

    n = 0
    for sentence in view_cases(shoot, fn):
        if sentence is not None:
            raise ExerciseFailed(sentence)
        n += 1
    return n


def _xy(point) -> str:
    return f"({point[0]:g}, {point[1]:g})"


def _edge_text(edges) -> str:
    return ", ".join(
        sorted("-".join(sorted(e, key=lambda p: (p[0], int(p[1:])))) for e in edges)[:8]
    ) + (" ..." if len(edges) > 8 else "")


def _stones_hint(board: Board, expected: dict, actual: dict, grey: list) -> str:
    """The sentence naming the mistake: the colours, the rows, grey stones, or the places."""
    swap = {"white": "black", "black": "white"}
    if actual and actual == {p: swap[c] for p, c in expected.items()}:
        return "White and Black are swapped: draw White's stones light and Black's dark."
    grey_missing = [p for p in grey if p in expected and p not in actual]
    if grey_missing:
        return (
            f"The stone on {grey_missing[0]} is drawn grey, neither light nor dark: draw White's"
            " stones light (such as 'white') and Black's dark (such as 'black')."
        )
    _, h = board.size
    flipped = {f"{p[0]}{h + 1 - int(p[1:])}": c for p, c in expected.items()}
    if actual == flipped and flipped != expected:
        return (
            "The board is upside down: row 1 is at the bottom, at y = 0, and row numbers grow"
            " upwards."
        )
    recoloured = sorted(
        (p for p in expected if p in actual and actual[p] != expected[p]),
        key=lambda p: (p[0], int(p[1:])),
    )
    if recoloured and set(actual) == set(expected):
        p = recoloured[0]
        return (
            f"The stones are on the right points, but the one on {p} is drawn"
            f" {'light' if actual[p] == 'white' else 'dark'}: draw White's stones light (such as"
            " 'white') and Black's dark (such as 'black')."
        )
    missing = sorted(set(expected) - set(actual))
    if missing and not (set(actual) - set(expected)):
        return (
            f"No stone found on {', '.join(missing[:5])}: draw each stone as a filled marker at "
            "(column, row), light for White and dark for Black."
        )
    extra = sorted(set(actual) - set(expected), key=lambda p: (p[0], int(p[1:])))
    where = f"A stone is drawn on {extra[0]}, which is empty" if extra else "Stones are misplaced"
    return f"{where}: each stone is a filled marker at (column, row) from 0, so a1 is at (0, 0)."


def _lines_hint(board: Board, missing: set, extra: set, outside: list, stray: list) -> str:
    g = board.geometry
    if stray and not missing and not extra:
        (x1, y1), (x2, y2) = stray[0]
        return (
            f"The line from {_xy((x1, y1))} to {_xy((x2, y2))} crosses the board but follows no"
            " line of it: draw the lines between neighbouring points, and nothing else."
        )
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
            else f"The diagonal {_edge_text(diagonal[:1])} is not a line of the board."
        )
    if missing and all(
        len({p[0] for p in e}) == 2 and len({p[1:] for p in e}) == 2 for e in missing
    ):
        return (
            "The diagonals are missing: every strong point (column + row even) has its diagonals."
        )
    first_missing = sorted(_edge_text([e]) for e in missing)[:1]
    first_extra = sorted(_edge_text([e]) for e in extra)[:1]
    named = [f"the line {e} is missing" for e in first_missing] + [
        f"the line {e} is not on the board" for e in first_extra
    ]
    if outside:
        named.append(f"the line from {_xy(outside[0][0])} to {_xy(outside[0][1])} is outside it")
    return (
        f"{'; '.join(named).capitalize()}: draw every line of the board's graph between"
        " neighbouring points, and nothing else."
    )
