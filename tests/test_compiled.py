"""The compiled path (``fanorona.engine.compiled``, numba) against the pure-Python reference: the
same turns in the same order, the same counts, and the same search node for node.

Part of ``make test``, skipped as a whole where numba is not installed (``pip install
'fanorona[fast]'``); ``make test-fast`` installs it and runs this file and the players' tests.
The searches are compared under every rule set of ``PRESETS`` and every evaluation of
``EVALUATIONS``, read from the package, so a new one is compared too.
"""

import os
import random
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")
if os.environ.get("FANORONA_COMPILED", "1") == "0":
    pytest.skip("the compiled path is switched off by FANORONA_COMPILED=0", allow_module_level=True)

from conftest import positions_from_random_games, random_position

import fanorona as fa
from benchmarks.bench_search import MIDDLE_GAME
from fanorona.engine import ai, compiled
from fanorona.engine.ai import EVALUATIONS, AlphaBetaPlayer, make_player
from fanorona.movegen import bitsets, generator
from fanorona.rules import PRESETS, Rules

#: boards of every shape the rules allow, up to the 62 points of the compiled path: odd sizes,
#: tall ones, the smallest and the one of the published solution
SIZES = [(3, 3), (5, 3), (3, 5), (5, 5), (9, 5), (7, 7), (3, 13), (5, 11), (9, 3)]


def both(board):
    """The Python generator and its compiled form for a board, and the board's bit sets."""
    gen = generator(board.geometry, board.rules)
    return gen, compiled.compiled_generator(gen), bitsets(board)


@pytest.mark.parametrize("preset", PRESETS)
def test_perft_from_the_start_is_the_same_under_every_rule_set(preset):
    board = fa.Board((9, 5), Rules.named(preset))
    gen, fast, (me, opp) = both(board)
    for depth in range(1, 5):
        assert fast.perft(me, opp, depth) == gen.perft(me, opp, depth), (preset, depth)


def test_perft_5_from_the_start_matches_the_published_count():
    _gen, fast, (me, opp) = both(fa.Board())
    assert fast.perft(me, opp, 5) == 431_852


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_perft_on_every_board_shape(size):
    gen, fast, (me, opp) = both(fa.Board(size))
    for depth in range(1, 4):
        assert fast.perft(me, opp, depth) == gen.perft(me, opp, depth), (size, depth)


def test_perft_counts_the_opening_rule_and_the_draw_rule_like_python():
    """Mid-game perft with the quiet-turn count near the draw rule and the opening rule in force."""
    rules = Rules.named("standard").with_(quiet_draw=3, opening_single_capture=True)
    board = random_position((9, 5), rules, seed=4, plies=1)
    gen, fast, (me, opp) = both(board)
    for ply, quiet in ((0, 0), (1, 2), (5, 1)):
        assert fast.perft(me, opp, 3, ply, quiet) == gen.perft(me, opp, 3, ply, quiet), (ply, quiet)


@settings(max_examples=60, deadline=None)
@given(
    size=st.sampled_from(SIZES),
    preset=st.sampled_from(PRESETS),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 60),
    single=st.booleans(),
)
def test_random_positions_give_the_same_turns_in_the_same_order(size, preset, seed, plies, single):
    """Along random games on every shape and rule set: the results of every turn, in order, and
    the counts the evaluation uses, from both sides' point of view."""
    board = random_position(size, Rules.named(preset), seed, plies)
    gen, fast, (me, opp) = both(board)
    for a, b in ((me, opp), (opp, me)):
        assert fast.results(a, b, single) == gen.results(a, b, single)
        assert fast.count_turns(a, b, single) == gen.count_turns(a, b, single)
        assert fast.best_capture(a, b) == gen.best_capture(a, b)
        assert fast.mobility(a, b) == gen.mobility(a, b)


def test_long_chains_are_listed_like_python():
    """Positions with the longest capture chains met in random games: the hardest walks."""
    boards = positions_from_random_games(300, seed=3, every=1)
    longest = sorted(
        boards, key=lambda b: -max((len(t.steps) for t in b.legal_turns()), default=0)
    )[:10]
    assert max(len(t.steps) for t in longest[0].legal_turns()) >= 4
    for board in longest:
        gen, fast, (me, opp) = both(board)
        assert fast.results(me, opp) == gen.results(me, opp)


