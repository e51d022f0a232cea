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

from .classview import ClassView
from .protocol import Message, Meter
from .room import LiveGame, Refusal
from .store import Store
from .tables import Tables
from .words import Said


class Member(Protocol):
    """What the lobby needs of a connected client (``server.Client`` is one)."""

    name: str
    role: str

    def send(self, message: dict) -> None: ...

    def drop(self, why: Said) -> None: ...


#: Seconds between the messages that say who came online and who left.
ONLINE_EVERY = 1.0
#: Open invitations a player may have made, and may have waiting for them; seconds one stays open.
INVITES_OUT, INVITES_IN, INVITE_AGE = 5, 10, 600.0
#: Live games a student may play at once.
GAMES_EACH = 3


@dataclass(frozen=True)
class Invitation:
    code: str
    host: str
    to: str | None  # None: anyone with the link
    size: str
    rules: str
    clock: tuple[int, int]
    ranked: bool
    made: float = 0.0  # the lobby's clock when it was made

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

    games_each, invites_out, invites_in = GAMES_EACH, INVITES_OUT, INVITES_IN

    def __init__(self, store: Store, clock=time.monotonic, coin=secrets.randbelow):
        self.store, self.now, self.coin = store, clock, coin  # coin(2): who plays White
        self.online: dict[str, Member] = {}  # name -> its client
        self.invitations: dict[str, Invitation] = {}
        self.tables = Tables(store, self.online, None, clock)
        self.games: dict[str, LiveGame] = self.tables.games
        self.class_view = ClassView(self.games, clock)
        self.tables.viewers = self.class_view
        self._told: set[str] = set()  # who everyone was last told is online
        self._online_timer: asyncio.TimerHandle | None = None
        self.seqs: dict[str, int] = {}  # name -> the highest message number it has sent
        self.meters: dict[str, Meter] = {}  # name -> its meter, shared by all its connections

    def meter(self, name: str) -> Meter:
        """The rate meter of ``name``: one for all their connections, kept across sign-ins."""
        return self.meters.setdefault(name, Meter())

    # -- arriving and leaving ------------------------------------------------------------------

    def arrive(self, client: Member) -> None:
        """``client`` is online; an earlier connection of the same person is let go, and every
        live game of theirs is sent again as it is."""
        old = self.online.get(client.name)
        if old is not None and old is not client:
            old.drop(Said("elsewhere"))
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
        self.tables.returned(client.name)
        for game in self.tables.of(client.name):
            if game.outcome is None:
                client.send(game.state(self.now(), client.name))
        for invitation in self._open():
            if invitation.to == client.name:
                client.send(invitation.data())
        self._tell_online()

    def leave(self, client: Member) -> None:
        self.class_view.leave(client)
        for game in self.games.values():
            game.watchers.discard(client)
        if self.online.get(client.name) is client:
            del self.online[client.name]
            for invitation in [i for i in self.invitations.values() if i.host == client.name]:
                self._withdraw(invitation, Said("host_left", name=client.name))
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

    # -- invitations ---------------------------------------------------------------------------

    def _open(self) -> list[Invitation]:
        """The invitations still open; the expired ones are withdrawn first."""
        now = self.now()
        for invitation in [i for i in self.invitations.values() if now - i.made > INVITE_AGE]:
            self._withdraw(invitation, Said("expired", minutes=f"{INVITE_AGE / 60:g}"))
        return list(self.invitations.values())

    def _withdraw(self, invitation: Invitation, why: Said) -> None:
        del self.invitations[invitation.code]
        message: dict = {"type": "withdrawn", "invitation": invitation.code, "why": str(why)}
        message |= {"code": why.code, "params": why.params}
        for name in (invitation.host, invitation.to):
            if name in self.online:
                self.online[name].send(message)

    def _room_for_games(self, name: str, who: str) -> None:
        if len(self.tables.of(name)) >= self.games_each:
            if who == "you":
                raise Refusal("games_cap_you", n=self.games_each)
            raise Refusal("games_cap", name=who, n=self.games_each)

    # -- messages ------------------------------------------------------------------------------

    def handle(self, client: Member, message: Message) -> None:
        """Act on a checked message from ``client``; a refusal goes back to it as one sentence."""
        try:
            getattr(self, "on_" + message.type)(client, message)
        except Refusal as e:
            client.send({"type": "refused", "seq": message.seq, **e.fields()})

    def on_invite(self, client: Member, m: Message) -> None:
        if m["to"] == client.name:
            raise Refusal("invite_self")
        if m["to"] is not None and not self.store.has_player(m["to"]):
            raise Refusal("no_such_player", name=m["to"])
        self._room_for_games(client.name, "you")
        open_ = self._open()
        if sum(i.host == client.name for i in open_) >= self.invites_out:
            raise Refusal("invites_out", n=self.invites_out)
        if m["to"] is not None and sum(i.to == m["to"] for i in open_) >= self.invites_in:
            raise Refusal("invites_in", name=m["to"], n=self.invites_in)
        code = secrets.token_urlsafe(9)
        invitation = Invitation(
            code, client.name, m["to"], m["size"], m["rules"], m["clock"], m["ranked"], self.now()
        )
        self.invitations[code] = invitation
        client.send({**invitation.data(), "type": "invited"})
        guest = self.online.get(m["to"]) if m["to"] else None
        if guest is not None:
            guest.send(invitation.data())

    def on_accept(self, client: Member, m: Message) -> None:
        self._open()
        invitation = self.invitations.get(m["invitation"])
        if invitation is None:
            raise Refusal("not_open")
        if invitation.host == client.name:
            raise Refusal("own_invitation")
        if invitation.to is not None and invitation.to != client.name:
            raise Refusal("not_for_you", name=invitation.to)
        self._room_for_games(client.name, "you")
        self._room_for_games(invitation.host, invitation.host)
        del self.invitations[invitation.code]
        white, black = (invitation.host, client.name)
        if self.coin(2):
            white, black = black, white
        self.tables.start(white, black, invitation)

    def on_turn(self, client: Member, m: Message) -> None:
        game = self._game(m["game"])
        side = game.board.to_move.value
        try:
            turn = game.play(client.name, m["ply"], m["turn"], self.now())
        except Refusal:
            if game.outcome is not None:  # the flag fell before the turn arrived
                self.tables.finish(game)
            raise
        self.tables.played(game)
        message = {
            "type": "turn",
            "game": game.id,
            "ply": m["ply"],
            "turn": turn,
            "by": side,
            "clocks": game.clocks(self.now()),
            "legal": game.legal(),
        }
        self.tables.tell(game, message)
        if game.outcome is not None:
            self.tables.finish(game)
        else:
            self.tables.arm(game)

    def on_resign(self, client: Member, m: Message) -> None:
        game = self._game(m["game"])
        game.resign(client.name)
        self.tables.finish(game)

    def on_offer_draw(self, client: Member, m: Message) -> None:
        game = self._game(m["game"])
        side = game.offer_draw(client.name)
        self.tables.tell(game, {"type": "draw_offered", "game": game.id, "by": side})

    def on_accept_draw(self, client: Member, m: Message) -> None:
        game = self._game(m["game"])
        try:
            game.accept_draw(client.name, self.now())
        except Refusal:
            if game.outcome is not None:  # the flag fell first
                self.tables.finish(game)
            raise
        self.tables.finish(game)

    def on_watch(self, client: Member, m: Message) -> None:
        game = self._game(m["game"])
        game.watchers.add(client)
        client.send(game.state(self.now(), client.name))

    def on_class_view(self, client: Member, m: Message) -> None:
        self._instructor(client, "instructor_class_view")
        self.class_view.join(client)

    def on_end_game(self, client: Member, m: Message) -> None:
        self._instructor(client, "instructor_end_game")
        game = self._game(m["game"])
        game.end(client.name)
        game.ranked = False  # stopped from outside: nobody's rating changes
        self.tables.finish(game)

    def on_ladder(self, client: Member, m: Message) -> None:
        rows = self.store.ladder()
        client.send({"type": "ladder", "players": [list(r) for r in rows]})

    def on_record(self, client: Member, m: Message) -> None:
        number = int(m["game"][1:])
        record = self.store.record(number)
        if record is None:
            raise Refusal("no_game", game=m["game"])
        client.send({"type": "record", "game": m["game"], "record": record.to_json()})

    def _game(self, name: str) -> LiveGame:
        game = self.games.get(name)
        if game is None:
            raise Refusal("no_live_game", game=name)
        return game

    @staticmethod
    def _instructor(client: Member, code: str) -> None:
        if client.role != "instructor":
            raise Refusal(code)
