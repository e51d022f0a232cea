"""Alpha-beta's depth and nodes a second, compiled and in pure Python, and the nodes each search
technique costs: ``python -m benchmarks bench_search``.  (An older version's search is measured
by games, ``bench_strength --old REF``, whose table gives each side's nodes a second.)"""

from __future__ import annotations

import time

TARGET_COMPILED_NODES = (
    500_000  # alpha-beta nodes a second with the compiled path, in the bench middle game
)


#: A middle game for the search figures: six turns of the old depth-3 search from the start, 14
#: stones each.
MIDDLE_GAME = "BBBBBBBBB/BB...BBBB/BWB..WWBW/WW..W.WWW/WW...WWWW w"


def search_section() -> None:
    """Depth reached and nodes a second of alpha-beta in the opening and a middle game: levels 4 and
    5 on the clock and a fixed depth 4, compiled and in pure Python.  Nodes per CPU second is the
    fairer speed on a shared machine; wall time is what a player waits.  Quiescence positions
    count as nodes too."""
    from fanorona.board import Board
    from fanorona.engine import compiled
    from fanorona.engine.ai import AlphaBetaPlayer

    positions = {"opening": Board(), "middle game": Board.from_fen(MIDDLE_GAME)}
    players = []
    for budget in ({"time_limit": 1.0}, {"time_limit": 1.8}, {"depth": 4}):
        if compiled.available():
            players.append(AlphaBetaPlayer(seed=0, compiled=True, **budget))
        players.append(AlphaBetaPlayer(seed=0, compiled=False, **budget))
    for player in players[:1]:
        player.choose_turn(Board())  # loads the compiled code outside the timings
    print(
        f"middle game: {MIDDLE_GAME}; 'compiled' is fanorona.engine.compiled (numba), "
        f"{'installed' if compiled.available() else 'not installed: no compiled rows'}"
    )
    fastest = 0.0
    print(
        f"{'position':<12} {'player':<34} {'depth':>5} {'nodes':>10} {'seconds':>8} {'CPU s':>6} "
        f"{'nodes/s':>8} "
        f"{'per CPU s':>9}  turn"
    )
    for where, board in positions.items():
        for player in players:
            cpu = time.process_time()
            turn = player.choose_turn(board)
            cpu = time.process_time() - cpu
            info = player.last_search
            label = player.name + (" compiled" if getattr(player, "compiled", False) else "")
            if (
                where == "middle game"
                and getattr(player, "compiled", False)
                and player.depth is None
            ):
                fastest = max(fastest, info.nodes / max(cpu, 1e-9))
            print(
                f"{where:<12} {label:<34} {info.depth:>5} {info.nodes:>10,} {info.time:>8.2f} "
                f"{cpu:>6.2f} "
                f"{info.nodes_per_second:>8,.0f} {info.nodes / max(cpu, 1e-9):>9,.0f}  {turn}"
            )
    if fastest:
        print(
            f"target >= {TARGET_COMPILED_NODES:,} nodes a CPU second in the middle game, "
            f"compiled: {fastest:,.0f}: "
            f"{'met' if fastest >= TARGET_COMPILED_NODES else 'MISSED'}"
        )


def techniques_section(depth: int = 5, count: int = 12) -> None:
    """Positions searched to a fixed depth, and CPU seconds, summed over positions from seeded
    games:
    today's search, and with quiescence (which searches more to see more)."""
    import random

    from fanorona.board import Board
    from fanorona.engine.ai import AlphaBetaPlayer

    rng, boards, board = random.Random(5), [], Board()
    while len(boards) < count:
        if board.outcome() is not None or len(board.turns) > 40:
            board = Board()
        board.push(rng.choice(board.legal_turns()))
        if len(board.turns) % 3 == 0:
            boards.append(board.copy())
    print(
        f"nodes to depth {depth}, summed over {count} positions from seeded random games, and CPU "
        f"seconds"
    )
    for player in (
        AlphaBetaPlayer(depth=depth, seed=0),
        AlphaBetaPlayer(depth=depth, seed=0, quiescence=True),
    ):
        cpu, nodes = time.process_time(), 0
        for b in boards:
            player.choose_turn(b)
            nodes += player.last_search.nodes
        print(f"{player.name:<32} {nodes:>10,} {time.process_time() - cpu:>8.2f}")


def main() -> None:
    search_section()
    print()
    techniques_section()


if __name__ == "__main__":
    main()
