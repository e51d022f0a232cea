"""The matplotlib picture of a board, used by notebooks, ``Board._repr_png_`` and the widget.

One function, ``draw_board``, draws lines, strong points, stones, point names and optional
highlights on an Axes whose data coordinates are (column, row) from 0, so ``(0, 0)`` is a1.
Lines and strings are drawn as one collection each, so a redraw stays fast enough for clicks.
"""
from __future__ import annotations

import io

from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .board import Board

COLORS = {"white": "#f7f3e8", "black": "#222222"}
LINE_COLOR = "#8a6d3b"
BOARD_COLOR = "#e9d7a6"
HIGHLIGHT = "#2a9d8f"
CAPTURE = "#e63946"
MARK = "#f4a261"
NOTE_COLOR = "#5a4a2a"


def xy(board: Board, point: str) -> tuple[int, int]:
    """The data coordinates of a point: (column, row) from 0."""
    return board.geometry.coordinates(board.geometry.index[point])


def draw_board(board: Board, ax=None, *, highlight=(), strings=(), captures=(), arrows=(),
               names: bool = True, strong: bool = False, title: str | None = None, scale: float = 1.0,
               marked=(), notes=(), point_names: bool = False):
    """Draw ``board`` on ``ax`` and return the Axes; with no ``ax``, on a new pyplot figure, so that
    a notebook cell shows it.

    highlight: points to ring; strings: runs of points to outline as strings; captures: points
    whose stones would go (crossed); arrows: (origin, destination) pairs, e.g. a turn's path;
    marked: stones to flag with a dot (e.g. those that must capture); notes: (point, text) pairs
    written beside a point; names: the column letters and row numbers on the axes;
    point_names: every point's name written beside it.
    """
    g = board.geometry
    w, h = g.size
    if ax is None:
        import matplotlib.pyplot as plt
        _fig, ax = plt.subplots(figsize=figure_size(board, scale))
    ax.add_collection(LineCollection([(g.coordinates(p), g.coordinates(q)) for p, q in g.edges()],
                                     colors=LINE_COLOR, linewidths=1.2 * scale, zorder=1))
    if strong:
        sx, sy = zip(*(g.coordinates(p) for p in range(w * h) if g.strong[p]))
        ax.scatter(sx, sy, s=28 * scale ** 2, color=LINE_COLOR, zorder=2, marker="D")
    _draw_strings(board, ax, strings, scale)
    for color, fill in COLORS.items():
        _dots(ax, board, board.stones(color), s=420 * scale ** 2, color=fill, edgecolors="#111111",
              linewidths=1.2 * scale, zorder=3)
    _dots(ax, board, marked, s=90 * scale ** 2, color=MARK, edgecolors="#111111", linewidths=0.8 * scale,
          zorder=4)
    _dots(ax, board, highlight, s=700 * scale ** 2, facecolors="none", edgecolors=HIGHLIGHT,
          linewidths=3 * scale, zorder=4)
    _dots(ax, board, captures, s=260 * scale ** 2, color=CAPTURE, marker="x", linewidths=3 * scale, zorder=5)
    for a, b in arrows:
        (x1, y1), (x2, y2) = xy(board, a), xy(board, b)
        ax.annotate("", (x2, y2), (x1, y1), zorder=6,
                    arrowprops=dict(arrowstyle="-|>", color=HIGHLIGHT, lw=2.5 * scale, shrinkA=8, shrinkB=8))
    labels = [(p, p) for p in g.names] if point_names else []
    for p, text in labels + list(notes):
        x, y = xy(board, p)
        ax.text(x + 0.17, y + 0.17, text, fontsize=8 * scale, color=NOTE_COLOR, zorder=7,
                fontweight="bold" if (p, text) in notes else "normal")
    _frame(ax, w, h, names, scale)
    if title is not None:
        ax.set_title(title, fontsize=11 * scale)
    return ax


def _draw_strings(board: Board, ax, strings, scale: float) -> None:
    """Outline runs of points as broad translucent bands (a one-point run as a round blot)."""
    runs = [[xy(board, p) for p in run] for run in strings]
    long = [run for run in runs if len(run) > 1]
    if long:
        ax.add_collection(LineCollection(long, colors=HIGHLIGHT, linewidths=14 * scale, alpha=0.35,
                                         capstyle="round", zorder=2))
    single = [run[0] for run in runs if len(run) == 1]
    if single:
        xs, ys = zip(*single)
        ax.scatter(xs, ys, s=200 * scale ** 2, color=HIGHLIGHT, alpha=0.35, zorder=2)


def _dots(ax, board: Board, points, **style) -> None:
    """One scatter call for a group of points, nothing for none."""
    pts = [xy(board, p) for p in points]
    if pts:
        xs, ys = zip(*pts)
        ax.scatter(xs, ys, **style)


def _frame(ax, w: int, h: int, names: bool, scale: float) -> None:
    """The wooden board as a patch, column letters and row numbers as plain text beside it (no axis
    ticks: building those is slower than drawing all the rest), equal aspect, half a point of margin."""
    ax.set_axis_off()
    ax.add_patch(Rectangle((-0.6, -0.6), w - 0.8 + 1, h - 0.8 + 1, facecolor=BOARD_COLOR, edgecolor="none",
                           zorder=0))
    if names:
        for c in range(w):
            ax.text(c, -0.68, chr(ord("a") + c), ha="center", va="top", fontsize=10 * scale)
        for r in range(h):
            ax.text(-0.68, r, str(r + 1), ha="right", va="center", fontsize=10 * scale)
    ax.set_xlim(-0.6, w - 0.4)
    ax.set_ylim(-0.6, h - 0.4)
    ax.set_aspect("equal")


def figure_size(board: Board, scale: float = 1.0) -> tuple[float, float]:
    """Inches for a figure holding one board: three quarters of an inch a point."""
    w, h = board.size
    return (0.75 * w * scale + 0.6, 0.75 * h * scale + 0.6)


def board_png(board: Board, **options) -> bytes:
    """The board as PNG bytes, for Jupyter's rich display (a bare Figure: pyplot never sees it)."""
    ax = Figure(figsize=figure_size(board, options.get("scale", 1.0))).add_subplot()
    draw_board(board, ax, title=options.pop("title", f"{board.to_move.value} to move"), **options)
    buffer = io.BytesIO()
    ax.figure.savefig(buffer, format="png", dpi=80, bbox_inches="tight")
    return buffer.getvalue()


__all__ = ["draw_board", "board_png", "figure_size", "xy"]
