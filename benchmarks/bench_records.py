"""A long game's memory and its record's load time: ``python -m benchmarks bench_records``."""

from __future__ import annotations

import statistics
import time
import tracemalloc


def main(turns: int = 6000, runs: int = 5) -> None:
    from fanorona.board import Board
    from fanorona.game import Game
    from fanorona.rules import Rules

    shuffle = ["a1b1", "i5h5", "b1a1", "h5i5"]  # two lone stones stepping to and fro
    tracemalloc.start()
    board = Board.from_diagram(
        "........B\n.........\n.........\n.........\nW........", rules=Rules.solved()
    )
    for n in range(turns):
        board.push(shuffle[n % 4])
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    text = Game.from_board(board).to_json()
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        Game.from_json(text)
        times.append(time.perf_counter() - began)
    print(
        f"a {turns:,}-turn game holds {held / 1e6:.1f} MB; its {len(text) / 1000:.0f} KB record "
        f"loads "
        f"in {statistics.median(times):.2f} s (median of {runs})"
    )


if __name__ == "__main__":
    main()
