"""Matches: consistent totals, colours and openings alternated, the Elo sums, the command and its
errors."""

import json
import math
import os

import pytest

from fanorona import Board, Rules
from fanorona.engine import ai
from fanorona.engine.arena import GameResult, MatchResult, main, recorded_games, run_match


@pytest.mark.slow
def test_tiny_match_totals_are_consistent():
    result = run_match("greedy", "random", 6, size=(5, 5), seed=3, progress=False)
    assert len(result.games) == 6
    assert result.wins + result.draws + result.losses == 6
    assert result.score == pytest.approx((result.wins + result.draws / 2) / 6)
    points = sum(g.points for g in result.games)
    assert result.score == pytest.approx(points / 6)
    assert [g.a_white for g in result.games] == [True, False] * 3
    openings = [g.opening for g in result.games]
    assert openings[0::2] == openings[1::2], "both games of a pair open with the same turn"
    assert len(set(openings)) == 3, (
        "each pair opens differently (5x5 has more than three first turns)"
    )
    assert result.slowest_turn("a") >= result.mean_turn_time("a") > 0
    table = result.table()
    assert f"{result.wins:>5} {result.draws:>5} {result.losses:>6}" in table
    assert f"{result.score:.1%}" in table


def test_a_match_plays_the_openings_it_is_given_a_pair_each():
    from benchmarks.openings import opening_book

    book = opening_book(2, size=(5, 5), seed=4)
    assert len(set(book)) == 2 and all(len(line.split()) == 2 for line in book)
    result = run_match("greedy", "random", 4, size=(5, 5), seed=3, progress=False, openings=book)
    assert [g.opening for g in result.games] == [book[0], book[0], book[1], book[1]]
    for game in result.games:
        board = Board((5, 5))
        for turn in [*game.opening.split(), *game.turns]:
            board.push(turn)  # the record replays: the opening was played before the turns
    with pytest.raises(ValueError, match="openings is a list of turn texts"):
        run_match("greedy", "random", 2, size=(5, 5), openings=[""], progress=False)


def test_a_book_asked_for_more_pairs_than_two_turns_give_goes_a_turn_deeper():
    from benchmarks.openings import opening_book

    book = opening_book(60, seed=1)
    assert len(set(book)) == 60 and {len(line.split()) for line in book} == {3}


def test_same_seed_same_match_and_jobs_do_not_change_it():
    one = run_match("alphabeta:depth=1", "greedy", 4, size=(5, 3), seed=11, progress=False)
    two = run_match("alphabeta:depth=1", "greedy", 4, size=(5, 3), seed=11, jobs=2, progress=False)
    assert [g.turns for g in one.games] == [g.turns for g in two.games]
    assert [g.winner for g in one.games] == [g.winner for g in two.games]


class PreparingGreedy(ai.GreedyPlayer):
    """Greedy, with a ``prepare`` that writes which process called it to the file ``log``."""

    def __init__(self, log, seed=None):
        super().__init__(seed)
        self.log = log

    def prepare(self, board, progress=True):
        with open(self.log, "a") as f:
            f.write(f"{os.getpid()}\n")


def test_players_are_prepared_once_in_the_parent_before_workers_start(tmp_path, monkeypatch):
    """Two workers compiling the search at once race on numba's cache, so a match of several jobs
    prepares each side itself first; with one job there is no race and nothing to do first."""
    from fanorona.engine import arena

    log = tmp_path / "prepared"
    monkeypatch.setattr(arena, "_EXTRA_KINDS", {})
    arena.register_player("preparing", lambda spec, seed: PreparingGreedy(log, seed))
    run_match("preparing", "greedy", 2, size=(5, 3), seed=3, jobs=2, progress=False)
    assert log.read_text().split() == [str(os.getpid())]
    log.unlink()
    run_match("preparing", "greedy", 2, size=(5, 3), seed=3, jobs=1, progress=False)
    assert not log.exists()


def test_a_recorded_match_goes_on_from_the_games_it_has_and_plays_the_rest(tmp_path):
    path = tmp_path / "match.jsonl"
    match = dict(size=(5, 3), seed=11, progress=False)
    whole = run_match("alphabeta:depth=1", "greedy", 4, **match)
    run_match("alphabeta:depth=1", "greedy", 4, record=path, **match)
    header, *games = path.read_text().splitlines()
    assert len(games) == 4
    kept = [json.loads(line) for line in games if json.loads(line)["index"] in (0, 2)]
    for game in kept:
        game["reason"] = "read from the record"  # a game played again would not say so
    cut = json.dumps(json.loads(games[-1]))[:20]  # a line the stop cut short
    path.write_text("\n".join([header, *map(json.dumps, kept), cut]))
    again = run_match("alphabeta:depth=1", "greedy", 4, record=path, **match)
    assert [g.reason == "read from the record" for g in again.games] == [True, False, True, False]
    assert [g.turns for g in again.games] == [g.turns for g in whole.games]
    assert len(path.read_text().splitlines()) == 5  # the header and four whole games


