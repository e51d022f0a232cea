"""The interactive board's picture: an ipympl canvas that shows the controller's scene and turns a
left click into the name of the point clicked.

Every picture is drawn, encoded and sent whole, holding the controller's lock (``_BoardCanvas``
says why); the board's frame is drawn once per size and frame overlay, and a click redraws only the
stones and marks over it, the title from its kept pixels (``_BlitFigure``).  The PNG is made by
``png.PngBands``, which deflates again only the rows that changed.
"""

from __future__ import annotations

import io
from base64 import b64encode

import numpy as np
from ipympl.backend_nbagg import Canvas, FigureManager
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox
from PIL import Image

from ..geometry import Geometry
from .draw import BoardPicture
from .png import PngBands

#: How near a point (in point spacings) a click must land to count.
CLICK_RADIUS = 0.45
#: How much bigger Large mode draws the board (for a projector).
LARGE_SCALE = 1.4
#: The widest the picture is drawn, in pixels, unless told otherwise: JupyterLab's output area at
#: 1024x768 (a classroom projector) with the file browser open is 592 px wide, 4 px of it padding.
MAX_WIDTH = 580

#: How a PNG's data URL begins, the form of the picture a page shows before its first message.
DATA_URL = "data:image/png;base64,"
#: Wordings of the title kept as pixels (whose turn, the results seen): then they are drawn anew.
KEPT_TEXTS = 16


class _BlitFigure(Figure):
    """A figure that renders holding the controller's lock (no frame is half redrawn) and keeps its
    frame: a full draw leaves out the animated artists, keeps the pixels, then draws them on top, so
    a click redraws only what changed (``blit_changes``).

    A changing text in ``kept_texts`` (the title) is drawn once per wording and its pixels kept:
    laying out and rendering it cost 2.5 ms a click, a fifth of the picture's drawing.
    """

    def __init__(self, lock, **options):
        super().__init__(**options)
        self._lock = lock
        self.changing: list = []  # the animated artists, drawn over the kept frame
        self.kept_texts: list = []  # the changing texts kept as pixels, outside the axes
        #: The changing artists drawn first (stones, bands), kept as pixels while they stay as
        #: they are: a click that selects a stone redraws only its marks.
        self.under: list = []
        self._kept = None  # (renderer size, pixels of the frame)
        self._under = None  # (the texts' wordings and the under artists' state, their pixels)
        self._texts: dict = {}  # (text artist's id, wording) -> its pixels over the frame

    def draw(self, renderer):
        with self._lock:
            super().draw(renderer)
            if hasattr(renderer, "copy_from_bbox") and not self.canvas.is_saving():
                self._kept = ((renderer.width, renderer.height), renderer.copy_from_bbox(self.bbox))
                self._under = None
                self._draw_changing(renderer)
            else:  # savefig draws them all
                for artist in self.changing:
                    artist.draw(renderer)

    def pick(self, mouseevent) -> None:
        """Nothing on the board is picked (``Picture`` reads a click's point itself); matplotlib
        would walk every artist, the hidden axes' ticks too, on each press (1-2 ms a click)."""

    def forget_frame(self) -> None:
        """A new size or frame: the next picture is drawn whole, and its texts anew."""
        self._kept = self._under = None
        self._texts.clear()

    def blit_changes(self, canvas) -> None:
        """Send the new picture: only the changing artists over the kept frame, or a full draw if
        none is kept."""
        renderer = canvas.get_renderer()
        if self._kept is None or self._kept[0] != (renderer.width, renderer.height):
            canvas.draw()
            return
        with self._lock:
            renderer.restore_region(self._kept[1])
            self._draw_changing(renderer)
        canvas.blit(self.bbox)

    def _draw_changing(self, renderer) -> None:
        """Draw the changing artists over the frame just restored: the kept texts and the artists
        under the rest from their pixels if none changed since, else the texts from their pixels
        once drawn (copied before anything else is drawn over the frame) and the artists under;
        then the rest."""
        key = (
            [(id(text), text.get_text()) for text in self.kept_texts],
            [_state(artist) for artist in self.under],
        )
        if self._under is not None and self._under[0] == key:
            renderer.restore_region(self._under[1])
        else:
            self._draw_texts(renderer)
            for artist in self.under:
                artist.draw(renderer)
            self._under = (key, renderer.copy_from_bbox(self.bbox))
        drawn = set(map(id, self.kept_texts + self.under))
        for artist in self.changing:
            if id(artist) not in drawn:
                artist.draw(renderer)

    def _draw_texts(self, renderer) -> None:
        """The kept texts over the frame, from their pixels once drawn."""
        for text in self.kept_texts:
            key = (id(text), text.get_text())
            if key in self._texts:
                renderer.restore_region(self._texts[key])
                continue
            text.draw(renderer)
            if text.get_visible() and text.get_text():
                box = Bbox.intersection(text.get_window_extent(renderer).padded(2), self.bbox)
                if box is not None:
                    if len(self._texts) >= KEPT_TEXTS:  # a model's fault sentences are unbounded
                        self._texts.clear()
                    self._texts[key] = renderer.copy_from_bbox(box)


