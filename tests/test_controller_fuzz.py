"""The controller driven by random interleavings of everything a person can do, with the computer
played by a fake slow player in its thread: after every action the state must be consistent and
the scene must show the game's stones (a fuzzing run, kept as a seeded test)."""

import random
import threading
import time

import pytest
from test_controller import SimpleGame

import fanorona as fa
from fanorona import positions
from fanorona.ui.controller import OVERLAYS, SIZES, Action, Reply
from fanorona.ui.labels import LANGUAGES

ACTIONS = 1500  # per seed
SEEDS = range(6)
SMALL = [size for size in SIZES if size[0] * size[1] <= 25]


class Cancelled(Exception):
    pass


class SlowPlayer:
    """Thinks for a few milliseconds (or until told to stop), then plays a random legal turn."""

    name = "slow"

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.running, self.most, self.calls, self.count = 0, 0, 0, threading.Lock()

    def choose_turn(self, board, stop=None):
        with self.count:
            self.running += 1
            self.calls += 1
            self.most = max(self.most, self.running)
            pause, pick = self.rng.choice((0, 0.001, 0.004, 0.015)), self.rng.random()
        try:
            if stop is not None and stop.wait(pause):
                raise Cancelled()
            turns = board.legal_turns()
            return turns[int(pick * len(turns))]
        finally:
            with self.count:
                self.running -= 1


def stones(board) -> dict:
    return {p: board.stone_at(p) for p in board.points}


def expected_position(c):
    """The position the picture must show, replayed independently from the model's first
    position."""
    model = c.model
    board = model.root()
    turns = model.turns if c.shown is None else model.turns[: c.shown]
    for turn in turns:
        board.push(turn)
    if c.shown is None:
        for step in model.chain:
            board.push(step)
    return board


def check(c, reply):
    """Everything that must hold after any action, read with the lock held (the computer paused)."""
    assert (
        isinstance(reply, Reply)
        and isinstance(reply.action, Action)
        and isinstance(reply.message, str)
    )
    assert c.lock.acquire(timeout=5), "the controller's lock is held for ever"
    try:
        model, turns = c.model, len(c.model.turns)
        assert c.error is None, c.status
        assert c.shown is None or 0 <= c.shown < turns, (c.shown, turns)
        scene = c.scene()
        assert stones(scene["board"]) == stones(expected_position(c)), (
            "the picture is not the game's"
        )
        status, lines = c.status, c.move_lines()
        assert status.endswith(".") and "Traceback" not in status
        texts = turns + bool(model.chain) + (model.root().to_move == "black")
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
        assert not c.paused or c.computer_to_move(live_only=False)
        assert not c.can_redo() or (c.shown is None and not model.chain)
        assert not c.can_undo_step() or c.can_undo()
        if model.chain and model.to_move in c.settings.sides():
            assert not c.can_undo_step(), "Undo step is off while the computer plays its chain"
    finally:
        c.lock.release()


def random_click(c, rng):
    """Mostly a click that means something now (a target, a stone that can move, a string to
    choose)."""
    with c.lock:
        scene = c.scene()
        pool = scene["targets"] + scene["must"] + scene["approach"] + scene["withdrawal"]
        if c.shown is None and c.model.outcome() is None:
            pool += sorted({s.origin for s in c.model.legal_steps()})
    return c.click(rng.choice(pool) if pool and rng.random() < 0.85 else rng.choice(c.model.points))


def random_action(c, rng, record):
    roll = rng.random()
    if roll < 0.45:
        return random_click(c, rng)
    if roll < 0.5:
        return c.choose(rng.choice(("approach", "withdrawal")))
    if roll < 0.54:
        return c.end_turn()
    if roll < 0.61:
        return c.undo()
    if roll < 0.66:
        return c.undo_step()
    if roll < 0.71:
        return c.redo()
    if roll < 0.77:
        total = len(c.model.turns)
        return c.replay(rng.choice([None, rng.randint(0, total)]))
    if roll < 0.8:
        return c.new_game(size=rng.choice(SMALL) if rng.random() < 0.7 else None)
    if roll < 0.82:
        return c.load_position(rng.choice(positions.names()))
    if roll < 0.83:
        record[0] = c.export_game() if rng.random() < 0.5 or record[0] is None else record[0]
        return c.import_game(record[0])
    if roll < 0.88:
        return c.set_computer(rng.choice(("nobody", "white", "black", "both")))
    if roll < 0.91:
        return c.set_level("custom" if rng.random() < 0.7 else rng.choice((1, 2)))
    if roll < 0.93:
        return c.computer_move()
    if roll < 0.95:
        c.set_delay(rng.choice((0, 0.001, 0.003)))
    elif roll < 0.96:
        c.set_language(rng.choice(list(LANGUAGES)))
    elif roll < 0.98:
        c.set_overlays(**{rng.choice(OVERLAYS): rng.random() < 0.5})
    else:
        c.runner.wait(30)
    return Reply(Action.SETTINGS, "")


@pytest.mark.parametrize("seed", SEEDS)
def test_random_interleavings_keep_the_board_consistent(made, seed):
    rng = random.Random(seed)
    player = SlowPlayer(seed)
    c = made(fa.Board(rng.choice(SMALL)), opponent=player, delay=0.001)
    record = [None]
    for _ in range(ACTIONS):
        reply = random_action(c, rng, record)
        if rng.random() < 0.2:
            time.sleep(
                rng.choice((0.0005, 0.002, 0.01))
            )  # let the computer's thread race the next action
        check(c, reply)
    c.runner.wait(30)
    check(c, Reply(Action.SETTINGS, ""))
    assert player.most == 1, "two searches ran at once"
    assert player.calls >= 30, "the computer took part"


def test_random_actions_on_a_plain_model_keep_its_picture(made):
    rng = random.Random(5)
    game = SimpleGame()
    c = made(game)
    for _ in range(400):
        roll = rng.random()
        if roll < 0.7:
            reply = random_click(c, rng)
        elif roll < 0.8:
            reply = c.undo()
        elif roll < 0.85:
            reply = c.undo_step()
        elif roll < 0.95:
            reply = c.redo()
        else:
            reply = c.new_game()
        assert isinstance(reply.action, Action) and c.error is None, c.status
        picture = c.scene()["board"]
        assert stones(picture) == {p: game.stone_at(p) for p in game.points}
        assert picture.to_move == game.to_move
