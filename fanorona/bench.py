"""Speed figures: ``python -m fanorona.bench [section ...]`` runs the named sections (all by default).

A section is a function that prints its own figures.  To add one, write it here or in a module of
its own beside the others (``bench_widget``, ``bench_tables``, ``bench_records``: never inside the
module it measures) and register it with one line in ``SECTIONS``, e.g.
``"records": in_module("fanorona.bench_records")``.
Heavy imports happen only inside sections, so a module that does not exist yet skips its section
with a line saying so instead of breaking the others.
"""
from __future__ import annotations

import statistics
import sys
import time
from importlib import import_module

PERFT_EXPECTED = {1: 5, 2: 39, 3: 724, 4: 18026, 5: 431852}
RUNS = {1: 9, 2: 9, 3: 5, 4: 3, 5: 1}        # timing runs per depth (the median is reported)
AEC_RUNS = {1: 5, 2: 3, 3: 1}                  # fanorona-aec is slow: perft(3) once
TARGET_PERFT5_SECONDS = 5.0
TARGET_SPEEDUP = 100
TARGET_COMPILED_NODES = 500_000   # alpha-beta nodes a second with the compiled path, in the bench middle game
TARGET_OVER_BASELINE = 3      # perft(5) through fa.perft against the generator it replaced (bench_baseline)


def median_time(function, runs: int) -> tuple[object, float, float]:
    """The result of ``function()`` and the medians of ``runs`` timings: wall clock and CPU seconds.

    CPU time is the fairer figure on a shared machine; wall time is what a user waits.
    """
    walls, cpus, result = [], [], None
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        result = function()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return result, statistics.median(walls), statistics.median(cpus)


def ms(seconds: float) -> str:
    """Milliseconds with about three significant figures."""
    value = seconds * 1000
    return f"{value:.3f}" if value < 10 else f"{value:.1f}" if value < 1000 else f"{value:.0f}"


# -- fanorona-aec as a reference -----------------------------------------------------------------

AEC_START = "WWWWWWWWW/WWWWWWWWW/BWBW1BWBW/BBBBBBBBB/BBBBBBBBB W - - - 0"


def aec_turn_ends(text: str):
    """Every state text that fanorona-aec reaches at the end of a whole turn from ``text``.

    Its actions are single steps: a capture keeps the turn (and always offers END_TURN_ACTION
    next), a paika or END_TURN_ACTION ends it; so a depth-first walk over actions until the turn
    ends lists each complete turn once.  Mid-chain it lists the chain stone's captures twice,
    hence the ``set``.
    """
    from env.fanorona_move import END_TURN_ACTION, FanoronaMove, MoveType
    from env.fanorona_state import FanoronaState

    stack = [text]
    while stack:
        state_text = stack.pop()
        for action in sorted(set(FanoronaState().set_from_board_str(state_text).legal_moves)):
            state = FanoronaState().set_from_board_str(state_text)
            move = FanoronaMove.from_action(action)
            state.push(move)
            if action == END_TURN_ACTION or move.move_type == MoveType.PAIKA:
                yield str(state)
            else:
                stack.append(str(state))


def aec_perft(text: str, depth: int) -> int:
    """perft through fanorona-aec, its half-move counter reset so its draw rule never applies."""
    if depth == 0:
        return 1
    total = 0
    for end in aec_turn_ends(text):
        fields = end.split()
        total += aec_perft(" ".join(fields[:5] + ["0"]), depth - 1)
    return total


# -- sections ------------------------------------------------------------------------------------

def perft_section() -> None:
    """perft from the 9x5 start: ours and the generator it replaced at depths 1-5, fanorona-aec at
    1-3, timed in the same run."""
    from tqdm import tqdm

    from . import bench_baseline
    from .board import Board, perft
    from .movegen import bitsets

    counters = {"ours": lambda d: perft(Board(), d), "baseline": lambda d: bench_baseline.perft(Board(), d),
                "aec": lambda d: aec_perft(AEC_START, d)}
    twin = compiled_twin(Board())
    if twin is not None:
        me, opp = bitsets(Board())
        counters["compiled"] = lambda d: twin.perft(me, opp, d)
    ours = [who for who in ("ours", "baseline", "compiled") if who in counters]
    jobs = [(who, d) for d in PERFT_EXPECTED for who in ours] + [("aec", d) for d in AEC_RUNS]
    times: dict = {}
    for who, depth in tqdm(jobs, desc="perft", leave=False, file=sys.stderr):
        count, *seconds = median_time(lambda: counters[who](depth), (AEC_RUNS if who == "aec" else RUNS)[depth])
        if count != PERFT_EXPECTED[depth]:
            raise AssertionError(f"{who} perft({depth}) = {count}, expected {PERFT_EXPECTED[depth]}")
        times[who, depth] = seconds
    print_perft_table(times)


