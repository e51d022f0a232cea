"""Endgame tables of five stones: one byte a position, found by arithmetic on its stones instead of
by a stored key, and built by a compiled retrograde pass.

``EndgameTable`` (``endgame``) keeps a key per position up to mirror images and labels them in
Python: right for 4 stones on 9x5 (545,586 positions, half a minute), not for 5 (about 37
million).  Here a position of k stones is numbered by the rank of its set of points among all sets
of k points (in colex order) times the ways of colouring them with both colours present, plus the
colouring; the table stores only the byte ``code`` of each number: 0 a draw, 2d - 1 a win in d
turns, 2d + 2 a loss in d turns, for the side to move.

The build labels one stone count at a time, fewest first.  A capture leaves fewer stones, so what
it leads to is known; a quiet step keeps the count and is undone to find the positions that lead
to a newly labelled one (retrograde).  The rule is the solver's (``retrograde.label_positions``):
a win as soon as one turn leads to a loss, at the smallest distance; a loss once every turn leads
to a win, at the largest; a draw what is never labelled.  ``numba`` is required (the ``fast``
extra).
"""

from __future__ import annotations

import random
import struct
import time
from math import comb
from typing import TYPE_CHECKING

from ..board import Board
from ..geometry import check_size, geometry
from ..movegen import bitsets, generator
from ..rules import Rules
from .retrograde import DRAW, LOSS, OPPOSITE, WIN, follows, graph_rules, progress_bar
from .tablefile import cache_file, checked_payload_array, load_or_build, packed

if TYPE_CHECKING:  # numpy is imported where it is used: levels 4 and 5 load this module without it
    import numpy as np

__all__ = ["MAX_CODE_DISTANCE", "IndexedTable", "indexed_table", "label", "position_index"]

FORMAT_VERSION = 1
MAGIC = b"FANINDEX"
_HEAD = struct.Struct("<HHHQH")  # width, height, stones, positions, length of the rules text
#: The longest distance a byte code holds (2 * 126 + 2 = 254).
MAX_CODE_DISTANCE = 126
NONE = 255  # while building: no win found yet


def layer_sizes(points: int, stones: int) -> list[int]:
    """Positions of exactly k stones, both colours present, for k = 0 .. ``stones``."""
    return [comb(points, k) * max(2**k - 2, 0) for k in range(stones + 1)]


def _bases(points: int, stones: int) -> np.ndarray:
    """Where each stone count's numbers start (k < 2 hold none)."""
    import numpy as np

    sizes = layer_sizes(points, stones)
    return np.array([sum(sizes[:k]) for k in range(stones + 2)], dtype=np.int64)


def _binomials(points: int, stones: int) -> np.ndarray:
    import numpy as np

    return np.array(
        [[comb(p, j) for j in range(stones + 2)] for p in range(points + 1)], dtype=np.int64
    )


def position_index(me: int, opp: int, binomials, bases) -> int:
    """The number of a position (pure Python, the compiled ``_number`` step for step)."""
    stones = me | opp
    k = stones.bit_count()
    rank = pattern = j = 0
    while stones:
        low = stones & -stones
        rank += int(binomials[low.bit_length() - 1, j + 1])
        if me & low:
            pattern |= 1 << j
        j += 1
        stones ^= low
    return int(bases[k]) + rank * ((1 << k) - 2) + pattern - 1


