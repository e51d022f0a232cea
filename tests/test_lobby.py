"""The lobby through its real server (uvicorn on 127.0.0.1, one for the module) and Python
clients: a whole ranked game, who may do what, the protocol's walls, reconnecting, watching."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import fanorona as fa
from fanorona.lobby import LobbyClient, LobbyError
from fanorona.lobby.bot import play_game
from fanorona.lobby.protocol import MAX_BYTES
from fanorona.lobby.room import LiveGame, Refusal
from fanorona.lobby.run import Background
from fanorona.lobby.store import Store

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


@pytest.fixture(scope="module")
def lobby():
    store = Store()
    tokens = {name: store.add_player(name) for name in NAMES}
    tokens["teacher"] = store.add_player("teacher", "instructor")
    with Background(store) as server:
        server.tokens = tokens
        server.store = store
        # These tests leave games open: the caps have tests of their own (test_lobby_limits).
        server.lobby.games_each = server.lobby.invites_out = server.lobby.invites_in = 1000
        yield server


def join(lobby, name) -> LobbyClient:
    return LobbyClient(lobby.url, lobby.tokens[name], timeout=10)


def new_game(host: LobbyClient, guest: LobbyClient, **options) -> tuple[dict, dict]:
    """A game between two clients: the host's state and the guest's."""
    options = {"size": "5x5", "clock": "10+0", "ranked": False, **options}
    mark_h, mark_g = len(host.messages), len(guest.messages)
    code = host.invite(to=guest.name, **options)
    guest.wait_for(lambda m: m.get("invitation") == code, mark_g)
    state_g = guest.accept(code)
    # the host's state of this very game: a sign-in also sends the player's older live games
    state_h = host.wait_for(lambda m: m["type"] == "game" and m["game"] == state_g["game"], mark_h)
    return state_h, state_g


def white_first(a: LobbyClient, b: LobbyClient, **options):
    """A new game as (white's client, black's client, game id)."""
    sa, _ = new_game(a, b, **options)
    return (a, b, sa["game"]) if sa["you"] == "white" else (b, a, sa["game"])


def until_closed(ws) -> list[dict]:
    """Every message on a raw connection until the lobby closes it."""
    said = []
    with contextlib.suppress(ConnectionClosed):
        for raw in ws:
            said.append(json.loads(raw))  # noqa: PERF401  (kept when the close interrupts)
    return said


def refusal(client: LobbyClient, kind: str, **fields) -> str:
    with pytest.raises(LobbyError) as e:
        client.ask(kind, lambda m: False, **fields)
    return str(e.value)


def test_a_ranked_game_is_played_rated_and_recorded_replayably(lobby):
    with join(lobby, "alice") as a, join(lobby, "bob") as b:
        sa, sb = new_game(a, b, ranked=True)
        thread = threading.Thread(target=play_game, args=(a, sa, 1, 1))
        thread.start()
        over = play_game(b, sb, 2, 2)
        thread.join(30)
        record = b.record(sb["game"])
        assert record.board().outcome() == record.outcome or record.outcome.reason
        assert record.outcome.reason == over["outcome"]["reason"]
        assert (record.white, record.black) == (sa["white"], sa["black"])
        assert record.board().size == (5, 5) and len(record.turns) > 3
        ladder = {row[0]: row[1:] for row in a.ladder()}
        for name in ("alice", "bob"):
            rating, deviation, games = ladder[name]
            assert deviation < 8.3 and games == 1  # OpenSkill starts at 25 +- 8.33
            assert over["ratings"][name] == {
                "rating": round(rating, 2),
                "deviation": round(deviation, 2),
                "change": round(rating - 25.0, 2),  # the change from the newcomer's 25
            }
        winner = over["outcome"]["winner"]
        if winner:
            assert (
                ladder[sa[winner]][0]
                > 25
                > ladder[sa["black" if winner == "white" else "white"]][0]
            )


def test_an_illegal_turn_is_refused_with_the_boards_own_sentence(lobby):
    with join(lobby, "alice") as a, join(lobby, "bob") as b:
        white, _, game = white_first(a, b)
        with pytest.raises(fa.IllegalMoveError) as expected:
            fa.Board((5, 5)).push("a1b2")
        with pytest.raises(LobbyError, match="^" + str(expected.value) + "$"):
            white.play(game, 0, "a1b2")
        assert lobby.lobby.games[game].board.turns == []


def test_each_side_moves_only_its_own_stones_in_its_own_games_on_its_turn(lobby):
    with join(lobby, "alice") as a, join(lobby, "bob") as b, join(lobby, "carol") as c:
        white, black, game = white_first(a, b)
        assert "not yours" in refusal(black, "turn", game=game, ply=0, turn="b2c3A")
        assert "carol does not play in game" in refusal(c, "turn", game=game, ply=0, turn="b2c3A")
        assert "only the instructor may end a game" in refusal(c, "end_game", game=game)
        assert "only the instructor" in refusal(c, "class_view")
        white.play(game, 0, "b2c3A")
        assert "not yours" in refusal(white, "turn", game=game, ply=1, turn="c4c2A")
        assert [str(t) for t in lobby.lobby.games[game].board.turns] == ["b2c3A"]


def test_an_old_message_sent_again_is_refused(lobby):
    with join(lobby, "alice") as a, join(lobby, "bob") as b:
        white, _, game = white_first(a, b)
        white.play(game, 0, "b2c3A")
        same = {"type": "turn", "seq": white.seq, "game": game, "ply": 0, "turn": "b2c3A"}
        white.ws.send(json.dumps(same))
        said = white.wait_for(lambda m: m["type"] == "refused")
        assert "was used already" in said["message"]
        # the same turn under a new number: its turn number is old
        assert "old or repeated message" in refusal(white, "turn", game=game, ply=0, turn="b2c3A")
        assert len(lobby.lobby.games[game].board.turns) == 1


def test_a_token_of_nobody_or_in_the_url_lets_nobody_in(lobby):
    with pytest.raises(LobbyError, match="belongs to nobody in this class"):
        LobbyClient(lobby.url, lobby.tokens["alice"][:-2] + "zz")
    with connect(lobby.url + "?token=" + lobby.tokens["alice"]) as ws:
        ws.send(json.dumps({"type": "ladder", "seq": 1}))
        assert "the first message is" in until_closed(ws)[-1]["message"]


def test_a_header_token_is_taken_and_a_second_hello_drops(lobby):
    header = {"Authorization": "Bearer " + lobby.tokens["dave"]}
    with connect(lobby.url, additional_headers=header) as ws:
        assert json.loads(ws.recv(5))["name"] == "dave"
        ws.send(json.dumps({"type": "hello", "seq": 1, "token": lobby.tokens["erin"]}))
        said = until_closed(ws)
        assert said[-1] == {
            "type": "error",
            "message": "you said hello already: send it once, first",
            "code": "hello_twice",
            "params": {},
        }


@pytest.mark.parametrize(
    "raw, sentence",
    [
        ("not json", "this one is not JSON"),
        ("[1, 2]", "a message is a JSON object"),
        ('{"type": "teleport", "seq": 5}', "a message's type is one of"),
        ('{"type": "turn", "seq": 5, "game": "g1", "ply": -1, "turn": "b2c3A"}', "ply is a whole"),
        ('{"type": "invite", "seq": 5, "clock": "9999+1", "ranked": true}', "clock is minutes"),
        ('{"type": "ladder", "seq": 5, "admin": true}', "has no field 'admin'"),
        ("x" * (MAX_BYTES + 1), f"at most {MAX_BYTES} bytes"),
    ],
)
def test_a_malformed_or_oversized_message_gets_one_sentence_and_is_dropped(lobby, raw, sentence):
    with join(lobby, "alice") as a, join(lobby, "bob") as b, join(lobby, "carol") as c:
        white, _, game = white_first(a, b)
        white.play(game, 0, "b2c3A")
        before = lobby.lobby.games[game].state(0)
        c.ws.send(raw)
        with pytest.raises(LobbyError, match=sentence):
            c.wait_for(lambda m: False)
        after = lobby.lobby.games[game].state(0)
        assert before == after


def test_a_flooding_client_is_dropped_and_other_games_go_on(lobby):
    with join(lobby, "alice") as a, join(lobby, "bob") as b, join(lobby, "frank") as f:
        white, black, game = white_first(a, b)
        for n in range(200):
            try:
                f.ws.send(json.dumps({"type": "ladder", "seq": f.seq + 1 + n}))
            except Exception:  # the lobby closed the socket mid-flood
                break
        with pytest.raises(LobbyError, match="too many messages"):
            f.wait_for(lambda m: False)
        white.play(game, 0, "b2c3A")
        assert (
            black.wait_for(lambda m: m.get("game") == game and m["type"] == "turn")["turn"]
            == "b2c3A"
        )


def test_a_player_who_reconnects_finds_the_game_as_it_was(lobby):
    a, b = join(lobby, "alice"), join(lobby, "bob")
    white, black, game = white_first(a, b)
    white.play(game, 0, "b2c3A")
    name = black.name
    black.ws.close()  # the connection is lost mid-game
    with pytest.raises(LobbyError):
        white.play(game, 1, "b1b2")  # not white's turn: the game waits for black
    again = join(lobby, name)
    state = again.wait_for(lambda m: m["type"] == "game" and m["game"] == game)
    assert state["turns"] == ["b2c3A"] and state["you"] == "black"
    reply = again.play(game, 1, state["legal"][0])
    assert (
        white.wait_for(lambda m: m.get("ply") == 1 and m["type"] == "turn")["turn"] == reply["turn"]
    )
    white.close()
    again.close()


def test_a_spectator_sees_every_turn_and_the_instructor_ends_the_game(lobby):
    with join(lobby, "alice") as a, join(lobby, "bob") as b, join(lobby, "carol") as c:
        white, black, game = white_first(a, b)
        with join(lobby, "teacher") as t:
            t.send("class_view")
            assert t.wait_for(lambda m: m["type"] == "game" and m["game"] == game)["turns"] == []
            assert c.ask("watch", "game", game=game)["turns"] == []
            played = []
            for ply, mover in zip(range(4), [white, black] * 2):
                legal = lobby.lobby.games[game].legal()
                played.append(mover.play(game, ply, legal[-1])["turn"])
            c.wait_for(lambda m: m["type"] == "turn" and m["game"] == game and m["ply"] == 3)
            seen = [m["turn"] for m in c.messages if m["type"] == "turn" and m["game"] == game]
            assert seen == played
            assert "wins" not in refusal(c, "end_game", game=game)
            t.ask("end_game", "over", game=game)
            over = c.wait_for(lambda m: m["type"] == "over" and m["game"] == game)
            assert over["outcome"] == {"winner": None, "reason": "ended by the instructor teacher"}
            assert "ratings" not in over
            assert t.record(game).turns == played


def test_resign_and_draw_by_agreement(lobby):
    with join(lobby, "alice") as a, join(lobby, "bob") as b:
        white, black, game = white_first(a, b)
        assert "no draw offer" in refusal(black, "accept_draw", game=game)
        white.ask("offer_draw", "draw_offered", game=game)
        black.ask("accept_draw", "over", game=game)
        assert b.record(game).outcome == fa.Outcome(None, "agreed by both players")
        white, black, game = white_first(a, b)
        black.ask("resign", "over", game=game)
        assert a.record(game).outcome.winner == "white"
        assert "there is no live game" in refusal(white, "resign", game=game)


def test_a_flag_falls_when_the_side_to_move_runs_out_of_time():
    game = LiveGame(1, "alice", "bob", "5x5", "standard", (1, 0), False, now=0.0)
    game.play("alice", 0, "b2c3A", now=30.0)
    assert game.clocks(45.0) == {"white": 60.0, "black": 60.0}  # not started: no clock runs
    game.play("bob", 1, game.legal()[0], now=50.0)
    assert game.clocks(65.0) == {"white": 45.0, "black": 60.0}  # started: white's runs
    game.play("alice", 2, game.legal()[0], now=70.0)
    with pytest.raises(Refusal, match="your time ran out"):
        game.play("bob", 3, game.legal()[0], now=130.5)
    assert str(game.outcome) == "white wins: black ran out of time"
    assert game.record().board().turns == game.board.turns


def test_the_command_line_prints_tokens_and_the_ladder(tmp_path):
    db = str(tmp_path / "class.sqlite")
    run = [sys.executable, "-m", "fanorona.lobby"]
    out = subprocess.run(
        [*run, "tokens", db, "ann", "ben", "--instructor", "mr_x"], capture_output=True, text=True
    )
    lines = [line.split() for line in out.stdout.splitlines()]
    assert [(n, r) for n, r, _ in lines] == [
        ("ann", "student"),
        ("ben", "student"),
        ("mr_x", "instructor"),
    ]
    assert Store(db).who(lines[1][2]) == ("ben", "student")
    bad = subprocess.run([*run, "tokens", db, "no spaces"], capture_output=True, text=True)
    assert bad.returncode == 2 and "a player's name is" in bad.stderr
    assert "serve" in subprocess.run([*run, "--help"], capture_output=True, text=True).stdout


def test_who_is_online_is_told_as_people_come_and_go(lobby):
    with join(lobby, "erin") as e:
        with join(lobby, "frank"):
            e.wait_for(lambda m: "frank" in m.get("joined", ()), timeout=5)
            assert {"erin", "frank"} <= set(e.online())
        e.wait_for(lambda m: "frank" in m.get("left", ()), timeout=5)
        assert "frank" not in e.online() and "erin" in e.online()
