"""The control checkers and the model checker.

``check_control(Clicks)`` drives a student's click logic and the board's own ``Controller`` with
the same scripted actions (select, step, the two-way choice by clicking a stone of a string or by
``choose``, a chain continued or stopped with ``end_turn``, also while a choice waits, refusals)
and compares the position, the turns, ``selected`` and ``pending`` after every action.
``check_simple_control(Clicks)`` does the same on the simplified game alone (one step a turn, no
chains, so no ``end_turn``): the control of the assignment's core, which a control with chains
passes too.

``check_model(MyGame)`` first checks the members and their types (a sentence names a missing or
wrong one), then plays seeded random games of the simplified rules on a student's model class and
on the package's board side by side, comparing everything the interactive board asks of a model
(``fanorona.ui.controller.Model``), undoing now and then; finally it plays on the student's model
through the board's controller by clicks, with Undo step, Undo and Redo, as the board does.
"""

from __future__ import annotations

import random

from .. import positions
from ..board import Board
from ..rules import Rules
from ..ui.controller import Controller
from .checking import ExerciseFailed, Guard, board_code, checked, cut, fmt, short_repr, show
from .own_work import kit_use_in_kernel
from .samples import random_game_fens

ACTIONS_PER_SCRIPT = 30
SCRIPTS_PER_START = 3
TEACHING = (
    "both-ways",
    "long-chain",
    "direction-rule",
    "no-revisit",
    "compulsory-capture",
    "approach",
    "withdrawal",
    "strings",
    "long-string",
)


def _control_starts() -> list[Board]:
    """Positions with two-way captures, chains, compulsory capture and plain steps, under three
    rule sets."""
    boards = [positions.load(name) for name in TEACHING]
    boards += [
        Board(size, rules)
        for size in ((9, 5), (5, 5), (3, 3))
        for rules in (Rules(), Rules.simple())
    ]
    boards += [Board.from_fen(fen, Rules.danish()) for fen in random_game_fens((9, 5), 11)[2:12:3]]
    boards += [Board.from_fen(fen) for fen in random_game_fens((5, 11), 12)[1:8:3]]
    return boards


def _simple_starts() -> list[Board]:
    """The positions of ``_control_starts`` that need no chain, under the simplified rules: two-way
    captures and plain steps, one step a turn."""
    boards = [Board.from_fen(positions.load(name).fen(), Rules.simple()) for name in TEACHING]
    boards += [Board(size, Rules.simple()) for size in ((9, 5), (5, 5), (3, 3))]
    boards += [Board.from_fen(fen, Rules.simple()) for fen in random_game_fens((9, 5), 11)[2:12:3]]
    boards += [Board.from_fen(fen, Rules.simple()) for fen in random_game_fens((5, 11), 12)[1:8:3]]
    return boards


def _next_action(c: Controller, rng: random.Random, chains: bool = True):
    """An action a player might take now (``_any_action``); without ``chains`` a click anywhere
    stands in for ``end_turn``, which the simplified game's control does not have."""
    action = _any_action(c, rng)
    if action == ("end_turn",) and not chains:
        return ("click", rng.choice(c.model.points))
    return action


def _any_action(c: Controller, rng: random.Random):
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
        if roll < 0.55:
            return ("choose", rng.choice(("approach", "withdrawal")))
        if roll < 0.65:
            return ("end_turn",)
        return ("click", c.pending[0]) if roll < 0.8 else anywhere
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


def _pending(value):
    """A student's ``pending`` as a tuple when it is a pair, else as it is (to be shown as
    wrong)."""
    if value is None or isinstance(value, str):
        return value
    try:
        return tuple(value)
    except TypeError:
        return value


def _state(obj) -> dict:
    model = obj.model
    return {
        "position": model.fen(),
        "chain": tuple(str(s) for s in model.chain),
        "turns": tuple(str(t) for t in model.turns),
        "selected": getattr(obj, "selected", None),
        "pending": _pending(getattr(obj, "pending", None)),
    }


def _act(obj, action) -> None:
    name, *args = action
    getattr(obj, name)(*args)


def _script_code(board: Board, actions) -> str:
    calls = "; ".join(f"c.{name}({', '.join(map(repr, args))})" for name, *args in actions)
    return f"c = Clicks({board_code(board)}); {calls}"


