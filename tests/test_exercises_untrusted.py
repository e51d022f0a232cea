"""The checkers treat the student's code as untrusted: a time limit on every call, a
sentence for an interrupt, exit() and a flood of prints, short messages for huge answers, boards
checked unchanged, repeats counted, and a package that cannot be changed to pass a check.

The tables hold plausible wrong solutions (each with the words its hint must hold, and the words it
must not) and correct solutions written independently of the package, in other ways than the ones
in test_exercises.py; each leak and false rejection the issue lists is one of their rows."""

import math
import re
import sys
import threading
import time
import types
from functools import cache

import numpy as np
import pytest
from test_exercises import (
    MISTAKES,
    Clicks,
    MyGame,
    apply_step,
    captures,
    column_row,
    compulsory_steps,
    draw_position,
    draw_with_patches,
    name,
    neighbours,
    parse,
    simple_steps,
    strings_through,
    turns,
    winner,
)

import fanorona as fa
from fanorona import exercises
from fanorona.exercises import TAMPERED, ExerciseFailed, guard, seal


@pytest.fixture
def short_limits(monkeypatch):
    """Time limits short enough for a test; the checkers read them when a check starts."""
    monkeypatch.setattr(guard, "CALL_LIMIT", 0.3)
    monkeypatch.setattr(guard, "CHECK_LIMIT", 2.0)


# -- the time limit, interrupts, exit, prints
# --------------------------------------------------------


def endless_neighbours(width, height, point):
    while True:
        pass


def test_an_endless_loop_is_stopped_with_one_sentence_naming_the_call_and_the_limit(
    short_limits, capsys
):
    started = time.perf_counter()
    with pytest.raises(ExerciseFailed) as info:
        exercises.check_neighbours(endless_neighbours)
    assert time.perf_counter() - started < 2
    assert (
        str(info.value)
        == "neighbours(3, 3, 'a1') took longer than 0.3 s, the time limit for one call, and was "
        "stopped: look for a loop that never ends (the rules package answers in milliseconds)."
    )


def test_a_loop_that_catches_the_timeout_is_still_stopped(short_limits):
    def stubborn(width, height, point):
        try:
            while True:
                pass
        except BaseException:  # a student's bare except
            return neighbours(width, height, point)

    with pytest.raises(ExerciseFailed, match=r"^neighbours\(3, 3, 'a1'\) took longer than 0\.3 s"):
        exercises.check_neighbours(stubborn)


def test_a_sleeping_call_is_stopped_too(short_limits):
    with pytest.raises(
        ExerciseFailed, match=r"^winner\(fa\.Board\.from_fen\(.*\)\) took longer than 0\.3 s"
    ):
        exercises.check_winner(lambda board: time.sleep(100))


def test_off_the_main_thread_a_watchdog_stops_the_loop(short_limits):
    """Where SIGALRM cannot be used (a checker run from a thread), the watchdog raises in the
    thread."""
    caught = []

    def run():
        try:
            exercises.check_neighbours(endless_neighbours)
        except ExerciseFailed as e:
            caught.append(str(e))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(10)
    assert not thread.is_alive()
    assert caught and caught[0].startswith("neighbours(3, 3, 'a1') took longer than 0.3 s")


def test_an_endless_generator_is_stopped_too(short_limits):
    def every_turn_forever(board):
        while True:
            yield from turns(board)

    with pytest.raises(
        ExerciseFailed, match=r"^turns\(fa\.Board\.from_fen\(.*\)\) took longer than 0\.3 s"
    ):
        exercises.check_turns(every_turn_forever)


def test_the_whole_check_has_a_time_limit_too(monkeypatch):
    monkeypatch.setattr(guard, "CALL_LIMIT", 1.0)
    monkeypatch.setattr(guard, "CHECK_LIMIT", 0.5)

    def slow(width, height, point):
        time.sleep(0.01)
        return neighbours(width, height, point)

    with pytest.raises(
        ExerciseFailed,
        match=r"^Your code took more than 0\.5 s in all over \d+ calls, the time "
        r"limit of one check, and was stopped in neighbours\(",
    ):
        exercises.check_neighbours(slow)


