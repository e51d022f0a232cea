"""The board where no thread can start (JupyterLite's kernel): ``threading.Thread.start`` raises
as it does there, and the computer's turns and the progress of a long wait must look the same as
with threads, step by step."""

import io
import threading
import time

import pytest

import fanorona as fa

CHAIN = "B....\n.....\n..B..\n....B\n..W.."


@pytest.fixture
def no_threads(monkeypatch):
    """``Thread.start`` fails as in Pyodide; the list records every attempt."""
    tried = []

    def start(self):
        tried.append(self.name)
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", start)
    return tried


class First:
    """Plays a given turn, or the first legal one: the same answer with threads or without."""

    name = "first"

    def __init__(self, text=None):
        self.text = text

    def choose_turn(self, board):
        return board.parse_turn(self.text) if self.text else board.legal_turns()[0]


class Building(First):
    """A first turn that waits for a table to be built, shown by a package bar of four."""

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
                time.sleep(0.3)
                bar.update(1)
        self.built = True


def watched(made, *actions, **options):
    """Run the actions on a controller and return every (status, turns, chain, picture) a view
    was shown, in order, and the controller."""
    c = made(**options)
    seen = []
    c.observe(
        lambda: seen.append(
            (c.status, [str(t) for t in c.model.turns], [str(s) for s in c.model.chain], c.scene())
        )
    )
    for action in actions:
        action(c)
        c.runner.wait(30)
    return seen, c


#: Each a maker of the controller's arguments (a board used as it is: a fresh one a run) and the
#: actions to take.
SCENARIOS = {
    "a reply to a person's turn": (
        lambda: dict(opponent=First()),
        [lambda c: c.click("d3"), lambda c: c.click("e3"), lambda c: c.choose("withdrawal")],
    ),
    "a chain played step by step": (
        lambda: dict(model=fa.Board.from_diagram(CHAIN), opponent=First("c1c2Ad2A")),
        [lambda c: c.set_computer("white")],
    ),
    "both sides to the end": (
        lambda: dict(model=fa.Board((3, 3)), opponent=First()),
        [lambda c: c.set_computer("both")],
    ),
}


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_without_threads_the_board_shows_what_it_shows_with_them(scenario, made, monkeypatch):
    options, actions = SCENARIOS[scenario]
    with_threads, threaded = watched(made, *actions, **options())
    assert threaded.runner.thread is not None, "the threaded run used a thread"
    tried = []

    def start(self):
        tried.append(self.name)
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", start)
    without, here = watched(made, *actions, **options())
    assert "fanorona-computer" in tried and here.runner.thread is None
    assert here.error is None and not here.runner.busy()
    assert [status for status, *_ in without] == [status for status, *_ in with_threads]
    assert without == with_threads
    assert len(here.model.turns) > len(options().get("model", fa.Board()).turns)
    if scenario == "both sides to the end":
        assert here.model.is_game_over()


def test_without_threads_a_failing_player_is_reported(made, no_threads):
    class Failing:
        name = "failing"

        def choose_turn(self, board):
            raise ZeroDivisionError("no move")

    c = made(opponent=Failing())
    c.click("d3")
    c.click("e3")
    c.choose("withdrawal")
    assert isinstance(c.error, ZeroDivisionError) and not c.runner.busy()
    assert c.status.startswith("The computer failed: ZeroDivisionError: no move")
    assert no_threads == ["fanorona-computer"]


def test_without_threads_a_long_wait_reports_its_progress(made, no_threads):
    c = made(opponent=Building())
    seen = []
    c.observe(lambda: seen.append((c.progress, c.status)))
    c.click("d3")
    c.click("e3")
    c.choose("withdrawal")
    assert "fanorona-progress" in no_threads
    middle = [(p, s) for p, s in seen if p is not None and 0 < p.fraction < 1]
    assert [round(p.fraction, 2) for p, _ in middle] == [0.25, 0.5, 0.75]
    progress, status = middle[-1]
    assert progress.what == "building a table" and progress.remaining is not None
    assert f"Building a table: 75% done, about {progress.left} left" in status
    assert c.progress is None and len(c.model.turns) == 2 and c.error is None
    from fanorona.engine.bars import WATCHERS

    assert WATCHERS == [], "the watcher is gone once the wait is over"


def test_without_threads_the_widget_plays_the_computers_turn_in_the_click(no_threads):
    widget = fa.BoardWidget(opponent=First())
    widget.delay = 0
    try:
        widget.click("d3")
        widget.click("e3")
        widget.choose("withdrawal")
        played = [str(t) for t in widget.controller.model.turns]
        assert played[0] == "d3e3W" and len(played) == 2
        assert widget.status.startswith(f"first played {played[1]}")
        assert widget.controller.model.to_move == "white"
        assert widget.picture_png().startswith(b"\x89PNG")
    finally:
        widget.close()
