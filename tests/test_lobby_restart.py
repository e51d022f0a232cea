"""A lobby killed mid-game (SIGKILL, as a crash or a hub's restart of its service) and started
again on the same file: the game comes back with its clocks as they were when it stopped, held
until both players are back, and is finished and rated."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from fanorona.lobby import LobbyClient, LobbyError
from fanorona.lobby.bot import play_game
from fanorona.lobby.run import free_port
from fanorona.lobby.store import Store
from fanorona.lobby.tables import BEAT_EVERY

DOWNTIME = 6.0  # seconds the lobby is down: far more than a beat, so a charge would show


def start(db, port) -> subprocess.Popen:
    """``python -m fanorona.lobby serve`` as an instructor runs it, ready when it answers."""
    process = subprocess.Popen(
        [sys.executable, "-m", "fanorona.lobby", "serve", str(db), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).read()
        except OSError:
            if process.poll() is not None:
                raise AssertionError(process.stderr.read().decode()) from None
            time.sleep(0.1)
        else:
            return process
    process.kill()
    raise AssertionError("the lobby did not start")


@pytest.fixture
def lobby_file(tmp_path):
    db = tmp_path / "class" / "lobby.sqlite"  # a folder that does not exist yet
    store = Store(db)
    tokens = {name: store.add_player(name) for name in ("ann", "ben")}
    store.close()
    return db, tokens


def state_of(client: LobbyClient, game: str, start: int, held: bool) -> dict:
    return client.wait_for(
        lambda m: m["type"] == "game" and m["game"] == game and bool(m["held"]) == held, start
    )


def test_a_game_survives_a_sigkill_and_is_finished_and_rated(lobby_file):
    db, tokens = lobby_file
    port = free_port()
    url = f"ws://127.0.0.1:{port}/ws"
    server = start(db, port)
    try:
        ann, ben = LobbyClient(url, tokens["ann"]), LobbyClient(url, tokens["ben"])
        code = ann.invite(to="ben", size="5x5", clock="3+0", ranked=True)
        ben.wait_for(lambda m: m.get("invitation") == code)
        game = ben.accept(code)["game"]
        state = ann.game()
        players = {state["white"]: ann if state["you"] == "white" else ben}
        players[state["black"]] = ben if players[state["white"]] is ann else ann
        legal, turns = state["legal"], []
        for ply in range(5):  # five turns: both clocks have run; black to move
            mover = players[state["white" if ply % 2 == 0 else "black"]]
            reply = mover.play(game, ply, legal[0])
            legal, clocks = reply["legal"], reply["clocks"]
            turns.append(reply["turn"])
        pressed = time.monotonic()
        time.sleep(2.5 * BEAT_EVERY)  # black's clock runs; the lobby beats meanwhile
        running_for = time.monotonic() - pressed
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        for client in (ann, ben):
            with pytest.raises(LobbyError):
                client.wait_for(lambda m: False, timeout=10)
        time.sleep(DOWNTIME)
        server = start(db, port)

        ann = LobbyClient(url, tokens["ann"])
        held = state_of(ann, game, 0, held=True)
        assert held["turns"] == turns and held["to_move"] == "black"
        assert "restarted" in held["held"]
        black = held["black"]
        assert held["clocks"]["white"] == clocks["white"]
        # black was charged for the time up to the lobby's last beat, never for the downtime
        charged = clocks["black"] - held["clocks"]["black"]
        assert running_for - 2 * BEAT_EVERY - 1 <= charged <= running_for + 0.5
        time.sleep(1.0)  # held: nobody's clock runs while ben is away
        if black == "ann":  # a player who is back may play meanwhile, her clock stopped
            reply = ann.play(game, 5, held["legal"][0])
            assert reply["clocks"] == held["clocks"]
            turns.append(reply["turn"])
        mark = len(ann.messages)
        ben = LobbyClient(url, tokens["ben"])
        for client, start_at in ((ann, mark), (ben, 0)):
            going = state_of(client, game, start_at, held=False)
            assert going["clocks"]["black"] == pytest.approx(held["clocks"]["black"], abs=0.05)
            assert going["turns"] == turns

        states = {c.name: state_of(c, game, 0, held=False) for c in (ann, ben)}
        other = threading.Thread(target=play_game, args=(ann, states["ann"], 1, 1))
        other.start()
        over = play_game(ben, states["ben"], 1, 2)
        other.join(60)
        assert set(over["ratings"]) == {"ann", "ben"}
        record = ben.record(game)
        assert record.turns[: len(turns)] == turns and len(record.turns) > 5
        assert record.outcome is not None and record.outcome.reason == over["outcome"]["reason"]
        ann.close()
        ben.close()
    finally:
        server.kill()
        server.wait(10)
    store = Store(db)
    assert store.live_games() == []
    assert {row[0] for row in store.ladder()} == {"ann", "ben"}
