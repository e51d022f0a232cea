"""A board's kernel memory after level-5 games, measured from outside a real Jupyter kernel.

``python benchmarks/bench_memory.py`` starts an IPython kernel as Voilà does, runs the play page's
cell in it (a ``BoardWidget``), has the computer play level 5 against itself on 9x5 for a number
of turns, then one level-5 turn on each of the seven board sizes, and reads the kernel's memory
after each stage.  A second kernel then loads the compiled search too, to show which part of
the first kernel's memory the two share, and a third compiles it with an empty numba cache, as
the first game after installing would if ``make lab`` had not compiled it.  The goal:
under 200 MB after a level-5 game.

Three figures per stage, from the kernel's memory map (``psutil``):
- *resident*: every page in memory, what ``top`` shows;
- *own*: what only this kernel wrote (private dirty pages and swap): its objects, arrays and
  compiled code.  This is what each further kernel adds to a server;
- *library code*: read-only pages of shared libraries, mostly LLVM's 178 MB ``libllvmlite.so``
  that numba maps: the same pages serve every kernel that maps the file, and the OS drops them
  under pressure and reads them again when needed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager

import psutil
from jupyter_client.manager import start_new_kernel

GOAL_MB = 200
MB = 2**20

START = """
import time
import fanorona as fa
board = fa.BoardWidget(opponent=5, max_width=None)
board
"""

LOAD = """
from fanorona.engine import compiled
compiled.warm_up(progress=False)
"""

PLAY = """
c = board.controller
c.set_delay(0)
c.set_computer("both")
started = time.perf_counter()
while not c.model.is_game_over() and len(c.model.turns) < {turns}:
    time.sleep(0.05)
    assert c.error is None, c.error
c.set_computer("nobody")
c.runner.wait(120)
print(len(c.model.turns), round(time.perf_counter() - started))
"""

EVERY_SIZE = """
from fanorona.ui.controller import SIZES
for size in SIZES:
    c.new_game(size=size)
    c.set_computer("white")
    c.runner.wait(300)
    c.set_computer("nobody")
print(len(c.runner.players), compiled.tables_held(), compiled.available())
"""


def memory(pid: int) -> dict[str, float]:
    """Resident, own (private dirty and swap) and read-only library pages of a process, in MB."""
    resident = own = code = 0
    for region in psutil.Process(pid).memory_maps(grouped=True):
        resident += region.rss
        own += region.private_dirty + region.swap
        if region.path.startswith("/") and ".so" in region.path:
            code += region.private_clean + region.shared_clean
    return {"resident": resident / MB, "own": own / MB, "library code": code / MB}


@contextmanager
def highest(pid: int, every: float = 0.2):
    """The most of each figure of ``memory(pid)`` seen while the block runs, sampled in a
    thread."""
    most: dict[str, float] = {}
    done = threading.Event()

    def sample():
        while not done.wait(every):
            for name, mb in memory(pid).items():
                most[name] = max(most.get(name, 0.0), mb)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        yield most
    finally:
        done.set()
        sampler.join()


@contextmanager
def kernel(**env: str):
    """A client of a new kernel (its process id as ``client.pid``), shut down afterwards."""
    manager, client = start_new_kernel(
        kernel_name="python3", env={**os.environ, **env}, stderr=subprocess.DEVNULL
    )
    client.pid = manager.provisioner.process.pid
    try:
        yield client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def run(client, code: str, timeout: float = 900) -> str:
    """Run ``code`` in the kernel; the last line it printed, or the error it raised as an
    exception."""
    out: list[str] = []

    def keep(message):
        kind, content = message["msg_type"], message["content"]
        if kind == "stream" and content["name"] == "stdout":
            out.append(content["text"])
        elif kind == "error":
            out.append("\n".join(content["traceback"]))

    reply = client.execute_interactive(code, output_hook=keep, timeout=timeout)
    if reply["content"]["status"] != "ok":
        raise RuntimeError(f"the kernel failed on:\n{code}\n{''.join(out)}")
    printed = "".join(out).strip().splitlines()
    return printed[-1] if printed else ""


def main(argv: list[str] | None = None) -> int:
    """Print the figures; ``argv``: the command line's options (none when run by ``make bench``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=300, help="turns of the level-5 game at most")
    args = parser.parse_args([] if argv is None else argv)
    started = time.perf_counter()
    with kernel() as client:
        pid = client.pid
        stages = {"an idle kernel": memory(pid)}
        run(client, START)
        stages["the play page's board shown"] = memory(pid)
        run(client, LOAD)
        stages["the compiled search loaded from numba's cache"] = memory(pid)
        with highest(pid) as peak:
            played, took = run(client, PLAY.format(turns=args.turns)).split()
        stages[f"after a level-5 game on 9x5 ({played} turns, {took} s)"] = memory(pid)
        summary = run(client, EVERY_SIZE).split()
        stages["after a level-5 turn on each of the 7 sizes"] = memory(pid)
        with kernel() as second:
            run(second, LOAD)
            shared = memory(pid)
            shared_pss = psutil.Process(pid).memory_full_info().pss / MB
    with tempfile.TemporaryDirectory() as empty, kernel(NUMBA_CACHE_DIR=empty) as third:
        run(third, LOAD)
        compiling = memory(third.pid)
    game = stages[next(s for s in stages if s.startswith("after a level-5 game"))]
    print(
        f"kernel memory (MB), compiled search: {summary[2]}; goal: the kernel's own memory under "
        f"{GOAL_MB} MB after a level-5 game; {time.perf_counter() - started:.0f} s"
    )
    print(f"  {'stage':<52} {'resident':>9} {'own':>7} {'library code':>13}")
    for stage, mb in stages.items():
        print(f"  {stage:<52} {mb['resident']:9.1f} {mb['own']:7.1f} {mb['library code']:13.1f}")
    print(
        f"  computer players kept by the board: {summary[0]}; search tables held between turns: "
        f"{summary[1]}"
    )
    print(
        f"  with a second kernel that loaded the compiled search: the first's proportional share "
        f"{shared_pss:.1f} MB (resident {shared['resident']:.1f})"
    )
    print(
        f"  a kernel that compiled the search itself (empty numba cache): own "
        f"{compiling['own']:.1f} MB, resident {compiling['resident']:.1f}"
    )
    verdict = "meets" if game["own"] < GOAL_MB else "misses"
    print(
        f"  after the game: own {game['own']:.1f} MB, {verdict} the goal; the most during it "
        f"(sampled every 0.2 s, while a search held its table): own {peak['own']:.1f}, resident "
        f"{peak['resident']:.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