def searches(board, **options):
    """The same fixed-depth search on the Python and on the compiled path: what each reports."""
    found = []
    for path in (False, True):
        player = AlphaBetaPlayer(seed=7, compiled=path, **options)
        turn = player.choose_turn(board)
        info = player.last_search
        found.append((str(turn), info.score, info.nodes, info.depth, info.pv))
    return found


def test_every_evaluation_has_a_compiled_code():
    assert list(compiled.EVALUATION_CODES) == list(EVALUATIONS)


@pytest.mark.parametrize("evaluation", list(EVALUATIONS))
@pytest.mark.parametrize("quiescence", [False, True])
def test_the_search_is_the_same_node_for_node(evaluation, quiescence):
    for board in positions_from_random_games(6, seed=11, every=5):
        python, fast = searches(board, depth=3, evaluation=evaluation, quiescence=quiescence)
        assert fast == python, board.fen()


@pytest.mark.parametrize("preset", PRESETS)
def test_the_search_is_the_same_under_every_rule_set(preset):
    """Without compulsory capture ("simple") quiescence may stand pat; "danish" frees the direction.
    Each evaluation, with and without quiescence."""
    rules = Rules.named(preset)
    for n, board in enumerate(positions_from_random_games(4, rules=rules, seed=13, every=6)):
        for evaluation in EVALUATIONS:
            quiescence = (n + len(evaluation)) % 2 == 0
            python, fast = searches(board, depth=3, quiescence=quiescence, evaluation=evaluation)
            assert fast == python, (board.fen(), evaluation, quiescence)


@pytest.mark.parametrize("reductions", [False, True])
def test_the_search_is_the_same_at_depth_5_in_the_middle_game(reductions):
    python, fast = searches(fa.Board.from_fen(MIDDLE_GAME), depth=5, reductions=reductions)
    assert fast == python


@pytest.mark.parametrize("preset", ["standard", "simple"])
def test_late_turns_searched_shallower_first_are_the_same_node_for_node(preset):
    """Reductions start three turns above the horizon, so only searches of depth 4 or more use
    them; the re-search of a late turn that beats the best goes through the table like the rest."""
    rules = Rules.named(preset)
    fewer = []
    for board in positions_from_random_games(4, rules=rules, seed=17, every=6):
        python, fast = searches(board, depth=5, evaluation="learned", reductions=True)
        assert fast == python, board.fen()
        full = AlphaBetaPlayer(depth=5, seed=7, evaluation="learned")
        full.choose_turn(board)
        fewer.append(python[2] < full.last_search.nodes)
    assert any(fewer), "no search visited fewer positions with late turns searched shallower"


def test_turns_late_in_deep_nodes_searched_two_shallower_are_the_same_node_for_node(
    monkeypatch,
):
    """From five turns above the horizon, a turn from ``LATER_TURN`` on is searched two turns
    shallower first; a depth-6 search has such nodes, so the Python search with the rule put out
    of reach visits other positions, and the compiled one follows the rule node for node."""
    boards = positions_from_random_games(3, seed=29, every=3)
    counted = []
    for board in boards:
        python, fast = searches(board, depth=6, evaluation="learned", reductions=True)
        assert fast == python, board.fen()
        counted.append(python[2])
    monkeypatch.setattr(ai, "LATER_TURN", 10**6)
    one_shallower = []
    for board in boards:
        player = AlphaBetaPlayer(
            depth=6, seed=7, compiled=False, evaluation="learned", reductions=True
        )
        player.choose_turn(board)
        one_shallower.append(player.last_search.nodes)
    assert counted != one_shallower, "no depth-6 search reduced a late turn by two"


def test_the_search_sees_the_draw_rule_and_the_opening_rule_like_python():
    """A draw two quiet turns away changes the table key and the scores; the opening rule limits
    the first two turns to one capture."""
    rules = Rules.named("standard").with_(quiet_draw=4, opening_single_capture=True)
    board = fa.Board((9, 5), rules)
    python, fast = searches(board, depth=3)
    assert fast == python
    endgame = positions_from_random_games(
        40, rules=rules.with_(opening_single_capture=False), seed=2, every=7
    )[-1]
    board = fa.Board.from_fen(endgame.fen(), rules.with_(opening_single_capture=False))
    python, fast = searches(board, depth=4)
    assert fast == python


