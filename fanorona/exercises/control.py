"""The control checker and the model checker.

``check_control(Clicks)`` drives a student's click logic and the board's own ``Controller`` with
the same scripted actions (select, step, the two-way choice by clicking a stone of a string or by
``choose``, a chain continued or stopped with ``end_turn``, refusals) and compares the position,
the turns, ``selected`` and ``pending`` after every action.

``check_model(MyGame)`` plays seeded random games of the simplified rules on a student's model
class and on the package's board side by side, comparing everything the interactive board asks
of a model (``fanorona.controller.Model``), undoing now and then, and finally plays one game on
the student's model through the board's controller by clicks.
"""
from __future__ import annotations

import random

from .. import positions
from ..board import Board
from ..controller import Controller
from ..rules import Rules
from .checking import ExerciseFailed, board_code, checked_unfinished, fmt, show, unfinished_guard, _Unfinished
from .samples import random_game_fens

ACTIONS_PER_SCRIPT = 30
SCRIPTS_PER_START = 3
TEACHING = ("both-ways", "long-chain", "direction-rule", "no-revisit", "compulsory-capture", "approach",
            "withdrawal", "strings", "long-string")


def _control_starts() -> list[Board]:
    """Positions with two-way captures, chains, compulsory capture and plain steps, under three rule sets."""
    boards = [positions.load(name) for name in TEACHING]
    boards += [Board(size, rules) for size in ((9, 5), (5, 5), (3, 3)) for rules in (Rules(), Rules.simple())]
    boards += [Board.from_fen(fen, Rules.danish()) for fen in random_game_fens((9, 5), 11)[2:12:3]]
    boards += [Board.from_fen(fen) for fen in random_game_fens((5, 11), 12)[1:8:3]]
    return boards


def _next_action(c: Controller, rng: random.Random):
    """An action a player might take now, read off the reference controller's state: mostly sensible
    (a stone that can move, a destination, a string to choose, with steps that capture both ways
    preferred), sometimes anything at all."""
    model, roll = c.model, rng.random()
    steps = model.legal_steps()
    anywhere = ("click", rng.choice(model.points))
    pairs = [(s.origin, s.destination) for s in steps]
    two_way = sorted({pair for pair in pairs if pairs.count(pair) == 2})
    if c.pending:
        strings = [p for stones in c.choice_strings().values() for p in stones]
        if roll < 0.35:
            return ("click", rng.choice(strings))
        if roll < 0.6:
            return ("choose", rng.choice(("approach", "withdrawal")))
        return ("click", c.pending[0]) if roll < 0.75 else anywhere
    if c.selected:
        targets = sorted({s.destination for s in steps if s.origin == c.selected})
        doubles = [d for o, d in two_way if o == c.selected]
        if doubles and roll < 0.5:
            return ("click", rng.choice(doubles))
        if targets and roll < 0.65:
            return ("click", rng.choice(targets))
        if roll < 0.75:
            return ("click", c.selected)
        if roll < 0.82:
            return ("end_turn",)
        return anywhere
    movable = sorted({s.origin for s in steps})
    if two_way and roll < 0.3:
        return ("click", rng.choice(two_way)[0])
    if movable and roll < 0.6:
        return ("click", rng.choice(movable))
    if roll < 0.68:
        return ("end_turn",)
    if roll < 0.73:
        return ("choose", rng.choice(("approach", "withdrawal")))
    return anywhere


def _state(obj) -> dict:
    model = obj.model
    pending = getattr(obj, "pending", None)
    return {"position": model.fen(), "chain": tuple(str(s) for s in model.chain),
            "turns": tuple(str(t) for t in model.turns), "selected": getattr(obj, "selected", None),
            "pending": None if pending is None else tuple(pending)}


def _act(obj, action) -> None:
    name, *args = action
    getattr(obj, name)(*args)


def _script_code(board: Board, actions) -> str:
    calls = "; ".join(f"c.{name}({', '.join(map(repr, args))})" for name, *args in actions)
    return f"c = Clicks({board_code(board)}); {calls}"


def _control_hint(before: dict, action, expected: dict, actual: dict) -> str:
    name, *args = action
    if expected["pending"] and not actual["pending"] and actual["position"] != before["position"]:
        o, d = expected["pending"]
        return (f"{o}-{d} captures both ways: keep the step waiting in `pending` = ({o!r}, {d!r}) until the "
                f"player clicks a stone of one of the two strings or calls choose().")
    if before["pending"] and name == "click" and expected["position"] != before["position"]:
        return ("While a step waits for its choice, a click on a stone of one of the two strings plays the step "
                "with that capture.")
    if before["pending"] and name == "click" and args[0] == before["pending"][0]:
        return "Clicking the waiting step's own stone again cancels the choice: pending becomes None."
    if name == "end_turn" and expected["turns"] != before["turns"]:
        return "end_turn() stops the chain in progress: call the model's end_turn()."
    if expected["chain"] and expected["selected"] != actual["selected"]:
        return (f"During a chain the capturing stone ({expected['selected']}) stays selected, and only it may move.")
    if expected["selected"] is None and actual["selected"] is not None and expected["turns"] != before["turns"]:
        return "When a turn is over nothing stays selected."
    if name == "click" and before["selected"] == args[0] and expected["selected"] is None:
        return "Clicking the selected stone again deselects it."
    if expected == before:
        return "This action is refused by the rules of the board: nothing changes."
    return "After every action the position, the turns, `selected` and `pending` should match the board's controller."


