"""The optional compiled path: the generator of ``movegen`` and the alpha-beta of ``ai``, compiled
by numba when it is installed (``pip install 'fanorona[fast]'``), for boards of up to 62 points.

Nothing here is a new rule: each function is written after a pure-Python one, which stays the
reference (tests/test_compiled.py compares perft, the turns of random games and whole searches,
node for node, under every rule set and evaluation).  The scores, flags and evaluation weights
come from ``scoring`` and the chain rules' encoding from ``movegen.ChainRule``, as in the Python
search.  The functions work on ``int64`` bit sets and the numpy arrays of a ``Tables`` made from a
``Generator``; a chain is walked point by point along its precomputed rays.
``FANORONA_COMPILED=0`` switches the path off.
The first use compiles (about half a minute, shown by a progress bar); numba caches the result on
disk, so later processes load it in about a second.  Numba bakes the constants read from
``scoring`` and ``geometry`` into that code and notices edits to this file only, so an edit to
those two clears the cache (``clear_stale_cache``).
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import itertools
import mmap
import os
import sys
import threading
import time
import weakref
from collections import namedtuple
from pathlib import Path

from ..geometry import DIRECTIONS
from .scoring import (
    EVALUATION_NAMES,
    EXACT,
    LATE_TURN,
    LATER_TURN,
    LEARNED,
    LOWER,
    MOBILITY,
    PROVEN,
    REDUCE_FROM_DEPTH,
    REDUCE_MORE_FROM_DEPTH,
    STONE,
    STRONG_POINT,
    THREAT,
    UPPER,
    WIN_SCORE,
    from_table,
    to_table,
)

try:
    if os.environ.get("FANORONA_COMPILED", "1") == "0" and "numba" not in sys.modules:
        # Switched off before anything loaded numba: not loaded at all, so that a process under a
        # memory limit (a tournament's sandboxed player) never starts LLVM, which reserves more.
        raise ImportError("switched off by FANORONA_COMPILED=0")  # noqa: TRY301
    import numba
    import numpy as np
except ImportError:  # the optional extra is not installed: everything runs in pure Python
    numba = np = None  # type: ignore[assignment]

__all__ = [
    "MAX_POINTS",
    "CompiledGenerator",
    "CompiledSearch",
    "Params",
    "Tables",
    "available",
    "cache_folder",
    "compiled_generator",
    "label_layer",
    "one_compiler_at_a_time",
    "ready",
    "warm_up",
]

MAX_POINTS = 62  # bit sets are signed 64-bit integers; two bits spare keep shifts safe
EVALUATION_CODES = {name: code for code, name in enumerate(EVALUATION_NAMES)}
STRONG_CODE, MOBILITY_CODE, THREAT_CODE, LEARNED_CODE = (
    EVALUATION_CODES[n] for n in ("strong", "mobility", "threat", "learned")
)
LEARNED_THREAT, LEARNED_DANGER, LEARNED_MOBILITY, LEARNED_STRONG, LEARNED_TEMPO = LEARNED
RESULTS_CAPACITY = 1 << 18  # positions the turn buffer holds across the whole search stack
TABLE_BITS = 19  # transposition table slots: 2**19, probed four at a time (36 MB, see _HELD)
HASH_BITS = 24  # the hash's top bits that pick a slot: tables of up to 2**24 slots
PROBES = 4
CHECK_EVERY = 1024  # nodes between looks at the clock and the stop event

#: A search's settings, whole numbers all (numba passes them as one tuple): the board's points and
#: full mask, the rules (``keep`` is ``ChainRule.keep_points``; ``quiet_draw`` -1 for none), the
#: strong points' mask, the evaluation's code in ``EVALUATION_NAMES``, quiescence and its depth, the
#: turns played before the root, the longest line, the stones of the endgame table (0: none), and
#: whether late turns are searched shallower first (ai.AlphaBetaPlayer's ``reductions``), and
#: whether the endgame table is an indexed one (``indexed``: its codes read by number).
Params = namedtuple(
    "Params",
    "points full keep chains mandatory must_continue single_opening quiet_draw strong "
    "evaluation quiescence quiescence_turns root_ply longest endgame_stones reductions "
    "endgame_indexed",
)
#: What the compiled functions read, made by ``CompiledGenerator`` (which says what each array
#: holds).
Tables = namedtuple(
    "Tables",
    "params neighbour ray near reach after shift can twice both room scratch "
    "endgame_me endgame_opp endgame_info endgame_maps endgame_codes endgame_binomials "
    "endgame_bases",
)
KNOWN_WIN, KNOWN_LOSS, KNOWN_DRAW = 1, 2, 3  # endgame_info is distance * 4 + one of these
#: Building an indexed table (``indexed``): no win found yet; the flags of a position (a capture
#: to a drawn position, quiet steps, labelled); the longest distance a byte code holds.
NO_WIN = 255
TO_DRAW, QUIET, LABELLED = 1, 2, 4
LONGEST_CODED = 126
#: A search's counters and flags, one record (``stop_key`` names its stop event in ``_STOPS``).
STATE_FIELDS = (
    "nodes",
    "next_check",
    "timed_out",
    "overflow",
    "has_deadline",
    "watch",
    "generation",
    "stop_key",
    "cancelled",
)


def available() -> bool:
    """Whether the compiled path is installed and not switched off by ``FANORONA_COMPILED=0``."""
    return numba is not None and os.environ.get("FANORONA_COMPILED", "1") != "0"


def cache_folder():
    """The folder where numba caches this module's machine code, or None without numba."""
    return getattr(getattr(globals().get("_popcount"), "_cache", None), "cache_path", None)


@contextlib.contextmanager
def one_compiler_at_a_time(folder, progress: bool = True):
    """Hold an exclusive lock on numba's cache ``folder`` while this process compiles or loads it.
    Two processes that compile at once (two kernels, two test workers, a cold cache) can each write
    cached code that the other then loads half-matched, and LLVM aborts the loading process (numba
    issues 4807 and 10128); under the lock the second waits, then loads the first's whole cache.
    Without a folder, a writable one or ``filelock``, nothing is held."""
    try:
        import filelock
    except ImportError:
        filelock = None  # type: ignore[assignment]
    lock = None
    if folder is not None and filelock is not None:
        candidate = filelock.FileLock(Path(folder) / "compiled.lock")
        with contextlib.suppress(OSError):  # a folder that cannot hold a lock file: none is held
            Path(folder).mkdir(parents=True, exist_ok=True)
            try:
                candidate.acquire(timeout=0)
            except filelock.Timeout:
                if progress:
                    print(
                        "another process is compiling the fast search; waiting for it to finish",
                        file=sys.stderr,
                        flush=True,
                    )
                candidate.acquire()
            lock = candidate
    try:
        yield
    finally:
        if lock is not None:
            lock.release()


