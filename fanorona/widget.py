"""The interactive board: a game of Fanorona played by clicking, in JupyterLab or Voilà.

Model, view, control.  The model is a ``fanorona.Board`` (or any object following
``fanorona.controller.Model``, such as a student's own class); the control is
``fanorona.controller.Controller``, plain Python that tests drive without a browser; this module
is the view and the wiring: an ipympl canvas and ipywidgets controls that show the controller's
state and forward clicks to it.

The board's frame is drawn once; a click redraws only the stones and marks, and the picture is
sent before the status text, so the two never disagree on the screen.
"""

from __future__ import annotations

import base64
import html
import io
import json
from contextlib import contextmanager
from pathlib import Path

import ipywidgets as widgets
import numpy as np
from ipympl.backend_nbagg import Canvas, FigureManager
from matplotlib.figure import Figure
from PIL import Image

from . import positions
from .board import Board
from .controller import COMPUTER_SIDES, OVERLAYS, SIZES, Controller, size_text, turn_text
from .draw import LEGEND, BoardPicture
from .labels import LABELS, LANGUAGES, labels
from .rules import PRESETS

#: How near a point (in point spacings) a click must land to count.
CLICK_RADIUS = 0.45
#: How much bigger Large mode draws the board (for a projector).
LARGE_SCALE = 1.4
#: The widest the picture is drawn, in pixels, unless told otherwise: JupyterLab's output area at
#: 1024x768 (a classroom projector) with the file browser open is 592 px wide, 4 px of it padding.
MAX_WIDTH = 580

# : zlib's level for the pictures sent: 1 encodes a 9x5 board in a third less time than the default
# 6.
PNG_LEVEL = 1

#: Turns the Turn slider is rebuilt ahead for (see ``BoardWidget._rebuild_replay_slider``).
SLIDER_ROOM = 64
#: Lines of the move list per box: a turn played rewrites only the last box.
MOVE_BOX_LINES = 50

# : The board's style sheet (wrapping rows, a scrolling move list, Large mode), shipped beside this
# module.
STYLE = (
    "<style>" + (Path(__file__).with_name("widget.css")).read_text(encoding="utf-8") + "</style>"
)


def _setting(name: str, setter: str, doc: str) -> property:
    """A property read from the controller and set through its checking setter."""
    return property(
        lambda self: getattr(self.controller, name),
        lambda self, value: getattr(self.controller, setter)(value),
        doc=doc,
    )


class _BlitFigure(Figure):
    """A figure that renders holding the controller's lock (no frame is half redrawn) and keeps its
    frame: a full draw leaves out the animated artists, keeps the pixels, then draws them on top, so
    a click redraws only what changed (``blit_changes``)."""

    def __init__(self, lock, **options):
        super().__init__(**options)
        self._lock = lock
        self.changing: list = []  # the animated artists, drawn over the kept frame
        self._kept = None  # (renderer size, pixels of the frame)

    def draw(self, renderer):
        with self._lock:
            super().draw(renderer)
            if (
                hasattr(renderer, "copy_from_bbox") and not self.canvas.is_saving()
            ):  # savefig draws them all
                self._kept = ((renderer.width, renderer.height), renderer.copy_from_bbox(self.bbox))
            for artist in self.changing:
                artist.draw(renderer)

    def forget_frame(self) -> None:  # a new size or frame: the next picture is drawn whole
        self._kept = None

    def blit_changes(self, canvas) -> None:
        """Send the new picture: only the changing artists over the kept frame, or a full draw if
        none is kept."""
        renderer = canvas.get_renderer()
        if self._kept is None or self._kept[0] != (renderer.width, renderer.height):
            canvas.draw()
            return
        with self._lock:
            renderer.restore_region(self._kept[1])
            for artist in self.changing:
                artist.draw(renderer)
        canvas.blit(self.bbox)


