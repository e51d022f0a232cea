"""The computer runner, driven by fake players that wait on events (no sleeps, no real search)."""
import threading


import fanorona as fa

CHAIN = "B....\n.....\n..B..\n....B\n..W.."


class Gate:
    """Plays the first legal turn once the test opens the gate; says when it was asked."""
    name = "gate"

    def __init__(self, text=None):
        self.asked, self.go, self.text = threading.Event(), threading.Event(), text
        self.boards = []

    def choose_turn(self, board):
        self.boards.append(board)
        self.asked.set()
        assert self.go.wait(30), "the test never opened the gate"
        return board.parse_turn(self.text) if self.text else board.legal_turns()[0]


def test_the_computer_thinks_on_a_copy_and_plays_through_the_controller(made):
    player = Gate()
    c = made(opponent=player)
    c.model.push("d3e3W")
    c.runner.kick()
    assert player.asked.wait(10)
    assert player.boards[0] is not c.model and player.boards[0] == c.model
    assert c.status.startswith("Gate is thinking")
    player.go.set()
    c.runner.wait()
    assert len(c.model.turns) == 2 and c.model.to_move == "white"
    assert c.status.startswith(f"Gate played {c.model.turns[1]}")


def test_a_chain_is_played_one_step_at_a_time(made):
    player = Gate("c1c2Ad2A")
    player.go.set()
    c = made(fa.Board.from_diagram(CHAIN), opponent=player)
    seen = []
    c.observe(lambda: seen.append([str(s) for s in c.model.chain]))
    c.set_computer("white")
    c.runner.wait()
    assert ["c1c2A"] in seen, "the position after the first capture was shown"
    assert [str(t) for t in c.model.turns] == ["c1c2Ad2A"]


def test_a_turn_that_stops_a_chain_early_ends_it(made):
    player = Gate("c1c2A")
    player.go.set()
    c = made(fa.Board.from_diagram(CHAIN), opponent=player)
    c.set_computer("white")
    c.runner.wait()
    assert [str(t) for t in c.model.turns] == ["c1c2A"] and c.model.to_move == "black"


def test_cancelling_wakes_the_pause_between_steps(made):
    player = Gate("c1c2Ad2A")
    player.go.set()
    c = made(fa.Board.from_diagram(CHAIN), opponent=player, delay=10)
    c.set_computer("white")
    assert player.asked.wait(10)
    c.set_computer("nobody")    # cancels: the runner must not sit out its 10 s pause before the first step
    c.runner.wait(timeout=10)
    assert not c.runner.busy()
    assert c.model == fa.Board.from_diagram(CHAIN)


def test_a_late_answer_is_dropped(made):
    player = Gate()
    c = made(opponent=player)
    c.model.push("d3e3W")
    c.runner.kick()
    assert player.asked.wait(10)
    c.new_game()
    player.go.set()
    c.runner.wait()
    assert c.model == fa.Board() and c.model.turns == []


def test_players_are_made_once_per_level_size_and_rules(made):
    c = made()
    runner = c.runner
    three = fa.Board((3, 3))
    assert runner.player(2, three) is runner.player(2, three)
    assert runner.player(2, three) is not runner.player(3, three)
    assert runner.player(2, three) is not runner.player(2, fa.Board((5, 3)))
    assert runner.player(2, three) is not runner.player(2, fa.Board((3, 3), fa.Rules.simple()))


def test_both_sides_play_to_the_end(made):
    c = made(fa.Board((3, 3)))
    c.set_level(1)
    c.set_computer("both")
    c.runner.wait(60)
    assert c.model.is_game_over() and c.error is None
    assert "wins" in c.status or "Draw" in c.status


def test_a_failing_player_is_reported_and_the_thread_ends(made):
    class Failing:
        name = "failing"

        def choose_turn(self, board):
            raise ZeroDivisionError("no move")
    c = made(opponent=Failing())
    c.model.push("d3e3W")
    c.runner.kick()
    c.runner.wait()
    assert isinstance(c.error, ZeroDivisionError) and not c.runner.busy()
    assert c.status.startswith("The computer failed: ZeroDivisionError: no move")


def test_the_status_says_so_while_the_compiled_search_is_prepared(made):
    """A player that is not ready (the compiled search or an endgame table not loaded yet) is
    prepared first, with its own sentence in the status line, and only then asked for a turn."""
    class Unprepared(Gate):
        def __init__(self):
            super().__init__()
            self.preparing, self.prepared = threading.Event(), threading.Event()

        def ready(self, board):
            return self.prepared.is_set()

        def prepare(self, board, progress):
            self.preparing.set()
            assert self.prepared.wait(30), "the test never finished preparing"
    player = Unprepared()
    c = made(opponent=player)
    c.model.push("d3e3W")
    c.runner.kick()
    assert player.preparing.wait(10)
    assert "is getting ready" in c.status and not player.asked.is_set()
    player.prepared.set()
    assert player.asked.wait(10)
    assert "is thinking" in c.status
    player.go.set()
    c.runner.wait()
    assert len(c.model.turns) == 2 and c.error is None