def test_a_record_of_another_match_is_refused_and_left_as_it_was(tmp_path):
    path = tmp_path / "match.jsonl"
    run_match("greedy", "random", 2, size=(5, 3), seed=1, progress=False, record=path)
    before = path.read_text()
    with pytest.raises(ValueError, match="records another match"):
        run_match("greedy", "random", 2, size=(5, 3), seed=2, progress=False, record=path)
    assert path.read_text() == before


def test_a_match_record_reads_back_as_the_match_and_its_games(tmp_path):
    path = tmp_path / "match.jsonl"
    result = run_match("greedy", "random", 4, size=(5, 3), seed=5, progress=False, record=path)
    settings, games = recorded_games(path)
    assert settings == json.loads(json.dumps(result.settings()))
    assert sorted(games, key=lambda g: g.index) == result.games


def test_a_damaged_record_is_named_by_its_line_and_a_cut_last_line_left_out(tmp_path):
    path = tmp_path / "match.jsonl"
    run_match("greedy", "random", 4, size=(5, 3), seed=5, progress=False, record=path)
    header, *games = path.read_text().splitlines()
    path.write_text("\n".join([header, *games[:3], games[3][:25]]))
    assert len(recorded_games(path)[1]) == 3
    path.write_text("\n".join([header, games[0], "{not json", *games[2:]]))
    with pytest.raises(ValueError, match="line 3: not a recorded game"):
        recorded_games(path)
    path.write_text("a heading that is no match\n" + "\n".join(games))
    with pytest.raises(ValueError, match="line 1"):
        recorded_games(path)


def test_recorded_positions_are_scored_for_the_side_to_move_and_capped_games_left_out(tmp_path):
    from benchmarks.evaluation_data import record_rows
    from fanorona.movegen import bitsets

    path, rules = tmp_path / "match.jsonl", Rules().with_(quiet_draw=4)
    match = dict(size=(5, 3), rules=rules, seed=5, max_turns=12, progress=False, record=path)
    result = run_match("greedy", "random", 8, **match)
    ends = {(g.winner, g.adjudicated) for g in result.games}
    assert {("a", False), ("b", False), (None, False)} <= ends and any(e[1] for e in ends)
    rows = record_rows(path)
    played = [g for g in result.games if not g.adjudicated]
    assert len(rows) == sum(len(g.turns) for g in played)
    at = 0
    for game in played:
        board = Board((5, 3), rules)
        for turn in game.opening.split():
            board.push(turn)
        for turn in game.turns:
            a_to_move = (board.to_move == "white") == game.a_white
            expected = 0.5 if game.winner is None else float((game.winner == "a") == a_to_move)
            assert rows[at] == ("records", 5, 3, *bitsets(board), expected)
            board.push(turn)
            at += 1


def test_turn_cap_adjudicates_on_stones():
    result = run_match("random", "random", 2, size=(9, 5), seed=1, max_turns=3, progress=False)
    assert all(g.adjudicated and len(g.turns) == 3 for g in result.games)
    assert "2 of 2 games reached that cap and were adjudicated on stones" in result.table()


def test_player_objects_can_play_a_match():
    result = run_match(
        ai.AlphaBetaPlayer(depth=1), ai.RandomPlayer(seed=2), 2, size=(3, 3), seed=0, progress=False
    )
    assert result.a == "alphabeta:depth=1" and result.b == "random"
    assert result.nodes_per_second("a") > 0 and result.nodes_per_second("b") is None


def made_up_match(winners):
    games = [
        GameResult(i, i % 2 == 0, "e2e3A", [], w, "made up", False) for i, w in enumerate(winners)
    ]
    return MatchResult("A", "B", (9, 5), Rules(), 200, 0, games)


