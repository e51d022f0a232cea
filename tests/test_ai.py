"""The computer players: legal answers, the search's value against plain minimax, forced wins,
replays."""

import random
import sys
import threading
import time

import pytest
from conftest import positions_from_random_games, random_position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fanorona as fa
from fanorona import Rules
from fanorona.engine import ai

SIZES = [(3, 3), (5, 3), (3, 5), (5, 5), (9, 5)]
FAST_PLAYERS = [
    "random",
    "greedy",
    "alphabeta:depth=1",
    "alphabeta:depth=2",
    "alphabeta:time=0.05",
    "alphabeta:depth=2,quiescence=1",
    "mcts:playouts=20",
    "level3",
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.sampled_from(SIZES),
    rules=st.sampled_from(["standard", "simple", "czech"]),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 30),
    spec=st.sampled_from(FAST_PLAYERS),
)
def test_players_only_choose_legal_turns(size, rules, seed, plies, spec):
    board = random_position(size, Rules.named(rules), seed, plies)
    if board.is_game_over():
        return
    before = board.fen()
    turn = ai.make_player(spec, seed=seed).choose_turn(board)
    assert turn in board.legal_turns()
    assert board.fen() == before, "choosing a turn must not change the board"


def test_players_refuse_a_finished_game():
    over = fa.Board.from_diagram("W..\n...\n...", "black")
    for player in (
        ai.RandomPlayer(),
        ai.GreedyPlayer(),
        ai.AlphaBetaPlayer(depth=2),
        ai.MCTSPlayer(playouts=5),
    ):
        with pytest.raises(ValueError, match="game is over"):
            player.choose_turn(over)


def test_mid_chain_board_is_refused():
    board = fa.Board.from_diagram(".....\n..B..\n.....\n.BW..\nW...B", "white")
    board.push(next(t for t in board.legal_turns() if len(t.steps) > 1).steps[0])
    assert board.chain
    with pytest.raises(ValueError, match="whole turns"):
        ai.AlphaBetaPlayer(depth=1).choose_turn(board)


# ---------------------------------------------------------------------------------------------
# Alpha-beta against minimax written out plainly on Board objects.


def material(board):
    me = board.count(board.to_move)
    return 100 * (me - board.count(board.to_move.other))


def minimax(board, depth, ply=0):
    """The negamax value of ``board`` for the side to move: a loss ``ply`` turns from the root
    scores
    -(WIN - ply) as in ai (so later losses are better), and the horizon is scored by material."""
    if board.count(board.to_move) == 0:
        return -(ai.WIN_SCORE - ply)
    if depth == 0:
        return material(board)
    turns = board.legal_turns()
    if not turns:
        return -(ai.WIN_SCORE - ply)
    return max(-minimax(board.after(t), depth - 1, ply + 1) for t in turns)


@settings(max_examples=25, deadline=None)
@given(
    size=st.sampled_from([(3, 3), (5, 3), (3, 5), (5, 5)]),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 12),
    depth=st.integers(1, 3),
)
def test_alphabeta_value_equals_minimax(size, seed, plies, depth):
    board = random_position(size, Rules.solved(), seed, plies)
    if board.is_game_over():
        return
    player = ai.AlphaBetaPlayer(depth=depth, evaluation="material", seed=seed)
    turn = player.choose_turn(board)
    expected = minimax(board, depth)
    if len(board.legal_turns()) > 1:
        assert player.last_search.score == expected
    assert -minimax(board.after(turn), depth - 1, 1) == expected, (
        "the chosen turn must reach the best value"
    )


def quiescence(board, turns_left, ply):
    """Past the horizon: a side that can capture must, so its capturing turns are searched, at most
    ``turns_left`` of them in a row; a position without a capture is scored by material."""
    if board.count(board.to_move) == 0 or not board.legal_turns():
        return -(ai.WIN_SCORE - ply)
    captures = [t for t in board.legal_turns() if t.is_capture]
    if not captures or turns_left == 0:
        return material(board)
    return max(-quiescence(board.after(t), turns_left - 1, ply + 1) for t in captures)


def minimax_with_quiescence(board, depth, ply=0):
    if board.count(board.to_move) == 0 or not board.legal_turns():
        return -(ai.WIN_SCORE - ply)
    if depth == 0:
        return quiescence(board, ai.QUIESCENCE_TURNS, ply)
    return max(
        -minimax_with_quiescence(board.after(t), depth - 1, ply + 1) for t in board.legal_turns()
    )


