"""Every verdict is made in the grader: the sandboxed worker only reports plain data (what the
student's function returned, the state of the boards it was given after the call, the figure's
layout and picture), and the grader compares it with what it sent.  A cell that patches the
worker, its modules or the board so the worker reports no change, or that answers the grader's
clicks itself instead of connecting a handler to the figure, earns nothing.  Each route is
written as a clever student would, and graded through the real worker in the sandbox."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_clickable_browser import reference_program
from test_grading import graded as graded_cells
from test_grading_answers import graded

NOTEBOOK_09 = "09_assignment_model.ipynb"
NOTEBOOK_10 = "10_assignment_view_and_control.ipynb"

#: An apply_step that plays the step on the board it is given (the notebook asks it to leave the
#: board as it was) and answers the stones after it: right stones, wrong way.
CHANGES_ITS_BOARD = (
    "import fanorona as _fa\n"
    "def apply_step(board, origin, destination, capture):\n"
    "    board.push(_fa.Step(origin, destination, capture))\n"
    "    board._history.clear()\n"
    "    return {p: board.stone_at(p).value for p in board.points if board.stone_at(p)}\n"
)

#: Ways to make the worker report that the board did not change, each after CHANGES_ITS_BOARD.
NO_CHANGE = {
    "alone": "",
    "patches-the-workers-answer": (
        "import fanorona.grading.worker as _w\n"
        "_answer = _w.Worker.answer\n"
        "def _quiet(self, request, target=None):\n"
        "    reply = _answer(self, request, target)\n"
        "    reply.pop('changed', None)\n"
        "    reply.pop('after', None)\n"
        "    return reply\n"
        "_w.Worker.answer = _quiet\n"
    ),
    "makes-the-board-report-no-change": (
        "_fa.Board.key = lambda self: 'always the same'\n"
        "_fa.Board.fen = lambda self: 'always the same'\n"
    ),
    "patches-the-plain-data-of-boards": (
        "import fanorona.grading.plain as _p\n"
        "_p.board_data = lambda board: {'rules': {}, 'fen': '', 'turns': []}\n"
        "_p.board_state = lambda board: None\n"
    ),
    "patches-the-worker-found-through-frames": (
        "import sys as _sys\n"
        "_changes = apply_step\n"
        "def apply_step(board, origin, destination, capture):\n"
        "    frame = _sys._getframe(1)\n"
        "    while frame is not None:\n"
        "        me = frame.f_locals.get('self')\n"
        "        if type(me).__name__ == 'Worker':\n"
        "            type(me).answer = _quiet_answer(type(me).answer)\n"
        "        frame = frame.f_back\n"
        "    return _changes(board, origin, destination, capture)\n"
        "def _quiet_answer(answer):\n"
        "    def quiet(self, request, target=None):\n"
        "        reply = answer(self, request, target)\n"
        "        reply.pop('changed', None)\n"
        "        return reply\n"
        "    return quiet\n"
    ),
}


@pytest.mark.parametrize("route", NO_CHANGE)
def test_an_apply_step_that_changes_its_board_scores_nothing_whatever_the_worker_says(route):
    result, _ = graded(
        NOTEBOOK_09, "apply_step", "check_apply_step", CHANGES_ITS_BOARD + NO_CHANGE[route]
    )
    assert result.score == 0, result
    said = " ".join(((result.sentence or "") + result.text).split())
    assert "changed the board it was given" in said or "cannot import" in said, said


def test_a_correct_apply_step_still_scores_full_points():
    result, _ = graded(NOTEBOOK_09, "apply_step", "check_apply_step")
    assert result.score is None and "cases agree." in result.text, result


#: A play() that draws the position and connects no handler: the cell answers the grader's clicks
#: itself, by replacing the worker's click (the model plays, the figure redraws).
NO_HANDLER = (
    "def play(model):\n"
    "    fig, ax = plt.subplots(figsize=(6, 3.8))\n"
    "    control = Clicks(model)\n"
    "    def redraw():\n"
    "        ax.clear()\n"
    "        draw_position(model, ax)\n"
    "    redraw()\n"
    "    _played.append((fig, control, redraw))\n"
    "    return fig\n"
    "_played = []\n"
    "def _answer_the_click(fig, point):\n"
    "    for figure, control, redraw in _played:\n"
    "        if figure is fig:\n"
    "            control.click(point)\n"
    "            redraw()\n"
)
#: How the cell puts ``_answer_the_click`` where the worker clicks.
CLICK_REPLACED = {
    "alone": "",
    "replaces-the-workers-figure-request": (
        "import fanorona.grading.worker as _w\n"
        "_figure = _w.Worker.figure\n"
        "def _clicking(self, op, target, args, request):\n"
        "    if op == 'click':\n"
        "        return _answer_the_click(target, str(args[0]))\n"
        "    return _figure(self, op, target, args, request)\n"
        "_w.Worker.figure = _clicking\n"
    ),
    "replaces-the-workers-click-found-through-frames": (
        "import sys as _sys\n"
        "_drawn = play\n"
        "def play(model):\n"
        "    frame = _sys._getframe(1)\n"
        "    while frame is not None:\n"
        "        me = frame.f_locals.get('self')\n"
        "        if type(me).__name__ == 'Worker' and not hasattr(type(me), '_clicked'):\n"
        "            type(me)._clicked = type(me).figure\n"
        "            type(me).figure = _clicking\n"
        "        frame = frame.f_back\n"
        "    return _drawn(model)\n"
        "def _clicking(self, op, target, args, request):\n"
        "    if op == 'click':\n"
        "        return _answer_the_click(target, str(args[0]))\n"
        "    return type(self)._clicked(self, op, target, args, request)\n"
    ),
}


@pytest.mark.parametrize("route", CLICK_REPLACED)
def test_a_play_that_connects_no_handler_scores_nothing_when_it_answers_the_clicks_itself(route):
    program = reference_program(NOTEBOOK_10)
    start = program.index("def play(model):")
    end = program.index("    return fig", start) + len("    return fig")
    hostile = program[:start] + NO_HANDLER + CLICK_REPLACED[route] + program[end:]
    assert "mpl_connect" not in hostile
    result = graded_cells([hostile], NOTEBOOK_10, "check_simple_clickable", 3)
    assert result.score == 0, result


def test_a_drawing_that_changes_its_board_scores_nothing_whatever_the_worker_says():
    """It draws the position right, then puts a stone on a1 or takes it away, and replaces what
    the worker it imports would read the board with: the grader compares the state the worker's
    own copy reports with the board it sent."""
    changes = (
        "_drawn = draw_position\n"
        "def draw_position(board, ax):\n"
        "    _drawn(board, ax)\n"
        "    board._white ^= 1\n"
        "import fanorona.grading.plain as _p\n"
        "_p.board_state = lambda board: None\n"
    )
    program = reference_program(NOTEBOOK_10) + "\n\n\n" + changes
    result = graded_cells([program], NOTEBOOK_10, "check_view", 3)
    assert result.score == 0, result
    assert "changed the board it was given" in " ".join((result.sentence or "").split())
