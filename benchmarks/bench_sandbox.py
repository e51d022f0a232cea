"""What the sandbox costs: ``python benchmarks/bench_sandbox.py`` prints the median start of a
sandboxed Python that does nothing (bubblewrap, the path without namespaces, and a plain
subprocess beside them), and the wall time of one tournament game between two submitted players
in the sandbox, with the load average (the machine is shared).  Only wall time: the players'
processes are killed at the end of their game, so their CPU never reaches this process's
``RUSAGE_CHILDREN``.

The game is the same one ``--game-only`` plays, so the same script run from an older checkout
gives the figure to compare with.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import subprocess
import sys
import time

import fanorona as fa
from fanorona.tournament.play import play
from fanorona.tournament.players import TEMPLATE

FIRST_TURN = "def choose_turn(board):\n    return board.legal_turns()[0]\n"


def start_ms(run, count: int) -> float:
    """The median wall time of ``count`` starts, in milliseconds."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def game() -> tuple[float, int]:
    """One game on 9x5 of at most 80 turns: its wall seconds and turns."""
    job = {
        "game": 1,
        "white": {"name": "template", "source": TEMPLATE},
        "black": {"name": "first_turn", "source": FIRST_TURN},
        "size": [9, 5],
        "rules": dataclasses.asdict(fa.Rules()),
        "opening": [],
        "max_turns": 80,
        "limits": {"turn_seconds": 1.0},
        "seed": 1,
    }
    started = time.perf_counter()
    result = play(job)
    return time.perf_counter() - started, result["turns"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=20, help="starts to take the median of")
    parser.add_argument("--game-only", action="store_true", help="only the game")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    if not args.game_only:
        from fanorona.sandbox import Limits, Sandbox, isolation

        nothing = [sys.executable, "-c", "pass"]
        print(isolation())
        for name, box in [
            ("bubblewrap", Sandbox(Limits(), namespaces=True)),
            ("without namespaces", Sandbox(Limits(), namespaces=False, allow_weak=True)),
        ]:
            median = start_ms(lambda b=box: b.run(nothing), args.starts)
            print(f"sandboxed start, {name}: {median:.0f} ms")
        plain = start_ms(lambda: subprocess.run(nothing, check=True), args.starts)
        print(f"plain subprocess start: {plain:.0f} ms (medians of {args.starts})")
    wall, turns = game()
    print(f"one game of {turns} turns (template against first_turn, 9x5): {wall:.2f} s wall")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
