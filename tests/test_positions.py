"""Each teaching position must show what its sentence says it shows."""

import doctest

import pytest

import fanorona as fa
from fanorona import positions
from fanorona.positions import POSITIONS, Position


def turns_of(board):
    return {str(t) for t in board.legal_turns()}


def with_rules(name, **changes):
    """The named position under its own rules with some options changed."""
    spec = POSITIONS[name]
    return fa.Board.from_diagram(
        spec.diagram, spec.to_move, fa.Rules.named(spec.rules).with_(**changes)
    )


# -- the API -------------------------------------------------------------------------------------


def test_names_are_the_dict_keys_and_every_position_loads_with_its_own_rules_and_side():
    assert positions.names() == list(POSITIONS)
    for name, spec in POSITIONS.items():
        board = positions.load(name)
        assert board.rules == fa.Rules.named(spec.rules)
        assert board.to_move == spec.to_move
        assert board.diagram() == spec.diagram
        assert board.size in {(9, 5), (5, 5), (3, 3)}


def test_load_gives_a_fresh_board_each_time():
    first = positions.load("approach")
    first.push("a3b3A")
    assert positions.load("approach").stone_at("c3") == "black"


def test_every_description_is_one_sentence_and_describe_returns_it():
    for name, spec in POSITIONS.items():
        text = positions.describe(name)
        assert text == spec.description
        assert text.endswith(".") and text.count(". ") == 0 and len(text) < 200, name


def test_unknown_name_lists_the_known_ones():
    with pytest.raises(ValueError, match="no teaching position called 'approch'") as info:
        positions.load("approch")
    assert "approach" in str(info.value) and "long-chain" in str(info.value)
    with pytest.raises(ValueError, match="the names are"):
        positions.describe(None)


def test_a_position_refuses_an_unknown_rule_preset():
    with pytest.raises(ValueError, match="preset name"):
        Position("W.B", "white", "tournament", "A made-up rule set.")


def test_each_named_turn_is_legal_and_each_focus_point_exists():
    for name, spec in POSITIONS.items():
        board = positions.load(name)
        assert all(p in board.points for p in spec.focus), name
        if spec.turn is not None:
            assert spec.turn in turns_of(board), name


def test_module_doctest():
    assert doctest.testmod(positions).failed == 0


# -- each position shows its claim ---------------------------------------------------------------