def test_the_rating_is_the_tournaments_bradley_terry_fit_anchored_on_b():
    from fanorona.engine.ratings import Result, fit

    match = made_up_match(["a", "a", "a", "b", "a", None, "b", "a"])
    results = [
        (
            Result("A", "B", g.points, g.index // 2)
            if g.a_white
            else Result("B", "A", 1 - g.points, g.index // 2)
        )
        for g in match.games
    ]
    assert match.elo == pytest.approx(fit(results, {"B": 0.0})[0]["A"])
    assert match.ratings()["B"].elo == 0 and match.ratings()["B"].anchor
    assert 0 < match.elo < 400 * math.log10(5.5 / 2.5) + 1  # the prior pulls it towards a draw


def test_clean_sweep_has_no_bound_on_its_side():
    for winners, who in ((["a"] * 4, "A"), (["b"] * 4, "B")):
        match = made_up_match(winners)
        low, high = match.elo_interval()
        assert (high == math.inf) == (who == "A") and (low == -math.inf) == (who == "B")
        assert math.isfinite(match.elo) and (match.elo > 0) == (who == "A")
        sentence = match.elo_sentence()
        assert (
            f"{who} won every game, so one end has no bound" in sentence and "infinity" in sentence
        )


def test_interval_surrounds_the_estimate_and_is_about_even_for_an_even_match():
    close = made_up_match(["a", "b", None, "a", "b", "a", None, "b"])
    low, high = close.elo_interval()
    assert close.score == 0.5 and low < close.elo < high and low < 0 < high
    assert abs(close.elo) < 60
    lopsided = made_up_match(["a"] * 7 + ["b"])
    low, high = lopsided.elo_interval()
    assert low <= lopsided.elo < high and lopsided.elo > 150
    assert (
        "Bradley-Terry" in lopsided.elo_sentence()
        and "4 pairs resampled" in lopsided.elo_sentence()
    )


def test_command_prints_table_and_writes_json(tmp_path, capsys):
    path = tmp_path / "match.json"
    assert (
        main(
            [
                "greedy",
                "random",
                "--games",
                "4",
                "--size",
                "5x3",
                "--seed",
                "2",
                "--json",
                str(path),
                "--quiet",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "greedy vs random: 4 games on 5x3, standard rules, seed 2" in out
    data = json.loads(path.read_text())
    summary = data["summary"]
    assert summary["wins"] + summary["draws"] + summary["losses"] == len(data["games"]) == 4
    assert summary["score"] == pytest.approx((summary["wins"] + summary["draws"] / 2) / 4)
    assert summary["elo_interval"][0] <= summary["elo"] or summary["elo_interval"][0] == "-inf"


@pytest.mark.parametrize(
    "spec, message",
    [
        ("chess", "no player called 'chess'"),
        ("alphabeta:dept=3", "alphabeta has no option 'dept'"),
        ("alphabeta:depth=three", "depth must be a whole number"),
        ("alphabeta:depth", "write the option as depth=value"),
        ("greedy:depth=2", "greedy has no option 'depth' .it takes no options"),
        ("level9", "levels go from 1 to 5"),
        ("levelx", "a level is written level1 to level5"),
        ("", "a player is named by text"),
    ],
)
def test_spec_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        ai.make_player(spec)


def test_specs_build_the_players_they_name():
    assert ai.make_player("alphabeta:depth=3").depth == 3
    assert ai.make_player("alphabeta:time=0.5").time_limit == 0.5
    assert ai.make_player("mcts:playouts=200").playouts == 200
    assert ai.make_player("level4").name == "level4"


def test_command_errors(capsys):
    with pytest.raises(SystemExit):
        main(["greedy", "alphabeta:dept=3"])
    assert "alphabeta has no option 'dept'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["greedy", "random", "--size", "9by5"])
    assert "WIDTHxHEIGHT" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["greedy", "random", "--size", "4x4"])
    assert "odd number" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["greedy", "random", "--games", "0"])
    assert "games is a whole number" in capsys.readouterr().err


def test_a_kind_nobody_registered_is_refused_by_name():
    from fanorona.engine import arena

    with pytest.raises(ValueError, match="no player called 'nosuch'"):
        arena.arena_player("nosuch:depth=2")


def test_a_registered_kind_is_built_from_its_spec_and_seed(monkeypatch):
    from fanorona.engine import arena

    monkeypatch.setattr(arena, "_EXTRA_KINDS", {})
    arena.register_player("echo", lambda spec, seed: (spec, seed))
    assert arena.arena_player("echo:x=1", seed=7) == ("echo:x=1", 7)
    assert arena.arena_player("greedy").name == "greedy"


def test_the_strength_match_plays_two_builds_over_the_protocol_and_prints_by_colour(capsys):
    """Both sides are the working tree here (building a commit takes a worktree and a venv, see
    tests/test_strength.py); each is served in a process of its own."""
    from benchmarks import bench_strength

    argv = ["--games", "2", "--new-spec", "greedy", "--old-spec", "random", "--max-turns", "4"]
    assert bench_strength.main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("greedy WORKTREE against random WORKTREE, 0.1 s a turn, at most 2 games")
    assert "score of the new side as White" in out and "as Black" in out
    assert "score " in out and "Elo " in out
    with pytest.raises(SystemExit):
        bench_strength.main(["--games", "3"])


def test_the_strength_match_counts_the_pairs_one_colour_won_twice():
    from benchmarks.bench_strength import colour_won_both

    def game(index, a_white, winner):
        return GameResult(index, a_white, "d3e3W", [], winner, "", False)

    result = MatchResult("A", "B", (9, 5), Rules(), 400, 1)
    pairs = [
        ("a", "b"),  # White won both: A as White, then B as White
        ("b", "a"),  # Black won both
        ("a", "a"),  # A won both: the player decided, not the opening
        (None, None),  # two draws
        ("b",),  # a pair not yet finished
    ]
    result.games = [
        game(2 * pair + k, k == 0, winner)
        for pair, winners in enumerate(pairs)
        for k, winner in enumerate(winners)
    ]
    assert colour_won_both(result) == {"white": 1, "black": 1}
