"""The player protocol: a program in another language plays a match, the kit's levels and a
student's file are served over it, and whatever a player sends wrong is one sentence naming it and
the line, and a forfeit."""

import copy
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from fanorona import Board, Rules
from fanorona.engine import ai
from fanorona.engine.arena import run_match
from fanorona.engine.protocol import PlayerFault, board_from, position_line
from fanorona.engine.remote import RemotePlayer, Timeouts, read_answer
from fanorona.engine.serve import Server

SERVE = [sys.executable, "-m", "fanorona.engine.serve"]

# A player in POSIX shell, the one the protocol's page shows: it has no move generator, and plays
# the first of the legal turns the client lists before each 'go'.
PAGE = Path(__file__).parent.parent / "docs" / "reference" / "player-protocol.md"
FIRST_LEGAL = PAGE.read_text().split("```sh\n")[1].split("```")[0].removeprefix("#!/bin/sh\n")


def _script(tmp_path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + textwrap.dedent(body))
    path.chmod(0o755)
    return str(path)


def test_a_shell_program_plays_a_match_over_the_protocol(tmp_path):
    script = _script(tmp_path, "first.sh", FIRST_LEGAL)
    result = run_match(f"program:{script}", "greedy", 2, size=(5, 5), seed=2, progress=False)
    assert len(result.games) == 2
    for game in result.games:
        assert not game.reason.startswith("forfeit"), game.reason
        board = Board((5, 5))
        for turn in game.opening.split():
            board.push(turn)
        shell = "white" if game.a_white else "black"
        for turn in game.turns:
            if board.to_move.value == shell:
                assert turn == str(board.legal_turns()[0]), "the shell plays the first legal turn"
            board.push(turn)
        assert board.outcome() is not None and game.reason == board.outcome().reason
    assert result.games[0].moves["a"] > 0 and result.nodes_per_second("a") is not None


@pytest.mark.skipif(subprocess.run(["which", "cc"], capture_output=True).returncode, reason="no cc")
def test_a_c_program_plays_a_game_over_the_protocol(tmp_path):
    source = tmp_path / "first.c"
    source.write_text(
        textwrap.dedent(
            r"""
            #include <stdio.h>
            #include <string.h>
            int main(void) {
                static char line[70000], first[64];
                setvbuf(stdout, NULL, _IOLBF, 0);
                while (fgets(line, sizeof line, stdin)) {
                    if (!strncmp(line, "fanorona ", 9)) puts("fanorona 1 name cfirst");
                    else if (!strncmp(line, "newgame ", 8)) puts("ready");
                    else if (!strncmp(line, "legal ", 6)) {
                        sscanf(line + 6, "%63s", first);
                        puts("ok");
                    }
                    else if (!strncmp(line, "go", 2)) printf("turn %s\n", first);
                    else if (!strncmp(line, "quit", 4)) return 0;
                    else puts("ok");
                }
                return 0;
            }
            """
        )
    )
    subprocess.run(["cc", "-O", "-o", str(tmp_path / "first"), str(source)], check=True)
    result = run_match(f"program:{tmp_path / 'first'}", "random", 2, size=(5, 3), progress=False)
    assert all(not g.reason.startswith("forfeit") for g in result.games)


def test_a_served_level_chooses_what_it_chooses_in_process():
    """The protocol carries the position whole: the served fixed-depth search answers each
    position with the turn the same search in this process picks."""
    served = RemotePlayer([*SERVE, "alphabeta:depth=3"], seed=5)
    board = Board()
    try:
        for _ in range(6):
            here = ai.make_player("alphabeta:depth=3", seed=5).choose_turn(board)
            there = served.choose_turn(board.copy())
            assert str(there) == str(here)
            board.push(there)
        assert served.last_search is not None and served.last_search.depth >= 1
    finally:
        served.close()


