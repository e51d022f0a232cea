"""Exact results for every position of a few stones, for the search to look up instead of guess.

``EndgameTable.build((9, 5), stones=3)`` lists every position of at most ``stones`` stones with
both colours on the board, links each to the positions one whole turn on (captures only remove
stones, so they stay in the set or end the game), and labels them with the retrograde pass
shared with the solver (``retrograde``): win, loss or draw for the side to move and the turns to
the end under best play.  Entries are positions between turns; mirror images share one.
``endgame_table`` keeps each table in memory and in the solver's cache directory
(``tablefile``), since 4 stones take half a minute to build.
"""

from __future__ import annotations

import random
import struct
import time
from array import array
from collections import Counter
from itertools import combinations
from math import comb

from ..board import Board
from ..geometry import check_size, geometry
from ..movegen import bits, bitsets, generator
from ..rules import Rules
from .retrograde import (
    CODE,
    DRAW,
    LOSS,
    NAME,
    OPPOSITE,
    follows,
    graph_rules,
    label_positions,
    progress_bar,
    value_code,
)
from .tablefile import (
    HEADER,
    PackedKeys,
    cache_file,
    check_entries,
    checked_payload,
    from_little_endian,
    little_endian,
    load_or_build,
    packed,
)

__all__ = ["MAX_POSITIONS", "EndgameTable", "cache_path", "endgame_table"]

#: Tables listing more positions than this (before symmetry) are refused: a pure-Python build
#: handles a few million in minutes, not more.
MAX_POSITIONS = 3_000_000
#: Bumped whenever the cache file layout or the meaning of its contents changes.
FORMAT_VERSION = 1
MAGIC = b"FANENDGM"
_PAYLOAD_HEAD = struct.Struct("<HHHIH")  # width, height, stones, entries, length of the rules text


class Symmetry:
    """The solver's mirror images for positions of few stones: each stone is mapped on its own,
    instead of through the solver's look-up tables of half boards (millions of entries on 9x5)."""

    def __init__(self, g):
        self.points = n = g.width * g.height
        maps = [m for m in g.symmetries() if m != tuple(range(n))]
        self._images = [
            [1 << m[p] for p in range(n)] + [1 << m[p] << n for p in range(n)] for m in maps
        ]

    def canonical(self, key: int) -> int:
        """The smallest image of a packed key ``me | opp << points``."""
        stones = list(bits(key))
        return min([key] + [sum(images[p] for p in stones) for images in self._images])


def _position_count(points: int, stones: int) -> int:
    """Positions of at most ``stones`` stones, both colours present, one side to move."""
    return sum(
        comb(points, mine) * comb(points - mine, theirs)
        for mine in range(1, stones)
        for theirs in range(1, stones - mine + 1)
    )


