"""Strong solutions of the small boards by retrograde analysis, and a player that uses them.

``solve((3, 5))`` walks every position reachable from the start (whole turns as edges), then
labels each one win, loss or draw for the side to move, with the number of turns to the end
under best play, working backwards from the positions where the side to move has lost.  The
result is a ``Table``; it is cached on disk, because the bigger boards take a while.

Positions are keyed from the side to move's point of view (its stones, the other side's
stones), so a colour swap costs nothing; mirror images of a position share one entry.
"""

from __future__ import annotations

import random
import struct
from array import array
from bisect import bisect_left
from collections import Counter
from pathlib import Path

from ..board import Board, Turn, turn_of
from ..geometry import Geometry, check_size, geometry
from ..movegen import bitsets, generator
from ..rules import Rules
from .retrograde import (
    CODE,
    DRAW,
    LOSS,
    NAME,
    OPPOSITE,
    WIN,
    follows,
    graph_rules,
    label_positions,
    progress_bar,
    value_code,
)
from .tablefile import (
    HEADER,
    SolveCacheWarning,
    cache_dir,
    cache_file,
    check_entries,
    checked_payload,
    from_little_endian,
    little_endian,
    load_or_build,
    packed,
)

#: Bumped whenever the cache file layout or the meaning of its contents changes.
FORMAT_VERSION = 1
MAGIC = b"FANSOLVE"
_PAYLOAD_HEAD = struct.Struct("<HHIH")  # width, height, positions, length of the rules text
#: Boards with more points are refused: their tables would not fit a pure-Python solver.
MAX_POINTS = 21


def cache_path(size, rules: Rules | None = None) -> Path:
    """The file that holds the table of ``size`` under ``rules``."""
    width, height = check_size(size)
    return cache_file(f"solved-{width}x{height}", graph_rules(rules))


# ---------------------------------------------------------------------------------------------
# Symmetry.  A key packs a position as ``me | opp << points``.


class Symmetry:
    """The board's mirror images and turns that keep its lines, acting on packed position keys.

    Each map sends lines to lines, so it sends legal turns to legal turns and a position to one
    of equal value.  ``canonical(key)`` is the smallest image, the one a table stores.
    """

    def __init__(self, g: Geometry):
        self.points = n = g.width * g.height
        self.maps = g.symmetries()
        self._low_bits = (n + 1) // 2
        self._tables = [
            (_chunk_table(m, 0, self._low_bits), _chunk_table(m, self._low_bits, n))
            for m in self.maps
            if m != tuple(range(n))
        ]

    def __len__(self) -> int:
        return len(self.maps)

    def canonical(self, key: int) -> int:
        """The smallest image of a packed key: each half is mapped in two table look-ups."""
        n, k = self.points, self._low_bits
        me, opp = key & ((1 << n) - 1), key >> n
        me_low, me_high, opp_low, opp_high = (
            me & ((1 << k) - 1),
            me >> k,
            opp & ((1 << k) - 1),
            opp >> k,
        )
        best = key
        for low, high in self._tables:
            image = low[me_low] | high[me_high] | (low[opp_low] | high[opp_high]) << n
            if image < best:
                best = image
        return best


def _chunk_table(perm: tuple[int, ...], first: int, stop: int) -> list[int]:
    """The images under ``perm`` of every set of the points ``first`` to ``stop - 1``, indexed
    from ``first``."""
    images = [1 << perm[p] for p in range(first, stop)]
    table = [0] * (1 << (stop - first))
    for subset in range(1, len(table)):
        low = subset & -subset
        table[subset] = table[subset ^ low] | images[low.bit_length() - 1]
    return table


# ---------------------------------------------------------------------------------------------
# The positions after each turn: the shared bit-set generator, which records no steps for this.


class Successors:
    """The positions a side can leave after one whole turn, as packed keys for the next mover."""

    def __init__(self, g: Geometry, rules: Rules):
        self.points = g.width * g.height
        self.rules = rules
        self._keys = generator(g, rules).successor_keys

    def __call__(self, key: int) -> set[int]:
        """``key`` packs ``me | opp << points`` for the side to move; so do the results."""
        return self._keys(key)


