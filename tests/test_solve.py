"""The small-board solver: checked against a plain search, against the rules, and on disk."""

import os
import struct
from itertools import islice

import pytest

import fanorona as fa
from fanorona.engine import solve as solver
from fanorona.engine.ai import RandomPlayer
from fanorona.engine.solve import (
    PerfectPlayer,
    SolveCacheWarning,
    Successors,
    Symmetry,
    Table,
    solve,
)
from fanorona.movegen import bitsets

SOLVED = fa.Rules.solved()


@pytest.fixture(scope="module", autouse=True)
def cache(tmp_path_factory):
    """Every table of this module lives in a fresh directory, so each is solved from scratch
    once."""
    folder = tmp_path_factory.mktemp("solve-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FANORONA_CACHE_DIR", str(folder))
        yield folder


def reachable_boards(size):
    """Every board reachable from the start between turns, found with the public Board API only."""
    start = fa.Board(size, SOLVED)
    seen = {start.key(): start}
    frontier = [start]
    while frontier:
        board = frontier.pop()
        for turn in board.legal_turns():
            child = board.after(turn)
            if child.key() not in seen:
                seen[child.key()] = child
                frontier.append(child)
    return seen


def plain_solution(boards):
    """Value and distance of every board by growing sets: lost within d turns, won within d turns.

    A side loses within d turns if every turn leads to a win within d - 1 for the other side
    (no turn at all: lost within 0); it wins within d if some turn leads to a loss within d - 1.
    The first d at which a board joins a set is its distance; boards never joining are draws.
    """
    children = {k: [t.key() for t in map(b.after, b.legal_turns())] for k, b in boards.items()}
    found = {}

    def within(child, value, d):
        return child in found and found[child] == (value, found[child][1]) and found[child][1] < d

    d = 0
    while True:
        new = {}
        for k, kids in children.items():
            if k in found:
                continue
            if all(within(c, "win", d) for c in kids):
                new[k] = ("loss", d)
            elif any(within(c, "loss", d) for c in kids):
                new[k] = ("win", d)
        if not new:
            return {k: found.get(k, ("draw", None)) for k in boards}
        found.update(new)
        d += 1


def test_3x3_agrees_with_a_plain_search_on_every_reachable_board():
    boards = reachable_boards((3, 3))
    table = solve((3, 3), progress=False)
    expected = plain_solution(boards)
    assert {v for v, _ in expected.values()} == {"win", "loss", "draw"}
    for key, board in boards.items():
        assert (table.value(board), table.distance(board)) == expected[key], board.fen()


@pytest.mark.parametrize("size", [(3, 3), (3, 5), (5, 3)])
def test_white_wins_the_small_boards_as_published(size):
    table = solve(size, progress=False)
    assert table.start_value == "win"
    assert table.value(fa.Board(size, SOLVED)) == "win"
    assert table.start_distance % 2 == 1  # the winner makes the last turn
    assert sum(table.counts.values()) == len(table)


def sampled(table, per_class):
    """Up to ``per_class`` boards of each value and distance, so that long lines are checked too."""
    classes = [("draw", None)] + [(v, d) for v in ("win", "loss") for d in table.distance_counts(v)]
    return [b for v, d in classes for b in islice(table.boards(v, d), per_class)]


@pytest.mark.parametrize("size, per_class", [((3, 3), 1000), ((3, 5), 30), ((5, 3), 15)])
def test_every_value_is_explained_by_the_values_one_turn_later(size, per_class):
    table = solve(size, progress=False)
    boards = sampled(table, per_class)
    assert {table.value(b) for b in boards} == {"win", "loss", "draw"}
    assert len(boards) == len(table) or len(boards) >= per_class * len(
        table.distance_counts("loss")
    )
    for board in boards:
        value, distance = table.value(board), table.distance(board)
        after = [board.after(t) for t in board.legal_turns()]
        replies = [(table.value(b), table.distance(b)) for b in after]
        if value == "win":
            assert ("loss", distance - 1) in replies, board.fen()
            assert all(d >= distance - 1 for v, d in replies if v == "loss")
        elif value == "loss":
            assert all(v == "win" for v, _ in replies), board.fen()
            assert max((d for _, d in replies), default=-1) == distance - 1
            assert (distance == 0) == (not replies)
        else:
            assert distance is None
            assert "draw" in {v for v, _ in replies} and "loss" not in {v for v, _ in replies}, (
                board.fen()
            )