def print_perft_table(times: dict) -> None:
    """One row per depth; the ratio and speed-up compare CPU times taken in the same run."""
    print("perft from the 9x5 start, standard rules: median milliseconds, wall clock and CPU;")
    print("'before' is the generator movegen replaced (fanorona.bench_baseline), timed in this run")
    print("'compiled' is the numba twin of fanorona.compiled ('-' when it is not installed)")
    print(f"{'depth':>5} {'turns':>8} {'ours wall':>10} {'ours CPU':>10} {'before CPU':>10} {'gain':>6}"
          f" {'compiled CPU':>12} {'gain':>6} {'aec wall':>10} {'aec CPU':>10} {'speed-up':>9}")
    for depth, count in PERFT_EXPECTED.items():
        (wall, cpu), before, theirs = times["ours", depth], times["baseline", depth], times.get(("aec", depth))
        row = f"{depth:>5} {count:>8} {ms(wall):>10} {ms(cpu):>10} {ms(before[1]):>10} {before[1] / cpu:>5.1f}x"
        fast = times.get(("compiled", depth))
        row += f" {ms(fast[1]):>12} {cpu / max(fast[1], 1e-9):>5.0f}x" if fast else f" {'-':>12} {'':>6}"
        if theirs is not None:
            row += f" {ms(theirs[0]):>10} {ms(theirs[1]):>10} {theirs[1] / cpu:>8.0f}x"
        print(row)
    perft5_wall, perft5_cpu = times["ours", 5]
    gain = times["baseline", 5][1] / perft5_cpu
    speedup = times["aec", 3][1] / times["ours", 3][1]
    print(f"target perft(5) >= {TARGET_OVER_BASELINE}x faster than before: {gain:.1f}x: "
          f"{'met' if gain >= TARGET_OVER_BASELINE else 'MISSED'}")
    print(f"target perft(5) < {TARGET_PERFT5_SECONDS:g} s: {perft5_wall:.2f} s wall, {perft5_cpu:.2f} s CPU: "
          f"{'met' if perft5_cpu < TARGET_PERFT5_SECONDS else 'MISSED'}")
    print(f"target >= {TARGET_SPEEDUP}x faster than fanorona-aec at perft(3): {speedup:.0f}x: "
          f"{'met' if speedup >= TARGET_SPEEDUP else 'MISSED'}")


def compiled_twin(board):
    """The compiled generator for a board, or None (numba not installed, or switched off)."""
    from . import compiled
    from .movegen import generator
    return compiled.compiled_generator(generator(board.geometry, board.rules))


#: A middle game for the search figures: six turns of the old depth-3 search from the start, 14 stones each.
MIDDLE_GAME = "BBBBBBBBB/BB...BBBB/BWB..WWBW/WW..W.WWW/WW...WWWW w"