def _state(artist) -> tuple | None:
    """What of a changing collection a scene sets (where and whether it shows), to tell whether it
    changed."""
    if not artist.get_visible():
        return None
    return (
        artist.get_offsets().tobytes(),
        tuple(path.vertices.tobytes() for path in artist.get_paths()),
    )


class _BoardCanvas(Canvas):
    """ipympl's canvas made safe for a board that changes from two threads (a click in the kernel's
    own thread, the computer's steps in its thread) and for a browser that drops pictures.

    Every picture is drawn, encoded and sent holding the controller's lock, so the pictures leave
    in the order the positions happened and none mixes two positions.  Every picture is whole
    (ipympl's "full" mode, never changed): the browser keeps only the last of pictures that arrive
    faster than it loads them (a new one replaces the image still loading), which loses a
    difference picture for good and leaves a stale board, but never a whole one.  A fast PNG
    setting pays for it.

    Only public members of matplotlib's and ipympl's canvases are overridden; the one private
    member used is ipympl's ``_data_url`` trait (tests/test_private_members.py checks it).
    """

    def __init__(self, figure, lock):
        self._lock = lock
        self._png = PngBands()
        super().__init__(figure)

    def draw(self):
        with self._lock:
            super().draw()

    def blit(self, bbox=None):
        with self._lock:
            super().blit(bbox)

    def handle_event(self, event):
        """The browser's requests, one at a time (ipympl's handshake, which draws nothing, passes
        by this).  Mouse moves are dropped: the board reacts to
        presses only, and each move had matplotlib's hidden toolbars format and send the pointer's
        place (a few ms of the kernel per move, queued ahead of the next click)."""
        if event["type"] == "motion_notify":
            return None
        with self._lock:
            return super().handle_event(event)

    def get_diff_image(self):
        """The picture just drawn, as a whole PNG: matplotlib asks for it once after each draw and
        blit, to send it."""
        return self._png.encode(np.asarray(self.get_renderer().buffer_rgba()))

    def send_binary(self, data):
        """Send the PNG to the browser; before one has the canvas, keep it as the page's first
        picture instead, a data URL (ipympl 0.10 keeps the bare base64, which the page loads as
        an address: a broken image and the whole PNG in the server's log), and send nothing: the
        browser that takes the canvas asks for a picture of its own."""
        if self.syncing_data_url:
            self._data_url = DATA_URL + b64encode(data).decode("ascii")
        else:
            super().send_binary(data)


