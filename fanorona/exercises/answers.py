"""The answer to every question notebooks 00-06 ask, kept here so that no cell shows it before
the student has guessed: the package computes each answer when asked, and the reason follows.

A question is named ``"notebook-topic"``; the notebook's cell holds the question's text and
``questions.ask(name, guess)``.  Concept checks list their options here too, so that a wrong
letter can be answered with what it says.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import fanorona as fa
from fanorona import positions
from fanorona.geometry import geometry
from fanorona.rules import PRESETS


@dataclass(frozen=True)
class Question:
    """One question: how the package works out its answer, and why that is the answer."""

    answer: Callable[[], object]
    why: str
    options: Mapping[str, str] = field(default_factory=dict)


def _neighbours(width: int, height: int, point: str) -> set[str]:
    shape = geometry(width, height)
    index = shape.names.index(point)
    return {shape.names[q] for q in shape.neighbour[index] if q >= 0}


def _asserts_run() -> str:
    try:
        assert 1 + 1 == 3
    except AssertionError:
        return "b"
    return "c"


def _longest_diagonal() -> int:
    shape = geometry(9, 5)
    return max(
        len(line)
        for line in shape.lines
        if len({shape.names[p][0] for p in line})
        == len({shape.names[p][1:] for p in line})
        == len(line)
    )


def _gap_ends_a_string() -> str:
    row = fa.Board.from_diagram("WW.W.\n.....\nB....")
    return "b" if {("a3", "b3"), ("d3",)} <= set(row.strings("white")) else "a"


def _sideways_withdrawal() -> str:
    sideways = fa.Board.from_diagram(".....\n.....\n...WB\n.....\n.....")
    return "a" if "d3d4W" in [str(s) for s in sideways.legal_steps()] else "b"


def _e2e4_error() -> str:
    try:
        fa.Board().push("e2e4")
    except fa.NotationError:
        return "a"
    except fa.IllegalMoveError:
        return "b"
    return "neither"


def _after(rules: fa.Rules, turn: str) -> fa.Board:
    board = fa.Board(rules=rules)
    board.push(turn)
    return board


def _blocked_loses() -> str:
    blocked = fa.Board.from_fen(positions.load("blocked").fen(), fa.Rules.simple())
    outcome = blocked.outcome()
    return "b" if outcome is not None and outcome.winner is not None else "a"


def _solved_goes_on() -> str:
    board = fa.Board.from_diagram("....B\n.....\n.....\n.....\nW....", rules=fa.Rules.solved())
    moves = ["a1a2", "e5e4", "a2a1", "e4e5"]
    for n in range(50):
        board.push(moves[n % 4])
    return "b" if board.outcome() is None else "a"


def _free_chains_at_depth_3() -> str:
    danish, standard = (fa.perft(fa.Board(rules=r), 3) for r in (fa.Rules.danish(), fa.Rules()))
    return "a" if danish > standard else "b" if danish < standard else "c"


def _approach_click() -> str:
    from fanorona.ui.controller import Controller

    trial = Controller()
    for point in ("d3", "e3", "f3"):
        trial.click(point)
    return "f3" if str(trial.model.turns[-1]) == "d3e3A" else "c3"


def _partial_model() -> bool:
    from fanorona.ui.controller import Model

    methods = "size points to_move turns chain chain_stone stone_at legal_steps captures push"
    methods += " end_turn outcome"
    partial = type("Partial", (), {name: (lambda self: None) for name in methods.split()})
    return isinstance(partial(), Model)


def _click_a1() -> str:
    from fanorona.ui.controller import Controller

    return "b" if Controller().click("a1").action == "refused" else "a"


def _danish_withdrawal() -> str:
    from fanorona.ui.labels import LABELS

    return LABELS["da"]["withdrawal"].split()[0].lower()


QUESTIONS: dict[str, Question] = {
    # 00: start here
    "00-asserts": Question(
        _asserts_run,
        "an assert that fails stops the run with an error, so a clean run means every checked "
        "fact held.",
        {
            "a": "only that its code has no syntax errors",
            "b": "that every fact it teaches, checked by an assert, holds for the package",
            "c": "nothing: asserts are switched off in notebooks",
        },
    ),
    "00-order": Question(
        lambda: "a",
        "the map says 1 to 5 build on each other and 6 to 8 need only those five.",
        {
            "a": "notebooks 1 to 5, which build on each other",
            "b": "all of notebooks 1 to 6",
            "c": "nothing: every notebook stands alone",
        },
    ),
    "00-chains": Question(
        lambda: sum(fa.Rules.named(p).chains for p in PRESETS),
        "only the simplified game of the course assignment has one step a turn.",
    ),
    "00-first-turns": Question(
        lambda: len(fa.Board().legal_turns()),
        "only e3 is empty, so every first turn steps into it: from d2, e2 and f2 by approach, "
        "and from d3 either way (d3e3 takes f3 by approach or c3 by withdrawal).",
    ),
    # 01: the board as a graph
    "01-name": Question(
        lambda: geometry(9, 5).names[4 * 9 + 8],
        "column 8 counted from 0 is the ninth letter, i, and row 4 from 0 is row 5.",
    ),
    "01-strong": Question(
        lambda: sum(geometry(9, 5).strong),
        "with a1 strong, strong and weak points alternate like a chessboard's colours, and the "
        "corners of an odd board are all strong: 23 of 45.",
    ),
    "01-b1": Question(
        lambda: len(_neighbours(9, 5, "b1")),
        "a weak point has no diagonals, and on the edge one of its four lines is missing: a1, c1 "
        "and b2.",
    ),
    "01-diagonal": Question(
        _longest_diagonal, "a diagonal climbs one row per column, and there are only 5 rows."
    ),
    "01-edges": Question(
        lambda: len(geometry(3, 3).edges()),
        "6 horizontal, 6 vertical and 4 diagonals through the strong centre b2.",
    ),
    "01-number": Question(
        lambda: list(geometry(9, 5).names).index("e3"), "e3 is column 4, row 2: 2 * 9 + 4."
    ),
    "01-strong-5x5": Question(
        lambda: sum(geometry(5, 5).strong),
        "column + row even: 13 of the 25 points, the four corners and the centre among them.",
    ),
    "01-a2": Question(
        lambda: _neighbours(3, 3, "a2"),
        "a2 is weak (0 + 1 is odd), so only its lines along the column and the row: a1, a3 and b2.",
    ),
    # 02: strings
    "02-long-strings": Question(
        lambda: len(fa.Board().strings("white", min_length=2)),
        "2 rows of nine, 9 columns of two (a1-a2 ... i1-i2) and the diagonals of two that stop "
        "at the middle row's black stones; a stone belongs to several strings.",
    ),
    "02-gap": Question(
        _gap_ends_a_string,
        "unbroken means no empty point inside: a3-b3 is one string and d3 alone another.",
        {
            "a": "one string of three: a gap does not matter",
            "b": "two strings: the empty point ends the first one",
            "c": "three strings of one",
        },
    ),
    "02-weak-d3": Question(
        lambda: len([s for s in positions.load("strings").strings("black") if "d3" in s]),
        "a weak point lies on two lines only, the row and the column, so on two strings.",
    ),
    "02-both-ways": Question(
        lambda: len(positions.load("both-ways").captures(fa.Step("c3", "d3", "withdrawal"))),
        "withdrawal takes the string left behind, a3-b3: two stones, against one by approach.",
    ),
    "02-corner": Question(
        lambda: len([s for s in fa.Board().strings("white") if "a1" in s]),
        "three lines pass through a corner: the row, the column and one diagonal.",
    ),
    # 03: moves and captures
    "03-lonely": Question(
        lambda: len(
            fa.Board.from_diagram(
                "........B\n.........\n..W....W.\n.........\n........."
            ).legal_steps()
        ),
        "c3 is strong and free all round: 8 steps; h3 is weak: 4.",
    ),
    "03-sideways": Question(
        _sideways_withdrawal,
        "withdrawal takes the stone the mover leaves straight behind it: d3-d4 leaves d2 behind, "
        "not e3.",
        {
            "a": "yes: it moved away from e3",
            "b": "no: it must move away along the line joining the two stones",
        },
    ),
    "03-f2e3": Question(
        lambda: set(fa.Board().captures(fa.Step("f2", "e3", "approach"))),
        "the step runs north-west, so the run ahead is d4 and c5 on the diagonal.",
    ),
    "03-e2e4": Question(
        _e2e4_error,
        "e2e4 is two point names, so it reads; but e4 is not a neighbour of e2.",
        {
            "a": "fa.NotationError: the text cannot be read",
            "b": "fa.IllegalMoveError: readable, but not a legal turn",
        },
    ),
    "03-5x5": Question(
        lambda: set(fa.Board((5, 5)).captures(fa.Step("d2", "c3", "approach"))),
        "d2-c3 runs north-west along a diagonal (d2 is strong), so the run ahead is the black "
        "b4 and a5.",
    ),
    # 04: the simple game
    "04-d3e3W": Question(
        lambda: _after(fa.Rules.simple(), "d3e3W").count("black"),
        "d3e3W withdraws from c3 and only c3 goes: b3 is White's, so the string is one stone.",
    ),
    "04-blocked": Question(
        _blocked_loses,
        "the assignment ends the game when the player to move cannot move, and the other wins.",
        {"a": "a draw", "b": "the side to move loses", "c": "the side to move passes"},
    ),
    "04-greedy": Question(
        lambda: "b",
        "a stone never left uncaptured is material kept; random play gives it away.",
        {
            "a": "the random player",
            "b": "the player that captures whenever it can",
            "c": "about even",
        },
    ),
    "04-record": Question(
        lambda: "b",
        "replaying the turns from the start reaches the same position; storing it again could "
        "only disagree.",
        {
            "a": "yes, or it could not say where the game ended",
            "b": "no: replaying the turns from the start gives it",
        },
    ),
    "04-simple-start": Question(
        lambda: len(fa.Board(rules=fa.Rules.simple()).legal_steps()),
        "the only empty point is e3 and every step into it captures, so no quiet step exists "
        "yet: the same five as under the standard rules.",
    ),
    # 05: the full rules
    "05-compulsory": Question(
        lambda: len(positions.load("compulsory-capture").legal_turns()),
        "one capture exists (c1-c2), and once any capture exists every quiet step is "
        "forbidden: a single legal turn.",
    ),
    "05-czech": Question(
        lambda: len(_after(fa.Rules.czech(), "d3e3W").legal_turns()),
        "each standard reply that goes on capturing is cut after its first capture, and "
        "different chains that start with the same capture become one turn.",
    ),
    "05-solved": Question(
        _solved_goes_on,
        "the published solution counts only endless play as a draw; the 50-turn rule is the "
        "game club's.",
        {
            "a": "it is drawn after 50 quiet turns, as under the standard rules",
            "b": "it goes on: the solution's rules have no draw rule",
        },
    ),
    "05-perft-2": Question(
        lambda: fa.perft(fa.Board(), 2),
        "Black's replies differ a lot after each of White's five first turns, chains included.",
    ),
    "05-danish": Question(
        _free_chains_at_depth_3,
        "dropping a rule can only add chains: every standard chain is still legal, and chains "
        "that go straight on are added.",
        {
            "a": "more three-turn sequences than the standard rules",
            "b": "fewer",
            "c": "the same",
        },
    ),
    "05-depth-3": Question(
        lambda: "a",
        "the first turn limit and compulsory capture change the count at depth 2 already; the "
        "direction rule shows only from the third turn.",
        {
            "a": "the direction rule of chains",
            "b": "compulsory capture",
            "c": "the Czech first turn",
        },
    ),
    # 06: the interactive board
    "06-click-a1": Question(
        _click_a1,
        "the control only selects a stone that has a legal turn; a1 is hemmed in.",
        {
            "a": "selected: a1 is White's own stone",
            "b": "refused: a1 has no empty neighbour to go to",
        },
    ),
    "06-widget": Question(
        lambda: "b",
        "the view only draws and passes clicks on: a BoardWidget hands each click to its "
        "controller (widget.controller), which asks the model.",
        {
            "a": "the widget: it decides what a click means and changes the board",
            "b": "the widget's controller: the widget only draws and passes the click on",
        },
    ),
    "06-approach-click": Question(
        _approach_click,
        "clicking any stone of the string a choice would take chooses it: approach takes f3.",
    ),
    "06-long-chain": Question(
        lambda: len(positions.load("long-chain").legal_turns()),
        "the chain may stop after any capture, so each of its six steps ends a turn.",
    ),
    "06-danish": Question(
        _danish_withdrawal,
        "the assignment says *sug* for withdrawal and *pres* for approach; the board shows the "
        "common word beside it.",
    ),
    "06-thread": Question(
        lambda: "b",
        "the board answers clicks while the search runs; wait() is there for programs.",
        {
            "a": "yes, until the computer has chosen",
            "b": "no: the computer thinks in a background thread",
        },
    ),
    "06-protocol": Question(
        _partial_model, "Model is a protocol: a class passes only with every method it lists."
    ),
    "06-replies": Question(
        lambda: len(fa.Board().after("d2e3A").legal_turns()),
        "count them on the board: Black must capture, and its chains multiply the turns.",
    ),
}