def test_a_students_file_is_served_and_plays(tmp_path):
    (tmp_path / "mine.py").write_text(
        "class Last:\n    def choose_turn(self, board):\n        return board.legal_turns()[-1]\n"
    )
    player = RemotePlayer([*SERVE, str(tmp_path / "mine.py")])
    board = Board((5, 3))
    try:
        assert str(player.choose_turn(board)) == str(board.legal_turns()[-1])
    finally:
        player.close()


def test_serve_refuses_a_file_without_a_player(tmp_path):
    (tmp_path / "none.py").write_text("x = 1\n")
    run = subprocess.run([*SERVE, str(tmp_path / "none.py")], capture_output=True, text=True)
    assert run.returncode == 2 and "defines no player" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize(
    "body, said",
    [
        (  # an illegal turn
            'while read -r c r; do case "$c" in fanorona) echo "fanorona 1 name x";;'
            " newgame) echo ready;; go) echo 'turn a1a1';; *) echo ok;; esac; done",
            "answered 'turn a1a1', which is not a legal turn here",
        ),
        (  # words where a turn belongs
            'while read -r c r; do case "$c" in fanorona) echo "fanorona 1 name x";;'
            " newgame) echo ready;; go) echo 'I resign';; *) echo ok;; esac; done",
            "answered 'I resign' where 'turn TURN'",
        ),
        (  # silence past its time
            'while read -r c r; do case "$c" in fanorona) echo "fanorona 1 name x";;'
            " newgame) echo ready;; go) sleep 30;; *) echo ok;; esac; done",
            "did not answer 'go movetime 100' within 1.1 s",
        ),
        (  # an exit halfway
            'while read -r c r; do case "$c" in fanorona) echo "fanorona 1 name x";;'
            " newgame) echo ready;; go) echo oops >&2; exit 3;; *) echo ok;; esac; done",
            "ended (exit code 3, its last words 'oops') without answering 'go movetime 100'",
        ),
        (  # another version
            "read -r c r; echo 'fanorona 2 name x'; sleep 30",
            "answered 'fanorona 2 name x' to the handshake",
        ),
        (  # an error line of its own
            'while read -r c r; do case "$c" in fanorona) echo "fanorona 1 name x";;'
            " newgame) echo 'error no such rules';; *) echo ok;; esac; done",
            "(saying 'no such rules'; expected 'ready')",
        ),
    ],
)
def test_a_broken_player_forfeits_with_one_sentence_naming_it_and_the_line(tmp_path, body, said):
    script = _script(tmp_path, "bad.sh", body)
    bad = RemotePlayer([script], name="badbot", movetime=0.1, timeouts=Timeouts(grace=1))
    result = run_match(bad, "greedy", 2, size=(5, 3), seed=1, progress=False)
    for game in result.games:
        assert game.winner == "b"
        assert game.reason.startswith("forfeit: badbot: ") and said in game.reason, game.reason
        assert "\n" not in game.reason and "Traceback" not in game.reason


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(line=st.text(max_size=40) | st.builds(lambda t: "turn " + t, st.text(max_size=12)))
def test_any_answer_to_go_is_a_legal_turn_info_or_a_fault_naming_the_player_and_line(line):
    board = Board((5, 5))
    try:
        turn = read_answer("rando", board, line)
    except PlayerFault as fault:
        assert str(fault).startswith("rando: ") and repr(line) in str(fault)
        return
    if turn is None:
        assert line.split()[0] == "info"
    else:
        assert str(turn) in {str(t) for t in board.legal_turns()}
        assert line.split() == ["turn", line.split()[1]]


_COMMANDS = st.sampled_from(
    [
        "fanorona 1",
        "fanorona 9",
        "newgame 5x3 standard",
        "newgame 9x5 czech seed 3",
        "newgame 4x4 standard",
        "newgame 9x5 nope",
        "position startpos",
        "position startpos turns c2b2A",
        "position startpos turns zz",
        "position fen x",
        "legal a b",
        "takeback",
        "stop",
        "go movetime x",
        "hello",
        "",
    ]
)


