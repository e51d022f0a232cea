"""The controller driven by hypothesis through everything a person can do (clicks, the capture
choice, End turn, Undo, Undo step, Redo, the replay slider, new games, positions, records,
settings), with the computer's turns let through one at a time: after every action the game must
be the one a model predicts and replays on a board of its own, the picture must show it, and the
controller's state must be consistent.  A failure shrinks to its shortest run."""

import copy
import threading
import time

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)
from test_controller import SimpleGame

import fanorona as fa
from fanorona import positions
from fanorona.game import Game as GameRecord
from fanorona.ui.controller import OVERLAYS, SIZES, Action, Controller, Reply
from fanorona.ui.labels import LANGUAGES

SMALL = [size for size in SIZES if size[0] * size[1] <= 25]
END = "|"  # a turn's end among the steps of the model's history
SETTLE_SECONDS = 10


class Cancelled(Exception):
    pass


class GatedPlayer:
    """Plays the first legal turn, one turn each time the test lets it through (``let_through``),
    or gives up when its search is cancelled; counts the searches that run at once."""

    name = "gated"

    def __init__(self):
        self.permits = threading.Semaphore(0)
        self.count = threading.Lock()
        self.running = self.most = self.calls = 0
        self.at_gate: threading.Event | None = None  # the stop event of the search waiting

    def choose_turn(self, board, stop):
        with self.count:
            self.running += 1
            self.calls += 1
            self.most = max(self.most, self.running)
        try:
            self.at_gate = stop
            while not self.permits.acquire(timeout=0.001):
                if stop.is_set():
                    raise Cancelled()
            return board.legal_turns()[0]
        finally:
            self.at_gate = None
            with self.count:
                self.running -= 1

    def waiting(self) -> bool:
        """A search waits at the gate, and it is not a cancelled one."""
        stop = self.at_gate
        return stop is not None and not stop.is_set()


def stones(board) -> dict:
    return {p: board.stone_at(p) for p in board.points}


def history(model) -> list:
    """The game's steps as (origin, destination, capture), each whole turn followed by END."""
    found = []
    for turn in model.turns:
        found += [(s.origin, s.destination, s.capture) for s in turn.steps] + [END]
    return found + [(s.origin, s.destination, s.capture) for s in model.chain]


def replayed(root, steps: list):
    """``root`` (copied) with ``steps`` played on it through its own rules: a step it does not
    offer fails here."""
    board = copy.deepcopy(root)
    for step in steps:
        if step == END:
            if board.chain:
                board.end_turn()
            continue
        offered = [s for s in board.legal_steps() if (s.origin, s.destination, s.capture) == step]
        assert offered, f"the controller played {step}, which the model's own board refuses"
        board.push(offered[0])
    return board


def turns_of(steps: list) -> int:
    return steps.count(END)


def after_turns(steps: list, turns: int) -> list:
    """The steps of the first ``turns`` whole turns."""
    ends = [n for n, step in enumerate(steps) if step == END]
    return steps[: ends[turns - 1] + 1] if turns else []