def test_best_turns_are_the_fastest_wins():
    table = solve((3, 5), progress=False)
    board = fa.Board((3, 5), SOLVED)
    best = table.best_turns(board)
    assert best and set(best) <= set(board.legal_turns())
    for turn in board.legal_turns():
        after = board.after(turn)
        keeps = table.value(after) == "loss" and table.distance(after) == table.start_distance - 1
        assert keeps == (turn in best)


def test_the_successors_are_the_positions_after_each_legal_turn(positions):
    rule_sets = [
        SOLVED,
        fa.Rules.simple(),
        SOLVED.with_(direction="no-reuse"),
        SOLVED.with_(direction="free"),
        SOLVED.with_(must_continue=True),
        SOLVED.with_(no_revisit=False, mandatory_capture=False),
    ]
    for rules in rule_sets:
        for size in [(5, 3), (9, 5)]:
            g = fa.Board(size).geometry
            successors = Successors(g, rules)
            n = g.width * g.height
            for board in positions(25, size, rules, seed=3):
                me, opp = bitsets(board)
                expected = {
                    m | o << n for m, o in (bitsets(board.after(t)) for t in board.legal_turns())
                }
                assert successors(me | opp << n) == expected, (rules, board.fen())


def test_symmetries_of_the_boards():
    assert len(Symmetry(fa.Board((3, 3)).geometry)) == 8
    assert len(Symmetry(fa.Board((3, 5)).geometry)) == 4
    table = solve((5, 3), progress=False)
    board = fa.Board((5, 3), SOLVED)
    board.push(table.best_turns(board)[0])
    flipped = fa.Board.from_diagram(
        "\n".join(row[::-1] for row in board.diagram().splitlines()), board.to_move, SOLVED
    )
    assert (table.value(flipped), table.distance(flipped)) == (
        table.value(board),
        table.distance(board),
    )


def mapped(key, points, perm):
    """A packed key with each point p moved to perm[p], bit by bit."""
    return sum(
        1 << (perm[b % points] + points * (b >= points)) for b in range(2 * points) if key >> b & 1
    )


@pytest.mark.parametrize("size", [(3, 3), (5, 3), (3, 7)])
def test_every_symmetry_commutes_with_the_turns(positions, size):
    g = fa.Board(size).geometry
    n = g.width * g.height
    symmetry, successors = Symmetry(g), Successors(g, SOLVED)
    for board in positions(20, size, SOLVED, seed=5, every=2):
        me, opp = bitsets(board)
        key = me | opp << n
        for perm in symmetry.maps:
            image = mapped(key, n, perm)
            assert successors(image) == {mapped(k, n, perm) for k in successors(key)}
            assert symmetry.canonical(image) == symmetry.canonical(key) <= key


@pytest.mark.parametrize("size", [(3, 5), (5, 3)])
def test_perfect_white_beats_random_play_within_the_solved_distance(size):
    perfect = PerfectPlayer(size, seed=1)
    for seed in range(3):
        game = fa.play_game(perfect, RandomPlayer(seed=seed), fa.Board(size, SOLVED))
        assert game.outcome.winner == "white"
        assert len(game.turns) <= perfect.table.start_distance


def test_perfect_play_on_both_sides_lasts_exactly_the_solved_distance():
    white, black = PerfectPlayer((3, 5), seed=2), PerfectPlayer((3, 5), seed=3)
    game = fa.play_game(white, black, fa.Board((3, 5), SOLVED))
    assert game.outcome.winner == "white"
    assert len(game.turns) == white.table.start_distance
    assert white.name == "perfect 3x5"


def test_the_perfect_player_also_plays_under_a_quiet_turn_draw_rule():
    player = PerfectPlayer((3, 3), seed=4)
    game = fa.play_game(player, player, fa.Board((3, 3)))
    assert game.rules == fa.Rules.standard()
    assert game.outcome.winner == "white" and len(game.turns) == player.table.start_distance
    with pytest.raises(ValueError, match="this table solves 3x3 under"):
        player.choose_turn(fa.Board((3, 3), fa.Rules.simple()))


