"""The board in a real browser: JupyterLab running notebook 06 and a one-board notebook, and
Voilà serving play.ipynb (a fresh kernel for each page load), in Debian's Chromium.

Chromium clicks the canvas at the pixels of points and presses the board's buttons as a user
would; what reaches Python is read back from the page (the move list, the status line, the
labels), and the picture must follow.  One browser and one server of each kind serve the whole
run (tests/conftest.py).  Screenshots go to build/screenshots/.  Without /usr/bin/chromium the
tests skip, except under CI=true, where that is a failure.
"""

import json
import re
import shutil
import time
from pathlib import Path

import conftest
import pytest

from benchmarks.servers import write_notebooks

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SCREENSHOTS = ROOT / "build" / "screenshots"
NOTEBOOK_RUN = 300
ANSWER = 30  # seconds for the board to answer a click
# White's opening step d2-e3 captures f4 and g5 by approach; it is legal at the start whatever
# follows.
STEP = ("d2", "e3")


# Installed in every page before its own scripts: counts the pictures drawn on a board's canvas
# and remembers when the last one came, so a test can wait until the picture has settled.
COUNT_DRAWS = """
(() => {
  window.__boardDraws = 0;
  window.__lastBoardDraw = 0;
  const drawImage = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (...args) {
    const result = drawImage.apply(this, args);
    if (this.canvas.isConnected && this.canvas.closest('.fanorona-board')) {
      window.__boardDraws += 1;
      window.__lastBoardDraw = performance.now();
    }
    return result;
  };
})();
"""

# Every button, toggle, chooser (and its description) and text (the move list, the status line)
# of a board whose box is cut: by the viewport's width, by a scrolling or clipping ancestor, by its
# own width (ellipsis, a sideways scroll), or, for a chooser, an option wider than its box.
CLIPPED = """
(board) => {
  const viewport = document.documentElement.clientWidth, problems = [];
  const selector = '.widget-button, .widget-toggle-button, .widget-dropdown select, .widget-label,'
                 + ' .widget-html, .widget-html *';
  const measure = document.createElement('canvas').getContext('2d');
  for (const el of board.querySelectorAll(selector)) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || !el.checkVisibility()) continue;
    if (el.closest('.fanorona-picture-text')) continue;  // for screen readers, hidden on purpose
    const text = (el.innerText || el.value || '').trim().slice(0, 30);
    const name = `${el.tagName.toLowerCase()}.${el.className} "${text}"`;
    let left = Math.max(box.left, 0), right = Math.min(box.right, viewport);
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') {
        const outer = a.getBoundingClientRect();
        left = Math.max(left, outer.left);
        right = Math.min(right, outer.left + a.clientLeft + a.clientWidth);
      }
    }
    if (left > box.left + 1 || right < box.right - 1)
      problems.push(`${name}: box ${box.left.toFixed(0)}..${box.right.toFixed(0)} px,`
                    + ` visible ${left.toFixed(0)}..${right.toFixed(0)} px`);
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== 'inline')
      problems.push(`${name}: content ${el.scrollWidth} px wide in a box of ${el.clientWidth} px`);
    if (el.tagName === 'SELECT') {
      const style = getComputedStyle(el);
      measure.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = el.clientWidth - parseFloat(style.paddingLeft)
        - parseFloat(style.paddingRight);
      for (const option of el.options)
        if (measure.measureText(option.text).width > room + 1)
          problems.push(`${name}: option "${option.text}" wider than the chooser's `
            + `${room.toFixed(0)} px`);
    }
  }
  if (document.documentElement.scrollWidth > viewport + 1)
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px `
      + `in ${viewport} px`);
  return problems;
}
"""


def open_page(browser, width: int, height: int):
    """A page of the given viewport, offline (only localhost answers), that counts board
    pictures."""
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(COUNT_DRAWS)
    context.route(
        "**/*",
        lambda route: (
            route.continue_() if route.request.url.startswith("http://127.0.0.1") else route.abort()
        ),
    )
    page = context.new_page()
    page.set_default_timeout(NOTEBOOK_RUN * 1000)
    return page


def leave(page) -> None:
    """Close the page (a Voilà page's goodbye stops its kernel: see tests/test_serving.py)."""
    page.context.close()


@pytest.fixture
def page(browser):
    page = open_page(browser, 1280, 1000)
    yield page
    leave(page)


