"""What a fuzzing run broke in the rules API and the game records: every bad input
gets a documented error that says what is wrong, fast, and changes nothing."""

import json
import time
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fanorona as fa
from fanorona import Board, Game, GameRecordError, NotationError, Rules
from fanorona.geometry import MAX_HEIGHT, MAX_WIDTH

# -- sizes -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "size, words",
    [
        ((float("inf"), 5), ["whole number", "inf"]),
        ((9.7, 5.2), ["whole number", "9.7"]),
        ((9.0, 5), ["whole number", "9.0"]),
        ("95", ["width, height", "9x5"]),
        (iter((9, 5)), ["width, height"]),
        (("٣", "٣"), ["whole number"]),
        (("9", "5"), ["whole number"]),
        ((True, 3), ["whole number"]),
        ((9, 5, 1), ["width, height"]),
        ("9x5x3", ["width, height"]),
        ("٣x٣", ["width, height"]),
        (b"9x5", ["width, height"]),
    ],
)
def test_a_size_that_is_not_two_whole_numbers_is_refused(size, words):
    with pytest.raises(ValueError) as err:
        Board(size)
    for word in words:
        assert word in str(err.value)


anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=12),
    st.binary(max_size=6),
    st.decimals(allow_nan=True),
    st.complex_numbers(),
)
sizes = st.one_of(
    anything,
    st.tuples(anything, anything),
    st.lists(anything, max_size=3),
    st.tuples(st.integers(-3, 40), st.integers(-3, 40)),
    st.from_regex(r"[0-9]{1,3}x[0-9]{1,3}", fullmatch=True),
)


@settings(max_examples=400, deadline=None)
@given(sizes)
def test_any_size_gives_a_board_within_the_caps_or_a_value_error(size):
    try:
        board = Board(size)
    except ValueError as e:
        assert len(str(e)) < 300
        return
    width, height = board.size
    assert type(width) is int and type(height) is int
    assert 3 <= width <= MAX_WIDTH and 3 <= height <= MAX_HEIGHT and width % 2 and height % 2


@pytest.mark.parametrize("text, size", [("9x5", (9, 5)), ("3x7", (3, 7)), (" 5x3 ", (5, 3))])
def test_the_documented_size_text_is_read(text, size):
    assert Board(text).size == size


def test_numpy_like_integers_are_sizes():
    class Index:  # what numpy's integers look like to Python
        def __init__(self, n):
            self.n = n

        def __index__(self):
            return self.n

    assert Board((Index(5), Index(3))).size == (5, 3)


def test_height_is_capped_like_width():
    assert MAX_HEIGHT == MAX_WIDTH == 26
    Board((3, 25))
    with pytest.raises(ValueError, match="height can be at most 26"):
        Board((3, 27))


def refused_fast(call, error=ValueError, seconds=0.5):
    """Refused with ``error``, in less time than any work proportional to a large input takes."""
    began = time.perf_counter()
    with pytest.raises(error) as err:
        call()
    assert time.perf_counter() - began < seconds, (
        "refused, but only after working through the input"
    )
    return str(err.value)


def test_a_tall_board_is_refused_at_once():
    assert "height" in refused_fast(lambda: Board((3, 3001)))


def test_a_tall_diagram_is_refused_at_once():
    message = refused_fast(lambda: Board.from_diagram("WWW\n" * 2001), NotationError)
    assert "26x26" in message and "has 8,004" in message


def test_a_diagram_with_too_many_rows_is_refused():
    message = refused_fast(lambda: Board.from_diagram("WWW\n" * 27), NotationError)
    assert "has 27 rows; a board has at most 26" in message


@pytest.mark.parametrize(
    "text",
    [
        "W" * 400_000,  # one long row
        "WWW\n" * 100_000,  # many short rows
        ("W" * 27 + "\n") * 3,  # a little too wide
    ],
)
def test_a_huge_diagram_is_refused_at_once(text):
    message = refused_fast(lambda: Board.from_diagram(text), NotationError)
    assert "26" in message or "characters" in message
    assert len(message) < 300, "the message repeats the whole input"


@pytest.mark.parametrize(
    "text", ["/".join(["WWW"] * 100_000) + " w", "W" * 400_000 + " w", "WWW/" * 27 + "WWW w"]
)
def test_a_huge_position_text_is_refused_at_once(text):
    message = refused_fast(lambda: Board.from_fen(text), NotationError)
    assert len(message) < 300


# -- turn text ---------------------------------------------------------------------------------

HUGE_ROW = "a" + "1" * 4301 + "a1"


