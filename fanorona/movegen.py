"""The move generator on bit sets: the layer under ``Board``, the computer players and the
solver.

A position is two integers used as bit sets, ``me`` (the side to move) and ``opp`` (the other
side): bit ``i`` is point ``i``, numbered ``row * width + column``.  A ``Generator`` knows one
board size and one set of rules; ``generator(geometry, rules)`` hands out a shared one.

* ``turns(me, opp)``: every complete turn with its steps, for ``Board.legal_turns``;
* ``results(me, opp)``: the position after each turn, no steps recorded (perft, the search);
* ``children(me, opp)``: the same without repeats; ``successor_keys`` packs them for the solver;
* ``count_turns(me, opp)``: how many turns there are, without building any;
* ``perft(...)``: turn sequences so many turns deep.

A step is the tuple ``(origin, destination, direction, kind, taken)``: point numbers, a direction
of ``geometry.DIRECTIONS``, ``PAIKA``/``APPROACH``/``WITHDRAWAL`` and the captured stones as bits.
A chain in progress is ``(point, visited, last direction, directions used)``.

Speed comes from treating all stones at once: for each of the eight directions one shift of the
bit sets finds every stone that can step that way, every approach and every withdrawal; a
captured string is cut out of a precomputed ray mask in a few operations; counting the turns of
a position walks the chains without making a single object.  The chain rules (no revisit, the
direction rule) and the sentences that explain them live in ``ChainRule``, once.
"""

from __future__ import annotations

from functools import cache

from .geometry import DIRECTION_NAMES, DIRECTIONS, Geometry
from .rules import Rules

PAIKA, APPROACH, WITHDRAWAL = 0, 1, 2  # how a step captures
KIND_NAME = {PAIKA: None, APPROACH: "approach", WITHDRAWAL: "withdrawal"}
KIND_OF = {v: k for k, v in KIND_NAME.items()}

__all__ = [
    "APPROACH",
    "KIND_NAME",
    "KIND_OF",
    "PAIKA",
    "WITHDRAWAL",
    "ChainRule",
    "Generator",
    "advance",
    "bits",
    "bitsets",
    "generator",
]


def bits(mask: int):
    """The point numbers of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bitsets(board) -> tuple[int, int]:
    """``(me, opp)`` of a board, read through its public API: the side to move's stones first."""
    index = board.geometry.index
    mine = sum(1 << index[p] for p in board.stones(board.to_move))
    theirs = sum(1 << index[p] for p in board.stones(board.to_move.other))
    return mine, theirs


def advance(chain, step):
    """The chain after a capturing step (a new chain when ``chain`` is None)."""
    p, q, d, _kind, _taken = step
    visited = chain[1] if chain else 1 << p
    used = chain[3] if chain else 0
    return (q, visited | (1 << q), d, used | (1 << d))


class ChainRule:
    """What a capture chain may not do next, as two bit sets: banned points and banned directions.

    ``Rules.no_revisit`` bans every point the stone has stood on this turn; ``Rules.direction``
    bans the last direction ("no-repeat"), every direction used ("no-reuse") or none ("free").
    ``after`` says how a step changes the two sets; the generator's inner loops, and the compiled
    search's (``compiled.CompiledGenerator``), use the same rule as data: ``keep_points`` and the
    table ``directions_after[banned][d]``, made from ``after``.  ``refusal`` says in words which
    rule a step breaks.  Nothing else in the package encodes these rules.
    """

    def __init__(self, rules: Rules):
        self.direction = rules.direction
        self.keep_points = -1 if rules.no_revisit else 0
        # banned directions after a step in d: ((banned & keep_directions) | 1 << d) &
        # direction_mask
        self.keep_directions = 0xFF if rules.direction == "no-reuse" else 0
        self.direction_mask = 0 if rules.direction == "free" else 0xFF
        self.directions_after = tuple(
            tuple(self.after(0, banned, 0, d)[1] for d in range(8)) for banned in range(256)
        )

    def after(self, points: int, directions: int, target: int, d: int) -> tuple[int, int]:
        """The bans once the stone has stepped in direction ``d`` onto the point ``target`` (a
        bit)."""
        banned_directions = ((directions & self.keep_directions) | 1 << d) & self.direction_mask
        return (points | target) & self.keep_points, banned_directions

    def bans(self, chain) -> tuple[int, int]:
        """The bans of a chain in progress ``(point, visited, last, used)``."""
        _point, visited, last, used = chain
        return visited & self.keep_points, (
            (used & self.keep_directions) | 1 << last
        ) & self.direction_mask

    def refusal(self, chain, target: int, d: int, name: str) -> str | None:
        """Why the chain may not go on in direction ``d`` to point ``target`` (called ``name``), if
        it may not."""
        points, directions = self.bans(chain)
        if points >> target & 1:
            return f"the stone has already been on {name} this turn, and a chain may not return"
        if directions >> d & 1:
            if self.direction == "no-repeat":
                return f"the chain may not go {DIRECTION_NAMES[d]} twice in a row"
            return f"the chain has already gone {DIRECTION_NAMES[d]} this turn"
        return None


