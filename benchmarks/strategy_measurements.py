"""The figures behind notebook 15, strategy measured: ``python benchmarks/strategy_measurements.py``
plays seeded self-play games on 9x5 and writes ``notebooks/strategy_measurements.json``.

- Chains that end on an unsafe point (the opponent's next turn can take the stone that moved)
  against those that end safe: how often the stone is taken back, and the stones lost in the
  reply, for levels 2 and 3 each playing itself.
- The recapture counted or not: the net stones of a capture and its reply for level 2 (greedy,
  counts nothing) and level 3 (a two-turn search), and level 3 against level 2, both colours.
- The opening as a wave of exchanges: stones captured a turn, turn by turn, in level-3 games.
- The five first turns: the search's value of each (depth 4, as the review judges) and level 3
  against itself from each.
Everything is seeded, so a second run writes the same file; each count is bounded.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

from fanorona import Board, Rules
from fanorona.engine.ai import level
from fanorona.engine.review import Judge
from fanorona.game import play_game
from fanorona.movegen import bitsets, generator

OUT = Path(__file__).resolve().parent.parent / "notebooks" / "strategy_measurements.json"
RULES = Rules.solved()
GAMES = 40  # self-play games of each level
TURNS = 80  # at most, each game (then adjudicated on stones)
OPENING_GAMES = 12  # level 3 against itself from each first turn
WAVE_TURNS = 40
#: Every game starts with this many seeded random turns (after the first turn measured, for the
#: openings): the tournament's way to make fixed-depth players play different games.
RANDOM_PLIES = 2


def takeable(board: Board, point: str) -> bool:
    """Whether the side to move on ``board`` has a turn that takes the stone on ``point``."""
    me, opp = bitsets(board)
    bit = 1 << board.geometry.index[point]
    return any(
        not opp_after & bit
        for _s, _me, opp_after, _c in generator(board.geometry, RULES).turns(me, opp)
    )


def chain_endings(games) -> dict:
    """Capturing turns by where they end, and what the reply did to the stone that moved."""
    counts = {kind: {"turns": 0, "taken_back": 0, "stones_lost": 0} for kind in ("safe", "unsafe")}
    for game in games:
        board = game.board(0)
        for n, text in enumerate(game.turns):
            turn = board.parse_turn(text)
            board.push(turn)
            if not turn.is_capture or board.outcome() is not None or n + 1 >= len(game.turns):
                continue
            end = turn.path[-1]
            kind = "unsafe" if takeable(board, end) else "safe"
            mover = board.to_move.other
            reply = board.after(game.turns[n + 1])
            entry = counts[kind]
            entry["turns"] += 1
            entry["taken_back"] += reply.stone_at(end) != mover
            entry["stones_lost"] += board.count(mover) - reply.count(mover)
    return counts


def exchanges(games, side_of) -> dict:
    """The net stones of each capture by the measured player and the reply to it."""
    captured = lost = turns = 0
    for game in games:
        board = game.board(0)
        for n, text in enumerate(game.turns[:-1]):
            mover = board.to_move
            other = mover.other
            if not side_of(game, mover.value):
                board.push(text)
                continue
            before_other, before_me = board.count(other), board.count(mover)
            board.push(text)
            if board.count(other) == before_other:
                continue
            reply = board.after(game.turns[n + 1])
            turns += 1
            captured += before_other - board.count(other)
            lost += before_me - reply.count(mover)
    return {"captures": turns, "stones_taken": captured, "stones_lost_in_reply": lost}


def score(game, side: str) -> float:
    winner = game.outcome.winner if game.outcome else None
    return 0.5 if winner is None else float(winner == side)


def opened(seed: int, board: Board | None = None) -> Board:
    """``board`` (the start by default) after ``RANDOM_PLIES`` seeded random turns: without them
    the fixed-depth levels would play the same game every time."""
    rng, board = random.Random(seed), (board or Board(rules=RULES)).copy()
    for _ in range(RANDOM_PLIES):
        if board.outcome() is None:
            board.push(rng.choice(board.legal_turns()))
    return Board.from_fen(board.fen(), RULES)


def self_play(n: int, first_seed: int) -> list:
    return [
        play_game(
            level(n, seed=first_seed + 2 * g),
            level(n, seed=first_seed + 2 * g + 1),
            opened(first_seed + g),
            TURNS,
        )
        for g in range(GAMES)
    ]


def main() -> None:
    started = time.perf_counter()
    games = {n: self_play(n, 1000 * n) for n in (2, 3)}
    head_to_head = [
        play_game(
            level(3, seed=g) if g % 2 == 0 else level(2, seed=g),
            level(2, seed=g + 500) if g % 2 == 0 else level(3, seed=g + 500),
            opened(g),
            TURNS,
        )
        for g in range(GAMES)
    ]
    level3_score = sum(
        score(g, "white" if g.white == "level3" else "black") for g in head_to_head
    ) / len(head_to_head)
    wave = [0.0] * WAVE_TURNS
    for game in games[3]:
        board = game.board(0)
        for n, text in enumerate(game.turns[:WAVE_TURNS]):
            other = board.to_move.other
            before = board.count(other)
            board.push(text)
            wave[n] += (before - board.count(other)) / len(games[3])
    judge = Judge(depth=4)
    start = Board(rules=RULES)
    openings = {}
    for turn in start.legal_turns():
        after = start.after(turn)
        played = [
            play_game(level(3, seed=7000 + g), level(3, seed=8000 + g), opened(g, after), TURNS)
            for g in range(OPENING_GAMES)
        ]
        openings[str(turn)] = {
            "captured": start.count("black") - after.count("black"),
            "value_for_white": -judge.score(after, after_turn=True),
            "white_score": sum(score(g, "white") for g in played) / len(played),
            "games": len(played),
        }
    data = {
        "how": (
            f"seeded self-play on 9x5 under Rules.solved(), games of at most {TURNS} turns "
            f"(then adjudicated on stones), each after {RANDOM_PLIES} seeded random turns (the "
            f"wave counts turns from there); {GAMES} games a level; "
            "benchmarks/strategy_measurements.py"
        ),
        "chain_endings": {f"level{n}": chain_endings(games[n]) for n in (2, 3)},
        "exchanges": {f"level{n}": exchanges(games[n], lambda game, side: True) for n in (2, 3)},
        "level3_against_level2": {"games": len(head_to_head), "level3_score": level3_score},
        "wave_stones_per_turn": [round(v, 3) for v in wave],
        "openings": openings,
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    seconds = time.perf_counter() - started
    print(f"wrote {OUT.name} in {seconds:.0f} s; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
