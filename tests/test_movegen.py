"""The bit-set generator: perft, and agreement with the generator it replaced and between its own
views."""

import pytest
from conftest import random_position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fanorona as fa
from benchmarks import baseline as bench_baseline
from fanorona.movegen import ChainRule, bitsets, generator

SIZES = [(3, 3), (5, 3), (3, 5), (5, 5), (9, 5), (7, 3), (3, 9), (13, 3)]
RULE_SETS = [
    fa.Rules.standard(),
    fa.Rules.simple(),
    fa.Rules.solved(),
    fa.Rules.czech(),
    fa.Rules.standard().with_(direction="no-reuse"),
    fa.Rules.standard().with_(direction="free"),
    fa.Rules.standard().with_(must_continue=True),
    fa.Rules.standard().with_(no_revisit=False),
    fa.Rules.standard().with_(mandatory_capture=False, no_revisit=False, direction="free"),
]


@pytest.mark.parametrize("depth, expected", [(1, 5), (2, 39), (3, 724), (4, 18026), (5, 431852)])
def test_perft_from_the_start(depth, expected):
    assert fa.perft(fa.Board(), depth) == expected


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.sampled_from(SIZES),
    rules=st.sampled_from(RULE_SETS),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 40),
)
def test_turns_equal_those_of_the_generator_it_replaced(size, rules, seed, plies):
    board = random_position(size, rules, seed, plies)
    if board.is_game_over():
        return
    me, opp = bitsets(board)
    gen = generator(board.geometry, rules)
    new = gen.turns(me, opp, gen.single(len(board.turns)))
    assert new == bench_baseline.turns(board), "same turns, same steps, same order"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.sampled_from(SIZES),
    rules=st.sampled_from(RULE_SETS),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 40),
)
def test_counts_results_and_children_agree_with_the_turns(size, rules, seed, plies):
    board = random_position(size, rules, seed, plies)
    me, opp = bitsets(board)
    gen = generator(board.geometry, rules)
    single = gen.single(len(board.turns))
    turns = gen.turns(me, opp, single)
    results = gen.results(me, opp, single)
    assert gen.count_turns(me, opp, single) == len(turns)
    assert sorted(results) == sorted((m, o) for _steps, m, o, _c in turns)
    children = gen.children(me, opp, single)
    assert set(children) == set(results) and len(set(children)) == len(children)
    assert gen.has_step(me, opp) == bool(sum(map(len, gen.first_steps(me, opp))))
    captures = gen.first_steps(me, opp)[0]
    assert gen.best_capture(me, opp) == max((s[4].bit_count() for s in captures), default=0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.sampled_from(SIZES),
    rules=st.sampled_from(RULE_SETS),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 40),
    depth=st.integers(1, 3),
)
def test_perft_equals_the_generator_it_replaced(size, rules, seed, plies, depth):
    board = random_position(size, rules, seed, plies)
    assert fa.perft(board, depth) == bench_baseline.perft(board, depth)


def test_perft_stops_at_the_quiet_turn_draw():
    board = fa.Board.from_diagram(
        "W....\n.....\n.....\n.....\n....B", "white", fa.Rules.standard().with_(quiet_draw=2)
    )
    assert fa.perft(board, 1) > 0 and fa.perft(board, 2) > 0
    assert fa.perft(board, 3) == 0, "two quiet turns end every line before the third"


def test_each_chain_rule_refuses_with_its_sentence():
    chain = (12, 1 << 11 | 1 << 12, 0, 1 << 0)  # a stone that came east from point 11 to 12
    assert "already been on" in ChainRule(fa.Rules.standard()).refusal(chain, 11, 4, "c2")
    assert "east twice in a row" in ChainRule(fa.Rules.standard()).refusal(chain, 13, 0, "e2")
    reuse = ChainRule(fa.Rules.standard().with_(direction="no-reuse"))
    assert "already gone east" in reuse.refusal(chain, 13, 0, "e2")
    assert (
        ChainRule(fa.Rules.standard().with_(direction="free")).refusal(chain, 13, 0, "e2") is None
    )
    assert (
        ChainRule(fa.Rules.standard().with_(no_revisit=False)).refusal(chain, 11, 4, "c2") is None
    )
    assert ChainRule(fa.Rules.standard()).refusal(chain, 21, 2, "d3") is None
