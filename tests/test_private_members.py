"""What the board's canvas (fanorona/ui/picture.py) relies on in ipympl and matplotlib, checked
on the installed versions, so an upgrade that changes it fails here and not on a class's page.

One private member is used: ipympl's ``_data_url`` trait, the picture a page shows before its
first message (pyproject.toml bounds ipympl for it).  The rest are public but little documented:
the browser's messages reach ``handle_event``, each draw and blit sends ``get_diff_image``'s
bytes through ``send_binary`` once, and ``syncing_data_url`` says no browser has the canvas yet.
"""

import base64
import inspect
import io
import warnings
from pathlib import Path

import jupyter_core.paths
import pytest
from ipympl.backend_nbagg import Canvas, FigureManager
from matplotlib.figure import Figure
from PIL import Image

import fanorona as fa
from fanorona.ui.picture import DATA_URL


def browser_message(canvas, content: dict) -> None:
    """``content`` as the page's jupyter-matplotlib sends it: a custom message on the widget's
    comm."""
    canvas.comm.handle_msg(
        {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}
    )


class Recording(Canvas):
    """ipympl's canvas that records the events it handles and the pictures it sends."""

    def __init__(self, figure):
        self.events: list[str] = []
        self.sent: list[bytes] = []
        super().__init__(figure)

    def handle_event(self, event):
        self.events.append(event["type"])
        return super().handle_event(event)

    def get_diff_image(self):
        return b"picture %d" % len(self.sent)

    def send_binary(self, data):
        self.sent.append(data)


@pytest.fixture
def canvas():
    with warnings.catch_warnings():  # ipympl 0.10 makes traitlets warn about its Toolbar
        warnings.filterwarnings("ignore", "Passing unrecognized arguments", DeprecationWarning)
        canvas = Recording(Figure(figsize=(2, 1)))
        FigureManager(canvas, 0)
    yield canvas
    canvas.close()


def test_the_overridden_members_keep_their_signatures():
    assert list(inspect.signature(Canvas.handle_event).parameters) == ["self", "event"]
    assert list(inspect.signature(Canvas.get_diff_image).parameters) == ["self"]
    assert list(inspect.signature(Canvas.send_binary).parameters) == ["self", "data"]
    assert list(inspect.signature(Canvas.blit).parameters) == ["self", "bbox"]


def test_the_browsers_messages_reach_handle_event_and_initialized_ends_the_syncing(canvas):
    assert canvas.syncing_data_url, "a new canvas waits for its browser"
    for kind in ("motion_notify", "draw"):
        browser_message(canvas, {"type": kind, "x": 1, "y": 1, "button": 0, "modifiers": []})
    assert canvas.events == ["motion_notify", "draw"]
    browser_message(canvas, {"type": "initialized"})
    assert not canvas.syncing_data_url


def test_each_draw_and_blit_sends_get_diff_images_bytes_once_and_draw_idle_none(canvas):
    canvas.draw()
    canvas.blit()
    canvas.draw_idle()  # asks the browser to ask for a draw
    assert canvas.sent == [b"picture 0", b"picture 1"]


def test_ipympl_syncs_the_data_url_trait_to_the_page():
    assert "_data_url" in Canvas.class_trait_names(sync=True)


def test_the_page_shows_the_data_url_as_the_canvas_picture():
    scripts = [
        path
        for folder in jupyter_core.paths.jupyter_path("labextensions")
        for path in (Path(folder) / "jupyter-matplotlib" / "static").glob("*.js")
    ]
    assert scripts, "no jupyter-matplotlib lab extension installed"
    assert any('get("_data_url")' in path.read_text(errors="replace") for path in scripts)


def test_a_board_shown_before_its_browser_keeps_its_picture_as_a_png_data_url():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Passing unrecognized arguments", DeprecationWarning)
        w = fa.BoardWidget()
    try:
        w.display_data(w.ui)  # what a cell's display does: the picture is drawn
        url = w.canvas._data_url
        assert url.startswith(DATA_URL), url[:40]
        picture = Image.open(io.BytesIO(base64.b64decode(url.removeprefix(DATA_URL))))
        assert picture.format == "PNG"
        assert picture.size == w.canvas.get_width_height(physical=True)
    finally:
        w.close()