def test_a_slow_but_correct_solution_passes_within_the_limits(capsys):
    """Each call a few milliseconds slower than the plain solution (a thousand times the package's
    time) still passes."""

    def slow(width, height, point):
        time.sleep(0.003)
        return neighbours(width, height, point)

    assert exercises.check_neighbours(slow) > 300


@pytest.mark.parametrize(
    "stop, words",
    [
        (KeyboardInterrupt, "was interrupted (KeyboardInterrupt) before it returned"),
        (SystemExit, "called exit() (SystemExit): a function should return its answer"),
    ],
)
def test_an_interrupt_or_exit_is_a_sentence_naming_the_call(stop, words):
    def stopping(board, point):
        raise stop()

    with pytest.raises(ExerciseFailed) as info:
        exercises.check_strings_through(stopping)
    message = str(info.value)
    assert (
        message.startswith("strings_through(fa.Board.from_fen(")
        and words in message
        and "\n" not in message
    )


def test_a_flood_of_prints_is_captured_and_cut(capsys):
    def chatty(width, height, point):
        print("x" * 1_000_000)
        return neighbours(width, height, point)

    n = exercises.check_neighbours(chatty)
    out = capsys.readouterr().out
    assert len(out) < 5_000
    assert re.search(
        rf"Your code printed \d+\.\d MB while it was checked \({n} calls, the first 2,000 shown\):",
        out,
    )
    assert "Take the print calls out of your functions." in out and out.endswith(
        f"All {n} cases agree.\n"
    )


def test_a_little_printing_is_shown_whole(capsys):
    def debugging(width, height, point):
        if point == "b2" and (width, height) == (3, 3):
            print("looking at b2")
        return neighbours(width, height, point)

    exercises.check_neighbours(debugging)
    out = capsys.readouterr().out
    assert (
        "Your code printed 14 characters while it was checked" in out and "looking at b2\n" in out
    )


def test_a_huge_answer_makes_a_short_message(capsys):
    def huge(width, height, point):
        return [f"z{n}" for n in range(100_000)]

    with pytest.raises(ExerciseFailed) as info:
        exercises.check_neighbours(huge)
    assert len(str(info.value)) < 1_000
    assert len(capsys.readouterr().out) < 3_000


def test_a_huge_string_of_the_wrong_shape_makes_a_short_message():
    with pytest.raises(TypeError) as info:
        exercises.check_winner(lambda board: "w" * 1_000_000)
    assert len(str(info.value)) < 500


# -- boards given to the student ------------------------------------------------------------------


def apply_step_by_pushing(board, origin, destination, capture):
    """Plays the step on the board it is given to read the stones off it, and forgets to take it
    back."""
    board.push(fa.Step(origin, destination, capture))
    return {p: str(board.stone_at(p)) for p in board.points if board.stone_at(p)}


def test_an_apply_step_that_changes_the_callers_board_fails_with_a_sentence():
    with pytest.raises(
        ExerciseFailed,
        match=r"^apply_step\(fa\.Board\.from_fen\(.*\) changed the board it was given "
        r"\(its position; afterwards .*\): leave the board as it was",
    ):
        exercises.check_apply_step(apply_step_by_pushing)


def test_a_drawing_that_changes_the_board_fails_with_a_sentence():
    def draw_and_play(board, ax):
        draw_position(board, ax)
        board.push(board.legal_turns()[0])

    with pytest.raises(
        ExerciseFailed, match=r"^draw_position\(.*\) changed the board it was given"
    ):
        exercises.check_view(draw_and_play)


# -- wrong solutions and the hints they get
# ------------------------------------------------------------


def listing_each_twice(fn):
    def twice(*args):
        return list(fn(*args)) * 2

    return twice


def turns_repeating_the_captures(board):
    """Lists each capturing turn again (11 turns where 6 are legal), as a loop over both kinds
    might."""
    found = list(turns(board))
    return found + [t for t in found if t[0][2]]


