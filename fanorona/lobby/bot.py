"""A computer player as a lobby client: it takes a seat like a student and plays every turn of
its games with one of the kit's levels (for ``make lobby-demo`` and for trying the lobby out)."""

from __future__ import annotations

from ..engine.ai import level
from .client import LobbyClient
from .seat import RemoteSeat


def play_game(client: LobbyClient, state: dict, strength: int = 2, seed=None) -> dict:
    """Play the game ``state`` to its end at ``strength``; the lobby's ``over`` message."""
    player = level(strength, seed)
    seat = RemoteSeat(client, state)
    board = seat.board()
    while True:
        if board.to_move.value == seat.you and board.outcome() is None:
            turn = player.choose_turn(board.copy())
            reply = client.play(seat.id, len(seat.turns), str(turn))
            board.push(reply["turn"])
            seat.turns.append(reply["turn"])
        else:
            ply = len(seat.turns)

            def wanted(m, ply=ply):
                return m.get("game") == seat.id and (
                    m["type"] == "over" or (m["type"] == "turn" and m["ply"] == ply)
                )

            message = client.wait_for(wanted, timeout=3600)
            if message["type"] == "turn":
                board.push(message["turn"])
                seat.turns.append(message["turn"])
        over = [m for m in client.messages if m["type"] == "over" and m["game"] == seat.id]
        if over:
            return over[0]
