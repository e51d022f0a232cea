"""Tournaments: the schedules, the ratings, the database, resuming, the command, the checker,
nbgrader's folders, and a whole tournament with hostile players on a 2-worker Dask cluster."""

import json
import math
import os
import signal
import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path

import pytest
from test_tournament_isolation import ANSWERER, FILLER, HOSTILE, SCHEDULER_CALLER, SNOOP

import fanorona as fa
from fanorona.engine.ratings import Result, crosstable, fit, rate
from fanorona.tournament import (
    Limits,
    Tournament,
    builtin,
    check_player,
    dask_client,
    from_file,
    submissions,
)
from fanorona.tournament.__main__ import main
from fanorona.tournament.players import TEMPLATE
from fanorona.tournament.schedule import OpeningBook, round_robin, swiss_round
from fanorona.tournament.store import Store

# The hostile players the issue lists: an endless loop, a memory bomb, forking, reading another's
# file, killing its parent, printing without end, an illegal and a malformed turn; and those below
# (calling the Dask scheduler, filling /tmp and /dev/shm, answering for the host).  The one that
# thinks between its turns needs a slow opponent to gain anything: test_tournament_isolation.
NIGHT = [
    "endless_loop",
    "memory_bomb",
    "forker",
    "parent_killer",
    "endless_printer",
    "illegal_turn",
    "malformed_turn",
]

NIGHT_MARKER = f"night-filler-{os.getpid()}"

SMALL = dict(
    size=(5, 5), max_turns=16, limits=Limits(turn_seconds=0.4, memory_mb=256), opening_plies=2
)
# A second template player: the first legal turn, no search (deterministic and weak).
FIRST_TURN = "def choose_turn(board):\n    return board.legal_turns()[0]\n"


def templates():
    return [{"name": "template", "source": TEMPLATE}, {"name": "first_turn", "source": FIRST_TURN}]


# -- schedules -------------------------------------------------------------------------------------


def test_round_robin_meets_every_pair_once_with_openings_that_do_not_repeat():
    book = OpeningBook((9, 5), fa.Rules(), 2, seed=4)
    pairings = round_robin(list(range(8)), book, seed=4)
    assert sorted(tuple(sorted((p.a, p.b))) for p in pairings) == list(combinations(range(8), 2))
    openings = [p.opening for p in pairings]
    assert len(set(openings)) == len(openings) == 28 > 5, (
        "a deeper book than White's five first turns"
    )
    for opening in openings:
        board = fa.Board()
        for turn in opening:
            board.push(turn)  # every opening is legal
        assert len(opening) == 2 and board.outcome() is None
    again = round_robin(list(range(8)), OpeningBook((9, 5), fa.Rules(), 2, seed=4), seed=4)
    assert again == pairings
    assert (
        round_robin(list(range(8)), OpeningBook((9, 5), fa.Rules(), 2, seed=5), seed=5) != pairings
    )


def test_swiss_pairs_by_points_without_repeats_and_gives_the_bye_to_a_new_player_each_round():
    book = OpeningBook((9, 5), fa.Rules(), 1, seed=0)
    points = dict.fromkeys(range(7), 0.0)
    met, byes = set(), []
    for round_ in range(3):
        pairings, bye = swiss_round(round_, sorted(points.items()), met, book)
        assert len(pairings) == 3 and bye is not None
        byes.append(bye)
        met.add(frozenset((bye, None)))
        for p in pairings:
            assert frozenset((p.a, p.b)) not in met
            met.add(frozenset((p.a, p.b)))
            points[min(p.a, p.b)] += 1  # the lower number always wins
        points[bye] += 1
    assert len(set(byes)) == 3
    first, _ = swiss_round(0, [(p, 0.0) for p in range(6)], set(), book)
    assert [(p.a, p.b) for p in first] == [(0, 1), (2, 3), (4, 5)]


# -- ratings ---------------------------------------------------------------------------------------


def test_two_players_without_a_prior_fit_the_logistic_of_the_score():
    results = [Result("a", "b", p, n) for n, p in enumerate((1.0, 1.0, 1.0, 0.0))] + [
        Result("b", "a", p, n) for n, p in enumerate((0.0, 0.0, 0.0, 1.0))
    ]  # A: 3 of 4 with either colour
    ratings, white = fit(results, anchors={"b": 0.0}, prior=0)
    assert ratings["b"] == 0
    assert ratings["a"] == pytest.approx(400 * math.log10(3), abs=0.5)  # 3 of 4: +191
    assert white == pytest.approx(0, abs=1)  # colours were balanced


