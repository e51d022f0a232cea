"""What ``make lab`` prepares for the computer before JupyterLab starts, each part showing that it
is alive while it runs.

``python -m fanorona.engine.prepare compile``: the compiled search into numba's cache, so that no
kernel compiles it.  numba tells nothing while it compiles a function, so a bar of the parts would
stand still for most of a minute; a line counts the seconds instead.
``python -m fanorona.engine.prepare table --log FILE``: level 5's 5-stone endgame table built by a
process of its own at low priority, so JupyterLab's address does not wait for it (a game that needs
the table before it is saved builds it itself); at once if it is saved already.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from . import compiled
from .bars import bar

#: Level 5's table, on the board ``make lab`` plays on: 5 stones on 9x5 (standard rules).
TABLE_SIZE, TABLE_STONES = (9, 5), 5
#: Seconds between redraws of the compile line.
EVERY = 1.0


def compile_search(every: float = EVERY) -> None:
    """Compile (or load from numba's cache) the compiled search, a line on stderr counting the
    seconds; one sentence where numba is not installed."""
    if not compiled.available():
        print(
            "numba is not installed (the 'fast' extra): the computer searches in pure Python; "
            "nothing to compile",
            file=sys.stderr,
        )
        return
    line = bar(
        notebook=False,
        total=None,
        desc="compiling the search with numba (once; about 45 s on an idle core)",
        bar_format="{desc}: {elapsed}",
        file=sys.stderr,
        mininterval=every,
    )
    done = threading.Event()

    def tick() -> None:
        while not done.wait(every):
            line.refresh()

    ticker = threading.Thread(target=tick, daemon=True, name="fanorona-compile-line")
    ticker.start()
    try:
        compiled.warm_up(progress=False)
    finally:
        done.set()
        ticker.join()
        line.close()


def table_path() -> Path:
    from .indexed import cache_path

    return Path(cache_path(TABLE_SIZE, TABLE_STONES))


def table_in_background(log: Path) -> int | None:
    """Start building level 5's table in a process of its own, writing to ``log``, and return
    its id; None (and a sentence why) where there is nothing to build."""
    if not compiled.available():
        print("level 5 plays without its 5-stone table here: the table needs numba", flush=True)
        return None
    path = table_path()
    if path.exists():
        print(f"level 5's 5-stone endgame table is ready: {path}", flush=True)
        return None
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as out:
        child = subprocess.Popen(
            [sys.executable, "-m", "fanorona.engine.prepare", "build-table"],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # it outlives make lab and a Ctrl-C in JupyterLab's terminal
        )
    print(
        f"level 5's 5-stone endgame table is being built in the background (process {child.pid}, "
        f"about 2 minutes on an idle core, 39 MB in {path.parent}); its progress is in {log}",
        flush=True,
    )
    return child.pid


def build_table() -> None:
    """The background process's work: the table built at low priority, its progress printed."""
    from .indexed import indexed_table

    os.nice(10)
    started = time.monotonic()
    indexed_table(TABLE_SIZE, TABLE_STONES, progress=True)
    print(f"built in {time.monotonic() - started:.0f} s: {table_path()}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fanorona.engine.prepare", description=__doc__)
    steps = parser.add_subparsers(dest="step", required=True)
    steps.add_parser("compile", help="compile the search into numba's cache")
    table = steps.add_parser("table", help="build level 5's 5-stone table in the background")
    table.add_argument("--log", type=Path, required=True, help="where its progress goes")
    steps.add_parser("build-table", help="build level 5's 5-stone table here")
    args = parser.parse_args(argv)
    if args.step == "compile":
        compile_search()
    elif args.step == "table":
        table_in_background(args.log)
    else:
        build_table()
    return 0


if __name__ == "__main__":
    sys.exit(main())
