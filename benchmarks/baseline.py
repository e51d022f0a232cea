"""The move generator and alpha-beta search of before ``movegen``, frozen: the baseline
that ``benchmarks/bench_perft.py`` and ``bench_search.py`` time today's code against, that the tests
check today's generator's turns against, and that ``python -m benchmarks.baseline`` plays today's
search against.

Benchmark code: only the benchmarks and the tests import it, never the package.  Importing it
registers the ``baseline:time=1.8`` (or ``depth=``) player spec with
``fanorona.engine.arena``.  It is kept as it was, so do not improve it.
"""

from __future__ import annotations

import random
import time

from fanorona.board import Board, turn_of
from fanorona.engine.ai import SearchInfo
from fanorona.engine.arena import register_player, run_match
from fanorona.engine.scoring import EXACT, LOWER, PROVEN, UPPER
from fanorona.engine.scoring import WIN_SCORE as WIN
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


# ---------------------------------------------------------------------------------------------
# The search, as ai.py had it (level 4 was ``BaselineAlphaBeta(time_limit=1)``, level 5 1.8 s).


def material_threat(g: Geometry, me: int, opp: int) -> int:
    captures, _quiet = _first_steps(g, me, opp)
    best = max((step[4].bit_count() for step in captures), default=0)
    return 100 * (me.bit_count() - opp.bit_count()) + 50 * best


EVALUATIONS = {"threat": material_threat}


def _single(rules, ply: int) -> bool:
    return rules.opening_single_capture and ply < 2


def _captured(opp: int, opp_after: int) -> int:
    return opp.bit_count() - opp_after.bit_count()


class _Timeout(Exception):
    pass


def _to_table(score, ply):
    return score + ply if score >= PROVEN else score - ply if score <= -PROVEN else score


def _from_table(score, ply):
    return score - ply if score >= PROVEN else score + ply if score <= -PROVEN else score