def clear_stale_cache(folder, fingerprint: str, stem: str = "compiled") -> bool:
    """Remove this module's cached machine code from numba's cache ``folder`` when it was compiled
    under other constants (``fingerprint`` differs from the one written there), so the next call
    compiles afresh; True if it removed it.  Nothing is done without a folder."""
    if folder is None:
        return False
    stamp = Path(folder) / f"{stem}.constants"
    with contextlib.suppress(OSError):
        if stamp.read_text() == fingerprint:
            return False
    for cached in Path(folder).glob(f"{stem}.*.nb[ic]"):
        with contextlib.suppress(OSError):
            cached.unlink()
    with contextlib.suppress(OSError):
        stamp.write_text(fingerprint)
    return True


if numba is not None:
    jit = numba.njit(cache=True, nogil=True)
    #: ``_negamax``'s helpers, inlined into it by numba, so that splitting it costs no speed
    inlined = numba.njit(cache=True, nogil=True, inline="always")

    @jit
    def _popcount(x):
        x = x - ((x >> 1) & 0x5555555555555555)
        x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
        return (x * 0x0101010101010101) >> 56

    @jit
    def _index(low):
        """The point number of a single set bit."""
        return _popcount(low - 1)

    @jit
    def _shift(x, s):
        """``x`` moved ``s`` points up (s > 0) or down; bits pushed past 63 are gone."""
        if s >= 0:
            return x << s if s < 64 else 0
        return x >> -s if -s < 64 else 0

    @jit
    def _take(ray, opp):
        """The unbroken opponent stones at the start of a ray (its points in order, -1 ending
        it)."""
        taken = 0
        for k in range(ray.shape[0]):
            p = ray[k]
            if p < 0 or not (opp >> p) & 1:
                break
            taken |= 1 << p
        return taken

    @jit
    def _first(ray):
        return 1 << ray[0] if ray[0] >= 0 else 0

    @jit
    def _push(me, opp, buf_me, buf_opp, pos):
        if pos < buf_me.shape[0]:
            buf_me[pos] = me
            buf_opp[pos] = opp
        return pos + 1

    @jit
    def _chain_results(me, opp, at, points, directions, tables, buf_me, buf_opp, pos):
        """movegen.Generator._chain_results: the positions where a chain landing on ``at`` may
        end."""
        params, neighbour, ray, near, reach, after = (
            tables.params,
            tables.neighbour,
            tables.ray,
            tables.near,
            tables.reach,
            tables.after,
        )
        free = near[at] & ~(me | opp | points)
        if free == 0 or opp & reach[at] == 0:
            return _push(me, opp, buf_me, buf_opp, pos)
        more = False
        for d in range(8):
            q = neighbour[at, d]
            if q < 0 or not (free >> q) & 1 or (directions >> d) & 1:
                continue
            back = (d + 4) % 8
            ahead_first, behind_first = _first(ray[q, d]), _first(ray[at, back])
            if opp & (ahead_first | behind_first) == 0:
                continue
            more = True
            target = 1 << q
            me2 = me ^ (1 << at) ^ target
            points2 = (points | target) & params.keep
            directions2 = after[directions, d]
            if opp & ahead_first:
                pos = _chain_results(
                    me2,
                    opp ^ _take(ray[q, d], opp),
                    q,
                    points2,
                    directions2,
                    tables,
                    buf_me,
                    buf_opp,
                    pos,
                )
            if opp & behind_first:
                pos = _chain_results(
                    me2,
                    opp ^ _take(ray[at, back], opp),
                    q,
                    points2,
                    directions2,
                    tables,
                    buf_me,
                    buf_opp,
                    pos,
                )
        if not (more and params.must_continue):
            pos = _push(me, opp, buf_me, buf_opp, pos)
        return pos

    @jit
    def _movers(me, opp, d, tables):
        """The stones that can step in direction ``d``, those approaching and those withdrawing."""
        s = tables.shift[d]
        empty = tables.params.full & ~(me | opp)
        movers = me & tables.can[d] & _shift(empty, -s)
        approach = movers & tables.twice[d] & _shift(opp, -2 * s)
        withdraw = movers & tables.both[d] & _shift(opp, s)
        return movers, approach, withdraw

    @jit
    def _results(me, opp, single, tables, buf_me, buf_opp, pos):
        """movegen.Generator.results: the position after each turn, written from ``pos`` on; returns
        the end (past the buffer's length when it overflowed)."""
        params, ray, shift = tables.params, tables.ray, tables.shift
        chains = params.chains and not single
        start = pos
        for d in range(8):
            s = shift[d]
            movers, approach, withdraw = _movers(me, opp, d, tables)
            captures = approach | withdraw
            while captures:
                origin = captures & -captures
                captures ^= origin
                p = _index(origin)
                q = p + s
                target = 1 << q
                for kind in range(2):
                    if kind == 0:
                        if not origin & approach:
                            continue
                        taken = _take(ray[q, d], opp)
                    else:
                        if not origin & withdraw:
                            continue
                        taken = _take(ray[p, (d + 4) % 8], opp)
                    if chains:
                        pos = _chain_results(
                            me ^ origin ^ target,
                            opp ^ taken,
                            q,
                            (origin | target) & params.keep,
                            tables.after[0, d],
                            tables,
                            buf_me,
                            buf_opp,
                            pos,
                        )
                    else:
                        pos = _push(me ^ origin ^ target, opp ^ taken, buf_me, buf_opp, pos)
        if pos > start and params.mandatory:
            return pos
        for d in range(8):
            s = shift[d]
            movers, approach, withdraw = _movers(me, opp, d, tables)
            paika = movers & ~(approach | withdraw)
            while paika:
                origin = paika & -paika
                paika ^= origin
                pos = _push(me ^ origin ^ _shift(origin, s), opp, buf_me, buf_opp, pos)
        return pos

    @jit
    def _count_turns(me, opp, single, tables):
        """movegen.Generator.count_turns: ``_results`` into a buffer of no room, which only
        counts."""
        return _results(me, opp, single, tables, tables.scratch[:0], tables.scratch[:0], 0)

    @jit
    def _perft(me, opp, depth, ply, quiet, tables, buf_me, buf_opp, pos):
        """movegen.Generator.perft; -1 when the turn buffer overflowed."""
        params = tables.params
        if params.quiet_draw >= 0 and quiet >= params.quiet_draw:
            return 0
        single = params.single_opening != 0 and ply < 2
        if depth == 1:
            return _count_turns(me, opp, single, tables)
        end = _results(me, opp, single, tables, buf_me, buf_opp, pos)
        if end > buf_me.shape[0]:
            return -1
        total = 0
        for i in range(pos, end):
            me2, opp2 = buf_me[i], buf_opp[i]
            found = _perft(
                opp2,
                me2,
                depth - 1,
                ply + 1,
                quiet + 1 if opp2 == opp else 0,
                tables,
                buf_me,
                buf_opp,
                end,
            )
            if found < 0:
                return -1
            total += found
        return total

    @jit
    def _best_capture(me, opp, tables):
        """movegen.Generator.best_capture: the most stones one first step takes."""
        shift, room = tables.shift, tables.room
        best = 0
        for d in range(8):
            s = shift[d]
            back = (d + 4) % 8
            _movers_d, approach, withdraw = _movers(me, opp, d, tables)
            k = 1
            while approach:
                if k > best:
                    best = k
                k += 1
                approach &= room[d, k + 1] & _shift(opp, -(k + 1) * s)
            k = 1
            while withdraw:
                if k > best:
                    best = k
                k += 1
                withdraw &= room[back, k] & _shift(opp, k * s)
        return best

    @jit
    def _mobility(me, opp, tables):
        """movegen.Generator.mobility: first steps, a step capturing both ways counted twice."""
        count = 0
        for d in range(8):
            movers, approach, withdraw = _movers(me, opp, d, tables)
            count += _popcount(movers) + _popcount(approach & withdraw)
        return count

    @jit
    def _evaluate(me, opp, tables):
        """ai.EVALUATIONS, by code: material, strong points, mobility, threat, learned."""
        params = tables.params
        score = STONE * (_popcount(me) - _popcount(opp))
        code = params.evaluation
        if code == STRONG_CODE:
            score += STRONG_POINT * (_popcount(me & params.strong) - _popcount(opp & params.strong))
        elif code == MOBILITY_CODE:
            score += MOBILITY * (_mobility(me, opp, tables) - _mobility(opp, me, tables))
        elif code == THREAT_CODE:
            score += THREAT * _best_capture(me, opp, tables)
        elif code == LEARNED_CODE:
            score += (
                LEARNED_THREAT * _best_capture(me, opp, tables)
                + LEARNED_DANGER * _best_capture(opp, me, tables)
                + LEARNED_MOBILITY * (_mobility(me, opp, tables) - _mobility(opp, me, tables))
                + LEARNED_STRONG * (_popcount(me & params.strong) - _popcount(opp & params.strong))
                + LEARNED_TEMPO
            )
        return score

    @jit
    def _has_step(me, opp, tables):
        for d in range(8):
            movers, _approach, _withdraw = _movers(me, opp, d, tables)
            if movers:
                return True
        return False

    # -- the endgame table ----------------------------------------------------------------------

    @jit
    def _image(stones, maps, k):
        """The points of ``stones`` sent through the point map ``maps[k]``."""
        image = 0
        while stones:
            low = stones & -stones
            image |= 1 << maps[k, _popcount(low - 1)]
            stones ^= low
        return image

    @jit
    def _endgame_index(me, opp, tables):
        """Where the position stands in the endgame table, or -1: its smallest mirror image (as
        ``endgame.Symmetry.canonical``, ``opp`` then ``me``) looked up by halving, as ``lookup``
        does."""
        maps, keys_me, keys_opp = tables.endgame_maps, tables.endgame_me, tables.endgame_opp
        a, b = me, opp
        for k in range(1, maps.shape[0]):  # map 0 is the identity
            a2, b2 = _image(me, maps, k), _image(opp, maps, k)
            if b2 < b or (b2 == b and a2 < a):
                a, b = a2, b2
        low, high = 0, keys_me.shape[0]
        while low < high:
            middle = (low + high) >> 1
            if keys_opp[middle] < b or (keys_opp[middle] == b and keys_me[middle] < a):
                low = middle + 1
            else:
                high = middle
        if low < keys_me.shape[0] and keys_me[low] == a and keys_opp[low] == b:
            return low
        return -1

    @jit
    def _known(me, opp, ply, quiet, tables):
        """ai._EndgameScores.known: (True, exact score) from the endgame table, or (False, 0)."""
        params = tables.params
        if me == 0 or opp == 0 or _popcount(me | opp) > params.endgame_stones:
            return False, 0
        if params.endgame_indexed:  # a byte code: 0 a draw, 2d - 1 a win, 2d + 2 a loss
            code = tables.endgame_codes[
                _number(me, opp, tables.endgame_binomials, tables.endgame_bases)
            ]
            kind = KNOWN_DRAW if code == 0 else KNOWN_WIN if code & 1 else KNOWN_LOSS
            distance = (code + 1) // 2 if code & 1 else (code - 2) // 2
        else:
            i = _endgame_index(me, opp, tables)
            if i < 0:
                return False, 0
            info = tables.endgame_info[i]
            kind, distance = info & 3, info >> 2
        if kind == KNOWN_DRAW:
            return True, 0
        if params.quiet_draw >= 0 and quiet + distance >= params.quiet_draw:
            return False, 0
        return True, (
            WIN_SCORE - ply - distance if kind == KNOWN_WIN else ply + distance - WIN_SCORE
        )

    # -- the indexed endgame tables (``indexed``): numbering and labelling ------------------------

    @jit
    def _number(me, opp, binomials, bases):
        """``indexed.position_index``: the colex rank of the stones' points times the colourings
        with both colours, plus this colouring (bit j: the j-th lowest stone is the side to
        move's)."""
        stones = me | opp
        k = _popcount(stones)
        rank, pattern, j = 0, 0, 0
        while stones:
            low = stones & -stones
            rank += binomials[_index(low), j + 1]
            if me & low:
                pattern |= 1 << j
            j += 1
            stones ^= low
        return bases[k] + rank * ((1 << k) - 2) + pattern - 1

    @jit
    def _position(i, k, points, binomials, bases):
        """The position numbered ``i`` among those of ``k`` stones: (the side to move's stones, the
        other side's)."""
        colours = (1 << k) - 2
        local = i - bases[k]
        rank, pattern = local // colours, local % colours + 1
        me, opp, p = 0, 0, points - 1
        for j in range(k, 0, -1):
            while binomials[p, j] > rank:
                p -= 1
            rank -= binomials[p, j]
            if pattern >> (j - 1) & 1:
                me |= 1 << p
            else:
                opp |= 1 << p
            p -= 1
        return me, opp

    @jit
    def _label_layer(k, points, tables, binomials, bases, codes, neighbour):
        """Label every position of ``k`` stones into ``codes``, those of fewer being labelled
        already.  Returns 0, or 1 if a distance is longer than a byte code holds."""
        start, n = bases[k], bases[k + 1] - bases[k]
        quiet = np.zeros(n, dtype=np.uint8)  # turns to positions of k stones not yet known as won
        winat = np.full(n, NO_WIN, dtype=np.uint8)  # the shortest win found
        lossmax = np.zeros(n, dtype=np.uint8)  # the longest loss, if every turn loses
        flags = np.zeros(n, dtype=np.uint8)
        buf_me, buf_opp = np.empty(4096, dtype=np.int64), np.empty(4096, dtype=np.int64)
        top = 0
        for i in range(n):
            me, opp = _position(start + i, k, points, binomials, bases)
            end = _results(me, opp, False, tables, buf_me, buf_opp, 0)
            for t in range(end):
                me2, opp2 = buf_me[t], buf_opp[t]
                if opp2 == 0:  # the last stone taken
                    winat[i] = 1
                elif _popcount(me2 | opp2) < k:  # a capture: the position it leaves is labelled
                    code = codes[_number(opp2, me2, binomials, bases)]
                    if code == 0:
                        flags[i] |= TO_DRAW
                    elif code & 1:  # won for the opponent, who moves next
                        lossmax[i] = max(lossmax[i], (code + 1) // 2 + 1)
                    else:
                        winat[i] = min(winat[i], (code - 2) // 2 + 1)
                else:
                    quiet[i] += 1
            if quiet[i]:
                flags[i] |= QUIET
            top = max(top, lossmax[i] if winat[i] == NO_WIN else winat[i])
        d = 0
        while d <= top:
            for i in range(n):
                if flags[i] & LABELLED:
                    continue
                if winat[i] == d:
                    lost, code = False, 2 * d - 1
                elif (
                    winat[i] == NO_WIN
                    and quiet[i] == 0
                    and not flags[i] & TO_DRAW
                    and lossmax[i] == d
                ):
                    lost, code = True, 2 * d + 2
                else:
                    continue
                if d > LONGEST_CODED:
                    return 1
                codes[start + i] = code
                flags[i] |= LABELLED
                # the positions one quiet step before: the side that moved stood one point back
                me, opp = _position(start + i, k, points, binomials, bases)
                occupied, movers = me | opp, opp
                while movers:
                    low = movers & -movers
                    movers ^= low
                    q = _index(low)
                    for e in range(8):
                        r = neighbour[q, e]
                        if r < 0 or occupied >> r & 1:
                            continue
                        # the step r -> q goes in direction e + 4; it captures by approach if
                        # the point past q holds a stone of the side to move now, by withdrawal
                        # if the one behind r does: then it was not a quiet step
                        ahead, behind = neighbour[q, (e + 4) % 8], neighbour[r, e]
                        if (ahead >= 0 and me >> ahead & 1) or (behind >= 0 and me >> behind & 1):
                            continue
                        j = _number(opp ^ low ^ (1 << r), me, binomials, bases) - start
                        if flags[j] & LABELLED or not flags[j] & QUIET:
                            continue
                        if lost:
                            if d + 1 < winat[j]:
                                winat[j] = d + 1
                                top = max(top, d + 1)
                        else:
                            quiet[j] -= 1
                            lossmax[j] = max(lossmax[j], d + 1)
                            if quiet[j] == 0:
                                top = max(top, lossmax[j])
            d += 1
        return 0

    # -- the search ------------------------------------------------------------------------------

    @numba.njit(cache=True)  # not nogil: object mode needs the interpreter lock
    def _look(stop_key):
        """The clock, and whether the stop event of ``stop_key`` is set (read in object mode)."""
        with numba.objmode(now="float64", stopped="int64"):
            now = time.perf_counter()
            stopped = 1 if _THIS_MODULE._stop_requested(stop_key) else 0
        return now, stopped

    @jit
    def _out_of_time(state, deadline):
        """Looks at the clock and the stop event every CHECK_EVERY nodes; once stopped, stays
        stopped."""
        if state[0].timed_out:
            return True
        if state[0].watch and state[0].nodes >= state[0].next_check:
            state[0].next_check = state[0].nodes + CHECK_EVERY
            now, stopped = _look(state[0].stop_key)
            if stopped:
                state[0].cancelled = 1
                state[0].timed_out = 1
                return True
            if state[0].has_deadline and now > deadline[0]:
                state[0].timed_out = 1
                return True
        return False

    @jit
    def _extra(ply, quiet, depth, tables):
        """ai._AlphaBetaSearch._key beyond the stones: side to move, opening rule, quiet turns if
        near."""
        params = tables.params
        turn = params.root_ply + ply
        single = 1 if params.single_opening and turn < 2 else 0
        near = (
            params.quiet_draw >= 0 and params.quiet_draw - quiet <= depth + params.quiescence_turns
        )
        return (turn % 2) | single << 1 | ((quiet if near else -1) + 1) << 2

    @jit
    def _hash(me, opp, extra):
        """A well-mixed 64-bit number of a position key, its top bits for a table index."""
        return (
            (np.uint64(me) * np.uint64(0x9E3779B97F4A7C15))
            ^ (np.uint64(opp) * np.uint64(0xC2B2AE3D27D4EB4F))
            ^ (np.uint64(extra) * np.uint64(0x165667B19E3779F9))
        )

    @jit
    def _slot(me, opp, extra, table, state):
        """The table slot holding this key, or the slot to use for it (an empty one, else the
        first).
        A slot written by an earlier search (another generation) counts as empty."""
        keys = table[0]
        mask = keys.shape[0] - 1
        first = np.int64(_hash(me, opp, extra) >> np.uint64(64 - HASH_BITS)) & mask
        for k in range(PROBES):
            i = (first + k) & mask
            if keys[i, 3] != state[0].generation or (
                keys[i, 0] == me and keys[i, 1] == opp and keys[i, 2] == extra
            ):
                return i
        return first

    @jit
    def _store(table, state, i, me, opp, extra, depth, score, flag, best_me, best_opp):
        keys, values = table[0], table[1]
        keys[i, 0], keys[i, 1], keys[i, 2], keys[i, 3] = me, opp, extra, state[0].generation
        values[i, 0], values[i, 1], values[i, 2], values[i, 3], values[i, 4] = (
            depth,
            score,
            flag,
            best_me,
            best_opp,
        )

    _to_table, _from_table = jit(to_table), jit(from_table)

    @jit
    def _leaf(me2, opp2, ply, quiet2, tables, state):
        """The horizon of ai._AlphaBetaSearch._child: the value of the turn leaving (me2, opp2),
        scored without a search, for the side that moved."""
        params = tables.params
        state[0].nodes += 1
        if opp2 == 0:
            return WIN_SCORE - ply - 1
        if params.quiet_draw >= 0 and quiet2 >= params.quiet_draw:
            return 0
        if params.endgame_stones:
            found, known = _known(opp2, me2, ply + 1, quiet2, tables)
            if found:
                return -known
        return -_evaluate(opp2, me2, tables)

    @jit
    def _child(
        me2,
        opp2,
        opp,
        depth,
        alpha,
        beta,
        ply,
        quiet,
        null_window,
        tables,
        table,
        state,
        deadline,
        buf_me,
        buf_opp,
        pos,
    ):
        """ai._AlphaBetaSearch._child, for the root: the value, for the side that moved, of the turn
        leaving (me2, opp2).  ``_negamax`` has the same lines inline: numba cannot cache two
        functions that call each other."""
        quiet2 = quiet + 1 if opp2 == opp else 0
        if depth == 1 and not tables.params.quiescence:
            return _leaf(me2, opp2, ply, quiet2, tables, state)
        if null_window:
            score = -_negamax(
                opp2,
                me2,
                depth - 1,
                -alpha - 1,
                -alpha,
                ply + 1,
                quiet2,
                tables,
                table,
                state,
                deadline,
                buf_me,
                buf_opp,
                pos,
            )
            if not alpha < score < beta:
                return score
        return -_negamax(
            opp2,
            me2,
            depth - 1,
            -beta,
            -alpha,
            ply + 1,
            quiet2,
            tables,
            table,
            state,
            deadline,
            buf_me,
            buf_opp,
            pos,
        )

    @jit
    def _children(me, opp, single, tables, buf_me, buf_opp, pos, scratch):
        """movegen.Generator.children sorted as the search wants them: distinct results, first seen
        first, then (stably) fewest opponent stones left first.  Returns the end of the list."""
        end = _results(me, opp, single, tables, buf_me, buf_opp, pos)
        if end > buf_me.shape[0]:
            return end
        distinct = pos
        for i in range(pos, end):
            seen = False
            for j in range(pos, distinct):
                if buf_me[j] == buf_me[i] and buf_opp[j] == buf_opp[i]:
                    seen = True
                    break
            if not seen:
                buf_me[distinct], buf_opp[distinct] = buf_me[i], buf_opp[i]
                distinct += 1
        if distinct + (distinct - pos) > buf_me.shape[0]:
            return buf_me.shape[0] + 1
        # a counting sort on the opponent's stones left, through the free space after the list:
        # stable, like Python's sort
        counts = scratch
        counts[:] = 0
        for i in range(pos, distinct):
            counts[_popcount(buf_opp[i]) + 1] += 1
        for c in range(1, counts.shape[0]):
            counts[c] += counts[c - 1]
        for i in range(pos, distinct):
            c = _popcount(buf_opp[i])
            k = distinct + counts[c]
            counts[c] += 1
            buf_me[k], buf_opp[k] = buf_me[i], buf_opp[i]
        for k in range(distinct - pos):
            buf_me[pos + k], buf_opp[pos + k] = buf_me[distinct + k], buf_opp[distinct + k]
        return distinct

    @jit
    def _search_children(me, opp, ply, tables, state, buf_me, buf_opp, pos):
        """The children of a search node, ``ply`` turns below the root, from ``pos`` on: their end,
        or
        -1 (and the search stopped) when the buffer is too small."""
        single = tables.params.single_opening != 0 and tables.params.root_ply + ply < 2
        end = _children(me, opp, single, tables, buf_me, buf_opp, pos, tables.scratch)
        if end > buf_me.shape[0]:
            state[0].overflow = 1
            state[0].timed_out = 1
            return -1
        return end

    @inlined
    def _settled(
        me, opp, depth, alpha, beta, ply, quiet, tables, state, deadline, buf_me, buf_opp, pos
    ):
        """``_negamax``'s first job: (True, value) for a node settled without its turns (out of
        time, no stones, the draw rule, the endgame table, the horizon's evaluation or quiescence
        search), else (False, 0)."""
        params = tables.params
        if _out_of_time(state, deadline):
            return True, 0
        if me == 0:
            return True, ply - WIN_SCORE
        if params.quiet_draw >= 0 and quiet >= params.quiet_draw:
            return True, 0
        if params.endgame_stones:
            found, known = _known(me, opp, ply, quiet, tables)
            if found:
                return True, known
        if depth > 0:
            return False, 0
        if params.quiescence:
            turns = params.quiescence_turns
            value = _quiesce(me, opp, alpha, beta, ply, turns, tables, state, buf_me, buf_opp, pos)
            return True, value
        return True, _evaluate(me, opp, tables)

    @inlined
    def _probe(me, opp, depth, alpha, beta, ply, quiet, extra, slot, tables, table, state):
        """The transposition table's entry for a node: (True, value, ...) when its stored bound
        settles the node, else (False, 0, ...); then the stored best reply, or (-1, -1)."""
        params = tables.params
        keys, values = table[0], table[1]
        if not (
            keys[slot, 3] == state[0].generation
            and keys[slot, 0] == me
            and keys[slot, 1] == opp
            and keys[slot, 2] == extra
        ):
            return False, 0, np.int64(-1), np.int64(-1)
        stored_depth, stored, flag = values[slot, 0], values[slot, 1], values[slot, 2]
        stored_me, stored_opp = values[slot, 3], values[slot, 4]
        # a proven score from the endgame table may end later than the draw rule allows from here
        outlives = (
            params.endgame_stones > 0
            and params.quiet_draw >= 0
            and abs(stored) >= PROVEN
            and quiet + WIN_SCORE - abs(stored) >= params.quiet_draw
        )
        if stored_depth >= depth and not outlives:
            stored = _from_table(stored, ply)
            if (
                flag == EXACT
                or (flag == LOWER and stored >= beta)
                or (flag == UPPER and stored <= alpha)
            ):
                return True, stored, stored_me, stored_opp
        return False, 0, stored_me, stored_opp

    @inlined
    def _shallower(reduce, null_window, index, depth):
        """ai._reduction: how many turns shallower the turn at ``index`` is searched first."""
        if not (reduce and null_window and index >= LATE_TURN):
            return 0
        return 2 if index >= LATER_TURN and depth >= REDUCE_MORE_FROM_DEPTH else 1

    @jit
    def _negamax(
        me,
        opp,
        depth,
        alpha,
        beta,
        ply,
        quiet,
        tables,
        table,
        state,
        deadline,
        buf_me,
        buf_opp,
        pos,
    ):
        """ai._AlphaBetaSearch._negamax, step for step, with its jobs in helpers numba inlines
        (``_settled``, ``_probe``, ``_shallower``).  The stored best reply is candidate
        ``pos - 1``, tried before the others are generated (the move ordering stays here: as a
        helper returning what it found it cost an eighth of the speed); each candidate's value
        is ai's ``_child``, written inline (numba cannot cache two functions that call each
        other)."""
        params = tables.params
        state[0].nodes += 1
        settled, value = _settled(
            me, opp, depth, alpha, beta, ply, quiet, tables, state, deadline, buf_me, buf_opp, pos
        )
        if settled:
            return value
        extra = _extra(ply, quiet, depth, tables)
        slot = _slot(me, opp, extra, table, state)
        found, value, stored_me, stored_opp = _probe(
            me, opp, depth, alpha, beta, ply, quiet, extra, slot, tables, table, state
        )
        if found:
            return value
        original_alpha, best, best_me, best_opp = alpha, -WIN_SCORE - 1, stored_me, stored_opp
        reduce = params.reductions != 0 and depth >= REDUCE_FROM_DEPTH
        end = pos
        i = pos - 1 if stored_me >= 0 else pos
        while True:
            if i == pos - 1:  # the stored best reply, with the full window
                me2, opp2, null_window = stored_me, stored_opp, False
            else:
                if i == pos:  # the others, generated only if the stored reply did not cut
                    if alpha >= beta:
                        break
                    end = _search_children(me, opp, ply, tables, state, buf_me, buf_opp, pos)
                    if end <= pos:  # the buffer is full (the search stops), or no turn: lost
                        return 0 if end < 0 else ply - WIN_SCORE
                if i >= end:
                    break
                me2, opp2, null_window = buf_me[i], buf_opp[i], best > -WIN_SCORE - 1
                if me2 == stored_me and opp2 == stored_opp:
                    i += 1
                    continue
            cut = _shallower(reduce, null_window, i - pos, depth)
            i += 1
            quiet2 = quiet + 1 if opp2 == opp else 0
            if depth == 1 and not params.quiescence:
                score = _leaf(me2, opp2, ply, quiet2, tables, state)
            else:
                # up to three searches of the turn, each only if the one before beat alpha: a
                # turn shallower with a null window (late turns), the full depth with a null
                # window (all but the first), the full depth and window
                search = 0 if cut else 1 if null_window else 2
                while True:
                    shallower = cut if search == 0 else 0
                    low = -beta if search == 2 else -alpha - 1
                    score = -_negamax(
                        opp2,
                        me2,
                        depth - 1 - shallower,
                        low,
                        -alpha,
                        ply + 1,
                        quiet2,
                        tables,
                        table,
                        state,
                        deadline,
                        buf_me,
                        buf_opp,
                        end,
                    )
                    # enough: out of time, the last search, no better than alpha, or a null
                    # window's fail high
                    if (
                        state[0].timed_out
                        or search == 2
                        or score <= alpha
                        or (search == 1 and score >= beta)
                    ):
                        break
                    search += 1
            if state[0].timed_out:
                return 0
            if i == pos:  # the stored reply just searched
                best = score
                alpha = max(alpha, best)
            elif score > best:
                best, best_me, best_opp = score, me2, opp2
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        slot = _slot(me, opp, extra, table, state)
        _store(
            table, state, slot, me, opp, extra, depth, _to_table(best, ply), flag, best_me, best_opp
        )
        return best

    @jit
    def _quiesce(me, opp, alpha, beta, ply, turns_left, tables, state, buf_me, buf_opp, pos):
        """ai._AlphaBetaSearch._quiesce: past the horizon, capturing turns only."""
        params = tables.params
        state[0].nodes += 1
        threat = _best_capture(me, opp, tables)
        if threat == 0:
            if not _has_step(me, opp, tables):
                return ply - WIN_SCORE
            return _evaluate(me, opp, tables)
        if turns_left == 0:
            return _evaluate(me, opp, tables)
        best = -WIN_SCORE - 1
        if not params.mandatory:
            best = _evaluate(me, opp, tables)
            if best >= beta:
                return best
            alpha = max(alpha, best)
        end = _search_children(me, opp, ply, tables, state, buf_me, buf_opp, pos)
        for i in range(pos, end):
            me2, opp2 = buf_me[i], buf_opp[i]
            if opp2 == opp:
                continue
            if opp2 == 0:
                score = WIN_SCORE - ply - 1
            else:
                score = -_quiesce(
                    opp2,
                    me2,
                    -beta,
                    -alpha,
                    ply + 1,
                    turns_left - 1,
                    tables,
                    state,
                    buf_me,
                    buf_opp,
                    end,
                )
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    @jit
    def _store_root(me, opp, quiet, depth, score, best_me, best_opp, tables, table, state):
        extra = _extra(0, quiet, depth, tables)
        _store(
            table,
            state,
            _slot(me, opp, extra, table, state),
            me,
            opp,
            extra,
            depth,
            score,
            EXACT,
            best_me,
            best_opp,
        )

    @jit
    def _stored_reply(me, opp, ply, quiet, depth, tables, table, state):
        """The best reply stored for a position, as (me, opp) after it, or (-1, -1)."""
        extra = _extra(ply, quiet, depth, tables)
        keys, values = table[0], table[1]
        i = _slot(me, opp, extra, table, state)
        if (
            keys[i, 3] == state[0].generation
            and keys[i, 0] == me
            and keys[i, 1] == opp
            and keys[i, 2] == extra
        ):
            return values[i, 3], values[i, 4]
        return np.int64(-2), np.int64(-2)

    def _constants_fingerprint() -> str:
        """A digest of the modules whose names the compiled functions read as constants.  Numba
        bakes such globals into its cached machine code and notices edits to this file only (a
        documented limit), so a new weight in ``scoring`` would otherwise go unseen."""
        from .. import geometry
        from . import scoring

        digest = hashlib.sha256()
        for module in (scoring, geometry):
            digest.update(inspect.getsource(module).encode())
        return digest.hexdigest()

    # before any function runs, hence before numba reads its cache
    clear_stale_cache(cache_folder(), _constants_fingerprint())


_THIS_MODULE = sys.modules[__name__]  # how the object-mode block of _look finds _stop_requested
_STOPS: dict = {}  # stop_key -> the threading.Event of a running search
_STOP_KEYS = itertools.count(1)  # 0: no search


#: How many transposition tables searches hold now.  A search's table is its own, mapped at
#: ``start`` and handed back to the system at ``finish``: a kernel holds none between turns (a
#: new one costs about 40 ms of page faults, against a level-5 search's 1.8 s).  Each is
#: ``2**TABLE_BITS`` slots of 9 numbers, 36 MB.
_HELD = [0]
_HELD_LOCK = threading.Lock()
_GENERATIONS = itertools.count(1)  # every search's own number, written beside what it stores


def _zeros(rows: int, columns: int):
    """A zeroed int64 array in memory of its own (an anonymous map), handed back to the system as
    soon as the array is dropped, which memory from malloc's heap need not be."""
    memory = mmap.mmap(-1, rows * columns * 8)
    return np.frombuffer(memory, dtype=np.int64).reshape(rows, columns)


def _new_table() -> tuple:
    with _HELD_LOCK:
        _HELD[0] += 1
    return _zeros(1 << TABLE_BITS, 4), _zeros(1 << TABLE_BITS, 5)


def _drop_table() -> None:
    with _HELD_LOCK:
        _HELD[0] -= 1


#: The searches that kept their table (``keep``) and are not searching now, the last to finish
#: last: at most ``_KEPT_LIMIT[0]`` of them (one, so a kernel with players on several board sizes
#: holds one table between turns; ``kept_tables`` raises it for a game of two such players).
_IDLE_KEPT: list = []
_KEPT_LIMIT = [1]
_KEPT_LOCK = threading.Lock()


@contextlib.contextmanager
def kept_tables(limit: int):
    """Within the block, ``limit`` searches may keep their tables between turns: the arena's two
    remembering sides of one game then do not drop each other's."""
    if not (isinstance(limit, int) and limit >= 1):
        raise ValueError(f"kept_tables takes a whole number of tables, at least 1; got {limit!r}")
    with _KEPT_LOCK:
        before, _KEPT_LIMIT[0] = _KEPT_LIMIT[0], limit
    try:
        yield
    finally:
        with _KEPT_LOCK:
            _KEPT_LIMIT[0] = before
            _drop_kept_beyond(before)


def _forget_idle(search) -> None:
    """Take ``search`` (and searches collected since) off the idle list (the lock held)."""
    _IDLE_KEPT[:] = [ref for ref in _IDLE_KEPT if ref() is not None and ref() is not search]


def _drop_kept_beyond(limit: int) -> None:
    """Forget the tables of all but the ``limit`` searches that finished last (the lock held)."""
    alive = [search for search in (ref() for ref in _IDLE_KEPT) if search is not None]
    for search in alive[: max(len(alive) - limit, 0)]:
        search.forget()
    _IDLE_KEPT[:] = [weakref.ref(search) for search in alive[-limit:]]


def tables_held() -> int:
    """How many transposition tables searches hold now (for tests and the memory benchmark)."""
    with _HELD_LOCK:
        return _HELD[0]


def _stop_requested(stop_key: int) -> bool:
    event = _STOPS.get(stop_key)
    return event is not None and event.is_set()


def _no_endgame() -> dict:
    """The endgame arrays of a search without a table: one empty-looking entry each."""
    return {
        "endgame_me": np.zeros(1, dtype=np.int64),
        "endgame_opp": np.zeros(1, dtype=np.int64),
        "endgame_info": np.zeros(1, dtype=np.int64),
        "endgame_maps": np.zeros((1, 1), dtype=np.int64),
        "endgame_codes": np.zeros(1, dtype=np.uint8),
        "endgame_binomials": np.zeros((1, 1), dtype=np.int64),
        "endgame_bases": np.zeros(1, dtype=np.int64),
    }


_ENDGAMES: dict = {}


def label_layer(k: int, compiled_gen: CompiledGenerator, binomials, bases, codes) -> None:
    """Label the positions of ``k`` stones of an indexed table (``indexed``) into ``codes``, those
    of fewer stones being labelled already; ValueError if a win or a loss is too long to code."""
    neighbour = np.array(compiled_gen.generator.geometry.neighbour, dtype=np.int64)
    points = compiled_gen.params.points
    if _label_layer(k, points, compiled_gen.tables, binomials, bases, codes, neighbour):
        raise ValueError(f"a win or loss of {k} stones is longer than {LONGEST_CODED} turns")


def endgame_lookup(table) -> dict:
    """An ``EndgameTable`` as the compiled search reads it: its entries in its own order (so a
    position is found by halving), and the board's mirror images; made once a table (13 MB for 4
    stones on 9x5).  An ``IndexedTable`` is read as it is: its codes, found by number.  The
    ``Tables`` fields ``endgame_*``, by name."""
    from .indexed import IndexedTable

    if isinstance(table, IndexedTable):
        return {
            **_no_endgame(),
            "endgame_codes": table.codes,
            "endgame_binomials": table.binomials,
            "endgame_bases": table.bases,
        }
    if id(table) not in _ENDGAMES:
        code = {"win": KNOWN_WIN, "loss": KNOWN_LOSS, "draw": KNOWN_DRAW}
        me, opp, info = (np.empty(len(table), dtype=np.int64) for _ in range(3))
        for i, (m, o, value, distance) in enumerate(table.entries()):
            me[i], opp[i], info[i] = m, o, (distance or 0) * 4 + code[value]
        from ..geometry import geometry

        maps = np.array(geometry(*table.size).symmetries(), dtype=np.int64)
        arrays = {
            **_no_endgame(),
            "endgame_me": me,
            "endgame_opp": opp,
            "endgame_info": info,
            "endgame_maps": maps,
        }
        _ENDGAMES[id(table)] = (table, arrays)  # the table is kept, so its id stays its own
    return _ENDGAMES[id(table)][1]


class CompiledGenerator:
    """A ``movegen.Generator``'s tables as numpy arrays, with its counting and listing compiled."""

    def __init__(self, gen):
        g, rules, n = gen.geometry, gen.rules, gen.points
        longest = max(g.width, g.height)
        self.generator = gen
        self.params = Params(
            points=n,
            full=gen.full,
            keep=gen.chain_rule.keep_points,
            chains=int(rules.chains),
            mandatory=int(rules.mandatory_capture),
            must_continue=int(rules.must_continue),
            single_opening=int(rules.opening_single_capture),
            quiet_draw=-1 if rules.quiet_draw is None else rules.quiet_draw,
            strong=sum(1 << i for i, strong in enumerate(g.strong) if strong),
            evaluation=EVALUATION_CODES["threat"],
            quiescence=0,
            quiescence_turns=0,
            root_ply=0,
            longest=longest,
            endgame_stones=0,
            reductions=0,
            endgame_indexed=0,
        )
        ray = np.full((n, 8, longest), -1, dtype=np.int64)
        for p in range(n):
            for d in range(8):
                ray[p, d, : len(g.ray[p][d])] = g.ray[p][d]
        room = np.zeros((8, longest + 3), dtype=np.int64)
        for d in range(8):
            for k in range(longest + 1):
                room[d, k] = sum(1 << p for p in range(n) if len(g.ray[p][d]) >= k)

        def mask(test):
            return np.array(
                [sum(1 << p for p in range(n) if test(p, d)) for d in range(8)], dtype=np.int64
            )

        self.tables = Tables(
            params=self.params,
            neighbour=np.array(g.neighbour, dtype=np.int64),  # [point, direction], -1 off the board
            ray=ray,  # [point, direction]: the points in order
            near=np.array(
                [sum(1 << q for q in g.neighbour[p] if q >= 0) for p in range(n)], dtype=np.int64
            ),
            reach=np.array(
                [sum(1 << r for d in range(8) for r in g.ray[p][d][:2]) for p in range(n)],
                dtype=np.int64,
            ),  # points one or two steps away
            after=np.array(
                gen.chain_rule.directions_after, dtype=np.int64
            ),  # ChainRule's banned directions
            shift=np.array(
                [dc + dr * g.width for dc, dr in DIRECTIONS], dtype=np.int64
            ),  # per direction
            can=mask(lambda p, d: g.neighbour[p][d] >= 0),  # may step that way
            twice=mask(lambda p, d: len(g.ray[p][d]) >= 2),  # may step twice that way
            both=mask(
                lambda p, d: g.neighbour[p][d] >= 0 and g.neighbour[p][(d + 4) % 8] >= 0
            ),  # both ways
            room=room,  # [direction, k]: k points further
            scratch=np.zeros(n + 2, dtype=np.int64),  # the search's counting sort
            **_no_endgame(),
        )

    def with_params(self, **changes) -> Tables:
        """The tables for one search: its own parameters, with some changed, and its own scratch."""
        return self.tables._replace(
            params=self.params._replace(**changes), scratch=self.tables.scratch.copy()
        )

    def _buffers(self):
        """Room for the turns being listed: each call gets its own, so threads never share one."""
        return np.empty(RESULTS_CAPACITY, dtype=np.int64), np.empty(
            RESULTS_CAPACITY, dtype=np.int64
        )

    def results(self, me: int, opp: int, single: bool = False) -> list:
        buf_me, buf_opp = self._buffers()
        end = _results(me, opp, single, self.tables, buf_me, buf_opp, 0)
        if end > RESULTS_CAPACITY:
            raise OverflowError("more turns than the compiled buffer holds")
        return list(zip(buf_me[:end].tolist(), buf_opp[:end].tolist()))

    def count_turns(self, me: int, opp: int, single: bool = False) -> int:
        return int(_count_turns(me, opp, single, self.tables))

    def perft(self, me: int, opp: int, depth: int, ply: int = 0, quiet: int = 0) -> int:
        buf_me, buf_opp = self._buffers()
        found = int(_perft(me, opp, depth, ply, quiet, self.tables, buf_me, buf_opp, 0))
        if found < 0:
            raise OverflowError("more turns than the compiled buffer holds")
        return found

    def best_capture(self, me: int, opp: int) -> int:
        return int(_best_capture(me, opp, self.tables))

    def mobility(self, me: int, opp: int) -> int:
        return int(_mobility(me, opp, self.tables))


class CompiledSearch:
    """The compiled form of one search's alpha-beta: its parameters, node count, clock and stop
    event.  Its transposition table (36 MB) is made at ``start`` and dropped at ``finish``, so no
    player, level or board size kept between turns holds one; with ``keep`` it is kept instead, so
    the next search starts from what this one learned (the entries stay right: a key is the whole
    position), until ``forget``.  One search at a time: a player keeps one per search running."""

    def __init__(
        self,
        compiled: CompiledGenerator,
        evaluation: str,
        quiescence: bool,
        quiescence_turns: int,
        keep: bool = False,
        reductions: bool = False,
    ):
        self.generator = compiled.generator
        self.tables = compiled.with_params(
            evaluation=EVALUATION_CODES[evaluation],
            quiescence=int(quiescence),
            quiescence_turns=quiescence_turns,
            reductions=int(reductions),
        )
        self.table: tuple | None = None  # made while searching (and kept after it with ``keep``)
        self.keep = keep
        # hands the table back in _HELD's count, once, even if the search is dropped unfinished
        self._release: weakref.finalize | None = None
        self.state = np.zeros(1, dtype=np.dtype([(name, np.int64) for name in STATE_FIELDS]))
        self.deadline = np.zeros(1)
        self._buf_me, self._buf_opp = compiled._buffers()

    def start(
        self, root_ply: int, deadline: float | None, endgame=None, stop=None
    ) -> CompiledSearch:
        """Ready for a new search from a position ``root_ply`` turns into the game, reading the
        endgame table ``endgame`` if one is given (``EndgameTable`` or ``IndexedTable``),
        stopping once ``stop`` (an Event) is set."""
        arrays = _no_endgame() if endgame is None else endgame_lookup(endgame)
        params = self.tables.params._replace(
            root_ply=root_ply,
            endgame_stones=0 if endgame is None else endgame.stones,
            endgame_indexed=int(arrays["endgame_codes"].shape[0] > 1),
        )
        self.tables = self.tables._replace(params=params, **arrays)
        with _KEPT_LOCK:  # searching: no other search's finish drops its table now
            _forget_idle(self)
            kept = self.table is not None and self.keep
        generation = int(self.state[0]["generation"])
        self.finish()
        if not kept:
            self.forget()
            # a number no other search had: what any earlier search left in the table reads as empty
            generation = next(_GENERATIONS)
        state = self.state[0]
        self.state[:] = 0
        state["generation"], state["next_check"] = generation, CHECK_EVERY
        state["has_deadline"], state["watch"] = (
            deadline is not None,
            deadline is not None or stop is not None,
        )
        state["stop_key"] = next(_STOP_KEYS)
        if stop is not None:
            _STOPS[int(state["stop_key"])] = stop
        self.deadline[0] = deadline or 0.0
        if self.table is None:
            self.table = _new_table()
            self._release = weakref.finalize(self, _drop_table)
        return self

    def finish(self) -> None:
        """Forget the stop event of the search that ended and drop its table, unless ``keep``: then
        it is kept, and the table some other search kept before is dropped."""
        _STOPS.pop(int(self.state[0]["stop_key"]), None)
        if not self.keep:
            self.forget()
            return
        with _KEPT_LOCK:  # held while dropping: a search taken out of the list is not searching
            _forget_idle(self)
            if self.table is not None:
                _IDLE_KEPT.append(weakref.ref(self))
            _drop_kept_beyond(_KEPT_LIMIT[0])

    def forget(self) -> None:
        """Drop the table and what it holds: the memory goes back to the system."""
        if self.table is not None and self._release is not None:
            self.table = None
            self._release()

    @property
    def nodes(self) -> int:
        return int(self.state[0]["nodes"])

    @property
    def timed_out(self) -> bool:
        return bool(self.state[0]["timed_out"])

    @property
    def cancelled(self) -> bool:
        return bool(self.state[0]["cancelled"])

    @property
    def overflowed(self) -> bool:
        return bool(self.state[0]["overflow"])

    def child(self, me2, opp2, opp, depth, alpha, beta, ply, quiet, null_window) -> int:
        return int(
            _child(
                me2,
                opp2,
                opp,
                depth,
                alpha,
                beta,
                ply,
                quiet,
                null_window,
                self.tables,
                self.table,
                self.state,
                self.deadline,
                self._buf_me,
                self._buf_opp,
                0,
            )
        )

    def store_root(self, me, opp, quiet, depth, score, best) -> None:
        _store_root(
            me,
            opp,
            quiet,
            depth,
            to_table(score, 0),
            best[0],
            best[1],
            self.tables,
            self.table,
            self.state,
        )

    def stored_reply(self, me, opp, ply, quiet, depth):
        """The stored best reply ``(me, opp)`` after it, None if there is none, False if not
        stored."""
        m, o = _stored_reply(me, opp, ply, quiet, depth, self.tables, self.table, self.state)
        return False if m == -2 else None if m == -1 else (int(m), int(o))


_COMPILED: dict = {}


def compiled_generator(gen):
    """The compiled form of a generator, or None when the path is unavailable or the board too
    big."""
    if not available() or gen.points > MAX_POINTS:
        return None
    if gen not in _COMPILED:
        warm_up()
        _COMPILED[gen] = CompiledGenerator(gen)
    return _COMPILED[gen]


_warm = False


def ready() -> bool:
    """Whether ``warm_up`` has run in this process, so a compiled search starts at once."""
    return _warm


def warm_up(progress: bool = True) -> None:
    """Compile (or load from numba's cache) every function once, with a progress bar on stderr when
    that takes more than a second and a half."""
    global _warm
    if _warm or not available():
        return
    from ..geometry import geometry
    from ..movegen import generator
    from ..rules import Rules

    compiled = CompiledGenerator(generator(geometry(3, 3), Rules()))
    search = CompiledSearch(compiled, "threat", True, 2)

    def one_search():
        search.start(0, time.perf_counter() + 10).child(
            0b000001011, 0b111000000, 0b111000000, 2, -WIN_SCORE - 1, WIN_SCORE + 1, 0, 0, True
        )
        search.store_root(0b000000111, 0b111000000, 0, 2, 0, (0b000001011, 0b111000000))
        search.stored_reply(0b000000111, 0b111000000, 0, 0, 2)
        search.finish()
        _look(
            -1
        )  # its object-mode block is compiled on its first run, which a short search never reaches

    def indexed_build():
        from .indexed import label

        label(compiled, 2)  # compiles the indexed tables' retrograde pass: 5 s

    steps = [
        ("generator", lambda: compiled.perft(0b000000111, 0b111000000, 2)),
        ("evaluation", lambda: compiled.best_capture(0b000000111, 0b111000000)),
        ("search", one_search),
        ("endgame tables", indexed_build),
    ]
    # shown only when it takes a while, that is when numba compiles rather than loads from its cache
    from .bars import bar as progress_bar

    bar = progress_bar(
        steps,
        notebook=False,
        desc="compiling the search (once)",
        unit="part",
        leave=False,
        file=sys.stderr,
        disable=not progress,
        delay=1.5,
    )
    with one_compiler_at_a_time(cache_folder(), progress):
        for _name, step in bar:
            step()
    _warm = True
