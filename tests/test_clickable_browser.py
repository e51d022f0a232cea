"""The student's own program with the extensions (notebook 10b), clicked in a real browser:
JupyterLab runs the reference solutions of notebooks 3, 4, 9, 10 and 10b and shows
``play(MyFullGame(5, 5))`` as an ipympl canvas; Chromium clicks a game on it at the points' pixels
(a two-way choice settled by clicking a stone of the string, a capture chain, a chain ended by
clicking its stone), and after each click the kernel's model must match the package's board given
the same clicks.
"""

import json
import random

import nbformat
import pytest
from test_browser import (  # the fixture page is used by name
    NOTEBOOKS,
    SCREENSHOTS,
    page,  # noqa: F401
)
from test_student_copies import EARLIER, answer

from benchmarks.servers import write_notebooks
from fanorona import Board, Rules
from fanorona.exercises.clickable import act, clicks_for
from fanorona.ui.controller import Controller

pytestmark = pytest.mark.browser

NOTEBOOK = "10b_assignment_extensions.ipynb"
ANSWER = 20  # seconds for the picture to answer a click
SEED, TURNS = (
    1,
    8,
)  # the checker's figure game: it has a two-way choice, chains, and a chain ended by a click
SETUP = """%matplotlib widget
import json
with plt.ioff():
    model = MyFullGame(5, 5)
    fig = play(model)
fig.canvas.draw()
display(fig.canvas)"""
PIXELS = """ax = fig.axes[0]
height = fig.canvas.get_width_height()[1]
print(json.dumps({p: [float(x), float(height - y)] for p in model.points
                  for x, y in [ax.transData.transform(column_row(p))]}))"""
STATE = (
    "print(json.dumps({'turns': [str(t) for t in model.turns], 'chain': [str(s) for s in"
    " model.chain]}))"
)


def reference_program(notebook: str = NOTEBOOK) -> str:
    """The given cells of ``notebook`` (10b, or 10) and the reference solutions, as one program (its
    checks left out)."""
    parts = []
    for cell in nbformat.read(NOTEBOOKS / notebook, as_version=4).cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or meta.get("grade") or "try:" in cell.source:
            continue
        if meta.get("grade_id") == "earlier_functions":
            parts.append("\n\n\n".join(answer(*where) for where in EARLIER[notebook]))
        elif meta.get("solution"):
            parts.append(answer(notebook, meta["grade_id"]))
        else:
            parts.append(cell.source)
    return "\n\n\n".join(parts)


def script():
    """The clicks of the game and the state after each: (point, turns, chain) on the package's
    board."""
    rng, board = random.Random(SEED), Board((5, 5), Rules.danish())
    controller, played = Controller(board), []
    while board.outcome() is None and len(board.turns) < TURNS:
        for point in clicks_for(board, rng):
            two_way = bool(controller.pending)
            act(controller, point)
            played.append(
                (point, [str(t) for t in board.turns], [str(s) for s in board.chain], two_way)
            )
    return played


@pytest.fixture(scope="module")
def lab(jupyterlab):
    """The run's JupyterLab, with the reference program's notebook in its folder."""
    write_notebooks(jupyterlab.folder, {"game.ipynb": [reference_program(), SETUP]})
    return jupyterlab.url


IN_KERNEL = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  let text = '';
  const future = kernel.requestExecute({code});
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === 'stream') text += msg.content.text;
    if (msg.header.msg_type === 'error')
      text += 'ERROR ' + msg.content.ename + ': ' + msg.content.evalue;
  };
  await future.done;
  return text;
}"""


def test_a_game_clicked_on_the_reference_program_in_jupyterlab(lab, page):  # noqa: F811
    played = script()
    assert any(two_way for *_rest, two_way in played), "the script has no two-way choice"
    assert any(len(chain) >= 2 for _p, _t, chain, _w in played), "the script has no chain"
    page.goto(f"{lab}/lab/tree/game.ipynb?reset")
    page.wait_for_function(
        "() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
        " return w && w.sessionContext && w.sessionContext.session"
        " && w.sessionContext.session.kernel"
        " && w.sessionContext.session.kernel.connectionStatus === 'connected'; }"
    )
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    canvas = page.locator(".jupyter-matplotlib-canvas-div canvas").first
    canvas.wait_for(state="visible")
    try:
        pixels = json.loads(page.evaluate(IN_KERNEL, PIXELS))
        for n, (point, turns, chain, _two_way) in enumerate(played):
            where = f"click {n + 1} ({point}) of {[p for p, *_ in played]}"
            x, y = pixels[point]
            before = canvas.screenshot()
            canvas.click(
                position={"x": x, "y": y}, force=True
            )  # scrolls it into view; the top canvas takes it
            for _ in range(
                ANSWER * 4
            ):  # every click changes the picture: a ring, a title, the stones
                page.wait_for_timeout(250)
                if canvas.screenshot() != before:
                    break
            else:
                pytest.fail(f"the picture did not change after {where}")
            state = page.evaluate(IN_KERNEL, STATE)
            assert not state.startswith("ERROR"), state
            assert json.loads(state) == {"turns": turns, "chain": chain}, f"after {where}"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        canvas.screenshot(path=str(SCREENSHOTS / "clickable_game.png"))
    finally:
        page.evaluate("() => window.jupyterapp.serviceManager.sessions.shutdownAll()")
