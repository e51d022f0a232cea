"""Endgame tables: checked against the small-board solver, against the rules one turn on, and in
play."""

import random
import subprocess
import sys
import time
from bisect import bisect_left

import pytest
from hypothesis import given
from hypothesis import strategies as st

import fanorona as fa
from fanorona.engine.ai import AlphaBetaPlayer, make_player
from fanorona.engine.endgame import EndgameTable, cache_path, endgame_table
from fanorona.engine.solve import SolveCacheWarning, solve
from fanorona.engine.tablefile import PackedKeys

pytestmark = pytest.mark.xdist_group("endgame-tables")  # its module fixtures build tables

SOLVED = fa.Rules.solved()


@pytest.fixture(scope="module", autouse=True)
def cache(tmp_path_factory):
    """The solver's tables of this module live in a fresh directory."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FANORONA_CACHE_DIR", str(tmp_path_factory.mktemp("endgame-cache")))
        yield


@pytest.fixture(scope="module")
def table9x5():
    return endgame_table((9, 5), 3)


@pytest.fixture(scope="module")
def boards9x5(table9x5):
    return list(table9x5.boards())


def stone_count(board):
    return len(board.stones("white")) + len(board.stones("black"))


@pytest.mark.slow
@pytest.mark.parametrize("size, stones", [((3, 3), 8), ((3, 5), 4)])
def test_table_agrees_with_the_solver_on_every_position_both_hold(size, stones):
    """The solver labels every position reachable from the start; the endgame table every position
    of few stones.  Where both answer, value and distance must be the same."""
    full, table = solve(size, progress=False), EndgameTable.build(size, stones, progress=False)
    compared = set()
    for board in table.boards():
        try:
            expected = full.value(board), full.distance(board)
        except ValueError:  # not reachable from the start
            continue
        assert (table.value(board), table.distance(board)) == expected, board.fen()
        compared.add(expected[0])
    assert compared == {"win", "loss", "draw"}


def check_one_turn_on(table, board):
    """The retrograde rule, replayed with the public Board API."""
    value, distance = table.value(board), table.distance(board)
    turns = board.legal_turns()
    if not turns:
        assert (value, distance) == ("loss", 0), board.fen()
        return
    results = []
    for turn in turns:
        child = board.after(turn)
        if child.outcome() is not None:  # the mover took the last stone
            results.append(("loss", 0))
        else:
            results.append((table.value(child), table.distance(child)))
    if value == "win":
        assert distance == 1 + min(d for v, d in results if v == "loss"), board.fen()
    elif value == "loss":
        assert all(v == "win" for v, _ in results), board.fen()
        assert distance == 1 + max(d for _, d in results), board.fen()
    else:
        assert distance is None
        assert all(v != "loss" for v, _ in results) and any(v == "draw" for v, _ in results), (
            board.fen()
        )


def test_every_two_stone_position_follows_from_the_positions_one_turn_on():
    table = EndgameTable.build((9, 5), 2, progress=False)
    boards = list(table.boards())
    assert len(boards) == len(table) > 0
    for board in boards:
        check_one_turn_on(table, board)


@pytest.mark.slow
def test_sampled_three_stone_positions_follow_from_the_positions_one_turn_on(table9x5, boards9x5):
    boards = boards9x5
    rng = random.Random(11)
    sample = rng.sample(boards, 300)
    sample += [b for b in boards if table9x5.distance(b) is not None and table9x5.distance(b) >= 6][
        :30
    ]
    for board in sample:
        check_one_turn_on(table9x5, board)


def won_within(board, turns, memo):
    """Plain depth-bounded search over the rules: can the side to move win within ``turns``
    turns?"""
    key = (board.fen(), turns)
    if key not in memo:
        memo[key] = False
        if turns > 0:
            for turn in board.legal_turns():
                child = board.after(turn)
                if child.outcome() is not None or lost_within(child, turns - 1, memo):
                    memo[key] = True
                    break
    return memo[key]


def lost_within(board, turns, memo):
    """Does the side to move lose within ``turns`` turns whatever it plays?"""
    return (
        all(won_within(board.after(t), turns - 1, memo) for t in board.legal_turns())
        if turns > 0
        else not board.legal_turns()
    )


def test_short_wins_and_losses_agree_with_a_plain_search(table9x5, boards9x5):
    """A win in d is a win within d turns but not within d - 2; a loss in d a loss within d only."""
    rng = random.Random(5)
    boards = [b for b in boards9x5 if (table9x5.distance(b) or 99) <= 3]
    memo = {}
    for board in rng.sample(boards, 40):
        value, distance = table9x5.value(board), table9x5.distance(board)
        if value == "win":
            assert won_within(board, distance, memo) and not won_within(
                board, distance - 2, memo
            ), board.fen()
        else:
            assert lost_within(board, distance, memo), board.fen()
            assert distance < 2 or not lost_within(board, distance - 2, memo), board.fen()


def test_both_colours_to_move_give_the_same_answer(table9x5):
    """The table stores the mover's stones; a board with Black to move is looked up the same way."""
    white = fa.Board.from_diagram(
        ".........\n.........\n....W....\n.........\nB...B....", "white", SOLVED
    )
    black = fa.Board.from_diagram(
        ".........\n.........\n....B....\n.........\nW...W....", "black", SOLVED
    )
    assert (table9x5.value(white), table9x5.distance(white)) == (
        table9x5.value(black),
        table9x5.distance(black),
    )
    mirrored = fa.Board.from_diagram(
        ".........\n.........\n....W....\n.........\n....B...B", "white", SOLVED
    )
    assert (table9x5.value(white), table9x5.distance(white)) == (
        table9x5.value(mirrored),
        table9x5.distance(mirrored),
    )


