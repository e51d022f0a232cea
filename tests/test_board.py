"""The Board object: looking at a position, playing and undoing, copies, strings, perft and bad
input."""

import pytest

import fanorona as fa
from fanorona import Board, IllegalMoveError, NotationError, Rules, Step, Turn

CHAIN = """
    .....
    .....
    ..B..
    .....
    W.B..
"""


def state(b):
    """Everything a failed move must leave alone."""
    return b.fen(), b.key(), list(b.turns), b.chain, b.quiet_turns


# -- looking at a position ---------------------------------------------------------------------


def test_stones_counts_and_stone_at():
    b = Board.from_diagram("""
        B.B
        ...
        W..
    """)
    assert b.stones("black") == ["a3", "c3"] and b.stones(fa.Color.WHITE) == ["a1"]
    assert b.count("black") == 2
    assert b.stone_at("a1") == "white" and b.stone_at("b2") is None
    assert b.points == ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")


def test_color_is_a_string_with_an_other_side():
    assert fa.Color.WHITE == "white" and str(fa.Color.BLACK) == "black"
    assert fa.Color.WHITE.other is fa.Color.BLACK and fa.Color.BLACK.other is fa.Color.WHITE


def test_a_bad_side_is_refused():
    with pytest.raises(ValueError, match="'white' or 'black'"):
        Board.from_diagram("W..\n...\n..B", to_move="red")


def test_strings_are_maximal_runs_along_one_line():
    b = Board.from_diagram("""
        .....
        .....
        .....
        .W...
        WWW.W
    """)
    long = set(b.strings("white", min_length=2))
    assert long == {("a1", "b1", "c1"), ("a1", "b2"), ("b1", "b2"), ("c1", "b2")}
    everything = b.strings("white")
    # one string per line through each stone: a1 on 3 lines, b1 on 2, c1 on 4, e1 on 3, b2 on 4
    assert sum(len(s) for s in everything) == 3 + 2 + 4 + 3 + 4
    assert ("e1",) in everything and ("c1",) in everything


def test_the_start_position_strings():
    b = Board()
    rows = b.strings("white", min_length=9)
    assert rows == [tuple(f"{c}1" for c in "abcdefghi"), tuple(f"{c}2" for c in "abcdefghi")]
    assert b.strings("white", min_length=10) == []


def test_text_forms_of_a_board():
    b = Board((3, 3))
    assert b.diagram() == "BBB\nB.W\nWWW"
    assert b.fen() == "BBB/B.W/WWW w"
    assert str(b).splitlines() == [" 3 B B B", " 2 B . W", " 1 W W W", "   a b c"]
    assert eval(repr(b), {"Board": Board}).key() == b.key()


def test_picture_in_a_notebook_is_a_png():
    png = Board((3, 3))._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


# -- playing, undoing, copying -----------------------------------------------------------------


def test_push_pop_restores_the_position_and_history():
    b = Board()
    before = state(b)
    b.push("d3e3W")
    assert b.to_move == "black" and [str(t) for t in b.turns] == ["d3e3W"]
    assert str(b.pop()) == "d3e3W"
    assert state(b) == before


def test_pop_undoes_single_steps_and_end_turn():
    b = Board.from_diagram(CHAIN)
    before = state(b)
    b.push(Step("a1", "b2", "approach"))
    mid = state(b)
    b.end_turn()
    assert b.pop() == "end_turn"
    assert state(b) == mid
    assert b.pop() == Step("a1", "b2", "approach")
    assert state(b) == before
    with pytest.raises(IndexError, match="nothing to undo"):
        b.pop()


def test_after_and_copy_leave_the_original_alone():
    b = Board()
    before = state(b)
    nxt = b.after("d2e3A")
    assert state(b) == before and nxt.to_move == "black"
    c = b.copy()
    c.push("e2e3A")
    assert state(b) == before and c.key() != b.key()


def test_root_is_the_first_position():
    b = Board()
    for text in ["d3e3W", "d4d3A"]:
        b.push(text)
    root = b.root()
    assert root.fen() == Board().fen() and root.turns == []
    assert b.turns and len(b.turns) == 2


def test_key_tells_positions_and_chain_states_apart():
    b = Board.from_diagram(CHAIN)
    k0 = b.key()
    b.push(Step("a1", "b2", "approach"))
    mid = b.key()
    b.end_turn()
    assert len({k0, mid, b.key()}) == 3
    same_stones = Board.from_fen(b.fen())
    assert same_stones.key() == b.key()
    assert Board.from_fen(b.fen().replace(" b", " w")).key() != b.key()


def test_boards_compare_by_position_size_and_rules():
    assert Board() == Board()
    assert Board() != Board(rules=Rules.simple())
    assert Board() != Board().after("d2e3A")


