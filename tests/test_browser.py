"""The board in a real browser: JupyterLab running notebook 06, and Voilà serving play.ipynb.

Chromium clicks the canvas at the pixels of two points; the step must reach Python (the move
list changes) and come back as a new picture (the canvas screenshot changes).  Screenshots go
to build/screenshots/.  Without /usr/bin/chromium the tests skip, except under CI=true, where
that is a failure.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SCREENSHOTS = ROOT / "build" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]
SERVER_START = 180      # seconds; the machine may be shared and slow
NOTEBOOK_RUN = 300
# White's opening step d2-e3 captures f4 and g5 by approach; it is legal at the start whatever follows.
STEP = ("d2", "e3")


def require_chromium() -> None:
    if CHROMIUM.exists():
        return
    reason = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_http(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server stopped with code {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=10) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(1)
    pytest.fail(f"the server did not answer {url} within {SERVER_START} s:\n{log.read_text()[-3000:]}")


def serve(command: list[str], base: str, ready: str, log: Path):
    """Start a server, wait until base + ready answers, yield base; stop it (terminate, wait) at the end."""
    env = dict(os.environ, JUPYTER_PLATFORM_DIRS="1")
    env.pop("MPLBACKEND", None)
    with open(log, "w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=log.parent)
    try:
        wait_for_http(base + ready, process, log)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@pytest.fixture(scope="module")
def browser():
    require_chromium()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(NOTEBOOK_RUN * 1000)
    yield page
    context.close()


@pytest.fixture
def lab(tmp_path):
    require_chromium()
    shutil.copy(NOTEBOOKS / "06_interactive_board.ipynb", tmp_path)
    settings = tmp_path / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')   # no news toast
    port = free_port()
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
               "--IdentityProvider.token=", "--ServerApp.password=", "--LabApp.expose_app_in_browser=True",
               f"--ServerApp.root_dir={tmp_path}", f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
               f"--LabApp.user_settings_dir={tmp_path / 'settings'}",
               "--ServerApp.open_browser=False"]
    if os.geteuid() == 0:
        command.append("--allow-root")
    yield from serve(command, f"http://127.0.0.1:{port}", "/api", tmp_path / "lab.log")


@pytest.fixture
def voila(tmp_path):
    require_chromium()
    shutil.copy(NOTEBOOKS / "play.ipynb", tmp_path)
    port = free_port()
    command = [sys.executable, "-m", "voila", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
               str(tmp_path / "play.ipynb")]
    yield from serve(command, f"http://127.0.0.1:{port}", "/", tmp_path / "voila.log")


def play_a_step(page, board, name: str) -> None:
    """Click the two points of STEP on the board's canvas; check the move list and the picture change."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    board.scroll_into_view_if_needed()
    canvas = board.locator(".jupyter-matplotlib-canvas-div canvas").first
    canvas.wait_for(state="visible")
    moves = board.locator(".fanorona-moves")
    points = json.loads(board.locator(".fanorona-points").text_content())
    page.wait_for_timeout(1500)          # let the first picture arrive
    before = canvas.screenshot(path=str(SCREENSHOTS / f"{name}_before.png"))
    moves_before = moves.inner_text()
    box = canvas.bounding_box()
    for point in STEP:
        fx, fy = points[point]
        page.mouse.click(box["x"] + fx * box["width"], box["y"] + fy * box["height"])
        page.wait_for_timeout(400)
    page.wait_for_function("([el, old]) => el.innerText !== old", arg=[moves.element_handle(), moves_before])
    assert "".join(STEP) in moves.inner_text().replace("\n", " ")
    deadline = time.monotonic() + 60
    after = canvas.screenshot()
    while after == before and time.monotonic() < deadline:
        page.wait_for_timeout(500)
        after = canvas.screenshot()
    assert after != before, "the canvas picture did not change after the step"
    page.wait_for_timeout(1000)
    canvas.screenshot(path=str(SCREENSHOTS / f"{name}_after.png"))
    board.screenshot(path=str(SCREENSHOTS / f"{name}_board.png"))


def test_a_step_clicked_in_jupyterlab(lab, page):
    page.goto(f"{lab}/lab/tree/06_interactive_board.ipynb")
    page.wait_for_function("() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
                           " return w && w.sessionContext && w.sessionContext.session"
                           " && w.sessionContext.session.kernel"
                           " && w.sessionContext.session.kernel.connectionStatus === 'connected'; }")
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    boards = page.locator(".fanorona-board")
    page.wait_for_function("() => document.querySelectorAll('.fanorona-board').length >= 3")
    play_a_step(page, boards.last, "lab")


def test_a_step_clicked_in_voila(voila, page):
    page.goto(voila)
    board = page.locator(".fanorona-board").first
    board.wait_for(state="visible")
    play_a_step(page, board, "voila")
    canvas = board.locator(".jupyter-matplotlib-canvas-div canvas").first
    width = canvas.bounding_box()["width"]
    board.get_by_role("button", name="Large").click()
    page.wait_for_function("([el, w]) => el.getBoundingClientRect().width > 1.3 * w",
                           arg=[canvas.element_handle(), width])
    page.wait_for_timeout(1000)
    board.screenshot(path=str(SCREENSHOTS / "voila_large.png"))


def test_without_chromium_the_browser_tests_skip_but_fail_under_ci(monkeypatch, tmp_path):
    monkeypatch.setattr(sys.modules[__name__], "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="no Chromium"):
        require_chromium()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="no Chromium"):
        require_chromium()
