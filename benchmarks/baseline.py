"""The move generator of before ``movegen``, frozen: an independent implementation of the rules
that the tests check today's generator's turns and perft against, and that
``benchmarks/bench_perft.py`` times today's code against.

Benchmark code: only the benchmarks and the tests import it, never the package.  It is kept as it
was, so do not improve it.  (Older searches are not copied here: ``benchmarks/bench_strength.py``
builds any version of the kit from the repository and plays it over the player protocol.)
"""

from __future__ import annotations

from fanorona.board import Board
from fanorona.geometry import Geometry, opposite
from fanorona.movegen import bitsets
from fanorona.rules import Rules

PAIKA, APPROACH, WITHDRAWAL = 0, 1, 2


# ---------------------------------------------------------------------------------------------
# The generator, as board.py had it.


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _run(ray: tuple[int, ...], opp: int) -> int:
    """The unbroken opponent stones at the start of a ray, as bits."""
    captured = 0
    for r in ray:
        if not (opp >> r) & 1:
            break
        captured |= 1 << r
    return captured


def _captures_of(g: Geometry, opp: int, p: int, q: int, d: int) -> list[tuple[int, int]]:
    """The (kind, captured bits) a step p->q in direction d can make: approach, withdrawal, both or
    none."""
    out = []
    ahead = g.ray[q][d]
    if ahead and (opp >> ahead[0]) & 1:
        out.append((APPROACH, _run(ahead, opp)))
    behind = g.ray[p][opposite(d)]
    if behind and (opp >> behind[0]) & 1:
        out.append((WITHDRAWAL, _run(behind, opp)))
    return out


def _first_steps(g: Geometry, me: int, opp: int) -> tuple[list, list]:
    """All capturing and all non-capturing single steps of the side to move."""
    captures, quiet = [], []
    occupied = me | opp
    for p in _bits(me):
        for d, q in enumerate(g.neighbour[p]):
            if q < 0 or (occupied >> q) & 1:
                continue
            found = _captures_of(g, opp, p, q, d)
            if found:
                captures.extend((p, q, d, kind, bits) for kind, bits in found)
            else:
                quiet.append((p, q, d, PAIKA, 0))
    return captures, quiet


def _chain_steps(g: Geometry, rules: Rules, me: int, opp: int, chain) -> list:
    """The capturing steps that may continue a chain ``(point, visited, last direction, used)``."""
    q, visited, last, used = chain
    out = []
    occupied = me | opp
    for d, q2 in enumerate(g.neighbour[q]):
        if q2 < 0 or (occupied >> q2) & 1:
            continue
        if rules.no_revisit and (visited >> q2) & 1:
            continue
        if rules.direction == "no-repeat" and d == last:
            continue
        if rules.direction == "no-reuse" and (used >> d) & 1:
            continue
        out.extend((q, q2, d, kind, bits) for kind, bits in _captures_of(g, opp, q, q2, d))
    return out


def _apply(me: int, opp: int, step) -> tuple[int, int]:
    p, q, _d, _kind, bits = step
    return me ^ (1 << p) ^ (1 << q), opp ^ bits


def _advance(chain, step):
    """The chain state after a capturing step (a new chain when ``chain`` is None)."""
    p, q, d, _kind, _bits = step
    visited = chain[1] if chain else 1 << p
    used = chain[3] if chain else 0
    return (q, visited | (1 << q), d, used | (1 << d))


def _turn_steps(g: Geometry, rules: Rules, me: int, opp: int, single: bool, chain=None) -> list:
    """Every complete turn (or, with ``chain``, every way to finish the one in progress).

    Each item is (steps, me after, opp after, captured anything).
    """
    turns: list = []

    def extend(path, me, opp, chain):
        nexts = _chain_steps(g, rules, me, opp, chain) if rules.chains and not single else []
        if path and not (nexts and rules.must_continue):
            turns.append((path, me, opp, True))
        for step in nexts:
            extend(path + (step,), *_apply(me, opp, step), _advance(chain, step))

    if chain is not None:
        for step in _chain_steps(g, rules, me, opp, chain):
            extend((step,), *_apply(me, opp, step), _advance(chain, step))
        return turns
    captures, quiet = _first_steps(g, me, opp)
    for step in captures:
        extend((step,), *_apply(me, opp, step), _advance(None, step))
    if not (captures and rules.mandatory_capture):
        turns.extend(((step,), *_apply(me, opp, step), False) for step in quiet)
    return turns


def _count_turns(g: Geometry, rules: Rules, me: int, opp: int, single: bool) -> int:
    return len(_turn_steps(g, rules, me, opp, single))


def _perft(g, rules, me, opp, depth, ply, quiet) -> int:
    if rules.quiet_draw is not None and quiet >= rules.quiet_draw:
        return 0
    if depth == 1:
        return _count_turns(g, rules, me, opp, rules.opening_single_capture and ply < 2)
    total = 0
    for _steps, me2, opp2, captured in _turn_steps(
        g, rules, me, opp, rules.opening_single_capture and ply < 2
    ):
        total += _perft(g, rules, opp2, me2, depth - 1, ply + 1, 0 if captured else quiet + 1)
    return total


def perft(board: Board, depth: int) -> int:
    """``fanorona.perft`` as it was: the same count, with the old generator."""
    if depth == 0:
        return 1
    if board.outcome() is not None:
        return 0
    me, opp = bitsets(board)
    return _perft(board.geometry, board.rules, me, opp, depth, len(board.turns), board.quiet_turns)


def turns(board: Board) -> list:
    """The old generator's complete turns of a board between turns: (steps, me after, opp after,
    captured)."""
    me, opp = bitsets(board)
    single = board.rules.opening_single_capture and len(board.turns) < 2
    return _turn_steps(board.geometry, board.rules, me, opp, single)
