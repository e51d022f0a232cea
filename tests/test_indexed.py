"""Indexed endgame tables (``fanorona.engine.indexed``): built by compiled code that undoes quiet
steps, checked against the keyed tables that ``endgame`` builds in Python from the turns forward,
on every position and mirror image, under every rule set the tables allow; then their numbering,
their file, and the search that reads them."""

import random
from itertools import combinations

import pytest

pytest.importorskip("numba")

import fanorona as fa
from fanorona.engine.ai import AlphaBetaPlayer, make_player
from fanorona.engine.endgame import EndgameTable
from fanorona.engine.indexed import IndexedTable, cache_path, indexed_table, position_index
from fanorona.engine.scoring import PROVEN
from fanorona.geometry import geometry
from fanorona.rules import PRESETS, Rules

pytestmark = pytest.mark.xdist_group("endgame-tables")

#: the rule sets a table can stand for: no draw rule, no opening rule
GRAPH_RULES = {name: Rules.named(name).with_(quiet_draw=None) for name in PRESETS}
GRAPH_RULES = {n: r for n, r in GRAPH_RULES.items() if not r.opening_single_capture}
#: the solved game's rules and another set, to see rules reach a child process unchanged
RULE_PAIR = [
    ("solved", Rules.solved()),
    *[(n, r) for n, r in GRAPH_RULES.items() if r != Rules.solved()][:1],
]


