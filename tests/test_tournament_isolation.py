"""Hostile players: each loses its game with a sentence saying what it did, and nothing else is
harmed (the test process, which is the players' parent here, lives; the database is unchanged)."""

import ast
import dataclasses
import os
import socket
import sqlite3
import uuid

import pytest

import fanorona as fa
from fanorona.sandbox.command import bubblewrap_works
from fanorona.sandbox.sandbox import BASE_ENV
from fanorona.tournament.play import play
from fanorona.tournament.players import TEMPLATE

LIMITS = {"turn_seconds": 0.4, "memory_mb": 256, "output_bytes": 1000}

HOSTILE = {
    "endless_loop": (
        "def choose_turn(board):\n    while True:\n        pass\n",
        r"did not answer 'go' within 0\.4 s",
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
        r"PermissionError|was killed by signal",
    ),
    "endless_printer": (
        "def choose_turn(board):\n    while True:\n        print('spam ' * 100)\n",
        r"did not answer 'go' within 0\.4 s|printed more than \d+ bytes",
    ),
    "illegal_turn": (
        "def choose_turn(board):\n    return 'a1a2'\n",
        r"answered 'turn a1a2', which is not a legal turn here",
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
        r"ended \(exit code 0\) in the middle of the game without answering 'go'",
    ),
}
# Reads the other player's copy of its file, wherever a temporary folder may hold it.
SNOOP = """import os, tempfile
def choose_turn(board):
    for top in {tempfile.gettempdir(), "/tmp", "/dev/shm"}:
        for folder, _, files in os.walk(top):
            if "player.py" in files and os.path.realpath(folder) != os.getcwd():
                return "READ " + open(os.path.join(folder, "player.py")).read()[:20]
    raise LookupError("found no other player")
"""
#: Breaks out if it can (then it plays on, and the test sees no forfeit), else forfeits saying so.
SCHEDULER_CALLER = """import socket
def ports():
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            for row in open(table).read().splitlines()[1:]:
                local, state = row.split()[1], row.split()[3]
                if state == "0A":
                    found.add(int(local.rsplit(":", 1)[1], 16))
        except OSError:
            pass
    return found | {PORT}
def choose_turn(board):
    for port in sorted(ports()):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return board.legal_turns()[0]
        except OSError:
            pass
    raise ConnectionError("no port of the host answered")
"""
THINKER = """import signal
gap, most, inside, turns = 0, 0, False, 0
def think(*_):
    global gap
    if not inside:
        gap += 1
    sum(range(20000))
signal.signal(signal.SIGALRM, think)
signal.setitimer(signal.ITIMER_REAL, 0.01, 0.01)
def choose_turn(board):
    global gap, most, inside, turns
    inside, turns, most, gap = True, turns + 1, max(most, gap), 0
    if turns > 3 and most < 15:
        raise RuntimeError(f"it thought at most {most} times between two of its turns")
    inside = False
    return board.legal_turns()[0]
"""
FILLER = """import os
def choose_turn(board):
    for folder in ("/tmp", "/dev/shm"):
        for i in range(4):
            with open(f"{folder}/MARKER-{i}", "wb") as f:
                f.write(b"x" * 2**20)
    raise RuntimeError("filled /tmp and /dev/shm")
"""
#: Answers the tournament's next commands ahead of them, on every descriptor it may have.
ANSWERER = """import os
def choose_turn(board):
    turn = str(board.legal_turns()[0])
    forged = f"turn {turn}\\nok\\nok\\n".encode()
    for fd in range(1, 20):
        try:
            os.write(fd, forged)
        except OSError:
            pass
    return turn
"""
#: A player that takes its time, so that its opponent has time to think if it could.
SLOW = (
    "import time\ndef choose_turn(board):\n    time.sleep(0.3)\n    return board.legal_turns()[0]\n"
)


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
    if name in ("parent_killer", "thread_starter", "forker") and os.geteuid() != 0:
        pytest.skip(
            "as another user than root the sandbox cannot give the player a user of its own"
        )
    source, reason = HOSTILE[name]
    result = game(source, name=name)
    assert result["forfeit"] == "white" and result["winner"] == "black"
    assert result["reason"].startswith(f"white forfeits: {name}: ")  # it names the player
    assert __import__("re").search(reason, result["reason"]), result["reason"]
    record = fa.Game.from_json(result["record"])  # the record of a forfeited game still replays
    assert record.outcome.reason == result["reason"] and record.white == name


def test_printing_is_kept_only_up_to_the_limit():
    result = game(HOSTILE["endless_printer"][0])
    assert len(result["output"]["white"]) == LIMITS["output_bytes"]
    assert result["output"]["white"].startswith("spam spam")


needs_namespaces = pytest.mark.skipif(not bubblewrap_works(), reason="no namespaces here")


@needs_namespaces
def test_a_player_cannot_read_the_other_players_file():
    result = game(SNOOP, black={"name": "template", "source": TEMPLATE})
    assert "found no other player" in result["reason"], result["reason"]


@needs_namespaces
def test_a_player_cannot_reach_a_port_of_the_host_like_the_dask_scheduler():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        result = game(SCHEDULER_CALLER.replace("PORT", str(port)))
    assert "no port of the host answered" in result["reason"], result["reason"]


@needs_namespaces
def test_a_player_cannot_think_on_its_opponents_time():
    result = game(THINKER, black={"name": "slow", "source": SLOW}, turn_seconds=1.0)
    assert result["forfeit"] == "white" and "it thought at most" in result["reason"], result


@needs_namespaces
def test_what_a_player_writes_in_tmp_and_shm_is_gone_after_its_game():
    marker = f"filled-{uuid.uuid4().hex}"
    result = game(FILLER.replace("MARKER", marker))
    assert "filled /tmp and /dev/shm" in result["reason"], result["reason"]
    assert [p for d in ("/tmp", "/dev/shm") for p in os.listdir(d) if marker in p] == []


def test_a_player_cannot_answer_for_the_host():
    result = game(ANSWERER)
    assert result["forfeit"] == "white"
    assert "hostile: wrote 'ok' by itself, between its turns" in result["reason"], result["reason"]


def test_a_killed_run_leaves_no_folder():
    before = {p for p in os.listdir("/tmp") if p.startswith("fanorona-")}
    game(HOSTILE["endless_loop"][0])
    assert {p for p in os.listdir("/tmp") if p.startswith("fanorona-")} <= before


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
    assert "Error" in result["reason"] if os.geteuid() == 0 else True
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
    given = {
        *BASE_ENV,
        "HOME",
        "TMPDIR",
        "PWD",
        "MPLBACKEND",
        "PYTHONHASHSEED",
        "FANORONA_COMPILED",
    }
    assert "PATH" in environment and set(environment) <= given


def test_a_well_behaved_game_is_not_a_forfeit():
    result = game(TEMPLATE, name="template")
    assert result["forfeit"] is None
    assert (
        fa.Game.from_json(result["record"]).board().outcome() is not None
        or "adjudicated" in result["reason"]
    )