def test_a_drawn_position_is_held_by_the_perfect_player():
    table = solve((3, 3), progress=False)
    board = next(table.boards("draw"))
    player = PerfectPlayer((3, 3), seed=0)
    for _ in range(12):
        board.push(player.choose_turn(board))
        assert table.value(board) == "draw"


# -- the cache --------------------------------------------------------------------------------


def rebuilt_after(damage, size=(3, 3)):
    """Damage the cache file, then check that solve warns, rebuilds it and gets the same answers."""
    table = solve(size, progress=False)
    path = solver.cache_path(size)
    data = path.read_bytes()
    path.write_bytes(damage(data))
    os.utime(path, ns=(1, 1))  # a new stamp even on coarse clocks, so the file is read again
    with pytest.warns(SolveCacheWarning) as caught:
        again = solve(size, progress=False)
    assert path.read_bytes() == data
    assert list(again.boards()) == list(table.boards())
    return str(caught[0].message)


def test_a_flipped_byte_in_the_cache_is_detected_and_rebuilt():
    message = rebuilt_after(lambda data: data[:-20] + bytes([data[-20] ^ 0x10]) + data[-19:])
    assert "checksum" in message


def test_a_truncated_cache_file_is_rebuilt():
    assert "checksum" in rebuilt_after(lambda data: data[: len(data) // 2])
    assert "shorter" in rebuilt_after(lambda data: data[:10])


def test_a_cache_file_of_another_format_version_is_rebuilt():
    def older(data):
        magic, version, digest = struct.unpack_from("<8sH32s", data)
        return struct.pack("<8sH32s", magic, version - 1, digest) + data[42:]

    assert "version" in rebuilt_after(older)


def test_a_cached_table_is_read_back_not_solved_again(monkeypatch):
    solve((3, 3), progress=False)
    path = solver.cache_path((3, 3))
    read = Table.from_bytes(path.read_bytes(), (3, 3), SOLVED)
    assert list(read.boards()) == list(solve((3, 3), progress=False).boards())
    os.utime(path, ns=(2, 2))
    monkeypatch.setattr(
        solver, "_solve_now", lambda *a: pytest.fail("solved again despite a good cache")
    )
    assert solve((3, 3), progress=False).start_value == "win"


def test_the_cache_directory_follows_the_environment(cache):
    assert solver.cache_path((3, 5)).parent == cache
    assert solver.cache_path((3, 5)) != solver.cache_path((5, 3))


# -- clear errors -----------------------------------------------------------------------------


def test_boards_the_table_cannot_answer_for_are_refused_clearly():
    table = solve((3, 3), progress=False)
    with pytest.raises(ValueError, match="3x3 board; the board is 3x5"):
        table.value(fa.Board((3, 5), SOLVED))
    with pytest.raises(ValueError, match="Board\\(\\(3, 3\\), rules\\)"):
        table.value(fa.Board((3, 3)))
    with pytest.raises(ValueError, match="cannot arise"):
        table.value(fa.Board.from_diagram("WWW\nW.W\nWWW", rules=SOLVED))
    board = next(b for b in table.boards() if any(len(t.steps) > 1 for t in b.legal_turns()))
    board.push(next(t for t in board.legal_turns() if len(t.steps) > 1).steps[0])
    with pytest.raises(ValueError, match="middle of a capture chain"):
        table.value(board)


def test_unsolvable_requests_are_refused_clearly():
    with pytest.raises(ValueError, match="draw rule"):
        solve((3, 3), fa.Rules.standard())
    with pytest.raises(ValueError, match="opening_single_capture"):
        solve((3, 3), fa.Rules.czech())
    with pytest.raises(ValueError, match="at most 21"):
        solve((9, 5))
    with pytest.raises(ValueError, match="odd"):
        solve((4, 3))


def test_a_sample_draws_only_boards_of_the_value_and_distance_asked_reproducibly():
    import random

    table = solve((3, 3))
    drawn = table.sample(5, random.Random(3), "win", 3)
    assert drawn and len(drawn) == min(5, table.distance_counts("win")[3])
    assert all(table.value(b) == "win" and table.distance(b) == 3 for b in drawn)
    assert [b.fen() for b in drawn] == [
        b.fen() for b in table.sample(5, random.Random(3), "win", 3)
    ]
    assert len(table.sample(10**6, random.Random(0), "loss")) == table.counts["loss"]
