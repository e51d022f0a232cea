"""The matplotlib picture of a board, used by notebooks, ``Board._repr_png_`` and the widget.

One function, ``draw_board``, draws lines, strong points, stones, point names and optional
highlights on an Axes whose data coordinates are (column, row) from 0, so ``(0, 0)`` is a1.
Lines and strings are drawn as one collection each, so a redraw stays fast enough for clicks.
The interactive board draws the frame once (``draw_frame``) and, on each click, updates only the
position and its marks (``BoardPicture``), with one meaning for each mark (``LEGEND``); its arrows
are two collections per kind (``Arrows``), made once like the marks.
"""

from __future__ import annotations

import io

import numpy as np
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.path import Path

from ..board import Board

COLORS = {"white": "#f7f3e8", "black": "#222222"}
LINE_COLOR = "#8a6d3b"
BOARD_COLOR = "#e9d7a6"
HIGHLIGHT = "#2a9d8f"
CAPTURE = "#e63946"
MARK = "#f4a261"
NOTE_COLOR = "#5a4a2a"
#: The two kinds of capture, one colour each wherever the board shows them.
KIND_COLORS = {"approach": "#d62828", "withdrawal": "#1f5fbf"}
LAST_COLOR = "#8c8c8c"
#: The step that waits for its capture to be chosen: a dashed arrow and a dot at its end.
WAITING_COLOR = "#333333"


def xy(board: Board, point: str) -> tuple[int, int]:
    """The data coordinates of a point: (column, row) from 0."""
    return board.geometry.coordinates(board.geometry.index[point])


def draw_board(
    board: Board,
    ax=None,
    *,
    highlight=(),
    strings=(),
    captures=(),
    arrows=(),
    names: bool = True,
    strong: bool = False,
    title: str | None = None,
    scale: float = 1.0,
    marked=(),
    notes=(),
    point_names: bool = False,
):
    """Draw ``board`` on ``ax`` and return the Axes; with no ``ax``, on a new pyplot figure, so that
    a notebook cell shows it.

    highlight: points to ring; strings: runs of points to outline as strings; captures: points
    whose stones would go (crossed); arrows: (origin, destination) pairs, e.g. a turn's path;
    marked: stones to flag with a dot (e.g. those that must capture); notes: (point, text) pairs
    written beside a point; names: the column letters and row numbers on the axes;
    point_names: every point's name written beside it.
    """
    g = board.geometry
    if ax is None:
        import matplotlib.pyplot as plt

        _fig, ax = plt.subplots(figsize=figure_size(board, scale))
    draw_frame(ax, g, names=names, strong=strong, scale=scale)
    _draw_strings(board, ax, strings, scale)
    _draw_stones(ax, board, scale)
    _dots(
        ax,
        board,
        marked,
        s=90 * scale**2,
        color=MARK,
        edgecolors="#111111",
        linewidths=0.8 * scale,
        zorder=4,
    )
    _dots(
        ax,
        board,
        highlight,
        s=700 * scale**2,
        facecolors="none",
        edgecolors=HIGHLIGHT,
        linewidths=3 * scale,
        zorder=4,
    )
    _dots(
        ax,
        board,
        captures,
        s=260 * scale**2,
        color=CAPTURE,
        marker="x",
        linewidths=3 * scale,
        zorder=5,
    )
    for a, b in arrows:
        (x1, y1), (x2, y2) = xy(board, a), xy(board, b)
        ax.annotate(
            "",
            (x2, y2),
            (x1, y1),
            zorder=6,
            arrowprops=dict(
                arrowstyle="-|>", color=HIGHLIGHT, lw=2.5 * scale, shrinkA=8, shrinkB=8
            ),
        )
    labels = [(p, p) for p in g.names] if point_names else []
    for p, text in labels + list(notes):
        x, y = xy(board, p)
        ax.text(
            x + 0.17,
            y + 0.17,
            text,
            fontsize=_text_size(8, scale),
            color=NOTE_COLOR,
            zorder=7,
            fontweight="bold" if (p, text) in notes else "normal",
        )
    if title is not None:
        ax.set_title(title, fontsize=_text_size(12, scale), wrap=True)  # never past the edge
    return ax


def _draw_strings(board: Board, ax, strings, scale: float) -> None:
    """Outline runs of points as broad translucent bands (a one-point run as a round blot)."""
    _bands(ax, board, strings, HIGHLIGHT, 14 * scale, 0.35)


def _dots(ax, board: Board, points, **style) -> list:
    """One scatter call for a group of points, nothing for none."""
    pts = [xy(board, p) for p in points]
    if not pts:
        return []
    xs, ys = zip(*pts)
    return [ax.scatter(xs, ys, **style)]