def search_section() -> None:
    """Depth reached and nodes a second of alpha-beta in the opening and a middle game: levels 4
    and 5 on the clock and a fixed depth 4, each beside the search it replaced (bench_baseline) with
    the same budget.  Nodes per CPU second is the fairer speed on a shared machine; wall time is
    what a player waits.  The new search counts quiescence positions as nodes too."""
    from . import bench_baseline
    from .ai import AlphaBetaPlayer
    from .board import Board

    from . import compiled

    positions = {"opening": Board(), "middle game": Board.from_fen(MIDDLE_GAME)}
    players = []
    for budget in ({"time_limit": 1.0}, {"time_limit": 1.8}, {"depth": 4}):
        if compiled.available():
            players.append(AlphaBetaPlayer(seed=0, compiled=True, **budget))
        players += [AlphaBetaPlayer(seed=0, compiled=False, **budget),
                    bench_baseline.BaselineAlphaBeta(seed=0, **budget)]
    for player in players[:1]:
        player.choose_turn(Board())      # loads the compiled code outside the timings
    print(f"middle game: {MIDDLE_GAME}; 'compiled' is fanorona.compiled (numba), "
          f"{'installed' if compiled.available() else 'not installed: no compiled rows'}")
    fastest = 0.0
    print(f"{'position':<12} {'player':<34} {'depth':>5} {'nodes':>10} {'seconds':>8} {'CPU s':>6} {'nodes/s':>8} "
          f"{'per CPU s':>9}  turn")
    for where, board in positions.items():
        for player in players:
            cpu = time.process_time()
            turn = player.choose_turn(board)
            cpu = time.process_time() - cpu
            info = player.last_search
            label = player.name + (" compiled" if getattr(player, "compiled", False) else "")
            if where == "middle game" and getattr(player, "compiled", False) and player.depth is None:
                fastest = max(fastest, info.nodes / max(cpu, 1e-9))
            print(f"{where:<12} {label:<34} {info.depth:>5} {info.nodes:>10,} {info.time:>8.2f} {cpu:>6.2f} "
                  f"{info.nodes_per_second:>8,.0f} {info.nodes / max(cpu, 1e-9):>9,.0f}  {turn}")
    if fastest:
        print(f"target >= {TARGET_COMPILED_NODES:,} nodes a CPU second in the middle game, compiled: {fastest:,.0f}: "
              f"{'met' if fastest >= TARGET_COMPILED_NODES else 'MISSED'}")


def techniques_section(depth: int = 5, count: int = 12) -> None:
    """Positions searched to a fixed depth, and CPU seconds, summed over positions from seeded games:
    the search it replaced, today's, and today's with quiescence (which searches more to see more)."""
    import random

    from . import bench_baseline
    from .ai import AlphaBetaPlayer
    from .board import Board

    rng, boards, board = random.Random(5), [], Board()
    while len(boards) < count:
        if board.outcome() is not None or len(board.turns) > 40:
            board = Board()
        board.push(rng.choice(board.legal_turns()))
        if len(board.turns) % 3 == 0:
            boards.append(board.copy())
    print(f"nodes to depth {depth}, summed over {count} positions from seeded random games, and CPU seconds")
    for player in (bench_baseline.BaselineAlphaBeta(depth=depth, seed=0), AlphaBetaPlayer(depth=depth, seed=0),
                   AlphaBetaPlayer(depth=depth, seed=0, quiescence=True)):
        cpu, nodes = time.process_time(), 0
        for b in boards:
            player.choose_turn(b)
            nodes += player.last_search.nodes
        print(f"{player.name:<32} {nodes:>10,} {time.process_time() - cpu:>8.2f}")


def in_module(module: str, function: str = "bench"):
    """A section that imports ``module`` only when run and calls its ``function()``."""
    def run() -> None:
        try:
            found = import_module(module)
        except ModuleNotFoundError as e:
            if e.name != module:
                raise
            print(f"skipped: {module} does not exist yet")
            return
        if not hasattr(found, function):
            print(f"skipped: {module} has no {function}() yet")
            return
        getattr(found, function)()
    run.module, run.function = module, function
    return run


#: Section name -> function printing its figures, in the order ``all`` runs them.
SECTIONS = {
    "perft": perft_section,
    "search": search_section,
    "techniques": techniques_section,
    "widget": in_module("fanorona.bench_widget"),
    "solve": in_module("fanorona.bench_tables", "solve_bench"),
    "endgame": in_module("fanorona.bench_tables", "endgame_bench"),
    "records": in_module("fanorona.bench_records"),
}


def main(argv: list[str]) -> int:
    names = [n for n in argv if n != "all"] or list(SECTIONS)
    unknown = [n for n in names if n not in SECTIONS]
    if unknown:
        print(f"unknown section {', '.join(unknown)}; choose from {', '.join(SECTIONS)} or all", file=sys.stderr)
        return 2
    for name in names:
        print(f"== {name}")
        SECTIONS[name]()
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
