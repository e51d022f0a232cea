"""Checker faults found by trying plausible answers: a broken undo that passed, a correct drawing
that was rejected, and hints that must be true and name the part that differs."""

import matplotlib
import pytest
from test_clickable_browser import reference_program
from test_exercises import column_row, draw_position

from fanorona.exercises import ExerciseFailed, check_clickable, check_full_game, check_view

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def ref():
    names = {}
    exec(compile(reference_program(), "notebook 10", "exec"), names)
    return names


def undo_that_does_nothing(ref):
    class Stuck(ref["MyFullGame"]):
        def pop(self):
            """Forgets to take anything back."""

    return Stuck


def test_a_model_whose_pop_does_nothing_fails_the_full_game_check(ref):
    with pytest.raises(ExerciseFailed, match=r"Undo"):
        check_full_game(undo_that_does_nothing(ref))


def test_a_model_whose_pop_does_nothing_fails_the_clickable_check(ref):
    with pytest.raises(ExerciseFailed, match=r"Undo"):
        check_clickable(ref["play"], undo_that_does_nothing(ref))


def draw_stones_as_one_patch_collection(board, ax):
    """Correct: the lines as draw_position draws them, the stones as one PatchCollection."""
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Circle

    draw_position(board, ax)
    for art in list(ax.collections):
        art.remove()
    stones = [p for p in board.points if board.stone_at(p)]
    colours = ["white" if board.stone_at(p) == "white" else "black" for p in stones]
    ax.add_collection(
        PatchCollection(
            [Circle(column_row(p), 0.3) for p in stones], facecolors=colours, edgecolors="black"
        )
    )


def test_stones_drawn_as_one_patch_collection_of_circles_pass():
    assert check_view(draw_stones_as_one_patch_collection) >= 25


def draw_black_light_grey(board, ax):
    draw_position(board, ax)
    for art in ax.collections:
        faces = art.get_facecolor()
        if len(faces) and faces[0][0] < 0.5:
            art.set_facecolor("lightgrey")


def test_black_drawn_light_grey_is_told_the_colour_not_where_a1_is():
    with pytest.raises(ExerciseFailed) as failed:
        check_view(draw_black_light_grey)
    assert "drawn light" in str(failed.value) and "a1 is at" not in str(failed.value)


def draw_without_the_first_line(board, ax):
    draw_position(board, ax)
    ax.lines[0].remove()


def test_a_missing_line_is_named_in_the_sentence():
    with pytest.raises(ExerciseFailed) as failed:
        check_view(draw_without_the_first_line)
    assert "the line a1-b1 is missing" in str(failed.value).lower()


class Subtraction:
    """One pile; take 1, 3 or 4; taking the last stone wins (notebook 7)."""

    def actions(self, pile):
        return [take for take in (1, 3, 4) if take <= pile]

    def result(self, pile, take):
        return pile - take

    def terminal(self, pile):
        return pile == 0

    def utility(self, pile):
        return -1


def test_the_subtraction_checker_accepts_the_game_and_names_the_first_pile_it_gets_wrong():
    from fanorona.exercises import check_subtraction

    assert check_subtraction(Subtraction) == 21

    class TakesTwo(Subtraction):
        def actions(self, pile):
            return [take for take in (1, 2, 3) if take <= pile]

    with pytest.raises(ExerciseFailed, match=r"a pile of 2 is lost for the player to move"):
        check_subtraction(TakesTwo)
