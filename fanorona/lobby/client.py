"""A Python client of the lobby, for a notebook, a script or a computer player: one WebSocket
(the ``websockets`` library's threaded client), a thread that reads it, and methods that send a
message and wait for the lobby's answer.

The token goes in the first message, never in the URL.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time

from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import connect

from ..game import Game


class LobbyError(RuntimeError):
    """The lobby refused a message, or closed the connection; the sentence is the lobby's."""


#: What ``closed`` says once the program itself closed the client (nothing to connect again).
CLOSED_HERE = "this client was closed"


class LobbyClient:
    """A connection to the lobby at ``url`` (``ws://127.0.0.1:8765/ws``) as the owner of
    ``token``."""

    def __init__(self, url: str, token: str, timeout: float = 10.0):
        self.url, self.timeout, self._token = url, timeout, token
        self.messages: list[dict] = []
        self._seen = threading.Condition()
        self.closed: str | None = None
        self.seq = 0
        #: Called with each message as it arrives (on the reading thread), and with
        #: ``{"type": "closed", "message": ...}`` when the connection ends.
        self.listeners: list = []
        self._open()

    def _open(self) -> None:
        """Connect, sign in, and start reading."""
        mark = len(self.messages)
        self.ws = connect(self.url, open_timeout=self.timeout, max_size=2**20).__enter__()
        self._send({"type": "hello", "seq": 1, "token": self._token})
        self._reader = threading.Thread(target=self._read, daemon=True, name="lobby-client")
        self._reader.start()
        welcome = self.wait_for(lambda m: m["type"] == "welcome", mark)
        self.name, self.role = welcome["name"], welcome["role"]
        self.seq = max(self.seq, welcome["seq"]) + 1

    def reconnect(self) -> None:
        """Sign in again on a new connection: after a lost one, or to take this client's place
        back from a sign-in elsewhere (which that one's lobby then closes).  The lobby sends
        every live game of this player again as it is."""
        with contextlib.suppress(Exception):
            self.ws.close()
        self._reader.join(self.timeout)
        with self._seen:
            self.closed = None
        try:
            self._open()
        except (OSError, WebSocketException) as e:
            with self._seen:
                self.closed = f"the lobby at {self.url} cannot be reached: {e}"
            raise LobbyError(self.closed) from None

    def close(self) -> None:
        """Leave the lobby; a seat on this client does not connect it again."""
        with self._seen:
            self.closed = CLOSED_HERE
        self.ws.close()
        self._reader.join(self.timeout)

    def __enter__(self) -> LobbyClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- the wire ------------------------------------------------------------------------------

    def _send(self, message: dict) -> None:
        try:
            self.ws.send(json.dumps(message))
        except ConnectionClosed:
            raise LobbyError(self.closed or "the lobby closed the connection") from None

    def _read(self) -> None:
        try:
            for raw in self.ws:
                message = json.loads(raw)
                with self._seen:
                    if message["type"] == "error":
                        self.closed = message["message"]
                    self.messages.append(message)
                    self._seen.notify_all()
                self._tell(message)
        except (ConnectionClosed, OSError):
            pass
        finally:
            with self._seen:
                self.closed = self.closed or "the lobby closed the connection"
                self._seen.notify_all()
            self._tell({"type": "closed", "message": self.closed})

    def _tell(self, message: dict) -> None:
        for listener in list(self.listeners):
            listener(message)

    def send(self, kind: str, **fields) -> int:
        """Send a message of type ``kind``; its number (``seq``)."""
        self.seq += 1
        self._send({"type": kind, "seq": self.seq, **fields})
        return self.seq

    def wait_for(self, wanted, start: int = 0, timeout: float | None = None, stop=None) -> dict:
        """The first message from number ``start`` on for which ``wanted(message)`` is true."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        with self._seen:
            while True:
                for message in self.messages[start:]:
                    if wanted(message):
                        return message
                start = len(self.messages)
                if self.closed:
                    raise LobbyError(self.closed)
                if stop is not None and stop.is_set():
                    raise LobbyError("stopped while waiting for the lobby")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("the lobby did not answer in time")
                self._seen.wait(min(left, 0.1))

    def ask(self, kind: str, answer, **fields) -> dict:
        """Send a message and wait for the answer (a message type, or a test of a message), or
        raise its refusal."""
        wanted = answer if callable(answer) else lambda m: m["type"] == answer
        mark = len(self.messages)
        seq = self.send(kind, **fields)
        reply = self.wait_for(
            lambda m: wanted(m) or (m["type"] == "refused" and m["seq"] == seq), mark
        )
        if reply["type"] == "refused":
            raise LobbyError(reply["message"])
        return reply

    # -- what a player does --------------------------------------------------------------------

    def online(self) -> list[str]:
        """Who is online, as the lobby last said."""
        online: set[str] = set()
        for m in self.messages:
            if m["type"] == "online":
                online = set(m["players"]) if "players" in m else online | set(m["joined"])
                online -= set(m.get("left", ()))
        return sorted(online)

    def invite(self, to=None, size="9x5", rules="standard", clock="10+5", ranked=True) -> str:
        """Invite ``to`` (or, with None, whoever gets the code); the invitation's code."""
        fields = dict(to=to, size=size, rules=rules, clock=clock, ranked=ranked)
        return self.ask("invite", "invited", **fields)["invitation"]

    def invitations(self) -> list[dict]:
        return [m for m in self.messages if m["type"] == "invitation"]

    def accept(self, code: str) -> dict:
        """Accept an invitation; the new game's state (``"game"``, ``"you"``: your side)."""
        mark = len(self.messages)
        self.send("accept", invitation=code)
        return self.wait_for(lambda m: m["type"] in ("game", "refused"), mark)

    def game(self, start: int = 0) -> dict:
        """The state of the first game the lobby sends from message ``start`` on."""
        return self.wait_for(lambda m: m["type"] == "game", start)

    def play(self, game: str, ply: int, turn: str) -> dict:
        """Play ``turn`` as turn ``ply`` of ``game``; the lobby's turn message (its
        acknowledgement)."""

        def answer(m):
            return m["type"] == "turn" and m["game"] == game and m["ply"] == ply

        return self.ask("turn", answer, game=game, ply=ply, turn=turn)

    def ladder(self) -> list[list]:
        """The class ladder: [name, rating, deviation, games], best first."""
        return self.ask("ladder", "ladder")["players"]

    def record(self, game: str) -> Game:
        """A game's record, replayed and checked (``fanorona.Game``)."""
        return Game.from_json(self.ask("record", "record", game=game)["record"])
