"""Each smaller fault of a tournament night is one sentence at once, naming what is wrong and where,
and changes nothing: damaged submissions (the night goes on without them), damaged databases and
settings, scheduler addresses that cannot work."""

import json
import os
import socket
import sqlite3
import time

import pytest

import fanorona.tournament.cluster  # noqa: F401  (Dask's import is not the wait measured below)
from fanorona.tournament import Tournament, builtin
from fanorona.tournament.__main__ import main
from fanorona.tournament.players import TEMPLATE, submissions
from fanorona.tournament.sandbox import Limits

SMALL = {"size": (5, 5), "max_turns": 4, "limits": Limits(turn_seconds=0.5), "opening_plies": 0}


def notebook(cells) -> str:
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def player_cell(source=TEMPLATE, metadata=None):
    metadata = {"nbgrader": {"grade_id": "tournament_player"}} if metadata is None else metadata
    return {"cell_type": "code", "metadata": metadata, "source": source, "outputs": []}


@pytest.fixture
def submitted(tmp_path):
    """nbgrader's submitted/ with two good students and four damaged submissions."""
    folder = tmp_path / "submitted"
    damaged = {
        "bob": notebook(["this cell is text", player_cell()]),
        "carol": notebook([{"cell_type": "code", "metadata": None, "source": ""}, player_cell()]),
        "dave": notebook([player_cell(source=42)]),
    }
    for student, text in {"alice": notebook([player_cell()]), **damaged}.items():
        (folder / student / "night").mkdir(parents=True)
        (folder / student / "night" / "player.ipynb").write_text(text)
    (folder / "erin" / "night").mkdir(parents=True)
    os.mkfifo(folder / "erin" / "night" / "player.ipynb")
    (folder / "frank" / "night").mkdir(parents=True)
    (folder / "frank" / "night" / "player.py").write_text(TEMPLATE)
    return folder


def test_each_damaged_notebook_is_left_out_naming_its_student_and_file(submitted):
    left_out: list[str] = []
    entries = submissions(submitted, "night", left_out)
    assert [e["name"] for e in entries] == ["alice", "frank"]
    assert len(left_out) == 4
    expected = {
        "bob": "cell 1 is damaged",
        "carol": "cell 1 is damaged",
        "dave": "the source of cell 1 is not text",
        "erin": "not a regular file",
    }
    for sentence, (student, why) in zip(sorted(left_out), sorted(expected.items()), strict=True):
        assert sentence.startswith(f"{student}'s submission is left out: ")
        assert f"{student}/night/player.ipynb" in sentence and why in sentence, sentence
    with pytest.raises(ValueError, match="bob/night/player.ipynb: cell 1 is damaged"):
        submissions(submitted, "night")  # without a list to report in, the first one stops


def test_the_night_goes_on_without_the_damaged_players(submitted, tmp_path, capsys):
    db = tmp_path / "night.sqlite"
    argv = ["run", str(db), str(submitted), "--assignment", "night", "--levels", "1"]
    argv += ["--size", "5x5", "--max-turns", "4", "--workers", "0", "--quiet", "--samples", "5"]
    started = time.monotonic()
    assert main(argv) == 0
    assert time.monotonic() - started < 120, "the FIFO is not waited on"
    captured = capsys.readouterr()
    assert captured.err.count("submission is left out") == 4
    night = Tournament(db)
    assert sorted(night.settings["players"]) == ["alice", "frank", "level1"]
    assert len(night.store.results()) == 6  # three pairings of two games
    night.close()


def small_night(path) -> None:
    Tournament.create(path, [builtin("level1"), builtin("level2")], **SMALL).close()


@pytest.mark.parametrize("damage", ["not SQLite", "cut short"])
def test_a_damaged_database_is_one_sentence(tmp_path, capsys, damage):
    db = tmp_path / "night.sqlite"
    if damage == "not SQLite":
        db.write_text("name,score\nalice,3\n" * 400)
    else:
        small_night(db)
        with sqlite3.connect(db) as filler:  # pages enough that cutting loses some
            filler.execute("CREATE TABLE padding (x)")
            filler.executemany("INSERT INTO padding VALUES (?)", [("x" * 500,)] * 200)
        filler.close()
        db.write_bytes(db.read_bytes()[: 3 * 4096 + 100])
    before = db.read_bytes()
    for command in (["table", str(db)], ["run", str(db), "--workers", "0"]):
        with pytest.raises(SystemExit):
            main(command)
        err = capsys.readouterr().err
        assert f"{db}: not a tournament database that can be read (SQLite says:" in err, err
    assert db.read_bytes() == before


def test_a_setting_that_is_not_json_names_file_and_setting(tmp_path):
    db = tmp_path / "night.sqlite"
    small_night(db)
    with sqlite3.connect(db) as edit:
        edit.execute("UPDATE settings SET value = 'forty-two{' WHERE key = 'max_turns'")
    edit.close()
    with pytest.raises(ValueError, match=rf"{db}: the setting 'max_turns' is not JSON"):
        Tournament(db)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize(
    "address, message",
    [
        ("tls://127.0.0.1:8786", "a tls:// address needs Dask's TLS settings"),
        ("tcp://127.0.0.1:99999", "a port from 1 to 65535"),
        ("127.0.0.1:http", "a port from 1 to 65535"),
        ("CLOSED", "nothing answers there"),
    ],
)
def test_a_scheduler_that_cannot_work_is_refused_at_once(tmp_path, capsys, address, message):
    address = address.replace("CLOSED", f"tcp://127.0.0.1:{closed_port()}")
    db = tmp_path / "night.sqlite"
    started = time.monotonic()
    with pytest.raises(SystemExit):
        main(["run", str(db), "--levels", "1,2", "--scheduler", address])
    assert time.monotonic() - started < 10
    err = capsys.readouterr().err
    assert f"--scheduler {address}: " in err and message in err, err
    assert not db.exists(), "nothing is written before the address is checked"