def neighbours_as_pairs(width, height, point):
    parse(point)
    return {(c, r) for c, r in (column_row(p) for p in neighbours(width, height, point))}


def neighbours_upper_case(width, height, point):
    return {p.upper() for p in neighbours(width, height, point)}


def neighbours_with_itself(width, height, point):
    return neighbours(width, height, point) | {point}


def apply_step_removing_nothing(board, origin, destination, capture):
    return apply_step(board, origin, destination, None)


def other_side(color):
    return "black" if str(color) == "white" else "white"


def steps_of(board, color):
    plain = fa.Board.from_fen(board.fen().rsplit(" ", 1)[0] + " " + color[0], fa.Rules.simple())
    return simple_steps(plain)


def winner_when_either_side_is_stuck(board):
    """Ends the game as soon as one side cannot move, whoever is to move."""
    mover = str(board.to_move)
    if not steps_of(board, mover):
        return other_side(mover)
    if not steps_of(board, other_side(mover)):
        return mover
    return None


def winner_without_diagonals(board):
    """A stone that can only step diagonally is taken for stuck."""
    for step in simple_steps(board):
        (c0, r0), (c1, r1) = parse(step[0]), parse(step[1])
        if c0 == c1 or r0 == r1:
            return None
    return other_side(board.to_move)


def winner_with_diagonals_everywhere(board):
    """Lets stones on weak points step diagonally too."""
    for point in board.stones(board.to_move):
        c, r = parse(point)
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                q = (c + dc, r + dr)
                if (
                    (dc, dr) != (0, 0)
                    and 0 <= q[0] < board.size[0]
                    and 0 <= q[1] < board.size[1]
                    and board.stone_at(name(*q)) is None
                ):
                    return None
    return other_side(board.to_move)


# model mistakes


class MyGameWithTupleSteps(MyGame):
    def legal_steps(self):
        return [(s.origin, s.destination, s.capture) for s in super().legal_steps()]


class MyGameWithATextOutcome(MyGame):
    def outcome(self):
        won = winner(self)
        return None if won is None else f"{won} wins"


class MyGamePoppingNothing(MyGame):
    def pop(self):
        super().pop()


class MyGameStoringSteps(MyGame):
    def push(self, step):
        super().push(step)
        self.turns[-1] = step


class MyGameListingCapturesTwice(MyGame):
    def legal_steps(self):
        steps = super().legal_steps()
        return steps + [s for s in steps if s.capture]


class MyGameWithoutChain(MyGame):
    def __getattribute__(self, key):
        if key == "chain":
            raise AttributeError(key)
        return super().__getattribute__(key)


class ClicksKeepingTheChoiceAtEndTurn(Clicks):
    """The notebook's own reference end_turn: the chain stops, a waiting choice stays."""

    def end_turn(self):
        if self.model.chain and self.model.outcome() is None:
            self.model.end_turn()
            self.selected = None


class ClicksWithoutPending(Clicks):
    def __init__(self, model):
        super().__init__(model)
        del self.pending


# view mistakes


def draw_on_pyplot(board, ax):
    import matplotlib.pyplot as plt

    draw_position(board, plt.gca())


def draw_diagonals_past_the_edge(board, ax):
    draw_position(board, ax)
    w, _ = board.size
    ax.plot([0, w + 1], [0, w + 1], color="saddlebrown")