def _control_hint(before: dict, action, expected: dict, actual: dict) -> str:
    name, *args = action
    if (
        name == "end_turn"
        and before["pending"]
        and expected["pending"] is None
        and actual["pending"]
    ):
        return (
            "end_turn() while a choice waits ends the chain there, so nothing waits any more: set"
            " pending to None too."
        )
    if expected["pending"] and not actual["pending"] and actual["position"] != before["position"]:
        o, d = expected["pending"]
        return (
            f"{o}-{d} captures both ways: keep the step waiting in `pending` = ({o!r}, {d!r}) until"
            " the player clicks a stone of one of the two strings or calls choose()."
        )
    if before["pending"] and name == "click" and expected["position"] != before["position"]:
        return (
            "While a step waits for its choice, a click on a stone of one of the two strings plays"
            " the step with that capture."
        )
    if before["pending"] and name == "click" and args[0] == before["pending"][0]:
        return (
            "Clicking the waiting step's own stone again cancels the choice: pending becomes None."
        )
    if name == "end_turn" and expected["turns"] != before["turns"]:
        return "end_turn() stops the chain in progress: call the model's end_turn()."
    if expected["chain"] and expected["selected"] != actual["selected"]:
        return (
            f"During a chain the capturing stone ({expected['selected']}) stays selected, and only"
            " it may move."
        )
    if (
        expected["selected"] is None
        and actual["selected"] is not None
        and expected["turns"] != before["turns"]
    ):
        return "When a turn is over nothing stays selected."
    if name == "click" and before["selected"] == args[0] and expected["selected"] is None:
        return "Clicking the selected stone again deselects it."
    if expected == before:
        return "This action is refused by the rules of the board: nothing changes."
    return (
        "After every action the position, the turns, `selected` and `pending` should match the"
        " board's controller."
    )


CLICKS_MEMBERS = ("model", "selected", "pending", "click", "choose", "end_turn")
#: What the simplified game's control needs: no ``end_turn``, as there are no chains to stop.
SIMPLE_CLICKS_MEMBERS = CLICKS_MEMBERS[:-1]


def _missing(obj, members, kind: str) -> None:
    """Fail with a sentence naming the first member ``obj`` lacks."""
    for member in members:
        if not hasattr(obj, member):
            raise ExerciseFailed(
                f"{type(obj).__name__} has no `{member}`: {kind} needs "
                f"{', '.join(f'`{m}`' for m in members)}."
            )


def _stop(controller: Controller) -> None:
    with controller.lock:
        controller.runner.cancel()


@checked
def check_control(make, guard: Guard) -> int:
    """Check a click-logic class ``make(model)`` with ``click(point)``, ``choose(kind)`` and
    ``end_turn()`` and the attributes ``model``, ``selected`` and ``pending`` against the board's
    own controller, on seeded scripts of actions from positions with two-way captures and chains.

    Partial credit: none; the first difference ends the check."""
    kit_use_in_kernel("check_control", make)
    return _scripts(make, guard, _control_starts(), CLICKS_MEMBERS, chains=True)


@checked
def check_simple_control(make, guard: Guard) -> int:
    """Check a click-logic class ``make(model)`` of the simplified game, with ``click(point)`` and
    ``choose(kind)`` and the attributes ``model``, ``selected`` and ``pending``, against the board's
    own controller, on seeded scripts of actions from positions with two-way captures under the
    simplified rules (one step a turn).

    Partial credit: none; the first difference ends the check."""
    kit_use_in_kernel("check_simple_control", make)
    return _scripts(make, guard, _simple_starts(), SIMPLE_CLICKS_MEMBERS, chains=False)


