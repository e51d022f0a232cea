"""The solver's cache under faults: content that passes the checksum but cannot be a
solution, a FIFO in the file's place, writers killed half way, several writers at once."""

import hashlib
import os
import random
import subprocess
import sys
import threading
import time
import zlib
from array import array

import pytest

from fanorona.engine import solve as solver
from fanorona.engine import tablefile
from fanorona.engine.retrograde import CODE, DRAW, LOSS, WIN
from fanorona.engine.solve import SolveCacheWarning, solve
from fanorona.engine.tablefile import HEADER, STALE_PART_SECONDS, write_file

SIZE = (3, 3)


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    """A fresh cache directory and no table remembered in memory, for each test."""
    monkeypatch.setenv("FANORONA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(solver, "_loaded", {})
    return tmp_path


def payload_parts(data: bytes):
    """A cache file taken apart: head fields, rules text, keys, values, distances."""
    raw = zlib.decompress(data[HEADER.size :])
    width, height, count, rules_length = solver._PAYLOAD_HEAD.unpack_from(raw)
    at = solver._PAYLOAD_HEAD.size
    rules, at = raw[at : at + rules_length], at + rules_length
    keys = array("q", raw[at : at + 8 * count])
    values = bytearray(raw[at + 8 * count : at + 9 * count])
    distances = array("i", raw[at + 9 * count :])
    return width, height, rules, keys, values, distances


def packed(width, height, rules, keys, values, distances, sign=None) -> bytes:
    """Put a cache file together again, with a valid digest (this install's keyed one, as a buggy
    writer in the package would make; or ``sign(payload)``)."""
    raw = (
        solver._PAYLOAD_HEAD.pack(width, height, len(keys), len(rules))
        + rules
        + keys.tobytes()
        + bytes(values)
        + distances.tobytes()
    )
    payload = zlib.compress(raw)
    return (
        HEADER.pack(solver.MAGIC, solver.FORMAT_VERSION, (sign or tablefile.digest)(payload))
        + payload
    )


def rebuilt_after(change):
    """Write a cache file whose checksum is valid but whose content ``change`` spoiled; solve must
    warn, rebuild and give the right table."""
    assert sys.byteorder == "little"
    table = solve(SIZE, progress=False)
    path = solver.cache_path(SIZE)
    good = path.read_bytes()
    parts = list(payload_parts(good))
    change(parts)
    path.write_bytes(packed(*parts))
    os.utime(path, ns=(1, 1))
    with pytest.warns(SolveCacheWarning) as caught:
        again = solve(SIZE, progress=False)
    assert path.read_bytes() == good, "the bad file was not replaced by a good one"
    assert again.counts == table.counts and again.start_value == table.start_value
    return str(caught[0].message)


def test_impossible_value_codes_are_refused_not_a_key_error():
    def sevens(parts):
        parts[4] = bytearray([7]) * len(parts[4])

    assert "value code 7" in rebuilt_after(sevens)


def test_a_table_where_every_position_is_won_is_refused():
    def all_won(parts):
        parts[4] = bytearray([CODE[WIN]]) * len(parts[4])

    assert "does not follow" in rebuilt_after(all_won)


def test_a_table_with_its_start_value_flipped_is_refused():
    def flipped(parts):
        table = solve(SIZE, progress=False)
        i = table._index(solver.Board(SIZE, table.rules))
        code = parts[4][i]
        parts[4][i] = {1: 2, 2: 1, 0: 1}[code]

    assert "does not follow" in rebuilt_after(flipped)


def test_a_result_flipped_with_a_recomputed_checksum_is_refused_even_where_no_sample_looks():
    """Anyone can recompute a plain sha256; only this install's package has the key."""
    assert sys.byteorder == "little"
    table = solve(SIZE, progress=False)
    path = solver.cache_path(SIZE)
    good = path.read_bytes()
    parts = list(payload_parts(good))
    values = parts[4]
    for i in range(len(values)):
        if values[i] == CODE[DRAW]:
            continue
        changed = parts[:4] + [bytearray(values), parts[5]]
        changed[4][i] = {CODE[WIN]: CODE[LOSS], CODE[LOSS]: CODE[WIN]}[values[i]]
        data = packed(*changed, sign=lambda payload: hashlib.sha256(payload).digest())
        try:  # the load's sample check, which this change must slip past
            solver.Table(SIZE, table.rules, parts[3], bytes(changed[4]), parts[5])._check_sample(
                random.Random(data[: HEADER.size])
            )
            break
        except ValueError:
            continue
    path.write_bytes(data)
    os.utime(path, ns=(1, 1))
    with pytest.warns(SolveCacheWarning, match="keyed checksum does not match"):
        again = solve(SIZE, progress=False)
    assert again._values == table._values and path.read_bytes() == good
    key = tablefile.cache_dir() / tablefile.KEY_NAME
    assert len(key.read_bytes()) == tablefile.KEY_BYTES and key.stat().st_mode & 0o077 == 0, (
        "the key is private"
    )


def test_the_magic_is_read_before_the_rest_of_a_file(cache, monkeypatch):
    path = solver.cache_path(SIZE)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as file:  # 64 MiB, sparse: no disk taken
        file.write(b"NOTMAGIC")
        file.truncate(64 << 20)
    read = []
    fdopen = os.fdopen

    class Counting:
        def __init__(self, file):
            self.file = file

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.file.close()

        def __getattr__(self, name):
            return getattr(self.file, name)

        def read(self, size=-1):
            data = self.file.read(size)
            read.append(len(data))
            return data

    monkeypatch.setattr(tablefile.os, "fdopen", lambda *a, **k: Counting(fdopen(*a, **k)))
    with pytest.warns(SolveCacheWarning) as caught:
        solve(SIZE, progress=False)
    assert sum(read) <= 1024, f"{sum(read)} bytes were read from a file that is no table"
    assert "does not begin with b'FANSOLVE'" in str(caught[0].message)


def test_positions_out_of_order_are_refused():
    def reversed_keys(parts):
        parts[3] = array("q", reversed(parts[3]))

    assert "increasing order" in rebuilt_after(reversed_keys)


def test_an_empty_table_is_refused():
    def empty(parts):
        parts[3], parts[4], parts[5] = array("q"), bytearray(), array("i")

    assert "no entries" in rebuilt_after(empty)


def test_negative_distances_are_refused():
    def negative(parts):
        parts[5] = array("i", [-1] * len(parts[5]))

    assert "negative" in rebuilt_after(negative)


def test_positions_beyond_the_board_are_refused():
    def too_big(parts):
        parts[3][-1] = 1 << 40

    assert "do not fit" in rebuilt_after(too_big)


def test_a_fifo_at_the_cache_path_does_not_block():
    path = solver.cache_path(SIZE)
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    result, caught = {}, []

    def run():
        import warnings

        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            result["table"] = solve(SIZE, progress=False)
        caught.extend(seen)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive(), "solve() blocked on the FIFO"
    assert result["table"].start_value == "win"
    assert any("not a regular file" in str(w.message) for w in caught)
    assert path.is_file(), "the FIFO was not replaced by the table"


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_part_files_left_by_killed_writers_are_removed(cache):
    path = solver.cache_path(SIZE)
    stale_writer = cache / f"{path.name}.{dead_pid()}.x1.part"
    old = cache / f"{path.name}.{os.getppid()}.x2.part"  # a live writer, but an hour old
    fresh = cache / f"{path.name}.{os.getppid()}.x3.part"  # a live writer, now: kept
    mine = cache / f"{path.name}.{os.getpid()}.x4.part"  # another thread of this process: kept
    other_table = (
        cache / f"solved-5x3-solved.bin.{dead_pid()}.x5.part"
    )  # another file's: not touched here
    for part in (stale_writer, old, fresh, mine, other_table):
        part.write_bytes(b"half a table")
    hour_ago = time.time() - STALE_PART_SECONDS - 60
    os.utime(old, (hour_ago, hour_ago))
    solve(SIZE, progress=False)
    assert not stale_writer.exists() and not old.exists()
    assert fresh.exists() and mine.exists() and other_table.exists()
    solver._loaded.clear()
    solve(SIZE, progress=False)  # read from the cache, not rebuilt
    assert fresh.exists() and mine.exists()


def test_part_files_are_cleaned_when_the_table_is_only_read(cache):
    solve(SIZE, progress=False)
    solver._loaded.clear()
    stale = cache / f"{solver.cache_path(SIZE).name}.{dead_pid()}.part"  # the old naming, too
    stale.write_bytes(b"half")
    solve(SIZE, progress=False)
    assert not stale.exists()


def test_each_writing_thread_has_its_own_part_file(cache, monkeypatch):
    table = solve(SIZE, progress=False)
    path = solver.cache_path(SIZE)
    writers = 4
    meet = threading.Barrier(writers, timeout=30)
    sources = []
    replace = os.replace

    def replace_together(source, target):
        sources.append(str(source))
        meet.wait()  # every writer has written its part file before any replaces
        replace(source, target)

    monkeypatch.setattr(os, "replace", replace_together)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        threads = [
            threading.Thread(target=write_file, args=(path, table.to_bytes(), "solved table"))
            for _ in range(writers)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    assert len(set(sources)) == writers, sources
    assert solver.Table.from_bytes(path.read_bytes(), SIZE, table.rules).counts == table.counts
    assert not list(cache.glob("*.part"))


def test_a_failed_write_leaves_no_part_file(cache, monkeypatch):
    table = solve(SIZE, progress=False)

    def refuse(source, target):
        raise PermissionError("read-only")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.warns(SolveCacheWarning, match="cannot save"):
        write_file(solver.cache_path(SIZE), table.to_bytes(), "solved table")
    assert not list(cache.glob("*.part"))


def test_a_payload_unpacked_a_megabyte_at_a_time_comes_back_whole_and_a_cut_one_is_refused():
    """``checked_payload_array`` (the indexed tables' reader) over a payload of several of its
    megabyte steps; and a stream cut short, though signed as it is, refused by both readers."""
    rng = random.Random(3)
    raw = rng.randbytes(3 * 2**20 + 17)  # incompressible: 3 MB packed
    assert tablefile.checked_payload_array(
        tablefile.packed(b"EXAMPLE!", 1, raw), b"EXAMPLE!", 1, "an example"
    ) == bytearray(raw)
    cut = zlib.compress(raw)[: -(2**10)]
    signed = HEADER.pack(b"EXAMPLE!", 1, tablefile.digest(cut)) + cut
    with pytest.raises(zlib.error, match="ends early"):
        tablefile.checked_payload_array(signed, b"EXAMPLE!", 1, "an example")
    with pytest.raises(zlib.error):
        tablefile.checked_payload(signed, b"EXAMPLE!", 1, "an example")