def test_a_small_board_is_searched_to_the_proven_end_like_python():
    board = random_position((5, 3), Rules.named("solved"), seed=1, plies=3)
    python, fast = searches(board, depth=8)
    assert fast == python


def test_the_compiled_search_is_the_default_and_can_be_switched_off():
    assert AlphaBetaPlayer().compiled is True
    assert make_player("alphabeta:time=1,compiled=0").compiled is False


def test_a_bad_compiled_option_is_refused_with_a_sentence():
    with pytest.raises(ValueError, match=r"compiled is on \(1\), off \(0\) or None .*got 'yes'"):
        AlphaBetaPlayer(compiled="yes")
    with pytest.raises(ValueError, match="compiled is on"):
        make_player("alphabeta:compiled=2")


def test_asking_for_it_without_numba_says_what_to_install(monkeypatch):
    monkeypatch.setenv("FANORONA_COMPILED", "0")
    assert AlphaBetaPlayer().compiled is False
    with pytest.raises(ValueError, match=r"needs numba: pip install 'fanorona\[fast\]'"):
        AlphaBetaPlayer(compiled=True)


def test_a_board_over_62_points_is_searched_in_python():
    board = fa.Board((9, 7))
    assert compiled.compiled_generator(generator(board.geometry, board.rules)) is None
    player = AlphaBetaPlayer(depth=2, compiled=True, seed=0)
    assert player.choose_turn(board) in board.legal_turns()
    assert player.last_search.compiled is False


def test_a_position_too_big_for_the_buffer_falls_back_to_python(monkeypatch):
    """With room for only a few turns, the compiled search gives up and the Python one answers:
    the same answer as Python alone."""
    board = fa.Board.from_fen(MIDDLE_GAME)
    python = AlphaBetaPlayer(depth=3, seed=1, compiled=False)
    expected = python.choose_turn(board)
    compiled.warm_up()
    monkeypatch.setattr(compiled, "RESULTS_CAPACITY", 4)
    small = AlphaBetaPlayer(depth=3, seed=1, compiled=True)
    assert small.choose_turn(board) == expected
    assert (
        small.last_search.compiled is False and small.last_search.score == python.last_search.score
    )


def test_the_clock_stops_the_compiled_search():
    """Unstopped, the search would deepen to depth 99; the clock (deadline at 0.27 s) stops it.
    The bound leaves room for a loaded machine: how close to the budget it stops is a figure for
    benchmarks/bench_search.py, not a test."""
    player = AlphaBetaPlayer(time_limit=0.3, seed=0)
    player.choose_turn(fa.Board())  # the first search may load the compiled code
    player.choose_turn(fa.Board())
    info = player.last_search
    assert info.compiled and 1 <= info.depth < 99 and info.time < 2, info


def test_the_first_turn_does_not_spend_its_time_budget_on_compiling(monkeypatch):
    """Loading the compiled code (half a minute the first time after installing) happens before the
    turn's clock starts, so the first turn still searches for its whole budget."""
    real, calls = compiled.warm_up, []

    def slow_warm_up(progress=True):  # as if numba compiled: a second, once a process
        calls.append(progress)
        if not compiled.ready():
            time.sleep(1.0)
        real(progress)

    monkeypatch.setattr(compiled, "warm_up", slow_warm_up)
    monkeypatch.setattr(compiled, "_warm", False)
    player, board = (
        AlphaBetaPlayer(time_limit=0.3, seed=0, compiled=True),
        fa.Board((7, 5), Rules(quiet_draw=37)),
    )
    assert not player.ready(board)
    player.choose_turn(board)  # rules of its own: a generator no test compiled
    assert calls and player.ready(board)
    assert player.last_search.time < 1.0, "the second of compiling was counted in the turn's time"


def test_two_searches_in_threads_do_not_share_their_buffers():
    """The compiled search releases the interpreter lock: two at once must keep their own buffers
    and tables and give what each gives alone."""
    boards = positions_from_random_games(2, seed=9, every=6)
    alone = [searches(b, depth=4)[1] for b in boards]
    together = [None, None]

    def run(i):
        player = AlphaBetaPlayer(depth=4, seed=7, compiled=True)
        turn = player.choose_turn(boards[i])
        info = player.last_search
        together[i] = (str(turn), info.score, info.nodes, info.depth, info.pv)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert together == alone


