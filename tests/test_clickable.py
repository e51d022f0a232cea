"""The checkers of the student's own program (notebook 10): ``check_full_game`` and
``check_clickable``
accept the reference solution and reject each plausible mistake with a sentence, unfinished work
with the unfinished sentence."""

import matplotlib
import pytest
from test_clickable_browser import reference_program
from test_student_copies import answer

from fanorona.exercises import UNFINISHED, ExerciseFailed, check_clickable, check_full_game

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def ref():
    names = {}
    exec(compile(reference_program(), "notebook 10", "exec"), names)
    return names


def test_the_reference_passes_both(ref):
    assert check_full_game(ref["MyFullGame"]) > 50
    assert check_clickable(ref["play"], ref["MyFullGame"]) > 10


def test_a_game_without_chains_fails_the_model_check(ref):
    class NoChains(ref["MyFullGame"]):
        def legal_steps(self):
            return [] if self.chain else super().legal_steps()

    with pytest.raises(ExerciseFailed, match="your model differs in"):
        check_full_game(NoChains)


def test_a_game_without_compulsory_capture_fails_the_model_check(ref):
    simple_steps = ref["simple_steps"]

    class Optional(ref["MyFullGame"]):
        def legal_steps(self):
            if self.chain:
                return super().legal_steps()
            return sorted({ref["fa"].Step(*s) for s in simple_steps(self)}, key=str)

    with pytest.raises(ExerciseFailed, match="legal_steps"):
        check_full_game(Optional)


def test_a_figure_that_does_not_redraw_shows_the_wrong_stones(ref):
    def play(model):
        fig = ref["play"](model)
        fig.axes[0].clear = lambda: None  # draws each position over the last: old stones stay
        return fig

    with pytest.raises(ExerciseFailed, match="the figure shows the wrong stones"):
        check_clickable(play, ref["MyFullGame"])


def test_a_figure_that_ignores_clicks_fails(ref):
    plt = ref["plt"]

    def play(model):
        fig, ax = plt.subplots()
        ref["draw_position"](model, ax)
        return fig

    with pytest.raises(ExerciseFailed, match="your model differs"):
        check_clickable(play, ref["MyFullGame"])


def test_a_figure_that_takes_rows_for_columns_fails(ref):
    right = "column, row = round(event.xdata), round(event.ydata)"
    source = answer("10_assignment_view_and_control.ipynb", "play")
    assert right in source
    names = dict(ref)
    exec(source.replace(right, "column, row = round(event.ydata), round(event.xdata)"), names)
    with pytest.raises(ExerciseFailed, match="your model differs"):
        check_clickable(names["play"], ref["MyFullGame"])


def test_no_figure_gets_a_sentence(ref):
    with pytest.raises(ExerciseFailed, match="should return the matplotlib Figure"):
        check_clickable(lambda model: None, ref["MyFullGame"])


def test_unfinished_work_gets_the_unfinished_sentence(ref):
    def play(model):
        raise NotImplementedError()

    class Unfinished(ref["MyFullGame"]):
        def legal_steps(self):
            raise NotImplementedError()

    for check in (
        lambda: check_clickable(play, ref["MyFullGame"]),
        lambda: check_full_game(Unfinished),
    ):
        with pytest.raises(ExerciseFailed) as failed:
            check()
        assert str(failed.value) == UNFINISHED


def test_an_error_in_the_students_code_is_a_sentence_with_the_clicks(ref):
    class Broken(ref["MyFullGame"]):
        def outcome(self):
            if self.turns:
                raise KeyError("chain")
            return super().outcome()

    with pytest.raises(
        ExerciseFailed, match=r"Your code raised KeyError: 'chain' after the clicks .*, "
    ) as failed:
        check_full_game(Broken)
    assert failed.value.__suppress_context__