@pytest.fixture(scope="module", autouse=True)
def cache(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FANORONA_CACHE_DIR", str(tmp_path_factory.mktemp("indexed-cache")))
        yield


def image(stones: int, point_map) -> int:
    return sum(1 << point_map[p] for p in range(len(point_map)) if stones >> p & 1)


def disagreements(indexed: IndexedTable, keyed: EndgameTable) -> list:
    """Every position the keyed table holds, in every mirror image, where the two differ."""
    maps = geometry(*keyed.size).symmetries()
    return [
        (me, opp, value, distance)
        for me, opp, value, distance in keyed.entries()
        for m in maps
        if indexed.lookup(image(me, m), image(opp, m)) != (value, distance)
    ]


@pytest.mark.parametrize("preset", list(GRAPH_RULES))
def test_four_stones_agree_with_the_keyed_table_under_every_rule_set(preset):
    rules = GRAPH_RULES[preset]
    indexed = IndexedTable.build((5, 3), 4, rules, progress=False)
    keyed = EndgameTable.build((5, 3), 4, rules, progress=False)
    assert disagreements(indexed, keyed) == []


@pytest.mark.parametrize("size", [(3, 5), (5, 3), (3, 3)])
def test_five_stones_agree_with_the_keyed_table(size):
    """Five stones on 15 points: long quiet manoeuvres between captures, wins of many turns."""
    indexed = IndexedTable.build(size, 5, progress=False)
    keyed = EndgameTable.build(size, 5, progress=False)
    assert disagreements(indexed, keyed) == []
    assert indexed.counts["draw"] > 0 and indexed.counts["loss"] > 0


def test_every_position_has_one_number_and_comes_back_from_it():
    table = IndexedTable.build((3, 3), 4, progress=False)
    seen = []
    for k in range(2, 5):
        for points in combinations(range(9), k):
            for mine in range(1, k):
                for my_points in combinations(points, mine):
                    me = sum(1 << p for p in my_points)
                    opp = sum(1 << p for p in points) & ~me
                    number = position_index(me, opp, table.binomials, table.bases)
                    assert table.position(number) == (me, opp)
                    seen.append(number)
    assert sorted(seen) == list(range(len(table)))


def test_a_wrongly_labelled_table_is_refused_even_with_a_valid_checksum():
    table = IndexedTable.build((3, 3), 4, progress=False)
    wrong = table.codes.copy()
    won = wrong % 2 == 1
    wrong[won] += 1  # every win made a loss of about the same length
    bad = IndexedTable((3, 3), table.rules, 4, wrong)
    with pytest.raises(ValueError, match="does not follow"):
        IndexedTable.from_bytes(bad.to_bytes(), (3, 3), 4, table.rules)
    with pytest.raises(ValueError, match="another board size"):
        IndexedTable.from_bytes(table.to_bytes(), (3, 3), 3, table.rules)


def test_a_table_comes_back_from_its_cache_file_unchanged():
    built = indexed_table((5, 3), 5)
    again = IndexedTable.from_bytes(cache_path((5, 3), 5).read_bytes(), (5, 3), 5, Rules.solved())
    assert (again.codes == built.codes).all() and len(again) > 0


def test_bad_requests_are_refused_with_a_sentence():
    with pytest.raises(ValueError, match="stones is a whole number from 2 to 6"):
        IndexedTable.build((3, 3), 7, progress=False)
    table = indexed_table((3, 3), 3)
    start = fa.Board((3, 3), Rules.solved())
    with pytest.raises(ValueError, match="holds positions of 2 to 3 stones"):
        table.value(start)
    with pytest.raises(ValueError, match="from 0 to"):
        table.position(len(table))
    with pytest.raises(ValueError, match="endgame is a number of stones from 2 to 5"):
        AlphaBetaPlayer(endgame=6)


def positions_of_few_stones(size, count, seed, most=8):
    """Positions of random games on ``size`` once they have at most ``most`` stones."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        board = fa.Board(size)
        while board.outcome() is None and len(found) < count:
            board.push(rng.choice(board.legal_turns()))
            stones = board.count("white") + board.count("black")
            if stones <= most and board.outcome() is None and not board.chain:
                found.append(board.copy())
    return found


def test_the_compiled_search_reads_the_table_like_python_node_for_node():
    table = indexed_table((5, 5), 5)
    for board in positions_of_few_stones((5, 5), 12, seed=3):
        found = []
        for path in (False, True):
            player = AlphaBetaPlayer(depth=4, seed=7, compiled=path, endgame=table)
            turn = player.choose_turn(board)
            info = player.last_search
            found.append((str(turn), info.score, info.nodes, info.pv))
        assert found[0] == found[1], board.fen()


def test_endgame_5_reads_the_indexed_table_once_the_stones_are_few():
    """A won 5-stone position whose win is longer than the search: proven only from the table."""
    table = indexed_table((5, 3), 5)
    player = make_player("alphabeta:depth=2,endgame=5")
    assert player.name == "alphabeta:depth=2,endgame=5"
    assert player.ready(fa.Board((5, 3)))  # 14 stones: too many to reach the table, none loaded
    board = next(
        b
        for b in positions_of_few_stones((5, 3), 200, seed=4, most=5)
        if b.count("white") + b.count("black") == 5
        and table.value(b) == "win"
        and table.distance(b) > 4
    )
    player.prepare(board, progress=False)
    assert player.ready(board)
    player.choose_turn(board)
    assert player.last_search.score >= PROVEN
    without = AlphaBetaPlayer(depth=2)
    without.choose_turn(board)
    assert without.last_search.score < PROVEN


def test_without_compiled_code_endgame_5_reads_the_four_stone_table(monkeypatch):
    """The indexed table is built by compiled code; where it is switched off the player still
    plays, searching as ``endgame=4`` does, node for node."""
    table = indexed_table((5, 5), 5)
    boards = [
        b
        for b in positions_of_few_stones((5, 5), 600, seed=4, most=5)
        if b.count("white") + b.count("black") == 5 and table.value(b) != "draw"
    ][:8]
    monkeypatch.setenv("FANORONA_COMPILED", "0")

    def search(board, endgame):
        player = AlphaBetaPlayer(depth=3, seed=1, endgame=endgame)
        player.choose_turn(board)
        return player.last_search.score, player.last_search.nodes

    assert all(search(b, 5) == search(b, 4) for b in boards)
    assert any(search(b, 5) != search(b, table) for b in boards)


def test_a_large_table_is_built_by_another_process_and_read_here(monkeypatch, tmp_path):
    """The build's memory peak stays out of this process (a kernel): here ``build`` is refused,
    yet the table arrives, labelled as a build here labels it, under another rule set too."""
    reference = {name: IndexedTable.build((3, 3), 5, rules, False) for name, rules in RULE_PAIR}
    monkeypatch.setenv("FANORONA_CACHE_DIR", str(tmp_path))

    def refuse(*args, **kwargs):
        raise AssertionError("the table was built in the process that asked for it")

    monkeypatch.setattr(IndexedTable, "build", refuse)
    for name, rules in RULE_PAIR:
        table = indexed_table((3, 3), 5, rules)
        assert (table.codes == reference[name].codes).all(), name
        assert cache_path((3, 3), 5, rules).exists()


def test_a_failed_child_build_is_told_and_the_table_built_here(monkeypatch, tmp_path):
    monkeypatch.setenv("FANORONA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr("sys.executable", "/bin/false")
    with pytest.warns(RuntimeWarning, match="child process failed .exit code 1.; building it here"):
        table = indexed_table((3, 3), 5)
    assert (table.codes == IndexedTable.build((3, 3), 5, progress=False).codes).all()


def test_a_bad_request_is_refused_before_any_child_starts(monkeypatch, tmp_path):
    monkeypatch.setenv("FANORONA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr("sys.executable", "/nonexistent/python")
    with pytest.raises(ValueError, match="stones is a whole number from 2 to 6"):
        indexed_table((3, 3), 7)
    with pytest.raises(ValueError, match="too large for the compiled code"):
        indexed_table((9, 7), 5)