@settings(max_examples=25, deadline=None)
@given(
    size=st.sampled_from([(3, 3), (5, 3), (3, 5), (5, 5)]),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 12),
    depth=st.integers(1, 2),
)
@pytest.mark.slow
def test_quiescence_value_equals_minimax_with_captures_searched_past_the_horizon(
    size, seed, plies, depth
):
    board = random_position(size, Rules.solved(), seed, plies)
    if board.is_game_over() or len(board.legal_turns()) == 1:
        return
    player = ai.AlphaBetaPlayer(depth=depth, evaluation="material", seed=seed, quiescence=True)
    player.choose_turn(board)
    assert player.last_search.score == minimax_with_quiescence(board, depth)


def test_quiescence_is_an_option_by_name():
    player = ai.make_player("alphabeta:depth=2,quiescence=1")
    assert player.quiescence and player.name == "alphabeta:depth=2,quiescence=1"
    assert not ai.make_player("alphabeta:time=1").quiescence
    with pytest.raises(ValueError, match="quiescence is on"):
        ai.make_player("alphabeta:depth=2,quiescence=2")


def test_the_search_sees_the_quiet_turn_draw():
    # White is a stone up but cannot reach Black's stone before the draw rule ends the game: a draw.
    rules = Rules.standard().with_(quiet_draw=3)
    board = fa.Board.from_diagram("W....\n.....\n.....\n.....\nW...B", "white", rules)
    player = ai.AlphaBetaPlayer(depth=4, seed=0, evaluation="material")
    player.choose_turn(board)
    assert player.last_search.score == 0
    far = fa.Board.from_diagram("W....\n.....\n.....\n.....\nW...B", "white", Rules.standard())
    player.choose_turn(far)
    assert player.last_search.score == 100, "without the draw in reach, the extra stone counts"


# Built so that no turn wins at once, one turn forces a win on the next, and the greediest
# capture (the longest chain) does not: the search must look two turns ahead and stop early.
FORCED_WINS = [
    ".BW..\n..W..\n...B.\n..BB.\n....B",
    "BBW.B\n..B..\n.....\n..WB.\n.....",
    "...B.\n.....\n..B..\nB.WW.\n..B.W",
    ".....\nW.B..\n..B.B\n.B..B\n..W..",
]


def wins_at_once(board, turn):
    outcome = board.after(turn).outcome()
    return outcome is not None and outcome.winner == board.to_move.value


def forces_win_next_turn(board, turn):
    after = board.after(turn)
    if after.outcome() is not None:
        return after.outcome().winner == board.to_move.value
    return all(
        any(wins_at_once(reply, t) for t in reply.legal_turns())
        for reply in (after.after(r) for r in after.legal_turns())
    )


@pytest.mark.parametrize("diagram", FORCED_WINS)
def test_alphabeta_finds_forced_win_in_two_turns(diagram):
    board = fa.Board.from_diagram(diagram, "white", Rules.solved())
    turns = board.legal_turns()
    assert not any(wins_at_once(board, t) for t in turns)
    winning = [t for t in turns if forces_win_next_turn(board, t)]
    assert winning, "brute force: some turn forces a win"
    assert ai.GreedyPlayer(seed=0).choose_turn(board) not in winning
    player = ai.AlphaBetaPlayer(depth=3, seed=1)
    assert player.choose_turn(board) in winning
    assert (
        player.last_search.score == ai.WIN_SCORE - 3
    )  # a win on the third turn from here (ours, theirs, ours)
    timed = ai.AlphaBetaPlayer(time_limit=0.5, seed=1)
    assert timed.choose_turn(board) in winning


def test_mcts_takes_a_win_at_once():
    # c3-c2 withdraws from c4 and takes the whole file: Black has nothing left.  Under the simple
    # rules capturing is optional, so every quiet step is a legal (and losing) alternative.
    board = fa.Board.from_diagram("..B..\n..B..\n..W..\n.....\nW....", "white", Rules.simple())
    winning = [t for t in board.legal_turns() if wins_at_once(board, t)]
    assert [str(t) for t in winning] == ["c3c2W"] and len(board.legal_turns()) > 1
    player = ai.MCTSPlayer(playouts=150, seed=0)
    assert player.choose_turn(board) in winning
    assert player.last_search.nodes == 150


# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "white, black", [("random", "greedy"), ("alphabeta:depth=2", "mcts:playouts=15")]
)
def test_same_seed_same_game(white, black):
    def game(seed):
        return fa.play_game(
            ai.make_player(white, seed),
            ai.make_player(black, seed + 1),
            fa.Board((5, 5)),
            max_turns=40,
        ).turns

    assert game(3) == game(3)
    assert len({tuple(game(s)) for s in range(4)}) > 1, "different seeds should vary the games"


def test_last_search_describes_the_answer():
    board = fa.Board()
    board.push("d2e3A")
    player = ai.AlphaBetaPlayer(depth=3, seed=0)
    turn = player.choose_turn(board)
    info = player.last_search
    assert info.depth == 3 and info.nodes > 0 and info.time > 0
    assert info.pv[0] == str(turn) and 1 <= len(info.pv) <= 3
    replay = board.copy()
    for text in info.pv:  # the line is a legal sequence of turns
        replay.push(text)
    assert "depth 3" in str(info) and "nodes" in str(info)