# ---------------------------------------------------------------------------------------------
# The solver.


def _explore(g: Geometry, rules: Rules, start: int, symmetry: Symmetry, progress: bool):
    """Every position reachable from ``start`` (up to symmetry), in order of first discovery.

    Returns the keys and the successor graph as flat arrays: the successors of position i are
    ``targets[offsets[i]:offsets[i + 1]]``, each distinct position once.
    """
    successors = Successors(g, rules)
    canonical = symmetry.canonical
    start = canonical(start)
    index = {start: 0}
    keys = [start]
    offsets, targets = array("q", [0]), array("i")
    with progress_bar(progress, desc=f"exploring {g.width}x{g.height}", unit=" positions") as bar:
        i = 0
        while i < len(keys):
            key = keys[i]
            for child in {canonical(k) for k in successors(key)}:
                j = index.get(child)
                if j is None:
                    j = index[child] = len(keys)
                    keys.append(child)
                targets.append(j)
            offsets.append(len(targets))
            i += 1
            if i % 4096 == 0:
                bar.update(4096)
        bar.update(i % 4096)
    return keys, offsets, targets


def _solve_now(width: int, height: int, rules: Rules, progress: bool) -> Table:
    """The table of a board built from scratch: explored from the start, then labelled."""
    board = Board((width, height), rules)
    g = board.geometry
    symmetry = Symmetry(g)
    me, opp = bitsets(board)
    keys, offsets, targets = _explore(g, rules, me | opp << symmetry.points, symmetry, progress)
    values, distances = label_positions(offsets, targets, progress, f"{width}x{height}")
    order = sorted(range(len(keys)), key=keys.__getitem__)
    return Table(
        (width, height),
        rules,
        array("q", (keys[i] for i in order)),
        bytes(values[i] for i in order),
        array("i", (distances[i] for i in order)),
    )


# ---------------------------------------------------------------------------------------------
# The table.


