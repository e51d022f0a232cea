"""Checkers for the student's own program: ``check_simple_clickable(play, MyGame)`` (notebook 10,
the assignment's core) clicks a figure made by ``play(model)`` with synthetic mouse events, as a
player would, on the simplified game (``Rules.simple()``), and compares the model and the picture
with the package after each click. With the extensions (notebook 10b),
``check_full_game(MyFullGame)`` plays a model with both extensions (``Rules.danish()``) beside the
package's board, and ``check_clickable(play, MyFullGame)`` clicks the figure on that game.

They play seeded games through the board's own controller, preferring steps that capture both ways
and chains that go on, so every game asks for the two-way choice and, with the extensions, plays
chains; the clicks land on the points and between them (``readback.click_at``), so a program
must round to the nearest point; a click on the capturing stone ends its chain, and each game ends
with two turns taken back (the Undo button, so the model's ``pop`` is tried).  The student's code
runs as in the other checkers: each call under ``Guard``'s time limit with its prints captured,
the package verified unchanged before and after (``sealed_check``).  The figure is reached
through ``Figures``: here in the kernel, or in the grader's sandboxed worker, which sends the
clicks and reads the picture back as plain data.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..board import Board
from ..readback import click_at, figure_axes, laid_out
from ..rules import Rules
from ..ui.controller import Controller
from .checking import ExerciseFailed, Guard, cut, fmt, sealed_check, short_repr, show
from .control import model_stones
from .guard import _Unfinished
from .own_work import kit_use_in_kernel
from .view import drawn_stones

#: (width, height, seed, turns at most) of each game played on the model; each has two-way choices
#: and chains, some ended by a click on the stone.
GAMES = ((5, 5, 1, 14), (5, 5, 4, 14), (9, 5, 2, 6))
#: The game clicked on the figure (fewer: a figure redraws itself after every click).
FIGURE_GAMES = ((5, 5, 1, 8),)
#: What stands in the list of clicks for a press of the Undo button (a whole turn taken back).
UNDO = "Undo"
#: Turns taken back at the end of each game.
UNDONE = 2
#: Where the synthetic clicks land (``readback.click_at``), as the sentence for a difference says.
NEAR_POINTS = (
    "The clicks land on the points or up to a third of their spacing off them, as a hand clicks:"
    " round event.xdata and event.ydata to the nearest point."
)


#: The sentence for the states of a game in which the figure played no step.
NO_STEP = (
    "Your figure played no step of the game: connect a function to its clicks"
    " (fig.canvas.mpl_connect) that plays the point clicked on the model and redraws."
)


@dataclass(frozen=True)
class Variant:
    """The game a check plays: its rules, the seeded games clicked on the figure, the usual name of
    the student's model class, and the rules recalled in the sentence for a difference."""

    rules: Rules
    figure_games: tuple
    model_name: str
    recalled: str


#: The game with both extensions (notebook 10b).
FULL = Variant(
    Rules.danish(),
    FIGURE_GAMES,
    "MyFullGame",
    "Capture is compulsory, a chain goes on only by capturing and never returns to a point, and a"
    " turn ends when the stone cannot capture again or its chain is ended.",
)
#: The simplified game (notebook 10): a longer game, as each turn is one step.
SIMPLE = Variant(
    Rules.simple(),
    ((5, 5, 1, 14),),
    "MyGame",
    "Every step of the simplified game is one turn: no capture is compulsory and no chain follows;"
    " the player who cannot move loses.",
)


