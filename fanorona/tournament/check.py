"""The checker a student runs before submitting: a few games against level 1, in the sandbox.

``python -m fanorona.tournament check my_player.py`` (or ``check_player(path)``) plays them
exactly as the tournament will, and reports each game's result, every forfeit in one sentence
(an illegal turn, a crash, a time-out, running out of memory), the time its turns took and
the start of what it printed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ..rules import Rules
from .play import play
from .players import builtin, from_file
from .sandbox import Limits


@dataclass
class CheckReport:
    name: str
    games: list = field(default_factory=list)  # play() results, the player's colour added

    @property
    def forfeits(self) -> list[str]:
        return [g["reason"].split(": ", 1)[1] for g in self.games if g["forfeit"] == g["colour"]]

    @property
    def wins(self) -> int:
        return sum(g["winner"] == g["colour"] for g in self.games)

    @property
    def ok(self) -> bool:
        return not self.forfeits

    def __str__(self) -> str:
        lines = [f"{self.name} against level1, {len(self.games)} games:"]
        for n, g in enumerate(self.games, 1):
            c = g["colour"]
            verdict = "won" if g["winner"] == c else "drew" if g["winner"] is None else "lost"
            lines.append(
                f"  game {n} as {c}: {verdict} ({g['reason']}); {g['turns']} turns, "
                f"slowest turn {g['slowest'][c]:.2f} s"
            )
        printed = next(
            (g["output"][g["colour"]] for g in self.games if g["output"][g["colour"]]), ""
        )
        if printed:
            lines.append("  it printed (the start): " + printed[:200].replace("\n", " | "))
        lines.append(
            "Ready to submit: no forfeits."
            if self.ok
            else f"Not ready: {len(self.forfeits)} forfeit(s); the first: {self.forfeits[0]}."
        )
        return "\n".join(lines)

    def _repr_pretty_(
        self, printer, cycle
    ) -> None:  # a notebook cell ending with a report shows its text
        printer.text(str(self))


def check_player(
    path,
    games: int = 4,
    size=(9, 5),
    max_turns: int = 60,
    limits: Limits | None = None,
    opponent: str = "level1",
) -> CheckReport:
    """Play ``games`` games (colours alternating) against ``opponent`` and report."""
    entry = from_file(path)
    report = CheckReport(entry["name"])
    other = builtin(opponent)
    limits = limits or Limits()
    for n in range(games):
        white, black = (entry, other) if n % 2 == 0 else (other, entry)
        result = play(
            {
                "game": n,
                "white": white,
                "black": black,
                "size": list(size),
                "rules": dataclasses.asdict(Rules()),
                "opening": [],
                "max_turns": max_turns,
                "limits": dataclasses.asdict(limits),
                "seed": n,
            }
        )
        result["colour"] = "white" if n % 2 == 0 else "black"
        report.games.append(result)
    return report
