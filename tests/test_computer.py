"""The computer runner, driven by fake players that wait on events (no sleeps, no real search)."""

import io
import subprocess
import sys
import threading
import time

import fanorona as fa
from fanorona.ui.labels import say

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
    assert c.status.startswith("gate is thinking")
    player.go.set()
    c.runner.wait()
    assert len(c.model.turns) == 2 and c.model.to_move == "white"
    assert c.status.startswith(f"gate played {c.model.turns[1]}")


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
    c.set_computer(
        "nobody"
    )  # cancels: the runner must not sit out its 10 s pause before the first step
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
    outcome = c.model.outcome()
    result = (
        say("en", "win", side=outcome.winner, reason=outcome.reason)
        if outcome.winner
        else say("en", "draw", reason=outcome.reason)
    )
    assert c.status.rstrip(".").endswith(result.rstrip(".")), (
        "the status ends with the game's own result"
    )


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


# -- cancelling, the players' cache, progress while waiting ------------------------------------


class Stoppable:
    """A search that runs until it is told to stop (the ``stop`` event of ``fanorona.engine.ai``'s
    players)."""

    name = "stoppable"

    def __init__(self):
        self.asked, self.stops, self.ended = threading.Event(), [], threading.Event()

    def choose_turn(self, board, stop=None):
        self.stops.append(stop)
        self.asked.set()
        try:
            if stop is not None and stop.wait(30):
                raise RuntimeError("search cancelled")
            time.sleep(3)  # a player that is never told keeps searching to its time limit
            return board.legal_turns()[0]
        finally:
            self.ended.set()


def test_a_cancelled_search_is_told_to_stop_and_ends_at_once(made):
    player = Stoppable()
    c = made(opponent=player)
    clicks = ("d3", "e3")
    for point in clicks:
        c.click(point)
    c.choose("approach")
    assert player.asked.wait(10)
    c.undo()
    assert isinstance(player.stops[0], threading.Event) and player.stops[0].is_set()
    assert player.ended.wait(1.0), "the search ended when told, not at its time limit"
    c.runner.wait(10)
    assert c.error is None and c.model == fa.Board() and "failed" not in c.status


class Forgetful:
    """Keeps its search state on itself, as the old search did: two searches at once would clash."""

    name = "forgetful"

    def __init__(self):
        self.board, self.running, self.most, self.count = None, 0, 0, threading.Lock()

    def choose_turn(self, board):
        with self.count:
            self.running += 1
            self.most = max(self.most, self.running)
        self.board = board
        time.sleep(0.3)
        turn = self.board.legal_turns()[0]
        self.board = None
        with self.count:
            self.running -= 1
        return turn


def test_a_cancelled_search_never_shares_its_player_with_the_next(made):
    player = Forgetful()
    c = made(opponent=player)
    c.click("d3"), c.click("e3"), c.choose("approach")
    time.sleep(0.05)  # the computer is thinking
    c.undo()
    c.click("d2"), c.click("e3")  # a new move: a new search while the cancelled one still runs
    c.runner.wait(10)
    assert player.most == 1, "two searches ran at once on one player"
    assert c.error is None, c.status
    assert [str(t) for t in c.model.turns][:1] == ["d2e3A"] and len(c.model.turns) == 2


def test_the_runner_keeps_a_bounded_cache_of_players(made):
    from fanorona.ui.controller import SIZES

    runner = made().runner
    for size in SIZES:
        runner.player(2, fa.Board(size))
    assert len(runner.players) == 2, (
        "one player per size played would keep a 72 MB table each at level 5"
    )
    last = fa.Board(SIZES[-1])
    assert runner.player(2, last) is runner.player(2, last)


class Building(Gate):
    """A player whose first turn waits for a table to be built, shown by a package bar of four."""

    def __init__(self):
        super().__init__()
        self.built = False

    def ready(self, board):
        return self.built

    def prepare(self, board, progress):
        from fanorona.engine.bars import bar as progress_bar

        options = dict(total=4, desc="building a table", file=io.StringIO(), mininterval=0)
        with progress_bar(notebook=False, **options) as bar:
            for _ in range(4):
                time.sleep(0.4)
                bar.update(1)
        self.built = True


