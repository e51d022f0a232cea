"""Each rule on a small diagram built for it, and the rule options that make rule sets differ.

Diagrams are written top row first (Black's side), so the bottom line is rank 1.
"""

import pytest

import fanorona as fa
from fanorona import Board, IllegalMoveError, Rules, Step, Turn


def turns(board):
    return {str(t) for t in board.legal_turns()}


def board(diagram, to_move="white", rules=None):
    return Board.from_diagram(diagram, to_move, rules)


# -- approach, withdrawal and the captured string ------------------------------------------------


def test_approach_captures_the_stone_ahead_of_the_destination():
    b = board("""
        .....
        .....
        .....
        .....
        W.B..
    """)
    assert b.captures(Step("a1", "b1", "approach")) == ["c1"]
    b.push("a1b1A")
    assert b.stones("black") == []
    assert b.stones("white") == ["b1"]


def test_withdrawal_captures_the_stone_left_behind():
    b = board("""
        .....
        .....
        .....
        .....
        BW...
    """)
    assert turns(b) == {"b1c1W"}
    b.push("b1c1W")
    assert b.stone_at("a1") is None and b.stone_at("c1") == "white"


def test_diagonal_approach_from_a_strong_point():
    b = board("""
        .....
        .....
        ..B..
        .....
        W....
    """)
    assert "a1b2A" in turns(b)
    assert b.captures(Step("a1", "b2", "approach")) == ["c3"]


def test_the_whole_string_goes_up_to_a_gap():
    b = board("""
        .........
        .........
        .........
        .........
        W.BBB.B..
    """)
    assert b.captures(Step("a1", "b1", "approach")) == ["c1", "d1", "e1"]
    b.push(Step("a1", "b1", "approach"))
    assert b.stones("black") == ["g1"]


def test_the_captured_string_stops_at_an_own_stone():
    b = board("""
        .........
        .........
        .........
        .........
        W.BBWB...
    """)
    assert b.captures(Step("a1", "b1", "approach")) == ["c1", "d1"]
    b.push(Step("a1", "b1", "approach"))
    assert b.stones("black") == ["f1"]


def test_a_withdrawal_string_runs_to_the_edge():
    b = board("""
        .....
        .....
        .....
        .....
        BBBW.
    """)
    assert b.captures(Step("d1", "e1", "withdrawal")) == ["a1", "b1", "c1"]


def test_a_step_that_captures_both_ways_is_two_distinct_turns():
    b = board("""
        .....
        .....
        .....
        .....
        BW.BB
    """)
    assert turns(b) == {"b1c1A", "b1c1W"}
    by_approach = b.after("b1c1A")
    by_withdrawal = b.after("b1c1W")
    assert by_approach.stones("black") == ["a1"]
    assert by_withdrawal.stones("black") == ["d1", "e1"]


def test_only_opponent_stones_are_captured():
    b = board("""
        .....
        .....
        .....
        .....
        W.W..
    """)
    assert all(not t.is_capture for t in b.legal_turns())


# -- weak points -------------------------------------------------------------------------------


def test_a_weak_point_has_no_diagonal_step():
    b = board("""
        .....
        ..B..
        .....
        W....
        .....
    """)
    assert turns(b) == {"a2a1", "a2a3", "a2b2"}
    with pytest.raises(IllegalMoveError, match="weak point"):
        b.push(Step("a2", "b3", "approach"))


def test_a_diagonal_step_from_a_weak_point_names_it():
    b = board("""
        ..B
        ...
        .W.
    """)
    with pytest.raises(IllegalMoveError, match="b1 is a weak point, without diagonals"):
        b.push("b1a2")


# -- compulsory capture ------------------------------------------------------------------------

CAPTURE_OR_PAIKA = """
    .....
    .....
    .B...
    .....
    .W.B.
"""


def test_capture_is_compulsory():
    b = board(CAPTURE_OR_PAIKA)
    assert turns(b) == {"b1c1A", "b1b2A"}


def test_the_compulsory_capture_message_lists_the_capturing_turns():
    b = board(CAPTURE_OR_PAIKA)
    with pytest.raises(IllegalMoveError) as err:
        b.push("b1a1")
    message = str(err.value)
    assert "compulsory" in message
    assert "b1c1A" in message and "b1b2A" in message