class EndgameTable:
    """Win, loss or draw and turns to the end for every position of at most ``stones`` stones."""

    def __init__(
        self,
        size,
        rules: Rules,
        stones: int,
        keys: list[int] | PackedKeys,
        values: bytes,
        distances: array,
        seconds: float = 0.0,
    ):
        self.size = check_size(size)
        self.rules, self.stones, self.seconds = rules, stones, seconds
        self.geometry = geometry(*self.size)
        self.symmetry = Symmetry(self.geometry)
        width = _key_bytes(self.symmetry.points)
        if not isinstance(keys, PackedKeys):
            keys = PackedKeys.of(keys, width)
        self._keys, self._values, self._distances = keys, values, distances
        codes = Counter(values)
        self.counts = {name: codes.get(code, 0) for name, code in CODE.items()}

    @classmethod
    def build(
        cls, size=(9, 5), stones: int = 3, rules: Rules | None = None, progress: bool = True
    ) -> EndgameTable:
        """List and label every position of at most ``stones`` stones (both colours present)."""
        width, height = check_size(size)
        rules = graph_rules(rules)
        points = width * height
        if isinstance(stones, bool) or not isinstance(stones, int) or not 2 <= stones <= points:
            raise ValueError(
                f"stones is a whole number from 2 (one of each colour) to {points}; got {stones!r}"
            )
        count = _position_count(points, stones)
        if count > MAX_POSITIONS:
            raise ValueError(
                f"{stones} stones on {width}x{height} make {count:,} positions; this table "
                f"builds at most {MAX_POSITIONS:,}: ask for fewer stones"
            )
        started = time.perf_counter()
        g = geometry(width, height)
        symmetry = Symmetry(g)
        keys = _canonical_positions(points, stones, symmetry, progress, f"{width}x{height}")
        offsets, targets, keys = _link(g, rules, keys, symmetry, progress)
        values, distances = label_positions(offsets, targets, progress, f"{width}x{height} endgame")
        full = (1 << points) - 1
        order = sorted(
            (i for i, key in enumerate(keys) if key & full and key >> points), key=keys.__getitem__
        )
        return cls(
            (width, height),
            rules,
            stones,
            [keys[i] for i in order],
            bytes(values[i] for i in order),
            array("i", (distances[i] for i in order)),
            time.perf_counter() - started,
        )

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        w, h = self.size
        return f"<EndgameTable {w}x{h}, at most {self.stones} stones: {len(self)} positions>"

    def value(self, board: Board) -> str:
        """ "win", "loss" or "draw" for the side to move, under best play by both sides."""
        return NAME[self._entry(board)[0]]

    def distance(self, board: Board) -> int | None:
        """Turns to the end under best play (fastest win, slowest loss); None for a draw."""
        code, distance = self._entry(board)
        return None if code == CODE[DRAW] else distance

    def lookup(self, me: int, opp: int) -> tuple[str, int | None] | None:
        """For the search, on bit sets: (value, distance) of the side to move, or None when the
        position is not in the table (too many stones, or a side without stones)."""
        if not me or not opp or (me | opp).bit_count() > self.stones:
            return None
        key = self.symmetry.canonical(me | opp << self.symmetry.points)
        i = self._keys.bisect(key)
        if i == len(self._keys) or self._keys[i] != key:
            return None
        code = self._values[i]
        return NAME[code], None if code == CODE[DRAW] else self._distances[i]

    def entries(self):
        """Every entry on bit sets, one per position up to mirror images: ``(me, opp, value,
        distance)``, the side to move's stones first (for the compiled search's own look-up)."""
        n = self.symmetry.points
        full = (1 << n) - 1
        for key, code, distance in zip(self._keys, self._values, self._distances):
            yield key & full, key >> n, NAME[code], None if code == CODE[DRAW] else distance

    def boards(self, value: str | None = None):
        """One board per entry (White to move), optionally only those of one value."""
        wanted = None if value is None else value_code(value)
        n, (w, h) = self.symmetry.points, self.size
        for key, code in zip(self._keys, self._values):
            if wanted is not None and code != wanted:
                continue
            me, opp = key & ((1 << n) - 1), key >> n
            rows = (
                "".join(
                    "W" if me >> (r * w + c) & 1 else "B" if opp >> (r * w + c) & 1 else "."
                    for c in range(w)
                )
                for r in reversed(range(h))
            )
            yield Board.from_diagram("\n".join(rows), "white", self.rules)

    # -- bytes on disk -------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The cache file: magic, format version, sha256 of the payload, then the zlib payload."""
        rules = repr(self.rules).encode()
        keys = self._keys.little_endian()
        return packed(
            MAGIC,
            FORMAT_VERSION,
            _PAYLOAD_HEAD.pack(*self.size, self.stones, len(self), len(rules))
            + rules
            + keys
            + self._values
            + little_endian(array("i", self._distances)),
        )

    @classmethod
    def from_bytes(cls, data: bytes, size, stones: int, rules: Rules) -> EndgameTable:
        """Read a cache file, refusing (ValueError) anything that is not exactly what was
        written."""
        raw = checked_payload(data, MAGIC, FORMAT_VERSION, "an endgame table")
        width, height, found_stones, count, rules_length = _PAYLOAD_HEAD.unpack_from(raw)
        at = _PAYLOAD_HEAD.size
        if (width, height, found_stones) != (*size, stones) or raw[at : at + rules_length] != repr(
            rules
        ).encode():
            raise ValueError("the file holds another board size, number of stones or rules")
        at += rules_length
        key_width = _key_bytes(width * height)
        if len(raw) != at + count * (key_width + 5):
            raise ValueError("the payload has the wrong length")
        keys = PackedKeys.from_little_endian(raw[at : at + count * key_width], key_width)
        at += count * key_width
        values, distances = raw[at : at + count], from_little_endian("i", raw[at + count :])
        check_entries(width * height, keys, values, distances)
        table = cls(size, rules, stones, keys, values, distances)
        table._check_sample(random.Random(data[: HEADER.size]))  # seeded by the file's checksum
        return table

    def _check_sample(self, rng: random.Random, samples: int = 48) -> None:
        """Replay the retrograde rule on some entries: a table written wrongly fails this even with
        a valid checksum."""
        successors, n = generator(self.geometry, self.rules).successor_keys, self.symmetry.points
        for i in (rng.randrange(len(self)) for _ in range(samples)):
            key = self._keys[i]
            if (
                self.symmetry.canonical(key) != key
                or not key & ((1 << n) - 1)
                or not key >> n
                or key.bit_count() > self.stones
            ):
                raise ValueError(f"entry {i} is not a position of the table")
            found = [
                (LOSS, 0)
                if not child & ((1 << n) - 1)
                else self.lookup(child & ((1 << n) - 1), child >> n)
                for child in successors(key)
            ]
            results = [r for r in found if r is not None]
            if len(results) < len(found):
                raise ValueError(f"entry {i} leads to a position the table lacks")
            outcomes = [(OPPOSITE[v], None if d is None else d + 1) for v, d in results]
            if not follows(NAME[self._values[i]], self._distances[i], outcomes):
                raise ValueError(f"entry {i} does not follow from the positions one turn on")

    def _entry(self, board: Board) -> tuple[int, int]:
        if not isinstance(board, Board):
            raise TypeError(f"expected a fanorona.Board, got {board!r}")
        w, h = self.size
        if board.size != self.size:
            bw, bh = board.size
            raise ValueError(f"this table is for the {w}x{h} board; the board is {bw}x{bh}")
        if board.rules != self.rules:
            raise ValueError(
                f"this table is for {w}x{h} under {self.rules}; the board plays under {board.rules}"
            )
        if board.chain:
            raise ValueError(
                "the board is in the middle of a capture chain; the table holds positions "
                "between turns: finish the turn first (push a step or end_turn())"
            )
        me, opp = bitsets(board)
        if not me or not opp:
            raise ValueError(
                "one side has no stones left: the game is over, there is nothing to look up"
            )
        stones = (me | opp).bit_count()
        if stones > self.stones:
            raise ValueError(
                f"the board has {stones} stones; this table holds positions of at most "
                f"{self.stones}"
            )
        key = self.symmetry.canonical(me | opp << self.symmetry.points)
        i = self._keys.bisect(key)
        return self._values[i], self._distances[i]


