"""Checkers for the student's own program in notebook 10: ``check_full_game(MyFullGame)`` plays a
model with both extensions (``Rules.danish()``) beside the package's board, and
``check_clickable(play, MyFullGame)`` clicks a figure made by ``play(model)`` with synthetic mouse
events, as a player would, and compares the model and the picture with the package after each click.

Both play seeded games through the board's own controller, preferring steps that capture both ways
and chains that go on, so every game asks for the two-way choice and plays chains; a click on the
capturing stone ends its chain.
"""

from __future__ import annotations

import random

from ..board import Board
from ..controller import Controller
from ..rules import Rules
from .checking import UNFINISHED, ExerciseFailed, fmt, show

#: (width, height, seed, turns at most) of each game played on the model; each has two-way choices
#: and chains, some ended by a click on the stone.
GAMES = ((5, 5, 1, 14), (5, 5, 4, 14), (9, 5, 2, 6))
#: The game clicked on the figure (fewer: a figure redraws itself after every click).
FIGURE_GAMES = ((5, 5, 1, 8),)


def state(model) -> dict:
    """What a player can see of a game, in comparable form."""
    outcome = model.outcome()
    return {
        "stones": {p: str(s) for p in model.points if (s := model.stone_at(p)) is not None},
        "to_move": str(model.to_move),
        "turns": [str(t) for t in model.turns],
        "chain": [str(s) for s in model.chain],
        "legal_steps": sorted(str(s) for s in model.legal_steps()),
        "winner": None if outcome is None else outcome.winner,
    }


def clicks_for(board: Board, rng: random.Random) -> list[str]:
    """The clicks of one action on ``board``: end a chain (a click on its stone, one time in four),
    or one step, chosen at random with two-way steps preferred; a two-way step is settled by a click
    on a stone of the chosen string."""
    if board.chain and rng.random() < 0.25:
        return [board.chain_stone]
    steps = board.legal_steps()
    two_way = [
        s
        for s in steps
        if sum((t.origin, t.destination) == (s.origin, s.destination) for t in steps) > 1
    ]
    step = rng.choice(two_way if two_way and rng.random() < 0.7 else steps)
    clicks = [] if board.chain else [step.origin]
    clicks.append(step.destination)
    if step in two_way:
        clicks.append(rng.choice(board.captures(step)))
    return clicks


def act(controller: Controller, point: str) -> None:
    """The reference's answer to a click: the chain's stone ends the chain, anything else is a
    click."""
    if controller.model.chain and point == controller.model.chain_stone:
        controller.end_turn()
    else:
        controller.click(point)


def games(make, played=GAMES):
    """Yield (model, board, clicks so far, the next click) for each click of the seeded games, after
    playing it on the reference board; the caller plays it on the student's side first."""
    for width, height, seed, most in played:
        rng = random.Random(seed)
        model, board = make(width, height), Board((width, height), Rules.danish())
        reference = Controller(board)
        if tuple(model.size) != (width, height) or tuple(model.points) != board.points:
            raise ExerciseFailed(
                f"{type(model).__name__}({width}, {height}) should have size {(width, height)} and "
                f"the points {board.points[0]} to {board.points[-1]} in the package's order; "
                f"got size {model.size!r}."
            )
        done = []
        yield model, board, done, None
        while board.outcome() is None and len(board.turns) < most:
            for point in clicks_for(board, rng):
                act(reference, point)
                done.append(point)
                yield model, board, done, point


def compare(model, board: Board, done: list, how: str) -> int:
    expected, actual = state(board), state(model)
    if actual == expected:
        return 1
    keys = [k for k in expected if expected[k] != actual[k]]
    show(
        board, f"The rules' board after the clicks {', '.join(done) or 'none'}: your model differs"
    )
    print(
        f"Input:       {how} on {board.size[0]}x{board.size[1]}: "
        + (", ".join(done) or "no clicks yet")
    )
    print(f"Expected:    {fmt({k: expected[k] for k in keys})}")
    print(f"Your answer: {fmt({k: actual[k] for k in keys})}")
    raise ExerciseFailed(
        f"After the clicks {', '.join(done[-3:]) or 'none'} your model differs in"
        f" {', '.join(keys)}. Capture is compulsory, a chain goes on only by capturing and never"
        " returns to a point, and a turn ends when the stone cannot capture again or its chain is"
        " ended."
    )