@settings(max_examples=100, deadline=None)
@given(lines=st.lists(_COMMANDS | st.text(max_size=20), max_size=12))
def test_the_server_answers_every_line_with_a_line_of_the_protocol_and_never_fails(lines):
    """Whatever a client sends (no 'go' here: that answers later), the server answers with lines
    the protocol has, an error being one sentence, and keeps going."""
    server = Server(ai.make_player("greedy"), "greedy")
    for line in lines:
        answer = server.handle(line)
        assert answer is not None
        assert len(answer) == (1 if line.split() and line.split()[0] != "stop" else 0)
        for out in answer:
            assert out.split()[0] in {"fanorona", "ready", "ok", "error"}, out
            assert "\n" not in out


def test_the_server_takes_a_turn_back_and_stops_a_search_when_told():
    server = Server(ai.make_player("alphabeta:time=30"), "slow")
    assert server.handle("fanorona 1") == ["fanorona 1 name slow"]
    assert server.handle("newgame 9x5 standard") == ["ready"]
    assert server.handle("position startpos turns d2e3A") == ["ok"]
    assert server.handle("takeback") == ["ok"] and server.board.turns == []
    assert server.handle("takeback")[0].startswith("error no turn to take back")
    assert server.handle("go movetime 30000") is None
    assert server.handle("position startpos")[0].startswith("error 'position' came while")
    assert server.handle("stop") == []
    assert server.answers.get(timeout=10) == "cancelled"


class _Says:
    """A player whose choose_turn does what the test says."""

    def __init__(self, act):
        self.choose_turn = act


@pytest.mark.parametrize(
    "act, said",
    [
        (lambda board: {"turn": 42}, "error choose_turn returned dict {'turn': 42}, not a Turn"),
        (lambda board: sys.exit(3), "error the player failed: SystemExit: 3"),
        (lambda board: 1 / 0, "error the player failed: ZeroDivisionError: division by zero"),
    ],
)
def test_a_served_player_that_fails_or_returns_no_turn_answers_an_error_line(act, said):
    server = Server(_Says(act), "odd")
    assert server.handle("fanorona 1") == ["fanorona 1 name odd"]
    assert server.handle("newgame 5x3 standard") == ["ready"]
    assert server.handle("go") is None
    assert server.answers.get(timeout=10).startswith(said)


def test_a_served_game_replays_only_the_new_turns_of_each_position(monkeypatch):
    server = Server(_Says(lambda board: board.legal_turns()[0]), "first")
    server.handle("fanorona 1"), server.handle("newgame 9x5 standard")
    assert server.handle("position startpos turns d3e3W") == ["ok"]
    before = server.board
    pushed = []
    monkeypatch.setattr(Board, "push", lambda self, turn: pushed.append(str(turn)))
    assert server.handle("position startpos turns d3e3W f4f3A") == ["ok"]
    assert pushed == ["f4f3A"] and before.turns and len(before.turns) == 1


def test_a_stop_reaches_a_served_search_through_the_client():
    player = RemotePlayer([*SERVE, "alphabeta:time=30"], movetime=30)
    stop = threading.Event()
    threading.Timer(1.0, stop.set).start()
    try:
        with pytest.raises(ai.SearchCancelled):
            player.choose_turn(Board(), stop)
    finally:
        player.close()


def test_a_copy_of_a_remote_player_starts_a_program_of_its_own(tmp_path):
    script = _script(tmp_path, "first.sh", FIRST_LEGAL)
    player = RemotePlayer([script])
    try:
        player.choose_turn(Board((5, 3)))
        twin = copy.deepcopy(player)
        assert twin.pipe._process is None and player.pipe._process is not None
    finally:
        player.close()


