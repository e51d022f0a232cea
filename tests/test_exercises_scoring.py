"""Answers that are almost right fail their checks, in the kernel and in the grader: a program
that truncates the click's coordinates, a drawing with extra lines across the board, a model that
ends the game only when a side has no stones.  The notebooks' own answers still pass."""

import matplotlib
import pytest
from test_clickable_browser import reference_program
from test_exercises import draw_position
from test_grading import graded

from fanorona import Board, Rules
from fanorona.exercises import (
    ExerciseFailed,
    check_clickable,
    check_model,
    check_simple_clickable,
    check_view,
)
from fanorona.exercises.control import BLOCKED_GAMES

matplotlib.use("Agg")

N10, N10B = "10_assignment_view_and_control.ipynb", "10b_assignment_extensions.ipynb"
ROUNDED = "round(event.xdata), round(event.ydata)"
TRUNCATED = "int(event.xdata), int(event.ydata)"
#: A MyGame whose game ends only when the side to move has no stones (never when it is stuck).
NO_STONES_ONLY = """

class NoStonesOnly(MyGame):
    def outcome(self):
        if any(colour == self.to_move for colour in self.stones.values()):
            return None
        return fa.Outcome(enemy_of(self.to_move), f"{self.to_move} has no stones")


MyGame = NoStonesOnly
"""


def program(notebook: str, *mistake: str) -> dict:
    """The names the notebook's reference program defines, with ``mistake`` (old, new) made."""
    source = reference_program(notebook)
    if mistake:
        assert mistake[0] in source
        source = source.replace(*mistake)
    names: dict = {}
    exec(compile(source, notebook, "exec"), names)
    return names


def corner_lines(board, ax):
    """The right drawing plus two long lines joining opposite corners."""
    draw_position(board, ax)
    width, height = board.size
    ax.plot([0, width - 1], [0, height - 1], color="black")
    ax.plot([0, width - 1], [height - 1, 0], color="black")


def test_a_drawing_with_lines_across_the_board_off_its_grid_fails_and_says_where():
    with pytest.raises(ExerciseFailed, match=r"from \(0, 0\) to \(8, 4\) crosses the board"):
        check_view(corner_lines)


def test_a_frame_around_the_board_is_no_line_of_it_and_passes():
    def framed(board, ax):
        draw_position(board, ax)
        width, height = board.size
        xs = [-0.5, width - 0.5, width - 0.5, -0.5, -0.5]
        ax.plot(xs, [-0.5, -0.5, height - 0.5, height - 0.5, -0.5], color="black")

    assert check_view(framed) >= 25


def test_a_drawing_with_lines_across_the_board_loses_points_in_the_grader():
    extra = (
        '    ax.set_aspect("equal")\n',
        "    ax.plot([0, width - 1], [0, height - 1], color='k')\n"
        "    ax.plot([0, width - 1], [height - 1, 0], color='k')\n"
        '    ax.set_aspect("equal")\n',
    )
    source = reference_program(N10)
    assert extra[0] in source
    result = graded([source.replace(*extra)], N10, "check_view", 3)
    assert result.score is not None and result.score < 3
    assert "follows no line of it" in (result.sentence or "")


@pytest.mark.parametrize(("size", "steps"), BLOCKED_GAMES)
def test_each_blocked_game_ends_with_the_side_to_move_stuck(size, steps):
    board = Board(size, Rules.simple())
    for step in steps:
        assert board.outcome() is None
        board.push(step)
    assert board.outcome() is not None and board.stones(board.to_move)


def test_a_model_that_ends_the_game_only_without_stones_fails_check_model():
    names = program(N10)
    assert check_model(names["MyGame"]) > 0
    exec(compile(NO_STONES_ONLY, "the mistake", "exec"), names)
    with pytest.raises(ExerciseFailed, match="is stuck: it has stones, but none of them can step"):
        check_model(names["MyGame"])


def test_a_model_that_ends_the_game_only_without_stones_gets_nothing_in_the_grader():
    sources = [reference_program(N10) + NO_STONES_ONLY]
    result = graded(sources, "09_assignment_model.ipynb", "check_model", 5)
    assert result.score == 0 and "is stuck" in (result.sentence or "")


@pytest.mark.parametrize(
    ("notebook", "check", "model"),
    [(N10, check_simple_clickable, "MyGame"), (N10B, check_clickable, "MyFullGame")],
)
def test_a_program_that_truncates_the_click_fails_and_one_that_rounds_passes(
    notebook, check, model
):
    right = program(notebook)
    assert check(right["play"], right[model]) > 20
    wrong = program(notebook, ROUNDED, TRUNCATED)
    with pytest.raises(ExerciseFailed, match="round event.xdata and event.ydata"):
        check(wrong["play"], wrong[model])


@pytest.mark.parametrize(
    ("notebook", "check"), [(N10, "check_simple_clickable"), (N10B, "check_clickable")]
)
def test_a_program_that_truncates_the_click_keeps_at_most_half_in_the_grader(notebook, check):
    wrong = reference_program(notebook).replace(ROUNDED, TRUNCATED)
    result = graded([wrong], notebook, check, 3)
    assert result.score is not None and result.score <= 1.5, result.sentence