def test_simple_rules_allow_a_paika_when_a_capture_exists():
    b = board(CAPTURE_OR_PAIKA, rules=Rules.simple())
    assert turns(b) == {"b1c1A", "b1b2A", "b1a1"}
    b.push("b1a1")
    assert b.count("black") == 2 and b.to_move == "black"


def test_under_simple_rules_a_capturing_step_still_captures():
    """A step that can capture is never a paika: leaving out the capture is refused, not ignored."""
    b = board(CAPTURE_OR_PAIKA, rules=Rules.simple())
    with pytest.raises(IllegalMoveError, match="captures by approach"):
        b.push(Step("b1", "c1"))
    b.push("b1c1")
    assert b.stones("black") == ["b3"]


# -- chains ------------------------------------------------------------------------------------

CHAIN = """
    .....
    .....
    ..B..
    .....
    W.B..
"""


def test_a_chain_may_stop_at_every_point_where_it_could_go_on():
    b = board(CHAIN)
    assert turns(b) == {"a1b1A", "a1b2A", "a1b2Aa3W"}
    assert b.after("a1b2A").stones("black") == ["c1"]
    assert b.after("a1b2Aa3W").stones("black") == []


def test_a_chain_step_by_step():
    b = board(CHAIN)
    b.push(Step("a1", "b2", "approach"))
    assert b.to_move == "white" and b.chain_stone == "b2"
    assert b.chain == (Step("a1", "b2", "approach"),)
    assert b.legal_steps() == [Step("b2", "a3", "withdrawal")]
    assert [str(t) for t in b.legal_turns()] == ["b2a3W"]
    assert b.outcome() is None
    b.end_turn()
    assert b.to_move == "black" and b.chain == () and b.chain_stone is None
    assert [str(t) for t in b.turns] == ["a1b2A"]


def test_a_chain_ends_by_itself_when_no_capture_follows():
    b = board(CHAIN)
    b.push(Step("a1", "b1", "approach"))
    assert b.to_move == "black" and b.chain_stone is None
    with pytest.raises(IllegalMoveError, match="no capture chain in progress"):
        b.end_turn()


def test_must_continue_removes_the_early_stops():
    b = board(CHAIN, rules=Rules.standard().with_(must_continue=True))
    assert turns(b) == {"a1b1A", "a1b2Aa3W"}
    b.push(Step("a1", "b2", "approach"))
    with pytest.raises(IllegalMoveError, match="must go on.*b2a3W"):
        b.end_turn()


def test_must_continue_refuses_a_turn_that_stops_early():
    b = board(CHAIN, rules=Rules.standard().with_(must_continue=True))
    for attempt in ("a1b2A", Turn((Step("a1", "b2", "approach"),))):
        with pytest.raises(IllegalMoveError, match="must go on"):
            b.push(attempt)
    assert b.turns == [] and b.chain == ()


def test_without_chains_a_turn_is_one_step():
    b = board(CHAIN, rules=Rules.standard().with_(chains=False))
    assert turns(b) == {"a1b1A", "a1b2A"}
    with pytest.raises(IllegalMoveError, match="no capture chains"):
        b.push("a1b2Aa3W")


def test_every_step_of_a_chain_must_capture():
    b = board(CHAIN)
    b.push(Step("a1", "b2", "approach"))
    with pytest.raises(IllegalMoveError, match="every step of a chain must capture"):
        b.push(Step("b2", "b3"))


def test_only_the_chain_stone_may_move_during_a_chain():
    b = board("""
        .....
        ....W
        ..B..
        .....
        W.B..
    """)
    b.push(Step("a1", "b2", "approach"))
    with pytest.raises(IllegalMoveError, match="only the stone on b2"):
        b.push(Step("e4", "e5"))


# -- no revisit --------------------------------------------------------------------------------

TRIANGLE = """
    .....
    ..B..
    .....
    .W.B.
    B....
"""


def points_repeat(turn):
    return len(set(turn.path)) < len(turn.path)


def test_no_revisit_forbids_returning_to_the_start_point():
    strict = board(TRIANGLE, rules=Rules.solved())
    loose = board(TRIANGLE, rules=Rules.solved().with_(no_revisit=False))
    extra = turns(loose) - turns(strict)
    assert turns(strict) < turns(loose)
    assert extra == {"b2c2Ac3Ab2A", "b2c3Wc2Wb2W"}
    assert not any(points_repeat(t) for t in strict.legal_turns())
    assert {str(t) for t in loose.legal_turns() if points_repeat(t)} == extra