@checked_unfinished
def check_control(make) -> int:
    """Check a click-logic class ``make(model)`` with ``click(point)``, ``choose(kind)`` and
    ``end_turn()`` and the attributes ``model``, ``selected`` and ``pending`` against the board's
    own controller, on seeded scripts of actions from positions with two-way captures and chains."""
    make = unfinished_guard(make)
    n = 0
    for number, start in enumerate(_control_starts() * SCRIPTS_PER_START):
        rng = random.Random(number)
        reference = Controller(start.copy())
        try:
            student = make(start.copy())
            actions = []
            for _ in range(ACTIONS_PER_SCRIPT):
                if reference.model.outcome() is not None:
                    break
                action = _next_action(reference, rng)
                before, picture = _state(reference), reference.model.copy()
                actions.append(action)
                _act(reference, action)
                try:
                    _act(student, action)
                except (_Unfinished, ExerciseFailed):
                    raise
                except NotImplementedError:
                    raise _Unfinished() from None
                except Exception:
                    show(picture, "your class went wrong here", highlight=[p for p in [before["selected"]] if p])
                    print(f"Input: {_script_code(start, actions)}")
                    raise
                n += 1
                expected, actual = _state(reference), _state(student)
                if actual != expected:
                    keys = [k for k in expected if expected[k] != actual[k]]
                    show(picture, f"before c.{action[0]}({', '.join(map(repr, action[1:]))})",
                         highlight=[p for p in [before["selected"]] if p],
                         arrows=[tuple(before["pending"])] if before["pending"] else [])
                    print(f"Input:       {_script_code(start, actions)}")
                    print(f"Expected:    {fmt({k: expected[k] for k in keys})}")
                    print(f"Your answer: {fmt({k: actual[k] for k in keys})}")
                    raise ExerciseFailed(f"After {_script_code(start, actions[-1:]).split('; ', 1)[1]} "
                                         f"(action {len(actions)} of the script from {start.fen()!r}) these differ from "
                                         f"the board's controller: {', '.join(keys)}. "
                                         f"{_control_hint(before, action, expected, actual)}")
        finally:
            with reference.lock:
                reference.runner.cancel()
    print(f"All {n} cases agree.")
    return n


# -- the student's model ----------------------------------------------------------------------------

MODEL_SIZES = ((5, 3), (5, 5), (9, 5), (3, 3), (5, 11))


def _model_state(model) -> dict:
    outcome = model.outcome()
    return {"to_move": str(model.to_move),
            "stones": {p: str(s) for p in model.points if (s := model.stone_at(p)) is not None},
            "legal_steps": {(s.origin, s.destination, s.capture) for s in model.legal_steps()},
            "winner": None if outcome is None else outcome.winner,
            "turns": [str(t) for t in model.turns]}


@checked_unfinished
def check_model(make) -> int:
    """Check a model class ``make(width, height)`` of the simplified game, started from the start
    position, that follows ``fanorona.controller.Model``: random games on it and on the package's
    board side by side, with undo; then one game played on it through the board's controller."""
    try:
        n = _check_model(make)
    except NotImplementedError:          # a method of the student's class is still the stub
        raise _Unfinished() from None
    print(f"All {n} cases agree.")
    return n


def _check_model(make) -> int:
    n = 0
    for number, size in enumerate(MODEL_SIZES):
        rng = random.Random(number)
        model, board = make(*size), Board(size, Rules.simple())
        if tuple(model.size) != size or tuple(model.points) != board.points:
            raise ExerciseFailed(f"{type(model).__name__}{size} should have size {size} and the points "
                                 f"{board.points[0]} to {board.points[-1]} in the package's order (row by row "
                                 f"from a1); got size {model.size!r}.")
        played = []
        while True:
            expected, actual = _model_state(board), _model_state(model)
            n += 1
            if actual != expected:
                keys = [k for k in expected if expected[k] != actual[k]]
                show(board, f"The rules' board after {len(played)} actions: your {type(model).__name__} differs")
                print(f"Input:       m = {type(model).__name__}{size}; " + "; ".join(f"m.{p}" for p in played))
                print(f"Expected:    {fmt({k: expected[k] for k in keys})}")
                print(f"Your answer: {fmt({k: actual[k] for k in keys})}")
                raise ExerciseFailed(f"Your model differs from the rules in {', '.join(keys)} after "
                                     f"{len(played)} actions on {size[0]}x{size[1]}. Every step of the simplified "
                                     f"game is one turn; the player who cannot move loses.")
            if board.outcome() is not None or len(board.turns) > 40:
                break
            if board.turns and rng.random() < 0.15:
                board.pop()
                model.pop()
                played.append("pop()")
                continue
            step = rng.choice(board.legal_steps())
            theirs = next(s for s in model.legal_steps()
                          if (s.origin, s.destination, s.capture) == (step.origin, step.destination, step.capture))
            if set(model.captures(theirs)) != set(board.captures(step)):
                raise ExerciseFailed(f"model.captures({step}) gives {fmt(set(model.captures(theirs)))}; the rules "
                                     f"take {fmt(set(board.captures(step)))}.")
            board.push(step)
            model.push(theirs)
            played.append(f"push(fa.Step({step.origin!r}, {step.destination!r}, {step.capture!r}))")
    return n + _play_by_clicks(make)


def _play_by_clicks(make) -> int:
    """One seeded game on the student's model through the board's controller, as the board plays it."""
    rng = random.Random(7)
    model = make(5, 5)
    c = Controller(model)
    turns = 0
    while model.outcome() is None and turns < 60:
        step = rng.choice(model.legal_steps())
        c.click(step.origin)
        reply = c.click(step.destination)
        if reply.action == "choose":
            reply = c.choose(step.capture)
        if reply.action != "moved":
            raise ExerciseFailed(f"Played through the board's controller, {step} was not played: {reply.message}")
        turns += 1
    return turns