class Table:
    """Win, loss or draw for the side to move, and turns to the end, for every reachable position.

    The side to move's result does not depend on its colour, so a position reached with White
    to move also answers for the same stones with Black to move (colours swapped).  Mirror
    images share one entry; ``len(table)`` and ``counts`` (entries by value) count entries, not
    mirror images.
    """

    def __init__(self, size, rules: Rules, keys: array, values: bytes, distances: array):
        self.size = check_size(size)
        self.rules = rules
        self.geometry = geometry(*self.size)
        self.symmetry = Symmetry(self.geometry)
        self._keys, self._values, self._distances = keys, values, distances
        start = Board(self.size, rules)
        self.start_value = self.value(start)
        self.start_distance = self.distance(start)
        codes = Counter(values)
        self.counts = {name: codes.get(code, 0) for name, code in CODE.items()}

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        w, h = self.size
        return (
            f"<Table {w}x{h}: {len(self)} positions, start {self.start_value} in"
            f" {self.start_distance}>"
        )

    def value(self, board: Board) -> str:
        """ "win", "loss" or "draw" for the side to move, under best play by both sides."""
        return NAME[self._values[self._index(board)]]

    def distance(self, board: Board) -> int | None:
        """Turns to the end under best play (fastest win, slowest loss); None for a draw."""
        i = self._index(board)
        return None if self._values[i] == CODE[DRAW] else self._distances[i]

    def outcomes(self, board: Board) -> list[tuple[Turn, str, int | None]]:
        """Each legal turn with its result for the side playing it and the turns to the end."""
        self._index(board)
        me, opp = bitsets(board)
        out = []
        for steps, me2, opp2, _c in generator(self.geometry, self.rules).turns(me, opp):
            i = self._find(opp2 | me2 << self.symmetry.points)
            turn = turn_of(self.geometry, steps)
            code = self._values[i]
            result = OPPOSITE[NAME[code]]
            out.append((turn, result, None if code == CODE[DRAW] else self._distances[i] + 1))
        return out

    def boards(self, value: str | None = None, distance: int | None = None):
        """One board per entry (White to move, its stones the mover's), optionally of one value
        and distance."""
        return self._boards_at(self._indices(value, distance))

    def sample(self, count: int, rng: random.Random, value=None, distance=None) -> list[Board]:
        """At most ``count`` of those boards, drawn by ``rng``: only the drawn ones are built."""
        indices = list(self._indices(value, distance))
        return list(self._boards_at(rng.sample(indices, min(count, len(indices)))))

    def _indices(self, value: str | None, distance: int | None):
        code = None if value is None else value_code(value)
        return (
            i
            for i, (found, d) in enumerate(zip(self._values, self._distances))
            if (code is None or found == code)
            and (distance is None or (d == distance and found != CODE[DRAW]))
        )

    def _boards_at(self, indices):
        """The boards of some entries, White to move as the mover."""
        n, (w, h) = self.symmetry.points, self.size
        for i in indices:
            key = self._keys[i]
            me, opp = key & ((1 << n) - 1), key >> n
            if me & opp:
                raise ValueError(f"entry {i} puts two stones on one point")
            rows = (
                "".join(
                    "W" if me >> (r * w + c) & 1 else "B" if opp >> (r * w + c) & 1 else "."
                    for c in range(w)
                )
                for r in reversed(range(h))
            )
            yield Board.from_diagram("\n".join(rows), "white", self.rules)

    def distance_counts(self, value: str) -> dict[int, int]:
        """How many entries of a value ("win" or "loss") lie at each distance from the end."""
        code = value_code(value)
        if code == CODE[DRAW]:
            raise ValueError("a draw has no distance to the end; ask for 'win' or 'loss'")
        counts = Counter(d for found, d in zip(self._values, self._distances) if found == code)
        return dict(sorted(counts.items()))

    def best_turns(self, board: Board) -> list[Turn]:
        """The turns that keep the best result: fastest win, slowest loss, or a drawing turn."""
        value, distance = self.value(board), self.distance(board)
        return [
            turn for turn, result, d in self.outcomes(board) if result == value and d == distance
        ]

    # -- finding a position --------------------------------------------------------------------

    def _position(self, board: Board) -> tuple[int, int]:
        if not isinstance(board, Board):
            raise TypeError(f"expected a fanorona.Board, got {board!r}")
        w, h = self.size
        if board.size != self.size:
            bw, bh = board.size
            raise ValueError(f"this table solves the {w}x{h} board; the board is {bw}x{bh}")
        if board.rules != self.rules:
            raise ValueError(
                f"this table solves {w}x{h} under {self.rules}; the board plays under"
                f" {board.rules}: make it with Board(({w}, {h}), rules)"
            )
        if board.chain:
            raise ValueError(
                "the board is in the middle of a capture chain; the table holds positions "
                "between turns: finish the turn first (push a step or end_turn())"
            )
        return bitsets(board)

    def _index(self, board: Board) -> int:
        me, opp = self._position(board)
        return self._find(me | opp << self.symmetry.points)

    def _find(self, key: int) -> int:
        key = self.symmetry.canonical(key)
        i = bisect_left(self._keys, key)
        if i == len(self._keys) or self._keys[i] != key:
            w, h = self.size
            raise ValueError(
                f"this position cannot arise from the start of the {w}x{h} board "
                "(nor can a mirror image of it)"
            )
        return i

    # -- bytes on disk -------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The cache file: magic, format version, keyed digest of the payload, then the zlib
        payload."""
        rules = repr(self.rules).encode()
        parts = [
            _PAYLOAD_HEAD.pack(*self.size, len(self), len(rules)),
            rules,
            little_endian(self._keys),
            self._values,
            little_endian(self._distances),
        ]
        return packed(MAGIC, FORMAT_VERSION, b"".join(parts))

    @classmethod
    def from_bytes(cls, data: bytes, size, rules: Rules) -> Table:
        """Read a cache file, refusing (ValueError) anything that is not exactly what was
        written."""
        raw = checked_payload(data, MAGIC, FORMAT_VERSION, "a solved-board table")
        width, height, count, rules_length = _PAYLOAD_HEAD.unpack_from(raw)
        at = _PAYLOAD_HEAD.size
        if (width, height) != tuple(size) or raw[at : at + rules_length] != repr(rules).encode():
            raise ValueError("the file holds another board size or other rules")
        at += rules_length
        if len(raw) != at + 8 * count + count + 4 * count:
            raise ValueError("the payload has the wrong length")
        keys = from_little_endian("q", raw[at : at + 8 * count])
        values = raw[at + 8 * count : at + 9 * count]
        distances = from_little_endian("i", raw[at + 9 * count :])
        check_entries(width * height, keys, values, distances)
        table = cls(size, rules, keys, values, distances)
        table._check_sample(random.Random(data[: HEADER.size]))  # seeded by the file's digest
        return table

    def _check_sample(self, rng: random.Random, samples: int = 48) -> None:
        """Replay the retrograde rule on the start and some entries: each value and distance must
        follow from those of the positions one turn on.  A table that was written wrongly (by a
        bug, or another program) fails this even with a valid checksum."""
        start = Board(self.size, self.rules)
        chosen = [start, *self._boards_at([rng.randrange(len(self)) for _ in range(samples)])]
        for board in chosen:
            value, distance = self.value(board), self.distance(board)
            if not follows(
                value, distance, [(result, d) for _turn, result, d in self.outcomes(board)]
            ):
                raise ValueError(
                    f"the entry for {board.fen()} says {value} in {distance}, which does not follow"
                    " from the positions one turn on"
                )


# ---------------------------------------------------------------------------------------------
# Solving with the cache.

_loaded: dict[Path, tuple[object, Table]] = {}


def solve(size, rules: Rules | None = None, progress: bool = True) -> Table:
    """The strong solution of a small board (at most ``MAX_POINTS`` points), from the cache if
    possible.

    ``rules`` default to ``Rules.solved()``, the rules of the published solution.  A cache file
    that is damaged, truncated or of another format version is rebuilt, with a warning.
    """
    width, height = check_size(size)
    rules = graph_rules(rules)
    if width * height > MAX_POINTS:
        raise ValueError(
            f"the {width}x{height} board has {width * height} points; this solver handles at most "
            f"{MAX_POINTS} (3x7 or 7x3): bigger boards have far too many positions for it"
        )
    return load_or_build(
        cache_path((width, height), rules),
        _loaded,
        lambda data: Table.from_bytes(data, (width, height), rules),
        lambda: _solve_now(width, height, rules, progress),
        "solved table",
        magic=MAGIC,
    )


# ---------------------------------------------------------------------------------------------


class PerfectPlayer:
    """Plays a small board perfectly: the fastest win, else the longest resistance, else a draw.

    Ties between equally good turns are broken at random (reproducibly with ``seed``).  It also
    plays boards whose rules add a quiet-turn draw to its own, choosing as if that rule were absent.
    """

    def __init__(self, size, seed=None, rules: Rules | None = None, progress: bool = False):
        self.table = solve(size, rules, progress=progress)
        self.rng = random.Random(seed)
        w, h = self.table.size
        self.name = f"perfect {w}x{h}"

    def choose_turn(self, board: Board, stop=None) -> Turn:
        """The best turn, read from the table at once (``stop`` is accepted like every player's)."""
        rules = self.table.rules
        if (
            isinstance(board, Board)
            and board.rules != rules
            and board.rules.with_(quiet_draw=None) == rules
            and not board.chain
        ):
            board = Board.from_fen(board.fen(), rules)
        best = self.table.best_turns(board)
        if not best:
            raise ValueError(f"the game is over: {board.outcome()}")
        return self.rng.choice(best)

    def __repr__(self) -> str:
        return f"<PerfectPlayer {self.name}>"


__all__ = [
    "DRAW",
    "FORMAT_VERSION",
    "LOSS",
    "MAX_POINTS",
    "WIN",
    "PerfectPlayer",
    "SolveCacheWarning",
    "Successors",
    "Symmetry",
    "Table",
    "cache_dir",
    "cache_path",
    "solve",
]