#: (checker, wrong solution, words its message must hold, words it must not hold).
WRONG = [
    ("check_neighbours", listing_each_twice(neighbours), "is listed twice", "off the"),
    ("check_neighbours", neighbours_as_pairs, "is not a point name", "off the"),
    ("check_neighbours", neighbours_upper_case, "should be written in lower case, 'a2'", "off the"),
    (
        "check_neighbours",
        neighbours_with_itself,
        "A point is not its own neighbour: leave a1 out.",
        "strong point",
    ),
    (
        "check_strings_through",
        listing_each_twice(strings_through),
        "is listed twice",
        "A string runs",
    ),
    ("check_simple_steps", listing_each_twice(simple_steps), "is listed twice", "Every stone"),
    (
        "check_compulsory_steps",
        listing_each_twice(compulsory_steps),
        "is listed twice",
        "Capture is compulsory",
    ),
    ("check_turns", turns_repeating_the_captures, "is listed twice", "perft"),
    (
        "check_apply_step",
        apply_step_removing_nothing,
        "Nothing was captured: the approach takes",
        "swapped",
    ),
    ("check_apply_step", apply_step_by_pushing, "changed the board it was given", "swapped"),
    (
        "check_winner",
        winner_when_either_side_is_stuck,
        "only the player to move loses by being stuck",
        "diagonal",
    ),
    (
        "check_winner",
        winner_without_diagonals,
        "can still step diagonally from a strong point",
        "only the player",
    ),
    (
        "check_winner",
        winner_with_diagonals_everywhere,
        "is a weak point, with no diagonal",
        "only the player",
    ),
    (
        "check_model",
        MyGameWithTupleSteps,
        "legal_steps() should give fa.Step objects",
        "AttributeError",
    ),
    (
        "check_model",
        MyGameWithATextOutcome,
        "outcome() should return None while the game goes on",
        "Attribute",
    ),
    ("check_model", MyGamePoppingNothing, "pop() should return the step it took back", "Attribute"),
    ("check_model", MyGameStoringSteps, "turns should hold whole turns", "Attribute"),
    ("check_model", MyGameListingCapturesTwice, "twice", "Attribute"),
    ("check_model", MyGameWithoutChain, "MyGameWithoutChain has no `chain`", "Attribute"),
    (
        "check_control",
        ClicksKeepingTheChoiceAtEndTurn,
        "end_turn() while a choice waits",
        "Attribute",
    ),
    ("check_control", ClicksWithoutPending, "has no `pending`", "Attribute"),
    (
        "check_view",
        draw_on_pyplot,
        "drew nothing on `ax`, but something on another Axes",
        "No stone found",
    ),
    ("check_view", draw_diagonals_past_the_edge, "goes outside the board", "missing"),
]


@cache
def verdict(checker, mistake) -> str:
    try:
        getattr(exercises, checker)(mistake)
    except (ExerciseFailed, TypeError) as e:
        return str(e)
    return "passed"


@pytest.mark.parametrize(
    "checker, mistake, words, not_words",
    WRONG,
    ids=[f"{c}-{getattr(m, '__name__', m)}-{w[:20]}" for c, m, w, _ in WRONG],
)
def test_a_plausible_mistake_fails_with_its_own_hint(checker, mistake, words, not_words, capsys):
    message = verdict(checker, mistake)
    assert words in message and not_words not in message, message
    assert "\n" not in message


#: Words of test_exercises.MISTAKES that name no mistake of their own (a message's frame, or a
#: hint two rows share by right), left out of the test below.
SHARED = {
    "Missing",
    "differs from the rules in",
    "however long it is",
    "The player who cannot move loses",
    "has stones, but none of them can step",
}


def test_each_hint_is_given_only_for_its_own_mistake(capsys):
    """A hint is true only of its own mistake: no other wrong solution of both tables gets it."""
    table = [row[:3] for row in WRONG] + [row for row in MISTAKES if row[2] not in SHARED]
    everyone = [row[:2] for row in WRONG + MORE_WRONG] + [row[:2] for row in MISTAKES]
    for checker, mistake, words in table:
        for other in [m for c, m in everyone if c == checker and m is not mistake]:
            assert words not in verdict(checker, other), (words, other)


def test_a_repeated_turn_is_not_counted_into_perft(capsys):
    with pytest.raises(ExerciseFailed):
        exercises.check_turns(turns_repeating_the_captures)
    assert "perft" not in capsys.readouterr().out


