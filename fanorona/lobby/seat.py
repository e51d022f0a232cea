"""A lobby game on the kit's own board: a remote seat is the board's opponent.

The board already plays an opponent that has ``choose_turn(board, stop)``, step by step, in its
own thread.  ``RemoteSeat`` is such an opponent: asked for a turn, it sends the student's last
turn to the lobby and waits for the classmate's, which the board then draws like the computer's.
The board's controller and its model protocol stay as they are.
"""

from __future__ import annotations

from ..board import Board, Turn
from ..rules import Rules
from .client import LobbyClient, LobbyError


class RemoteSeat:
    """The classmate's side of game ``state["game"]``, played through ``client``."""

    def __init__(self, client: LobbyClient, state: dict):
        self.client, self.id = client, state["game"]
        self.turns: list[str] = list(state["turns"])
        self.you = state["you"]
        self.name = state["black" if self.you == "white" else "white"]

    def board(self) -> Board:
        """The game so far, replayed on a board of its size and rules."""
        state = self._state()
        board = Board.from_fen(state["start"], Rules.named(state["rules"]))
        for text in self.turns:
            board.push(text)
        return board

    def _state(self) -> dict:
        return next(
            m
            for m in reversed(self.client.messages)
            if m["type"] == "game" and m["game"] == self.id
        )

    def choose_turn(self, board: Board, stop=None) -> Turn:
        """Send the student's new turn on ``board`` (if there is one), then wait for the
        classmate's and return it."""
        played = [str(t) for t in board.turns]
        if played[: len(self.turns)] != self.turns or len(played) > len(self.turns) + 1:
            raise ValueError(
                "this board has left the lobby's game: a lobby game cannot be taken back"
            )
        if len(played) == len(self.turns) + 1:
            self.client.play(self.id, len(self.turns), played[-1])
            self.turns.append(played[-1])
        ply = len(self.turns)

        def answer(m):
            return (m["type"] == "turn" and m["game"] == self.id and m["ply"] == ply) or (
                m["type"] == "over" and m["game"] == self.id
            )

        try:
            message = self.client.wait_for(answer, timeout=24 * 3600, stop=stop)
        except LobbyError as e:
            raise ValueError(str(e)) from None
        if message["type"] == "over":
            raise ValueError(f"the game is over: {message['outcome']['reason']}")
        self.turns.append(message["turn"])
        return board.parse_turn(message["turn"])


def remote_board(client: LobbyClient, state: dict, **options):
    """``fa.BoardWidget`` on the lobby game ``state`` (from ``client.accept`` or
    ``client.game``): the student's clicks go to the lobby, the classmate's turns come from it."""
    from ..ui.widget import BoardWidget

    seat = RemoteSeat(client, state)
    widget = BoardWidget(seat.board(), opponent=seat, **options)
    if seat.you == "black":
        widget.controller.set_computer("white")
    widget.controller.runner.kick()
    return widget