@pytest.fixture
def small_page(browser):
    """A 1024x768 page: a classroom projector's resolution."""
    page = open_page(browser, 1024, 768)
    yield page
    leave(page)


@pytest.fixture(scope="module")
def lab(jupyterlab):
    """The run's JupyterLab, with notebook 06 and a one-board notebook in its folder."""
    shutil.copy(NOTEBOOKS / "06_interactive_board.ipynb", jupyterlab.folder)
    write_notebooks(jupyterlab.folder, {"board.ipynb": ["import fanorona as fa\nfa.BoardWidget()"]})
    return jupyterlab.url


def shut_down_kernels(page) -> None:
    """Stop the lab's kernels from the page, so a finished test leaves no kernel working."""
    page.evaluate("() => window.jupyterapp.serviceManager.sessions.shutdownAll()")


def run_notebook_in_lab(page, lab: str, name: str) -> None:
    """Open a notebook in JupyterLab, wait for its kernel, run all its cells (without waiting)."""
    page.goto(
        f"{lab}/lab/tree/{name}?reset"
    )  # a fresh workspace: no notebook of an earlier test reopens
    page.wait_for_function(
        "() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
        " return w && w.sessionContext && w.sessionContext.session"
        " && w.sessionContext.session.kernel"
        " && w.sessionContext.session.kernel.connectionStatus === 'connected'; }"
    )
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")


@pytest.fixture(scope="module")
def voila(voila_play):
    """The run's Voilà serving play.ipynb."""
    return voila_play.url


