"""A lobby game on the kit's own board: ``fa.BoardWidget`` with a remote seat plays a whole game
against a computer client through a real lobby, the classmate's turns drawn like the computer's."""

from __future__ import annotations

import contextlib
import random
import socket
import threading
import time

import pytest

import fanorona as fa
from fanorona.lobby import LobbyClient, remote_board
from fanorona.lobby.bot import play_game
from fanorona.lobby.run import Background
from fanorona.lobby.store import Store

pytestmark = pytest.mark.filterwarnings(
    r"ignore:Passing unrecognized arguments to super\(Toolbar\):DeprecationWarning"
)


#: Seconds a test's client waits for the lobby: a suite on two loaded cores can hold a reply long.
LOADED = 60.0


def until(condition, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def click_turn(w, turn) -> None:
    """Click a whole turn on the board, choosing by name where a step captures both ways."""
    w.click(turn.start)
    for step in turn.steps:
        twins = [
            s
            for s in w.board.legal_steps()
            if (s.origin, s.destination) == (step.origin, step.destination)
        ]
        w.click(step.destination)
        if len(twins) > 1:
            w.choose(step.capture)
    if w.board.chain:
        w.end_turn()


def test_a_student_plays_a_whole_lobby_game_on_the_kits_board():
    store = Store()
    tokens = {n: store.add_player(n) for n in ("ann", "bot")}
    with (
        Background(store) as lobby,
        LobbyClient(lobby.url, tokens["ann"], timeout=LOADED) as ann,
        LobbyClient(lobby.url, tokens["bot"], timeout=LOADED) as bot,
    ):
        mark = len(bot.messages)
        code = ann.invite(to="bot", size="3x3", clock="10+0", ranked=True)
        bot.wait_for(lambda m: m.get("invitation") == code, mark)
        mark = len(ann.messages)
        state_bot = bot.accept(code)
        state = ann.game(mark)
        thread = threading.Thread(target=play_game, args=(bot, state_bot, 1, 3), daemon=True)
        thread.start()
        w = remote_board(ann, state)
        w.delay = 0
        rng = random.Random(5)
        try:
            while w.board.outcome() is None:
                until(lambda: w.board.outcome() is not None or w.board.to_move == state["you"])
                if w.board.outcome() is None:
                    click_turn(w, rng.choice(w.board.legal_turns()))
            thread.join(20)
            record = ann.record(state["game"])
            assert [str(t) for t in w.board.turns] == record.turns
            assert record.outcome == w.board.outcome() == record.board().outcome()
            assert "error" not in w.status.lower(), w.status
            assert {row[0] for row in ann.ladder()} == {"ann", "bot"}
        finally:
            w.close()


def test_a_board_taken_back_is_refused_by_the_seat():
    from types import SimpleNamespace

    from fanorona.lobby.seat import RemoteSeat
    from fanorona.ui.computer import OpponentSays

    state = {"type": "game", "game": "g1", "turns": [], "you": "white", "white": "ann",
             "black": "bot", "start": fa.Board((3, 3)).fen(), "rules": "standard"}  # fmt: skip
    seat = RemoteSeat(SimpleNamespace(messages=[state], listeners=[]), state)
    seat.turns = ["b1b2A", "a3b3"]
    with pytest.raises(OpponentSays, match="a lobby game cannot be taken back"):
        seat.choose_turn(fa.Board((3, 3)).after("b1b2A"))


#: The shortest 3x3 game: Black's second turn takes White's last stones.
SHORTEST = ["c2b2A", "a3a2A", "b2a1W", "b3b2Ac3Wc2A"]


def test_the_students_turn_that_ends_the_game_reaches_the_lobby():
    store = Store()
    tokens = {n: store.add_player(n) for n in ("ann", "bot")}
    with (
        Background(store) as lobby,
        LobbyClient(lobby.url, tokens["ann"], timeout=LOADED) as ann,
        LobbyClient(lobby.url, tokens["bot"], timeout=LOADED) as bot,
    ):
        lobby.lobby.coin = lambda n: 1  # the host, ann, plays Black
        mark = len(bot.messages)
        code = ann.invite(to="bot", size="3x3", clock="10+0", ranked=True)
        bot.wait_for(lambda m: m.get("invitation") == code, mark)
        mark = len(ann.messages)
        state_bot = bot.accept(code)
        state = ann.game(mark)
        assert state["you"] == "black"
        w = remote_board(ann, state)
        w.delay = 0
        try:
            for ply, text in enumerate(SHORTEST):
                if ply % 2 == 0:
                    if ply:  # ann's turn before it has reached the lobby
                        bot.wait_for(lambda m, n=ply - 1: m["type"] == "turn" and m["ply"] == n)
                    bot.play(state_bot["game"], ply, text)
                else:
                    until(lambda ply=ply: len(w.board.turns) == ply)
                    click_turn(w, w.board.parse_turn(text))
            over = bot.wait_for(lambda m: m["type"] == "over")
            assert over["outcome"]["winner"] == "black"
            assert ann.record(state["game"]).turns == SHORTEST
        finally:
            w.close()


def seat_game(lobby, tokens, size="5x5"):
    """ann (White, on the kit's board) against bot (a client the test moves)."""
    ann = LobbyClient(lobby.url, tokens["ann"], timeout=LOADED)
    bot = LobbyClient(lobby.url, tokens["bot"], timeout=LOADED)
    lobby.lobby.coin = lambda n: 0  # the host, ann, plays White
    code = ann.invite(to="bot", size=size, clock="10+0", ranked=True)
    bot.wait_for(lambda m: m.get("invitation") == code)
    mark = len(ann.messages)
    state_bot = bot.accept(code)
    return ann, bot, ann.game(mark), state_bot["game"]


def bot_moves(bot, w, game):
    """The bot plays the first legal turn of the lobby's game (after ann's has reached it)."""
    ply = len(w.board.turns)
    bot.wait_for(lambda m: ply == 0 or (m["type"] == "turn" and m["ply"] == ply - 1))
    return bot.play(game, ply, str(w.board.legal_turns()[0]))


@contextlib.contextmanager
def seated(lobby, tokens, language=None):
    """ann on the kit's board against bot, all closed at the end: (ann, bot, game, board)."""
    ann, bot, state, game = seat_game(lobby, tokens)
    w = remote_board(ann, state, language=language) if language else remote_board(ann, state)
    try:
        yield ann, bot, game, w
    finally:
        w.close()
        ann.close()
        bot.close()


def rounds(w, bot, game, n):
    """``n`` rounds: ann's first legal turn, then bot's, each seen on the board."""
    for _ in range(n):
        click_turn(w, w.board.legal_turns()[0])
        bot_moves(bot, w, game)
        until(lambda: len(w.board.turns) % 2 == 0)


def test_a_lobby_board_offers_only_what_the_lobby_allows_and_shows_the_result_and_rating():
    from fanorona.lobby.seat import NOT_IN_A_LOBBY_GAME

    store = Store()
    tokens = {n: store.add_player(n) for n in ("ann", "bot")}
    with (
        Background(store) as lobby,
        seated(lobby, tokens, language="de") as (ann, bot, game, w),
    ):
        for name in NOT_IN_A_LOBBY_GAME:
            assert w.controls[name].layout.display == "none", name
        assert w.controls["end_turn"].layout.display != "none"
        assert w.delay == 0  # the classmate's turn is drawn at once
        rounds(w, bot, game, 2)
        bot.ask("resign", "over", game=game)
        until(lambda: "gewonnen" in w.lobby_line.value)
        line = w.lobby_line.value
        rating = ann.wait_for(lambda m: m["type"] == "over")["ratings"]["ann"]
        won = "Du hast gewonnen. Schwarz hat aufgegeben."
        assert f"{won} Deine Wertung: {rating['rating']}" in line
        assert f"({rating['change']:+.2f})" in line


def test_a_lost_connection_and_a_sign_in_elsewhere_lose_no_turn():
    store = Store()
    tokens = {n: store.add_player(n) for n in ("ann", "bot")}
    with Background(store) as lobby, seated(lobby, tokens) as (ann, bot, game, w):
        click_turn(w, w.board.legal_turns()[0])
        bot_moves(bot, w, game)
        until(lambda: len(w.board.turns) == 2)
        # the connection dies on ann's turn: her next turn is kept, and sent once it is back
        ann.ws.socket.shutdown(socket.SHUT_RDWR)
        click_turn(w, w.board.legal_turns()[0])
        reply = bot.wait_for(lambda m: m["type"] == "turn" and m["ply"] == 2, timeout=LOADED)
        assert reply["turn"] == str(w.board.turns[2])
        until(lambda: w.seat.news == "back")
        # the connection dies while the classmate thinks: her turn still arrives
        ann.ws.socket.shutdown(socket.SHUT_RDWR)
        bot_moves(bot, w, game)
        until(lambda: len(w.board.turns) == 4)
        # ann signs in elsewhere while the classmate thinks: this board says so, offers the
        # seat back, and takes it back with the classmate's turn played meanwhile
        click_turn(w, w.board.legal_turns()[0])
        bot.wait_for(lambda m: m["type"] == "turn" and m["ply"] == 4)
        elsewhere = LobbyClient(lobby.url, tokens["ann"], timeout=LOADED)
        until(lambda: w.seat.news == "elsewhere")
        assert "failed" not in w.status and "Error" not in w.status, w.status
        assert w.take_seat_button.layout.display != "none"
        assert "signed in somewhere else" in w.lobby_line.value
        bot.play(game, 5, str(bot.record(game).board().legal_turns()[0]))
        w.take_seat_button.click()
        until(lambda: len(w.board.turns) == 6)
        assert w.take_seat_button.layout.display == "none"
        until(lambda: elsewhere.closed is not None)
        assert "somewhere else" in elsewhere.closed
        assert [str(t) for t in w.board.turns] == bot.record(game).turns
        assert "failed" not in w.status and "Error" not in w.status, w.status
        elsewhere.close()


def test_a_seat_on_a_client_closed_on_purpose_does_not_sign_in_again():
    """A program that closes its client is done with the lobby: the seat on it must not connect
    again behind its back, or it would push out the player's next sign-in ("connected again from
    somewhere else")."""
    from fanorona.lobby.seat import RemoteSeat

    store = Store()
    tokens = {n: store.add_player(n) for n in ("ann", "ben")}
    with Background(store) as lobby, LobbyClient(lobby.url, tokens["ben"], timeout=LOADED) as ben:
        ann = LobbyClient(lobby.url, tokens["ann"], timeout=LOADED)
        mark = len(ben.messages)
        code = ann.invite(to="ben", size="5x5", clock="10+0", ranked=False)
        ben.wait_for(lambda m: m.get("invitation") == code, mark)
        state = ben.accept(code)
        mine = ann.wait_for(lambda m: m["type"] == "game" and m["game"] == state["game"])
        RemoteSeat(ann, mine)  # a seat listens to its client, and heals a lost connection
        ann.close()
        with LobbyClient(lobby.url, tokens["ann"], timeout=LOADED) as again:
            time.sleep(2.0)  # time for a seat's reconnection, were there one
            assert again.closed is None, again.closed
            assert isinstance(again.ladder(), list)


def test_a_classmate_resigning_while_the_board_waits_shows_the_result_not_a_failure():
    store = Store()
    tokens = {n: store.add_player(n) for n in ("ann", "bot")}
    with Background(store) as lobby, seated(lobby, tokens) as (_ann, bot, game, w):
        rounds(w, bot, game, 2)
        click_turn(w, w.board.legal_turns()[0])  # the board now waits for bot's turn
        bot.wait_for(lambda m: m["type"] == "turn" and m["ply"] == 4)
        over = bot.ask("resign", "over", game=game)
        until(lambda: "won" in w.status)
        rating = over["ratings"]["ann"]
        assert w.status.startswith("You won. Black resigned. Your rating: "), w.status
        assert f"{rating['rating']} ± {rating['deviation']} ({rating['change']:+.2f})" in w.status
        assert "failed" not in w.status and "Error" not in w.status, w.status
        assert w.controller.error is None
        turns = len(w.board.turns)
        w.click(str(w.board.legal_turns()[0].start))  # the game is over: no stone moves
        assert len(w.board.turns) == turns and w.controller.selected is None
        assert "The game is over" in w.status and "You won" in w.status, w.status


def test_a_game_ended_on_the_students_turn_is_shown_and_takes_no_more_turns():
    store = Store()
    tokens = {n: store.add_player(n, r) for n, r in (("ann", "student"), ("bot", "student"),
                                                      ("ms", "instructor"))}  # fmt: skip
    with (
        Background(store) as lobby,
        LobbyClient(lobby.url, tokens["ms"], timeout=LOADED) as ms,
        seated(lobby, tokens, language="da") as (_ann, bot, game, w),
    ):
        click_turn(w, w.board.legal_turns()[0])
        bot_moves(bot, w, game)
        until(lambda: len(w.board.turns) == 2)
        ms.send("end_game", game=game)  # on ann's turn: her clicks are over too
        until(lambda: "Remis" in w.status)
        assert "fejlede" not in w.status and "Error" not in w.status, w.status
        w.click(str(w.board.legal_turns()[0].start))
        assert len(w.board.turns) == 2 and w.controller.selected is None
        assert w.status.startswith("Spillet er slut. Remis."), w.status


def test_a_turn_the_lobby_refuses_is_said_as_a_sentence_not_a_failure():
    store = Store()
    tokens = {n: store.add_player(n) for n in ("ann", "bot")}
    with Background(store) as lobby, seated(lobby, tokens) as (_ann, bot, game, w):
        click_turn(w, w.board.legal_turns()[0])
        bot_moves(bot, w, game)
        until(lambda: len(w.board.turns) == 2)
        w.undo()  # a program takes a turn back (the button is hidden in a lobby game)
        click_turn(w, w.board.legal_turns()[-1])
        until(lambda: "left the lobby" in w.status or "failed" in w.status)
        assert "a lobby game cannot be taken back" in w.status, w.status
        assert "failed" not in w.status and "Error" not in w.status, w.status