def test_the_three_stone_table_holds_every_position_once(table9x5, boards9x5):
    assert len({b.fen() for b in boards9x5}) == len(table9x5)
    assert all(stone_count(b) <= 3 and b.outcome() is None for b in boards9x5)
    assert sum(table9x5.counts.values()) == len(table9x5)


@pytest.fixture(scope="module")
def long_wins(table9x5, boards9x5):
    """Won 2-against-1 positions that take at least five turns."""
    return [
        b
        for b in boards9x5
        if len(b.stones("white")) == 2
        and len(b.stones("black")) == 1
        and table9x5.value(b) == "win"
        and table9x5.distance(b) >= 5
    ]


@pytest.mark.parametrize("rules", [SOLVED, fa.Rules()], ids=["no draw rule", "50-turn draw rule"])
def test_the_player_wins_a_won_two_against_one_within_the_tables_distance(
    table9x5, long_wins, rules
):
    defender = AlphaBetaPlayer(depth=2, seed=3)
    for start in long_wins[:4]:
        distance = table9x5.distance(start)
        board = fa.Board.from_fen(start.fen(), rules)
        player = AlphaBetaPlayer(depth=1, seed=1, endgame=table9x5)
        for turn in range(distance):
            mover = player if turn % 2 == 0 else defender
            board.push(mover.choose_turn(board))
            if board.outcome() is not None:
                break
        assert board.outcome() is not None and board.outcome().winner == start.to_move, start.fen()


def test_without_the_table_a_shallow_search_misses_some_of_those_wins(table9x5, long_wins):
    """The control of the test above: the table is what makes the difference."""
    defender = AlphaBetaPlayer(depth=2, seed=3)
    missed = 0
    for start in long_wins[:4]:
        board = start.copy()
        player = AlphaBetaPlayer(depth=1, seed=1, endgame=0)
        for turn in range(table9x5.distance(start)):
            board.push((player if turn % 2 == 0 else defender).choose_turn(board))
            if board.outcome() is not None:
                break
        missed += board.outcome() is None
    assert missed > 0


def test_the_player_scores_a_table_position_as_proven(table9x5, long_wins):
    start = long_wins[0]
    player = AlphaBetaPlayer(depth=1, endgame=table9x5, seed=0)
    player.choose_turn(start)
    assert player.last_search.score == 1_000_000 - table9x5.distance(start)
    assert "endgame=3" in player.name


def test_bad_requests_are_refused_with_a_sentence(table9x5, boards9x5):
    with pytest.raises(ValueError, match="stones is a whole number"):
        EndgameTable.build((9, 5), 1, progress=False)
    with pytest.raises(ValueError, match="builds at most"):
        EndgameTable.build((9, 5), 6, progress=False)
    crowded = fa.Board((9, 5), SOLVED)
    with pytest.raises(ValueError, match="at most 3"):
        table9x5.value(crowded)
    with pytest.raises(ValueError, match="9x5 board; the board is 3x3"):
        table9x5.value(fa.Board((3, 3), SOLVED))
    with pytest.raises(ValueError, match="the board plays under"):
        table9x5.value(
            fa.Board.from_diagram(".........\n.........\n....W....\n.........\nB...B....")
        )
    with pytest.raises(ValueError, match="'win', 'loss' or 'draw'"):
        next(table9x5.boards("won"))
    board = next(b for b in boards9x5 if any(len(t.steps) > 1 for t in b.legal_turns())).copy()
    board.push(next(t for t in board.legal_turns() if len(t.steps) > 1).steps[0])
    with pytest.raises(ValueError, match="middle of a capture chain"):
        table9x5.value(board)
    with pytest.raises(ValueError, match="endgame is a number of stones"):
        AlphaBetaPlayer(depth=1, endgame=7)
    small = fa.Board.from_diagram("W..\n...\n..B", "white", SOLVED)
    with pytest.raises(ValueError, match="endgame table is for 9x5"):
        AlphaBetaPlayer(depth=1, endgame=table9x5).choose_turn(small)