@pytest.mark.parametrize(
    "call",
    [
        lambda b: b.parse_turn(HUGE_ROW),
        lambda b: b.push(HUGE_ROW),
        lambda b: b.after(HUGE_ROW),
        lambda b: b.parse_turn("d2" + "e3" * 200_000),
        lambda b: b.captures(fa.Step("a" + "1" * 4301, "a1")),
        lambda b: b.stone_at("a" + "1" * 4301),
    ],
)
def test_turn_text_with_a_huge_number_is_a_notation_error(call):
    board = Board()
    before = board.fen()
    message = refused_fast(lambda: call(board), NotationError)
    assert len(message) < 300
    assert board.fen() == before and board.turns == []


# -- steps and turns ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "origin, destination", [(5, [1]), ("d2", 3), ("d2", "E3"), ("d2", "e0"), (None, "e3")]
)
def test_a_step_checks_its_points_when_made(origin, destination):
    with pytest.raises(NotationError, match="not a point name"):
        fa.Step(origin, destination)


def test_the_issue_step_fails_at_construction():
    with pytest.raises(NotationError):
        str(fa.Turn((fa.Step(5, [1]),)))


@pytest.mark.parametrize("steps", [(5,), ("d2e3",), [None]])
def test_a_turn_is_made_of_steps(steps):
    with pytest.raises(TypeError, match="Step"):
        fa.Turn(steps)


# -- game records ------------------------------------------------------------------------------


def record(**changes):
    data = {"format": "fanorona-game/1", "start": "BBB/B.W/WWW w", "turns": []}
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    "text, words",
    [
        ("[" * 100_000, ["nested"]),
        (
            '{"format": "fanorona-game/1", "start": '
            + "[" * 100_000
            + "]" * 100_000
            + ', "turns": []}',
            ["nested"],
        ),
        (record(start=[[[[["deep"]]]]]), ["start", "text"]),
        (
            '{"format": "fanorona-game/1", "start": "BBB/B.W/WWW w", "turns": [5]}',
            ["turn 1", "text"],
        ),
        (record(turns="d2e3"), ["turns", "list"]),
        (record(turns=None), ["turns", "list"]),
        (b"\xff{}", ["UTF-8"]),
        (None, ["text", "None"]),
        (5, ["text"]),
        (record(rules=[1]), ["rules"]),
        (record(rules={"chains": [[[]]]}), ["chains"]),
        (record(rules={"colour": "blue"}), ["colour"]),
        (record(outcome={"winner": "purple", "reason": 1}), ["winner", "purple"]),
        (record(outcome={"winner": "white"}), ["outcome", "reason"]),
        (record(outcome="white"), ["outcome"]),
        (record(white=5), ["white", "name"]),
        (record(black=["Bo"]), ["black", "name"]),
        (record(outcome={"winner": "white", "reason": "black has no stones left"}), ["not over"]),
    ],
)
def test_a_bad_record_is_always_a_record_error_with_the_reason(text, words):
    with pytest.raises(GameRecordError) as err:
        Game.from_json(text)
    message = str(err.value)
    for word in words:
        assert word in message
    assert len(message) < 400


def test_a_record_as_utf8_bytes_is_read():
    game = Game.from_json(record(white="Zoë").encode())
    assert game.white == "Zoë"


def test_an_adjudicated_record_still_loads():
    game = fa.play_game(Random(1), Random(2), Board((5, 5)), max_turns=3)
    assert game.outcome.reason.startswith("adjudicated")
    assert Game.from_json(game.to_json()) == game


def test_a_claimed_adjudication_must_match_the_stones():
    game = fa.play_game(Random(1), Random(2), Board((5, 5)), max_turns=3)
    data = json.loads(game.to_json())
    data["outcome"] = {"winner": "black", "reason": "adjudicated on stones, 1 white to 9 black"}
    with pytest.raises(GameRecordError, match="not over"):
        Game.from_json(json.dumps(data))


class Random:
    def __init__(self, seed):
        import random

        self.rng = random.Random(seed)

    def choose_turn(self, board):
        return self.rng.choice(board.legal_turns())


@settings(max_examples=150, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
        ),
        max_leaves=12,
    ),
    st.sampled_from(["start", "turns", "rules", "outcome", "white", "black", "format"]),
)
def test_any_value_in_any_field_gives_a_record_or_a_record_error(value, key):
    data = json.loads(record(turns=["c1b2"]))
    data[key] = value
    try:
        game = Game.from_json(json.dumps(data))
    except GameRecordError:
        return
    assert isinstance(game.start, str) and all(isinstance(t, str) for t in game.turns)
    assert isinstance(game.white, str) and isinstance(game.black, str)


