"""The cache files of the solved boards and the endgame tables: where they live, their signed
layout, what every table read back must hold, and writing them so that several processes, or one
killed half way, never leave a damaged file behind.

A file's digest is keyed (HMAC-SHA256) with a secret made for this install and kept beside the
cache files, so a file changed by anything but this package (one result flipped and a plain
checksum recomputed) is refused, whichever entries the load's sample check happens to replay.
"""

from __future__ import annotations

import glob
import hashlib
import hmac
import operator
import os
import stat
import struct
import sys
import tempfile
import time
import warnings
import zlib
from array import array
from collections.abc import Sequence
from itertools import islice
from pathlib import Path

from ..rules import Rules
from .retrograde import NAME

# : Every cache file starts with this: magic, format version, keyed digest of the (compressed)
# payload.
HEADER = struct.Struct("<8sH32s")
#: The install's secret for the digests, in the cache directory (readable by its owner only).
KEY_NAME = "cache-key"
KEY_BYTES = 32
#: A ``.part`` file untouched for this long is left over, whoever wrote it (writing takes seconds).
STALE_PART_SECONDS = 3600


class SolveCacheWarning(UserWarning):
    """A cache file could not be used (damaged, truncated, another format) and is rebuilt."""


def cache_dir() -> Path:
    """Where solved tables are kept: $FANORONA_CACHE_DIR, else the user's cache directory."""
    override = os.environ.get("FANORONA_CACHE_DIR")
    if override:
        return Path(override)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("fanorona"))


def cache_file(stem: str, rules: Rules) -> Path:
    """The file ``stem-<rules>.bin`` in the cache directory, the rules named or else hashed."""
    tag = rules.name() or hashlib.sha256(repr(rules).encode()).hexdigest()[:12]
    return cache_dir() / f"{stem}-{tag}.bin"


_keys: dict[Path, bytes] = {}


def install_key() -> bytes:
    """This install's secret (``KEY_NAME`` in the cache directory), made on first use.  Where it
    cannot be kept, a secret for this process only: its files are then refused by the next."""
    folder = cache_dir()
    if folder not in _keys:
        path = folder / KEY_NAME
        try:
            key = path.read_bytes() if path.exists() else b""
            if len(key) != KEY_BYTES:
                folder.mkdir(parents=True, exist_ok=True)
                fd, partial = tempfile.mkstemp(dir=folder, prefix=f"{KEY_NAME}.", suffix=".part")
                with os.fdopen(fd, "wb") as file:  # mkstemp's file is its owner's only
                    file.write(os.urandom(KEY_BYTES))
                try:
                    os.link(partial, path)  # the first writer's key wins a race
                except FileExistsError:
                    if len(path.read_bytes()) != KEY_BYTES:
                        os.replace(partial, path)  # a damaged key is replaced
                finally:
                    Path(partial).unlink(missing_ok=True)
                key = path.read_bytes()
        except OSError:
            key = os.urandom(KEY_BYTES)
        _keys[folder] = key
    return _keys[folder]


def digest(payload) -> bytes:
    """The keyed digest of a cache file's payload."""
    return hmac.new(install_key(), payload, hashlib.sha256).digest()


def packed(magic: bytes, format_version: int, raw: bytes) -> bytes:
    """A cache file: ``HEADER`` (with the payload's keyed digest) then ``raw`` compressed with
    zlib."""
    payload = zlib.compress(raw, 6)
    return HEADER.pack(magic, format_version, digest(payload)) + payload


def checked_payload(data: bytes, magic: bytes, format_version: int, what: str) -> bytes:
    """The unpacked payload of a file written by ``packed``; ValueError saying what is wrong with
    anything else.

    >>> checked_payload(packed(b"EXAMPLE!", 1, b"raw"), b"EXAMPLE!", 1, "an example")
    b'raw'
    """
    return zlib.decompress(_signed_payload(data, magic, format_version, what))