def test_revisiting_is_refused_with_the_reason():
    b = board("""
        .....
        ..B..
        ....B
        .W.B.
        B....
    """)
    b.push(Step("b2", "c2", "approach"))
    b.push(Step("c2", "c3", "approach"))
    assert b.legal_steps() == [Step("c3", "d3", "approach")]
    with pytest.raises(IllegalMoveError, match="already been on b2 this turn"):
        b.push(Step("c3", "b2", "approach"))


# -- direction rules ---------------------------------------------------------------------------

REPEAT = """
    .....
    .....
    .....
    .....
    BW..B
"""
REUSE = """
    .....
    .....
    ..B..
    B...B
    BW...
"""


def directions(b, turn):
    """The direction of each step as a (column, row) change."""
    g = b.geometry
    out = []
    for s in turn.steps:
        (c1, r1), (c2, r2) = (g.coordinates(g.index[p]) for p in (s.origin, s.destination))
        out.append((c2 - c1, r2 - r1))
    return out


def legal(diagram, direction):
    return board(diagram, rules=Rules.solved().with_(direction=direction))


@pytest.mark.parametrize(
    "diagram", [REPEAT, REUSE, TRIANGLE, CHAIN], ids=["repeat", "reuse", "triangle", "chain"]
)
def test_each_direction_rule_holds_in_every_legal_turn(diagram):
    for rule in ("no-repeat", "no-reuse"):
        b = legal(diagram, rule)
        for t in b.legal_turns():
            moves = directions(b, t)
            assert all(before != after for before, after in zip(moves, moves[1:])), t
            if rule == "no-reuse":
                assert len(set(moves)) == len(moves), t


def test_free_direction_allows_the_same_direction_twice_in_a_row():
    assert turns(legal(REPEAT, "no-repeat")) == turns(legal(REPEAT, "no-reuse")) == {"b1c1W"}
    assert turns(legal(REPEAT, "free")) == {"b1c1W", "b1c1Wd1A"}


def test_no_reuse_forbids_a_direction_used_earlier_in_the_turn():
    no_repeat, no_reuse, free = (turns(legal(REUSE, r)) for r in ("no-repeat", "no-reuse", "free"))
    assert no_repeat == free
    assert no_repeat - no_reuse == {"b1c1Wc2Ad2A"}  # east, north, east
    assert no_reuse < no_repeat


def chain_at_c2(direction):
    """REUSE after east then north: the stone on c2 can still capture to the west."""
    b = legal(REUSE, direction)
    b.push(Step("b1", "c1", "withdrawal"))
    b.push(Step("c1", "c2", "approach"))
    return b


def test_the_same_direction_twice_is_refused_with_the_reason():
    with pytest.raises(IllegalMoveError, match="may not go north twice in a row"):
        chain_at_c2("no-repeat").push(Step("c2", "c3"))


def test_a_reused_direction_is_refused_with_the_reason():
    b = chain_at_c2("no-reuse")
    assert b.legal_steps() == [Step("c2", "b2", "approach")]
    with pytest.raises(IllegalMoveError, match="already gone east this turn"):
        b.push(Step("c2", "d2", "approach"))


def test_turn_text_running_past_a_forbidden_step_names_the_rule():
    """The chain ended by itself, but the text goes on: the reason is the chain rule, not 'no
    capture'."""
    for diagram, text, words in [
        (TRIANGLE, "b2c2Ac3Ab2A", "already been on b2"),
        (REPEAT, "b1c1Wd1A", "east twice in a row"),
    ]:
        b = board(diagram)
        with pytest.raises(IllegalMoveError, match=words):
            b.push(text)
        assert b.turns == [] and b.fen() == board(diagram).fen()


# -- the Czech opening rule --------------------------------------------------------------------


def test_opening_single_capture_limits_the_first_turn_to_one_string():
    assert turns(board(CHAIN, rules=Rules.czech())) == {"a1b1A", "a1b2A"}


def test_opening_single_capture_on_9x5_only_touches_blacks_first_turn():
    czech, standard = Board(rules=Rules.czech()), Board()
    assert czech.legal_turns() == standard.legal_turns()
    for opening in standard.legal_turns():
        black_czech = czech.after(opening).legal_turns()
        black_standard = standard.after(opening).legal_turns()
        assert set(black_czech) == {Turn(t.steps[:1]) for t in black_standard}
    assert fa.perft(czech, 2) < fa.perft(standard, 2)


