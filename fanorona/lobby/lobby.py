"""The lobby's state and what each message does: who is online, invitations, live games, and the
messages each change sends to whom.

It runs on the server's event loop and never waits: a client's ``send`` only queues.  Each client
is a ``server.Client`` (``name``, ``role``, ``send(message)``).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass
from typing import Protocol

from ..board import Color
from . import ratings
from .protocol import Message
from .room import LiveGame, Refusal, outcome_data
from .store import Store


class Member(Protocol):
    """What the lobby needs of a connected client (``server.Client`` is one)."""

    name: str
    role: str

    def send(self, message: dict) -> None: ...

    def drop(self, sentence: str) -> None: ...


#: Seconds between the messages that say who came online and who left.
ONLINE_EVERY = 1.0


@dataclass(frozen=True)
class Invitation:
    code: str
    host: str
    to: str | None  # None: anyone with the link
    size: str
    rules: str
    clock: tuple[int, int]
    ranked: bool

    def data(self) -> dict:
        return {
            "type": "invitation",
            "invitation": self.code,
            "from": self.host,
            "to": self.to,
            "size": self.size,
            "rules": self.rules,
            "clock": "{}+{}".format(*self.clock),
            "ranked": self.ranked,
        }


class Lobby:
    """Everyone online, the open invitations and the live games of one class."""

    def __init__(self, store: Store, clock=time.monotonic, coin=secrets.randbelow):
        self.store, self.now, self.coin = store, clock, coin  # coin(2): who plays White
        self.online: dict[str, Member] = {}  # name -> its client
        self.invitations: dict[str, Invitation] = {}
        self.games: dict[str, LiveGame] = {}
        self.class_viewers: set = set()
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._told: set[str] = set()  # who everyone was last told is online
        self._online_timer: asyncio.TimerHandle | None = None
        self.seqs: dict[str, int] = {}  # name -> the highest message number it has sent

    # -- arriving and leaving ------------------------------------------------------------------

    def arrive(self, client: Member) -> None:
        """``client`` is online; an earlier connection of the same person is let go, and every
        live game of theirs is sent again as it is."""
        old = self.online.get(client.name)
        if old is not None and old is not client:
            old.drop("you connected again from somewhere else; this connection is closed")
        self.online[client.name] = client
        client.send(
            {
                "type": "welcome",
                "name": client.name,
                "role": client.role,
                "seq": self.seqs.get(client.name, 0),
            }
        )
        client.send({"type": "online", "players": sorted(self.online)})
        for game in self.games.values():
            if game.side_of(client.name) and game.outcome is None:
                client.send(game.state(self.now(), client.name))
        for invitation in self.invitations.values():
            if invitation.to == client.name:
                client.send(invitation.data())
        self._tell_online()

    def leave(self, client: Member) -> None:
        self.class_viewers.discard(client)
        for game in self.games.values():
            game.watchers.discard(client)
        if self.online.get(client.name) is client:
            del self.online[client.name]
            self._tell_online()

    def _tell_online(self) -> None:
        """Everyone hears who came and went, in one message a second at most: with hundreds
        online, a message to all at every arrival would cost the square of the class."""
        if self._online_timer is None:
            loop = asyncio.get_running_loop()
            self._online_timer = loop.call_later(ONLINE_EVERY, self._online_now)

    def _online_now(self) -> None:
        self._online_timer = None
        now = set(self.online)
        joined, left = sorted(now - self._told), sorted(self._told - now)
        self._told = now
        if joined or left:
            message = {"type": "online", "joined": joined, "left": left}
            for client in list(self.online.values()):
                client.send(message)

    # -- messages ------------------------------------------------------------------------------

    def handle(self, client: Member, message: Message) -> None:
        """Act on a checked message from ``client``; a refusal goes back to it as one sentence."""
        try:
            getattr(self, "on_" + message.type)(client, message)
        except Refusal as e:
            client.send({"type": "refused", "seq": message.seq, "message": str(e)})

    def on_invite(self, client: Member, m: Message) -> None:
        if m["to"] == client.name:
            raise Refusal("you cannot invite yourself: invite a classmate, or by link")
        if m["to"] is not None and m["to"] not in self.store.names():
            raise Refusal(f"there is nobody called {m['to']} in this class")
        code = secrets.token_urlsafe(9)
        invitation = Invitation(
            code, client.name, m["to"], m["size"], m["rules"], m["clock"], m["ranked"]
        )
        self.invitations[code] = invitation
        client.send({**invitation.data(), "type": "invited"})
        guest = self.online.get(m["to"]) if m["to"] else None
        if guest is not None:
            guest.send(invitation.data())

    def on_accept(self, client: Member, m: Message) -> None:
        invitation = self.invitations.get(m["invitation"])
        if invitation is None:
            raise Refusal("that invitation is not open: it was taken, or never made")
        if invitation.host == client.name:
            raise Refusal("that is your own invitation: a classmate accepts it")
        if invitation.to is not None and invitation.to != client.name:
            raise Refusal(f"that invitation is for {invitation.to}, not for you")
        del self.invitations[invitation.code]
        white, black = (invitation.host, client.name)
        if self.coin(2):
            white, black = black, white
        self.start(white, black, invitation)

    def start(self, white: str, black: str, invitation: Invitation) -> LiveGame:
        game = LiveGame(
            0, white, black, invitation.size, invitation.rules, invitation.clock,
            invitation.ranked, self.now(),
        )  # fmt: skip
        game.number = self.store.new_game(
            game.record(), invitation.size, invitation.rules, game.clock.text, invitation.ranked
        )
        self.games[game.id] = game
        for name in (white, black):
            if name in self.online:
                self.online[name].send(game.state(self.now(), name))
        for viewer in self.class_viewers:
            viewer.send(game.state(self.now()))
        self._arm(game)
        return game

    def on_turn(self, client: Member, m: Message) -> None:
        game = self._game(m["game"])
        side = game.board.to_move.value
        try:
            turn = game.play(client.name, m["ply"], m["turn"], self.now())
        except Refusal:
            if game.outcome is not None:  # the flag fell before the turn arrived
                self._finish(game)
            raise
        self.store.save_game(game.number, game.record())
        message = {
            "type": "turn",
            "game": game.id,
            "ply": m["ply"],
            "turn": turn,
            "by": side,
            "clocks": game.clocks(self.now()),
            "legal": game.legal(),
        }
        self._tell(game, message)
        if game.outcome is not None:
            self._finish(game)
        else:
            self._arm(game)

    def on_resign(self, client: Member, m: Message) -> None:
        game = self._game(m["game"])
        game.resign(client.name)
        self._finish(game)

    def on_offer_draw(self, client: Member, m: Message) -> None:
        game = self._game(m["game"])
        side = game.offer_draw(client.name)
        self._tell(game, {"type": "draw_offered", "game": game.id, "by": side})

    def on_accept_draw(self, client: Member, m: Message) -> None:
        game = self._game(m["game"])
        game.accept_draw(client.name)
        self._finish(game)

    def on_watch(self, client: Member, m: Message) -> None:
        game = self._game(m["game"])
        game.watchers.add(client)
        client.send(game.state(self.now(), client.name))

    def on_class_view(self, client: Member, m: Message) -> None:
        self._instructor(client, "see the class view")
        self.class_viewers.add(client)
        for game in self.games.values():
            if game.outcome is None:
                client.send(game.state(self.now()))

    def on_end_game(self, client: Member, m: Message) -> None:
        self._instructor(client, "end a game")
        game = self._game(m["game"])
        game.end(client.name)
        game.ranked = False  # stopped from outside: nobody's rating changes
        self._finish(game)

    def on_ladder(self, client: Member, m: Message) -> None:
        rows = self.store.ladder()
        client.send({"type": "ladder", "players": [list(r) for r in rows]})

    def on_record(self, client: Member, m: Message) -> None:
        number = int(m["game"][1:])
        record = self.store.record(number)
        if record is None:
            raise Refusal(f"there is no game {m['game']}")
        client.send({"type": "record", "game": m["game"], "record": record.to_json()})

    # -- the games' ends -----------------------------------------------------------------------

    def _game(self, name: str) -> LiveGame:
        game = self.games.get(name)
        if game is None:
            raise Refusal(f"there is no live game {name}")
        return game

    @staticmethod
    def _instructor(client: Member, what: str) -> None:
        if client.role != "instructor":
            raise Refusal(f"only the instructor may {what}")

    def _tell(self, game: LiveGame, message: dict) -> None:
        """Send ``message`` to the game's players, its watchers and the class view."""
        for name in (game.white, game.black):
            if name in self.online:
                self.online[name].send(message)
        for client in game.watchers | self.class_viewers:
            if client.name not in (game.white, game.black):
                client.send(message)

    def _arm(self, game: LiveGame) -> None:
        """Wake up when the side to move's time runs out."""
        old = self._timers.pop(game.id, None)
        if old is not None:
            old.cancel()
        side = game.running
        if side is not None:
            loop = asyncio.get_running_loop()
            delay = game.time_left(side, self.now()) + 0.01
            self._timers[game.id] = loop.call_later(delay, self._timeout, game)

    def _timeout(self, game: LiveGame) -> None:
        if game.outcome is None and game.flag(self.now()):
            self._finish(game)
        elif game.outcome is None:
            self._arm(game)

    def _finish(self, game: LiveGame) -> None:
        """Record the result, rate a ranked game, tell everyone, and let the game go."""
        timer = self._timers.pop(game.id, None)
        if timer is not None:
            timer.cancel()
        self.store.save_game(game.number, game.record())
        message = {"type": "over", "game": game.id, "outcome": outcome_data(game.outcome)}
        assert game.outcome is not None
        if game.ranked:
            message["ratings"] = self._rate(game)
        self._tell(game, message)
        del self.games[game.id]

    def _rate(self, game: LiveGame) -> dict:
        winner = game.outcome.winner if game.outcome else None
        new = ratings.rate(self.store.rating(game.white), self.store.rating(game.black), winner)
        result = {}
        for side, (mu, sigma) in zip(Color, new):
            name = game.white if side is Color.WHITE else game.black
            self.store.set_rating(name, mu, sigma)
            result[name] = {"rating": round(mu, 2), "deviation": round(sigma, 2)}
        return result