def test_a_long_wait_reports_its_progress_and_time_left_as_state(made):
    player = Building()
    player.go.set()
    c = made(opponent=player)
    seen = []
    c.observe(lambda: seen.append((c.progress, c.status)))
    c.model.push("d3e3W")
    c.runner.kick()
    c.runner.wait(20)
    readings = [(p, status) for p, status in seen if p is not None]
    assert readings, "the bar was read while the table was built"
    middle = [
        (p, status) for p, status in readings if 0 < p.fraction < 1 and p.remaining is not None
    ]
    assert middle and all(p.what == "building a table" for p, _ in middle)
    progress, status = middle[-1]
    assert 0 < progress.remaining < 5
    assert (
        f"Building a table: {round(100 * progress.fraction)}% done, about {progress.left} left"
        in status
    )
    assert c.progress is None and len(c.model.turns) == 2 and c.error is None


def test_the_search_line_says_a_table_answered_instead_of_depth_99(made):
    from fanorona.engine.ai import SearchInfo

    class Tabled(Gate):
        last_search = SearchInfo(99, 1234, 0.01, 0.0, ["a1b1"])

    player = Tabled()
    player.go.set()
    c = made(opponent=player)
    c.model.push("d3e3W")
    c.runner.kick()
    c.runner.wait()
    assert (
        c.shows.search_line
        == "Looked up in the endgame table: 1,234 nodes in 0.01 s (123,400/s), score +0, line a1b1"
    )
    assert "depth" not in c.shows.search


def test_a_new_game_during_the_wait_drops_its_progress(made):
    player = Building()
    player.go.set()
    c = made(opponent=player)
    c.model.push("d3e3W")
    c.runner.kick()
    deadline = time.monotonic() + 10
    while c.progress is None:
        assert time.monotonic() < deadline, "no progress was shown"
        time.sleep(0.02)
    c.set_computer("nobody")
    later = []
    c.observe(lambda: later.append(c.progress))
    c.runner.wait(20)
    assert c.progress is None and all(p is None for p in later), "a cancelled wait shows no bar"
    assert len(c.model.turns) == 1 and not player.asked.is_set(), "and its turn is not searched"


def test_while_a_cancelled_search_ends_the_next_turn_already_says_thinking(made):
    player = Gate()
    c = made(opponent=player)
    c.click("d3"), c.click("e3"), c.choose("approach")
    assert player.asked.wait(10)
    c.undo()  # the gate stays shut: the cancelled search runs on
    c.click("d2"), c.click("e3")
    deadline = time.monotonic() + 10
    while not c.status.startswith("gate is thinking"):
        assert time.monotonic() < deadline, c.status
        time.sleep(0.01)
    assert len(player.boards) == 1, "the new search waits for the cancelled one"
    player.go.set()
    c.runner.wait(10)
    assert len(player.boards) == 2 and len(c.model.turns) == 2 and c.error is None


def test_levels_1_and_2_play_without_loading_the_compiled_search():
    """The play page starts at level 2: its kernel need not load numba (35 MB of its own memory and
    100 MB of library code) until a level that searches is chosen."""
    script = (
        "import sys\n"
        "from fanorona.ui.controller import Controller\n"
        "for level in (1, 2):\n"
        "    c = Controller(size=(5, 5), opponent=level)\n"
        "    c.set_delay(0)\n"
        "    c.set_computer('both')\n"
        "    c.runner.wait(60)\n"
        "    c.set_computer('nobody')\n"
        "    c.runner.wait(60)\n"
        "    assert c.model.turns, 'the computer played nothing'\n"
        "print(sorted(m for m in sys.modules if m == 'numba' or m.endswith('.compiled')))\n"
        "from fanorona.engine.ai import level\n"
        "level(3).choose_turn(Controller(size=(5, 5)).model)\n"
        "print('fanorona.engine.compiled' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    loaded_by_levels_1_2, loaded_by_level_3 = out.stdout.split("\n")[:2]
    assert loaded_by_levels_1_2 == "[]"
    assert loaded_by_level_3 == "True"


def test_a_finished_game_hands_back_what_the_computer_kept_for_its_next_turn(made):
    """Level 5 keeps its search table from turn to turn (36 MB compiled); the kernel gets it
    back once the game is over, and not before, while the computer has turns to play."""
    from fanorona.engine.ai import AlphaBetaPlayer

    player = AlphaBetaPlayer(depth=2, seed=1, compiled=False, memory=True)
    board = fa.Board((5, 5))
    board.push(board.legal_turns()[0])
    assert len(board.legal_turns()) > 1, "Black has a choice: its turn is searched"
    c = made(board, opponent=player)  # the computer plays Black, to move
    c.runner.kick()
    c.runner.wait(60)
    assert c.model.to_move == "white" and c.model.outcome() is None
    assert player._kept is not None and player._kept[1], "mid-game the table stays"
    c.set_computer("both")
    c.runner.wait(120)
    assert c.model.is_game_over() and c.error is None
    assert player._kept is None, "the game is over: nothing is kept for a next turn"