def test_the_position_line_replays_to_the_same_board():
    board = Board()
    for _ in range(5):
        board.push(board.legal_turns()[-1])
    again = board_from(Board(), position_line(board).split()[1:])
    assert again.fen() == board.fen() and again.quiet_turns == board.quiet_turns


def test_a_game_from_a_set_up_position_is_refused_before_any_program_starts():
    player = RemotePlayer(["/nonexistent/player"])
    board = Board.from_fen("BB./B.W/WWW w")  # a stone short of the 3x3 start
    with pytest.raises(ValueError, match="played from the size's starting position"):
        player.choose_turn(board)


def test_a_students_player_that_fails_forfeits_with_its_error(tmp_path):
    (tmp_path / "broken.py").write_text("def choose_turn(board):\n    return 1 / 0\n")
    served = RemotePlayer([*SERVE, str(tmp_path / "broken.py")], name="broken")
    result = run_match(served, "random", 2, size=(5, 3), seed=1, progress=False)
    for game in result.games:
        assert game.winner == "b" and game.reason.startswith("forfeit: broken: answered 'error")
        assert "the player failed: ZeroDivisionError: division by zero" in game.reason


class ServerMachine(RuleBasedStateMachine):
    """The server against a model of its game: whatever order the commands come in, it answers
    each with one line of the protocol, holds the position the model holds, and answers 'go'
    with a legal turn of that position."""

    def __init__(self):
        super().__init__()
        self.server = Server(ai.make_player("greedy"), "greedy")
        assert self.server.handle("fanorona 1") == ["fanorona 1 name greedy"]
        self.board = None

    def _one(self, line):
        answer = self.server.handle(line)
        assert answer is not None and len(answer) == 1, (line, answer)
        return answer[0]

    @rule(size=st.sampled_from(["5x3", "3x3", "5x5"]), rules=st.sampled_from(["standard", "czech"]))
    def newgame(self, size, rules):
        assert self._one(f"newgame {size} {rules}") == "ready"
        w, h = (int(n) for n in size.split("x"))
        self.board = Board((w, h), Rules.named(rules))

    @precondition(lambda self: self.board is not None)
    @rule(pick=st.integers(0, 10**6))
    def play_a_turn_by_position(self, pick):
        turns = self.board.legal_turns()
        if self.board.outcome() is None and turns:
            self.board.push(turns[pick % len(turns)])
        assert self._one(position_line(self.board)) == "ok"

    @precondition(lambda self: self.board is not None)
    @rule(text=st.text(max_size=8))
    def a_bad_position_changes_nothing(self, text):
        if " " in text or not text.strip():
            return
        answer = self._one(f"{position_line(self.board)} turns {text}")
        if answer.startswith("error"):
            assert self.server.board.fen() == self.board.fen()
        else:
            assert answer == "ok"
            self.board = self.server.board.copy()

    @precondition(lambda self: self.board is not None)
    @rule()
    def takeback(self):
        answer = self._one("takeback")
        if self.board.turns:
            assert answer == "ok"
            turns = [str(t) for t in self.board.turns[:-1]]
            self.board = board_from(self.board.root(), ["startpos", "turns", *turns])
        else:
            assert answer.startswith("error no turn to take back")

    @precondition(lambda self: self.board is not None)
    @rule()
    def go(self):
        answer = self.server.handle("go")
        if self.board.outcome() is not None:
            assert answer[0].startswith("error the game is over")
            return
        assert answer is None
        reply = self.server.answers.get(timeout=30)
        assert reply.startswith("turn ")
        assert reply.split()[1] in {str(t) for t in self.board.legal_turns()}

    @invariant()
    def same_position(self):
        if self.board is not None and self.server.board is not None:
            assert self.server.board.fen() == self.board.fen()
            assert self.server.board.quiet_turns == self.board.quiet_turns


ServerMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=25, deadline=None)
test_the_server_holds_the_position_a_client_sends = ServerMachine.TestCase