def _scripts(make, guard: Guard, starts: list[Board], members: tuple, chains: bool) -> int:
    """Play seeded scripts of actions from each of ``starts`` on the student's class and on the
    board's controller, comparing after every action; the class must have ``members``."""
    n = 0
    for number, start in enumerate(starts * SCRIPTS_PER_START):
        rng = random.Random(number)
        reference = Controller(start.copy())
        try:
            actions: list[tuple] = []  # (method name, *arguments)
            script = lambda: _script_code(start, actions)  # noqa: B023, E731
            with guard.running(lambda: f"Clicks({board_code(start)})"):  # noqa: B023
                student = make(start.copy())
                _missing(student, members, "a click-logic class")
            for _ in range(ACTIONS_PER_SCRIPT):
                if reference.model.outcome() is not None:
                    break
                action = _next_action(reference, rng, chains)
                before, picture = _state(reference), reference.model.copy()
                actions.append(action)
                _act(reference, action)

                def went_wrong():
                    show(
                        picture,  # noqa: B023
                        "your class went wrong here",
                        highlight=[p for p in [before["selected"]] if p],  # noqa: B023
                    )
                    print(f"Input: {script()}")  # noqa: B023

                with guard.running(script, went_wrong):
                    _act(student, action)
                    actual = _state(student)
                n += 1
                expected = _state(reference)
                if actual != expected:
                    keys = [k for k in expected if expected[k] != actual[k]]
                    show(
                        picture,
                        f"before c.{action[0]}({', '.join(map(repr, action[1:]))})",
                        highlight=[p for p in [before["selected"]] if p],
                        arrows=[tuple(before["pending"])] if before["pending"] else [],
                    )
                    print(f"Input:       {cut(script())}")
                    print(f"Expected:    {cut(fmt({k: expected[k] for k in keys}))}")
                    print(f"Your answer: {cut(fmt({k: actual[k] for k in keys}))}")
                    raise ExerciseFailed(
                        f"After {_script_code(start, actions[-1:]).split('; ', 1)[1]} (action"
                        f" {len(actions)} of the script from {start.fen()!r}) these differ from the"
                        f" board's controller: {', '.join(keys)}."
                        f" {_control_hint(before, action, expected, actual)}"
                    )
        finally:
            _stop(reference)
    return n


# -- the student's model
# ----------------------------------------------------------------------------

MODEL_SIZES = ((5, 3), (5, 5), (9, 5), (3, 3), (5, 11))
MODEL_MEMBERS = (
    "size",
    "points",
    "to_move",
    "turns",
    "chain",
    "chain_stone",
    "stone_at",
    "legal_steps",
    "captures",
    "push",
    "pop",
    "end_turn",
    "outcome",
)
STEP_PARTS = ("origin", "destination", "capture")


def _steps_of(model, call: str) -> list:
    """The model's legal steps, each checked to be a step object, none listed twice."""
    steps = model.legal_steps()
    if isinstance(steps, str) or not hasattr(steps, "__iter__"):
        raise ExerciseFailed(
            f"{call}.legal_steps() should return a list of fa.Step objects; got"
            f" {short_repr(steps)}."
        )
    steps = list(steps)
    for step in steps:
        if not all(hasattr(step, part) for part in STEP_PARTS):
            raise ExerciseFailed(
                f"{call}.legal_steps() should give fa.Step objects (with origin, destination and "
                f"capture), such as fa.Step('b3', 'c3', 'withdrawal'); got {short_repr(step)}."
            )
    keys = [tuple(getattr(s, part) for part in STEP_PARTS) for s in steps]
    again = next((k for i, k in enumerate(keys) if k in keys[:i]), None)
    if again:
        raise ExerciseFailed(
            f"{call}.legal_steps() lists the step {fmt(again)} twice: each legal step belongs in"
            " the list once (the board would then ask for a choice between a step and itself)."
        )
    return steps


def _outcome_of(model, call: str):
    outcome = model.outcome()
    if outcome is not None and not (hasattr(outcome, "winner") and hasattr(outcome, "reason")):
        raise ExerciseFailed(
            f"{call}.outcome() should return None while the game goes on, else an object with "
            "`winner` and `reason` such as fa.Outcome('black', 'white cannot move'); got "
            f"{short_repr(outcome)}."
        )
    return outcome


def _turn_texts(model, call: str) -> list:
    for turn in model.turns:
        if not hasattr(turn, "steps"):
            raise ExerciseFailed(
                f"{call}.turns should hold whole turns, such as fa.Turn((step,)), each with its "
                f"`steps`; got {short_repr(turn)}."
            )
    return [str(t) for t in model.turns]


def model_stones(model) -> dict:
    """The stones a model shows, by point, its ``stone_at`` looked up once (in the grader each
    lookup is a question to the sandboxed worker)."""
    stone_at = model.stone_at
    return {p: str(s) for p in model.points if (s := stone_at(p)) is not None}