def draw_frame(
    ax,
    g,
    *,
    names: bool = True,
    strong: bool = False,
    point_names: bool = False,
    scale: float = 1.0,
) -> list:
    """The parts that no move changes: the wooden board, its lines, strong points and names.

    Returns the artists made.  Column letters and row numbers are plain text beside the board (no
    axis ticks: building those is slower than drawing all the rest); equal aspect, half a
    point of margin.
    """
    w, h = g.size
    ax.set_axis_off()
    made = [
        ax.add_patch(
            Rectangle(
                (-0.6, -0.6),
                w - 0.8 + 1,
                h - 0.8 + 1,
                facecolor=BOARD_COLOR,
                edgecolor="none",
                zorder=0,
            )
        ),
        ax.add_collection(
            LineCollection(
                [(g.coordinates(p), g.coordinates(q)) for p, q in g.edges()],
                colors=LINE_COLOR,
                linewidths=1.2 * scale,
                zorder=1,
            )
        ),
    ]
    if strong:
        sx, sy = zip(*(g.coordinates(p) for p in range(w * h) if g.strong[p]))
        made.append(ax.scatter(sx, sy, s=28 * scale**2, color=LINE_COLOR, zorder=2, marker="D"))
    if names:
        made += [
            ax.text(
                c, -0.68, chr(ord("a") + c), ha="center", va="top", fontsize=_text_size(10, scale)
            )
            for c in range(w)
        ]
        made += [
            ax.text(-0.68, r, str(r + 1), ha="right", va="center", fontsize=_text_size(10, scale))
            for r in range(h)
        ]
    if point_names:
        made += [
            ax.text(
                x + 0.17, y + 0.17, name, fontsize=_text_size(8, scale), color=NOTE_COLOR, zorder=7
            )
            for name, (x, y) in ((n, g.coordinates(i)) for i, n in enumerate(g.names))
        ]
    ax.set_xlim(-0.6, w - 0.4)
    ax.set_ylim(-0.6, h - 0.4)
    ax.set_aspect("equal")
    return made


def _text_size(points: float, scale: float) -> float:
    """Text grows with a larger board but never shrinks below its size: a small board drawn at
    scale 0.7 must still be readable on a projector."""
    return points * max(scale, 1.0)


def _draw_stones(ax, board, scale: float) -> list:
    made = []
    for color, fill in COLORS.items():
        made += _dots(
            ax,
            board,
            board.stones(color),
            s=420 * scale**2,
            color=fill,
            edgecolors="#111111",
            linewidths=1.2 * scale,
            zorder=3,
        )
    return made


#: The interactive board's round marker, a polygon of 96 sides: matplotlib measures a curved
#: marker's extent again at every draw (0.3 ms a collection of stones), a polygon's from its
#: corners; at a stone's size the two outlines are a hundredth of a pixel apart.
ROUND = Path.unit_regular_polygon(96)

#: What each mark of the interactive board means, in the order a legend lists them (keys of
#: ``fanorona.ui.labels``), with the symbol and colour an HTML legend shows for it.
LEGEND = {
    "must": ("legend_must", "●", MARK),
    "selected": ("legend_selected", "◯", HIGHLIGHT),
    "targets": ("legend_target", "•", HIGHLIGHT),
    "approach": ("legend_approach", "✕", KIND_COLORS["approach"]),
    "withdrawal": ("legend_withdrawal", "✕", KIND_COLORS["withdrawal"]),
    "path": ("legend_path", "➜", HIGHLIGHT),
    "last": ("legend_last", "➜", LAST_COLOR),
    "waiting": ("legend_waiting", "⇢", WAITING_COLOR),
}