def test_after_each_side_has_moved_chains_are_back():
    b = Board(rules=Rules.czech())
    b.push("d2e3A")
    b.push("f3f4W")
    assert "e3f2Wf3A" in turns(b)
    assert turns(b) == turns(
        Board.from_fen(b.fen(), Rules.czech().with_(opening_single_capture=False))
    )


# -- the end of the game -----------------------------------------------------------------------


def shuffle(b, moves):
    for m in moves:
        b.push(m)


def test_quiet_turns_draw():
    b = board(
        """
        ....B
        .....
        .....
        .....
        W....
    """,
        rules=Rules.solved().with_(quiet_draw=4),
    )
    shuffle(b, ["a1a2", "e5e4", "a2a1"])
    assert b.quiet_turns == 3 and b.outcome() is None
    b.push("e4e5")
    assert b.outcome() == fa.Outcome(None, "4 turns in a row without a capture")
    assert b.legal_turns() == [] and b.legal_steps() == [] and b.is_game_over()
    with pytest.raises(IllegalMoveError, match="game is over"):
        b.push(Step("a1", "a2"))


def test_a_capture_resets_the_quiet_count():
    b = board("""
        .....
        .....
        .....
        .....
        W..B.
    """)
    counts = []
    for m in ["a1a2", "d1c1", "a2a1", "c1b1A"]:
        b.push(m)
        counts.append(b.quiet_turns)
    assert counts == [1, 2, 3, 0]


def test_without_a_draw_rule_quiet_play_goes_on():
    b = board(
        """
        ....B
        .....
        .....
        .....
        W....
    """,
        rules=Rules.solved(),
    )
    shuffle(b, ["a1a2", "e5e4", "a2a1", "e4e5"] * 30)
    assert b.quiet_turns == 120 and b.outcome() is None


def test_a_side_without_stones_has_lost():
    b = board(
        """
        W..
        ...
        ...
    """,
        to_move="black",
    )
    assert b.outcome() == fa.Outcome("white", "black has no stones left")
    assert b.legal_turns() == []
    white_to_move = board("W..\n...\n...", to_move="white")
    assert white_to_move.outcome().winner == "white"


def test_a_side_that_cannot_move_has_lost():
    blocked = """
        BW.
        WW.
        ...
    """
    b = board(blocked, to_move="black")
    assert b.outcome() == fa.Outcome("white", "black has no legal turn")
    assert b.legal_turns() == [] and b.is_game_over()
    assert board(blocked, to_move="white").outcome() is None


def test_the_game_ends_when_the_last_stone_is_captured():
    b = board("""
        .....
        .....
        .....
        .....
        W.B..
    """)
    b.push("a1b1A")
    assert b.outcome() == fa.Outcome("white", "black has no stones left")


@pytest.mark.parametrize(
    "diagram, winner",
    [
        ("WW.\nB..\n...", "white"),
        ("W..\nBB.\n..B", "black"),
        ("W..\n...\n..B", None),
    ],
)
def test_adjudicate_on_stone_count(diagram, winner):
    result = board(diagram).adjudicate()
    assert result.winner == winner
    assert "adjudicated" in result.reason


# -- the options themselves --------------------------------------------------------------------


def test_presets_differ_only_where_they_say():
    standard = Rules.standard()
    assert Rules.solved() == standard.with_(quiet_draw=None)
    assert Rules.czech() == standard.with_(
        quiet_draw=None, opening_single_capture=True, no_revisit=False
    )
    assert Rules.simple() == standard.with_(mandatory_capture=False, chains=False, quiet_draw=None)
    assert [Rules.named(n).name() for n in fa.rules.PRESETS] == list(fa.rules.PRESETS)
    assert standard.with_(direction="free").name() is None


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"direction": "sideways"}, ["direction", "no-repeat", "sideways"]),
        ({"quiet_draw": 0}, ["quiet_draw", "at least 1"]),
        ({"quiet_draw": True}, ["quiet_draw"]),
        ({"chains": "yes"}, ["chains", "True or False"]),
    ],
)
def test_bad_rule_options_are_refused_by_name(changes, words):
    with pytest.raises(ValueError) as err:
        Rules(**changes)
    for word in words:
        assert word in str(err.value)


def test_an_unknown_preset_lists_the_known_ones():
    with pytest.raises(ValueError, match="standard, simple, solved, czech"):
        Rules.named("tournament")