def test_perft_is_counted_from_the_students_turns(capsys):
    """The walk pushes the student's turns: a solution whose turns are right at every position but
    the leaves' is told where it differs, reached by its own turns."""
    seen = []

    def recording(board):
        seen.append(board.fen())
        return turns(board)

    exercises.check_turns(recording)
    out = capsys.readouterr().out
    assert "perft(9x5 start, 3) = " in out
    leaves = int(re.search(r"perft\(5x5 start, 4\) = ([\d,]+)", out).group(1).replace(",", ""))
    assert leaves == fa.perft(fa.Board((5, 5), fa.Rules.danish()), 4)


# -- correct solutions written in other ways
# --------------------------------------------------------


def neighbours_as_a_list(width, height, point):
    col, row = parse(point)
    out = []
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            diagonal = dc and dr
            if (dc, dr) == (0, 0) or (diagonal and (col + row) % 2):
                continue
            if 0 <= col + dc < width and 0 <= row + dr < height:
                out.append(name(col + dc, row + dr))
    return out


def simple_steps_as_step_objects(board):
    return [fa.Step(*s) for s in simple_steps(board)]


def turns_as_turn_objects(board):
    return [fa.Turn(tuple(fa.Step(*s) for s in t)) for t in turns(board)]


def winner_by_counting(board):
    mover = str(board.to_move)
    return None if steps_of(board, mover) else other_side(mover)


def drawing(nan=False, colour_map=False, dots=False, infinity=False):
    """A correct drawing made another way: every line in one plot with NaN between the pieces; the
    stones in one scatter coloured through the gray colour map; small black dots on the empty
    points; a point at infinity that draws nothing."""

    def draw(board, ax):
        w, h = board.size
        xs, ys = [], []
        for col in range(w):
            for row in range(h):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                    if (dc and dr and (col + row) % 2) or not (
                        0 <= col + dc < w and 0 <= row + dr < h
                    ):
                        continue
                    if nan:
                        xs += [col, col + dc, np.nan]
                        ys += [row, row + dr, np.nan]
                    else:
                        ax.plot([col, col + dc], [row, row + dr], color="saddlebrown", zorder=1)
        if nan:
            ax.plot(xs, ys, color="saddlebrown", zorder=1)
        stones = [
            (column_row(p), str(board.stone_at(p))) for p in board.points if board.stone_at(p)
        ]
        if infinity:
            stones.append(((math.inf, -math.inf), "white"))
        if stones and colour_map:
            (px, py), shade = (
                zip(*[s[0] for s in stones]),
                [1.0 if s[1] == "white" else 0.0 for s in stones],
            )
            ax.scatter(
                px, py, c=shade, cmap="gray", vmin=0, vmax=1, s=250, edgecolors="black", zorder=3
            )
        elif stones:
            for (x, y), colour in stones:
                ax.scatter([x], [y], color=colour, s=250, edgecolors="black", zorder=3)
        empty = [column_row(p) for p in board.points if board.stone_at(p) is None]
        if empty and dots:
            ax.plot(*zip(*empty), "o", color="black", markersize=3, linestyle="None", zorder=2)
        ax.set_aspect("equal")

    draw.__name__ = (
        "draw_position_" + "_".join(k for k, v in locals().items() if v is True) or "plain"
    )
    return draw


class GameOnABoard:
    """A model that keeps a package board of the simplified rules and hands its answers on."""

    def __init__(self, width=9, height=5):
        self.board = fa.Board((width, height), fa.Rules.simple())

    def __getattr__(self, key):
        return getattr(self.board, key)


CORRECT = [
    ("check_neighbours", neighbours_as_a_list),
    ("check_simple_steps", simple_steps_as_step_objects),
    ("check_simple_steps", lambda board: (step for step in simple_steps(board))),
    ("check_compulsory_steps", lambda board: [fa.Step(*s) for s in compulsory_steps(board)]),
    ("check_turns", turns_as_turn_objects),
    ("check_winner", winner_by_counting),
    (
        "check_captures",
        lambda board, o, d: {k: sorted(v) for k, v in captures(board, o, d).items()},
    ),
    (
        "check_strings_through",
        lambda board, point: [list(s) for s in strings_through(board, point)],
    ),
    ("check_view", draw_with_patches),
    ("check_view", drawing(nan=True)),
    ("check_view", drawing(colour_map=True)),
    ("check_view", drawing(dots=True)),
    ("check_view", drawing(infinity=True)),
    ("check_view", drawing(nan=True, colour_map=True, dots=True, infinity=True)),
    ("check_model", GameOnABoard),
    ("check_control", Clicks),
]