def _model_state(model, call: str, run=lambda what, f: f()) -> dict:
    """What the board reads off a model; ``run(what, f)`` runs each part (the student's code) as
    ``what``."""
    outcome = run("outcome()", lambda: _outcome_of(model, call))
    return {
        "to_move": run("to_move", lambda: str(model.to_move)),
        "stones": run(
            "stone_at(point) for each point",
            lambda: model_stones(model),
        ),
        "legal_steps": run(
            "legal_steps()",
            lambda: {
                tuple(getattr(s, part) for part in STEP_PARTS) for s in _steps_of(model, call)
            },
        ),
        "winner": None if outcome is None else outcome.winner,
        "turns": run("turns", lambda: _turn_texts(model, call)),
    }


def _calling(guard: Guard, script):
    """``run(what, f)`` for ``_model_state``: each part under the guard, named after the script."""

    def run(what, f):
        with guard.running(lambda: f"{script()}; m.{what}"):
            return f()

    return run


#: Games of the simplified rules that end with the side to move stuck, its stones hemmed in:
#: random games rarely end so, and a model must see that ending as the rules do.
BLOCKED_GAMES = (
    ((3, 3), ("b1b2A", "c3b3", "c2c3")),
    ((3, 3), ("b1b2A", "a3b3", "b2a3", "b3b2", "a1b1", "a2a1W")),
    ((5, 3), ("c1c2A", "d2c3W", "d1d2A", "c3d3", "c2c3")),
    ((5, 3), ("c1c2A", "d2c1", "b2c3", "a3b2", "c3d2", "b3c3")),
)


@checked
def check_model(make, guard: Guard) -> int:
    """Check a model class ``make(width, height)`` of the simplified game, started from the start
    position, that follows ``fanorona.ui.controller.Model``: random games on it and on the package's
    board side by side, with undo; games that end with the side to move stuck; then games played
    on it through the board's controller, with Undo step, Undo and Redo.

    Partial credit: none; the first difference ends the check (a game cannot be compared past
    it)."""
    n = 0
    for number, size in enumerate(MODEL_SIZES):
        n += _random_game(make, guard, size, random.Random(number))
    for size, script in BLOCKED_GAMES:
        n += _random_game(make, guard, size, random.Random(0), script)  # no random choice
    return n + _play_by_clicks(make, guard)


def _random_game(make, guard: Guard, size, rng, steps: tuple[str, ...] | None = None) -> int:
    """One game on the student's model beside the package's board, compared after every action:
    random steps and undos, or the steps ``steps`` (their texts) and no undo."""
    board = Board(size, Rules.simple())
    played: list[str] = []  # the calls so far, for the script
    name = getattr(make, "__name__", "MyGame")
    script = lambda: f"m = {name}{size}" + "".join(f"; m.{p}" for p in played)  # noqa: E731
    with guard.running(script):
        model = make(*size)
        _missing(model, MODEL_MEMBERS, "a model for the board (fanorona.ui.controller.Model)")
        shape = (tuple(model.size), tuple(model.points))
    if shape != (size, board.points):
        raise ExerciseFailed(
            f"{name}{size} should have size {size} and the points {board.points[0]} to "
            f"{board.points[-1]} in the package's order (row by row from a1); got size "
            f"{short_repr(model.size)}."
        )
    n = 0
    while True:
        actual = _model_state(model, "m", _calling(guard, script))
        expected = _model_state(board, "board")
        n += 1
        if actual != expected:
            keys = [k for k in expected if expected[k] != actual[k]]
            show(board, f"The rules' board after {len(played)} actions: your {name} differs")
            print(f"Input:       {cut(script())}")
            print(f"Expected:    {cut(fmt({k: expected[k] for k in keys}))}")
            print(f"Your answer: {cut(fmt({k: actual[k] for k in keys}))}")
            stuck = (
                f" Here {board.to_move} is stuck: it has stones, but none of them can step."
                if "winner" in keys and board.outcome() is not None and board.stones(board.to_move)
                else ""
            )
            raise ExerciseFailed(
                f"Your model differs from the rules in {', '.join(keys)} after "
                f"{len(played)} actions on {size[0]}x{size[1]}. Every step of the simplified "
                f"game is one turn; the player who cannot move loses.{stuck}"
            )
        if board.outcome() is not None or len(board.turns) > 40:
            return n
        if steps is None and board.turns and rng.random() < 0.15:
            taken = board.pop()
            with guard.running(lambda: f"{script()}; m.pop()"):
                back = model.pop()
            played.append("pop()")
            if not (
                all(hasattr(back, part) for part in STEP_PARTS)
                and tuple(getattr(back, part) for part in STEP_PARTS)
                == tuple(getattr(taken, part) for part in STEP_PARTS)
            ):
                raise ExerciseFailed(
                    f"After {cut(script(), 400)}: pop() should return the step it took back, "
                    f"{taken!r} (the board's Undo step needs it); got {short_repr(back)}."
                )
            continue
        if steps is not None and len(board.turns) == len(steps):
            return n
        step = (
            rng.choice(board.legal_steps())
            if steps is None
            else next(s for s in board.legal_steps() if str(s) == steps[len(board.turns)])
        )
        with guard.running(lambda: f"{script()}; m.captures({step!r})"):  # noqa: B023
            theirs = next(
                s
                for s in _steps_of(model, "m")
                if tuple(getattr(s, part) for part in STEP_PARTS)
                == (step.origin, step.destination, step.capture)
            )
            caught = model.captures(theirs)
            caught = (
                None if isinstance(caught, str) or not hasattr(caught, "__iter__") else set(caught)
            )
        if caught != set(board.captures(step)):
            raise ExerciseFailed(
                f"m.captures({step!r}) gives {cut(fmt(caught), 300)}; the rules take "
                f"{fmt(set(board.captures(step)))} (after {cut(script(), 300)})."
            )
        board.push(step)
        played.append(f"push(fa.Step({step.origin!r}, {step.destination!r}, {step.capture!r}))")
        with guard.running(script):
            model.push(theirs)