def test_time_limit_is_kept_and_deepens():
    board = fa.Board()
    player = ai.AlphaBetaPlayer(time_limit=0.3, seed=0)
    player.choose_turn(board)
    assert player.last_search.time < 0.45
    assert player.last_search.depth >= 2


def test_greedy_takes_the_largest_capture():
    board = fa.Board.from_diagram("B....\n.B...\n..W..\n.....\n....B", "white", Rules.simple())
    # c3-d2 approaches e1 (one stone) or withdraws from b4 and a5 (two): greedy withdraws.
    for seed in range(5):
        assert str(ai.GreedyPlayer(seed=seed).choose_turn(board)) == "c3d2W"


def test_levels():
    assert sorted(ai.LEVELS) == [1, 2, 3, 4, 5]
    assert isinstance(ai.level(1), ai.RandomPlayer) and isinstance(ai.level(2), ai.GreedyPlayer)
    assert ai.level(3).depth == 2 and ai.level(4).time_limit == 1.0
    assert ai.level(5).time_limit <= 2.0
    # level 5 scores with the learned evaluation, keeps its table for its next turn, searches late
    # turns shallower first and reads the 5-stone table
    level5 = ai.level(5)
    assert level5.evaluation == "learned" and level5.memory and level5.reductions
    assert ai.make_player(ai.LEVELS[5]).name.count("endgame=5") == 1
    assert ai.level(4).evaluation != "learned" and not ai.level(4).memory
    with pytest.raises(ValueError, match="levels go from 1 to 5"):
        ai.level(6)


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="depth"):
        ai.AlphaBetaPlayer(depth=0)
    with pytest.raises(ValueError, match="time_limit"):
        ai.AlphaBetaPlayer(time_limit=-1)
    with pytest.raises(ValueError, match="evaluation"):
        ai.AlphaBetaPlayer(evaluation="vibes")
    with pytest.raises(ValueError, match="playouts"):
        ai.MCTSPlayer(playouts=0)
    with pytest.raises(ValueError, match="memory is on"):
        ai.AlphaBetaPlayer(memory="yes")
    with pytest.raises(ValueError, match="memory must be a whole number"):
        ai.make_player("alphabeta:depth=2,memory=yes")
    with pytest.raises(ValueError, match="reductions is on"):
        ai.AlphaBetaPlayer(reductions=2)


def test_late_turns_searched_shallower_visit_fewer_positions_only_from_depth_4():
    """A node three turns above the horizon is the first to search late turns shallower, so a
    depth-3 search is the same with or without; deeper ones visit fewer positions."""
    player = ai.make_player("alphabeta:depth=3,eval=learned,reductions=1", seed=3)
    assert player.name == "alphabeta:depth=3,eval=learned,reductions=1"
    visited = {}
    for board in positions_from_random_games(3, seed=8, every=7):
        for depth in (3, 5):
            for reductions in (False, True):
                searcher = ai.AlphaBetaPlayer(
                    depth=depth, seed=3, evaluation="learned", reductions=reductions
                )
                turn = searcher.choose_turn(board)
                info = searcher.last_search
                visited[board.fen(), depth, reductions] = (str(turn), info.score, info.nodes)
    boards = {fen for fen, _, _ in visited}
    for fen in boards:
        assert visited[fen, 3, True] == visited[fen, 3, False], fen
    assert sum(visited[fen, 5, True][2] for fen in boards) < sum(
        visited[fen, 5, False][2] for fen in boards
    )


@settings(max_examples=30, deadline=None)
@given(size=st.sampled_from(SIZES), seed=st.integers(0, 10**6), plies=st.integers(0, 30))
def test_the_learned_features_seen_from_the_other_side(size, seed, plies):
    """Swapping the sides negates what one side has more of and swaps the two sides' captures."""
    from fanorona.movegen import bitsets, generator

    board = random_position(size, Rules(), seed, plies)
    gen = generator(board.geometry, board.rules)
    me, opp = bitsets(board)
    mine, theirs = ai.features(gen, me, opp), ai.features(gen, opp, me)
    named, swapped = dict(zip(ai.FEATURES, mine)), dict(zip(ai.FEATURES, theirs))
    for name in ("material", "mobility", "strong"):
        assert named[name] == -swapped[name]
    assert (named["threat"], named["danger"]) == (swapped["danger"], swapped["threat"])
    assert named["material"] == board.count(board.to_move) - board.count(board.to_move.other)
    assert named["tempo"] == 1


