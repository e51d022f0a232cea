"""The README's and the site's picture of the board, ``docs/board.png``, taken again from today's
board: ``make screenshot`` (or ``python docs/screenshot.py [OUT.png]``).

It serves a one-board notebook with Voilà (the kit's settings, as ``make play``), opens it in
headless Chromium (Playwright, Debian's ``/usr/bin/chromium``) and photographs the whole board:
picture, status line, buttons and move list.  The position is mid-game and always the same: two
opening turns, then White's ``h1h2Ai1W`` typed on the board and level 2's answer, a three-capture
chain whose arrows show, with White's stones that must capture marked.  The PNG is reduced to 256
colours, as the board's own flat colours allow, to stay small.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.servers import (  # noqa: E402  (the checkout's benchmarks, beside this folder)
    CHROMIUM,
    LAUNCH_ARGS,
    free_port,
    serving,
    voila_command,
    write_notebooks,
)

OUT = ROOT / "docs" / "board.png"
#: The notebook's one cell: the board as the page shows it, shown once the computer has answered,
#: so the page's first state is already the one photographed (one run of five without the wait
#: timed out waiting for the answer's status line).
CELL = """\
import fanorona as fa

board = fa.Board()
for text in ("d2e3A", "g4g5Wf4Ag3A"):
    board.push(board.parse_turn(text))
widget = fa.BoardWidget(board, opponent=2, max_width=None)
widget.type_turn("h1h2Ai1W")
widget.wait()
widget"""
#: What the status line says once the computer has answered.
ANSWERED = "Level 2 played e4e3Ad2Ae2W. White to move."
WIDTH, HEIGHT = 960, 900


def take(out: Path = OUT) -> Path:
    """Serve the board, wait for the computer's answer and its picture, and write the PNG."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        folder_path = Path(folder)
        write_notebooks(folder_path, {"board.ipynb": [CELL]})
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        command = voila_command(folder_path / "board.ipynb", port)
        with (
            serving(command, url + "/", folder_path / "voila.log", kit_settings=True),
            sync_playwright() as p,
        ):
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
            try:
                page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
                page.set_default_timeout(180_000)
                page.goto(url + "/")
                board = page.locator(".fanorona-board").first
                board.wait_for(state="visible")
                page.locator(".fanorona-status", has_text=ANSWERED).wait_for()
                page.locator(".jupyter-matplotlib-canvas-div canvas").first.wait_for()
                page.wait_for_timeout(2000)  # the last picture drawn, no button hovered
                page.mouse.move(0, 0)
                shot = board.screenshot()
            finally:
                browser.close()
    out.write_bytes(small_png(shot))
    return out


def small_png(data: bytes) -> bytes:
    """The PNG with a palette of 256 colours at most (the board's colours are few and flat)."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(data)).convert("RGB")
    with io.BytesIO() as png:
        image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(
            png, format="png", optimize=True
        )
        return png.getvalue()


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    out = take(Path(args[0]) if args else OUT)
    print(f"{out}: {out.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