def test_a_win_the_draw_rule_would_cut_short_is_not_taken_from_the_table(table9x5, long_wins):
    """Under a 3-turn draw rule a win in five or more turns may be a draw: the search must not
    score it as proven from the table (a table draw stays a draw, a long win does not)."""
    start = fa.Board.from_fen(long_wins[0].fen(), fa.Rules().with_(quiet_draw=3))
    player = AlphaBetaPlayer(depth=1, endgame=table9x5, seed=0)
    player.choose_turn(start)
    assert abs(player.last_search.score) < 1_000_000 - 10_000


def forced_win(board, turns, memo):
    """Plain search over the rules, draw rule included: can the side to move win within
    ``turns``?"""
    key = ("win", board.fen(), board.quiet_turns, turns)
    if key not in memo:
        memo[key] = turns > 0 and any(
            outcome.winner == board.to_move
            if (outcome := child.outcome()) is not None
            else forced_loss(child, turns - 1, memo)
            for child in map(board.after, board.legal_turns())
        )
    return memo[key]


def forced_loss(board, turns, memo):
    """Does the side to move (of a game not over) lose within ``turns`` whatever it plays?"""
    key = ("loss", board.fen(), board.quiet_turns, turns)
    if key not in memo:
        memo[key] = turns > 0 and all(
            outcome.winner == board.to_move.other
            if (outcome := child.outcome()) is not None
            else forced_win(child, turns - 1, memo)
            for child in map(board.after, board.legal_turns())
        )
    return memo[key]


def test_under_a_short_draw_rule_every_win_the_player_claims_is_real(table9x5, boards9x5):
    """Differential: with a 4-turn draw rule, a proven win or loss the search reports (read from the
    table) is confirmed by a plain search that knows the draw rule; and some wins are not
    claimed."""
    rules = fa.Rules().with_(quiet_draw=4)
    rng = random.Random(2)
    starts = rng.sample(
        [b for b in boards9x5 if (table9x5.distance(b) or 99) <= 5 and stone_count(b) == 3], 30
    )
    memo, claimed, declined = {}, 0, 0
    for start in starts:
        board = fa.Board.from_fen(start.fen(), rules)
        player = AlphaBetaPlayer(depth=2, endgame=table9x5, seed=0)
        player.choose_turn(board)
        score = player.last_search.score
        if score >= 1_000_000 - 10_000:
            claimed += 1
            assert forced_win(board, 1_000_000 - score, memo), board.fen()
        elif score <= -(1_000_000 - 10_000):
            claimed += 1
            assert forced_loss(board, 1_000_000 + score, memo), board.fen()
        else:
            declined += table9x5.value(start) != "draw"
    assert claimed and declined


def test_a_player_spec_turns_the_table_on(table9x5, long_wins):
    """``alphabeta:endgame=3`` builds the board's table when it first meets few stones (the same one
    the process already holds here); without the option the search proves nothing that far."""
    start = long_wins[0]
    player = make_player("alphabeta:depth=1,endgame=3")
    assert player.name == "alphabeta:depth=1,endgame=3"
    player.choose_turn(start)
    assert player.last_search.score == 1_000_000 - table9x5.distance(start)
    without = make_player("alphabeta:depth=1")
    without.choose_turn(start)
    assert without.last_search.score < 1_000_000 - 10_000


