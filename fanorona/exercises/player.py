"""The checker of notebook 11's exercise: a tournament player, played as the tournament plays it
(in a process of its own, under its time limit) against level 1.  The player's code runs only in
that process, so no ``Guard`` is needed here; the package is verified unchanged before and after,
as by every checker (``seal``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .guard import UNFINISHED, ExerciseFailed
from .own_work import kit_use
from .seal import TAMPERED, tampering

if TYPE_CHECKING:
    from ..tournament.check import CheckReport


def check_tournament_player(
    path: str | Path, games: int = 4, max_turns: int = 60, wins: int = 3
) -> CheckReport:
    """Play the player in the file ``path`` against level 1 as the tournament will; it passes
    when it forfeits no game and wins at least ``wins`` of the ``games``.

    Partial credit: a share for each game won, up to ``wins``; none for a player that forfeits."""
    from ..tournament import check  # the class's layer, above the exercises: not in the seal

    sealed()
    source = Path(path).read_text(encoding="utf-8") if Path(path).is_file() else ""
    refused = kit_use("check_tournament_player", [source], None)
    if refused is not None:
        raise ExerciseFailed(refused)
    check_player = check.check_player
    if getattr(getattr(check_player, "__code__", None), "co_filename", None) != check.__file__:
        raise ExerciseFailed(
            TAMPERED.format(what="fanorona.tournament.check.check_player was replaced")
        )
    report = check_player(path, games=games, max_turns=max_turns)
    sealed()
    print(report)
    sentence = verdict(report, games, wins)
    if sentence is not None:
        raise ExerciseFailed(sentence)
    return report


def verdict(report: CheckReport, games: int, wins: int) -> str | None:
    """None when the player passed, else the sentence saying why not."""
    if any("NotImplementedError" in reason for reason in report.forfeits):
        return UNFINISHED
    if not report.ok:
        return (
            f"The player forfeited {len(report.forfeits)} of {games} games; the first: "
            f"{report.forfeits[0]}"
        )
    if report.wins < wins:
        return f"Beat level 1 in most games: your player won {report.wins} of {games}."
    return None


def sealed() -> None:
    """Fail with the TAMPERED sentence if the package was changed in this kernel."""
    changed = tampering()
    if changed:
        raise ExerciseFailed(changed)