class _BoardCanvas(Canvas):
    """ipympl's canvas made safe for a board that changes from two threads (a click in the kernel's
    own thread, the computer's steps in its thread) and for a browser that drops pictures.

    Every picture is drawn, encoded and sent holding the controller's lock, so the pictures leave
    in the order the positions happened and none mixes two positions.  Every picture is whole
    (ipympl's "full" mode): the browser keeps only the last of pictures that arrive faster than it
    loads them (a new one replaces the image still loading), which loses a difference picture
    for good and leaves a stale board, but never a whole one.  A fast PNG setting pays for it.
    """

    _png_is_old: bool  # ipympl's own flag: the picture changed since it was last sent

    def __init__(self, figure, lock):
        self._lock = lock
        super().__init__(figure)

    def draw(self):
        with self._lock:
            super().draw()

    def blit(self, bbox=None):
        with self._lock:
            super().blit(bbox)

    def _handle_message(self, object, content, buffers):  # the browser's requests, one at a time
        with self._lock:
            super()._handle_message(object, content, buffers)

    def get_diff_image(self):
        """The current picture as a whole PNG (None if it was sent already)."""
        if not self._png_is_old:
            return None
        pixels = np.asarray(self.get_renderer().buffer_rgba())
        self.set_image_mode("full")
        self._last_buff = pixels.view(np.uint32).squeeze(2).copy()
        self._force_full = self._png_is_old = False
        with io.BytesIO() as png:
            Image.fromarray(pixels).save(png, format="png", compress_level=PNG_LEVEL)
            return png.getvalue()


