"""How long the computer's review of a whole 9x5 game takes: ``python -m benchmarks bench_review``.

Two seeded level-3 players play 100 turns on 9x5 (adjudicated if not over), and the game is
reviewed at the review's default depth: two fixed-depth searches a turn (the position before,
one turn less deep after), the 3-stone endgame table read near the end.  The target is 30 s.
"""

from __future__ import annotations

import os
import statistics
import time

TARGET_S = 30.0
RUNS = 3


def hundred_turn_game(seed: int = 7):
    """A 9x5 game of exactly 100 turns between seeded level-3 players (the first seed that
    lasts that long)."""
    from fanorona import Board, Rules
    from fanorona.engine.ai import level
    from fanorona.game import play_game

    for s in range(seed, seed + 50):
        game = play_game(level(3, seed=s), level(3, seed=s + 1), Board(rules=Rules.solved()), 100)
        if len(game.turns) == 100:
            return game
    raise RuntimeError("no seeded game lasted 100 turns")


def main() -> None:
    from fanorona.engine.review import DEFAULT_DEPTH, review

    game = hundred_turn_game()
    review(game, depth=1)  # loads the endgame table outside the timings
    times, found = [], 0
    for _ in range(RUNS):
        started = time.perf_counter()
        result = review(game)
        times.append(time.perf_counter() - started)
        found = len(result.mistakes())
    median = statistics.median(times)
    load = os.getloadavg()[0]
    print(
        f"review of a 100-turn 9x5 game at depth {DEFAULT_DEPTH}: median {median:.1f} s of "
        f"{RUNS} (target {TARGET_S:.0f} s), {found} mistakes marked; load average {load:.1f}"
    )


if __name__ == "__main__":
    main()