def decode(code: int) -> tuple[str, int | None]:
    """(value, distance) of a byte code, the distance None for a draw."""
    if code == 0:
        return DRAW, None
    return (WIN, (code + 1) // 2) if code % 2 else (LOSS, (code - 2) // 2)


class IndexedTable:
    """Win, loss or draw and turns to the end for every position of at most ``stones`` stones,
    one byte each (``lookup`` has ``EndgameTable.lookup``'s answers, so the search reads either)."""

    def __init__(self, size, rules: Rules, stones: int, codes: np.ndarray, seconds: float = 0.0):
        self.size = check_size(size)
        self.rules, self.stones, self.seconds = rules, stones, seconds
        self.points = self.size[0] * self.size[1]
        self.codes = codes
        self.binomials = _binomials(self.points, stones)
        self.bases = _bases(self.points, stones)
        if len(codes) != self.bases[stones + 1]:
            raise ValueError(
                f"{len(codes):,} codes, but {stones} stones on {self.size[0]}x{self.size[1]} "
                f"make {int(self.bases[stones + 1]):,} positions"
            )

    @classmethod
    def build(
        cls,
        size=(9, 5),
        stones: int = 5,
        rules: Rules | None = None,
        progress: bool = True,
        layer_done=None,
    ) -> IndexedTable:
        """Label every position of at most ``stones`` stones, both colours present
        (``layer_done(k)`` is called as each stone count is labelled)."""
        from . import compiled

        width, height = _buildable(size, stones)
        rules = graph_rules(rules)
        started = time.perf_counter()
        compiled_gen = compiled.compiled_generator(generator(geometry(width, height), rules))
        codes = label(compiled_gen, stones, progress, layer_done)
        return cls((width, height), rules, stones, codes, time.perf_counter() - started)

    def __len__(self) -> int:
        return len(self.codes)

    def __repr__(self) -> str:
        w, h = self.size
        return f"<IndexedTable {w}x{h}, at most {self.stones} stones: {len(self):,} positions>"

    def lookup(self, me: int, opp: int) -> tuple[str, int | None] | None:
        """For the search, on bit sets: (value, distance) of the side to move, or None when the
        position is not in the table (too many stones, or a side without stones)."""
        if not me or not opp or (me | opp).bit_count() > self.stones:
            return None
        return decode(int(self.codes[position_index(me, opp, self.binomials, self.bases)]))

    def position(self, index: int) -> tuple[int, int]:
        """The position numbered ``index`` (``lookup``'s numbering undone): the side to move's
        stones and the other side's, as bit sets."""
        if not 0 <= index < len(self):
            raise ValueError(f"a position's number is from 0 to {len(self) - 1}; got {index}")
        import numpy as np

        k = int(np.searchsorted(self.bases, index, side="right")) - 1
        colours = (1 << k) - 2
        rank, pattern = divmod(index - int(self.bases[k]), colours)
        pattern += 1
        me = opp = 0
        p = self.points - 1
        for j in range(k, 0, -1):
            while self.binomials[p, j] > rank:
                p -= 1
            rank -= int(self.binomials[p, j])
            if pattern >> (j - 1) & 1:
                me |= 1 << p
            else:
                opp |= 1 << p
            p -= 1
        return me, opp

    def value(self, board: Board) -> str:
        """ "win", "loss" or "draw" for the side to move, under best play by both sides."""
        return self._entry(board)[0]

    def distance(self, board: Board) -> int | None:
        """Turns to the end under best play (fastest win, slowest loss); None for a draw."""
        return self._entry(board)[1]

    @property
    def counts(self) -> dict[str, int]:
        """How many positions are won, lost and drawn for the side to move."""
        import numpy as np

        found = np.bincount(self.codes, minlength=256)
        wins = int(found[1::2].sum())
        draws = int(found[0])
        return {WIN: wins, LOSS: len(self) - wins - draws, DRAW: draws}

    def _entry(self, board: Board):
        if not isinstance(board, Board):
            raise TypeError(f"expected a fanorona.Board, got {board!r}")
        if board.size != self.size or board.rules.with_(quiet_draw=None) != self.rules:
            w, h = self.size
            raise ValueError(f"this table is for {w}x{h} under {self.rules}; the board is not")
        if board.chain:
            raise ValueError("the board is in the middle of a capture chain: finish the turn first")
        me, opp = bitsets(board)
        found = self.lookup(me, opp)
        if found is None:
            raise ValueError(
                f"the board has {(me | opp).bit_count()} stones, or a side has none; this table "
                f"holds positions of 2 to {self.stones} stones with both colours"
            )
        return found

    # -- bytes on disk -------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        rules = repr(self.rules).encode()
        head = _HEAD.pack(*self.size, self.stones, len(self), len(rules))
        return packed(MAGIC, FORMAT_VERSION, head + rules + self.codes.tobytes())

    @classmethod
    def from_bytes(cls, data: bytes, size, stones: int, rules: Rules) -> IndexedTable:
        """Read a cache file, refusing (ValueError) anything that is not exactly what was
        written."""
        raw = checked_payload_array(data, MAGIC, FORMAT_VERSION, "an indexed endgame table")
        width, height, found, count, length = _HEAD.unpack_from(raw)
        at = _HEAD.size
        if (width, height, found) != (*size, stones) or raw[at : at + length] != repr(
            rules
        ).encode():
            raise ValueError("the file holds another board size, number of stones or rules")
        at += length
        if len(raw) - at != count:
            raise ValueError("the payload has the wrong length")
        import numpy as np

        codes = np.frombuffer(raw, dtype=np.uint8, offset=at)  # writable: raw is a bytearray
        if codes.max(initial=0) > 2 * MAX_CODE_DISTANCE + 2:
            raise ValueError("the file holds a code no position can have")
        table = cls(size, rules, stones, codes)
        table.check_sample(random.Random(data[:48]))  # seeded by the file's header and checksum
        return table

    def check_sample(self, rng: random.Random, samples: int = 48) -> None:
        """Replay the retrograde rule on some positions, ValueError at the first that does not
        follow from the positions one turn on: a table written wrongly fails this even with a
        valid checksum."""
        results = generator(geometry(*self.size), self.rules).results
        for i in (rng.randrange(len(self)) for _ in range(samples)):
            me, opp = self.position(i)
            outcomes = []
            for me2, opp2 in results(me, opp):
                found = self.lookup(opp2, me2) if opp2 else (LOSS, 0)
                if found is None:
                    raise ValueError(f"position {i} leads to a position the table lacks")
                value, distance = found
                outcomes.append((OPPOSITE[value], None if distance is None else distance + 1))
            if not follows(*decode(int(self.codes[i])), outcomes):
                raise ValueError(f"position {i} does not follow from the positions one turn on")


def _buildable(size, stones) -> tuple[int, int]:
    """The board's width and height, if the compiled code can build its table of ``stones``."""
    from . import compiled

    if not compiled.available():
        raise ValueError(
            "an indexed endgame table is built by compiled code: pip install 'fanorona[fast]'"
        )
    width, height = check_size(size)
    if isinstance(stones, bool) or not isinstance(stones, int) or not 2 <= stones <= 6:
        raise ValueError(f"stones is a whole number from 2 to 6; got {stones!r}")
    if width * height > compiled.MAX_POINTS:
        raise ValueError(f"a board of {width * height} points is too large for the compiled code")
    return width, height


def label(compiled_gen, stones: int, progress: bool = False, layer_done=None) -> np.ndarray:
    """The codes of every position of at most ``stones`` stones on the compiled generator's board
    (``compiled.warm_up`` calls this on a tiny board, so the pass is compiled at install)."""
    import numpy as np

    from . import compiled

    points = compiled_gen.params.points
    width, height = compiled_gen.generator.geometry.width, compiled_gen.generator.geometry.height
    binomials, bases = _binomials(points, stones), _bases(points, stones)
    codes = np.zeros(int(bases[stones + 1]), dtype=np.uint8)
    sizes = layer_sizes(points, stones)
    with _build_bar(progress, width, height, sizes) as bar:
        for k in range(2, stones + 1):
            compiled.label_layer(k, compiled_gen, binomials, bases, codes)
            bar.update(sizes[k])
            if layer_done is not None:
                layer_done(k)
    return codes


def _build_bar(progress: bool, width: int, height: int, sizes):
    """A build's progress bar: the positions labelled, a stone count at a time (``sizes``)."""
    stones = len(sizes) - 1
    desc = f"{width}x{height} endgame, {stones} stones"
    return progress_bar(progress, total=sum(sizes), desc=desc, unit=" positions")


def cache_path(size, stones: int, rules: Rules | None = None):
    """The file that holds the indexed table of ``size`` and ``stones`` under ``rules``."""
    width, height = check_size(size)
    return cache_file(f"indexed-{width}x{height}-{stones}", graph_rules(rules))


_loaded: dict = {}


#: Tables of this many stones or more are built in a child process: the 5-stone build needs
#: about 190 MB more than the table it leaves, which a kernel should not keep as its peak.
BUILT_APART_FROM = 5


def indexed_table(
    size=(9, 5), stones: int = 5, rules: Rules | None = None, progress: bool = False
) -> IndexedTable:
    """The table of ``size`` and ``stones``, from memory, else from the cache file, else built (and
    saved); a large one is built and saved by a child process, then read here."""
    rules = graph_rules(rules)
    size = check_size(size)
    path = cache_path(size, stones, rules)
    if stones >= BUILT_APART_FROM and path not in _loaded and not path.exists():
        _buildable(size, stones)
        _build_apart(size, stones, rules, progress)
    return load_or_build(
        path,
        _loaded,
        lambda data: IndexedTable.from_bytes(data, size, stones, rules),
        lambda: IndexedTable.build(size, stones, rules, progress),
        "indexed endgame table",
        magic=MAGIC,
    )


def _build_apart(size, stones: int, rules: Rules, progress: bool) -> None:
    """Build and save the table in a child Python, its progress shown here a stone count at a
    time.  Should the child fail, ``load_or_build`` finds no file and builds the table here."""
    import json
    import os
    import subprocess
    import sys
    import tempfile
    import warnings
    from dataclasses import asdict
    from pathlib import Path

    package_root = str(Path(__file__).resolve().parents[2])  # the child imports this same package
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (package_root, env.get("PYTHONPATH"))))
    request = json.dumps({"size": list(size), "stones": stones, "rules": asdict(rules)})
    code = "from fanorona.engine.indexed import _build_and_save; _build_and_save()"
    w, h = size
    sizes = layer_sizes(w * h, stones)
    with (
        _build_bar(progress, w, h, sizes) as bar,
        tempfile.TemporaryFile("w+") as errors,  # a file: a full pipe would stop the child
        subprocess.Popen(
            [sys.executable, "-c", code, request],
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            env=env,
        ) as child,
    ):
        assert child.stdout is not None
        for line in child.stdout:  # one line a stone count labelled
            bar.update(sizes[int(line)])
        child.wait()
        errors.seek(0)
        problem = errors.read().strip().splitlines()
    if child.returncode != 0:
        warnings.warn(
            f"building the {w}x{h} {stones}-stone table in a child process failed (exit code "
            f"{child.returncode}{': ' + problem[-1] if problem else ''}); building it here",
            RuntimeWarning,
            stacklevel=3,
        )


def _build_and_save() -> None:
    """The child's work (its request in ``sys.argv``): build, printing each stone count labelled,
    and save."""
    import json
    import sys

    from .tablefile import write_file

    request = json.loads(sys.argv[1])
    size, stones, rules = tuple(request["size"]), request["stones"], Rules(**request["rules"])

    def done(k: int) -> None:
        print(k, flush=True)

    table = IndexedTable.build(size, stones, rules, progress=False, layer_done=done)
    write_file(cache_path(size, stones, rules), table.to_bytes(), "indexed endgame table")