def test_draws_count_half_and_anchors_stay_where_they_are_put():
    results = [Result("a", "b", 0.5, n) for n in range(4)] + [
        Result("b", "c", 1.0, 9),
        Result("c", "b", 0.0, 9),
    ]
    ratings, _ = fit(results, anchors={"a": 100.0, "c": -50.0})
    assert ratings["a"] == 100.0 and ratings["c"] == -50.0
    assert -50 < ratings["b"] < 200


def simulated(true, games=20, seed=1):
    import random

    rng, results = random.Random(seed), []
    for a, b in combinations(sorted(true), 2):
        for _ in range(games // 2):
            for w, bl in ((a, b), (b, a)):
                p = 1 / (1 + 10 ** (-(true[w] - true[bl]) / 400))
                results.append(Result(w, bl, float(rng.random() < p), (a, b, _)))
    return results


def test_the_fit_recovers_the_order_and_the_intervals_hold_the_truth():
    true = {"level1": 0, "a": 150, "b": 300, "c": 450}
    ratings = rate(simulated(true, games=40), samples=60, seed=2)
    assert [r.name for r in ratings.rows] == ["c", "b", "a", "level1"]
    for r in ratings.rows:
        assert r.low <= r.elo <= r.high
        if not r.anchor:
            assert r.low < true[r.name] < r.high and r.high - r.low < 400
    assert ratings["level1"].anchor and ratings["level1"].elo == 0


def test_a_clean_sweep_has_no_upper_bound_and_the_field_mean_is_zero_without_anchors():
    results = [Result("x", "y", 1.0, n) for n in range(3)] + [Result("y", "x", 0.0, 5)]
    ratings = rate(results, anchors={}, samples=20)
    assert ratings["x"].high == math.inf and ratings["y"].low == -math.inf
    assert math.isfinite(ratings["x"].elo) and ratings["x"].elo + ratings["y"].elo == pytest.approx(
        0
    )
    assert "+inf" in ratings.table() and "the field's mean = 0" in ratings.table()


def test_the_crosstable_counts_points_from_each_side():
    results = [Result("a", "b", 1.0), Result("b", "a", 0.5), Result("a", "c", 0.0)]
    lines = crosstable(results, ["a", "b", "c"]).splitlines()
    assert lines[1].split()[2:] == ["·", "1½/2", "0/1", "1½/3"]
    assert lines[2].split()[2:] == ["½/2", "·", "-", "½/2"]


def test_the_plot_draws_one_line_a_player(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    ratings = rate(simulated({"level1": 0, "a": 200}, games=6), samples=10)
    ax = ratings.plot()
    assert [t.get_text() for t in ax.get_yticklabels()] == [r.name for r in reversed(ratings.rows)]
    ax.figure.savefig(tmp_path / "r.png")
    assert (tmp_path / "r.png").stat().st_size > 1000


# -- players from files and folders
# -----------------------------------------------------------------


def test_players_from_nbgrader_submitted_folders(tmp_path):
    (tmp_path / "alice" / "tournament").mkdir(parents=True)
    (tmp_path / "alice" / "tournament" / "player.py").write_text(TEMPLATE)
    (tmp_path / "bob" / "tournament").mkdir(parents=True)
    cell = {
        "cell_type": "code",
        "source": ["%%writefile {folder}/player.py\n", FIRST_TURN],
        "metadata": {"nbgrader": {"grade_id": "tournament_player"}},
        "outputs": [],
        "execution_count": None,
    }
    other = {
        "cell_type": "code",
        "source": "run_the_tournament()",
        "metadata": {},
        "outputs": [],
        "execution_count": None,
    }
    (tmp_path / "bob" / "tournament" / "11_tournament.ipynb").write_text(
        json.dumps({"cells": [other, cell]})
    )
    entries = submissions(tmp_path, "tournament")
    assert [e["name"] for e in entries] == ["alice", "bob"]
    assert entries[1]["source"].strip() == FIRST_TURN.strip()
    (tmp_path / "carol" / "tournament").mkdir(parents=True)
    with pytest.raises(ValueError, match="carol.tournament: no player file or notebook"):
        submissions(tmp_path, "tournament")


def test_bad_entries_are_refused_with_a_sentence(tmp_path):
    with pytest.raises(ValueError, match="no player called 'chess'"):
        builtin("chess")
    with pytest.raises(ValueError, match=r"a .py file, a notebook \(.ipynb\) or a program"):
        from_file(tmp_path / "x.txt")
    with pytest.raises(ValueError, match="repeated: \\['level1'\\]"):
        Tournament.create(tmp_path / "t.sqlite", [builtin("level1"), builtin("level1")])
    with pytest.raises(ValueError, match="needs a number of rounds"):
        Tournament.create(
            tmp_path / "t.sqlite", [builtin("level1"), builtin("level2")], schedule="swiss"
        )


# -- the database, resuming, reproducing
# -------------------------------------------------------------


def small_tournament(path, seed=3):
    entries = [builtin("level1"), builtin("level2"), builtin("level3")] + templates()[:1]
    return Tournament.create(path, entries, seed=seed, **SMALL)


def test_the_database_keeps_replayable_games_and_its_ratings_come_out_the_same(tmp_path):
    t = small_tournament(tmp_path / "t.sqlite")
    assert t.play(progress=False) == 12
    assert os.stat(tmp_path / "t.sqlite").st_mode & 0o777 == 0o600
    table = t.table(samples=30)
    t.close()
    again = Tournament(tmp_path / "t.sqlite")
    assert again.play(progress=False) == 0 and again.table(samples=30) == table
    for number in range(1, 13):
        game = again.game(number)
        board = game.board()
        assert game.outcome == (board.outcome() or board.adjudicate())
        assert len(game.turns) >= 2, (
            "the opening's turns are in the record, so it replays from the start"
        )
    assert again.export_csv(tmp_path / "t.csv") == 12
    rows = (tmp_path / "t.csv").read_text().splitlines()
    assert rows[0].startswith("game,round,white,black,white_points") and len(rows) == 13


def test_reopening_with_other_settings_is_refused(tmp_path):
    small_tournament(tmp_path / "t.sqlite").close()
    with pytest.raises(ValueError, match="holds another tournament .it differs in seed"):
        small_tournament(tmp_path / "t.sqlite", seed=4)
    with pytest.raises(ValueError, match="no such tournament database"):
        Tournament(tmp_path / "typo.sqlite")
    assert not (tmp_path / "typo.sqlite").exists()


def test_the_same_command_without_a_seed_resumes_the_seed_it_drew(tmp_path):
    first = small_tournament(tmp_path / "t.sqlite", seed=None)
    again = small_tournament(tmp_path / "t.sqlite", seed=None)
    assert again.settings["seed"] == first.settings["seed"]


def test_a_killed_tournament_resumes_and_gives_the_table_of_an_unbroken_one(tmp_path):
    unbroken = small_tournament(tmp_path / "unbroken.sqlite")
    unbroken.play(progress=False)
    command = [
        sys.executable,
        "-m",
        "fanorona.tournament",
        "run",
        str(tmp_path / "killed.sqlite"),
        str(tmp_path / "template.py"),
        "--levels",
        "1,2,3",
        "--size",
        "5x5",
        "--max-turns",
        "16",
        "--time",
        "0.4",
        "--memory",
        "256",
        "--seed",
        "3",
        "--workers",
        "0",
        "--quiet",
        "--samples",
        "30",
    ]
    (tmp_path / "template.py").write_text(TEMPLATE)
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while (
            time.monotonic() < deadline
            and process.poll() is None
            and finished(tmp_path / "killed.sqlite") < 4
        ):
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait()
    kept = finished(tmp_path / "killed.sqlite")
    assert 4 <= kept < 12, f"killed in the middle; it said: {process.stderr.read().decode()[-500:]}"
    assert main(command[3:]) == 0
    resumed = Tournament(tmp_path / "killed.sqlite")
    assert finished(tmp_path / "killed.sqlite") == 12
    assert resumed.table(samples=30) == unbroken.table(samples=30)


def finished(path):
    if not Path(path).exists():
        return 0
    try:
        store = Store(path)
        n = store.db.execute("SELECT COUNT(*) FROM games WHERE finished IS NOT NULL").fetchone()[0]
        store.close()
    except Exception:  # the database is being created by the other process
        return 0
    return n


def test_a_swiss_tournament_plays_its_rounds(tmp_path):
    entries = [builtin("level1"), builtin("level2"), builtin("level3")] + templates()
    t = Tournament.create(
        tmp_path / "s.sqlite",
        entries,
        schedule="swiss",
        rounds=2,
        games_per_pairing=2,
        seed=1,
        **SMALL,
    )
    assert t.play(progress=False) == 8  # 2 rounds of 2 pairings of 2 games, a bye each round
    byes = t.store.db.execute("SELECT COUNT(*) FROM pairings WHERE b IS NULL").fetchone()[0]
    assert t.store.rounds() == 2 and byes == 2
    assert sum(t.store.standings().values()) == 8 + 2


# -- the whole tournament on Dask, hostile players and all
# --------------------------------------------


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """Levels 1 and 2, two template players and the hostile players, on a local Dask cluster of
    2."""
    path = tmp_path_factory.mktemp("night") / "night.sqlite"
    hostile = [{"name": name, "source": HOSTILE[name][0]} for name in NIGHT] + [
        {"name": "snoop", "source": SNOOP},
        {"name": "scheduler_caller", "source": SCHEDULER_CALLER.replace("PORT", "8786")},
        {"name": "filler", "source": FILLER.replace("MARKER", NIGHT_MARKER)},
        {"name": "answerer", "source": ANSWERER},
    ]
    entries = [builtin("level1"), builtin("level2")] + templates() + hostile
    t = Tournament.create(path, entries, games_per_pairing=1, seed=7, **SMALL)
    with dask_client(workers=2, dashboard=False) as client:
        info = client.scheduler_info()
        played = t.play(client, progress=False)
    yield t, played, info
    t.close()


def test_the_night_runs_to_its_end_on_two_local_workers_listening_on_localhost(night):
    t, played, info = night
    assert info["services"] == {}, "without a dashboard the scheduler serves no HTTP"
    assert all(w["services"] == {} for w in info["workers"].values())
    assert [p for d in ("/tmp", "/dev/shm") for p in os.listdir(d) if NIGHT_MARKER in p] == []
    n = len(t.settings["players"])
    assert played == n * (n - 1) // 2 and not t.store.pending()
    assert len(info["workers"]) == 2
    assert info["address"].startswith("tcp://127.0.0.1:")
    assert all(w.startswith("tcp://127.0.0.1:") for w in info["workers"])


def test_in_the_night_every_hostile_player_forfeits_and_every_other_game_stands(night):
    t, _, _ = night
    well_behaved = {"level1", "level2", "template", "first_turn"}
    for game in t.store.db.execute(
        "SELECT white, black, winner, reason, forfeit FROM results"
    ).fetchall():
        white, black, winner, reason, forfeit = game
        if {white, black} <= well_behaved:
            assert forfeit is None, game
            assert not reason.startswith(("white forfeits", "black forfeits")), game
        elif white in well_behaved or black in well_behaved:
            hostile = "white" if white not in well_behaved else "black"
            assert forfeit == hostile and winner != hostile, game
        else:
            assert forfeit in ("white", "black"), game
    # a game between well-behaved players replays to the same record when played again alone
    from fanorona.tournament.play import play

    number, white, black, seed, opening = t.store.db.execute(
        "SELECT g.id, g.white, g.black, g.seed, p.opening FROM games g JOIN pairings p ON g.pairing"
        " = p.id JOIN players w ON w.id = g.white JOIN players b ON b.id = g.black WHERE w.name ="
        " 'level2' AND b.name = 'template' OR w.name = 'template' AND b.name = 'level2'"
    ).fetchone()
    alone = play(t._job(number, white, black, seed, json.loads(opening), t.store.players()))
    assert alone["record"] == t.store.game_record(number)


def test_the_nights_ratings_come_from_the_database_alone(night):
    t, _, _ = night
    first = t.table(samples=20)
    reopened = Tournament(t.store.path)
    assert reopened.table(samples=20) == first
    ratings = reopened.ratings(samples=20)
    assert ratings["level1"].anchor and ratings["level1"].elo == 0
    hostile = [r for r in ratings.rows if r.name in NIGHT]
    assert max(r.elo for r in hostile) < ratings["template"].elo
    assert "Forfeits:" in first and "ran out of memory" in first
    reopened.close()


# -- the command and the checker
# ---------------------------------------------------------------------


def test_help_names_the_commands(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for word in ("run", "table", "check", "template", "resumes a killed tournament"):
        assert word in out


def test_the_command_runs_a_tournament_of_levels_and_writes_csv_and_plot(tmp_path, capsys):
    db = tmp_path / "demo.sqlite"
    assert (
        main(
            [
                "run",
                str(db),
                "--levels",
                "1,2",
                "--size",
                "5x5",
                "--max-turns",
                "10",
                "--seed",
                "1",
                "--workers",
                "0",
                "--quiet",
                "--samples",
                "10",
                "--csv",
                str(tmp_path / "d.csv"),
                "--plot",
                str(tmp_path / "d.png"),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "roundrobin tournament of 2 players on 5x5" in out and "level2" in out
    assert "2 games written" in out and (tmp_path / "d.png").exists()
    assert main(["table", str(db), "--samples", "10", "--anchor", "level2=500"]) == 0
    assert "level2 = +500" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["run", "x.sqlite", "--levels", "one"], "levels are numbers"),
        (["table", "nothing.sqlite"], "no such tournament database"),
        (["table", "x.sqlite", "--anchor", "level1"], "NAME=RATING"),
        (["run", "x.sqlite", "--levels", "9"], "levels go from 1 to 5"),
    ],
)
def test_command_errors(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        main(argv)
    assert message in capsys.readouterr().err


def test_the_template_passes_the_checker_and_a_broken_player_does_not(tmp_path, capsys):
    path = tmp_path / "mine.py"
    assert main(["template", str(path)]) == 0
    report = check_player(path, games=2, size=(5, 5), max_turns=20)
    assert report.ok and report.wins == 2 and "Ready to submit" in str(report)
    broken = tmp_path / "broken.py"
    broken.write_text("def choose_turn(board):\n    return 'e2e3'\n")
    assert main(["check", str(broken), "--games", "2"]) == 1
    out = capsys.readouterr().out
    assert "Not ready" in out and "which is not a legal turn here" in out


def test_the_command_plays_on_an_existing_scheduler(tmp_path, capsys):
    with dask_client(workers=1, dashboard=False) as client:
        address = client.scheduler.address
        assert address.startswith("tcp://127.0.0.1:")
        assert (
            main(
                [
                    "run",
                    str(tmp_path / "s.sqlite"),
                    "--levels",
                    "1,2",
                    "--size",
                    "5x5",
                    "--max-turns",
                    "10",
                    "--seed",
                    "2",
                    "--scheduler",
                    address,
                    "--quiet",
                    "--samples",
                    "10",
                ]
            )
            == 0
        )
        assert "2 games finished, 0 to play" in capsys.readouterr().out
        prefixes = client.run_on_scheduler(
            lambda dask_scheduler: list(dask_scheduler.task_prefixes)
        )
        assert "play" in prefixes, "the games were tasks of this scheduler"


def test_swiss_repeats_a_pairing_only_when_no_other_is_left():
    book = OpeningBook((5, 5), fa.Rules(), 1, seed=0)
    everyone = {frozenset(p) for p in combinations(range(4), 2)}
    pairings, bye = swiss_round(3, [(p, 0.0) for p in range(4)], everyone, book)
    assert bye is None and sorted((p.a, p.b) for p in pairings) == [(0, 1), (2, 3)]
    almost = everyone - {frozenset((0, 3)), frozenset((1, 2))}
    pairings, _ = swiss_round(3, [(p, 0.0) for p in range(4)], almost, book)
    assert sorted((p.a, p.b) for p in pairings) == [(0, 3), (1, 2)]


def test_last_years_levels_anchor_this_years_ratings(tmp_path, capsys):
    last = small_tournament(tmp_path / "last.sqlite")
    last.play(progress=False)
    levels = last.builtin_ratings()
    assert set(levels) == {"level1", "level2", "level3"} and levels["level1"] == 0
    this = Tournament.create(
        tmp_path / "this.sqlite",
        [builtin("level1"), builtin("level3")] + templates(),
        seed=5,
        **SMALL,
    )
    this.play(progress=False)
    assert (
        main(
            [
                "table",
                str(tmp_path / "this.sqlite"),
                "--anchors-from",
                str(tmp_path / "last.sqlite"),
                "--samples",
                "5",
            ]
        )
        == 0
    )
    out = capsys.readouterr()
    assert f"level3 = {levels['level3']:+g}" in out.out and "warning" not in out.err
    line = next(row for row in out.out.splitlines() if " level3 " in row)
    assert f"{levels['level3']:+7.0f}" in line and "(anchor)" in line


def test_the_timed_levels_fit_a_short_turn_limit_and_read_their_endgame_table(tmp_path):
    """level4 searches 1 s a turn and reads the 4-stone table: in a 0.4 s tournament it must not
    forfeit."""
    t = Tournament.create(
        tmp_path / "t.sqlite", [builtin("level1"), builtin("level4")], seed=1, **SMALL
    )
    t.play(progress=False)
    reasons = [r for (r,) in t.store.db.execute("SELECT reason FROM results")]
    assert len(reasons) == 2 and not any("forfeits" in r for r in reasons), reasons