@pytest.mark.parametrize(
    "checker, solution", CORRECT, ids=[f"{c}-{getattr(s, '__name__', '')}" for c, s in CORRECT]
)
def test_a_correct_solution_written_another_way_passes(checker, solution, capsys):
    assert getattr(exercises, checker)(solution) >= 25


# -- tampering
# ----------------------------------------------------------------------------------------


def wrong_winner(board):
    return None


def test_a_replaced_checker_gives_no_points(forget_tampering):
    exercises.check_turns = lambda fn: 100  # what a solution cell might do
    assert (
        exercises.check_turns is not None
        and getattr(exercises.check_turns, "__name__", "") == "check_turns"
    )
    with pytest.raises(ExerciseFailed) as info:
        exercises.check_turns(turns)
    assert str(info.value).startswith(TAMPERED.split("{")[0])
    assert "fanorona.exercises.check_turns was replaced" in str(info.value)


def test_a_checker_replaced_in_the_modules_dict_is_put_back_and_gives_no_points(forget_tampering):
    original = exercises.check_winner
    vars(exercises)["check_winner"] = lambda fn: 100
    from fanorona.exercises import check_winner

    assert check_winner is original
    with pytest.raises(ExerciseFailed, match="The fanorona package was changed in this kernel"):
        check_winner(winner)


def test_a_patched_board_class_gives_no_points_and_is_put_back(forget_tampering):
    original = fa.Board.outcome
    fa.Board.outcome = lambda self: None  # so that the reference agrees with a wrong winner
    with pytest.raises(ExerciseFailed) as info:
        exercises.check_winner(wrong_winner)
    assert "fanorona.board.Board.outcome was replaced" in str(info.value)
    assert "no points" in str(info.value)
    assert fa.Board.outcome is original
    with pytest.raises(
        ExerciseFailed, match="The fanorona package was changed"
    ):  # and it stays on record
        exercises.check_winner(winner)


def test_a_patch_made_by_the_students_function_during_the_check_gives_no_points(forget_tampering):
    def patching(board):
        fa.Board.outcome = lambda self: None
        return winner(board)

    with pytest.raises(
        ExerciseFailed, match=r"Board\.outcome was replaced\), so this check gives no points"
    ):
        exercises.check_winner(patching)


def test_a_method_added_over_an_inherited_one_is_found_and_taken_away(forget_tampering):
    fa.Color.__eq__ = lambda self, other: True
    with pytest.raises(
        ExerciseFailed,
        match=r"fanorona\.board\.Color\.__eq__ was added\), so this check gives no points",
    ):
        exercises.check_winner(winner)
    assert "__eq__" not in vars(fa.Color)


def test_changed_code_and_a_swapped_module_are_found_and_put_back(forget_tampering):
    code = fa.Board.legal_steps.__code__
    fa.Board.legal_steps.__code__ = (lambda self: []).__code__
    real = sys.modules["fanorona.exercises.model"]
    sys.modules["fanorona.exercises.model"] = types.ModuleType("fake")
    seal._before_cell()  # what IPython runs before each cell
    assert fa.Board.legal_steps.__code__ is code and sys.modules["fanorona.exercises.model"] is real
    message = seal.tampering()
    assert "the code of fanorona.board.Board.legal_steps was changed" in message
    assert "sys.modules['fanorona.exercises.model'] was replaced" in message


def test_the_untouched_package_is_not_taken_for_tampered():
    assert seal.tampering() == ""
    assert len(seal.SEAL.entries) > 500