class BoardPicture:
    """The interactive board's picture, kept on one Axes and updated in place click by click.

    The frame is drawn once; each mark is one collection made once, whose points change with
    ``update(scene)`` (a ``Controller.scene()``).  The changing artists are marked animated, so a
    figure can draw the frame once, keep it, and redraw only them (blitting).  Each mark has one
    meaning (``LEGEND``): an orange dot, a stone that must capture; a thick ring, the selected
    stone; a small dot, a point it can go to; a cross, a stone a capture takes, red for approach
    and blue for withdrawal.  While a step waits for its choice, the two strings are ringed and
    banded in their colours and lettered A and W, and the waiting step is a dashed arrow.
    """

    def __init__(
        self, ax, geometry, *, strong: bool = False, point_names: bool = False, scale: float = 1.0
    ):
        self.ax, self.scale = ax, scale
        draw_frame(ax, geometry, strong=strong, point_names=point_names, scale=scale)
        s2 = scale**2

        def dots(zorder, marker=ROUND, **style):
            return ax.scatter([], [], zorder=zorder, animated=True, marker=marker, **style)

        def bands(color, width, alpha):
            return (
                ax.add_collection(
                    LineCollection(
                        [],
                        colors=color,
                        linewidths=width,
                        alpha=alpha,
                        capstyle="round",
                        zorder=2,
                        animated=True,
                    )
                ),
                dots(2, s=(width * 1.6) ** 2, color=color, alpha=alpha),
            )

        self.bands = {
            "strings": bands(HIGHLIGHT, 14 * scale, 0.35),
            **{kind: bands(color, 22 * scale, 0.30) for kind, color in KIND_COLORS.items()},
        }
        self.dots = {
            color: dots(3, s=420 * s2, color=fill, edgecolors="#111111", linewidths=1.2 * scale)
            for color, fill in COLORS.items()
        }
        self.dots.update(
            must=dots(4, s=110 * s2, color=MARK, edgecolors="#111111", linewidths=0.8 * scale),
            selected=dots(
                4, s=640 * s2, facecolors="none", edgecolors=HIGHLIGHT, linewidths=4 * scale
            ),
            targets=dots(4, s=150 * s2, color=HIGHLIGHT, edgecolors="white", linewidths=1 * scale),
            waiting=dots(4, s=150 * s2, color=WAITING_COLOR),
            **{
                f"ring_{kind}": dots(
                    5, s=640 * s2, facecolors="none", edgecolors=color, linewidths=4 * scale
                )
                for kind, color in KIND_COLORS.items()
            },
            **{
                f"cross_{kind}": dots(6, s=260 * s2, color=color, marker="x", linewidths=3 * scale)
                for kind, color in KIND_COLORS.items()
            },
        )
        self.letters = {
            kind: ax.text(
                0,
                0,
                kind[0].upper(),
                fontsize=_text_size(16, scale),
                color=color,
                fontweight="bold",
                zorder=8,
                visible=False,
                animated=True,
            )
            for kind, color in KIND_COLORS.items()
        }
        self.title = ax.set_title("", fontsize=_text_size(12, scale), animated=True, wrap=True)
        #: The changing artists under every mark (the bands and the stones), drawn first.
        self.under = [c for pair in self.bands.values() for c in pair] + [
            self.dots[color] for color in COLORS
        ]
        #: The arrows by mark: the legal steps, the last turn, the chain's path, the waiting step.
        self.arrows = {
            "legal": Arrows(ax, HIGHLIGHT, 1.2 * scale, head=0.13, alpha=0.45),
            "last": Arrows(ax, LAST_COLOR, 2.5 * scale),
            "path": Arrows(ax, HIGHLIGHT, 2.5 * scale),
            "waiting": Arrows(ax, WAITING_COLOR, 2.5 * scale, linestyle="--"),
        }
        changing = (
            [c for pair in self.bands.values() for c in pair]
            + list(self.dots.values())
            + [c for arrows in self.arrows.values() for c in (arrows.shafts, arrows.heads)]
            + list(self.letters.values())
            + [self.title]
        )
        self._changing = sorted(changing, key=lambda artist: artist.get_zorder())  # drawing order
        self._placed: dict = {}  # a collection (a band's name) -> the points it shows

    def update(self, scene: dict) -> list:
        """Show a scene; returns every artist that changes with it (to draw over the kept frame)."""
        board, waiting = scene["board"], scene["waiting"]

        def place(collection, points):
            points = list(points)
            if self._placed.get(collection) == points:
                return  # as it is: setting it again cost a tenth of a click's drawing
            self._placed[collection] = points
            collection.set_offsets([xy(board, p) for p in points] or _EMPTY)
            collection.set_visible(bool(points))  # an empty collection costs a draw too

        for color in COLORS:
            place(self.dots[color], board.stones(color))
        for name in ("must", "targets"):
            place(self.dots[name], scene[name])
        place(self.dots["selected"], [scene["selected"]] if scene["selected"] else [])
        place(self.dots["waiting"], [waiting[1]] if waiting else [])
        self._band("strings", board, scene["strings"])
        for kind in KIND_COLORS:
            place(self.dots[f"cross_{kind}"], scene[kind])
            place(self.dots[f"ring_{kind}"], scene[kind] if waiting else [])
            self._band(kind, board, [scene[kind]] if waiting and scene[kind] else [])
            letter = self.letters[kind]
            letter.set_visible(bool(waiting and scene[kind]))
            if letter.get_visible():
                x, y = xy(board, scene[kind][-1])
                letter.set_position((x + 0.22, y + 0.22))
        self.title.set_text(scene["title"])
        shown = dict(scene, waiting=[waiting] if waiting else [])
        for name, arrows in self.arrows.items():
            arrows.show(board, shown[name])
        return list(self._changing)

    def _band(self, name: str, board, runs) -> None:
        runs = [list(run) for run in runs]
        if self._placed.get(name) == runs:
            return
        self._placed[name] = runs
        lines, blots = self.bands[name]
        long = [[xy(board, p) for p in run] for run in runs if len(run) > 1]
        single = [xy(board, run[0]) for run in runs if len(run) == 1]
        lines.set_segments(long)
        blots.set_offsets(single or _EMPTY)
        lines.set_visible(bool(long))
        blots.set_visible(bool(single))


