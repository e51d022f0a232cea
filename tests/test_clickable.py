"""The checkers of the student's own program (notebook 10): ``check_full_game`` and
``check_clickable`` accept the reference solution and reject each plausible mistake with a sentence,
unfinished work with the unfinished sentence; the student's code runs under the time limit with its
prints captured, and a patched package gives no points."""

import re
import time
import types

import matplotlib
import pytest
from test_clickable_browser import reference_program
from test_student_copies import answer

import fanorona as fa
from fanorona.exercises import (
    TAMPERED,
    UNFINISHED,
    ExerciseFailed,
    check_clickable,
    check_full_game,
    check_tournament_player,
    guard,
    view,
)

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def ref():
    names = {}
    exec(compile(reference_program(), "notebook 10", "exec"), names)
    return names


@pytest.mark.slow
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


# -- the student's code is untrusted: time limits, interrupts, prints, the seal --------------------


@pytest.fixture
def short_limits(monkeypatch):
    """Time limits short enough for a test, long enough for a figure made on a loaded machine; the
    checkers read them when a check starts."""
    monkeypatch.setattr(guard, "CALL_LIMIT", 1.0)
    monkeypatch.setattr(guard, "CHECK_LIMIT", 20.0)


def spin_once(seconds: float = 6.0):
    """A function that loops ``seconds`` the first time it is called, standing in for a loop that
    never ends (an unchecked checker then passes after a while instead of hanging the tests)."""
    spun = []

    def spin():
        if not spun:
            spun.append(True)
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                pass

    return spin


def test_an_endless_loop_in_the_click_handler_is_stopped_with_a_sentence_naming_the_click(
    ref, short_limits
):
    spin = spin_once()

    def play(model):
        fig = ref["play"](model)
        fig.canvas.mpl_connect("button_press_event", lambda event: spin())
        return fig

    started = time.monotonic()
    with pytest.raises(
        ExerciseFailed,
        match=r"^The click on [a-e][1-5] on your figure on 5x5 \(the first click of the game\) took"
        r" longer than 1 s, the time limit for one call, and was stopped",
    ):
        check_clickable(play, ref["MyFullGame"])
    assert time.monotonic() - started < 5, "stopped at the limit, not after the loop's 6 s"


def test_an_endless_loop_in_push_is_stopped_with_a_sentence_naming_the_clicks(ref, short_limits):
    spin = spin_once()

    class Looping(ref["MyFullGame"]):
        def push(self, step):
            spin()
            return super().push(step)

    with pytest.raises(
        ExerciseFailed,
        match=r"^The click on [a-e][1-5] through the board's controller on 5x5 after the clicks"
        r" [a-e][1-5](, [a-e][1-5])* took longer than 1 s, the time limit for one call",
    ):
        check_full_game(Looping)


def test_an_endless_loop_in_the_model_is_stopped_in_the_clickable_check_too(ref, short_limits):
    spin = spin_once()

    class Looping(ref["MyFullGame"]):
        def __init__(self, width, height):
            spin()
            super().__init__(width, height)

    with pytest.raises(ExerciseFailed, match=r"^Looping\(5, 5\) took longer than 1 s"):
        check_clickable(ref["play"], Looping)


@pytest.mark.parametrize(
    "stop, words", [(KeyboardInterrupt, "was interrupted"), (SystemExit, "called exit()")]
)
def test_an_interrupt_or_exit_in_play_is_a_sentence_naming_the_call(ref, stop, words):
    def play(model):
        raise stop()

    with pytest.raises(ExerciseFailed) as failed:
        check_clickable(play, ref["MyFullGame"])
    assert str(failed.value).startswith(f"play(your model on 5x5) {words}")


def test_prints_in_the_model_are_captured_and_cut(ref, capsys):
    class Printing(ref["MyFullGame"]):
        def push(self, step):
            print("pushing", step, "." * 5000)
            return super().push(step)

    assert check_full_game(Printing) > 50
    out = capsys.readouterr().out
    assert re.search(
        r"^Your code printed \d+\.\d kB while it was checked \(\d+ calls, the first", out
    )
    assert "more characters not shown" in out
    assert len(out) < 4000
    assert out.rstrip().endswith("cases agree.")


def test_prints_in_the_click_handler_are_captured(ref, capsys):
    def play(model):
        fig = ref["play"](model)
        fig.canvas.mpl_connect("button_press_event", lambda event: print("clicked", event.xdata))
        return fig

    assert check_clickable(play, ref["MyFullGame"]) > 10
    out = capsys.readouterr().out
    assert out.startswith("Your code printed ")
    assert re.search(r"^clicked \d\.\d+$", out, re.MULTILINE)  # on a point or near it


def test_a_model_that_patches_the_package_during_the_check_gets_no_points(ref, forget_tampering):
    class Patching(ref["MyFullGame"]):
        def push(self, step):
            fa.Board.outcome = lambda self: None
            return super().push(step)

    original = fa.Board.outcome
    with pytest.raises(
        ExerciseFailed, match=r"Board\.outcome was replaced\), so this check gives no points"
    ):
        check_full_game(Patching)
    assert fa.Board.outcome is original


def test_a_figure_that_patches_the_checkers_reading_gets_no_points(ref, forget_tampering):
    def play(model):
        # a figure that does not redraw, and a patch that makes the checker read the right stones
        view.drawn_stones = lambda board, ax: {
            p: str(s) for p in board.points if (s := board.stone_at(p)) is not None
        }
        fig = ref["play"](model)
        fig.axes[0].clear = lambda: None
        return fig

    with pytest.raises(ExerciseFailed) as failed:
        check_clickable(play, ref["MyFullGame"])
    assert str(failed.value).startswith(TAMPERED.split("{")[0])
    assert "fanorona.exercises.view.drawn_stones was replaced" in str(failed.value)


def test_a_tournament_player_check_with_a_replaced_player_check_gets_no_points(
    forget_tampering, monkeypatch
):
    """Notebook 11's checker runs the player in a process of its own, but the kernel's package is
    sealed as for every checker: a cell cannot swap the check for one that always passes."""
    from fanorona.tournament import check

    monkeypatch.setattr(
        check,
        "check_player",
        lambda path, **options: types.SimpleNamespace(forfeits=[], ok=True, wins=4),
    )
    with pytest.raises(ExerciseFailed) as failed:
        check_tournament_player("no_such_player.py")
    assert "fanorona.tournament.check.check_player was replaced" in str(failed.value)
    assert "no points" in str(failed.value)
