"""What a matplotlib drawing shows, as plain data: the view checkers read the student's picture
through this, in the kernel and in the grader's sandboxed worker alike, so the picture crosses to
the grader as numbers and the comparison stays there.

``take(draw, figsize)`` makes an Axes, lets ``draw(ax)`` draw on it, lays it out and describes it
(``describe``): every filled mark on a place (its data coordinates, face colour, width in
typographic points, drawing order) and every straight piece of line.  ``layout`` says where a
figure puts data coordinates, ``place`` where a click near a point lands (worked out from that
plain data, by the grader), and ``press`` sends a synthetic left click there.
"""

from __future__ import annotations

import math
import sys
from typing import Any

#: Marks and line pieces described at most (a drawing with more is cut; it is wrong anyway).
MOST = 20_000


def unit_in_points(ax) -> float:
    """The distance between neighbouring points (one data unit), in typographic points."""
    origin, right, up = ax.transData.transform([(0, 0), (1, 0), (0, 1)])
    pixels = min(abs(right[0] - origin[0]), abs(up[1] - origin[1]))
    return float(pixels * 72 / ax.figure.dpi) if math.isfinite(pixels) and pixels > 0 else 0.0


def _rgba(colour) -> list[float] | None:
    return None if colour is None else [float(c) for c in colour]


