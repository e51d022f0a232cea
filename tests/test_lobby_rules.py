"""The lobby's fairness rules on its state with a clock the test turns: when clocks run, when a
game is aborted or adjudicated, which games are rated, and the caps that keep one classmate from
locking out another."""

from __future__ import annotations

import asyncio

import pytest

from fanorona.lobby.lobby import INVITE_AGE, Lobby
from fanorona.lobby.protocol import Message
from fanorona.lobby.store import Store
from fanorona.lobby.tables import FIRST_TURN_WAIT, PAIR_RATED, RETURN_WAIT


class Member:
    """A connected client as the lobby sees it, keeping what it is sent."""

    def __init__(self, name, role="student"):
        self.name, self.role, self.said, self.dropped = name, role, [], None

    def send(self, message):
        self.said.append(message)

    def drop(self, sentence):
        self.dropped = sentence

    def last(self, kind):
        return [m for m in self.said if m["type"] == kind][-1]


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def on_a_loop(coroutine):
    """``asyncio.run`` in a thread of its own: a browser test on the same worker may have left
    Playwright's loop running in this thread, where ``asyncio.run`` refuses to start."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def run(test):
    """Run ``test(lobby, clock, members, store)`` on an event loop (the lobby's timers need one)."""

    async def main():
        store = Store()
        for name in ("ann", "ben", "cat", "dan"):
            store.add_player(name)
        clock = Clock()
        lobby = Lobby(store, clock=clock, coin=lambda n: 0)  # the host plays White
        members = {name: Member(name) for name in ("ann", "ben", "cat", "dan")}
        for member in members.values():
            lobby.arrive(member)
        return test(lobby, clock, members, store)

    return on_a_loop(main())


def say(lobby, member, kind, **fields):
    lobby.seqs[member.name] = seq = lobby.seqs.get(member.name, 0) + 1
    lobby.handle(member, Message(kind, seq, fields))
    answer = member.said[-1]
    return answer["message"] if answer["type"] == "refused" else answer


def game_between(lobby, host, guest, ranked=True, clock=(1, 0)):
    fields = dict(to=guest.name, size="5x5", rules="standard", clock=clock, ranked=ranked)
    code = say(lobby, host, "invite", **fields)["invitation"]
    say(lobby, guest, "accept", invitation=code)
    return lobby.games[guest.last("game")["game"]]


def play(lobby, game, members, n):
    for _ in range(n):
        mover = members[game.white if game.board.to_move.value == "white" else game.black]
        say(lobby, mover, "turn", game=game.id, ply=len(game.board.turns), turn=game.legal()[0])


def test_no_clock_runs_before_each_side_has_moved_and_a_silent_start_is_aborted_unrated():
    def test(lobby, clock, m, store):
        game = game_between(lobby, m["ann"], m["ben"])
        clock.t += FIRST_TURN_WAIT - 1
        assert game.clocks(clock.t) == {"white": 60.0, "black": 60.0}
        play(lobby, game, m, 1)  # ann moves just in time; now ben has the same wait
        clock.t += FIRST_TURN_WAIT + 1
        lobby.tables.wake(game)
        over = m["ann"].last("over")
        assert over["outcome"] == {
            "winner": None,
            "reason": f"aborted: black did not play a first turn within {FIRST_TURN_WAIT / 60:g} "
            "minutes",
        }
        assert "ratings" not in over and store.rating("ann") is None
        assert store.live_games() == []

    run(test)


def test_a_game_resigned_before_two_turns_each_is_not_rated():
    def test(lobby, clock, m, store):
        game = game_between(lobby, m["ann"], m["ben"])
        play(lobby, game, m, 3)
        say(lobby, m["ben"], "resign", game=game.id)
        over = m["ann"].last("over")
        assert over["outcome"]["winner"] == "white" and "ratings" not in over
        assert "each side has played 2 turns" in over["unrated"]
        game = game_between(lobby, m["ann"], m["ben"])
        play(lobby, game, m, 4)
        say(lobby, m["ben"], "resign", game=game.id)
        assert set(m["ann"].last("over")["ratings"]) == {"ann", "ben"}

    run(test)


def test_rated_games_between_the_same_two_are_capped():
    def test(lobby, clock, m, store):
        rated = []
        for _ in range(PAIR_RATED + 2):
            game = game_between(lobby, m["cat"], m["dan"])
            play(lobby, game, m, 4)
            say(lobby, m["dan"], "resign", game=game.id)
            rated.append("ratings" in m["cat"].last("over"))
        assert rated == [True] * PAIR_RATED + [False, False]
        assert "the most that count" in m["cat"].last("over")["unrated"]
        assert [row[3] for row in store.ladder()] == [PAIR_RATED, PAIR_RATED]

    run(test)


def test_accepting_a_draw_after_the_flag_fell_is_refused_and_the_game_lost_on_time():
    def test(lobby, clock, m, store):
        game = game_between(lobby, m["ann"], m["ben"])
        play(lobby, game, m, 4)  # white to move, its clock running
        say(lobby, m["ben"], "offer_draw", game=game.id)
        clock.t += 61
        refused = say(lobby, m["ann"], "accept_draw", game=game.id)
        assert refused.startswith("your time ran out")
        assert m["ben"].last("over")["outcome"]["winner"] == "black"

    run(test)


@pytest.mark.parametrize("back", [("ann",), ("ben",), ()])
def test_after_a_restart_a_player_who_does_not_return_loses_and_if_neither_it_is_aborted(back):
    def test(lobby, clock, m, store):
        game = game_between(lobby, m["ann"], m["ben"])
        play(lobby, game, m, 4)
        before = game.clocks(clock.t)
        clock.t += 50  # the lobby is down (a new process: its clock starts anew)
        again = Lobby(store, clock=clock, coin=lambda n: 0)
        assert again.tables.restore() == 1
        restored = again.games[game.id]
        assert restored.held and restored.clocks(clock.t) == pytest.approx(before, abs=0.01)
        fresh = {name: Member(name) for name in back}
        for member in fresh.values():
            again.arrive(member)
        clock.t += RETURN_WAIT + 1
        assert restored.clocks(clock.t) == pytest.approx(before, abs=0.01)  # held meanwhile
        again.tables.wake(restored)
        assert restored.outcome is not None and game.id not in again.games
        if len(back) == 1:
            absent = "black" if back == ("ann",) else "white"
            assert restored.outcome.winner != absent
            assert restored.outcome.reason == (
                f"{absent} did not come back within {RETURN_WAIT / 60:g} minutes of the "
                "lobby's restart"
            )
            assert "ratings" in fresh[back[0]].last("over")
        else:
            assert restored.outcome.reason.startswith("aborted: the players did not come back")
            assert store.rating("ann") is None
        assert store.live_games() == []

    run(test)


def test_a_restored_game_goes_on_when_both_are_back_with_no_time_charged_meanwhile():
    def test(lobby, clock, m, store):
        game = game_between(lobby, m["ann"], m["ben"])
        play(lobby, game, m, 4)
        before = game.clocks(clock.t)
        again = Lobby(store, clock=clock, coin=lambda n: 0)
        again.tables.restore()
        ann, ben = Member("ann"), Member("ben")
        again.arrive(ann)
        clock.t += 30
        again.arrive(ben)
        state = ann.last("game")
        assert state["held"] is None and state["clocks"] == before
        clock.t += 5
        assert again.games[game.id].clocks(clock.t)["white"] == pytest.approx(before["white"] - 5)
        play(again, again.games[game.id], {"ann": ann, "ben": ben}, 1)
        assert ben.last("turn")["ply"] == 4

    run(test)


def test_invitations_are_capped_each_way_expire_and_go_when_their_host_leaves():
    def test(lobby, clock, m, store):
        lobby.invites_in = 3
        for _ in range(lobby.invites_out):
            say(lobby, m["ann"], "invite", to=None, size="5x5", rules="standard",
                clock=(5, 0), ranked=False)  # fmt: skip
        refused = say(lobby, m["ann"], "invite", to="ben", size="5x5", rules="standard",
                      clock=(5, 0), ranked=False)  # fmt: skip
        assert refused.startswith(f"you have {lobby.invites_out} open invitations")
        for host in ("cat", "dan", "cat"):
            say(lobby, m[host], "invite", to="ben", size="5x5", rules="standard",
                clock=(5, 0), ranked=False)  # fmt: skip
        refused = say(lobby, m["dan"], "invite", to="ben", size="5x5", rules="standard",
                      clock=(5, 0), ranked=False)  # fmt: skip
        assert refused == "ben has 3 invitations waiting already: try again later"
        lobby.leave(m["cat"])
        assert [w["why"] for w in m["ben"].said if w["type"] == "withdrawn"] == [
            "cat left the lobby"
        ] * 2
        clock.t += INVITE_AGE + 1
        code = m["dan"].said[-2]["invitation"]
        refused = say(lobby, m["ben"], "accept", invitation=code)
        assert refused.startswith("that invitation is not open")
        assert lobby.invitations == {}

    run(test)


def test_a_student_plays_a_capped_number_of_games_at_once():
    def test(lobby, clock, m, store):
        for _ in range(lobby.games_each):
            game_between(lobby, m["ann"], m["ben"], ranked=False)
        refused = say(lobby, m["cat"], "invite", to="ann", size="5x5", rules="standard",
                      clock=(5, 0), ranked=False)  # fmt: skip
        assert not isinstance(refused, str)  # ann may be invited; she cannot accept
        refused = say(lobby, m["ann"], "accept", invitation=refused["invitation"])
        assert (
            refused
            == f"you already play {lobby.games_each} games, the most at once: finish one first"
        )

    run(test)


def test_the_class_view_follows_a_bounded_number_of_games_and_sums_up_the_rest():
    from fanorona.lobby.classview import SHOWN

    def test(lobby, clock, m, store):
        lobby.games_each = lobby.invites_out = lobby.invites_in = 10**6
        for _ in range(SHOWN + 30):
            game_between(lobby, m["ann"], m["ben"], ranked=False)
        teacher = Member("ms_lee", "instructor")
        lobby.arrive(teacher)
        say(lobby, teacher, "class_view")
        games = [s for s in teacher.said if s["type"] == "game"]
        assert len(games) == SHOWN and len(teacher.last("class")["games"]) == SHOWN + 30
        before = len(teacher.said)
        last = list(lobby.games.values())[-1]
        play(lobby, last, m, 1)  # a game not followed: no message to the view
        assert len(teacher.said) == before
        first = next(iter(lobby.games.values()))
        say(lobby, m["ben"], "resign", game=first.id)  # its place goes to a game not followed
        assert teacher.said[-1]["type"] == "game" and teacher.said[-2]["type"] == "over"
        assert len(teacher.said) < 3 * SHOWN

    run(test)


def test_the_class_view_keeps_a_finished_game_for_a_while_then_forgets_it():
    from fanorona.lobby.classview import KEEP

    def test(lobby, clock, m, store):
        game = game_between(lobby, m["ann"], m["ben"], ranked=False)
        say(lobby, m["ben"], "resign", game=game.id)
        early, late = Member("ms_lee", "instructor"), Member("mr_x", "instructor")
        lobby.arrive(early)
        say(lobby, early, "class_view")
        assert early.last("game")["outcome"]["reason"] == "black resigned"
        clock.t += KEEP + 1
        other = game_between(lobby, m["cat"], m["dan"], ranked=False)
        say(lobby, m["dan"], "resign", game=other.id)
        assert list(lobby.class_view.finished) == [other.id]  # the old one forgotten
        lobby.arrive(late)
        say(lobby, late, "class_view")
        assert [s["game"] for s in late.said if s["type"] == "game"] == [other.id]

    run(test)


def test_a_class_file_from_before_the_clocks_were_stored_opens_and_its_live_game_comes_back(
    tmp_path,
):
    import sqlite3

    import fanorona as fa

    db = tmp_path / "old.sqlite"
    old = sqlite3.connect(db)
    old.execute(
        "CREATE TABLE players (name VARCHAR(40) PRIMARY KEY, token_hash CHAR(64) NOT NULL UNIQUE,"
        " role VARCHAR(12) NOT NULL, mu DOUBLE PRECISION, sigma DOUBLE PRECISION,"
        " games INTEGER NOT NULL DEFAULT 0)"
    )
    old.execute(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, white VARCHAR(40) NOT NULL,"
        " black VARCHAR(40) NOT NULL, size VARCHAR(8) NOT NULL, rules VARCHAR(20) NOT NULL,"
        " clock VARCHAR(10) NOT NULL, ranked INTEGER NOT NULL,"
        " finished INTEGER NOT NULL DEFAULT 0, record TEXT NOT NULL)"
    )
    board = fa.Board((5, 5))
    board.push("b2c3A")
    record = fa.Game.from_board(board, None, "ann", "ben").to_json()
    old.execute(
        "INSERT INTO games VALUES (1, 'ann', 'ben', '5x5', 'standard', '5+0', 1, 0, ?)", (record,)
    )
    old.commit()
    old.close()

    async def main():
        lobby = Lobby(Store(db), clock=Clock())
        assert lobby.tables.restore() == 1
        game = lobby.games["g1"]
        assert [str(t) for t in game.board.turns] == ["b2c3A"] and game.held
        assert game.clocks(lobby.now()) == {"white": 300.0, "black": 300.0}

    on_a_loop(main())