def raised(error: Exception, done: list) -> ExerciseFailed:
    """The sentence for an error raised by the student's code, with the clicks that led there."""
    return ExerciseFailed(
        f"Your code raised {type(error).__name__}: {str(error)[:200]} after the clicks "
        f"{', '.join(done) or 'none'} (the game starts from the start position)."
    )


def check_full_game(make) -> int:
    """Check a model class ``make(width, height)`` of the game with both extensions by playing
    seeded
    games through the board's controller on it and on the package's board, comparing after
    each click.
    """
    n, done, controller = 0, [], None
    try:
        for model, board, done, point in games(make):
            if point is None:
                controller = Controller(model)
            else:
                act(controller, point)
            n += compare(model, board, done, "Clicks through the board's controller")
    except NotImplementedError:
        raise ExerciseFailed(UNFINISHED) from None
    except ExerciseFailed:
        raise
    except Exception as error:  # the student's code: a sentence, not a traceback from the checker
        raise raised(error, done) from None
    print(f"All {n} cases agree.")
    return n


def click_at(fig, ax, point: str) -> None:
    """A left click at ``point``'s data coordinates (column, row from 0) on the figure's canvas."""
    from matplotlib.backend_bases import MouseEvent

    column, row = ord(point[0]) - ord("a"), int(point[1:]) - 1
    x, y = ax.transData.transform((column, row))
    event = MouseEvent("button_press_event", fig.canvas, x, y, button=1)
    fig.canvas.callbacks.process("button_press_event", event)


def check_clickable(play, make) -> int:
    """Check ``play(model)``: a matplotlib figure whose clicks play ``model`` (your control acts
    on the
    point clicked, your view redraws). Synthetic clicks at the points' places on the figure's first
    Axes; after each one the model and the stones drawn must match the package's board."""
    from matplotlib import pyplot as plt
    from matplotlib.figure import Figure

    from .view import drawn_stones

    n, done, figures = 0, [], []
    try:
        with plt.ioff():
            for model, board, done, point in games(make, FIGURE_GAMES):
                if point is None:
                    fig = play(model)
                    if not isinstance(fig, Figure) or not fig.axes:
                        raise ExerciseFailed(  # noqa: TRY301
                            "play(model) should return the matplotlib Figure it drew on; got"
                            f" {fig!r}."
                        )
                    figures.append(fig)
                    fig.canvas.draw_idle = lambda *args, **kwargs: (
                        None
                    )  # the check reads artists, not pixels
                else:
                    click_at(fig, fig.axes[0], point)
                n += compare(model, board, done, "Clicks on your figure")
                drawn = drawn_stones(board, fig.axes[0])
                expected = {p: str(s) for p in board.points if (s := board.stone_at(p)) is not None}
                if drawn != expected:
                    missing = {p for p in expected if drawn.get(p) != expected[p]}
                    extra = {p for p in drawn if p not in expected}
                    show(board, f"The position after the clicks {', '.join(done) or 'none'}")
                    raise ExerciseFailed(  # noqa: TRY301
                        f"After the clicks {', '.join(done[-3:]) or 'none'} the figure shows the"
                        f" wrong stones: missing or wrong {fmt(missing)}, extra {fmt(extra)}."
                        " Redraw the position (ax.clear(), then draw_position) after every click."
                    )
    except NotImplementedError:
        raise ExerciseFailed(UNFINISHED) from None
    except ExerciseFailed:
        raise
    except Exception as error:  # the student's code: a sentence, not a traceback from the checker
        raise raised(error, done) from None
    finally:
        for fig in figures:
            plt.close(fig)
    print(f"All {n} cases agree.")
    return n