def checked_payload_array(data: bytes, magic: bytes, format_version: int, what: str) -> bytearray:
    """``checked_payload`` as a bytearray, unpacked a megabyte at a time: a numpy array can stand
    on it without a copy of its own (the 5-stone table's payload is 39 MB).

    >>> checked_payload_array(packed(b"EXAMPLE!", 1, b"raw"), b"EXAMPLE!", 1, "an example")
    bytearray(b'raw')
    """
    payload = _signed_payload(data, magic, format_version, what)
    inflate, raw, step = zlib.decompressobj(), bytearray(), 2**20
    for start in range(0, len(payload), step):
        raw += inflate.decompress(payload[start : start + step])
    raw += inflate.flush()
    if not inflate.eof:
        raise zlib.error("the compressed payload ends early")
    return raw


def _signed_payload(data: bytes, magic: bytes, format_version: int, what: str) -> memoryview:
    """The compressed payload of a file written by ``packed``, once its header and keyed digest
    are found right."""
    if len(data) < HEADER.size:
        raise ValueError("the file is shorter than its header")
    found, version, signed = HEADER.unpack_from(data)
    if found != magic:
        raise ValueError(f"the file is not {what}")
    if version != format_version:
        raise ValueError(
            f"the file has format version {version}, this code reads version {format_version}"
        )
    payload = memoryview(data)[HEADER.size :]  # not a copy: a 5-stone file is 18 MB
    if not hmac.compare_digest(digest(payload), signed):
        raise ValueError(
            "the keyed checksum does not match (the file is damaged or truncated, or was not "
            "written by this install's fanorona)"
        )
    return payload


def check_entries(points: int, keys, values: bytes, distances: array) -> None:
    """What every table read back holds: entries, value codes 0-2, keys ``me | opp << points`` in
    increasing order and within the board, distances from 0 up; ValueError otherwise."""
    if not keys:
        raise ValueError("the table has no entries")
    if values.translate(None, bytes(sorted(NAME))):
        bad = next(code for code in values if code not in NAME)
        raise ValueError(
            f"the table holds the value code {bad}, which means nothing (codes are 0, 1 and 2)"
        )
    if not all(map(operator.lt, keys, islice(keys, 1, None))):
        raise ValueError("the table's positions are not in increasing order")
    if keys[0] < 0 or keys[-1] >> 2 * points:
        raise ValueError("the table holds positions that do not fit the board")
    high_bytes = distances.tobytes()[3 if sys.byteorder == "little" else 0 :: 4]
    if high_bytes.translate(None, bytes(range(128))):  # a sign bit set: min() takes seconds on 7x3
        raise ValueError("the table holds a negative distance")


class PackedKeys(Sequence):
    """A sorted table's keys packed ``width`` bytes each, most significant first, so that comparing
    two keys' bytes compares the keys: looked up by halving without making a Python int per key.
    A list of ints would take about four times the memory (24 MB for the 9x5 four-stone table,
    against 6.5 MB)."""

    def __init__(self, big_endian: bytes, width: int):
        if len(big_endian) % width:
            raise ValueError(f"{len(big_endian)} bytes do not make keys of {width} bytes each")
        self.data, self.width = bytes(big_endian), width

    @classmethod
    def of(cls, keys, width: int) -> PackedKeys:
        """The packed form of a list of keys."""
        return cls(b"".join(key.to_bytes(width, "big") for key in keys), width)

    @classmethod
    def from_little_endian(cls, data: bytes, width: int) -> PackedKeys:
        """Keys as a table file holds them, least significant byte first."""
        return cls(_reverse_each(data, width), width)

    def little_endian(self) -> bytes:
        """The keys as a table file holds them."""
        return _reverse_each(self.data, self.width)

    def __len__(self) -> int:
        return len(self.data) // self.width

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"key {i} of {n}")
        w = self.width
        return int.from_bytes(self.data[i * w : (i + 1) * w], "big")

    def __iter__(self):
        w, data = self.width, self.data
        for at in range(0, len(data), w):
            yield int.from_bytes(data[at : at + w], "big")

    def bisect(self, key: int) -> int:
        """Where ``key`` is, or would go to keep the order (``bisect.bisect_left``)."""
        w, data = self.width, self.data
        if key < 0:
            return 0
        if key >> (8 * w):
            return len(self)
        target, low, high = key.to_bytes(w, "big"), 0, len(self)
        while low < high:
            middle = (low + high) // 2
            if data[middle * w : middle * w + w] < target:
                low = middle + 1
            else:
                high = middle
        return low