class BaselineAlphaBeta:
    """Negamax with alpha-beta pruning over whole turns, deepening until the time runs out.

    ``depth`` fixes the depth (and disables the clock, so the answer is reproducible);
    otherwise it deepens one turn at a time within ``time_limit`` seconds.  Captures are tried
    largest first and the previous iteration's best turn before all; a transposition table
    keeps each position's score, bound and best reply.  When the clock stops an iteration, a turn
    that already beat the previous best at the new depth is kept.  Positions at the horizon are
    scored by ``evaluation`` (a name in ``EVALUATIONS``); the quiet-turn draw is not seen by the
    search, which only ever picks among the board's legal turns.
    """

    def __init__(
        self, depth: int | None = None, time_limit: float = 1.0, seed=None, evaluation="threat"
    ):
        self.seed, self.rng = seed, random.Random(seed)
        if depth is not None and (
            isinstance(depth, bool) or not isinstance(depth, int) or depth < 1
        ):
            raise ValueError(f"depth is a whole number of turns, at least 1; got {depth!r}")
        if depth is None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
            raise ValueError(f"time_limit is a positive number of seconds; got {time_limit!r}")
        if evaluation not in EVALUATIONS:
            raise ValueError(
                f"no evaluation called {evaluation!r}; choose one of {', '.join(EVALUATIONS)}"
            )
        self.depth, self.time_limit, self.evaluation = depth, time_limit, evaluation
        self._evaluate = EVALUATIONS[evaluation]
        budget = f"depth={depth}" if depth is not None else f"time={time_limit:g}"
        self.name = f"baseline:{budget}" + ("" if evaluation == "threat" else f",eval={evaluation}")
        self.last_search: SearchInfo | None = None

    def choose_turn(self, board: Board):
        me, opp = bitsets(board)
        options = turns(board)
        self._me_opp = (me, opp)
        return turn_of(board.geometry, self._pick(board, options)[0])

    def _pick(self, board, options):
        started = time.perf_counter()
        # stop searching a little early: the answer still has to be built and handed back in time
        self._deadline = None if self.depth is not None else started + 0.9 * self.time_limit
        self._g, self._rules, self._root_ply = board.geometry, board.rules, len(board.turns)
        self._nodes, self._table = 0, {}
        self.rng.shuffle(options)  # equal turns keep this random order when sorted
        if len(options) == 1:
            self.last_search = SearchInfo(
                0,
                0,
                time.perf_counter() - started,
                0.0,
                [str(turn_of(board.geometry, options[0][0]))],
            )
            return options[0]
        me, opp = self._me_opp
        best, score, reached = options[0], 0, 0
        for depth in range(1, (self.depth or 99) + 1):
            self._partial = None
            try:
                best, score = self._search_root(me, opp, options, best, depth)
            except _Timeout:
                if (
                    self._partial is not None
                ):  # a turn that already beat the previous best at this depth
                    best, score = self._partial
                break
            reached = depth
            if abs(score) >= PROVEN:
                break  # a proven win or loss: deeper search cannot change it
        elapsed = time.perf_counter() - started
        self.last_search = SearchInfo(reached, self._nodes, elapsed, score, [])
        return best

    def _search_root(self, me, opp, options, first, depth):
        ordered = sorted(options, key=lambda o: (o is not first, -_captured(opp, o[2])))
        alpha, best = -WIN - 1, ordered[0]
        for option in ordered:
            score = -self._negamax(option[2], option[1], depth - 1, -WIN - 1, -alpha, 1)
            if score > alpha:
                alpha, best = score, option
            self._partial = (best, alpha)
        self._table[self._key(me, opp, 0)] = (depth, alpha, EXACT, (best[1], best[2]))
        return best, alpha

    def _key(self, me, opp, ply):
        single = _single(self._rules, self._root_ply + ply)
        return (me, opp, (self._root_ply + ply) % 2, single)

    def _negamax(self, me, opp, depth, alpha, beta, ply):
        self._count_node()
        if not me:
            return ply - WIN
        if depth == 0:
            return self._evaluate(self._g, me, opp)
        key = self._key(me, opp, ply)
        entry = self._table.get(key)
        best_child = None
        if entry is not None:
            stored_depth, stored, flag, best_child = entry
            if stored_depth >= depth:
                stored = _from_table(stored, ply)
                if (
                    flag == EXACT
                    or (flag == LOWER and stored >= beta)
                    or (flag == UPPER and stored <= alpha)
                ):
                    return stored
        children = self._children(me, opp, ply, best_child)
        if not children:
            return ply - WIN
        original_alpha, best, best_move = alpha, -WIN - 1, None
        for me2, opp2 in children:
            score = -self._negamax(opp2, me2, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, (me2, opp2)
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        self._table[key] = (depth, _to_table(best, ply), flag, best_move)
        return best

    def _count_node(self):
        self._nodes += 1
        if self._deadline and not self._nodes & 63 and time.perf_counter() > self._deadline:
            raise _Timeout

    def _children(self, me, opp, ply, first):
        """The distinct positions after each turn (for the side that just moved), best first."""
        single = _single(self._rules, self._root_ply + ply)
        seen = {}
        for _steps, me2, opp2, _ in _turn_steps(self._g, self._rules, me, opp, single):
            seen[(me2, opp2)] = None
        return sorted(seen, key=lambda c: (c != first, c[1].bit_count()))


# ---------------------------------------------------------------------------------------------


def baseline_player(spec: str, seed=None) -> BaselineAlphaBeta:
    """The arena's ``baseline:time=1.8`` (or ``depth=``) spec: the frozen search, the level 5 from
    before the bit-set generator, for measuring the gain against it."""
    _kind, _, options = spec.strip().partition(":")
    kwargs: dict = {}
    for item in filter(None, options.split(",")):
        key, _, value = item.partition("=")
        if key.strip() not in ("time", "depth"):
            raise ValueError(f"{spec!r}: baseline takes time= or depth=, not {key.strip()!r}")
        try:
            kwargs["time_limit" if key.strip() == "time" else "depth"] = (
                float if key.strip() == "time" else int
            )(value)
        except ValueError:
            raise ValueError(
                f"{spec!r}: {key.strip()} must be a number; got {value.strip()!r}"
            ) from None
    return BaselineAlphaBeta(seed=seed, **kwargs)


register_player("baseline", baseline_player)


def main(argv=None) -> int:
    """``python -m benchmarks.baseline --games 100 --time 0.2``: today's search against the
    baseline at equal time, printed as an arena table."""
    import argparse

    from fanorona.engine.ai import make_player

    parser = argparse.ArgumentParser(prog="python -m benchmarks.baseline", description=main.__doc__)
    parser.add_argument(
        "player",
        nargs="?",
        default=None,
        help="the new player's spec (default alphabeta:time=TIME)",
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.2, help="seconds a turn for both players")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--max-turns", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    new = make_player(args.player or f"alphabeta:time={args.time:g}")
    result = run_match(
        new,
        BaselineAlphaBeta(time_limit=args.time),
        args.games,
        jobs=args.jobs,
        seed=args.seed,
        max_turns=args.max_turns,
    )
    print(result.table())
    if args.json:
        with open(args.json, "w") as f:
            f.write(result.to_json())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
