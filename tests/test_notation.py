"""Text forms: turn text, diagrams and position text read back what they wrote; bad text is
named."""

import pytest

from fanorona import Board, NotationError, Rules
from fanorona.notation import parse_point_name, tokenize_turn

SAMPLES = [
    ((9, 5), None),
    ((5, 5), None),
    ((3, 3), None),
    ((7, 3), None),
    ((3, 7), None),
    ((9, 5), Rules.simple()),
    ((9, 5), Rules.czech()),
    ((9, 5), Rules().with_(direction="free")),
]


@pytest.mark.parametrize("size, rules", SAMPLES)
def test_turn_text_round_trips_for_every_legal_turn(positions, size, rules):
    checked = 0
    for b in positions(25, size, rules, seed=11, every=2):
        for t in b.legal_turns():
            assert b.parse_turn(str(t)) == t
            checked += 1
    assert checked > 25


@pytest.mark.parametrize("size, rules", SAMPLES)
def test_diagram_and_position_text_round_trip(positions, size, rules):
    for b in positions(15, size, rules, seed=5):
        again = Board.from_diagram(b.diagram(), b.to_move, rules)
        assert again.key() == b.key()
        assert Board.from_fen(b.fen(), rules).key() == b.key()
        assert Board.from_fen(b.fen()).fen() == b.fen()


def test_capture_letters_may_be_left_out_when_only_one_way_captures():
    b = Board()
    assert str(b.parse_turn("d2e3")) == "d2e3A"
    assert b.parse_turn(" d2e3 ") == b.parse_turn("d2e3A")


def test_a_turn_text_with_a_chain():
    assert tokenize_turn("e2e3Ad4W") == ("e2", [("e3", "approach"), ("d4", "withdrawal")])
    assert tokenize_turn("a1a2") == ("a1", [("a2", None)])


def test_point_names():
    assert parse_point_name("a1") == (0, 0)
    assert parse_point_name("i5") == (8, 4)
    assert parse_point_name("c12") == (2, 11)


@pytest.mark.parametrize("text", ["A1", "1a", "a", "a0x", "", "e 3", None])
def test_bad_point_names(text):
    with pytest.raises(NotationError, match="not a point name"):
        parse_point_name(text)


@pytest.mark.parametrize(
    "text, words",
    [
        ("e2e3X", "character 5 ('X')"),
        (
            "Ae2e3",
            "character 1 ('A'): A (approach) or W (withdrawal) can only follow a destination",
        ),
        ("e2e3AAd4", "character 6 ('A')"),
        ("e2Ae3", "character 3 ('A')"),
        ("e2-e3", "character 3 ('-')"),
        ("E2E3", "character 1 ('E')"),
        ("e2", "needs a start point and at least one destination"),
        ("", "needs a start point"),
        (23, "written as text"),
    ],
)
def test_bad_turn_text_names_the_character(text, words):
    with pytest.raises(NotationError) as err:
        tokenize_turn(text)
    assert words in str(err.value)


@pytest.mark.parametrize(
    "text, words",
    [
        ("WWW\nB.\nBBB", "diagram line 2 has 2 points, but line 1 has 3"),
        ("WWW\nBxW\nBBB", "diagram line 2, column 2: 'x' is not W, B or '.'"),
        ("", "the diagram is empty"),
        ("  \n\n", "the diagram is empty"),
    ],
)
def test_bad_diagrams_name_the_line(text, words):
    with pytest.raises(NotationError) as err:
        Board.from_diagram(text)
    assert words in str(err.value)


def test_diagrams_may_be_indented_and_spaced():
    b = Board.from_diagram("""
        B B B
        B . W
        W W W
    """)
    assert b.fen() == Board((3, 3)).fen()


@pytest.mark.parametrize(
    "text, words",
    [
        ("BBB/B.W/WWW", "then w or b"),
        ("BBB/B.W/WWW x", "must be 'w' or 'b', not 'x'"),
        ("BBB/B.W/WWW w extra", "then w or b"),
        ("BBB/B.Q/WWW w", "'Q' is not W, B or '.'"),
    ],
)
def test_bad_position_text(text, words):
    with pytest.raises(NotationError) as err:
        Board.from_fen(text)
    assert words in str(err.value)


def test_a_point_off_the_board_is_named():
    with pytest.raises(NotationError, match="no point d1 on a 3x3 board .a1 to c3."):
        Board((3, 3)).parse_turn("c1d1")


def test_notation_errors_are_value_errors():
    assert issubclass(NotationError, ValueError)
