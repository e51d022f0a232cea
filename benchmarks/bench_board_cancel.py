"""How fast a cancelled search stops: Undo while the computer thinks, measured.

``python benchmarks/bench_cancel.py`` runs each level's search from a middle-game position on
9x5 and sets its ``stop`` event after a moment (``choose_turn(board, stop=...)``; a player that
takes no ``stop`` runs on to its time limit and is measured so), then does the same through the
board: the computer thinks, Undo, and the time until its thread has ended.  The goal
is 50 ms.  Figures are medians (and the worst) of several trials.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import threading
import time
from statistics import median

import fanorona as fa
from fanorona.engine import ai, compiled
from fanorona.ui.computer import takes_stop
from fanorona.ui.controller import Controller

GOAL_MS = 50


def middle_game(seed: int = 1, turns: int = 8) -> fa.Board:
    rng = random.Random(seed)
    board = fa.Board()
    for _ in range(turns):
        board.push(rng.choice(board.legal_turns()))
    return board


def player_stop_ms(level: int, board: fa.Board, after: float) -> tuple[float, bool]:
    """Milliseconds from setting ``stop`` until ``choose_turn`` returned or raised; whether it took
    ``stop``."""
    player = ai.level(level)
    if hasattr(player, "prepare"):
        player.prepare(board, progress=False)
    stop, ended = threading.Event(), []
    took = takes_stop(player)

    def search():
        with contextlib.suppress(
            Exception
        ):  # SearchCancelled, or whatever a cancelled search raises
            player.choose_turn(board, stop=stop) if took else player.choose_turn(board)
        ended.append(time.perf_counter())

    thread = threading.Thread(target=search)
    thread.start()
    time.sleep(after)
    stopped = time.perf_counter()
    stop.set()
    thread.join()
    return (ended[0] - stopped) * 1000, took  # negative: the search had ended before the stop


def board_undo_ms(level: int, after: float, trials: int) -> list[float]:
    """Through the board, as in class: move, Undo while the computer thinks, again; milliseconds
    from each Undo until the computer's thread has ended (its player made once, as the board
    keeps it)."""
    c = Controller(opponent=level)
    c.set_delay(0)
    found = []
    for _ in range(trials + 1):  # the first round makes the player: not counted
        c.click("d3"), c.click("e3"), c.choose("approach")
        time.sleep(after)
        thread = c.runner.thread
        started = time.perf_counter()
        c.undo()
        thread.join()
        found.append((time.perf_counter() - started) * 1000)
    return found[1:]


def main(argv: list[str] | None = None) -> int:
    """Print the figures; ``argv``: the command line's options (none when run by ``make bench``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument(
        "--after", type=float, default=0.3, help="seconds of search before the stop"
    )
    args = parser.parse_args([] if argv is None else argv)
    board = middle_game()
    print(
        f"cancel latency, {args.trials} trials, stop after {args.after} s of search "
        f"(goal {GOAL_MS} ms); "
        f"compiled search: {compiled.available()}"
    )
    for level in (3, 4, 5):
        runs = [player_stop_ms(level, board, args.after) for _ in range(args.trials)]
        times, took = [ms for ms, _ in runs if ms >= 0], runs[0][1]
        note = "" if took else "  (this player takes no stop= and runs to its time limit)"
        if not times:
            print(f"  level {level} search: ended within {args.after} s, before any stop")
            continue
        print(
            f"  level {level} search: median {median(times):7.1f} ms, "
            f"worst {max(times):7.1f} ms{note}"
        )
    for level in (4, 5):
        times = board_undo_ms(level, args.after, args.trials)
        print(
            f"  board, level {level}: Undo while it thinks -> thread ended in median "
            f"{median(times):7.1f} ms, "
            f"worst {max(times):7.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
