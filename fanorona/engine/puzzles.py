"""Puzzles: positions with exactly one winning turn, each with its solution line, why the
tempting wrong turns fail, and a difficulty measured by which of the kit's players finds it.

They come from the solved small boards and the 9x5 endgame tables (exact: exactly one turn
keeps the win) and from the kit's own games on 9x5 (the search: one turn is best by at least
``GAME_MARGIN`` at two depths).  ``python -m fanorona.engine.puzzles build`` makes the shipped
collection (``puzzles.json``, package data) reproducibly; ``collection()`` reads it.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from ..board import Board, Turn, turn_of
from ..game import play_game
from ..movegen import bitsets, generator
from ..rules import Rules
from .ai import AlphaBetaPlayer, GreedyPlayer, level
from .endgame import EndgameTable, endgame_table
from .retrograde import DRAW, OPPOSITE, WIN
from .review import describe, exact_score, search_score
from .scoring import STONE
from .solve import Table, solve

__all__ = [
    "DATA",
    "LADDER",
    "Puzzle",
    "Refutation",
    "build",
    "collection",
    "exact_outcomes",
    "exact_puzzle",
    "solving_rank",
]

#: Every puzzle is played under the rules of the solution: no quiet-turn draw.
RULES = Rules.solved()
DATA = Path(__file__).with_name("puzzles.json")
#: The kit's players from weakest up, the first two its levels 2 and 3; a puzzle's rank is the
#: first that plays its winning turn.  Past level 3 the fixed depths stand in for the timed
#: levels 4 and 5, whose answers depend on the machine's speed.
LADDER = ("level2", "level3", "depth 3", "depth 4", "depth 5", "depth 6")
#: The search must prefer a game position's turn by this much over every other, at two depths.
GAME_MARGIN = 3 * STONE
GAME_DEPTHS = (3, 4)
#: At most this many tempting wrong turns get a refutation.
REFUTED = 3
#: The refutation of a drawing turn shows this many turns of the line that follows it.
DRAW_LINE = 4


@dataclass(frozen=True)
class Refutation:
    """A wrong turn, what it leads to for the player who chose it, and the line that shows it."""

    turn: str
    verdict: str
    line: tuple[str, ...]


@dataclass(frozen=True)
class Puzzle:
    """One position, its only winning turn first in ``solution``, and its measured features."""

    name: str
    fen: str
    size: tuple[int, int]
    source: str  # "solved 3x5", "endgame 9x5" or "game 9x5"
    solution: tuple[str, ...]  # the winning turn, then both sides' best play
    refutations: tuple[Refutation, ...]
    length: int  # the winner's turns in the solution
    tempting: int  # wrong turns that capture at least as many stones as the winning one
    depth: int  # the least search depth that plays the winning turn (7: none up to 6)
    rank: int  # index in LADDER of the first player that finds it (len(LADDER): none)
    difficulty: int = 0  # 1 to 5, from the features by the calibration in the collection

    def board(self) -> Board:
        return Board.from_fen(self.fen, RULES)

    @property
    def answer(self) -> str:
        return self.solution[0]

    def check(self, turn) -> Refutation | None:
        """None when ``turn`` (a Turn or its text) is the winning one, else why it fails: the
        stored refutation, or one made from the line after it."""
        board = self.board()
        text = str(board.parse_turn(str(turn)))
        if text == self.answer:
            return None
        for refutation in self.refutations:
            if refutation.turn == text:
                return refutation
        return Refutation(text, "does not win", ())

    @classmethod
    def from_dict(cls, data: dict) -> Puzzle:
        data = dict(data)
        data["size"] = tuple(data["size"])
        data["solution"] = tuple(data["solution"])
        data["refutations"] = tuple(
            Refutation(r["turn"], r["verdict"], tuple(r["line"])) for r in data["refutations"]
        )
        return cls(**data)


# -- exact values ------------------------------------------------------------------------------


def exact_outcomes(table: Table | EndgameTable, board: Board) -> list[tuple[Turn, str, int | None]]:
    """Each legal turn with its exact value for the player of it and the turns to the end."""
    if isinstance(table, Table):
        return table.outcomes(board)
    me, opp = bitsets(board)
    out = []
    for steps, me2, opp2, _captured in generator(board.geometry, table.rules).turns(me, opp):
        turn = turn_of(board.geometry, steps)
        found = (WIN, 1) if not opp2 else table.lookup(opp2, me2)
        if found is None:
            raise ValueError(f"the endgame table does not know the position after {turn}")
        value, distance = found
        if opp2:
            value, distance = OPPOSITE[value], None if distance is None else distance + 1
        out.append((turn, value, distance))
    return out


def _best_exact(outcomes):
    """The turn of a fastest win, else a draw, else the slowest loss; the first by text on ties."""

    def key(item):
        turn, value, distance = item
        return -exact_score(value, distance), str(turn)

    return min(outcomes, key=key)


def _exact_line(table, board: Board, limit: int) -> tuple[str, ...]:
    board, line = board.copy(), list[str]()
    while len(line) < limit and board.outcome() is None:
        turn = _best_exact(exact_outcomes(table, board))[0]
        board.push(turn)
        line.append(str(turn))
    return tuple(line)


def _captured(board: Board, turn: Turn) -> int:
    other = board.to_move.other
    return board.count(other) - board.after(turn).count(other)


def _tempting(board: Board, answer: str, wrong: list[Turn]) -> list[Turn]:
    """The wrong turns a player would look at first: the ones capturing most, then the ones
    capturing at least as many stones as the answer."""
    most = _captured(board, board.parse_turn(answer))
    scored = sorted(wrong, key=lambda t: (-_captured(board, t), str(t)))
    return [t for t in scored if _captured(board, t) >= most] or scored[:1]


def depth_needed(board: Board, answer: str, limit: int = 6) -> int:
    """The least fixed search depth whose turn is ``answer`` (``limit + 1`` if none up to it)."""
    for depth in range(1, limit + 1):
        if str(AlphaBetaPlayer(depth=depth, seed=0).choose_turn(board)) == answer:
            return depth
    return limit + 1


def solving_rank(board: Board, answer: str, depth: int) -> int:
    """The index in ``LADDER`` of the weakest player that plays ``answer``: greedy only if all
    of its equal choices are the answer, level 3 with seed 0, then the fixed depths."""
    greedy = GreedyPlayer(seed=0)
    choices = {str(greedy.choose_turn(board)) for _ in range(8)}
    if choices == {answer}:
        return 0
    if str(level(3, seed=0).choose_turn(board)) == answer:
        return 1
    return min(len(LADDER), max(2, depth - 1))


def exact_puzzle(table: Table | EndgameTable, board: Board, name: str, source: str):
    """The puzzle of ``board`` if exactly one of its turns wins (and it has another turn), else
    None."""
    outcomes = exact_outcomes(table, board)
    wins = [o for o in outcomes if o[1] == WIN]
    if len(wins) != 1 or len(outcomes) < 2:
        return None
    answer, distance = str(wins[0][0]), int(wins[0][2] or 0)
    solution = (answer, *_exact_line(table, board.after(answer), 2 * distance))
    wrong = [o for o in outcomes if o[1] != WIN]
    value = {str(t): (v, d) for t, v, d in wrong}
    refutations = []
    tempting = _tempting(board, answer, [t for t, _v, _d in wrong])
    for turn in tempting[:REFUTED]:
        v, d = value[str(turn)]
        after = board.after(turn)
        limit = DRAW_LINE if v == DRAW or d is None else d
        verdict = "only draws" if v == DRAW else f"loses in {d}"
        refutations.append(Refutation(str(turn), verdict, _exact_line(table, after, limit)))
    depth = depth_needed(board, answer)
    return Puzzle(
        name,
        board.fen(),
        board.size,
        source,
        solution,
        tuple(refutations),
        (distance + 1) // 2,
        len(tempting),
        depth,
        solving_rank(board, answer, depth),
    )


# -- positions of games ------------------------------------------------------------------------


def game_puzzle(board: Board, name: str, source: str):
    """The puzzle of a game position if the search puts one turn ``GAME_MARGIN`` above every
    other at each of ``GAME_DEPTHS`` (scored one turn on, one turn less deep), else None."""
    turns = board.legal_turns()
    if len(turns) < 3:
        return None
    answer, scores = None, {}
    for depth in GAME_DEPTHS:
        player = AlphaBetaPlayer(depth=depth - 1, seed=0)
        scores = {str(t): -search_score(board.after(t), player) for t in turns}
        ranked = sorted(scores, key=lambda t: (-scores[t], t))
        if scores[ranked[0]] - scores[ranked[1]] < GAME_MARGIN or answer not in (None, ranked[0]):
            return None
        answer = ranked[0]
    assert answer is not None
    line = AlphaBetaPlayer(depth=GAME_DEPTHS[-1], seed=0)
    after = board.after(answer)
    solution: tuple[str, ...] = (answer,)
    if after.outcome() is None:
        line.choose_turn(after)
        solution += tuple(line.last_search.pv if line.last_search else ())
    wrong = [t for t in turns if str(t) != answer]
    tempting = _tempting(board, answer, wrong)
    refutations = []
    for turn in tempting[:REFUTED]:
        after = board.after(turn)
        pv: tuple[str, ...] = ()
        if after.outcome() is None:
            line.choose_turn(after)
            pv = tuple(line.last_search.pv if line.last_search else ())
        verdict = f"{describe(scores[str(turn)])} where {answer} {describe(scores[answer])}"
        refutations.append(Refutation(str(turn), verdict, pv))
    depth = depth_needed(board, answer)
    return Puzzle(
        name,
        board.fen(),
        board.size,
        source,
        solution,
        tuple(refutations),
        (len(solution) + 1) // 2,
        len(tempting),
        depth,
        solving_rank(board, answer, depth),
    )


# -- the collection ----------------------------------------------------------------------------


def _exact_candidates(table, rng: random.Random, distances, per_distance: int):
    """Some won positions of each distance, drawn reproducibly."""
    if isinstance(table, Table):
        for distance in distances:
            yield from table.sample(per_distance * 40, rng, WIN, distance)
        return
    w, h = table.size
    for distance in distances:
        found = [(me, opp) for me, opp, v, d in table.entries() if v == WIN and d == distance]
        for me, opp in rng.sample(found, min(len(found), per_distance * 40)):
            rows = (
                "".join(
                    "W" if me >> (r * w + c) & 1 else "B" if opp >> (r * w + c) & 1 else "."
                    for c in range(w)
                )
                for r in reversed(range(h))
            )
            yield Board.from_diagram("\n".join(rows), "white", table.rules)


def calibrate(puzzles: list[Puzzle]) -> tuple[list[float], float]:
    """Least-squares weights of (1, length, tempting, depth) predicting the solving rank, and
    the share of puzzles whose rounded prediction is the rank itself."""
    import numpy as np

    x = np.array([[1.0, p.length, p.tempting, p.depth] for p in puzzles])
    y = np.array([p.rank for p in puzzles], dtype=float)
    weights, *_ = np.linalg.lstsq(x, y, rcond=None)
    hits = float(np.mean(np.rint(x @ weights) == y))
    return [round(float(w), 4) for w in weights], hits


def difficulty(puzzle: Puzzle, weights) -> int:
    """1 (level 2 finds it) to 5 (beyond depth 4), from the features by the fitted weights."""
    rank = weights[0] + weights[1] * puzzle.length + weights[2] * puzzle.tempting
    rank += weights[3] * puzzle.depth
    return int(min(5, max(1, round(rank) + 1)))


def build(per_source: int = 12, seed: int = 2026, games: int = 6, progress: bool = True) -> dict:
    """The collection: ``per_source`` puzzles of each solved board and distance and of the 9x5
    endgame, and the clear turns of ``games`` seeded games of level 3 against itself."""
    from tqdm.auto import tqdm

    rng = random.Random(seed)
    sources: list[tuple[Table | EndgameTable, str, tuple[int, ...]]] = [
        (solve((3, 5), RULES, progress=progress), "solved 3x5", (3, 5, 7)),
        (solve((5, 3), RULES, progress=progress), "solved 5x3", (3, 5, 7)),
        (endgame_table((9, 5), 3, RULES, progress=progress), "endgame 9x5", (3, 5, 7, 9)),
    ]
    puzzles: list[Puzzle] = []
    seen: set[str] = set()
    for table, source, distances in sources:
        for distance in distances:
            found = 0
            bar = tqdm(desc=f"{source}, win in {distance}", total=per_source, disable=not progress)
            for board in _exact_candidates(table, rng, (distance,), per_source):
                if found == per_source:
                    break
                if board.fen() in seen:
                    continue
                name = f"{source.split()[0]}-{board.size[0]}x{board.size[1]}-{len(puzzles) + 1}"
                puzzle = exact_puzzle(table, board, name, source)
                if puzzle is not None:
                    seen.add(board.fen())
                    puzzles.append(puzzle)
                    found += 1
                    bar.update()
            bar.close()
    for g in tqdm(range(games), desc="games 9x5", disable=not progress):
        record = play_game(
            level(3, seed=seed + g), level(3, seed=seed + 100 + g), Board(rules=RULES), 60
        )
        board = record.board(0)
        for text in record.turns:
            if board.fen() not in seen:
                puzzle = game_puzzle(board, f"game-9x5-{len(puzzles) + 1}", "game 9x5")
                if puzzle is not None:
                    seen.add(board.fen())
                    puzzles.append(puzzle)
            board.push(text)
    weights, hits = calibrate(puzzles)
    rated = [asdict(_rated(p, weights)) for p in puzzles]
    return {
        "format": "fanorona-puzzles/1",
        "seed": seed,
        "ladder": list(LADDER),
        "weights": weights,
        "calibration_hits": round(hits, 3),
        "puzzles": rated,
    }


def _rated(puzzle: Puzzle, weights) -> Puzzle:
    data = asdict(puzzle)
    data["difficulty"] = difficulty(puzzle, weights)
    return Puzzle.from_dict(data)


def collection(path=None) -> list[Puzzle]:
    """The shipped puzzles (or those of the file at ``path``), easiest first."""
    data = json.loads(Path(path or DATA).read_text(encoding="utf-8"))
    if data.get("format") != "fanorona-puzzles/1":
        raise ValueError(f"{path or DATA} is not a puzzle collection (no fanorona-puzzles/1)")
    puzzles = [Puzzle.from_dict(p) for p in data["puzzles"]]
    return sorted(puzzles, key=lambda p: (p.difficulty, p.name))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m fanorona.engine.puzzles")
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="generate the puzzle collection")
    make.add_argument("--out", type=Path, default=DATA)
    make.add_argument("--per-source", type=int, default=12)
    make.add_argument("--games", type=int, default=6)
    make.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    data = build(args.per_source, args.seed, args.games)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    seconds = time.perf_counter() - started
    print(
        f"{len(data['puzzles'])} puzzles in {seconds:.1f} s, written to {args.out}; "
        f"the fitted difficulty names the solving level for {data['calibration_hits']:.0%}"
    )


if __name__ == "__main__":
    main()