def _mask(points) -> int:
    return sum(1 << p for p in points)


def _take_up(ray: int, opp: int) -> int:
    """The unbroken opponent stones at the start of a ray running towards higher point numbers."""
    gaps = ray & ~opp
    return ray & opp & ((gaps & -gaps) - 1)


def _take_down(ray: int, opp: int) -> int:
    """The same for a ray running towards lower point numbers: the stones above its highest gap."""
    cut = (ray & ~opp).bit_length()
    return (ray & opp) >> cut << cut


class Generator:
    """Turns, their results and their number, for one board size and one set of rules."""

    def __init__(self, g: Geometry, rules: Rules):
        n = g.width * g.height
        self.geometry, self.rules, self.points = g, rules, n
        self.full = (1 << n) - 1
        self.chain_rule = rule = ChainRule(rules)
        self._keep_points, self._directions_after = rule.keep_points, rule.directions_after
        self._chains, self._mandatory, self._must_continue = (
            rules.chains,
            rules.mandatory_capture,
            rules.must_continue,
        )
        self._single_opening, self._quiet_draw = rules.opening_single_capture, rules.quiet_draw
        # per direction: (d, shift, can step, can step twice, can step both ways); shifts > 0 first
        # half
        self._dirs = []
        for d, (dc, dr) in enumerate(DIRECTIONS):
            self._dirs.append(
                (
                    d,
                    dc + dr * g.width,
                    _mask(p for p in range(n) if g.neighbour[p][d] >= 0),
                    _mask(p for p in range(n) if len(g.ray[p][d]) >= 2),
                    _mask(
                        p
                        for p in range(n)
                        if g.neighbour[p][d] >= 0 and g.neighbour[p][(d + 4) % 8] >= 0
                    ),
                )
            )
        self._ray = [[_mask(g.ray[p][d]) for d in range(8)] for p in range(n)]
        # per direction, by k: the points with at least k further points along the line that way
        longest = max(g.width, g.height)
        self._room = [
            [_mask(p for p in range(n) if len(g.ray[p][d]) >= k) for k in range(longest + 1)]
            for d in range(8)
        ]
        # per point, each line out of it: (d, target point, its bit, first point ahead of the target
        # as a bit, the ray ahead, first point behind the origin as a bit, the ray behind, ahead
        # runs up)
        # and the same links by which neighbours are free: {free neighbours as bits: their links}
        self._links: list[tuple] = []
        self._free_links: list[dict[int, tuple]] = []
        self._near: list[int] = []
        self._reach: list[int] = []
        for p in range(n):
            links = []
            for d, q in enumerate(g.neighbour[p]):
                if q < 0:
                    continue
                ahead, behind = g.ray[q][d], g.ray[p][(d + 4) % 8]
                links.append(
                    (
                        d,
                        q,
                        1 << q,
                        1 << ahead[0] if ahead else 0,
                        _mask(ahead),
                        1 << behind[0] if behind else 0,
                        _mask(behind),
                        d < 4,
                    )
                )
            self._links.append(tuple(links))
            self._free_links.append(
                {}
            )  # filled in by _fill_links as sets of free neighbours turn up
            self._near.append(_mask(link[1] for link in links))
            self._reach.append(_mask(r for d in range(8) for r in g.ray[p][d][:2]))

    def _fill_links(self, at: int, free: int) -> tuple:
        """The links out of ``at`` towards the free neighbours ``free`` (bits), remembered for next
        time."""
        found = self._free_links[at][free] = tuple(
            link for link in self._links[at] if free & link[2]
        )
        return found

    def single(self, ply: int) -> bool:
        """Whether the opening rule limits the turn played ``ply`` turns into the game to one
        capture."""
        return self._single_opening and ply < 2

    # -- single steps -------------------------------------------------------------------------

    def _captures(self, me: int, opp: int) -> list:
        """Every capturing first step, direction by direction."""
        empty = self.full & ~(me | opp)
        out: list[tuple] = []
        for d, s, can, twice, both in self._dirs:
            if s > 0:
                movers = me & can & (empty >> s)
                approach, withdraw = movers & twice & (opp >> 2 * s), movers & both & (opp << s)
            else:
                movers = me & can & (empty << -s)
                approach, withdraw = movers & twice & (opp << -2 * s), movers & both & (opp >> -s)
            for p in bits(approach):
                q = p + s
                ray = self._ray[q][d]
                out.append(
                    (p, q, d, APPROACH, _take_up(ray, opp) if s > 0 else _take_down(ray, opp))
                )
            for p in bits(withdraw):
                ray = self._ray[p][(d + 4) % 8]
                out.append(
                    (p, p + s, d, WITHDRAWAL, _take_down(ray, opp) if s > 0 else _take_up(ray, opp))
                )
        return out

    def _quiet(self, me: int, opp: int) -> list:
        """Every first step that captures nothing (a paika), direction by direction."""
        empty = self.full & ~(me | opp)
        out: list[tuple] = []
        for d, s, can, twice, both in self._dirs:
            if s > 0:
                movers = me & can & (empty >> s)
                movers &= ~((movers & twice & (opp >> 2 * s)) | (movers & both & (opp << s)))
            else:
                movers = me & can & (empty << -s)
                movers &= ~((movers & twice & (opp << -2 * s)) | (movers & both & (opp >> -s)))
            out.extend((p, p + s, d, PAIKA, 0) for p in bits(movers))
        return out

    def first_steps(self, me: int, opp: int) -> tuple[list, list]:
        """All capturing and all non-capturing first steps, each list by origin, then direction,
        then kind."""

        def order(step):
            return step[0], step[2], step[3]

        return sorted(self._captures(me, opp), key=order), sorted(self._quiet(me, opp), key=order)

    def has_step(self, me: int, opp: int) -> bool:
        """Whether the side to move can step at all (when it cannot, it has lost)."""
        empty = self.full & ~(me | opp)
        return any(
            me & can & ((empty >> s) if s > 0 else (empty << -s))
            for _d, s, can, _t, _b in self._dirs
        )

    def _continuations(self, me: int, opp: int, at: int, points: int, directions: int) -> list:
        """The capturing steps that may continue a chain at ``at`` under the given bans."""
        free = self._near[at] & ~(me | opp | points)
        if not (free and opp & self._reach[at]):
            return []
        out = []
        try:
            links = self._free_links[at][free]
        except KeyError:
            links = self._fill_links(at, free)
        for d, q, _target, ahead_first, ahead, behind_first, behind, up in links:
            if directions >> d & 1:
                continue
            if opp & ahead_first:
                out.append(
                    (at, q, d, APPROACH, _take_up(ahead, opp) if up else _take_down(ahead, opp))
                )
            if opp & behind_first:
                out.append(
                    (at, q, d, WITHDRAWAL, _take_down(behind, opp) if up else _take_up(behind, opp))
                )
        return out

    def step_captures(self, opp: int, origin: int, d: int) -> dict:
        """How a step from ``origin`` in direction ``d`` onto an empty point would capture:
        ``{kind: taken}`` with none, one or both of ``APPROACH`` and ``WITHDRAWAL``."""
        for d2, _q, _target, ahead_first, ahead, behind_first, behind, up in self._links[origin]:
            if d2 == d:
                found = {}
                if opp & ahead_first:
                    found[APPROACH] = _take_up(ahead, opp) if up else _take_down(ahead, opp)
                if opp & behind_first:
                    found[WITHDRAWAL] = _take_down(behind, opp) if up else _take_up(behind, opp)
                return found
        return {}

    def chain_steps(self, me: int, opp: int, chain) -> list:
        """The capturing steps that may continue a chain in progress."""
        return self._continuations(me, opp, chain[0], *self.chain_rule.bans(chain))

    # -- whole turns ----------------------------------------------------------------------------

    def turns(self, me: int, opp: int, single: bool = False, chain=None) -> list:
        """Every complete turn (or, with ``chain``, every way to finish the one in progress), as
        (steps, me after, opp after, captured anything), in the board's order."""
        turns: list = []
        chains = self._chains and not single

        def extend(path, me, opp, chain):
            nexts = self.chain_steps(me, opp, chain) if chains else []
            if path and not (nexts and self._must_continue):
                turns.append((path, me, opp, True))
            for step in nexts:
                p, q, _d, _kind, taken = step
                extend(path + (step,), me ^ (1 << p) ^ (1 << q), opp ^ taken, advance(chain, step))

        if chain is not None:
            extend((), me, opp, chain)
            return turns
        captures, quiet = self.first_steps(me, opp)
        for step in captures:
            p, q, _d, _kind, taken = step
            extend((step,), me ^ (1 << p) ^ (1 << q), opp ^ taken, advance(None, step))
        if not (captures and self._mandatory):
            turns.extend(
                ((step,), me ^ (1 << step[0]) ^ (1 << step[1]), opp, False) for step in quiet
            )
        return turns

    def results(self, me: int, opp: int, single: bool = False) -> list:
        """The position ``(me, opp)`` after each turn, one item a turn (repeats kept), for the side
        that moved.

        The same walk as ``count_turns``, collecting positions instead of counting them.
        """
        empty = self.full & ~(me | opp)
        chains = self._chains and not single
        keep_points, first_directions = self._keep_points, self._directions_after[0]
        out: list = []
        quiet: list = []
        for d, s, can, twice, both in self._dirs:
            if s > 0:
                movers = me & can & (empty >> s)
                if not movers:
                    continue
                approach, withdraw = movers & twice & (opp >> 2 * s), movers & both & (opp << s)
            else:
                movers = me & can & (empty << -s)
                if not movers:
                    continue
                approach, withdraw = movers & twice & (opp << -2 * s), movers & both & (opp >> -s)
            paika = movers & ~(approach | withdraw)
            while paika:
                origin = paika & -paika
                paika ^= origin
                quiet.append((me ^ origin ^ (origin << s if s > 0 else origin >> -s), opp))
            captures = approach | withdraw
            while captures:
                origin = captures & -captures
                captures ^= origin
                p = origin.bit_length() - 1
                target = origin << s if s > 0 else origin >> -s
                for taken in self._taken(opp, p, d, s, origin & approach, origin & withdraw):
                    if chains:
                        self._chain_results(
                            me ^ origin ^ target,
                            opp ^ taken,
                            p + s,
                            (origin | target) & keep_points,
                            first_directions[d],
                            out,
                        )
                    else:
                        out.append((me ^ origin ^ target, opp ^ taken))
        if not (out and self._mandatory):
            out.extend(quiet)
        return out

    def _taken(self, opp: int, p: int, d: int, s: int, approach: int, withdraw: int) -> tuple:
        """The stones a step from ``p`` in direction ``d`` (shift ``s``) takes by approach and by
        withdrawal, as far as ``approach`` and ``withdraw`` (true or false) say it captures each
        way."""
        if approach:
            ray = self._ray[p + s][d]
            first = _take_up(ray, opp) if s > 0 else _take_down(ray, opp)
            if not withdraw:
                return (first,)
        ray = self._ray[p][(d + 4) % 8]
        second = _take_down(ray, opp) if s > 0 else _take_up(ray, opp)
        return (first, second) if approach else (second,)

    def _chain_results(
        self, me: int, opp: int, at: int, points: int, directions: int, out: list
    ) -> None:
        """Add the positions where a turn whose chain has just captured, landing on ``at``, may
        end."""
        free = self._near[at] & ~(me | opp | points)
        if not (free and opp & self._reach[at]):
            out.append((me, opp))
            return
        more = False
        try:
            links = self._free_links[at][free]
        except KeyError:
            links = self._fill_links(at, free)
        for d, q, target, ahead_first, ahead, behind_first, behind, up in links:
            if directions >> d & 1 or not opp & (ahead_first | behind_first):
                continue
            more = True
            me2 = me ^ (1 << at) ^ target
            points2 = (points | target) & self._keep_points
            directions2 = self._directions_after[directions][d]
            if opp & ahead_first:
                self._chain_results(
                    me2,
                    opp ^ (_take_up(ahead, opp) if up else _take_down(ahead, opp)),
                    q,
                    points2,
                    directions2,
                    out,
                )
            if opp & behind_first:
                self._chain_results(
                    me2,
                    opp ^ (_take_down(behind, opp) if up else _take_up(behind, opp)),
                    q,
                    points2,
                    directions2,
                    out,
                )
        if not (more and self._must_continue):
            out.append((me, opp))

    def children(self, me: int, opp: int, single: bool = False) -> list:
        """The distinct positions after one turn, as ``(me, opp)`` of the side that moved, first
        seen first."""
        return list(dict.fromkeys(self.results(me, opp, single)))

    def successor_keys(self, key: int) -> set[int]:
        """For the solver: ``key`` packs ``me | opp << points``; so does each result, for the next
        mover."""
        n = self.points
        return {o | m << n for m, o in self.results(key & self.full, key >> n)}

    # -- counting -------------------------------------------------------------------------------

    def count_turns(self, me: int, opp: int, single: bool = False) -> int:
        """The number of complete turns, counted without building them."""
        empty = self.full & ~(me | opp)
        chains = self._chains and not single
        keep_points = self._keep_points
        count = quiet = 0
        for d, s, can, twice, both in self._dirs:
            if s > 0:
                movers = me & can & (empty >> s)
                if not movers:
                    continue
                approach, withdraw = movers & twice & (opp >> 2 * s), movers & both & (opp << s)
            else:
                movers = me & can & (empty << -s)
                if not movers:
                    continue
                approach, withdraw = movers & twice & (opp << -2 * s), movers & both & (opp >> -s)
            quiet += (movers & ~(approach | withdraw)).bit_count()
            if not chains:
                count += approach.bit_count() + withdraw.bit_count()
                continue
            back = (d + 4) % 8
            directions = self._directions_after[0][d]
            while approach:
                origin = approach & -approach
                approach ^= origin
                p = origin.bit_length() - 1
                target = origin << s if s > 0 else origin >> -s
                ray = self._ray[p + s][d]
                taken = _take_up(ray, opp) if s > 0 else _take_down(ray, opp)
                count += self._count_chain(
                    me ^ origin ^ target,
                    opp ^ taken,
                    p + s,
                    (origin | target) & keep_points,
                    directions,
                )
            while withdraw:
                origin = withdraw & -withdraw
                withdraw ^= origin
                p = origin.bit_length() - 1
                target = origin << s if s > 0 else origin >> -s
                ray = self._ray[p][back]
                taken = _take_down(ray, opp) if s > 0 else _take_up(ray, opp)
                count += self._count_chain(
                    me ^ origin ^ target,
                    opp ^ taken,
                    p + s,
                    (origin | target) & keep_points,
                    directions,
                )
        if count and self._mandatory:
            return count
        return count + quiet

    def _count_chain(self, me: int, opp: int, at: int, points: int, directions: int) -> int:
        """The number of ways to end a turn whose chain has just captured, landing on ``at``."""
        free = self._near[at] & ~(me | opp | points)
        if not (free and opp & self._reach[at]):
            return 1
        count, more = 0, False
        try:
            links = self._free_links[at][free]
        except KeyError:
            links = self._fill_links(at, free)
        for d, q, target, ahead_first, ahead, behind_first, behind, up in links:
            if directions >> d & 1 or not opp & (ahead_first | behind_first):
                continue
            more = True
            me2 = me ^ (1 << at) ^ target
            points2 = (points | target) & self._keep_points
            directions2 = self._directions_after[directions][d]
            if opp & ahead_first:
                count += self._count_chain(
                    me2,
                    opp ^ (_take_up(ahead, opp) if up else _take_down(ahead, opp)),
                    q,
                    points2,
                    directions2,
                )
            if opp & behind_first:
                count += self._count_chain(
                    me2,
                    opp ^ (_take_down(behind, opp) if up else _take_up(behind, opp)),
                    q,
                    points2,
                    directions2,
                )
        return count if more and self._must_continue else count + 1

    def perft(self, me: int, opp: int, depth: int, ply: int = 0, quiet: int = 0) -> int:
        """Turn sequences ``depth`` (at least 1) whole turns deep; ``ply`` turns played so far,
        ``quiet`` of them in a row without a capture (the draw rule ends a line there)."""
        if self._quiet_draw is not None and quiet >= self._quiet_draw:
            return 0
        single = self._single_opening and ply < 2
        if depth == 1:
            return self.count_turns(me, opp, single)
        total = 0
        for me2, opp2 in self.results(me, opp, single):
            total += self.perft(opp2, me2, depth - 1, ply + 1, quiet + 1 if opp2 == opp else 0)
        return total

    # -- what the evaluation of the computer players looks at -----------------------------------

    def best_capture(self, me: int, opp: int) -> int:
        """The most stones one first step of the side to move captures (0 if none can).

        All stones at once: the set of steps that capture at least k stones, for k = 1, 2, ...,
        until it is empty.
        """
        empty = self.full & ~(me | opp)
        best = 0
        for d, s, can, twice, both in self._dirs:
            room, back = self._room[d], self._room[(d + 4) % 8]
            if s > 0:
                movers = me & can & (empty >> s)
                approach, withdraw = movers & twice & (opp >> 2 * s), movers & both & (opp << s)
            else:
                movers = me & can & (empty << -s)
                approach, withdraw = movers & twice & (opp << -2 * s), movers & both & (opp >> -s)
            k = 1
            while approach:  # origins whose approach takes at least k stones
                if k > best:
                    best = k
                k += 1
                approach &= room[k + 1] & ((opp >> (k + 1) * s) if s > 0 else (opp << -(k + 1) * s))
            k = 1
            while withdraw:
                if k > best:
                    best = k
                k += 1
                withdraw &= back[k] & ((opp << k * s) if s > 0 else (opp >> -k * s))
        return best

    def mobility(self, me: int, opp: int) -> int:
        """The number of first steps of the side to move, capturing or not (a step capturing both
        ways counts twice, as it is two steps)."""
        empty = self.full & ~(me | opp)
        count = 0
        for _d, s, can, twice, both in self._dirs:
            if s > 0:
                movers = me & can & (empty >> s)
                count += (
                    movers.bit_count()
                    + (movers & twice & (opp >> 2 * s) & both & (opp << s)).bit_count()
                )
            else:
                movers = me & can & (empty << -s)
                count += (
                    movers.bit_count()
                    + (movers & twice & (opp << -2 * s) & both & (opp >> -s)).bit_count()
                )
        return count


@cache
def generator(g: Geometry, rules: Rules) -> Generator:
    """The shared generator of a board size (its ``Geometry``) under ``rules``."""
    return Generator(g, rules)