# -- perft -------------------------------------------------------------------------------------


@pytest.mark.parametrize("depth, count", [(0, 1), (1, 5), (2, 39), (3, 724), (4, 18026)])
def test_perft_from_the_9x5_start(depth, count):
    assert fa.perft(Board(), depth) == count


def test_perft_agrees_with_counting_legal_turns():
    b = Board((5, 5))
    by_hand = sum(len(b.after(t).legal_turns()) for t in b.legal_turns())
    assert fa.perft(b, 2) == by_hand


def test_perft_refuses_bad_depths_and_open_chains():
    with pytest.raises(ValueError, match="depth"):
        fa.perft(Board(), -1)
    b = Board.from_diagram(CHAIN)
    b.push(Step("a1", "b2", "approach"))
    with pytest.raises(ValueError, match="finish the chain"):
        fa.perft(b, 1)


# -- bad input: the rule named, the board unchanged --------------------------------------------

BAD_MOVES = [
    (None, Step("e3", "e4"), "no stone on e3"),
    (None, Step("c5", "c4"), "c5 is black, but it is white's turn"),
    (None, Step("d2", "d3"), "d3 is not empty"),
    (None, Step("d2", "d4"), "not neighbours"),
    (None, Step("e2", "f3"), "e2 is a weak point"),
    (None, Step("d2", "e3"), "say which"),
    (None, Step("d2", "e3", "withdrawal"), "does not capture by withdrawal"),
    (None, "e2e3W", "does not capture by withdrawal"),
    (None, "a1a3", "not neighbours"),
    (None, "j1j2", "no point j1 on a 9x5 board"),
    (None, "e2", "needs a start point and at least one destination"),
    (None, "e2e3X", "character 5 ('X')"),
    (None, "d3e3", "captures both by approach and by withdrawal: write d3e3A or d3e3W"),
    (None, "d3e3We4", "the turn is over after d3e3W"),
    ("d3e3W", "a5a4", "a4 is not empty"),
    ("d3e3W", "e3f3", "e3 is white, but it is black's turn"),
]


@pytest.mark.parametrize("played, move, words", BAD_MOVES)
def test_bad_moves_name_the_rule_and_change_nothing(played, move, words):
    b = Board()
    if played:
        b.push(played)
    before = state(b)
    with pytest.raises((IllegalMoveError, NotationError)) as err:
        b.push(move)
    assert words in str(err.value)
    assert state(b) == before


def test_refusing_a_paika_when_capture_is_compulsory_changes_nothing():
    b = Board.from_diagram("""
        .....
        .....
        .B...
        .....
        .W.B.
    """)
    before = state(b)
    with pytest.raises(IllegalMoveError, match="compulsory.*b1b2A, b1c1A"):
        b.push("b1a1")
    assert state(b) == before


def test_ambiguous_capture_is_a_notation_error():
    with pytest.raises(NotationError, match="write d3e3A or d3e3W"):
        Board().parse_turn("d3e3")


def test_a_failed_parse_changes_nothing():
    b = Board.from_diagram(CHAIN)
    before = state(b)
    for text in ["a1b2Ab3", "a1b2Aa3Wa4", "a1b2Xb3", "a1z9"]:
        with pytest.raises((IllegalMoveError, NotationError)):
            b.parse_turn(text)
    assert state(b) == before


def test_a_turn_failing_at_its_second_step_changes_nothing():
    b = Board.from_diagram(CHAIN)
    before = state(b)
    bad = Turn((Step("a1", "b2", "approach"), Step("b2", "b3")))
    with pytest.raises(IllegalMoveError, match="step 2 .*every step of a chain must capture"):
        b.push(bad)
    assert state(b) == before


def test_a_failed_step_during_a_chain_keeps_the_chain():
    b = Board.from_diagram(CHAIN)
    b.push(Step("a1", "b2", "approach"))
    before = state(b)
    for step in [Step("b2", "b3"), Step("b2", "a1", "approach"), Step("b2", "c3")]:
        with pytest.raises(IllegalMoveError):
            b.push(step)
    assert state(b) == before
    assert b.chain_stone == "b2"


def test_push_refuses_things_that_are_not_moves():
    with pytest.raises(TypeError, match="Step, a Turn or turn text"):
        Board().push(42)


def test_steps_and_turns_check_themselves():
    with pytest.raises(ValueError, match="approach"):
        Step("a1", "b1", "sideways")
    with pytest.raises(ValueError, match="does not start where"):
        Turn((Step("a1", "b1", "approach"), Step("c1", "d1", "approach")))
    with pytest.raises(ValueError, match="at least one step"):
        Turn(())
