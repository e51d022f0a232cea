"""Hostile players: each loses its game with a sentence saying what it did, and nothing else is
harmed (the test process, which is the players' parent here, lives; the database is unchanged)."""

import ast
import dataclasses
import os
import sqlite3

import pytest

import fanorona as fa
from fanorona.tournament.play import play
from fanorona.tournament.players import TEMPLATE
from fanorona.tournament.sandbox import is_root

LIMITS = {"turn_seconds": 0.4, "memory_mb": 256, "output_bytes": 1000}

HOSTILE = {
    "endless_loop": (
        "def choose_turn(board):\n    while True:\n        pass\n",
        r"took longer than 0\.4 s to choose a turn",
    ),
    "memory_bomb": (
        (
            "def choose_turn(board):\n    hoard = []\n    while True:\n       "
            " hoard.append(bytes(10**8))\n"
        ),
        r"ran out of memory",
    ),
    "forker": (
        "import os\ndef choose_turn(board):\n    os.fork()\n    return board.legal_turns()[0]\n",
        r"tried to start another process or thread",
    ),
    "thread_starter": (
        (
            "import threading\ndef choose_turn(board):\n   "
            " threading.Thread(target=print).start()\n    return board.legal_turns()[0]\n"
        ),
        r"tried to start another process or thread",
    ),
    "parent_killer": (
        (
            "import os, signal\ndef choose_turn(board):\n    os.kill(os.getppid(),"
            " signal.SIGKILL)\n    return board.legal_turns()[0]\n"
        ),
        r"PermissionError",
    ),
    "endless_printer": (
        "def choose_turn(board):\n    while True:\n        print('spam ' * 100)\n",
        r"took longer than 0\.4 s",
    ),
    "illegal_turn": (
        "def choose_turn(board):\n    return 'a1a2'\n",
        r"played 'a1a2', which is not a legal turn here",
    ),
    "malformed_turn": (
        "def choose_turn(board):\n    return {'turn': 42}\n",
        r"returned dict .*, not a Turn or turn text",
    ),
    "crasher": (
        "def choose_turn(board):\n    return 1 / 0\n",
        r"raised ZeroDivisionError at line 2 of its file",
    ),
    "quitter": (
        "import os\ndef choose_turn(board):\n    os._exit(0)\n",
        r"its process ended \(exit code 0\)",
    ),
}
# Reads the other player's copy of its file (every player's folder is under the same temporary
# folder).
SNOOP = """import os, tempfile
def choose_turn(board):
    top = tempfile.gettempdir()
    for folder in os.listdir(top):
        path = os.path.join(top, folder, "player.py")
        if folder.startswith("fanorona-player-") and not os.getcwd().endswith(folder):
            return "READ " + open(path).read()[:20]
    return "FOUND NOTHING"
"""


def game(white_source, black=None, name="hostile", **limits):
    black = black or {"name": "level1", "spec": "level1"}
    return play(
        {
            "game": 1,
            "white": {"name": name, "source": white_source},
            "black": black,
            "size": [5, 5],
            "rules": dataclasses.asdict(fa.Rules()),
            "opening": [],
            "max_turns": 20,
            "limits": {**LIMITS, **limits},
            "seed": 1,
        }
    )


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_player_forfeits_with_a_sentence(name):
    if name in ("parent_killer", "thread_starter", "forker") and not is_root():
        pytest.skip(
            "as another user than root the sandbox cannot give the player a user of its own"
        )
    source, reason = HOSTILE[name]
    result = game(source, name=name)
    assert result["forfeit"] == "white" and result["winner"] == "black"
    assert result["reason"].startswith("white forfeits: ")
    assert __import__("re").search(reason, result["reason"]), result["reason"]
    record = fa.Game.from_json(result["record"])  # the record of a forfeited game still replays
    assert record.outcome.reason == result["reason"] and record.white == name


def test_printing_is_kept_only_up_to_the_limit():
    result = game(HOSTILE["endless_printer"][0])
    assert len(result["output"]["white"]) == LIMITS["output_bytes"]
    assert result["output"]["white"].startswith("spam spam")


@pytest.mark.skipif(not is_root(), reason="a user of its own per player needs root")
def test_a_player_cannot_read_the_other_players_file():
    result = game(SNOOP, black={"name": "template", "source": TEMPLATE})
    assert "PermissionError" in result["reason"], result["reason"]
    assert "READ" not in result["reason"]


def test_a_player_cannot_write_the_results(tmp_path):
    os.chmod(tmp_path, 0o755)  # the folder is open to all: the database's own mode protects it
    db = tmp_path / "night.sqlite"
    from fanorona.tournament.store import Store

    Store(db).close()
    before = db.read_bytes()
    writer = (
        f"def choose_turn(board):\n    open({str(db)!r}, 'ab').write(b'cheat')\n    return"
        " board.legal_turns()[0]\n"
    )
    result = game(writer)
    assert "PermissionError" in result["reason"] if is_root() else True
    assert db.read_bytes() == before
    sqlite3.connect(db).execute("SELECT * FROM games").fetchall()


def test_a_player_that_does_not_load_forfeits_before_its_first_turn():
    result = game("def choose_turn(board)\n    return 1\n")
    assert result["turns"] == 0 and "SyntaxError" in result["reason"]
    result = game("x = 1\n")
    assert "defines no player" in result["reason"]


def test_the_player_runs_in_an_empty_folder_of_its_own_without_the_tournaments_environment():
    spy = (
        "import os\ndef choose_turn(board):\n    print(sorted(os.listdir('.')),"
        " sorted(os.environ))\n    return board.legal_turns()[0]\n"
    )
    result = game(spy)
    folder, environment = ast.literal_eval(
        result["output"]["white"].splitlines()[0].replace("] [", "], [")
    )
    assert folder == ["player.py"]
    assert "PYTHONPATH" not in environment and "PATH" in environment and len(environment) < 10


def test_a_well_behaved_game_is_not_a_forfeit():
    result = game(TEMPLATE, name="template")
    assert result["forfeit"] is None
    assert (
        fa.Game.from_json(result["record"]).board().outcome() is not None
        or "adjudicated" in result["reason"]
    )
