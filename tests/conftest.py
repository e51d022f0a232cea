"""Shared fixtures: positions reached by seeded random play, for tests that need many positions;
the board controller factory; and the servers and the browser that the browser tests share.

How a test module says what it needs (see CONTRIBUTING.md, "Tests"): the markers ``browser``,
``notebook``, ``nbgrader`` and ``slow`` (registered in pyproject.toml); a test that uses a shared
server below is put in that server's xdist group here, so ``pytest -n 2 --dist loadgroup`` starts
each server once, on one worker.
"""

import os
import random
import shutil
import sys
from pathlib import Path

import pytest

import fanorona as fa
from benchmarks.servers import (
    CHROMIUM,
    LAUNCH_ARGS,
    free_port,
    lab_command,
    lab_folder,
    serving,
    voila_command,
)

ROOT = Path(__file__).resolve().parent.parent
SERVER_START = 180  # seconds; the machine may be shared and slow
#: The shared servers, by fixture name, and the xdist group of every test that uses one.
SHARED_SERVERS = {"jupyterlab": "jupyterlab", "voila_play": "voila"}


def pytest_collection_modifyitems(items):
    """Group the tests of each shared server on one worker, and mark every test that opens a
    browser ``browser`` (so ``-m "not browser"`` leaves out all of them, marked or not)."""
    for item in items:
        names = getattr(item, "fixturenames", ())
        for fixture, group in SHARED_SERVERS.items():
            if fixture in names:
                item.add_marker(pytest.mark.xdist_group(group))
        if "browser" in names:
            item.add_marker(pytest.mark.browser)


def require_chromium() -> None:
    """Skip without Chromium, except under CI=true, where that is a failure."""
    if CHROMIUM.exists():
        return
    reason = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    """One Chromium for the worker's whole run (each test opens its own context in it)."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


class Served:
    """A running server: its address, and for JupyterLab the folder it serves (a test module
    writes its notebooks there)."""

    def __init__(self, url: str, folder: Path):
        self.url, self.folder = url, folder


@pytest.fixture(scope="session")
def jupyterlab(tmp_path_factory):
    """One JupyterLab for the run, on an empty folder that the test modules fill."""
    require_chromium()
    folder = tmp_path_factory.mktemp("lab")
    lab_folder(folder, {})
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with serving(lab_command(folder, port), url + "/api", folder / "lab.log", SERVER_START):
        yield Served(url, folder)


@pytest.fixture(scope="session")
def voila_play(tmp_path_factory):
    """One Voilà for the run, serving play.ipynb; each page load gets its own kernel and board."""
    require_chromium()
    folder = tmp_path_factory.mktemp("voila")
    shutil.copy(ROOT / "notebooks" / "play.ipynb", folder)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = voila_command(folder / "play.ipynb", port)
    with serving(command, url + "/", folder / "voila.log", SERVER_START, kit_settings=True):
        yield Served(url, folder)


def make_dry_run(*arguments: str) -> list[str]:
    """The shell lines ``make -n`` would run in the repository for ``arguments``, with this
    interpreter's bin directory as the venv's; skipped where there is no make."""
    import subprocess

    if shutil.which("make") is None:
        pytest.skip("no make")
    return subprocess.run(
        ["make", "-n", *arguments, f"BIN={Path(sys.executable).parent}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()


def positions_from_random_games(count, size=(9, 5), rules=None, seed=0, every=3, max_turns=80):
    """``count`` boards met every ``every`` turns along seeded random games (game over excluded).

    Games restart from the start position when they end, so the sample mixes openings,
    middle games and endings.
    """
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = fa.Board(size, rules)
        while board.outcome() is None and len(board.turns) < max_turns and len(found) < count:
            if len(board.turns) % every == 0:
                found.append(board.copy())
            board.push(rng.choice(board.legal_turns()))
    return found


def random_position(size, rules, seed, plies):
    """A position from a random game: up to ``plies`` seeded random turns from the start (fewer if
    it ends)."""
    rng = random.Random(seed)
    board = fa.Board(size, rules)
    for _ in range(plies):
        turns = board.legal_turns()
        if not turns:
            break
        board.push(rng.choice(turns))
    return board


@pytest.fixture(scope="session")
def positions():
    """The factory ``positions(count, size=(9, 5), rules=None, seed=0, every=3)``."""
    return positions_from_random_games


@pytest.fixture
def made():
    """A board controller factory (arguments as ``Controller``, plus ``delay``, 0 by default); every
    controller's computer is stopped after the test, so no thread outlives it."""
    from fanorona.ui.controller import Controller

    controllers = []

    def make(*args, delay=0, **kwargs):
        c = Controller(*args, **kwargs)
        c.set_delay(delay)
        controllers.append(c)
        return c

    yield make
    for c in controllers:
        with c.lock:
            c.runner.cancel()
        c.runner.wait(30)


@pytest.fixture
def forget_tampering():
    """A tampering test leaves the kernel marked (every later check fails): clear the mark after
    it."""
    from fanorona.exercises import seal

    yield
    seal.SEAL.verify()
    seal.SEAL.changed.clear()


@pytest.fixture(autouse=True)
def _close_figures():
    """draw_board with no Axes opens a pyplot figure; close them so tests don't pile them up."""
    yield

    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