class OnPage:
    """A board as a user meets it on the page: points clicked at their pixels, buttons pressed,
    choosers set; each action waits for the board's answer in the status line."""

    def __init__(self, page, root):
        self.page, self.root = page, root
        self.canvas = root.locator(".jupyter-matplotlib-canvas-div canvas").first
        self.status_line = root.locator(".fanorona-status")
        self.move_list = root.locator(".fanorona-moves")

    def ready(self) -> "OnPage":
        """Wait until the board shows its first picture."""
        self.root.wait_for(state="visible")
        self.canvas.wait_for(state="visible")
        self.page.wait_for_function("() => window.__boardDraws > 0")
        self.root.scroll_into_view_if_needed()
        return self

    def status(self) -> str:
        return self.status_line.inner_text()

    def moves(self) -> str:
        """The move list, its whitespace made single spaces."""
        return " ".join(self.move_list.inner_text().split())

    def answered(self, action) -> None:
        """Do action, then wait until the board has answered: a new status line and a new picture,
        then a moment without another picture.  (The status element is looked up afresh: the
        board replaces it on each change.)"""
        old, draws = self.status(), self.page.evaluate("() => window.__boardDraws")
        action()
        self.page.wait_for_function(
            "([root, old]) => root.querySelector('.fanorona-status').innerText !== old",
            arg=[self.root.element_handle(), old],
            timeout=ANSWER * 1000,
        )
        self.page.wait_for_function(f"() => window.__boardDraws > {draws}", timeout=ANSWER * 1000)
        self.settled(200)

    def click(self, *points: str) -> None:
        for point in points:
            fx, fy = json.loads(self.root.locator(".fanorona-points").text_content())[point]
            self.canvas.scroll_into_view_if_needed()
            box = self.canvas.bounding_box()
            x, y = box["x"] + fx * box["width"], box["y"] + fy * box["height"]
            self.answered(lambda x=x, y=y: self.page.mouse.click(x, y))

    def button(self, name: str):
        return self.root.get_by_role("button", name=name, exact=True)

    def press(self, name: str) -> None:
        self.answered(self.button(name).click)

    def chooser(self, description: str):
        return self.root.get_by_label(description, exact=True)

    def without_computer(self) -> None:
        """Nobody plays for the computer (play.ipynb starts with it on Black)."""
        self.chooser("Computer").select_option(label="nobody")

    def load(self, position: str) -> None:
        """Load a named teaching position with the Position chooser and the Load button."""
        chooser = self.chooser("Position")
        if not chooser.is_visible():
            self.root.get_by_text("Positions and game record").click()
        chooser.select_option(label=position)
        self.press("Load")

    def load_diagram(self, diagram: str) -> None:
        """Type a position's rows (top first) into the box beside Load diagram and press it."""
        load = self.button("Load diagram")
        if not load.is_visible():
            self.root.get_by_text("Positions and game record").click()
        load.locator("xpath=..").locator("textarea").fill(diagram)
        self.press("Load diagram")

    def settled(self, quiet_ms: int = 500) -> None:
        """Wait until no new picture has come for quiet_ms."""
        self.page.wait_for_function(
            f"() => performance.now() - window.__lastBoardDraw > {quiet_ms}", timeout=ANSWER * 1000
        )

    def shot(self, name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.settled()
        self.root.screenshot(path=str(SCREENSHOTS / f"{name}.png"))

    def clipped(self) -> list[str]:
        return self.page.evaluate(CLIPPED, self.root.element_handle())


def board_in_voila(page, voila: str) -> OnPage:
    page.goto(voila)
    board = OnPage(page, page.locator(".fanorona-board").first).ready()
    board.without_computer()
    return board


def play_a_step(page, board, name: str) -> None:
    """Click the two points of STEP on the board's canvas; check the move list and the picture
    change."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    board.scroll_into_view_if_needed()
    canvas = board.locator(".jupyter-matplotlib-canvas-div canvas").first
    canvas.wait_for(state="visible")
    moves = board.locator(".fanorona-moves")
    points = json.loads(board.locator(".fanorona-points").text_content())
    page.wait_for_timeout(1500)  # let the first picture arrive
    before = canvas.screenshot(path=str(SCREENSHOTS / f"{name}_before.png"))
    moves_before = moves.inner_text()
    box = canvas.bounding_box()
    for point in STEP:
        fx, fy = points[point]
        page.mouse.click(box["x"] + fx * box["width"], box["y"] + fy * box["height"])
        page.wait_for_timeout(400)
    page.wait_for_function(
        "([root, old]) => root.querySelector('.fanorona-moves').innerText !== old",
        arg=[board.element_handle(), moves_before],
        timeout=ANSWER * 1000,
    )
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
    run_notebook_in_lab(page, lab, "06_interactive_board.ipynb")
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.content.widgets"
        ".filter(cell => cell.model.type === 'code').every(cell => cell.model.executionCount)"
    )
    boards = page.locator(".fanorona-board")
    boards.last.wait_for()  # the last cell's board: a new game
    try:
        play_a_step(page, boards.last, "lab")
    finally:
        shut_down_kernels(page)


def test_a_step_clicked_in_voila(voila, page):
    page.goto(voila)
    board = page.locator(".fanorona-board").first
    board.wait_for(state="visible")
    play_a_step(page, board, "voila")
    canvas = board.locator(".jupyter-matplotlib-canvas-div canvas").first
    width = canvas.bounding_box()["width"]
    board.get_by_role("button", name="Large").click()
    page.wait_for_function(
        "([el, w]) => el.getBoundingClientRect().width > 1.3 * w",
        arg=[canvas.element_handle(), width],
    )
    page.wait_for_timeout(1000)
    board.screenshot(path=str(SCREENSHOTS / "voila_large.png"))


def test_clicking_a_stone_of_either_string_chooses_between_approach_and_withdrawal(voila, page):
    board = board_in_voila(page, voila)
    board.load("both-ways")  # White c3-d3 approaches e3 or withdraws from the string b3, a3
    board.click("c3", "d3")
    assert "c3d3" not in board.moves(), "the step was played before its capture was chosen"
    board.shot("voila_choice_pending")
    board.click("a3")  # the far stone of the withdrawal string
    assert "c3d3W" in board.moves()
    board.shot("voila_choice_withdrawal")
    board.press("Undo turn")
    assert "c3d3" not in board.moves()
    board.click("c3", "d3", "e3")  # the approached stone
    assert "c3d3A" in board.moves()


def test_end_turn_stops_a_chain(voila, page):
    board = board_in_voila(page, voila)
    board.load("long-chain")  # b2c1W may go on: d2A, d1W, e1A, f2A, e2W
    assert board.button("End turn").is_disabled()
    board.click("b2", "c1")
    assert "b2c1W…" in board.moves()
    assert board.button("End turn").is_enabled()
    board.shot("voila_chain_pending")
    board.press("End turn")
    assert "b2c1W" in board.moves() and "…" not in board.moves()
    assert board.button("End turn").is_disabled()
    board.click("e3")  # Black's turn now: one of its stones can be selected
    assert "b2c1W" in board.moves()


def test_undo_step_in_a_chain_selects_the_chain_stone_so_the_step_can_be_played_again(voila, page):
    board = board_in_voila(page, voila)
    board.load("long-chain")
    board.click("b2", "c1", "d2")
    assert "b2c1Wd2A…" in board.moves()
    board.press("Undo step")
    assert "b2c1W…" in board.moves() and "d2A" not in board.moves()
    board.shot("voila_chain_step_undone")
    board.click("d2")
    assert "b2c1Wd2A…" in board.moves(), board.status()


def test_the_language_chooser_relabels_the_board(voila, page):
    from playwright.sync_api import expect

    board = board_in_voila(page, voila)
    chooser = board.chooser("Language")
    options = chooser.locator("option").all_inner_texts()
    danish = [text for text in options if text.strip().lower() in ("dansk", "da")]
    assert danish, f"no Danish among the languages {options}"
    chooser.select_option(label=danish[0])
    for name in ("Afslut træk", "Fortryd træk", "Nyt spil"):  # End turn, Undo turn, New game
        expect(board.button(name)).to_be_visible(timeout=ANSWER * 1000)
    expect(board.chooser("Sprog")).to_be_visible()  # the chooser names itself in Danish
    board.click("d3")
    assert "d3 er valgt" in board.status()  # "d3 selected": sentences too
    board.shot("voila_danish")


def test_a_voila_page_starts_in_the_language_of_its_address(voila, page):
    from playwright.sync_api import expect

    page.goto(f"{voila}/?lang=de")
    board = OnPage(page, page.locator(".fanorona-board").first).ready()
    expect(board.button("Zug beenden")).to_be_visible()  # End turn
    expect(board.chooser("Sprache")).to_be_visible()  # Language
    board.click("d3")
    assert "d3 gewählt" in board.status()  # "d3 selected"


# White's f2 captures fifteen times in one turn, never with a choice to make: the longest turn
# text found in random 9x5 positions (47 characters).
LONG_CHAIN = (
    "...BB.B..\nB.BB.B.B.\nB...B.B.B\nBB.BBWB..\nBBB.....B",
    "f2g1Wh2Ah3Ai3Wh4Ag4Ag3Af4Ae3Ae4Wd4Ac3Ab3Ab2Ac2W",
)


def play_the_long_chain(board: OnPage) -> None:
    """Load LONG_CHAIN with the Load diagram box and click its sixteen points."""
    diagram, turn = LONG_CHAIN
    board.load_diagram(diagram)
    board.click(*re.findall(r"[a-i][1-5]", turn))
    assert turn in board.moves() and "…" not in board.moves()


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
def test_nothing_is_clipped_at_1024x768_in_voila(voila, small_page, large):
    board = board_in_voila(small_page, voila)
    play_the_long_chain(board)
    if large:
        board.button("Large").click()
        board.settled()
    board.root.get_by_text("Positions and game record").scroll_into_view_if_needed()
    board.shot(f"voila_1024x768_{'large' if large else 'normal'}")
    clipped = board.clipped()
    assert not clipped, "\n".join(clipped)


def test_nothing_is_clipped_in_large_mode_in_jupyterlab_with_the_file_browser_open(lab, small_page):
    page = small_page
    run_notebook_in_lab(page, lab, "board.ipynb")
    try:
        page.evaluate(
            "() => { if (window.jupyterapp.shell.leftCollapsed)"
            " window.jupyterapp.commands.execute('filebrowser:activate'); }"
        )
        page.wait_for_function("() => !window.jupyterapp.shell.leftCollapsed")
        board = OnPage(page, page.locator(".fanorona-board:visible").first).ready()
        play_the_long_chain(board)
        board.button("Large").click()
        board.settled()
        board.shot("lab_1024x768_large")
        clipped = board.clipped()
        assert not clipped, "\n".join(clipped)
        canvas, area = page.evaluate(
            """root => {
            const c = root.querySelector('.jupyter-matplotlib-canvas-div canvas')
              .getBoundingClientRect();
            const a = root.closest('.jp-OutputArea-output').getBoundingClientRect();
            return [[c.left, c.right], [a.left, a.right]]; }""",
            board.root.element_handle(),
        )
        assert area[0] - 1 <= canvas[0] and canvas[1] <= area[1] + 1, (
            f"the Large canvas spans {canvas[0]:.0f}-{canvas[1]:.0f} px, the output area"
            f" {area[0]:.0f}-{area[1]:.0f} px"
        )
    finally:
        shut_down_kernels(page)


def test_without_chromium_the_browser_tests_skip_but_fail_under_ci(monkeypatch, tmp_path):
    monkeypatch.setattr(conftest, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="no Chromium"):
        conftest.require_chromium()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="no Chromium"):
        conftest.require_chromium()


# -- the picture is the game's, the move list and the turn slider -----------------------------


def canvas_rgba(board: OnPage):
    """The board's canvas pixels, as the page has them (an RGBA array at the canvas's CSS size)."""
    import base64
    import io

    import numpy as np
    from PIL import Image

    url = board.canvas.evaluate("c => c.toDataURL('image/png')")
    image = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGBA")
    box = board.canvas.bounding_box()
    return np.asarray(image.resize((round(box["width"]), round(box["height"])), Image.NEAREST))


def stones_on_page(board: OnPage) -> dict:
    from test_widget import stones_in_pixels

    return stones_in_pixels(
        canvas_rgba(board), json.loads(board.root.locator(".fanorona-points").text_content())
    )


def game_of_move_list(board: OnPage, size) -> dict:
    """The stones of the game whose turns the move list shows, replayed by the rules."""
    import fanorona as fa
    from fanorona.board import Step
    from fanorona.notation import tokenize_turn

    game = fa.Board(size)
    for token in board.moves().split():
        if token.endswith("…") and token != "…":  # a chain in progress: its steps one by one
            start, steps = tokenize_turn(token[:-1])
            for origin, (destination, capture) in zip([start] + [d for d, _ in steps], steps):
                game.push(Step(origin, destination, capture))
        elif not re.fullmatch(r"\d+\.|…", token):
            game.push(game.parse_turn(token))
    return {p: game.stone_at(p) for p in game.points}


def set_delay_zero(board: OnPage) -> None:
    handle = (
        board.root.locator(".widget-hslider").filter(has_text="Step delay").locator(".noUi-handle")
    )
    handle.focus()
    board.page.keyboard.press("Home")
    board.page.wait_for_function(
        "el => el.getAttribute('aria-valuenow') === '0.0' || "
        "Number(el.getAttribute('aria-valuenow')) === 0",
        arg=handle.element_handle(),
    )


@pytest.mark.parametrize("delay", [0, 0.4])
def test_after_a_computer_game_the_canvas_shows_the_games_stones(voila, page, delay):
    board = board_in_voila(page, voila)
    board.chooser("Size").select_option(label="5x5")
    board.settled()
    if delay == 0:
        set_delay_zero(board)
    board.chooser("Level").select_option(label="1")
    board.chooser("Computer").select_option(label="both")
    page.wait_for_function(
        "root => /wins|Draw/.test(root.querySelector('.fanorona-status').innerText)",
        arg=board.root.element_handle(),
        timeout=NOTEBOOK_RUN * 1000,
    )
    board.settled(1500)
    assert stones_on_page(board) == game_of_move_list(board, (5, 5)), board.status()
    board.shot(f"voila_computer_game_delay_{delay}")


def test_switching_the_computer_off_mid_game_leaves_a_true_picture(voila, page):
    board = board_in_voila(page, voila)
    set_delay_zero(board)
    board.chooser("Level").select_option(label="1")
    for round_ in range(3):
        board.chooser("Computer").select_option(label="both")
        page.wait_for_timeout(1500 + 500 * round_)
        board.chooser("Computer").select_option(label="nobody")
        board.settled(1500)
        assert stones_on_page(board) == game_of_move_list(board, (9, 5)), (
            f"round {round_}: {board.status()}"
        )


def test_the_move_list_keeps_the_newest_turn_in_view(voila, page):
    from test_widget import long_game

    import fanorona as fa

    board = board_in_voila(page, voila)
    board.root.get_by_text("Positions and game record").click()
    board.root.locator("textarea").last.fill(fa.Game.from_board(long_game(120)).to_json())
    board.press("Import")
    board.click("a1", "b1")
    newest = page.evaluate(
        """root => {
        const box = root.querySelector('.fanorona-moves'), outer = box.getBoundingClientRect();
        const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.textContent.includes('a1b1')) {
            const range = document.createRange();
            range.selectNodeContents(node);
            const r = range.getBoundingClientRect();
            return [r.top, r.bottom, outer.top, outer.bottom];
          }
        }
        return null; }""",
        board.root.element_handle(),
    )
    assert newest, "the newest turn is not in the move list"
    top, bottom, box_top, box_bottom = newest
    assert box_top - 1 <= top and bottom <= box_bottom + 1, (
        f"the newest turn at {top:.0f}-{bottom:.0f} px, "
        f"the list shows {box_top:.0f}-{box_bottom:.0f} px"
    )


def test_the_end_key_on_the_turn_slider_goes_back_to_the_live_game(voila, page):
    import fanorona as fa

    board = board_in_voila(page, voila)
    game = fa.Board()
    for turn in (game.parse_turn("d3e3A"), None):
        if turn is None:  # a one-step reply with no choice to make
            turn = next(
                t
                for t in game.legal_turns()
                if len(t.steps) == 1
                and sum(
                    (s.origin, s.destination) == (t.steps[0].origin, t.steps[0].destination)
                    for s in game.legal_steps()
                )
                == 1
            )
        points = [turn.steps[0].origin] + [s.destination for s in turn.steps]
        if str(turn) == "d3e3A":
            points.append("f3")  # the approached stone settles the choice
        board.click(*points)
        game.push(turn)
    assert str(game.turns[1]) in board.moves()
    handle = board.root.locator(".widget-hslider").filter(has_text="Turn").locator(".noUi-handle")
    handle.focus()
    board.answered(lambda: page.keyboard.press("Home"))
    assert "after 0 of 2 turns" in board.status()
    handle.focus()
    board.answered(lambda: page.keyboard.press("End"))
    assert "Showing" not in board.status(), board.status()


def test_a_turn_typed_from_the_keyboard_is_played_and_the_picture_says_it_in_words(voila, page):
    from playwright.sync_api import expect

    board = board_in_voila(page, voila)
    typed = board.root.get_by_placeholder("d2e3A")
    typed.focus()
    page.keyboard.type("d2e3A")
    page.keyboard.press("Enter")
    expect(board.root.locator(".fanorona-moves")).to_contain_text("d2e3A", timeout=ANSWER * 1000)
    expect(typed).to_have_value("")
    picture = board.root.locator(".fanorona-picture-text")  # what a screen reader reads
    expect(picture).to_contain_text(re.compile("^Fanorona board 9x5, black to move"))
    assert picture.bounding_box()["width"] <= 1, "the words are read, not shown"


# -- a board's display leaves no error in the page's console nor its picture in a server's log ---

#: How every PNG's base64 begins: a picture written where only words belong.
PNG_BASE64 = "iVBORw0K"


def console_errors(page) -> list[str]:
    """The page's console errors and uncaught exceptions from now on, as they come."""
    errors: list[str] = []
    page.on(
        "console",
        lambda m: errors.append(f"{m.text} at {m.location['url']}") if m.type == "error" else None,
    )
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def log_lines_from(log: Path, offset: int) -> list[str]:
    """The lines a server has written to its log since it was ``offset`` characters long."""
    return log.read_text()[offset:].splitlines()


