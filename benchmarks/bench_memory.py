"""A board's kernel memory after level-5 games, measured in a fresh Python process.

``python benchmarks/bench_memory.py`` imports the package and the board's controller (no
widget: the picture's memory is the view's), then plays level 5 against itself on 9x5 for a
number of turns, then one level-5 turn on each of the seven board sizes (the try-out's +420 MB
case, when every player was kept), and prints the process's resident memory after each stage
and how many computer players the board keeps.  Issue 18's goal: under 200 MB after a level-5
game.  The 4-stone endgame table is built the first time (or read from its cache file).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

GOAL_MB = 200

CHILD = r"""
import gc, json, sys, time
import psutil
def rss(): gc.collect(); return psutil.Process().memory_info().rss / 2**20
stages = {"python": rss()}
from fanorona import compiled
from fanorona.controller import Controller, SIZES
stages["imported"] = rss()
compiled.warm_up(progress=False)
loaded = "the compiled search loaded (numba)" if compiled.available() else "no compiled search"
stages[loaded] = rss()
turns = int(sys.argv[1])
c = Controller(size=(9, 5), opponent=5)
c.set_delay(0)
c.set_computer("both")
started = time.perf_counter()
while not c.model.is_game_over() and len(c.model.turns) < turns:
    time.sleep(0.05)
    if c.error is not None:
        raise c.error
with c.lock:
    c.runner.cancel()
c.runner.wait(120)
played = len(c.model.turns)
took = time.perf_counter() - started
stages[f"after a level-5 game on 9x5 ({played} turns, {took:.0f} s)"] = rss()
for size in SIZES:
    c.new_game(size=size)
    c.set_computer("white")
    c.runner.wait(300)
    c.set_computer("nobody")
stages["after a level-5 turn on each of the 7 sizes"] = rss()
players = len(c.runner.players)
del c
stages["after the board is dropped"] = rss()
print(json.dumps({"stages": stages, "players": players, "compiled": compiled.available()}))
"""


def main(argv: list[str] | None = None) -> int:
    """Print the figures; ``argv``: the command line's options (none when run by ``make bench``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=60, help="turns of the level-5 game at most")
    args = parser.parse_args([] if argv is None else argv)
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(args.turns)], capture_output=True, text=True
    )
    if out.returncode:
        raise RuntimeError(f"the measuring process failed:\n{out.stderr}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    print(
        f"kernel memory (resident, MB), compiled search: {result['compiled']} "
        f"(goal: under {GOAL_MB} MB "
        f"after a level-5 game); {time.perf_counter() - started:.0f} s"
    )
    for stage, mb in result["stages"].items():
        print(f"  {stage:<60} {mb:7.1f}")
    print(f"  computer players kept by the board: {result['players']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
