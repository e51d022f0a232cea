"""What a click on the board costs inside the kernel, and where the time goes.

``python benchmarks/widget_clicks.py`` (run by ``make bench``) clicks a stone on and off through
``BoardWidget.click`` with a browser's canvas assumed attached (every click renders and encodes
the PNG ipympl sends), in a game of 10 turns and in one of 5,000 turns, then splits one click,
handled as the browser's press message is, into its parts: the mouse event and the controller's
work, the scene, the artists updated, the picture drawn, the PNG encoded (and its size), the
controls, the move list and the rest of the text synced.  ``make bench-browser`` prints the same
split beside the latencies seen in Chromium.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from collections import defaultdict
from functools import reduce
from statistics import median

import fanorona as fa

# : The parts of a click, each a method timed where the widget calls it: (label, dotted path of
# the object from the widget, method).
PARTS = (
    ("scene", "controller", "scene"),
    ("artists", "picture.drawing", "update"),
    ("PNG encode", "canvas", "get_diff_image"),
    ("send", "canvas", "send_binary"),
    ("controls", "panel", "_sync_controls"),
    ("move list", "panel.moves", "update"),
)


def long_game(turns: int) -> fa.Board:
    """A game of many quiet turns: a stone a side, far apart, stepping to and fro (no quiet-turn
    draw)."""
    board = fa.Board.from_diagram(
        "........B\n.........\n.........\n.........\nW........", rules=fa.Rules(quiet_draw=None)
    )
    for n in range(turns):
        board.push(board.parse_turn(("a1a2", "i5i4", "a2a1", "i4i5")[n % 4]))
    return board


def board_widget(board=None, **overlays) -> fa.BoardWidget:
    with warnings.catch_warnings():  # ipympl 0.10 makes traitlets warn about its Toolbar
        warnings.filterwarnings("ignore", "Passing unrecognized arguments", DeprecationWarning)
        w = fa.BoardWidget(board)
    w.canvas.syncing_data_url = (
        False  # as when a browser shows the canvas: every click renders at once
    )
    w.show(**overlays)
    return w


def click_times(w, point: str, clicks: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of clicks on point (selecting and deselecting it)."""
    walls, cpus = [], []
    for _ in range(clicks):
        wall, cpu = time.perf_counter(), time.process_time()
        w.click(point)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return median(walls) * 1000, median(cpus) * 1000


def split(clicks: int = 30, **overlays) -> tuple[dict[str, float], int, float]:
    """Median CPU milliseconds (robust on a shared machine) of each part of a press on d3 of the
    9x5 start, handled as the browser's message is (matplotlib's mouse event included), the PNG's
    median size in bytes, and the median whole press; "picture drawn" is the picture's sending less
    its encode and send, "text and legend" the panel's update less the controls and move list."""
    w = board_widget(**overlays)
    spent: dict[str, list[float]] = defaultdict(list)
    sizes = []

    def timed(label, owner, name):
        method = getattr(owner, name)

        def wrapper(*args, **kwargs):
            start = time.process_time()
            try:
                return method(*args, **kwargs)
            finally:
                spent[label].append(time.process_time() - start)

        setattr(owner, name, wrapper)

    for label, path, name in PARTS:
        timed(label, reduce(getattr, path.split("."), w), name)
    timed("picture sent", w.picture, "send")
    timed("panel", w.panel, "show")
    send = w.canvas.send_binary
    w.canvas.send_binary = lambda data: (sizes.append(len(data)), send(data))
    fx, fy = w.point_pixels()["d3"]
    width, height = w.canvas.get_renderer().get_canvas_width_height()
    press = {  # a left press on d3 as the browser sends it (pixels from the top left)
        "type": "button_press",
        "x": fx * width,
        "y": fy * height,
        "button": 0,
        "buttons": 1,
        "modifiers": [],
    }
    wholes = []
    for _ in range(clicks):
        start = time.process_time()
        w.canvas._handle_message(w.canvas, press, [])
        wholes.append(time.process_time() - start)
    w.close()
    parts = {label: median(spent[label]) * 1000 for label, _, _ in PARTS}
    parts["picture drawn"] = (
        median(spent["picture sent"]) * 1000 - parts["PNG encode"] - parts["send"]
    )
    parts["text and legend"] = (
        median(spent["panel"]) * 1000 - parts["controls"] - parts["move list"]
    )
    whole = median(wholes) * 1000
    parts["event, controller and the rest"] = whole - sum(parts.values())
    return parts, int(median(sizes)), whole


def print_split(clicks: int = 30) -> None:
    for name, overlays in (
        ("no overlay", {}),
        ("all overlays", dict(strings=True, names=True, strong=True, legal=True)),
    ):
        parts, size, whole = split(clicks, **overlays)
        print(
            f"  one click in the kernel, {name}: {whole:.1f} ms CPU = "
            + ", ".join(f"{label} {ms:.1f}" for label, ms in parts.items())
            + f" ms; PNG {size / 1000:.1f} kB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30)
    args = parser.parse_args()
    print(
        "widget: a click through BoardWidget.click, its picture drawn and encoded, median of"
        f" {args.clicks}; load average {os.getloadavg()[0]:.2f}"
    )
    times = {}
    for turns in (10, 5000):
        w = board_widget(long_game(turns))
        point = "a1" if turns % 4 == 0 else "a2"
        if w.board.stone_at(point) is None:
            point = next(p for p in w.board.points if w.board.stone_at(p) == w.board.to_move)
        times[turns] = click_times(w, point, args.clicks)
        w.close()
        print(
            f"  game of {turns:>5} turns: {times[turns][0]:6.1f} ms wall {times[turns][1]:6.1f}"
            " ms CPU"
        )
    print(f"  5,000 turns against 10: {times[5000][1] / times[10][1]:.2f}x CPU")
    print_split(args.clicks)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
