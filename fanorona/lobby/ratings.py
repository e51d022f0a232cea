"""Ranked games rated one at a time with OpenSkill (its Plackett-Luce model, a Bayesian rating in
the family of Glicko-2 and TrueSkill): each player has a rating ``mu`` and a deviation ``sigma``
that shrinks as they play, so a newcomer's rating is shown as the guess it is."""

from __future__ import annotations

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


def rate(white: tuple[float, float] | None, black: tuple[float, float] | None, winner):
    """White's and Black's new (mu, sigma) after a game ``winner`` ("white", "black" or None)
    won; None for a player not yet rated."""
    a = MODEL.rating(*white) if white else MODEL.rating()
    b = MODEL.rating(*black) if black else MODEL.rating()
    ranks = {"white": [1.0, 2.0], "black": [2.0, 1.0], None: [1.0, 1.0]}[winner]
    [[a], [b]] = MODEL.rate([[a], [b]], ranks=ranks)
    return (a.mu, a.sigma), (b.mu, b.sigma)


def ladder_text(rows) -> str:
    """The ladder as a table for a terminal: place, name, rating +- deviation, games."""
    lines = [f"{'':>3} {'player':<16} {'rating':>7} {'+-':>6} {'games':>5}"]
    for n, (name, mu, sigma, games) in enumerate(rows, 1):
        lines.append(f"{n:>3} {name:<16} {mu:7.2f} {sigma:6.2f} {games:5d}")
    return "\n".join(lines)