def _canonical_positions(
    points: int, stones: int, symmetry: Symmetry, progress: bool, label: str
) -> list[int]:
    """Every position of at most ``stones`` stones with both colours, one key per mirror class."""
    canonical = symmetry.canonical
    keys = []
    with progress_bar(
        progress, total=_position_count(points, stones), desc=f"listing {label}", unit=" positions"
    ) as bar:
        for mine in range(1, stones):
            for my_points in combinations(range(points), mine):
                me = sum(1 << p for p in my_points)
                rest = [p for p in range(points) if not me >> p & 1]
                for theirs in range(1, stones - mine + 1):
                    for their_points in combinations(rest, theirs):
                        key = me | sum(1 << p for p in their_points) << points
                        if canonical(key) == key:
                            keys.append(key)
                    bar.update(comb(len(rest), theirs))
    return keys


def _link(g, rules: Rules, keys: list[int], symmetry: Symmetry, progress: bool):
    """The successor graph in the solver's flat form.  Positions where the side to move has no
    stones left (the other side took its last) are added as extra nodes without successors."""
    successors, canonical = generator(g, rules).successor_keys, symmetry.canonical
    index = {key: i for i, key in enumerate(keys)}
    keys = list(keys)
    listed = len(keys)
    offsets, targets = array("q", [0]), array("i")
    with progress_bar(progress, total=listed, desc="linking", unit=" positions") as bar:
        for i in range(listed):
            for child in {canonical(k) for k in successors(keys[i])}:
                j = index.get(child)
                if j is None:  # the mover has lost its last stone
                    j = index[child] = len(keys)
                    keys.append(child)
                targets.append(j)
            offsets.append(len(targets))
            if i % 4096 == 4095:
                bar.update(4096)
        bar.update(listed % 4096)
    offsets.extend([len(targets)] * (len(keys) - listed))
    return offsets, targets, keys


def _key_bytes(points: int) -> int:
    return (2 * points + 7) // 8


def cache_path(size, stones: int, rules: Rules | None = None):
    """The file that holds the table of ``size`` and ``stones`` under ``rules``."""
    width, height = check_size(size)
    return cache_file(f"endgame-{width}x{height}-{stones}", graph_rules(rules))


_loaded: dict = {}


def endgame_table(
    size=(9, 5), stones: int = 3, rules: Rules | None = None, progress: bool = False
) -> EndgameTable:
    """The table of ``size`` and ``stones``, from memory, else from the cache file, else built (and
    saved).  A damaged cache file is rebuilt, with a warning."""
    rules = graph_rules(rules)
    size = check_size(size)
    return load_or_build(
        cache_path(size, stones, rules),
        _loaded,
        lambda data: EndgameTable.from_bytes(data, size, stones, rules),
        lambda: EndgameTable.build(size, stones, rules, progress),
        "endgame table",
        magic=MAGIC,
    )
