"""The rule options on which published Fanorona rule sets differ, and named presets of them."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

DIRECTION_RULES = ("no-repeat", "no-reuse", "free")


@dataclass(frozen=True)
class Rules:
    """Which variant of the rules a board plays.

    The defaults are the standard rules of the game club and of the published solution
    (except that the solution has no draw rule: see ``Rules.solved()``).
    """

    #: A turn must capture if any turn can.
    mandatory_capture: bool = True
    #: After a capture the same stone may capture again, step by step.
    chains: bool = True
    #: A chain never enters a point the stone has occupied this turn (its start included).
    no_revisit: bool = True
    #: "no-repeat": never the same direction twice in a row; "no-reuse": each direction at
    #: most once a turn; "free": no direction rule.
    direction: str = "no-repeat"
    #: A chain must go on while it can capture (some commercial rule books).
    must_continue: bool = False
    #: Each side's first turn captures one string only (the Czech rules).
    opening_single_capture: bool = False
    #: Drawn after this many turns in a row without a capture; None for never.
    quiet_draw: int | None = 50

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise ValueError(f"Rules.{f.name} is True or False; got {value!r}")
        if self.direction not in DIRECTION_RULES:
            raise ValueError(
                f"Rules.direction is one of {', '.join(map(repr, DIRECTION_RULES))}; "
                f"got {self.direction!r}"
            )
        q = self.quiet_draw
        if q is not None and (isinstance(q, bool) or not isinstance(q, int) or q < 1):
            raise ValueError(
                f"Rules.quiet_draw is a whole number of turns of at least 1, or None; got {q!r}"
            )

    @classmethod
    def standard(cls) -> Rules:
        """The game club's rules: compulsory capture, optional chains, no revisits, no direction
        twice in a row, a draw after 50 turns without a capture; its page is silent on the first
        turn, so there is no first-turn limit."""
        return cls()

    @classmethod
    def simple(cls) -> Rules:
        """The course assignment's base game: one step a turn, capture not compulsory, no draw
        rule."""
        return cls(mandatory_capture=False, chains=False, quiet_draw=None)

    @classmethod
    def solved(cls) -> Rules:
        """The rules under which the game was solved: standard, but endless play is the only
        draw."""
        return cls(quiet_draw=None)

    @classmethod
    def czech(cls) -> Rules:
        """The Czech rules page as it reads: a chain changes direction at every step and a half
        turn counts as a change (so no ``no_revisit``: a stone may step straight back), each
        side's first turn captures one group only, and no draw rule.

        Where the page is silent the kit takes the reading most sources share, and says so:
        capture is compulsory (the page never allows a quiet step beside a capture, nor forbids
        one; the traditional game and the solution have it, ``with_(mandatory_capture=False)``
        is the literal reading); a side without a move loses, as everywhere else; "the first
        move" limits each side's first turn, since the page says "the players" may capture only
        one group. Its time-limit ending, more stones wins, is ``Board.adjudicate()``.
        """
        return cls(no_revisit=False, opening_single_capture=True, quiet_draw=None)

    @classmethod
    def danish(cls) -> Rules:
        """The Danish course assignment with both its extensions: compulsory capture, chains that
        never return to a point the stone has occupied this turn, draws by agreement only.

        The assignment is silent on direction and on the first turn, so the kit adds neither a
        direction rule nor a first-turn limit."""
        return cls(direction="free", quiet_draw=None)

    @classmethod
    def named(cls, name: str) -> Rules:
        """A preset by name: one of ``Rules.PRESETS``."""
        if name not in PRESETS:
            raise ValueError(f"no rule set called {name!r}; choose one of {', '.join(PRESETS)}")
        return getattr(cls, name)()

    def with_(self, **changes) -> Rules:
        """A copy with some options changed, e.g. ``Rules.standard().with_(direction="free")``."""
        return replace(self, **changes)

    def name(self) -> str | None:
        """The preset these rules equal, if any."""
        return next((n for n in PRESETS if Rules.named(n) == self), None)


#: The names ``Rules.named`` knows.
PRESETS = ("standard", "simple", "solved", "czech", "danish")