#: What the board's buttons do on the student's model in the clicked game, after each turn in turn.
BUTTONS = ("undo_step", "redo", "undo", "redo", "undo_step", "undo", "redo")


def _play_by_clicks(make, guard: Guard) -> int:
    """One seeded game on the student's model through the board's controller, as the board plays it,
    side by side with the same game on the package's board; after some turns, Undo step, Undo and
    Redo as the board's buttons do them."""
    rng = random.Random(7)
    done: list[str] = []
    script = lambda: "c = Controller(MyGame(5, 5)); " + "; ".join(done)  # noqa: E731
    with guard.running(script):
        model = make(5, 5)
    theirs, ours = Controller(model), Controller(Board((5, 5), Rules.simple()))
    try:
        turns = 0
        while ours.model.outcome() is None and turns < 60:
            if turns % 4 == 3:
                actions: list[tuple] = [(name,) for name in BUTTONS]  # (method name, *arguments)
            else:
                step = rng.choice(ours.model.legal_steps())
                actions = [
                    ("click", step.origin),
                    ("click", step.destination),
                    ("choose", step.capture),
                ]
            for name, *args in actions:
                if name == "choose" and not ours.pending:
                    continue
                done.append(f"c.{name}({', '.join(map(repr, args))})")
                expected = getattr(ours, name)(*args)
                with guard.running(script):
                    reply = getattr(theirs, name)(*args)
                    state = (
                        _model_state(theirs.model, "MyGame") if reply.action != "error" else None
                    )
                if reply.action == "error":
                    raise ExerciseFailed(
                        cut(
                            f"The board's {name.replace('_', ' ')} went wrong on your model after "
                            f"{script()}: {type(theirs.error).__name__}: {theirs.error}. "
                            f"{_button_hint(name)}",
                            900,
                        )
                    )
                if (reply.action, state) != (expected.action, _model_state(ours.model, "board")):
                    raise ExerciseFailed(
                        cut(
                            f"Played through the board's controller ({script()}), your model "
                            f"answered {reply.action!r} ({reply.message}) where the rules' board "
                            f"answered {expected.action!r} ({expected.message}).",
                            900,
                        )
                    )
            turns += 1
        return turns
    finally:
        _stop(theirs)
        _stop(ours)


def _button_hint(name: str) -> str:
    if name == "undo_step":
        return "Undo step calls pop(), which should return the step it took back."
    if name == "redo":
        return "Redo plays the steps of model.turns[-1] again: turns should hold fa.Turn objects."
    return "Undo calls pop() until the last turn is gone from model.turns."