# -- memory and time of long games -------------------------------------------------------------

SHUFFLE = ["a1b1", "i5h5", "b1a1", "h5i5"]  # two lone stones stepping to and fro, never capturing


def shuffling_board():
    return Board.from_diagram(
        "........B\n.........\n.........\n.........\nW........", rules=Rules.solved()
    )


def memory_of_turns(n: int) -> int:
    """Bytes a board holds after ``n`` turns, above an empty history."""
    board = shuffling_board()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for i in range(n):
            board.push(SHUFFLE[i % 4])
        return tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()


def test_history_memory_grows_linearly_with_the_game():
    small, large = memory_of_turns(600), memory_of_turns(1800)
    # Linear: three times the turns, about three times the memory; storing the turn list in
    # every snapshot gave nine times.
    assert large < 4.5 * small, (small, large)


def test_undo_and_copies_still_see_the_whole_history():
    board = shuffling_board()
    for i in range(10):
        board.push(SHUFFLE[i % 4])
    copy = board.copy()
    assert str(board.pop()) == "i5h5" and len(board.turns) == 9
    assert [str(t) for t in copy.turns] == [SHUFFLE[i % 4] for i in range(10)]
    assert board.root().turns == [] and board.root().fen() == shuffling_board().fen()
    while board.turns:
        board.pop()
    assert board.fen() == shuffling_board().fen()
    assert len(copy.turns) == 10


def test_a_long_record_loads():
    board = shuffling_board()
    for i in range(6000):
        board.push(SHUFFLE[i % 4])
    game = Game.from_board(board)
    text = game.to_json()
    loaded = Game.from_json(text)
    assert len(loaded.turns) == 6000 and loaded.board().fen() == board.fen()


# -- any text, any call: a documented error and no change --------------------------------------

texts = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="abcdeWBA.w/ 0123456789x\n", max_size=60),
    st.builds(
        lambda a, n, b: a + "9" * n + b,
        st.sampled_from(["a", "d2e", "c"]),
        st.sampled_from([0, 1, 2, 30, 4301, 5000]),
        st.sampled_from(["", "a1", "e3A"]),
    ),
)
CALLS = {
    "push": lambda b, t: b.push(t),
    "after": lambda b, t: b.after(t),
    "parse_turn": lambda b, t: b.parse_turn(t),
    "stone_at": lambda b, t: b.stone_at(t),
    "from_fen": lambda b, t: Board.from_fen(t),
    "from_diagram": lambda b, t: Board.from_diagram(t),
    "size": lambda b, t: Board(t),
    "step": lambda b, t: b.captures(fa.Step(t[:3], t[3:])),
    "record": lambda b, t: Game.from_json(t),
}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(CALLS)), texts, st.integers(0, 6))
def test_any_text_gives_a_result_or_a_documented_error_and_changes_nothing(call, text, turns):
    board = Board()
    for _ in range(turns):
        board.push(board.legal_turns()[0])
    before = (board.fen(), [str(t) for t in board.turns], board.quiet_turns)
    documented = {"size": ValueError, "record": GameRecordError}.get(
        call, (NotationError, fa.IllegalMoveError)
    )
    try:
        CALLS[call](board, text)
    except documented as e:
        assert len(str(e)) < 6000
        assert (board.fen(), [str(t) for t in board.turns], board.quiet_turns) == before


@pytest.mark.parametrize(
    "outcome",
    [
        (None, "agreed by both players"),
        ("white", "black resigned"),
        ("black", "white lost on time"),
    ],
)
def test_an_unfinished_game_may_end_by_agreement_resignation_or_time(outcome):
    game = fa.play_game(Random(1), Random(2), Board((5, 5)), max_turns=3)
    game.outcome = fa.Outcome(*outcome)
    assert Game.from_json(game.to_json()).outcome == game.outcome


@pytest.mark.parametrize(
    "outcome",
    [
        ("white", "black has no stones left"),
        ("black", "white has no legal turn"),
        (None, "50 turns in a row without a capture"),
    ],
)
def test_an_unfinished_game_cannot_claim_an_ending_by_the_rules(outcome):
    game = fa.play_game(Random(1), Random(2), Board((5, 5)), max_turns=3)
    game.outcome = fa.Outcome(*outcome)
    with pytest.raises(GameRecordError, match="not over"):
        Game.from_json(game.to_json())
