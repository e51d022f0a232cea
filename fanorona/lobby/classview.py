"""The instructor's class view, bounded: each viewer follows at most ``SHOWN`` games in full
(their states, then their turns), and past that is sent one summary of every live game, at most
once every ``SUMMARY_EVERY`` seconds, so a class with hundreds of games never floods the
projector's page.  A finished game stays in the view for ``KEEP`` seconds."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .room import LiveGame

SHOWN = 48
SUMMARY_EVERY = 2.0
KEEP = 600.0


class ClassView:
    """Who watches the class, and which games each of them follows."""

    def __init__(self, games: dict, clock):
        self.games, self.now = games, clock  # the lobby's live games, by id
        self.viewers: dict = {}  # client -> the ids of the games it follows in full
        self.finished: dict[str, tuple[float, dict]] = {}  # id -> (when, its last state)
        self._summary: asyncio.TimerHandle | None = None

    def _forget_old(self) -> None:
        now = self.now()
        for gid in [g for g, (t, _) in self.finished.items() if now - t > KEEP]:
            del self.finished[gid]

    def join(self, client) -> None:
        now = self.now()
        followed = self.viewers.setdefault(client, set())
        self._forget_old()
        for game in list(self.games.values())[:SHOWN]:
            followed.add(game.id)
            client.send(game.state(now))
        for _, state in list(self.finished.values())[-SHOWN:]:
            client.send(state)
        if len(self.games) > SHOWN:
            client.send(self.summary())

    def leave(self, client) -> None:
        self.viewers.pop(client, None)

    def show(self, game: LiveGame) -> None:
        """A new game: viewers with room follow it, the others hear of it in the summary."""
        for client, followed in self.viewers.items():
            if len(followed) < SHOWN:
                followed.add(game.id)
                client.send(game.state(self.now()))
        if len(self.games) > SHOWN:
            self._later()

    def update(self, game: LiveGame) -> None:
        for client, followed in self.viewers.items():
            if game.id in followed:
                client.send(game.state(self.now()))

    def relay(self, game: LiveGame, message: dict) -> None:
        for client, followed in self.viewers.items():
            if game.id in followed:
                client.send(message)

    def over(self, game: LiveGame) -> None:
        """A finished game is kept for a while; its place goes to a game not yet followed."""
        self._forget_old()
        self.finished[game.id] = (self.now(), game.state(self.now()))
        for client, followed in self.viewers.items():
            followed.discard(game.id)
            for other in self.games.values():
                if len(followed) >= SHOWN:
                    break
                if other.id not in followed and other.id != game.id:
                    followed.add(other.id)
                    client.send(other.state(self.now()))

    def summary(self) -> dict:
        return {
            "type": "class",
            "games": [
                [g.id, g.white, g.black, len(g.board.turns)]
                for g in self.games.values()
                if g.outcome is None
            ],
        }

    def _later(self) -> None:
        if self._summary is None and self.viewers:
            self._summary = asyncio.get_running_loop().call_later(SUMMARY_EVERY, self._send)

    def _send(self) -> None:
        self._summary = None
        message = self.summary()
        for client in self.viewers:
            client.send(message)