def state(model) -> dict:
    """What a player can see of a game, in comparable form."""
    outcome = model.outcome()
    return {
        "stones": model_stones(model),
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
    stone = board.chain_stone if board.chain else None
    if stone is not None and rng.random() < 0.25:
        return [stone]
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
    """The reference's answer to a click: Undo takes a turn back, the chain's stone ends the
    chain, anything else is a click."""
    if point == UNDO:
        controller.undo()
    elif controller.model.chain and point == controller.model.chain_stone:
        controller.end_turn()
    else:
        controller.click(point)


def clicks_text(done: list) -> str:
    return ", ".join(done) or "none"


FIRST = "(the first click of the game)"


def after(done: list, first: str = "before any click") -> str:
    """When a call came in the game, for the sentence naming it."""
    return f"after the clicks {', '.join(done)}" if done else first


@contextmanager
def students(guard: Guard, call: str | Callable[[], str], done: list) -> Iterator[None]:
    """Run the block as the student's code under ``guard`` (``call``, or a function giving it,
    names it in the sentence for a timeout, an interrupt or exit()); an error it raises becomes a
    sentence with the clicks that led there."""
    try:
        with guard.running(call):
            yield
    except (ExerciseFailed, _Unfinished):
        raise
    except Exception as error:  # the student's code: a sentence, not a traceback from the checker
        raise raised(error, done) from None


def games(
    start: Callable[[int, int], object], played=GAMES, rules: Rules = FULL.rules
) -> Iterator[tuple[object, Board, list[str], str | None]]:
    """Yield (model, board, clicks so far, the next click) for each click of the seeded games under
    ``rules``, after playing it on the reference board; the caller plays it on the student's side
    first. ``start(width, height)`` makes the student's model of each game."""
    for width, height, seed, most in played:
        rng = random.Random(seed)
        board = Board((width, height), rules)
        reference = Controller(board)
        model = start(width, height)
        done: list[str] = []
        yield model, board, done, None
        while board.outcome() is None and len(board.turns) < most:
            for point in clicks_for(board, rng):
                act(reference, point)
                done.append(point)
                yield model, board, done, point
        for _ in range(UNDONE):
            act(reference, UNDO)
            done.append(UNDO)
            yield model, board, done, UNDO


def starter(make, guard: Guard, variant: Variant = FULL) -> Callable[[int, int], object]:
    """``start(width, height)`` for ``games``: the student's model, made under the guard and
    checked to have the board's size and points."""
    name = getattr(make, "__name__", variant.model_name)

    def start(width: int, height: int):
        points = Board((width, height), variant.rules).points
        with students(guard, lambda: f"{name}({width}, {height})", []):
            model = make(width, height)
            shape = (tuple(model.size), tuple(model.points))
        if shape != ((width, height), points):
            raise ExerciseFailed(
                f"{name}({width}, {height}) should have size {(width, height)} and the points "
                f"{points[0]} to {points[-1]} in the package's order; got size "
                f"{short_repr(model.size)}."
            )
        return model

    return start


def compare(actual: dict, board: Board, done: list, how: str, recalled: str = FULL.recalled) -> int:
    """1 when the student's model (``actual``, its ``state``) shows what the rules' board shows;
    else the difference shown and a sentence that ends with ``recalled``, the rules."""
    expected = state(board)
    if actual == expected:
        return 1
    keys = [k for k in expected if expected[k] != actual.get(k)]
    show(board, f"The rules' board after the clicks {clicks_text(done)}: your model differs")
    print(
        f"Input:       {how} on {board.size[0]}x{board.size[1]}: "
        + (", ".join(done) or "no clicks yet")
    )
    print(f"Expected:    {cut(fmt({k: expected[k] for k in keys}))}")
    print(f"Your answer: {cut(fmt({k: actual.get(k) for k in keys}))}")
    raise ExerciseFailed(
        f"After the clicks {clicks_text(done[-3:])} your model differs in {', '.join(keys)}."
        f" {recalled}"
    )


def raised(error: Exception, done: list) -> ExerciseFailed:
    """The sentence for an error raised by the student's code, with the clicks that led there."""
    return ExerciseFailed(
        f"Your code raised {type(error).__name__}: {str(error)[:200]} after the clicks "
        f"{clicks_text(done)} (the game starts from the start position)."
    )


def read_state(model, board: Board, done: list, guard: Guard) -> dict:
    """The student's model's ``state``, read under the guard."""
    size = f"{board.size[0]}x{board.size[1]}"
    with students(
        guard,
        lambda: (
            f"Reading your model (stones, turns, chain, legal_steps(), outcome()) on {size}"
            f" {after(done)}"
        ),
        done,
    ):
        return state(model)


def check_full_game(make) -> int:
    """Check a model class ``make(width, height)`` of the game with both extensions by playing
    seeded games through the board's controller on it and on the package's board, comparing after
    each click.

    Partial credit: none; the first difference ends the check."""
    return sealed_check(lambda guard: play_full_games(make, guard))


def play_full_games(make, guard: Guard) -> int:
    n, controller = 0, None
    try:
        for model, board, done, point in games(starter(make, guard)):
            size = f"{board.size[0]}x{board.size[1]}"
            if controller is None or point is None:  # a new game
                stop(controller)
                with students(guard, f"Controller(your model on {size})", done):
                    controller = Controller(model)
            if point is not None:
                click = (
                    f"Undo through the board's controller on {size}"
                    if point == UNDO
                    else f"The click on {point} through the board's controller on {size}"
                )
                with students(guard, f"{click} {after(done[:-1], FIRST)}", done):
                    act(controller, point)
            n += compare(
                read_state(model, board, done, guard),
                board,
                done,
                "Clicks through the board's controller",
            )
    finally:
        stop(controller)
    return n


def stop(controller: Controller | None) -> None:
    """Stop a controller's computer runner (none plays here, but it may wait on a timer)."""
    if controller is not None:
        with controller.lock:
            controller.runner.cancel()


class Figures:
    """How the clickable check reaches the student's figure: here, in the kernel (the grader has
    one that reaches it in its sandboxed worker)."""

    def is_figure(self, fig) -> bool:
        return figure_axes(fig) is not None

    def click(self, fig, point: str) -> None:
        click_at(fig, point)

    def look(self, fig) -> dict:
        """The picture on the figure's first Axes (``readback.laid_out``)."""
        return laid_out(figure_axes(fig))

    def close(self, fig) -> None:
        from matplotlib import pyplot as plt

        plt.close(fig)


def check_clickable(play, make) -> int:
    """Check ``play(model)`` on a model ``make(width, height)`` of the game with both extensions: a
    matplotlib figure whose clicks play ``model`` (your control acts on the point clicked, your view
    redraws). Synthetic clicks on and near the points' places on the figure's first Axes; after
    each one the model and the stones drawn must match the package's board.

    Partial credit: the share of the game's states (its start, and after each click) in which the
    model and the figure show the rules' board; after the model differs, the rest of its game
    counts as differing, and the states before the figure's first step count only once a click
    has played it."""
    kit_use_in_kernel("check_clickable", play, make)
    return sealed_check(lambda guard: click_games(play, make, guard))


def check_simple_clickable(play, make) -> int:
    """Check ``play(model)`` as ``check_clickable`` does, on a model ``make(width, height)`` of the
    simplified game (your ``MyGame``): one step a turn, no chains.

    Partial credit: as ``check_clickable``'s, the share of the game's states shown right."""
    kit_use_in_kernel("check_simple_clickable", play, make)
    return sealed_check(lambda guard: click_games(play, make, guard, variant=SIMPLE))


def click_games(
    play, make, guard: Guard, reach: Figures | None = None, variant: Variant = FULL
) -> int:
    """The states of the variant's games played on the figure, stopping at the first that differs
    (its sentence); the number of states when all agree."""
    n = 0
    for sentence in click_cases(play, make, guard, reach or Figures(), variant):
        if sentence is not None:
            raise ExerciseFailed(sentence)
        n += 1
    return n


def click_cases(
    play, make, guard: Guard, reach: Figures, variant: Variant = FULL
) -> Iterator[str | None]:
    """For each state of each of the variant's games clicked on the figure (its start, then after
    each click): None when the model and the stones the figure shows are the rules' board's, else
    the sentence.  Once the model differs, or the student's code fails, the rest of that game
    cannot be compared: each of its states left is counted as differing, with the same sentence,
    and the next game starts afresh.  The states before the figure's first step of a game (its
    start, a stone selected) count only once a click has played that step: a figure that plays
    no click earns nothing for showing the start."""
    from matplotlib import pyplot as plt

    figures, fig, lost = [], None, None
    held, stepped, before = 0, False, None
    try:
        with plt.ioff():
            start = starter(make, guard, variant)
            for model, board, done, point in games(start, variant.figure_games, variant.rules):
                if point is None:  # a new game
                    yield from [NO_STEP] * held
                    lost, held, stepped = None, 0, False
                now = (board.key(), len(board.turns))
                moved, before = point not in (None, UNDO) and now != before, now
                if lost is None:
                    try:
                        fig = _clicked(play, model, board, done, point, fig, guard, reach, variant)
                    except ExerciseFailed as e:
                        lost = str(e)
                    if fig is not None and fig not in figures:
                        figures.append(fig)
                if lost is not None:
                    yield from [lost] * (held + 1)
                    held = 0
                    continue
                if moved and not stepped:  # the figure played a step: what came before counts
                    stepped = True
                    yield from [None] * held
                    held = 0
                sentence = None
                try:
                    if point != UNDO:
                        with students(guard, f"Drawing your figure {after(done)}", done):
                            shot = reach.look(fig)
                        shows_right_stones(board, shot, done)
                except ExerciseFailed as e:
                    sentence = str(e)  # the picture alone: the game goes on
                if sentence is None and not stepped:
                    held += 1
                else:
                    yield sentence
            yield from [NO_STEP] * held
    finally:
        for figure in figures:
            reach.close(figure)


def _clicked(
    play,
    model,
    board: Board,
    done: list,
    point,
    fig,
    guard: Guard,
    reach: Figures,
    variant: Variant,
):
    """Play one state of the game on the student's side (a new figure, a click or Undo) and
    compare the model with the board; the figure."""
    size = f"{board.size[0]}x{board.size[1]}"
    if fig is None or point is None:  # a new game
        with students(guard, f"play(your model on {size})", done):
            fig = play(model)
            is_figure = reach.is_figure(fig)
        if not is_figure:
            raise ExerciseFailed(
                "play(model) should return the matplotlib Figure it drew on; got"
                f" {short_repr(fig)}."
            )
    if point == UNDO:  # the figure has no Undo button: the board's controller's
        with students(guard, f"Undo on your model on {size}", done):
            Controller(model).undo()
    elif point is not None:
        click = f"The click on {point} on your figure on {size}"
        with students(guard, f"{click} {after(done[:-1], FIRST)}", done):
            reach.click(fig, point)
    compare(
        read_state(model, board, done, guard),
        board,
        done,
        "Clicks on your figure",
        f"{variant.recalled} {NEAR_POINTS}" if point not in (None, UNDO) else variant.recalled,
    )
    return fig


def shows_right_stones(board: Board, shot: dict, done: list) -> None:
    """Fail with a sentence unless the stones of the picture ``shot`` (``readback.laid_out``'s
    answer) are the board's."""
    picture = shot.get("picture")
    if not isinstance(picture, dict):
        raise ExerciseFailed(
            cut(
                f"After the clicks {clicks_text(done[-3:])} your figure cannot be drawn by"
                f" matplotlib: {shot.get('unlaid')}",
                600,
            )
        )
    drawn = drawn_stones(board, picture)
    expected = {p: str(s) for p in board.points if (s := board.stone_at(p)) is not None}
    if drawn == expected:
        return
    wrong = {p for p in expected if drawn.get(p) != expected[p]}
    extra = {p for p in drawn if p not in expected}
    named = [f"missing or wrong {fmt(wrong)}"] * bool(wrong) + [f"extra {fmt(extra)}"] * bool(extra)
    show(board, f"The position after the clicks {clicks_text(done)}")
    raise ExerciseFailed(
        f"After the clicks {clicks_text(done[-3:])} the figure shows the wrong stones:"
        f" {', '.join(named)}. Redraw the position (ax.clear(), then draw_position) after every"
        " click."
    )