@pytest.fixture(scope="module")
def endgame3(tmp_path_factory):
    """The 9x5 three-stone table, built in a fresh cache directory."""
    from fanorona.engine.endgame import endgame_table

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FANORONA_CACHE_DIR", str(tmp_path_factory.mktemp("compiled-endgame")))
        yield endgame_table((9, 5), 3)


def few_stones(rng, stones, rules):
    """A 9x5 position of ``stones`` stones, both colours, either to move, not yet over."""
    while True:
        points = rng.sample(range(45), stones)
        white = rng.randint(1, stones - 1)
        rows = [["."] * 9 for _ in range(5)]
        for i, p in enumerate(points):
            rows[p // 9][p % 9] = "W" if i < white else "B"
        board = fa.Board.from_diagram(
            "\n".join("".join(r) for r in reversed(rows)), rng.choice(["white", "black"]), rules
        )
        if board.outcome() is None:
            return board


@pytest.mark.parametrize(
    "rules",
    [Rules.standard(), Rules.solved(), Rules.standard().with_(quiet_draw=6)],
    ids=["standard", "solved", "draw-after-6"],
)
def test_the_search_with_an_endgame_table_is_the_same_node_for_node(endgame3, rules):
    """Positions of 3 to 6 stones: read from the table (in every mirror image), scored past the
    horizon from it, and, under a short draw rule, wins the draw rule would cut short left out."""
    rng = random.Random(5)
    for _ in range(16):
        board = few_stones(rng, rng.choice([3, 4, 5, 6]), rules)
        for depth in (3, 5):
            python, fast = searches(board, depth=depth, endgame=endgame3)
            assert fast == python, (board.fen(), depth)


def test_the_endgame_table_changes_what_the_compiled_search_sees(endgame3):
    """So the test above compares searches that read the table, not two that ignore it."""
    rng = random.Random(6)
    changed = 0
    for _ in range(20):
        board = few_stones(rng, 3, Rules.solved())
        (with_table,) = searches(board, depth=2, endgame=endgame3)[1:]
        (without,) = searches(board, depth=2)[1:]
        changed += with_table[1] != without[1]
    assert changed >= 5


def test_a_stored_proven_score_the_draw_rule_would_cut_short_is_searched_again(endgame3):
    """Under a draw after 6 quiet turns a win read from the table may be stored, then met again
    with more quiet turns behind it, where it no longer holds: both searches must look again."""
    rules = Rules.standard().with_(quiet_draw=6)
    board = fa.Board.from_fen("....W...B/........./.B......./W......../......... w", rules)
    python, fast = searches(board, depth=5, endgame=endgame3)
    assert fast == python


# -- stopping, and one player searching in two threads ------------------------------------------


@pytest.mark.parametrize(
    "budget", [{"depth": 40}, {"time_limit": 600}], ids=["depth=40", "time=600"]
)
def test_setting_stop_cancels_the_compiled_search(budget):
    """Without the event, depth 40 or ten minutes would run on; the compiled search looks at the
    event where it looks at the clock.  (How fast: benchmarks/bench_cancel.py.)"""
    compiled.warm_up()
    player = AlphaBetaPlayer(seed=0, compiled=True, **budget)
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    started = time.perf_counter()
    with pytest.raises(fa.engine.ai.SearchCancelled):
        player.choose_turn(fa.Board.from_fen(MIDDLE_GAME), stop=stop)
    assert time.perf_counter() - started < 10
    assert compiled._STOPS == {}, "the event of a finished search is forgotten"
    player.depth, player.time_limit = 3, 1.0  # and the next search is a whole one
    python, fast = searches(fa.Board.from_fen(MIDDLE_GAME), depth=3)
    turn = player.choose_turn(fa.Board.from_fen(MIDDLE_GAME))
    assert player.last_search.compiled and player.last_search.score == fast[1] == python[1]
    assert turn in fa.Board.from_fen(MIDDLE_GAME).legal_turns()


class Unshuffled(random.Random):
    """A player's random source that leaves the turns in the generator's order, so that which of
    several equally good turns a search answers does not depend on which call shuffled first."""

    def shuffle(self, x):
        pass


def test_two_calls_at_once_on_one_compiled_player_do_not_interfere():
    """Each call takes a compiled search (and transposition table) of its own; the same player
    searching two boards at once gives what a player searching each alone gives."""
    compiled.warm_up()
    boards = [
        fa.Board.from_fen(MIDDLE_GAME),
        positions_from_random_games(1, size=(5, 5), seed=22, every=3)[0],
    ]
    alone = []
    for board in boards:
        player = AlphaBetaPlayer(depth=4, compiled=True)
        player.rng = Unshuffled()
        alone.append(player.choose_turn(board))
    player = AlphaBetaPlayer(depth=4, compiled=True)
    player.rng = Unshuffled()
    found: dict = {}

    def run(i):
        for r in range(3):
            found[i, r] = player.choose_turn(boards[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert found == {(i, r): alone[i] for i in range(2) for r in range(3)}
    assert len(player._idle) == 1, "one compiled search is kept between turns, not one per thread"


def own_memory_mb() -> float:
    """What this process alone has written to memory (private dirty pages), in MB."""
    import psutil

    maps = psutil.Process().memory_maps(grouped=True)
    return sum(region.private_dirty for region in maps) / 2**20


def test_a_search_hands_its_table_back_to_the_system_when_it_ends():
    """A table is 36 MB: the board keeps a player per level, size and rules, and a table each made
    a kernel grow by 72 MB per size played.  A search's table lives while it searches."""
    compiled.warm_up()
    search = compiled.CompiledSearch(
        compiled.compiled_generator(generator(fa.Board().geometry, Rules())), "threat", True, 2
    )
    before = own_memory_mb()
    search.start(0, None)
    keys, values = search.table
    keys[:], values[:] = 1, 1  # every page written, as a long search does
    assert own_memory_mb() - before > 30
    assert compiled.tables_held() == 1
    del keys, values
    search.finish()
    assert compiled.tables_held() == 0
    assert own_memory_mb() - before < 5, "the table's memory stayed with the process"


def test_players_of_every_level_and_size_hold_no_table_between_turns():
    """... unless they keep what they learned (``memory``): then one table each, until forgotten."""
    boards = [fa.Board(size) for size in ((9, 5), (5, 5), (7, 7))]
    players = [
        AlphaBetaPlayer(depth=3, seed=1, compiled=True, evaluation=evaluation)
        for evaluation in EVALUATIONS
    ]
    for board, player in zip(boards, players, strict=False):
        player.choose_turn(board)
        assert compiled.tables_held() == 0
    assert all(player._idle and player._idle[0].table is None for player in players[:3])
    remembering = AlphaBetaPlayer(depth=3, seed=1, compiled=True, memory=True)
    for board in boards:
        remembering.choose_turn(board)
        assert compiled.tables_held() == 1, "a size played replaces the table of the one before"
    other = AlphaBetaPlayer(depth=3, seed=1, compiled=True, memory=True)
    other.choose_turn(boards[1])
    assert compiled.tables_held() == 1, "one table kept in a process, the last search's"
    remembering.forget()
    other.forget()
    assert compiled.tables_held() == 0


def test_two_remembering_players_keep_both_tables_where_allowed():
    """The arena's two ``memory`` sides of one game keep a table each between turns; after the
    block the process holds one again, the last search's."""
    board = fa.Board((5, 5))
    first, second = (AlphaBetaPlayer(depth=3, seed=k, compiled=True, memory=True) for k in (1, 2))
    with compiled.kept_tables(2):
        for _ in range(2):
            first.choose_turn(board)
            second.choose_turn(board)
            assert compiled.tables_held() == 2, "each side kept its own table"
        assert first._idle[0].table is not None and second._idle[0].table is not None
    assert compiled.tables_held() == 1
    assert first._idle[0].table is None and second._idle[0].table is not None
    second.forget()
    assert compiled.tables_held() == 0


def test_both_remembering_sides_of_an_arena_game_keep_their_tables():
    """Each side counts the tables the process holds after its own turn: from the second turn
    on, its own and the other side's."""
    from fanorona.engine import arena

    held = []

    class Counting(AlphaBetaPlayer):
        def choose_turn(self, board):
            turn = super().choose_turn(board)
            held.append(compiled.tables_held())
            return turn

    arena.register_player(
        "counting", lambda spec, seed: Counting(depth=2, seed=seed, compiled=True, memory=True)
    )
    arena.run_match("counting", "counting", 2, size=(5, 5), seed=1, max_turns=6, progress=False)
    assert held[0] == 1 and len(held) > 4
    assert set(held[1:6]) == {2}, "one side's turn never dropped the other side's table"
    assert compiled.tables_held() == 0, "the tables went with the game's players"


@pytest.mark.parametrize("limit", [0, -1, 1.5, "2", None])
def test_a_table_limit_must_be_a_whole_number_at_least_one(limit):
    with pytest.raises(ValueError, match="at least 1"), compiled.kept_tables(limit):
        pass


def test_a_dropped_player_hands_back_the_table_it_kept():
    player = AlphaBetaPlayer(depth=2, seed=1, compiled=True, memory=True)
    player.choose_turn(fa.Board())
    assert compiled.tables_held() == 1
    del player
    import gc

    gc.collect()
    assert compiled.tables_held() == 0


def game_searches(compiled_path: bool, memory: bool, boards, depth: int = 3) -> list:
    """One player's fixed-depth searches of ``boards`` in turn: what each reports."""
    player = AlphaBetaPlayer(depth=depth, seed=5, compiled=compiled_path, memory=memory)
    found = []
    for board in boards:
        turn = player.choose_turn(board)
        info = player.last_search
        found.append((str(turn), info.score, info.nodes, info.pv))
    player.forget()
    return found


def test_a_search_that_remembers_is_the_same_node_for_node_turn_after_turn():
    boards = positions_from_random_games(6, seed=21, every=2)
    assert game_searches(True, True, boards) == game_searches(False, True, boards)


def test_what_a_search_remembers_saves_nodes_on_the_next_turn():
    """The side's next turn in a middle game (after its own and the opponent's), searched after
    the first, by a player that remembers and by one that does not: the same score from fewer
    positions (the first search's entries are too shallow to cut the second's, but their best
    replies order it)."""
    first = fa.Board.from_fen(MIDDLE_GAME)
    second = first.copy()
    for _ in range(2):
        second.push(AlphaBetaPlayer(depth=4, seed=5, compiled=True).choose_turn(second))
    assert len(second.legal_turns()) > 1, "a forced turn is not searched"
    fresh, kept = (game_searches(True, m, [first, second], depth=4)[1] for m in (False, True))
    assert kept[1] == fresh[1]
    assert kept[2] < fresh[2]


def test_searches_at_the_same_time_have_tables_of_their_own():
    boards = positions_from_random_games(3, seed=4, every=7)
    all_started = threading.Barrier(len(boards), timeout=60)
    held = []

    def run(board):
        AlphaBetaPlayer(depth=4, seed=2, compiled=True).choose_turn(board)

    real_new_table = compiled._new_table

    def new_table_and_wait_for_the_others():
        table = real_new_table()
        if threading.current_thread().name not in {name for name, _ in held}:
            all_started.wait()  # every search holds its table before any drops it
            held.append((threading.current_thread().name, compiled.tables_held(), id(table[0])))
            all_started.wait()
        return table

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(compiled, "_new_table", new_table_and_wait_for_the_others)
        threads = [threading.Thread(target=run, args=(b,)) for b in boards]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert [count for _, count, _ in held] == [len(boards)] * len(boards)
    assert len({table for _, _, table in held}) == len(boards)
    assert compiled.tables_held() == 0


def test_cached_machine_code_is_removed_when_its_constants_change(tmp_path):
    code = [
        tmp_path / "compiled._evaluate-360.py311.nbi",
        tmp_path / "compiled._evaluate-360.py311.1.nbc",
    ]
    other = tmp_path / "scoring.to_table-58.py311.nbi"  # another module's, under its own watch

    def compile_into_cache():
        for path in [*code, other]:
            path.write_bytes(b"machine code")

    compile_into_cache()
    assert compiled.clear_stale_cache(tmp_path, "first"), "no stamp: constants unknown, removed"
    assert not any(path.exists() for path in code) and other.exists()
    compile_into_cache()
    assert not compiled.clear_stale_cache(tmp_path, "first")
    assert all(path.exists() for path in code), "compiled under the same constants: kept"
    assert compiled.clear_stale_cache(tmp_path, "second")
    assert not any(path.exists() for path in code) and other.exists()
    assert not compiled.clear_stale_cache(None, "third"), "numba keeps no cache: nothing to do"


#: A child's view of one position: the compiled learned evaluation and the Python one.
EVALUATE_IN_A_CHILD = """
import json, fanorona
from fanorona.board import Board
from fanorona.engine import ai, compiled
from fanorona.movegen import bitsets, generator
board = Board()
for turn in ("d3e3W", "d4c3Ad3W", "d2c3A"):
    board.push(turn)
gen = generator(board.geometry, board.rules)
tables = compiled.CompiledGenerator(gen).with_params(evaluation=compiled.LEARNED_CODE)
me, opp = bitsets(board)
scores = int(compiled._evaluate(me, opp, tables)), ai.learned(gen, me, opp)
print(json.dumps([fanorona.__file__, *scores]))
"""


@pytest.mark.slow
def test_a_new_weight_in_scoring_reaches_the_compiled_evaluation_despite_its_cache(tmp_path):
    import json
    import re
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    copy = tmp_path / "fanorona"
    shutil.copytree(Path(fa.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(tmp_path)

    def evaluations():
        run = subprocess.run(
            [sys.executable, "-c", EVALUATE_IN_A_CHILD],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
        )
        where, compiled_score, python_score = json.loads(run.stdout.splitlines()[-1])
        assert Path(where).parent == copy
        return compiled_score, python_score

    first = evaluations()  # compiled, and cached in the copy
    assert first[0] == first[1]
    scoring = copy / "engine" / "scoring.py"
    text, count = re.subn(r"LEARNED = \([^)]*\)", "LEARNED = (7, 5, 3, 2, 1)", scoring.read_text())
    assert count == 1
    scoring.write_text(text)
    second = evaluations()
    assert second[1] != first[1], "the new weights score this position otherwise"
    assert second[0] == second[1], "the compiled evaluation was loaded from a stale cache"


#: A child that holds the compile lock on numba's cache folder until its standard input closes.
HOLD_THE_COMPILE_LOCK = """
import sys
from fanorona.engine import compiled
with compiled.one_compiler_at_a_time(compiled.cache_folder()):
    print(compiled.cache_folder(), flush=True)
    sys.stdin.read()
"""


def test_a_second_process_waits_for_the_one_compiling_before_it_writes_numbas_cache(tmp_path):
    """Two processes compiling into one cold cache at once can leave code that LLVM aborts on; the
    second waits, says so, writes nothing meanwhile, and compiles once the first is done."""
    import subprocess
    import sys
    from pathlib import Path

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_THE_COMPILE_LOCK],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    )
    said = tmp_path / "waiter.err"
    waiter = None
    try:
        folder = Path(holder.stdout.readline().strip())
        assert folder.is_relative_to(tmp_path / "cache"), folder
        with said.open("w") as err:
            waiter = subprocess.Popen(
                [sys.executable, "-c", "from fanorona.engine import compiled; compiled.warm_up()"],
                stderr=err,
                env=env,
            )

        def cached():
            return list(folder.glob("compiled.*.nbi"))

        def wait_for(condition, seconds):
            deadline = time.monotonic() + seconds
            while not condition() and time.monotonic() < deadline:
                assert waiter.poll() is None, said.read_text()
                time.sleep(0.1)
            return condition()

        assert wait_for(lambda: "waiting" in said.read_text(), 60), said.read_text()
        time.sleep(3)  # long enough for numba to cache the first function, were it compiling
        assert waiter.poll() is None and not cached(), said.read_text()
        holder.stdin.close()
        assert holder.wait(30) == 0
        assert wait_for(cached, 120), "the waiter did not go on compiling once the lock was free"
    finally:
        for process in (holder, waiter):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()


def test_a_cache_folder_that_cannot_hold_a_lock_file_still_compiles(tmp_path):
    """No lock is held where no lock file can be made (a path under a file), and the body runs."""
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    ran = []
    with compiled.one_compiler_at_a_time(blocked / "cache", progress=False):
        ran.append(True)
    assert ran == [True] and not (blocked.parent / "compiled.lock").exists()
    with compiled.one_compiler_at_a_time(tmp_path / "cache", progress=False):
        assert (tmp_path / "cache" / "compiled.lock").exists(), "a writable folder holds the lock"