@pytest.mark.parametrize("size", [(9, 5), (5, 5), (3, 3)])
def test_start_positions_are_the_boards_start(size):
    board = positions.load(f"start-{size[0]}x{size[1]}")
    assert board == fa.Board(size)
    w, h = size
    assert board.count("white") == board.count("black") == (w * h - 1) // 2
    assert board.stone_at(board.points[len(board.points) // 2]) is None


def test_approach_captures_the_string_in_front_of_the_destination():
    board = positions.load("approach")
    assert turns_of(board) == {"a3b3A"}
    board.push("a3b3A")
    assert board.count("black") == 0 and board.stone_at("b3") == "white"


def test_withdrawal_captures_the_string_behind_the_origin():
    board = positions.load("withdrawal")
    assert turns_of(board) == {"b3a3W"}
    step = board.legal_steps()[0]
    assert sorted(board.captures(step)) == ["c3", "d3"]


def test_both_ways_has_one_step_that_captures_either_way_and_each_choice_takes_one_string():
    board = positions.load("both-ways")
    kinds = {}
    for step in board.legal_steps():
        kinds.setdefault((step.origin, step.destination), {})[step.capture] = set(
            board.captures(step)
        )
    assert kinds == {("c3", "d3"): {"approach": {"e3"}, "withdrawal": {"a3", "b3"}}}
    assert board.after("c3d3W").stones("black") == ["e3"]


def test_long_string_capture_stops_at_the_gap():
    board = positions.load("long-string")
    (step,) = board.legal_steps()
    assert sorted(board.captures(step)) == ["c3", "d3", "e3", "f3"]
    board.push(step)
    assert sorted(board.stones("black")) == ["h3", "i3"]


def test_long_chain_captures_at_every_step_and_turns_at_every_step():
    board = positions.load("long-chain")
    longest = max(board.legal_turns(), key=lambda t: len(t.steps))
    assert str(longest) == POSITIONS["long-chain"].turn and len(longest.steps) == 6
    assert all(step.capture for step in longest.steps)
    moves = [
        (board.points.index(s.destination) - board.points.index(s.origin)) for s in longest.steps
    ]
    assert all(a != b for a, b in zip(moves, moves[1:]))
    # It may stop after any step: every prefix is a legal turn of its own.
    assert len(board.legal_turns()) == 6


def test_direction_rule_chain_goes_on_only_without_the_direction_rule():
    assert turns_of(positions.load("direction-rule")) == {"b3c3W"}
    # The no-revisit rule plays no part: dropping it changes nothing ...
    assert turns_of(with_rules("direction-rule", no_revisit=False)) == {"b3c3W"}
    # ... while dropping the direction rule lets the chain go on east.
    assert turns_of(with_rules("direction-rule", direction="free")) == {"b3c3W", "b3c3Wd3A"}


def test_no_revisit_chain_goes_on_only_without_the_no_revisit_rule():
    standard = turns_of(positions.load("no-revisit"))
    revisiting = turns_of(with_rules("no-revisit", no_revisit=False)) - standard
    assert "c3d4Ad3Ac3A" in revisiting
    board = positions.load("no-revisit")
    for text in revisiting:
        path = (
            fa.Board.from_diagram(board.diagram(), rules=fa.Rules(no_revisit=False))
            .parse_turn(text)
            .path
        )
        assert len(set(path)) < len(path), text
    # The step back onto c3 turns west after going south, so the direction rule allows it.
    assert turns_of(with_rules("no-revisit", direction="free")) == standard


def test_compulsory_capture_refuses_the_paika_that_simple_rules_allow():
    board = positions.load("compulsory-capture")
    assert board.legal_turns() and all(t.is_capture for t in board.legal_turns())
    with pytest.raises(fa.IllegalMoveError, match="capture is compulsory"):
        board.push("a4a5")
    assert "a4a5" in turns_of(with_rules("compulsory-capture", mandatory_capture=False))


def test_blocked_side_with_stones_but_no_move_loses():
    board = positions.load("blocked")
    assert board.count("white") == 2 and board.legal_steps() == []
    outcome = board.outcome()
    assert outcome.winner == "black" and "no legal turn" in outcome.reason


def test_the_string_stone_lies_on_four_strings_one_per_line():
    board = positions.load("strings")
    through = [s for s in board.strings("black") if "e3" in s]
    assert sorted(map(sorted, through)) == [
        ["c3", "d3", "e3"],
        ["d2", "e3"],
        ["e3", "e4"],
        ["e3", "f2", "g1"],
    ]
    assert board.stone_at("f3") == "white"


def test_first_turn_single_capture_stops_the_chain_that_standard_rules_allow():
    assert turns_of(positions.load("first-turn-single")) == {"b2c1W"}
    assert POSITIONS["first-turn-single"].diagram == POSITIONS["long-chain"].diagram
    assert len(turns_of(positions.load("long-chain"))) == 6


def test_telo_sweep_wins_in_one_turn_only_by_going_to_the_end_of_the_chain():
    board = positions.load("telo-sweep")
    assert board.size == (3, 3)
    winning = [t for t in board.legal_turns() if board.after(t).outcome() is not None]
    assert [str(t) for t in winning] == [POSITIONS["telo-sweep"].turn]
    assert board.after(winning[0]).outcome().winner == "white"
    assert (
        len(board.legal_turns()) == 3
    )  # stopping after the first or second capture wins nothing yet