def test_a_class_patched_before_the_checkers_are_imported_gives_no_points():
    """A solution cell may run before the first checker cell imports fanorona.exercises: the seal
    then finds code from outside the package on the package's class."""
    import subprocess

    code = (
        "import fanorona as fa\n"
        "fa.Board.outcome = lambda self: None\n"
        "from fanorona.exercises import check_winner, ExerciseFailed\n"
        "try:\n"
        "    check_winner(lambda board: None)\n"
        "except ExerciseFailed as e:\n"
        "    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == TAMPERED.format(
        what="fanorona.board.Board.outcome is not the package's own code"
    )


def test_reloading_the_checkers_is_not_taken_for_tampering():
    """``importlib.reload(fanorona.exercises)`` (a student restarting the checkers after editing a
    helper) makes new checker objects: the seal must take them as the package's own."""
    import subprocess

    code = (
        "import importlib\n"
        "import fanorona.exercises as ex\n"
        "importlib.reload(ex)\n"
        "def winner(board):\n"
        "    outcome = board.outcome()\n"
        "    return None if outcome is None else outcome.winner\n"
        "try:\n"
        "    ex.check_winner(winner)\n"
        "except ex.ExerciseFailed as e:\n"
        "    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("cases agree."), done.stdout[-500:]


# -- more plausible mistakes: each fails, with a sentence that does not blame another mistake
# -------


def neighbours_wrapping_round(width, height, point):
    """Treats the board as if its edges joined (a torus)."""
    col, row = parse(point)
    return {
        name((col + dc) % width, (row + dr) % height)
        for dc, dr in [(1, 0), (-1, 0), (0, 1), (0, -1)]
        + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] if (col + row) % 2 == 0 else [])
    }


def captures_first_stone_only(board, origin, destination):
    return {
        kind: set(
            sorted(
                points,
                key=lambda p: (
                    abs(parse(p)[0] - parse(destination)[0])
                    + abs(parse(p)[1] - parse(destination)[1])
                ),
            )[:1]
        )
        for kind, points in captures(board, origin, destination).items()
    }


def strings_with_the_point_twice(board, point):
    return [s + (point,) for s in strings_through(board, point)]


def simple_steps_of_the_other_side(board):
    other = fa.Board.from_fen(
        board.fen().rsplit(" ", 1)[0] + " " + other_side(board.to_move)[0], fa.Rules.simple()
    )
    return simple_steps(other)


def turns_as_flat_steps(board):
    return [step for turn in turns(board) for step in turn]


class MyGameNotSwitchingSides(MyGame):
    def push(self, step):
        super().push(step)
        self.to_move = self.to_move.other


class ClicksChoosingTheOtherKind(Clicks):
    def choose(self, kind):
        super().choose({"approach": "withdrawal", "withdrawal": "approach"}[kind])


def draw_transposed(board, ax):
    class Transposed:
        size, points = board.size, board.points

        def stone_at(self, p):
            col, row = parse(p)
            return (
                board.stone_at(name(row, col))
                if row < board.size[0] and col < board.size[1]
                else None
            )

    draw_position(Transposed(), ax)


MORE_WRONG = [
    ("check_neighbours", neighbours_wrapping_round, "The neighbours are the points one step away"),
    ("check_captures", captures_first_stone_only, "misses"),
    ("check_strings_through", strings_with_the_point_twice, "A string runs along one line"),
    (
        "check_simple_steps",
        simple_steps_of_the_other_side,
        "These are black's steps, but it is white's turn",
    ),
    (
        "check_turns",
        turns_as_flat_steps,
        "each step of a turn should be (origin, destination, capture)",
    ),
    ("check_model", MyGameNotSwitchingSides, "differs from the rules in to_move"),
    ("check_control", ClicksChoosingTheOtherKind, "these differ from the board's controller"),
    ("check_view", draw_transposed, "The stones drawn for"),
]