class _MoveList:
    """The move list: numbered lines of two turns in boxes of ``MOVE_BOX_LINES`` lines, in a
    scroller that keeps the newest turn in view.  An update rewrites only the boxes whose lines
    changed, and each turn's text is made once, so a click in a long game costs what it costs in
    a short one (the whole list re-sent and re-laid out per click grew a click nine-fold by
    5,000 turns).
    """

    def __init__(self):
        self.boxes: list = []
        self.inner = widgets.VBox()
        self.inner.add_class("fanorona-moves-inner")
        self.scroller = widgets.Box([self.inner])  # column-reverse: it stays scrolled to the end
        self.scroller.add_class("fanorona-moves")
        self._turns: list = []  # (turn, its escaped text), as the model has them
        self._lead = False  # Black began: the first line starts with "…"
        self._texts: list = []

    def update(self, model, shown: int | None) -> None:
        turns = model.turns
        kept = min(len(self._turns), len(turns))
        if kept and self._turns[0][0] is not turns[0]:
            kept = 0  # another game
        while kept and self._turns[kept - 1][0] is not turns[kept - 1]:
            kept -= 1
        if not kept:
            root = getattr(model, "root", None)
            self._lead = root is not None and root().to_move == "black"
        del self._turns[kept:]
        self._turns += [(turn, html.escape(str(turn))) for turn in turns[kept:]]
        texts = ["…"] * self._lead + [text for _, text in self._turns]
        if model.chain:
            texts.append(html.escape(turn_text(model.chain)) + "…")
        if shown:
            place = shown - 1 + self._lead
            texts[place] = f'<span class="fanorona-shown">{texts[place]}</span>'
        changed = next(
            (i for i, (a, b) in enumerate(zip(texts, self._texts)) if a != b),
            min(len(texts), len(self._texts)),
        )
        self._texts = texts
        per_box = 2 * MOVE_BOX_LINES
        count = max(1, -(-len(texts) // per_box))
        while len(self.boxes) < count:
            self.boxes.append(widgets.HTML())
        for b in range(changed // per_box, count):
            first = b * per_box
            lines = [
                f"{n // 2 + 1}. " + "  ".join(texts[n : n + 2])
                for n in range(first, min(first + per_box, len(texts)), 2)
            ]
            value = f'<div class="fanorona-moves-part fanorona-text">{"<br>".join(lines)}</div>'
            if self.boxes[b].value != value:
                self.boxes[b].value = value
        if len(self.inner.children) != count:
            self.inner.children = self.boxes[:count]

    @property
    def html(self) -> str:
        """The whole list's HTML, as the page shows it."""
        return "".join(box.value for box in self.inner.children)


class BoardWidget:
    """A board to play on by clicking, with undo, replay, a computer opponent and overlays.

    ``board``: a position to start from (a ``fanorona.Board``, copied; ``size`` and ``rules`` are
    then ignored), or your own model: any object with the methods of ``fanorona.controller.Model``
    (size, points, to_move, turns, chain, chain_stone, stone_at, legal_steps, captures, push, pop,
    end_turn, outcome) is played as it is.  ``opponent``: None, a level 1-5, or any player with
    ``choose_turn(board)``; it plays Black.  ``language``: "en", "da", "de" or "cs".
    ``max_width``: the widest the picture may be, in pixels (the default fits JupyterLab's output
    area on a 1024x768 projector, Large mode too); None: no limit, as on a Voilà page.
    Display it as the last expression of a cell.
    """

    def __init__(
        self,
        board=None,
        size=(9, 5),
        rules=None,
        opponent=None,
        language: str = "en",
        max_width: int | None = MAX_WIDTH,
    ):
        if max_width is not None and (
            isinstance(max_width, bool) or not isinstance(max_width, int) or max_width < 200
        ):
            raise ValueError(
                f"max_width is a number of pixels of at least 200, or None; got {max_width!r}"
            )
        self.max_width = max_width
        model = board.copy() if isinstance(board, Board) else board
        self.controller = Controller(
            model, size=size, rules=rules, opponent=opponent, language=language
        )
        self._syncing = False
        self._frame_key = None
        self._slider_reach = 0  # the most turns the page's Turn slider was built for
        self._build()
        self.controller.observe(self._refresh)
        with self.controller.lock:
            self._refresh()
        self.controller.runner.kick()

    # -- what a program (or a test) does, as the buttons do it ---------------------------------

    def click(self, point: str) -> None:
        """Act on a click at ``point``: select a stone, move it, or choose a capture; else say
        why not."""
        self.controller.click(point)

    def choose(self, kind: str) -> None:
        """Settle a step that captures both ways: ``"approach"`` or ``"withdrawal"``."""
        self.controller.choose(kind)

    def end_turn(self) -> None:
        """Stop the capture chain in progress here (where the rules let it stop)."""
        self.controller.end_turn()

    def undo(self) -> None:
        """Take back a whole turn; against the computer, back to your turn."""
        self.controller.undo()

    def undo_step(self) -> None:
        """Take back one step of a person's turn (unavailable, with a sentence, for the
        computer's)."""
        self.controller.undo_step()

    def redo(self) -> None:
        """Play again a turn taken back by ``undo`` (and the computer's answer to it)."""
        self.controller.redo()

    def computer_move(self) -> None:
        """Let the computer move after a loaded position paused it."""
        self.controller.computer_move()

    def new_game(self, size=None, rules=None) -> None:
        """Start again, keeping the size and rules unless new ones are given."""
        self.controller.new_game(size, rules)

    def load_position(self, name_or_diagram: str) -> None:
        """Set up a named teaching position, a diagram or a one-line position text (ValueError if
        bad).

        If the computer plays the side to move, it waits for the Computer move button.
        """
        self.controller.load_position(name_or_diagram)

    def import_game(self, text: str) -> None:
        """Replace the game by a JSON game record; one that does not replay raises
        GameRecordError."""
        self.controller.import_game(text)

    def export_game(self) -> str:
        """The game so far as a ``fanorona.Game`` JSON record (also put in the record box)."""
        text = self.controller.export_game()
        self.controls["record"].value = text
        self.controller.report("exported")
        return text

    def replay(self, turns: int | None) -> None:
        """Show the position after the first ``turns`` turns (None: the live game, where clicks
        play)."""
        self.controller.replay(turns)

    def show(self, **overlays: bool) -> None:
        """Switch overlays: strings, legal, names, strong, large (for a projector)."""
        self.controller.set_overlays(**overlays)

    def wait(self, timeout: float = 60.0) -> None:
        """Block until the computer has finished moving (for tests and scripts; never in a
        callback)."""
        self.controller.runner.wait(timeout)

    def close(self) -> None:
        """Stop the computer and close every widget (a closed board cannot be shown again)."""
        with self.controller.lock:
            self.controller.runner.cancel()
        boxes = [self.ui, *self._moves.boxes]  # the move list's spare boxes too
        while boxes:
            box = boxes.pop()
            boxes += getattr(box, "children", ())
            box.close()

    # -- what it shows ---------------------------------------------------------------------------

    board = property(lambda self: self.controller.model, doc="The model being played.")
    status = property(lambda self: self.controller.status, doc="The short status line.")
    details = property(
        lambda self: self.controller.details, doc="Stones and turns without capture."
    )
    search = property(
        lambda self: self.controller.search, doc="The computer's last search, in its words."
    )
    moves = property(
        lambda self: self.controller.moves, doc="The move list, one numbered line a pair of turns."
    )
    error = property(
        lambda self: self.controller.error, doc="The last failure inside the computer or the model."
    )

    language = _setting(
        "language",
        "set_language",
        'The language of labels and sentences: "en", "da", "de" or "cs".',
    )
    computer = _setting(
        "computer_side",
        "set_computer",
        "Who the computer plays: 'nobody', 'white', 'black' or 'both'.",
    )
    level = _setting(
        "level",
        "set_level",
        "The computer's level: 1 to 5, 'perfect' on small boards, or 'custom'.",
    )
    delay = _setting(
        "delay", "set_delay", "Seconds between the computer's animated steps (0 for tests)."
    )

    def point_pixels(self) -> dict[str, tuple[float, float]]:
        """Each point's place on the canvas as fractions of its width and height, from the top left.

        The same table is in a hidden element of the page, so a browser test can click a point.
        """
        self.ax.apply_aspect()
        width, height = self.figure.bbox.width, self.figure.bbox.height
        geometry = self._geometry
        pixels = {}
        for i, name in enumerate(geometry.names):
            x, y = self.ax.transData.transform(geometry.coordinates(i))
            pixels[name] = (round(float(x / width), 5), round(float(1 - y / height), 5))
        return pixels

    def picture_png(self) -> bytes:
        """The board's picture as it is now, as PNG bytes."""
        with self.controller.lock:
            self.canvas.draw()
            with io.BytesIO() as png:
                Image.fromarray(np.asarray(self.canvas.get_renderer().buffer_rgba())).save(
                    png, format="png"
                )
                return png.getvalue()

    def _repr_mimebundle_(self, **kwargs):
        """A cell that ends with the board shows it live; a page without a kernel (a static site, a
        notebook viewer) shows its picture instead, and the text says how to play it."""
        bundle = self.ui._repr_mimebundle_(**kwargs)
        bundle["image/png"] = base64.b64encode(self.picture_png()).decode("ascii")
        bundle["text/plain"] = f"Fanorona board: {self.status} (run the notebook to play on it)"
        return bundle

    # -- the view: bring every control and the picture up to date --------------------------------

    def _refresh(self) -> None:
        """Called by the controller after every change, with its lock held: picture first, then
        text."""
        c = self.controller
        self._redraw()
        t = labels(c.language)
        self.controls[
            "status"
        ].value = f'<div class="fanorona-status fanorona-text">{html.escape(c.status)}</div>'
        self.controls[
            "details"
        ].value = f'<div class="fanorona-details fanorona-text">{html.escape(c.details)}</div>'
        search = c.sentence("search", info=c.search) if c.search else ""
        self.controls["search"].value = f'<div class="fanorona-search">{html.escape(search)}</div>'
        self._moves.update(self.board, c.shown)
        self.controls["legend"].value = (
            '<div class="fanorona-legend fanorona-text">'
            + "<br>".join(
                f'<span class="sym" style="color:{color}">{symbol}</span>{html.escape(t[key])}'
                for mark, (key, symbol, color) in LEGEND.items()
                if self._scene.get(mark)
            )
            + "</div>"
        )
        self._show_progress(getattr(c, "progress", None))
        self._sync_controls()

    def _show_progress(self, progress) -> None:
        """A long wait's bar (building a table, compiling) under the status line, with the time
        left that tqdm estimates.  ``progress``: the controller's ``fanorona.progress.Progress``,
        or None when nothing is waited for."""
        bar, text = self.controls["progress"], self.controls["progress_text"]
        display = "none" if progress is None else None
        if bar.layout.display != display:
            bar.layout.display = text.layout.display = display
        if progress is None:
            return
        bar.value = min(max(progress.fraction, 0.0), 1.0)
        left = f" · ⏳ {progress.left}" if progress.remaining is not None else ""
        text.value = (
            '<span class="fanorona-progress fanorona-text">'
            f"{html.escape(progress.what)} {100 * bar.value:.0f}%{left}</span>"
        )

    def _redraw(self) -> None:
        scene = self._scene = self.controller.scene()
        key = (
            self.board.size,
            self.controller.overlays["names"],
            self.controller.overlays["strong"],
            self._scale,
        )
        if key != self._frame_key:
            self._new_frame(scene["board"].geometry, key)
        self.figure.changing = self._picture.update(scene)
        if self.canvas.syncing_data_url:  # no browser attached yet: the page asks for the picture
            self.canvas.draw_idle()
        else:  # a browser: send the picture now, before the text
            self.figure.blit_changes(self.canvas)

    def _new_frame(self, geometry, key) -> None:
        """A new size or frame overlay: size the figure, draw the frame, publish the points'
        pixel places."""
        (w, h), names, strong, scale = key
        (self.ui.add_class if scale != 1 else self.ui.remove_class)("fanorona-large")
        width, height = (
            0.62 * w * scale + 0.6 * scale + 0.1,
            0.62 * h * scale + 0.8 * scale,
        )  # inches, with
        self.figure.set_size_inches(width, height, forward=True)  # room for the names and the title
        self.ax.set_position(
            (
                0.45 * scale / width,
                0.32 * scale / height,
                1 - 0.55 * scale / width,
                1 - 0.77 * scale / height,
            )
        )
        self.ax.clear()
        self.figure.forget_frame()
        self._picture = BoardPicture(
            self.ax, geometry, strong=strong, point_names=names, scale=scale
        )
        self._frame_key = key
        self.controls["points"].value = json.dumps(self.point_pixels())

    @property
    def _geometry(self):
        """The drawn board's points (their names and places): the rules' geometry."""
        return self._scene["board"].geometry

    @property
    def _scale(self) -> float:
        """The picture's scale: 1, or LARGE_SCALE for Large, shrunk to fit ``max_width``."""
        scale = LARGE_SCALE if self.controller.overlays["large"] else 1.0
        if self.max_width is None:
            return scale
        w, _ = self.board.size
        return min(scale, round((self.max_width / self._dpi - 0.1) / (0.62 * w + 0.6), 3))

    def _sync_controls(self) -> None:
        """Show the controller's settings in the choosers and enable only the buttons that can
        act."""
        c, w = self.controller, self.controls
        t = labels(c.language)
        size, rules = size_text(self.board.size), getattr(self.board, "rules", None)
        total, live_person = len(self.board.turns), not c.replaying and not c.computer_to_move()
        settings = {
            **{name: dict(description=t[name]) for name in self._buttons},
            **{name: dict(description=t[name], value=c.overlays[name]) for name in OVERLAYS},
            "size": dict(
                options=[size_text(s) for s in SIZES]
                + ([size] if tuple(self.board.size) not in SIZES else []),
                value=size,
            ),
            "rules": dict(
                options=[(t[f"preset_{p}"], p) for p in PRESETS + ("custom",)],
                value=(rules.name() or "custom") if rules is not None else "custom",
            ),
            "computer": dict(
                options=[(t[side], side) for side in COMPUTER_SIDES], value=c.computer_side
            ),
            "level": dict(
                options=[
                    (
                        (
                            t["perfect"]
                            if v == "perfect"
                            else (
                                getattr(c.custom_player, "name", "custom")
                                if v == "custom"
                                else str(v)
                            )
                        ),
                        v,
                    )
                    for v in c.levels()
                ],
                value=c.level,
            ),
            "language": dict(value=c.language),
            "delay": dict(value=c.delay),
            "position": dict(),
            "replay": dict(max=total, value=total if c.shown is None else c.shown),
            "moves_title": dict(value=f'<b class="fanorona-text">{html.escape(t["moves"])}</b>'),
        }
        for name in (
            "size",
            "rules",
            "computer",
            "level",
            "language",
            "delay",
            "position",
            "replay",
        ):
            settings[name]["description"] = t[name]
        settings["end_turn"]["disabled"] = not (live_person and self.board.chain)
        settings["approach"]["disabled"] = settings["withdrawal"]["disabled"] = not (
            live_person and c.pending
        )
        settings["undo_step"]["disabled"], settings["redo"]["disabled"] = (
            not c.can_undo_step(),
            not c.can_redo(),
        )
        for name in (
            "size",
            "rules",
            "computer",
            "level",
            "replay",
            "load",
            "load_diagram",
            "export",
            "import",
        ):
            settings[name]["disabled"] = not isinstance(self.board, Board)
        with self._quiet():
            for name, traits in settings.items():
                for trait, value in traits.items():
                    if getattr(w[name], trait) != (tuple(value) if trait == "options" else value):
                        setattr(w[name], trait, value)
            w["computer_move"].layout.display = None if c.paused else "none"
            if total > self._slider_reach:
                self._rebuild_replay_slider(total)
            self._more.set_title(0, t["more"])

    def _rebuild_replay_slider(self, total: int) -> None:
        """Have the page rebuild the Turn slider with room for SLIDER_ROOM more turns: its End key
        goes to the largest turn the slider was built with (noUiSlider keeps that range when
        ipywidgets updates the maximum), so without this End did nothing; a change of orientation
        is what makes ipywidgets rebuild it."""
        slider = self.controls["replay"]
        self._slider_reach = total + SLIDER_ROOM
        slider.max = self._slider_reach
        slider.orientation = "vertical"
        slider.orientation = "horizontal"
        slider.max = total

    @contextmanager
    def _quiet(self):
        """Set controls from the controller without their observers taking it for a user's
        choice."""
        before, self._syncing = self._syncing, True
        try:
            yield
        finally:  # even if setting a control failed
            self._syncing = before

    # -- building and wiring ---------------------------------------------------------------------

    _buttons = (
        "end_turn",
        "approach",
        "withdrawal",
        "undo",
        "undo_step",
        "redo",
        "new_game",
        "computer_move",
        "load",
        "load_diagram",
        "export",
        "import",
    )

    def _build(self) -> None:
        """Make the figure, the canvas and every control, and wire them to the controller."""
        self.figure = _BlitFigure(self.controller.lock, figsize=(6, 4))
        self._dpi = self.figure.dpi  # CSS pixels an inch (a HiDPI browser raises the figure's own)
        self.canvas = _BoardCanvas(self.figure, self.controller.lock)
        FigureManager(self.canvas, 0)
        self.canvas.header_visible = self.canvas.toolbar_visible = self.canvas.footer_visible = (
            False
        )
        self.canvas.resizable = False
        self.canvas.capture_scroll = False
        self.canvas.layout.flex = "0 0 auto"  # the move list gives way, never the board
        self.ax = self.figure.add_axes((0.06, 0.04, 0.92, 0.86))
        self.canvas.mpl_connect("button_press_event", self._on_press)
        #: The ipywidgets controls by name (buttons, choosers, sliders, the status and move list).
        w = self.controls = {name: widgets.Button() for name in self._buttons}
        w.update({name: widgets.ToggleButton(value=False) for name in OVERLAYS})
        w.update(
            {
                name: widgets.Dropdown(options=[""])
                for name in ("size", "rules", "computer", "level")
            }
        )
        w["language"] = widgets.Dropdown(options=[(name, code) for code, name in LANGUAGES.items()])
        w["delay"] = widgets.FloatSlider(value=0.4, min=0.0, max=2.0, step=0.1)
        w["replay"] = widgets.IntSlider(value=0, min=0, max=0, layout=widgets.Layout(width="95%"))
        w["position"] = widgets.Dropdown(options=positions.names())
        w["diagram"] = widgets.Textarea(
            placeholder="B.B\n...\nW.W", layout=widgets.Layout(width="200px", height="90px")
        )
        w["record"] = widgets.Textarea(layout=widgets.Layout(width="100%", height="140px"))
        self._moves = _MoveList()
        w["moves"] = self._moves.scroller
        for name in ("status", "details", "search", "legend", "moves_title", "points"):
            w[name] = widgets.HTML()
            w[name].add_class(f"fanorona-{name}-box")
        w["status"].add_class("fanorona-status-line")
        w["points"].layout.display = "none"
        w["progress"] = widgets.FloatProgress(
            min=0.0, max=1.0, layout=widgets.Layout(display="none", width="16em")
        )
        w["progress_text"] = widgets.HTML(layout=widgets.Layout(display="none"))
        w["points"].add_class("fanorona-points")
        for name in (
            "delay",
            "replay",
            "size",
            "rules",
            "computer",
            "level",
            "language",
            "position",
        ):
            w[name].style.description_width = "initial"
        self._wire()
        self.ui = self._layout()

    def _layout(self) -> widgets.Box:
        w = self.controls

        def row(*children):
            box = widgets.HBox(
                list(children), layout=widgets.Layout(flex_flow="row wrap", align_items="center")
            )
            box.add_class("fanorona-wrap")
            return box

        self._more = widgets.Accordion(
            children=[
                widgets.VBox(
                    [
                        row(w["position"], w["load"]),
                        row(w["diagram"], w["load_diagram"]),
                        row(w["export"], w["import"]),
                        w["record"],
                    ]
                )
            ]
        )
        side = widgets.VBox(
            [w["moves_title"], w["moves"], w["legend"]], layout=widgets.Layout(margin="0 0 0 12px")
        )
        ui = widgets.VBox(
            [
                widgets.HTML(STYLE),
                row(self.canvas, side),
                w["status"],
                row(w["progress"], w["progress_text"]),
                w["details"],
                w["search"],
                row(
                    *(
                        w[name]
                        for name in (
                            "end_turn",
                            "approach",
                            "withdrawal",
                            "undo",
                            "undo_step",
                            "redo",
                        )
                    )
                ),
                row(w["new_game"], w["size"], w["rules"], w["language"]),
                row(w["computer"], w["level"], w["computer_move"], w["delay"]),
                w["replay"],
                row(*(w[name] for name in OVERLAYS)),
                self._more,
                w["points"],
            ]
        )
        ui.add_class("fanorona-board")
        return ui

    def _wire(self) -> None:
        w, c = self.controls, self.controller
        actions = {
            "undo": self.undo,
            "undo_step": self.undo_step,
            "redo": self.redo,
            "end_turn": self.end_turn,
            "new_game": self.new_game,
            "approach": lambda: self.choose("approach"),
            "withdrawal": lambda: self.choose("withdrawal"),
            "computer_move": self.computer_move,
            "export": self.export_game,
            "load": lambda: self._guarded(self.load_position, w["position"].value, "load_error"),
            "load_diagram": lambda: self._guarded(
                self.load_position, w["diagram"].value or "", "load_error"
            ),
            "import": lambda: self._guarded(self.import_game, w["record"].value, "import_error"),
        }
        for name, action in actions.items():
            w[name].on_click(lambda _button, action=action: action())
        self._observe("size", lambda v: self.new_game(size=v))
        self._observe("rules", lambda v: None if v == "custom" else self.new_game(rules=v))
        self._observe("computer", c.set_computer)
        self._observe("level", c.set_level)
        self._observe("language", c.set_language)
        self._observe("delay", c.set_delay)
        self._observe("replay", lambda v: c.replay(None if v >= len(self.board.turns) else v))
        for name in OVERLAYS:
            self._observe(name, lambda v, name=name: self.show(**{name: v}))

    def _observe(self, name: str, react) -> None:
        """Call react(new value) when a control changes, unless the change is the widget's own
        sync."""

        def handler(change):
            if not self._syncing:
                react(change["new"])

        self.controls[name].observe(handler, names="value")

    def _guarded(self, action, text: str, failure: str) -> None:
        """A button's action whose bad input is said in the status line, never raised into the
        page."""
        try:
            action(text)
        except (
            Exception
        ) as e:  # GameRecordError and ValueError are documented; anything else is said too
            self.controller.report(failure, reason=str(e) or type(e).__name__)

    def _on_press(self, event) -> None:
        """The canvas callback: the nearest point to a left click, if near enough, is clicked."""
        if event.inaxes is not self.ax or event.xdata is None or event.button != 1:
            return
        col, row = round(event.xdata), round(event.ydata)
        geometry = self._geometry
        if (
            0 <= col < geometry.width
            and 0 <= row < geometry.height
            and (event.xdata - col) ** 2 + (event.ydata - row) ** 2 <= CLICK_RADIUS**2
        ):
            self.click(geometry.names[row * geometry.width + col])


__all__ = ["LABELS", "SIZES", "BoardWidget"]
