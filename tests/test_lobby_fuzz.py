"""A property-based fuzz of the lobby's protocol: clients send whatever hypothesis makes of
messages (well-formed, half-right, garbage) through the server's own intake, mixed with real
games; no game may change except by its own player's legal turn, or by its players' resignation
and draw, or the instructor's word."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from fanorona.lobby.lobby import Lobby
from fanorona.lobby.protocol import FIELDS
from fanorona.lobby.server import intake
from fanorona.lobby.store import Store

PEOPLE = {"ann": "student", "ben": "student", "cat": "student", "tim": "instructor"}


class Member:
    """A connected client as the lobby sees it, keeping what it is sent."""

    def __init__(self, name, role):
        self.name, self.role, self.said, self.dropped = name, role, [], None

    def send(self, message):
        self.said.append(message)

    def drop(self, sentence):
        self.dropped = sentence


values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.sampled_from(["g1", "g2", "g3", "g99", "5x5", "3x3", "standard", "1+0", "ann", "b2c3A"]),
    st.text(max_size=12),
    st.lists(st.integers(), max_size=2),
)


@st.composite
def messages(draw):
    """Text a client might send: mostly objects with a known type and some of its fields."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=30))
    kind = draw(st.sampled_from([*FIELDS, "nonsense"]))
    data = {"type": kind, "seq": draw(st.integers(-1, 400))}
    for name in FIELDS.get(kind, {}):
        if draw(st.integers(0, 5)):
            data[name] = draw(values)
    if draw(st.integers(0, 8)) == 0:
        data[draw(st.text(max_size=5))] = draw(values)
    return json.dumps(data)


class LobbyFuzz(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        # The lobby's loop runs in a thread of its own: the run's shared Chromium keeps
        # Playwright's loop running in the main thread, where a second loop cannot run.
        self.thread = concurrent.futures.ThreadPoolExecutor(1)
        self.loop = asyncio.new_event_loop()
        self.lobby = Lobby(Store(), coin=lambda n: 0)  # the host plays White
        for name, role in PEOPLE.items():
            self.lobby.store.add_player(name, role)
        self.members = {n: Member(n, r) for n, r in PEOPLE.items()}
        self.seq = dict.fromkeys(PEOPLE, 0)
        self.known: dict = {}  # every game ever started, finished ones too
        self.before: dict = {}
        self.last = None
        self.run(lambda: [self.lobby.arrive(m) for m in self.members.values()])

    def teardown(self):
        self.thread.submit(self.loop.close).result()
        self.thread.shutdown()

    def run(self, action):
        async def call():
            action()

        self.thread.submit(self.loop.run_until_complete, call()).result()

    def send(self, name, raw):
        member = self.members[name]
        if member.dropped:  # a dropped client comes back on a new connection
            member = self.members[name] = Member(name, PEOPLE[name])
            self.run(lambda: self.lobby.arrive(member))
        self.before = {g: self.snapshot(game) for g, game in self.known.items()}
        self.last = (name, raw)
        self.run(lambda: intake(self.lobby, member, raw))
        self.known.update(self.lobby.games)

    def numbered(self, name, **message):
        self.seq[name] = max(self.seq[name], self.lobby.seqs.get(name, 0)) + 1
        return json.dumps({**message, "seq": self.seq[name]})

    @staticmethod
    def snapshot(game):
        return [str(t) for t in game.board.turns], game.outcome, game.board.copy()

    @rule(host=st.sampled_from(list(PEOPLE)), guest=st.sampled_from(list(PEOPLE)),
          size=st.sampled_from(["3x3", "5x3", "5x5"]))  # fmt: skip
    def a_game(self, host, guest, size):
        invite = dict(type="invite", to=guest, size=size, rules="standard", clock="30+0")
        self.send(host, self.numbered(host, ranked=False, **invite))
        code = self.members[host].said[-1].get("invitation")
        if code:
            self.send(guest, self.numbered(guest, type="accept", invitation=code))

    @precondition(lambda self: self.lobby.games)
    @rule(data=st.data())
    def a_legal_turn(self, data):
        game = data.draw(st.sampled_from(sorted(self.lobby.games.values(), key=lambda g: g.id)))
        mover = game.white if game.board.to_move.value == "white" else game.black
        turn = data.draw(st.sampled_from(game.legal()))
        ply = len(game.board.turns)
        self.send(mover, self.numbered(mover, type="turn", game=game.id, ply=ply, turn=turn))
        assert len(game.board.turns) == ply + 1, self.members[mover].said[-1]  # taken

    @rule(name=st.sampled_from(list(PEOPLE)), raw=messages())
    def anything(self, name, raw):
        self.send(name, raw)

    @precondition(lambda self: self.lobby.games)
    @rule(name=st.sampled_from(list(PEOPLE)), data=st.data())
    def a_turn_of_another_game_or_player(self, name, data):
        game = data.draw(st.sampled_from(sorted(self.known.values(), key=lambda g: g.id)))
        legal = game.legal() or ["b2c3A"]
        turn = data.draw(st.sampled_from(legal))
        ply = data.draw(st.sampled_from([len(game.board.turns), max(0, len(game.board.turns) - 1)]))
        self.send(name, self.numbered(name, type="turn", game=game.id, ply=ply, turn=turn))

    @invariant()
    def games_change_only_by_their_own_players(self):
        if self.last is None:
            return
        name, raw = self.last
        for gid, game in self.known.items():
            if gid not in self.before:
                continue
            turns, outcome, board = self.before[gid]
            now = [str(t) for t in game.board.turns]
            if now == turns and game.outcome == outcome:
                continue
            message = json.loads(raw)
            assert message["game"] == gid, (gid, raw)
            side = game.side_of(name)
            if now != turns:
                assert message["type"] == "turn" and side == board.to_move.value, (name, raw)
                assert now[:-1] == turns and len(now) == len(turns) + 1
                board.push(message["turn"])  # legal on an independent copy, the same turn
                assert [str(t) for t in board.turns] == now
                assert game.outcome == board.outcome()
            else:
                kind = message["type"]
                allowed = {"resign", "accept_draw"} if side else set()
                assert kind in allowed | ({"end_game"} if PEOPLE[name] == "instructor" else set())
                assert outcome is None and game.outcome is not None


TestLobbyFuzz = LobbyFuzz.TestCase
TestLobbyFuzz.settings = settings(
    max_examples=40, stateful_step_count=25, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)  # fmt: skip