@pytest.mark.parametrize("checker, mistake, words", MORE_WRONG, ids=[c for c, _, _ in MORE_WRONG])
def test_more_plausible_mistakes_fail_with_a_sentence(checker, mistake, words, capsys):
    message = verdict(checker, mistake)
    assert words in message and "\n" not in message, message
    own = {w for c, _, w, _ in WRONG if c == checker}
    assert not any(w in message for w in own), message  # no hint meant for another mistake


def test_an_endless_loop_in_a_class_is_stopped_with_the_script_that_led_there(short_limits):
    class ClicksLooping(Clicks):
        def choose(self, kind):
            while True:
                pass

    with pytest.raises(
        ExerciseFailed,
        match=r"^c = Clicks\(fa\.Board\.from_fen\(.*c\.choose\('(approach|withdrawal)'\) "
        r"took longer than 0\.3 s, the time limit for one call",
    ):
        exercises.check_control(ClicksLooping)

    class MyGameLooping(MyGame):
        def outcome(self):
            while True:
                pass

    with pytest.raises(
        ExerciseFailed, match=r"^m = MyGameLooping\(5, 3\); m\.outcome\(\) took longer than 0\.3 s"
    ):
        exercises.check_model(MyGameLooping)


def test_the_whole_package_in_use_is_not_taken_for_tampered():
    """Every module of the package imported before the checkers (methods that other libraries make
    or wrap, as matplotlib does for the board widget's figure), then the package used: no change
    seen.
    """
    import subprocess

    code = (
        "import importlib, pkgutil, fanorona as fa\n"
        "for m in pkgutil.iter_modules(fa.__path__):\n"
        "    if m.name != 'exercises':\n"
        "        importlib.import_module('fanorona.' + m.name)\n"
        "from fanorona.exercises import seal\n"
        "from fanorona.engine import ai, solve\n"
        "board = fa.Board((5, 3))\n"
        "board.push(ai.level(2).choose_turn(board))\n"
        "solve.solve((3, 3))\n"
        "widget = fa.BoardWidget(fa.Board((5, 5)))\n"
        "widget.click('b3'); widget.click('c3')\n"
        "print(seal.tampering() or 'sealed')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.stdout.strip().splitlines()[-1] == "sealed", done.stdout + done.stderr


def test_copying_a_slotted_object_of_the_package_is_not_tampering():
    """copy and pickle cache ``__slotnames__`` on a class with __slots__ the first time they copy
    one of its objects: Python's own doing, so a checker that runs after it still passes."""
    import copy
    import pickle

    import fanorona as fa
    from fanorona.engine import ai

    for cls in (fa.Rules, ai.RandomPlayer):
        if "__slotnames__" in vars(cls):
            type.__delattr__(cls, "__slotnames__")
    copy.copy(fa.Rules())
    pickle.dumps(ai.RandomPlayer(seed=1))
    assert "__slotnames__" in vars(fa.Rules), "copy did not cache __slotnames__: nothing tested"
    assert exercises.check_neighbours(neighbours) > 0


# -- a student's model of the wrong type on the board
# ----------------------------------------------------


class DelegatingModel:
    """A student's model that plays through a real board, with one member answering wrongly."""

    def __init__(self, broken: str, value):
        self.board, self.broken, self.value = fa.Board((5, 5)), broken, value

    def __getattr__(self, name):
        if name == self.broken:
            value = object.__getattribute__(self, "value")
            return (lambda *args: value) if callable(getattr(self.board, name)) else value
        return getattr(self.board, name)


@pytest.mark.parametrize(
    "member, value",
    [("legal_steps", None), ("chain", None), ("turns", 3), ("captures", 2)],
)
def test_a_model_answering_the_wrong_type_gets_the_model_sentence_naming_the_member(member, value):
    from fanorona.ui.controller import Controller

    controller = Controller(DelegatingModel(member, value))
    replies = [controller.click(point) for point in ("b3", "c3", "a3")]
    controller.scene()
    said = [r.message for r in replies if r.action.name == "ERROR"]
    assert said and all(member in text for text in said), [r.message for r in replies]