def assert_no_error_nor_picture(errors: list[str], log_lines: list[str]) -> None:
    """No console error (jupyter/voila.json keeps out the lab extensions Voilà cannot host), and no
    PNG in the server's log lines (each shown cut short: one may hold a whole picture)."""
    found = [f"console: {e[:300]}" for e in errors]
    found += [f"server log: {line[:300]}" for line in log_lines if PNG_BASE64 in line]
    assert not found, "\n".join(found)


def test_a_board_shown_in_voila_logs_no_console_error_nor_its_picture(voila_play, page):
    log = voila_play.folder / "voila.log"
    start, errors = len(log.read_text()), console_errors(page)
    page.goto(voila_play.url)
    board = OnPage(page, page.locator(".fanorona-board").first).ready()
    board.without_computer()
    board.click("d3")
    board.settled(1000)
    assert_no_error_nor_picture(errors, log_lines_from(log, start))


def test_a_board_shown_in_jupyterlab_logs_no_console_error_nor_its_picture(lab, jupyterlab, page):
    log = jupyterlab.folder / "lab.log"
    start, errors = len(log.read_text()), console_errors(page)
    run_notebook_in_lab(page, lab, "board.ipynb")
    try:
        board = OnPage(page, page.locator(".fanorona-board:visible").first).ready()
        board.click("d3")
        board.settled(1000)
    finally:
        shut_down_kernels(page)
    assert_no_error_nor_picture(errors, log_lines_from(log, start))
