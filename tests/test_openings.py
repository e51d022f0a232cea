"""The opening books of the strength match: every line a few turns deep, the balanced screen, the
book file, and a match that never plays an opening twice."""

import pytest

from benchmarks import bench_strength, openings
from benchmarks.openings import all_lines, balanced, read_book, screen, split
from fanorona import Board, Rules
from fanorona.engine.arena import GameResult, MatchResult


def test_every_line_ends_in_a_position_of_its_own():
    lines = all_lines(turns=2)
    ends = set()
    for line in lines:
        board = Board()
        for turn in line.split():
            board.push(turn)
        assert len(line.split()) == 2 and board.outcome() is None
        ends.add(board.fen())
    assert len(ends) == len(lines) == 39


def _game(index, a_white, winner):
    return GameResult(index, a_white, f"line{index // 2}", [], winner, "", False)


def test_the_screen_keeps_the_pairs_no_colour_won_twice():
    result = MatchResult("A", "A", (9, 5), Rules(), 400, 1)
    outcomes = [
        ("a", "b"),  # White won both: A as White, then B as White: dropped
        ("b", "a"),  # Black won both: dropped
        ("a", "a"),  # the same player won both, once with each colour: kept
        (None, None),  # two draws: kept
        ("a", None),  # a win and a draw: kept
    ]
    result.games = [
        _game(2 * pair + k, k == 0, winner)
        for pair, winners in enumerate(outcomes)
        for k, winner in enumerate(winners)
    ]
    assert balanced(result) == ["line2", "line3", "line4"]


def test_a_position_is_kept_only_if_no_round_gave_its_pair_to_one_colour(monkeypatch):
    """Round 1 drops what White won twice; round 2 (another seed) plays only the survivors and
    drops what Black won twice there; each round's split is reported."""
    wins = {
        1: {"w1": ("a", "b"), "ok": ("a", "a"), "b2": (None, None), "d": ("a", None)},
        2: {"ok": (None, "b"), "b2": ("b", "a"), "d": (None, None)},
    }
    played = []

    def run_match(a, b, games, size, jobs, seed, max_turns, openings, progress):
        played.append((seed, list(openings)))
        result = MatchResult(a, b, size, Rules(), max_turns, seed)
        result.games = [
            GameResult(2 * i + k, k == 0, line, [], wins[seed][line][k], "", False)
            for i, line in enumerate(openings)
            for k in range(2)
        ]
        assert games == 2 * len(openings)
        return result

    monkeypatch.setattr(openings.arena, "run_match", run_match)
    reports = []
    kept = screen(["w1", "ok", "b2", "d"], "A", seed=1, rounds=2, report=reports.append)
    assert kept == ["ok", "d"]
    assert played == [(1, ["w1", "ok", "b2", "d"]), (2, ["ok", "b2", "d"])]
    assert reports == [
        {"white twice": 1, "black twice": 0, "split or drawn": 3},
        {"white twice": 0, "black twice": 1, "split or drawn": 2},
    ]


def test_the_split_counts_each_pair_once():
    result = MatchResult("A", "A", (9, 5), Rules(), 400, 1)
    result.games = [_game(0, True, "a"), _game(1, False, "b"), _game(2, True, "b")]
    assert split(result) == {"white twice": 1, "black twice": 0, "split or drawn": 1}


def test_a_screen_plays_each_candidate_as_a_self_play_pair():
    candidates = all_lines((5, 3), turns=1)
    kept = screen(candidates, "alphabeta:depth=1", size=(5, 3))
    assert set(kept) <= set(candidates)


def test_a_book_file_is_read_with_its_comments_and_refused_with_a_repeat(tmp_path):
    book = tmp_path / "book.txt"
    book.write_text("# a comment\nd3e3A f4f3A\n\ne2e3A d4d3A  # kept\n")
    assert read_book(book) == ["d3e3A f4f3A", "e2e3A d4d3A"]
    book.write_text("d3e3A\nd3e3A\n")
    with pytest.raises(ValueError, match="line 2: 'd3e3A' is in the book twice"):
        read_book(book)
    book.write_text("# nothing\n")
    with pytest.raises(ValueError, match="no openings in it"):
        read_book(book)


def test_the_strength_match_refuses_more_pairs_than_the_book_has(tmp_path, capsys):
    book = tmp_path / "book.txt"
    book.write_text("d3e3A f4f3A\n")
    with pytest.raises(SystemExit):
        bench_strength.main(["--games", "4", "--book", str(book)])
    assert "the book has 1 openings, fewer than the 2 pairs" in capsys.readouterr().err


def test_an_sprt_match_stops_when_the_test_decides(tmp_path, capsys):
    """Greedy against random, served over the protocol: the SPRT (wide hypotheses) accepts H1
    long before the games run out, and every pair opened differently."""
    argv = ["--new-spec", "greedy", "--old-spec", "random", "--sprt", "--elo0", "0"]
    argv += ["--elo1", "400", "--games", "38", "--record", str(tmp_path / "games.jsonl")]
    assert bench_strength.main(argv) == 0
    out = capsys.readouterr().out
    assert "H1 accepted" in out.splitlines()[-2], out
    lines = (tmp_path / "games.jsonl").read_text().splitlines()[1:]
    assert 2 <= len(lines) < 38
    openings = [line.split('"opening": ')[1].split('"')[1] for line in lines]
    assert len(set(openings)) == len(openings) / 2