def _reverse_each(data: bytes, width: int) -> bytes:
    """``data`` with the bytes of each ``width``-byte group in reverse order."""
    groups = memoryview(bytes(data)).cast("B")
    out = bytearray(len(data))
    for k in range(width):
        out[k::width] = groups[width - 1 - k :: width]
    return bytes(out)


def little_endian(numbers: array) -> bytes:
    """The bytes of an array, least significant first whatever the machine."""
    if sys.byteorder == "big":
        numbers = array(numbers.typecode, numbers)
        numbers.byteswap()
    return numbers.tobytes()


def from_little_endian(typecode: str, data: bytes) -> array:
    """The array that ``little_endian`` turned into ``data``."""
    numbers = array(typecode, data)
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers


def load_or_build(path: Path, loaded: dict, read, build, what: str, magic: bytes | None = None):
    """The table of ``path``: from ``loaded`` (a memory of path -> (file stamp, table)) while the
    file is unchanged, else ``read(bytes of the file)``, else ``build()`` and saved.  A file that
    ``read`` refuses, or that does not begin with ``magic``, is rebuilt, with a
    ``SolveCacheWarning`` naming the ``what``; the magic is read before the rest."""
    stamp = _file_stamp(path)
    if path in loaded and loaded[path][0] == stamp:
        return loaded[path][1]
    _remove_stale_parts(path)
    table = None
    if stamp is not None:
        try:
            table = read(_read_regular_file(path, magic))
        except (OSError, ValueError, zlib.error, struct.error) as problem:
            warnings.warn(
                f"cannot use the cached {what} {path}: {problem}; building it again",
                SolveCacheWarning,
                stacklevel=3,
            )  # the caller of solve() or endgame_table()
    if table is None:
        table = build()
        write_file(path, table.to_bytes(), what)
    loaded[path] = (_file_stamp(path), table)
    return table


def _file_stamp(path: Path):
    """(modification time, size) of the file, or None where there is none."""
    try:
        found = path.stat()
    except OSError:
        return None
    return (found.st_mtime_ns, found.st_size)


def _read_regular_file(path: Path, magic: bytes | None = None) -> bytes:
    """The bytes of ``path`` if it is a regular file starting with ``magic`` (checked before the
    rest is read: a huge file of something else costs nothing); opening never blocks (a FIFO would).
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("it is not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as file:
            head = file.read(len(magic)) if magic else b""
            if magic and head != magic:
                raise ValueError(f"the file does not begin with {magic!r}, so it is no such table")
            return head + file.read()
    finally:
        os.close(fd)


def write_file(path: Path, data: bytes, what: str) -> None:
    """Write atomically, so a run stopped half way never leaves half a file behind; a failure is
    a ``SolveCacheWarning``, not an error.

    Each writer (process or thread) writes its own ``.part`` file, named after its process so
    that one left by a killed process can be recognised and removed (``_remove_stale_parts``).
    """
    partial = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, partial = tempfile.mkstemp(
            dir=path.parent, prefix=f"{path.name}.{os.getpid()}.", suffix=".part"
        )
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(partial, path)
        partial = None
    except OSError as problem:
        warnings.warn(
            f"cannot save the {what} to {path}: {problem}", SolveCacheWarning, stacklevel=4
        )  # the caller of solve() or endgame_table()
    finally:
        if partial is not None:
            Path(partial).unlink(missing_ok=True)


def _remove_stale_parts(path: Path) -> None:
    """Remove the ``.part`` files of ``path`` whose writer is gone or that are an hour old."""
    now = time.time()
    try:
        parts = list(path.parent.glob(f"{glob.escape(path.name)}.*.part"))
    except OSError:
        return
    for part in parts:
        pid = part.name[len(path.name) + 1 :].split(".")[0]
        try:
            old = now - part.lstat().st_mtime > STALE_PART_SECONDS
            if old or (pid.isdigit() and int(pid) != os.getpid() and not _running(int(pid))):
                part.unlink()
        except OSError:
            pass  # gone already, or not ours to remove


def _running(pid: int) -> bool:
    """Whether a process of this machine has the id (always True where that cannot be asked)."""
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