def test_perfect_player_is_loaded_lazily():
    try:
        import fanorona.engine.solve  # noqa: F401
    except ImportError:
        pytest.skip("fanorona/engine/solve.py is not there yet")
    assert ai.PerfectPlayer is fanorona_solve_perfect()


def fanorona_solve_perfect():
    from fanorona.engine.solve import PerfectPlayer

    return PerfectPlayer


# ---------------------------------------------------------------------------------------------
# Stopping a search, and one player searching in two threads at once.

MIDDLE_GAME = "BBBBBBBBB/BB...BBBB/BWB..WWBW/WW..W.WWW/WW...WWWW w"


@pytest.mark.parametrize(
    "player",
    [
        ai.RandomPlayer(),
        ai.GreedyPlayer(),
        ai.MCTSPlayer(playouts=5),
        ai.AlphaBetaPlayer(depth=2, compiled=False),
    ],
    ids=repr,
)
def test_a_stop_set_before_the_call_cancels_it(player):
    stop = threading.Event()
    stop.set()
    with pytest.raises(ai.SearchCancelled):
        player.choose_turn(fa.Board(), stop=stop)


def test_stop_must_be_an_event():
    with pytest.raises(TypeError, match="stop is a threading.Event"):
        ai.GreedyPlayer().choose_turn(fa.Board(), stop=True)


@pytest.mark.parametrize(
    "player",
    [
        ai.AlphaBetaPlayer(depth=40, compiled=False),
        ai.AlphaBetaPlayer(time_limit=600, compiled=False),
        ai.MCTSPlayer(playouts=10**9),
    ],
    ids=repr,
)
def test_setting_stop_cancels_a_search_that_would_run_for_minutes(player):
    """A fixed depth of 40 (no clock at all), ten minutes, a billion playouts: only the event ends
    them.  (How fast: benchmarks/bench_cancel.py measures it.)"""
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    started = time.perf_counter()
    with pytest.raises(ai.SearchCancelled):
        player.choose_turn(fa.Board.from_fen(MIDDLE_GAME), stop=stop)
    assert time.perf_counter() - started < 10


def test_an_event_never_set_changes_nothing():
    board = fa.Board.from_fen(MIDDLE_GAME)
    plain = ai.AlphaBetaPlayer(depth=3, seed=2, compiled=False)
    watched = ai.AlphaBetaPlayer(depth=3, seed=2, compiled=False)
    assert plain.choose_turn(board) == watched.choose_turn(board, stop=threading.Event())
    assert (plain.last_search.score, plain.last_search.nodes) == (
        watched.last_search.score,
        watched.last_search.nodes,
    )


def one_player_in_two_threads(player, boards, rounds=3):
    """Each board searched by ``player`` in a thread of its own, both at once, ``rounds`` times,
    the threads switching every few microseconds: the turn each search gave, or what it raised."""
    found: dict = {}

    def run(i):
        for r in range(rounds):
            try:
                found[i, r] = player.choose_turn(boards[i])
            except Exception as e:
                found[i, r] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(boards))]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    return found


class Unshuffled(random.Random):
    """A player's random source that leaves the turns in the generator's order, so that which of
    several equally good turns a search answers does not depend on which call shuffled first."""

    def shuffle(self, x):
        pass


def test_two_calls_at_once_on_one_player_do_not_interfere():
    """The search's state belongs to the call: a search of one board running beside a search of
    another on the same player gives what a player searching that board alone gives."""
    from conftest import positions_from_random_games

    boards = [
        positions_from_random_games(1, seed=21, every=7)[0],
        positions_from_random_games(1, size=(5, 5), seed=22, every=3)[0],
    ]
    alone = []
    for board in boards:
        player = ai.AlphaBetaPlayer(depth=3, compiled=False)
        player.rng = Unshuffled()
        alone.append(player.choose_turn(board))
    player = ai.AlphaBetaPlayer(depth=3, compiled=False)
    player.rng = Unshuffled()
    assert one_player_in_two_threads(player, boards) == {
        (i, r): alone[i] for i in range(2) for r in range(3)
    }


def test_a_cancelled_search_leaves_nothing_to_the_next():
    board = fa.Board.from_fen(MIDDLE_GAME)
    player = ai.AlphaBetaPlayer(depth=40, seed=0, compiled=False)
    stop = threading.Event()
    threading.Timer(0.1, stop.set).start()
    with pytest.raises(ai.SearchCancelled):
        player.choose_turn(board, stop=stop)
    player.depth = 3
    fresh = ai.AlphaBetaPlayer(depth=3, seed=0, compiled=False)
    player.choose_turn(board)
    fresh.choose_turn(board)
    assert (player.last_search.score, player.last_search.depth) == (
        fresh.last_search.score,
        fresh.last_search.depth,
    )