class Picture:
    """The board's picture on an ipympl canvas: it draws the controller's scenes and reports a left
    click near a point as that point's name.

    ``lock``: the controller's lock, held while a picture is drawn and sent.  ``on_click``: called
    with the point's name.  ``max_width``: the widest the picture may be, in pixels, or None.
    """

    def __init__(self, lock, on_click, max_width: int | None = MAX_WIDTH):
        self.max_width = max_width
        self._lock, self._on_click = lock, on_click
        self.figure = _BlitFigure(lock, figsize=(6, 4))
        self._dpi = self.figure.dpi  # CSS pixels an inch (a HiDPI browser raises the figure's own)
        self.canvas = _BoardCanvas(self.figure, lock)
        FigureManager(self.canvas, 0)
        self.canvas.header_visible = self.canvas.toolbar_visible = self.canvas.footer_visible = (
            False
        )
        self.canvas.resizable = False
        self.canvas.capture_scroll = False
        self.canvas.pan_zoom_throttle = 500  # ms between the page's mouse moves (dropped anyway)
        self.canvas.layout.flex = "0 0 auto"  # the move list gives way, never the board
        self.ax = self.figure.add_axes((0.06, 0.04, 0.92, 0.86))
        self.canvas.mpl_connect("button_press_event", self._on_press)
        #: The ``draw.BoardPicture`` of the current frame (made by the first ``update``): the
        #: artists a scene changes.
        self.drawing: BoardPicture
        self._frame_key: tuple | None = None
        self._geometry: Geometry  # the drawn board's points (their names and places)

    def scale(self, size: tuple[int, int], large: bool) -> float:
        """The picture's scale: 1, or LARGE_SCALE for Large, shrunk to fit ``max_width``."""
        scale = LARGE_SCALE if large else 1.0
        if self.max_width is None:
            return scale
        w, _ = size
        return min(scale, round((self.max_width / self._dpi - 0.1) / (0.62 * w + 0.6), 3))

    def update(self, scene: dict, size: tuple[int, int], overlays: dict) -> bool:
        """Set the artists to show ``scene`` on a board of ``size`` with the frame ``overlays`` ask
        for (names, strong, large); True if the frame was drawn anew (a new size, scale or frame
        overlay)."""
        self._geometry = scene["board"].geometry
        key = (size, overlays["names"], overlays["strong"], self.scale(size, overlays["large"]))
        new = key != self._frame_key
        if new:
            self._new_frame(key)
        self.figure.changing = self.drawing.update(scene)
        self.figure.under = self.drawing.under
        return new

    def send(self) -> None:
        """Show the artists as they are now: to the browser at once, or when the page asks."""
        if self.canvas.syncing_data_url:  # no browser attached yet: the page asks for the picture
            self.canvas.draw_idle()
        else:  # a browser: send the picture now, before the text
            self.figure.blit_changes(self.canvas)

    def _new_frame(self, key) -> None:
        """A new size or frame overlay: size the figure and draw the frame."""
        (w, h), names, strong, scale = key
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
        self.drawing = BoardPicture(
            self.ax, self._geometry, strong=strong, point_names=names, scale=scale
        )
        self.figure.kept_texts = [self.drawing.title]
        self._frame_key = key

    def point_pixels(self) -> dict[str, tuple[float, float]]:
        """Each point's place on the canvas as fractions of its width and height, from the top
        left."""
        self.ax.apply_aspect()
        width, height = self.figure.bbox.width, self.figure.bbox.height
        geometry = self._geometry
        pixels = {}
        for i, name in enumerate(geometry.names):
            x, y = self.ax.transData.transform(geometry.coordinates(i))
            pixels[name] = (round(float(x / width), 5), round(float(1 - y / height), 5))
        return pixels

    def png(self) -> bytes:
        """The picture as it is now, as PNG bytes."""
        with self._lock:
            self.canvas.draw()
            with io.BytesIO() as png:
                Image.fromarray(np.asarray(self.canvas.get_renderer().buffer_rgba())).save(
                    png, format="png"
                )
                return png.getvalue()

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
            self._on_click(geometry.names[row * geometry.width + col])