class BoardMachine(RuleBasedStateMachine):
    """A person at the board, and a model of the game they should see: its first position, its
    steps, the turns Redo would play again and the turn the replay slider shows."""

    def __init__(self):
        super().__init__()
        self.c: Controller | None = None

    plain = False  # a student's kind of model (``SimpleGame``) rather than a fanorona.Board

    @initialize(size=st.sampled_from(SMALL))
    def start(self, size):
        self.player = GatedPlayer()
        if self.plain:
            self.root = SimpleGame()
            self.c = Controller(SimpleGame())
        else:
            self.root = fa.Board(size)
            self.c = Controller(fa.Board(size), opponent=self.player)
            self.c.set_computer("nobody")
        self.c.set_delay(0)
        self.steps, self.to_redo, self.shown = [], [], None
        self.reply = Reply(Action.SETTINGS, "")

    def teardown(self):
        if self.c is not None:
            with self.c.lock:
                self.c.runner.cancel()
            self.c.runner.wait(30)
            assert self.player.most <= 1, "two searches ran at once"

    # -- the model's expectations ------------------------------------------------------------

    def is_board(self) -> bool:
        return self.c is not None and self.c.model is not None and self.c.game.is_board

    def settle(self) -> None:
        """Wait until the computer has nothing in hand but a search at the gate."""
        deadline = time.monotonic() + SETTLE_SECONDS
        while self.c.runner.busy() and not self.player.waiting():
            assert time.monotonic() < deadline, "the computer's thread never settled"
            time.sleep(0.0005)

    def moved(self, reply: Reply, allowed: set) -> list:
        """After ``reply``: the steps added to the game (the old ones kept), given the kinds of
        change the action may make; the model learns them and forgets the turns to redo."""
        self.reply = reply
        self.settle()
        assert reply.action in allowed | {Action.REFUSED}, reply
        now = history(self.c.model)
        assert now[: len(self.steps)] == self.steps, "an action that adds took back steps"
        added = now[len(self.steps) :]
        if reply.action == Action.REFUSED:
            assert added == [], "a refused action changed the game"
        if added:
            self.to_redo.clear()
        self.steps = now
        return added

    def reset(self, reply: Reply, root) -> None:
        """A new game or position: the model starts again from ``root``."""
        self.reply = reply
        self.settle()
        assert reply.action in (Action.NEW, Action.LOADED), reply
        self.root = root.root() if isinstance(root, fa.Board) else root
        self.steps = history(root) if isinstance(root, fa.Board) else []
        self.to_redo, self.shown = [], None

    # -- a person's actions ------------------------------------------------------------------

    def meaningful(self) -> list[str]:
        """The points a click means something on now: a string to choose, a target of the stone
        selected, else a stone that can move."""
        c = self.c
        with c.lock:
            if c.shown is not None or c.model.outcome() is not None:
                return []
            scene = c.scene()
            if c.pending:
                return scene["approach"] + scene["withdrawal"]
            if c.selected:
                return scene["targets"]
            return sorted({s.origin for s in c.model.legal_steps()})

    @precondition(lambda self: self.c is not None and (self.meaningful() or self.player.waiting()))
    @rule(data=st.data(), actions=st.integers(1, 6))
    def play_on(self, data, actions):
        """A few clicks that each mean something, the computer answering when it is asked (each
        checked as any action is)."""
        for _ in range(actions):
            if self.player.waiting():
                self.computer_answers()
            elif self.meaningful():
                self.click(data.draw(st.sampled_from(self.meaningful()), label="point"))
            else:
                return
            self.the_game_is_the_models()

    @rule(data=st.data())
    def click_anywhere(self, data):
        self.click(data.draw(st.sampled_from(self.c.model.points), label="point"))

    def click(self, point: str) -> None:
        c = self.c
        chain_before = bool(c.model.chain)
        added = self.moved(c.click(point), set(Action) - {Action.ENDED, Action.ERROR})
        if self.reply.action == Action.MOVED:
            assert len(added) == 2 and added[1] == END, "one step, which ended the turn"
        elif self.reply.action == Action.CHAIN:
            assert len(added) == 1 and added[0] != END and c.model.chain
        else:
            assert added == [] and bool(c.model.chain) == chain_before

    @rule(kind=st.sampled_from(("approach", "withdrawal")))
    def choose(self, kind):
        pending = self.c.pending
        added = self.moved(self.c.choose(kind), {Action.MOVED, Action.CHAIN})
        if added:
            assert (added[0][:2], added[0][2]) == (pending, kind), "the step chosen was played"

    @rule()
    def end_turn(self):
        added = self.moved(self.c.end_turn(), {Action.ENDED})
        assert added == ([END] if self.reply.action == Action.ENDED else [])

    @rule()
    def undo(self):
        before, reply = self.steps, self.c.undo()
        self.reply = reply
        self.settle()
        now = history(self.c.model)
        if reply.action == Action.REFUSED:
            assert now == before
            return
        assert reply.action == Action.UNDONE, reply
        assert len(now) < len(before) and before[: len(now)] == now, "undo takes back steps"
        assert now[-1:] in ([], [END]), "undo goes back to a turn's start"
        taken = before[len(now) :]
        ends = [n for n, step in enumerate(taken) if step == END]
        whole = [taken[start + 1 : end + 1] for start, end in zip([-1, *ends], ends, strict=False)]
        self.to_redo += reversed(whole)  # the whole turns taken back, the last one first
        self.steps = now
        if self.shown is not None and self.shown >= turns_of(now):
            self.shown = None  # it went back past the turn the slider showed

    @rule()
    def undo_step(self):
        before, reply = self.steps, self.c.undo_step()
        self.reply = reply
        self.settle()
        now = history(self.c.model)
        if reply.action == Action.REFUSED:
            assert now == before
            return
        assert reply.action == Action.UNDONE, reply
        expected = before[:-2] if before[-1] == END else before[:-1]
        assert now == expected, "one step taken back, reopening its turn"
        if now and now[-1] != END:
            assert self.c.selected == now[-1][1], "the chain's stone stays selected"
        self.to_redo.clear()
        self.steps = now

    @rule()
    def redo(self):
        before, reply = self.steps, self.c.redo()
        self.reply = reply
        self.settle()
        now = history(self.c.model)
        if reply.action == Action.REFUSED:
            assert now == before
            return
        assert reply.action == Action.REDONE, reply
        added = now[len(before) :]
        assert now[: len(before)] == before and added
        while added:
            turn = self.to_redo.pop()
            assert added[: len(turn)] == turn, "redo plays the turns undo took back, in order"
            added = added[len(turn) :]
        self.steps = now

    @rule(turns=st.integers(2, 4))
    def take_back_and_play_again(self, turns):
        """Several Undos, then as many Redos (each checked as any action is): the game comes back
        turn for turn."""
        for _ in range(turns):
            self.undo()
            self.the_game_is_the_models()
        for _ in range(turns):
            self.redo()
            self.the_game_is_the_models()

    @precondition(is_board)
    @rule(data=st.data())
    def replay(self, data):
        total = len(self.c.model.turns)
        turns = data.draw(st.one_of(st.none(), st.integers(0, total)), label="turns")
        self.reply = self.c.replay(turns)
        self.settle()
        assert self.reply.action in (Action.LIVE, Action.REPLAYING)
        self.shown = None if turns is None or turns == total else turns

    @rule(data=st.data())
    def start_again(self, data):
        """A new game (of a new size, perhaps), a teaching position, or the game's own record."""
        if not self.is_board():
            self.reset(self.c.new_game(), SimpleGame())
            return
        how = data.draw(st.sampled_from(("new game", "position", "record")), label="how")
        if how == "new game":
            size = data.draw(st.one_of(st.none(), st.sampled_from(SMALL)), label="size")
            board = fa.Board(size or self.c.model.size, self.c.model.rules)
            self.reset(self.c.new_game(size=size), board)
        elif how == "position":
            name = data.draw(st.sampled_from(positions.names()), label="name")
            self.reset(self.c.load_position(name), positions.load(name))
        else:
            record = self.c.export_game()
            board = GameRecord.from_json(record).board()
            assert history(board) == after_turns(self.steps, turns_of(self.steps))
            self.reset(self.c.import_game(record), board)

    # -- the computer, and the settings ------------------------------------------------------

    @precondition(is_board)
    @rule(side=st.sampled_from(("nobody", "white", "black", "both")))
    def set_computer(self, side):
        # The computer may finish a chain the person began, without asking its player:
        added = self.moved(self.c.set_computer(side), {Action.SETTINGS})
        assert added == [] or (added[-1] == END and END not in added[:-1])

    @precondition(lambda self: self.player.waiting())
    @rule()
    def computer_answers(self):
        """The computer's player is let through once: it plays the first legal turn."""
        expected = replayed(self.root, self.steps).legal_turns()[0]
        calls = self.player.calls
        self.player.permits.release()
        deadline = time.monotonic() + SETTLE_SECONDS
        while self.c.runner.busy() and not (self.player.calls > calls and self.player.waiting()):
            assert time.monotonic() < deadline, "the computer's turn never ended"
            time.sleep(0.0005)  # until its turn is played and it waits for the next, or stops
        now = history(self.c.model)
        wanted = [(s.origin, s.destination, s.capture) for s in expected.steps] + [END]
        assert now == self.steps + wanted, "the computer played its player's turn, all of it"
        self.steps, self.to_redo = now, []

    @precondition(is_board)
    @rule()
    def computer_move(self):
        self.moved(self.c.computer_move(), {Action.RESUMED})

    @rule(data=st.data())
    def change_a_setting(self, data):
        """The level (the only one the gated player has), the language or an overlay."""
        what = data.draw(st.sampled_from(("level", "language", "overlay")), label="what")
        if what == "level" and self.is_board():
            self.moved(self.c.set_level("custom"), {Action.SETTINGS})
        elif what == "language":
            language = data.draw(st.sampled_from(sorted(LANGUAGES)), label="language")
            self.c.set_language(language)
            assert self.c.language == language
        else:
            name, on = (
                data.draw(st.sampled_from(OVERLAYS), label="overlay"),
                data.draw(st.booleans()),
            )
            self.c.set_overlays(**{name: on})
            assert self.c.overlays[name] is on

    # -- what must hold after every action ---------------------------------------------------

    @invariant()
    def the_game_is_the_models(self):
        if self.c is None:
            return
        c, reply = self.c, self.reply
        assert (
            isinstance(reply, Reply)
            and isinstance(reply.action, Action)
            and isinstance(reply.message, str)
        )
        assert c.lock.acquire(timeout=5), "the controller's lock is held for ever"
        try:
            model = c.model
            assert c.error is None, c.status
            assert history(model) == self.steps, "the game is not the one the model predicts"
            board = replayed(self.root, self.steps)
            assert stones(board) == stones(model) and board.to_move == model.to_move
            assert c.shown == self.shown, (c.shown, self.shown)
            shown = (
                board if c.shown is None else replayed(self.root, after_turns(self.steps, c.shown))
            )
            scene = c.scene()
            assert stones(scene["board"]) == stones(shown), "the picture is not the game's"
            assert scene["board"].to_move == shown.to_move
            can_redo = bool(self.to_redo) and not model.chain and c.shown is None
            assert c.history.can_redo() == can_redo, (self.to_redo, c.shown)
            self.consistent(scene)
        finally:
            c.lock.release()

    def consistent(self, scene) -> None:
        """The controller's own state agrees with itself, read with the lock held."""
        c, model = self.c, self.c.model
        turns = len(model.turns)
        assert c.shown is None or 0 <= c.shown < turns, (c.shown, turns)
        status, lines = c.status, c.moves.splitlines()
        assert status.endswith(".") and "Traceback" not in status
        black_began = self.is_board() and model.root().to_move == "black"
        texts = turns + bool(model.chain) + black_began
        assert len(lines) == (texts + 1) // 2
        legal = (
            model.legal_steps()
            if c.shown is None and (model.chain or model.outcome() is None)
            else []
        )
        pairs = [(s.origin, s.destination) for s in legal]
        if c.pending:
            assert pairs.count(c.pending) == 2 and c.selected in (None, c.pending[0])
        if model.chain:
            assert c.selected == model.chain_stone
        elif c.selected is not None and not c.pending:
            assert model.stone_at(c.selected) == model.to_move and any(
                o == c.selected for o, _ in pairs
            )
            assert set(scene["targets"]) == {d for o, d in pairs if o == c.selected}
        seat = c.seat
        assert not seat.settings.paused or seat.computer_to_move(live_only=False)
        assert not c.history.can_undo_step() or c.history.can_undo()
        if model.chain and model.to_move in seat.settings.sides():
            assert not c.history.can_undo_step(), "Undo step is off while the computer plays"


class PlainModelMachine(BoardMachine):
    """The same person at a board that plays a plain model of one's own (no chains, no Board)."""

    plain = True


BoardMachine.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
PlainModelMachine.TestCase.settings = settings(BoardMachine.TestCase.settings, max_examples=10)
TestTheBoardFollowsItsModel = BoardMachine.TestCase
TestAPlainModelFollowsItsModel = PlainModelMachine.TestCase
