"""The lobby's walls against a hostile classmate, through its real server: meters per player
across connections, connections that never sign in, pings, messages measured in bytes, and a
flood that drops the flooder, never the flooded."""

from __future__ import annotations

import contextlib
import json
import socket
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from fanorona.lobby import LobbyClient, LobbyError
from fanorona.lobby.protocol import BURST, MAX_BYTES
from fanorona.lobby.run import PING_BURST, Background
from fanorona.lobby.server import HELLO_WAIT
from fanorona.lobby.store import Store


@pytest.fixture(scope="module")
def lobby():
    store = Store()
    tokens = {name: store.add_player(name) for name in ("ann", "ben", "cat", "eve")}
    with Background(store) as server:
        server.tokens = tokens
        server.door.cap, server.door.each = 64, 48  # small caps, soon reached
        yield server


def join(lobby, name) -> LobbyClient:
    return LobbyClient(lobby.url, lobby.tokens[name])


def closed_with(ws) -> str:
    """The sentence the lobby closed ``ws`` with."""
    said = ""
    with contextlib.suppress(ConnectionClosed, TimeoutError):
        while True:
            message = json.loads(ws.recv(10))
            said = message.get("message", said) if message["type"] == "error" else said
    return said


def test_signing_in_again_does_not_refill_a_players_meter(lobby):
    sent = 0
    for _ in range(6):  # each connection sends less than a burst, six in a row more than two
        with contextlib.suppress(LobbyError), join(lobby, "eve") as eve:
            for _ in range(BURST // 3):
                eve.send("ladder")
                sent += 1
            time.sleep(0.05)
            if eve.closed:
                break
    assert sent < 6 * (BURST // 3)  # a connection was dropped before the six were through
    time.sleep(BURST / 20 + 0.5)  # the meter refills at its rate


def test_a_flooded_student_stays_signed_in_and_the_flooder_is_refused(lobby):
    with join(lobby, "ann") as ann, join(lobby, "ben") as ben:
        refused = 0
        for _ in range(30):
            try:
                ben.invite(to="ann", size="5x5", ranked=False)
            except LobbyError as e:
                assert "open invitations, the most at once" in str(e)
                refused += 1
            time.sleep(0.06)  # within the message rate
        assert refused >= 24
        ann.ask("ladder", "ladder")  # ann still here, not dropped
        assert ann.closed is None and len(ann.invitations()) <= 10


def test_connections_that_never_sign_in_cannot_keep_a_student_out(lobby, monkeypatch):
    import fanorona.lobby.server

    wait = 8.0  # longer than the usual deadline, so the oldest are told apart on a loaded machine
    monkeypatch.setattr(fanorona.lobby.server, "HELLO_WAIT", wait)
    strangers = [
        socket.create_connection(("127.0.0.1", lobby.port)) for _ in range(lobby.door.each + 40)
    ]
    try:
        for s in strangers:
            s.sendall(
                b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                b"Sec-WebSocket-Version: 13\r\n\r\n"
            )
        time.sleep(1.0)
        with join(lobby, "cat") as cat:  # the oldest stranger makes room
            assert cat.ask("ladder", "ladder")["type"] == "ladder"
        assert 40 <= sum(map(closed, strangers)) < len(strangers)  # the oldest, at once
        time.sleep(wait)
        assert sum(map(closed, strangers)) == len(strangers)  # the rest at their deadline
    finally:
        for s in strangers:
            s.close()


READ: dict = {}  # socket -> the bytes read from it so far


def closed(s: socket.socket) -> bool:
    """Whether the lobby has sent a raw connection its close frame (after the handshake's
    answer and the sentence), reading what has come so far."""
    s.settimeout(0.05)
    data = READ.get(s, b"")
    with contextlib.suppress(OSError):
        while chunk := s.recv(65536):
            data += chunk
    READ[s] = data
    frames = data.partition(b"\r\n\r\n")[2]
    while len(frames) >= 2:  # server frames: not masked, short or 16-bit lengths here
        opcode, length, at = frames[0] & 0x0F, frames[1] & 0x7F, 2
        if length == 126:
            length, at = int.from_bytes(frames[2:4], "big"), 4
        if opcode == 0x8:
            return True
        frames = frames[at + length :]
    return False


def test_a_connection_is_told_and_closed_when_it_does_not_sign_in_in_time(lobby):
    with connect(lobby.url) as ws:
        start = time.monotonic()
        said = closed_with(ws)
        assert f"say who you are within {HELLO_WAIT:.0f} s" in said
        assert time.monotonic() - start < HELLO_WAIT + 2


def drain(ws) -> None:
    while True:
        ws.recv(10)


def test_a_ping_flood_is_closed(lobby):
    with connect(lobby.url) as ws:
        ws.send(json.dumps({"type": "hello", "seq": 1, "token": lobby.tokens["ben"]}))
        with contextlib.suppress(ConnectionClosed):
            for n in range(PING_BURST * 20):
                ws.ping(str(n))
        with pytest.raises(ConnectionClosed) as e:
            drain(ws)
        assert e.value.rcvd is not None and e.value.rcvd.code == 1008
        assert "too many pings" in e.value.rcvd.reason


def test_a_message_is_measured_in_bytes_not_characters(lobby):
    with connect(lobby.url) as ws:
        ws.send(json.dumps({"type": "hello", "seq": 1, "token": lobby.tokens["ben"]}))
        text = json.dumps(
            {"type": "ladder", "seq": 2, "x": "é" * (MAX_BYTES // 2)}, ensure_ascii=False
        )
        assert len(text) < MAX_BYTES < len(text.encode())
        ws.send(text)
        assert f"a message is at most {MAX_BYTES} bytes" in closed_with(ws)
