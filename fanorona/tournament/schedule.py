"""Who plays whom, with which colours and from which opening: round robin and Swiss, seeded.

Every pairing plays its games in pairs from one opening, once with each player as White, and
each pairing gets an opening of its own, drawn from the random legal lines ``plies`` turns deep
(a deeper book than the first turn alone, so a class's pairings do not repeat openings).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..board import Board
from ..rules import Rules


@dataclass(frozen=True)
class Pairing:
    """Two entrants (by id) who meet in a round, and the opening of their games."""

    round: int
    a: int
    b: int
    opening: tuple[str, ...]


class OpeningBook:
    """Random legal openings, drawn without repeats while there are new ones to draw."""

    def __init__(self, size, rules: Rules, plies: int, seed: int):
        if isinstance(plies, bool) or not isinstance(plies, int) or plies < 0:
            raise ValueError(f"an opening is a whole number of turns, at least 0; got {plies!r}")
        self.size, self.rules, self.plies = tuple(size), rules, plies
        self.rng = random.Random(seed)
        self.used: set = set()

    def draw(self) -> tuple[str, ...]:
        line: tuple[str, ...] = ()
        for _ in range(50):
            line = self._random_line()
            if line not in self.used:
                break
        self.used.add(line)
        return line

    def _random_line(self) -> tuple[str, ...]:
        board = Board(self.size, self.rules)
        for _ in range(self.plies):
            turns = board.legal_turns()
            if not turns:
                break
            board.push(self.rng.choice(turns))
            if board.outcome() is not None:  # an opening never ends the game: stop a turn before
                board.pop()
                break
        return tuple(str(t) for t in board.turns)


def round_robin(players: list[int], book: OpeningBook, seed: int) -> list[Pairing]:
    """Every two players meet once (their games are in pairs of both colours), in a seeded order."""
    pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
    random.Random(seed).shuffle(pairs)
    return [Pairing(0, a, b, book.draw()) for a, b in pairs]


def swiss_round(
    round_: int, standings: list[tuple[int, float]], met: set, book: OpeningBook
) -> tuple[list[Pairing], int | None]:
    """The pairings of a Swiss round: players in order of points (ties kept in the given order)
    meet the nearest one below them they have not met yet.  With an odd number, the lowest
    player who has not had one gets a bye (returned as the second value)."""
    order = [p for p, _ in sorted(standings, key=lambda s: -s[1])]
    bye = None
    if len(order) % 2:
        had = {p for p in order if frozenset((p, None)) in met}
        bye = next((p for p in reversed(order) if p not in had), order[-1])
        order.remove(bye)
    pairs = _pair(order, met)
    if pairs is None:  # everyone has met everyone near them: allow repeats
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    return [Pairing(round_, a, b, book.draw()) for a, b in pairs], bye


def _pair(order: list[int], met: set, budget: list | None = None):
    """Pair from the top, each with the nearest not yet met; backtrack when one is left without
    (giving up, None, after 100,000 tries: late rounds of a small field may have no such pairing).
    """
    budget = [100_000] if budget is None else budget
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if frozenset((first, other)) in met:
            continue
        tail = _pair(rest[:i] + rest[i + 1 :], met, budget)
        if tail is not None:
            return [(first, other)] + tail
    return None
