"""Named teaching positions: small diagrams that each show one rule at work.

Every position carries a sentence saying what it shows, the rule set it is meant for and the
side to move, so a notebook can write ``positions.load("approach")`` instead of a diagram.

>>> from fanorona import positions
>>> positions.load("both-ways").legal_turns()
[<Turn c3d3A>, <Turn c3d3W>]
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board, start_rows
from .notation import format_diagram
from .rules import PRESETS, Rules


@dataclass(frozen=True)
class Position:
    """A teaching position: its diagram (rows top first), who moves, under which rules, and why."""

    diagram: str
    to_move: str
    rules: str
    description: str
    #: The turn (as text) the position is about, where there is one.
    turn: str | None = None
    #: Points worth ringing when the position is drawn.
    focus: tuple[str, ...] = ()

    def __post_init__(self):
        lines = (line.strip() for line in self.diagram.strip().splitlines())
        object.__setattr__(self, "diagram", "\n".join(lines))
        if self.rules not in PRESETS:
            raise ValueError(
                f"a position's rules are a preset name, one of {', '.join(PRESETS)}; got"
                f" {self.rules!r}"
            )

    def board(self) -> Board:
        """A fresh board set up in this position."""
        return Board.from_diagram(self.diagram, self.to_move, Rules.named(self.rules))


def _start(width: int, height: int) -> Position:
    return Position(
        format_diagram(start_rows(width, height)),
        "white",
        "standard",
        f"The start of the game on {width}x{height}: every point full but the centre, White to"
        " move.",
    )


POSITIONS: dict[str, Position] = {
    "start-9x5": _start(9, 5),
    "start-5x5": _start(5, 5),
    "start-3x3": _start(3, 3),
    "approach": Position(
        """
        .....
        .....
        W.BB.
        .....
        .....
        """,
        "white",
        "standard",
        "White steps a3-b3 towards the black string c3-d3 along its own line and captures the whole"
        " string by approach.",
        turn="a3b3A",
        focus=("a3", "b3"),
    ),
    "withdrawal": Position(
        """
        .....
        .....
        .WBB.
        .....
        .....
        """,
        "white",
        "standard",
        "White steps b3-a3 away from the black string c3-d3 along its own line and captures the"
        " whole string by withdrawal.",
        turn="b3a3W",
        focus=("b3", "a3"),
    ),
    "both-ways": Position(
        """
        .....
        .....
        BBW.B
        .....
        .....
        """,
        "white",
        "standard",
        "The one step c3-d3 captures either way, e3 by approach or b3-a3 by withdrawal, and White"
        " must choose which string goes.",
        turn="c3d3W",
        focus=("c3", "d3"),
    ),
    "long-string": Position(
        """
        .........
        .........
        W.BBBB.BB
        .........
        .........
        """,
        "white",
        "standard",
        "White's a3-b3 captures the four stones c3 to f3 by approach; the capture stops at the gap"
        " on g3, so h3 and i3 stay.",
        turn="a3b3A",
        focus=("a3", "b3", "g3"),
    ),
    "long-chain": Position(
        """
        .........
        .........
        B..BB.B..
        .W....B..
        .....B...
        """,
        "white",
        "standard",
        "The white stone on b2 captures six times in one turn, changing direction at every step; it"
        " may stop after any of them.",
        turn="b2c1Wd2Ad1We1Af2Ae2W",
        focus=("b2",),
    ),
    "direction-rule": Position(
        """
        .....
        .....
        BW..B
        .....
        .....
        """,
        "white",
        "standard",
        "After b3-c3 captures a3 by withdrawal, c3-d3 would capture e3 by approach, but it goes"
        " east again, so the direction rule ends the chain.",
        turn="b3c3W",
        focus=("b3", "c3", "d3"),
    ),
    "no-revisit": Position(
        """
        ....B
        .....
        .BW..
        ...B.
        .....
        """,
        "white",
        "standard",
        "White's c3 captures round the triangle c3-d4-d3 and could capture once more by stepping"
        " back onto c3, but a chain may not return to a point it has been on.",
        turn="c3d4Ad3A",
        focus=("c3", "d4", "d3"),
    ),
    "compulsory-capture": Position(
        """
        .....
        W....
        ..B..
        .....
        ..W..
        """,
        "white",
        "standard",
        "White can capture with c1-c2, so capture is compulsory and the quiet step a4-a5 (a paika)"
        " is refused.",
        turn="c1c2A",
        focus=("c1", "a4"),
    ),
    "blocked": Position(
        """
        .....
        .....
        .....
        BB.BB
        WB.BW
        """,
        "white",
        "standard",
        "White still has two stones, but every point next to them is taken, so White cannot move"
        " and loses.",
        focus=("a1", "e1"),
    ),
    "strings": Position(
        """
        .........
        ....B....
        ..BBBW...
        ...B.B...
        ......B..
        """,
        "white",
        "standard",
        "The black stone on e3 lies on four strings at once, one along each line through it:"
        " c3-d3-e3 (cut short by White's f3), e3-e4, d2-e3 and e3-f2-g1.",
        focus=("e3",),
    ),
    "first-turn-single": Position(
        """
        .........
        .........
        B..BB.B..
        .W....B..
        .....B...
        """,
        "white",
        "czech",
        "The long chain again, under the Czech rules: on a side's first turn only one string may be"
        " captured, so the chain stops after b2-c1.",
        turn="b2c1W",
        focus=("b2",),
    ),
    "telo-sweep": Position(
        """
        ...
        ..W
        BBB
        """,
        "white",
        "standard",
        "On the 3x3 board (Fanoron-Telo) the lone white stone on c2 takes all three black stones in"
        " one chain, c2-c3-b2-b3, and wins at once.",
        turn="c2c3Wb2Ab3W",
        focus=("c2",),
    ),
}


def names() -> list[str]:
    """The names of all teaching positions, in a sensible reading order."""
    return list(POSITIONS)


def _position(name: str) -> Position:
    try:
        return POSITIONS[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"no teaching position called {name!r}; the names are: {', '.join(POSITIONS)}"
        ) from None


def load(name: str) -> Board:
    """A fresh board set up in the named position, with its rules and side to move."""
    return _position(name).board()


def describe(name: str) -> str:
    """The sentence saying what the named position shows."""
    return _position(name).description


__all__ = ["POSITIONS", "Position", "describe", "load", "names"]