_EMPTY = np.empty((0, 2))


def _bands(ax, board, runs, color, width: float, alpha: float) -> list:
    """Runs of points as broad translucent bands; a one-point run as a round blot of the same
    width."""
    runs = [[xy(board, p) for p in run] for run in runs if run]
    made = []
    long = [run for run in runs if len(run) > 1]
    if long:
        made.append(
            ax.add_collection(
                LineCollection(
                    long, colors=color, linewidths=width, alpha=alpha, capstyle="round", zorder=2
                )
            )
        )
    single = [run[0] for run in runs if len(run) == 1]
    if single:
        xs, ys = zip(*single)
        made.append(ax.scatter(xs, ys, s=(width * 1.6) ** 2, color=color, alpha=alpha, zorder=2))
    return made


#: How far short of the points it joins an arrow stops, in point spacings (clear of a stone's edge).
ARROW_SHRINK = 0.18


class Arrows:
    """Arrows from point to point on the interactive board, as two collections made once: every
    shaft in one ``LineCollection``, every head (a triangle) in one ``PolyCollection``.

    ``show`` only sets their points.  An annotation per arrow, made anew at each click and its
    path clipped with Bézier arithmetic at each draw, cost most of a click's drawing with the legal
    moves shown.  ``pairs``: the (origin, destination) names shown; ``head``: a head's length in
    point spacings (it is as wide as it is long).
    """

    def __init__(self, ax, color, width: float, *, head: float = 0.17, alpha=None, **style):
        self.head = head
        self.pairs: list[tuple[str, str]] = []
        common = dict(alpha=alpha, zorder=7, animated=True, visible=False)
        self.shafts = ax.add_collection(
            LineCollection([], colors=color, linewidths=width, capstyle="butt", **common, **style)
        )
        self.heads = ax.add_collection(
            PolyCollection([], facecolors=color, edgecolors="none", **common)
        )

    def show(self, board, pairs) -> None:
        """Show an arrow for each (origin, destination) pair, and no other."""
        pairs = [(a, b) for a, b in pairs]
        if pairs == self.pairs:
            return  # shown already (none at first, hidden)
        self.pairs = pairs
        for collection in (self.shafts, self.heads):
            collection.set_visible(bool(self.pairs))
        if not self.pairs:
            return
        ends = np.array([(xy(board, a), xy(board, b)) for a, b in self.pairs], dtype=float)
        along = ends[:, 1] - ends[:, 0]
        along /= np.hypot(along[:, 0], along[:, 1])[:, None]
        across = along[:, ::-1] * (-0.5, 0.5) * self.head
        tip = ends[:, 1] - ARROW_SHRINK * along
        base = tip - self.head * along
        self.shafts.set_segments(np.stack([ends[:, 0] + ARROW_SHRINK * along, base], axis=1))
        self.heads.set_verts(np.stack([tip, base + across, base - across], axis=1))


def figure_size(board: Board, scale: float = 1.0) -> tuple[float, float]:
    """Inches for a figure holding one board: three quarters of an inch a point."""
    w, h = board.size
    return (0.75 * w * scale + 0.6, 0.75 * h * scale + 0.6)


def board_png(board: Board, **options) -> bytes:
    """The board as PNG bytes, for Jupyter's rich display (a bare Figure: pyplot never sees it)."""
    figure = Figure(figsize=figure_size(board, options.get("scale", 1.0)))
    ax = figure.add_subplot()
    draw_board(board, ax, title=options.pop("title", f"{board.to_move.value} to move"), **options)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80, bbox_inches="tight")
    return buffer.getvalue()


__all__ = [
    "ARROW_SHRINK",
    "LEGEND",
    "Arrows",
    "BoardPicture",
    "board_png",
    "draw_board",
    "draw_frame",
    "figure_size",
    "xy",
]
