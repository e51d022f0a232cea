"""Properties of random games, on several sizes and rule sets, checked with hypothesis.

A game is drawn as a list of numbers; each picks one of the legal turns (or steps) in turn, so
hypothesis can shrink a failing game to a short one.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from fanorona import Board, Rules

VARIANTS = [
    ((9, 5), Rules.standard()),
    ((9, 5), Rules.simple()),
    ((9, 5), Rules.czech()),
    ((5, 5), Rules.solved()),
    ((3, 3), Rules.standard()),
    ((7, 3), Rules.standard()),
    ((3, 7), Rules.standard().with_(direction="no-reuse")),
    ((9, 5), Rules.standard().with_(direction="free", no_revisit=False)),
    ((5, 5), Rules.standard().with_(must_continue=True, quiet_draw=6)),
]

variants = st.sampled_from(VARIANTS)
choices = st.lists(st.integers(min_value=0, max_value=10**6), min_size=4, max_size=30)
FAST = settings(max_examples=50, deadline=None)


def play(size, rules, picks):
    """The board after the drawn turns, and the boards before each of them."""
    b = Board(size, rules)
    before = []
    for n in picks:
        options = b.legal_turns()
        if not options:
            break
        before.append(b.copy())
        b.push(options[n % len(options)])
    return b, before


def stones(b):
    return {p: b.stone_at(p) for p in b.points if b.stone_at(p) is not None}


def snapshot(b):
    """A board's state as values: text, key, turns, counter and chain."""
    return b.fen(), b.key(), tuple(b.turns), b.quiet_turns, b.chain


@FAST
@given(variants, choices)
def test_stones_never_appear(variant, picks):
    b, history = play(*variant, picks)
    counts = [(h.count("white"), h.count("black")) for h in history + [b]]
    for (w1, b1), (w2, b2) in zip(counts, counts[1:]):
        assert w2 <= w1 and b2 <= b1


@FAST
@given(variants, choices)
def test_a_turn_removes_exactly_the_captured_strings(variant, picks):
    _, history = play(*variant, picks)
    for before in history[-8:]:
        for turn in before.legal_turns():
            expected = stones(before)
            mover = expected.pop(turn.start)
            trial = before.copy()
            for step in turn.steps:
                for p in trial.captures(step):
                    assert expected.pop(p) == before.to_move.other
                trial.push(step)
            expected[turn.path[-1]] = mover
            assert stones(before.after(turn)) == expected, turn


@FAST
@given(variants, choices)
def test_push_then_pop_restores_everything(variant, picks):
    """Each pop gives back the position recorded (as values, not as a board: a board copy that
    shared the board's state would be compared with the board itself) before that push."""
    size, rules = variant
    b, recorded = Board(size, rules), []
    for n in picks:
        options = b.legal_turns()
        if not options:
            break
        recorded.append(snapshot(b))
        b.push(options[n % len(options)])
    for earlier in reversed(recorded):
        b.pop()
        assert snapshot(b) == earlier
    assert not recorded or snapshot(b) == snapshot(Board(size, rules))


@FAST
@given(variants, choices)
def test_after_leaves_the_board_unchanged(variant, picks):
    b, _ = play(*variant, picks)
    before = snapshot(b)
    for turn in b.legal_turns():
        b.after(turn)
    assert snapshot(b) == before


@FAST
@given(variants, choices)
def test_stepping_through_a_turn_equals_pushing_it(variant, picks):
    b, _ = play(*variant, picks)
    for turn in b.legal_turns():
        by_turn, by_steps = b.after(turn), b.copy()
        for step in turn.steps:
            by_steps.push(step)
        if by_steps.chain:
            by_steps.end_turn()
        assert snapshot(by_steps) == snapshot(by_turn)


@FAST
@given(variants, choices)
def test_the_first_steps_of_the_legal_turns_are_the_legal_steps(variant, picks):
    b, _ = play(*variant, picks)
    assert {t.steps[0] for t in b.legal_turns()} == set(b.legal_steps())
    assert len(set(b.legal_turns())) == len(b.legal_turns())


@FAST
@given(variants, choices)
def test_text_round_trips(variant, picks):
    b, _ = play(*variant, picks)
    for turn in b.legal_turns():
        assert b.parse_turn(str(turn)) == turn
    assert Board.from_fen(b.fen(), b.rules).key() == b.key()
    assert Board.from_diagram(b.diagram(), b.to_move, b.rules).fen() == b.fen()


@FAST
@given(variants, st.lists(st.integers(min_value=0, max_value=10**6), max_size=60))
def test_a_game_played_step_by_step_replays_turn_by_turn(variant, picks):
    """Steps and end_turn (drawn as one more option mid-chain) build the same turns that push(turn)
    plays."""
    size, rules = variant
    b = Board(size, rules)
    for n in picks:
        options = b.legal_steps() + (["end"] if b.chain and not rules.must_continue else [])
        if not options:
            break
        pick = options[n % len(options)]
        if pick == "end":
            b.end_turn()
        else:
            if b.chain:
                assert {t.steps[0] for t in b.legal_turns()} == set(b.legal_steps())
            b.push(pick)
    replay = b.root()
    for turn in b.turns:
        assert turn in replay.legal_turns()
        replay.push(turn)
    if not b.chain:
        assert replay.key() == b.key() and replay.quiet_turns == b.quiet_turns
