"""One tournament game between two sandboxed players: what a Dask worker runs.

``play(job)`` takes and returns plain dicts (so a job crosses to a worker and back as data) and
never raises for anything a player does: a player that breaks the protocol, a rule or a limit
forfeits, and the record says so in one sentence naming it.
"""

from __future__ import annotations

import time

from ..board import Board, Outcome
from ..engine.protocol import PlayerFault
from ..game import Game
from ..rules import Rules
from .sandbox import Limits, Player

COLOURS = ("white", "black")


def play(job: dict) -> dict:
    """Play the game ``job`` describes and return its result (see ``Store.record`` for the keys).

    job: ``game`` (its id), ``white`` and ``black`` (entries: name and spec or source), ``size``,
    ``rules`` (a Rules dict), ``opening`` (turn texts played first), ``max_turns`` (after the
    opening), ``limits`` (a Limits dict) and ``seed``.
    """
    started = time.perf_counter()
    rules = Rules(**job["rules"])
    board = Board(tuple(job["size"]), rules)
    start = board.fen()
    for text in job["opening"]:
        board.push(text)
    limits = Limits(**job["limits"])
    players = {
        c: Player(job[c], limits, job["seed"] * 2 + i, job["max_turns"])
        for i, c in enumerate(COLOURS)
    }
    forfeit = None
    try:
        for colour in COLOURS:  # both start at once, and load while the other does
            players[colour].pipe.open()
        for colour in COLOURS:
            try:
                players[colour].begin(board)
            except PlayerFault as e:
                forfeit = forfeit or (colour, str(e))
        played = 0
        while forfeit is None and board.outcome() is None and played < job["max_turns"]:
            colour = board.to_move.value
            try:
                board.push(players[colour].choose_turn(board.copy()))
            except PlayerFault as e:
                forfeit = (colour, str(e))
            played += 1
    finally:
        for player in players.values():
            player.close()
    if forfeit is not None:
        colour, why = forfeit
        outcome = Outcome.from_words(
            "black" if colour == "white" else "white", f"{colour} forfeits: {why}"
        )
    else:
        outcome = board.outcome() or board.adjudicate()
    record = Game(
        start,
        rules,
        [str(t) for t in board.turns],
        outcome,
        job["white"]["name"],
        job["black"]["name"],
    )
    return {
        "game": job["game"],
        "winner": outcome.winner,
        "reason": outcome.reason,
        "forfeit": forfeit[0] if forfeit else None,
        "record": record.to_json(),
        "turns": len(board.turns) - len(job["opening"]),
        "seconds": {c: players[c].seconds for c in COLOURS},
        "slowest": {c: players[c].slowest for c in COLOURS},
        "output": {c: players[c].output.decode("utf-8", "replace") for c in COLOURS},
        "wall": time.perf_counter() - started,
        "isolation": players["white"].pipe.box.isolation(),
    }
