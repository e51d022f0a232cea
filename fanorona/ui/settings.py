"""The computer opponent's settings: who it plays, how well, how fast, and whether it waits.

``ComputerSettings`` is a frozen value: the controller changes it only through its ``with_``
methods, which check the new value and say what is wrong, so no half-set or misspelt setting
can reach the thread that plays.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..rules import Rules
from .labels import LABELS

#: Who the computer plays.
COMPUTER_SIDES = ("nobody", "white", "black", "both")
#: The computer's levels: the search levels of ``engine.ai`` and the solver's perfect player.
LEVELS = (1, 2, 3, 4, 5, "perfect")
#: The level played where "perfect" cannot be: the strongest search.
STRONGEST = 5
#: The largest board (in points) on which the solver's perfect player is offered.
PERFECT_MAX_POINTS = 15
#: The longest pause between the computer's animated steps, in seconds.
MAX_DELAY = 10


def perfect_offered(game) -> bool:
    """Only where the solver answers in seconds: small boards under the standard rules (its
    quiet-turn draw aside); other rule sets reach millions of positions on 3x5."""
    if not game.is_board:
        return False
    w, h = game.size
    return w * h <= PERFECT_MAX_POINTS and game.rules.with_(quiet_draw=None) == Rules.solved()


@dataclass(frozen=True)
class ComputerSettings:
    """Who the computer plays (``side``), its ``level``, the pause between its animated steps
    (``delay``), whether it waits for "Computer move" (``paused``) and a player of one's own."""

    side: str = "nobody"
    level: int | str = 1
    delay: float = 0.4
    paused: bool = False
    custom: object = None

    def sides(self) -> frozenset:
        return frozenset(("white", "black") if self.side == "both" else (self.side,)) - {"nobody"}

    def against_person(self) -> bool:
        """A person plays one side and the computer the other (undo and redo skip the computer's
        turns)."""
        return len(self.sides()) == 1

    def levels(self, perfect: bool) -> list:
        """The levels offered: 1-5, 'perfect' where the solver answers, 'custom' if a player was
        given."""
        offered = [n for n in LEVELS if n != "perfect" or perfect]
        return (["custom"] if self.custom is not None else []) + offered

    def player_name(self, side: str, size) -> str:
        """Who plays ``side``, in English, as a game record names the player."""
        words = self.player_words(side, size)
        return words if isinstance(words, str) else LABELS["en"][words[0]].format(**words[1])

    def player_words(self, side: str, size) -> str | tuple[str, dict]:
        """Who plays ``side``, as a sentence's ``name`` (``fanorona.ui.labels.say`` says a level in
        the board's language; a side or a custom player's name stays as it is)."""
        if side not in self.sides():
            return side
        if self.level == "custom":
            return getattr(self.custom, "name", "computer")
        if isinstance(self.level, int):
            return "computer_level", {"level": self.level}
        return "computer_perfect", {"size": f"{size[0]}x{size[1]}"}

    def with_side(self, side: str) -> ComputerSettings:
        if side not in COMPUTER_SIDES:
            raise ValueError(f"the computer plays one of {', '.join(COMPUTER_SIDES)}; got {side!r}")
        return replace(self, side=side, paused=False)

    def with_level(self, level, perfect: bool) -> ComputerSettings:
        if level not in self.levels(perfect):
            raise ValueError(
                f"the level is one of {', '.join(map(str, self.levels(perfect)))}; got {level!r}"
            )
        return replace(self, level=level, paused=False)

    def with_delay(self, seconds: float) -> ComputerSettings:
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, (int, float))
            or not 0 <= seconds <= MAX_DELAY
        ):
            raise ValueError(
                f"the step delay is a number of seconds from 0 to {MAX_DELAY}; got {seconds!r}"
            )
        return replace(self, delay=float(seconds))

    def with_paused(self, paused: bool) -> ComputerSettings:
        return replace(self, paused=bool(paused))

    def with_opponent(self, opponent) -> ComputerSettings:
        """A level 1-5 or a player with ``choose_turn(board)``, playing Black."""
        if isinstance(opponent, int) and not isinstance(opponent, bool):
            if opponent not in LEVELS:
                raise ValueError(f"opponent levels go from 1 to 5; got {opponent}")
            return replace(self, level=opponent, side="black")
        if callable(getattr(opponent, "choose_turn", None)):
            return replace(self, custom=opponent, level="custom", side="black")
        raise ValueError(
            f"an opponent is a level 1-5 or a player with choose_turn(board); got {opponent!r}"
        )


__all__ = ["COMPUTER_SIDES", "LEVELS", "STRONGEST", "ComputerSettings", "perfect_offered"]
