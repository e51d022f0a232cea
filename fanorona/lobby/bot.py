"""A computer player as a lobby client: it takes a seat like a student and plays every turn of
its games with one of the kit's levels, or with a player in a program of its own reached through
the text protocol's client (for ``make lobby-demo``, for trying the lobby out, and for entering a
program in any language)."""

from __future__ import annotations

from ..engine.ai import level
from ..engine.arena import arena_player
from ..engine.protocol import PlayerFault
from .client import LobbyClient
from .seat import RemoteSeat


def play_game(client: LobbyClient, state: dict, strength: int | str = 2, seed=None) -> dict:
    """Play the game ``state`` to its end; the lobby's ``over`` message.  ``strength`` is a kit
    level (1 to 5) or a player's spec (``arena.arena_player``'s: ``level5``, ``greedy``, or
    ``program:COMMAND`` for a program that speaks docs/reference/player-protocol.md).  A player
    that breaks the protocol resigns the game; the ``over`` message then carries its sentence
    as ``fault``."""
    player = level(strength, seed) if isinstance(strength, int) else arena_player(strength, seed)
    try:
        return _play(client, state, player)
    finally:
        close = getattr(player, "close", None)
        if close is not None:
            close()


def _play(client: LobbyClient, state: dict, player) -> dict:
    seat = RemoteSeat(client, state)
    board = seat.board()
    fault = None
    while True:
        if board.to_move.value == seat.you and board.outcome() is None and fault is None:
            try:
                turn = player.choose_turn(board.copy())
            except PlayerFault as e:
                fault = str(e)
                client.send("resign", game=seat.id)
                continue
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
            return {**over[0], "fault": fault} if fault else over[0]