def test_neither_importing_nor_an_opening_turn_builds_a_table():
    """A player with ``endgame=3`` builds nothing while the board has many stones."""
    code = (
        "import sys, fanorona, fanorona.engine.ai\n"
        "fanorona.engine.ai.AlphaBetaPlayer(depth=1, endgame=3).choose_turn(fanorona.Board())\n"
        "print('fanorona.engine.endgame' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_table_comes_back_from_its_cache_file_unchanged():
    built = endgame_table((3, 5), 3)
    again = EndgameTable.from_bytes(cache_path((3, 5), 3).read_bytes(), (3, 5), 3, SOLVED)
    assert len(again) == len(built) > 0
    assert all(
        (again.value(b), again.distance(b)) == (built.value(b), built.distance(b))
        for b in built.boards()
    )


def test_a_damaged_cache_file_is_rebuilt_with_a_warning():
    endgame_table((3, 3), 3)
    path = cache_path((3, 3), 3)
    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.warns(SolveCacheWarning, match="checksum"):
        table = endgame_table((3, 3), 3)
    assert EndgameTable.from_bytes(path.read_bytes(), (3, 3), 3, SOLVED).counts == table.counts


def test_a_wrongly_labelled_table_is_refused_even_with_a_valid_checksum():
    table = EndgameTable.build((3, 3), 3, progress=False)
    flipped = bytes(2 if code == 1 else 1 if code == 2 else code for code in table._values)
    wrong = EndgameTable((3, 3), SOLVED, 3, table._keys, flipped, table._distances)
    with pytest.raises(ValueError, match="does not follow"):
        EndgameTable.from_bytes(wrong.to_bytes(), (3, 3), 3, SOLVED)
    with pytest.raises(ValueError, match="another board size"):
        EndgameTable.from_bytes(table.to_bytes(), (3, 3), 4, SOLVED)


def test_levels_4_and_5_read_their_endgame_tables():
    """On a small board (its tables build in a moment) the level is not ready until its table (4
    stones; level 5's 5, or 4 without numba) is loaded, and then scores a table position as the
    4-stone table does."""
    from fanorona.engine import ai

    board = fa.Board.from_diagram(
        "W.B\n...\nB.B\n...\nW..", "white", fa.Rules.standard()
    )  # 3x5, 5 stones
    table = endgame_table((3, 5), 4)
    for n in (4, 5):
        player = ai.level(n)
        assert not player.ready(board)
        player.prepare(board)
        assert player.ready(board)
    solved = next(
        b for b in table.boards("win") if stone_count(b) == 4 and (table.distance(b) or 0) > 1
    )
    won = fa.Board.from_fen(solved.fen(), fa.Rules.standard())
    player = ai.level(4)
    player.choose_turn(won)
    assert player.last_search.score == 1_000_000 - table.distance(solved)


def test_the_levels_build_no_table_for_a_board_of_more_than_45_points(monkeypatch):
    """A large board's 4-stone table would take minutes: there the levels search without one."""
    from fanorona.engine import ai, endgame, indexed

    def refuse(*args, **kwargs):
        raise AssertionError("an endgame table was asked for")

    monkeypatch.setattr(endgame, "endgame_table", refuse)
    monkeypatch.setattr(indexed, "indexed_table", refuse)
    board = fa.Board.from_diagram(
        "W......\n.......\n...B...\n.......\n..B....\n.......\n......W", "white"
    )
    assert len(board.points) == 49 > ai.ENDGAME_MAX_POINTS
    player = ai.make_player(ai.LEVELS[5] + ",compiled=0")  # level 5 in pure Python: no code to load
    assert player.ready(board), "a level would load a table for a board of more than 45 points"
    assert player.choose_turn(board) in board.legal_turns()


def test_the_table_is_loaded_before_the_turn_s_clock_starts(monkeypatch):
    """Building a table the first time (half a minute for 4 stones on 9x5) is not counted in the
    turn's time budget: the turn still searches for its whole budget."""
    from fanorona.engine import endgame, indexed

    for module, name in ((endgame, "endgame_table"), (indexed, "indexed_table")):
        real = getattr(module, name)

        def slow_table(*args, real=real, **kwargs):
            time.sleep(1.0)
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, slow_table)
    board = fa.Board.from_diagram("W.B\n...\nB.B\n...\nW..", "white", fa.Rules.standard())
    player = AlphaBetaPlayer(time_limit=0.3, endgame=3, seed=0)
    player.choose_turn(board)
    assert player.last_search.time < 1.0, (
        "the second of building the table was counted in the turn's time"
    )


@given(
    st.integers(1, 16).flatmap(
        lambda width: st.tuples(
            st.just(width),
            st.lists(st.integers(0, 2 ** (8 * width) - 1), unique=True).map(sorted),
            st.lists(st.integers(-5, 2 ** (8 * width) + 5), max_size=20),
        )
    )
)
def test_packed_keys_are_found_and_written_like_a_sorted_list(case):
    """The table's keys lie in memory as bytes (as Python ints, 4 stones on 9x5 took
    24 MB): halving over them finds what ``bisect`` finds on the list, and they are written to the
    file exactly as the list was."""
    width, keys, probes = case
    packed = PackedKeys.of(keys, width)
    assert list(packed) == keys and len(packed) == len(keys)
    assert [packed[i] for i in range(-len(keys), len(keys))] == keys + keys
    for key in keys + probes:
        assert packed.bisect(key) == bisect_left(keys, key), key
    file_bytes = b"".join(key.to_bytes(width, "little") for key in keys)
    assert packed.little_endian() == file_bytes
    assert list(PackedKeys.from_little_endian(file_bytes, width)) == keys