def _marks(ax):
    """[zorder, order, x, y, face rgba or None, width in points] of every mark drawn at a place:
    scatter markers, line markers, circle and ellipse patches, and the shapes of other patch
    collections (a PatchCollection of circles)."""
    import numpy as np  # here, not at the top: the rules notebooks' checkers run without numpy
    from matplotlib.collections import Collection, LineCollection, PathCollection
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Circle, Ellipse

    unit = unit_in_points(ax)
    to_data = ax.transData.inverted()
    for n, artist in enumerate(ax.get_children()):
        z = float(artist.get_zorder())
        if isinstance(artist, PathCollection):
            faces, sizes = artist.get_facecolor(), artist.get_sizes()
            given: np.ndarray = np.ma.asarray(artist.get_offsets(), dtype=float)
            offsets: np.ndarray = np.ma.filled(given, np.nan)
            for i, (x, y) in enumerate(offsets[:MOST]):
                if len(faces):
                    width = math.sqrt(sizes[i % len(sizes)]) if len(sizes) else 6.0
                    yield [z, n, float(x), float(y), _rgba(faces[i % len(faces)]), float(width)]
        elif isinstance(artist, Collection) and not isinstance(artist, LineCollection):
            faces, transform = artist.get_facecolor(), artist.get_transform()
            for i, path in enumerate(artist.get_paths()[:MOST]):
                box = transform.transform_path(path).get_extents()
                x, y = to_data.transform(((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2))
                width = min(box.width, box.height) * 72 / ax.figure.dpi
                face = _rgba(faces[i % len(faces)]) if len(faces) else None
                yield [z, n, float(x), float(y), face, float(width)]
        elif isinstance(artist, (Circle, Ellipse)):
            x, y = artist.center
            width = (
                2 * artist.radius * unit
                if isinstance(artist, Circle)
                else min(artist.width, artist.height) * unit
            )
            face = _rgba(artist.get_facecolor()) if artist.get_fill() else None
            yield [z, n, float(x), float(y), face, float(width)]
        elif (
            hasattr(artist, "get_marker")
            and hasattr(artist, "get_xydata")
            and artist.get_marker() not in (None, "None", "", " ")
        ):
            face = artist.get_markerfacecolor()
            rgba = None if face in ("none", "None") else _rgba(to_rgba(face, artist.get_alpha()))
            for x, y in artist.get_xydata()[:MOST]:
                yield [z, n, float(x), float(y), rgba, float(artist.get_markersize())]


def _segments(ax):
    """[x1, y1, x2, y2] of every straight piece of line drawn, finite ends only (NaN ends a
    piece)."""
    import numpy as np
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    pieces: list[np.ndarray] = []
    for artist in ax.get_children():
        if isinstance(artist, Line2D) and artist.get_linestyle() not in ("None", "", " ", "none"):
            pieces.append(np.asarray(artist.get_xydata()))
        elif isinstance(artist, LineCollection):
            pieces += list(artist.get_segments())
    for path in pieces:
        for (x1, y1), (x2, y2) in zip(map(tuple, path), map(tuple, path[1:])):
            if all(math.isfinite(v) for v in (x1, y1, x2, y2)):
                yield [float(x1), float(y1), float(x2), float(y2)]


def describe(ax) -> dict:
    """The laid-out Axes as plain data: ``unit`` (points a data unit), ``marks``, ``segments``
    (each cut to ``MOST``)."""
    marks: list[list] = []
    segments: list[list[float]] = []
    for mark in _marks(ax):
        if len(marks) >= MOST:
            break
        marks.append(mark)
    for piece in _segments(ax):
        if len(segments) >= MOST:
            break
        segments.append(piece)
    return {"unit": unit_in_points(ax), "marks": marks, "segments": segments}


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


def _drew_elsewhere(before: dict) -> bool:
    """Close the pyplot figures made since ``before``; whether a pyplot Axes got new artists."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return False
    from matplotlib._pylab_helpers import Gcf

    after = _pyplot_marks()
    grew = any(n > before.get(a, 0) for a, n in after.items())
    for manager in Gcf.get_all_fig_managers():
        if all(a not in before for a in manager.canvas.figure.axes):
            plt.close(manager.canvas.figure)
    return grew


def take(draw, figsize) -> dict:
    """Let ``draw(ax)`` draw on a new Axes of a figure ``figsize`` inches large, lay it out, and
    describe it: ``{"picture": describe(ax), "elsewhere": it drew nothing on ``ax`` but on a
    pyplot Axes}``, or ``{"unlaid": why matplotlib cannot lay it out, ...}``."""
    from matplotlib.figure import Figure

    ax = Figure(figsize=tuple(figsize)).add_subplot()
    before = _pyplot_marks()
    draw(ax)
    drawn = bool(ax.lines or ax.collections or ax.patches or ax.images)
    elsewhere = _drew_elsewhere(before) and not drawn
    return {**laid_out(ax), "elsewhere": elsewhere}


def laid_out(ax) -> dict:
    """Lay the figure out as drawing would (limits, colours through a colour map), without pixels:
    ``{"picture": ...}``, or ``{"unlaid": why}`` when matplotlib cannot draw it."""
    try:
        ax.figure.draw_without_rendering()
    except Exception as e:  # the student's artists: the reason is the answer
        return {"unlaid": f"{type(e).__name__}: {e}"[:600]}
    return {"picture": describe(ax)}


def figure_axes(fig):
    """The first Axes of the Figure ``fig``, or None when it is no Figure with an Axes."""
    from matplotlib.figure import Figure

    return fig.axes[0] if isinstance(fig, Figure) and fig.axes else None


#: Where a click lands from its point, in units of the points' spacing (column, row), taken in
#: turn by the point's place: on the point, and off it in each direction, as a hand clicks. A
#: program must round to the nearest point: truncating (``int``) misses the ones below or left.
NUDGES = ((0.0, 0.0), (-0.3, -0.25), (0.3, -0.3), (-0.25, 0.3), (0.3, 0.3))


def layout(fig) -> dict | None:
    """Where the first Axes of the Figure ``fig`` puts data coordinates on the canvas, as plain
    data: the display pixels of (0, 0), (1, 0) and (0, 1), and the Axes' limits; None when
    ``fig`` is no Figure with an Axes.  The grader places its clicks from this (``place``)."""
    ax = figure_axes(fig)
    if ax is None:
        return None
    origin, right, up = ax.transData.transform([(0, 0), (1, 0), (0, 1)])
    return {
        "pixels": [[float(v) for v in p] for p in (origin, right, up)],
        "xlim": [float(v) for v in ax.get_xlim()],
        "ylim": [float(v) for v in ax.get_ylim()],
    }


def _numbers(value, n: int) -> list[float] | None:
    if not (isinstance(value, list) and len(value) == n):
        return None
    if not all(type(v) in (int, float) and math.isfinite(v) for v in value):
        return None
    return [float(v) for v in value]


def place(shown, point: str) -> tuple[float, float] | None:
    """The display pixels of a click near ``point`` (column, row from 0) on a figure laid out as
    ``shown`` (``layout``'s plain data, read strictly: it may come from the student's side): on
    the point or up to a third of the spacing off it (``NUDGES``), inside the Axes, the same for
    a point always; None when ``shown`` is no layout."""
    if not isinstance(shown, dict):
        return None
    pixels = shown.get("pixels")
    corners = [_numbers(p, 2) for p in pixels] if isinstance(pixels, list) else []
    xlim, ylim = _numbers(shown.get("xlim"), 2), _numbers(shown.get("ylim"), 2)
    if len(corners) != 3 or None in corners or xlim is None or ylim is None:
        return None
    (x0, y0), (x1, y1), (x2, y2) = corners  # type: ignore[misc]
    column, row = ord(point[0]) - ord("a"), int(point[1:]) - 1
    dx, dy = NUDGES[(2 * column + row) % len(NUDGES)]
    # a hand clicks inside the Axes: at an edge of the drawing the nudge goes inwards
    (left, right), (bottom, top) = sorted(xlim), sorted(ylim)
    dx = dx if left < column + dx < right else -dx
    dy = dy if bottom < row + dy < top else -dy
    x, y = column + dx, row + dy
    return x0 + x * (x1 - x0) + y * (x2 - x0), y0 + x * (y1 - y0) + y * (y2 - y0)


def press(fig, x: float, y: float) -> None:
    """A left button press at display pixels (x, y) on the Figure ``fig``'s canvas, handed to
    whatever the figure connected to ``button_press_event``."""
    from matplotlib.backend_bases import MouseButton, MouseEvent

    # pixels as fractions, as a real event may give them (matplotlib's stubs say int)
    px: Any = x
    py: Any = y
    event = MouseEvent("button_press_event", fig.canvas, px, py, button=MouseButton.LEFT)
    fig.canvas.callbacks.process("button_press_event", event)


def click_at(fig, point: str) -> None:
    """A left click near ``point`` on the figure's first Axes, where ``place`` puts it."""
    where = place(layout(fig), point)
    if where is not None:
        press(fig, *where)
