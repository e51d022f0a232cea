"""A lobby game on the kit's own board: a remote seat is the board's opponent.

The board already plays an opponent that has ``choose_turn(board, stop)``, step by step, in its
own thread.  ``RemoteSeat`` is such an opponent: each turn the student finishes goes to the lobby
at once (a listener on the board's controller), and asked for a turn, the seat waits for the
classmate's, which the board then draws like the computer's.  The board's controller and its
model protocol stay as they are.
"""

from __future__ import annotations

import contextlib
import threading

from ..board import Board, Turn
from ..rules import Rules
from .client import LobbyClient, LobbyError

LEFT = "this board has left the lobby's game: a lobby game cannot be taken back"


class RemoteSeat:
    """The classmate's side of game ``state["game"]``, played through ``client``."""

    def __init__(self, client: LobbyClient, state: dict):
        self.client, self.id = client, state["game"]
        self.turns: list[str] = list(state["turns"])
        self.you = state["you"]
        self.name = state["black" if self.you == "white" else "white"]
        self._sending = threading.Lock()  # the board's thread and the seat's send the same turn
        self._sent: int | None = None  # the number of the last turn message sent

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

    def send_new_turn(self, board) -> None:
        """Send the student's turn just finished on ``board`` (if there is one) to the lobby;
        the board asks its opponent nothing once a game is over, so its last turn goes from here."""
        with self._sending:
            played = [str(t) for t in board.turns]
            if played == self.turns[: len(played)]:
                return  # nothing new, or the classmate's turn still being drawn
            if played[:-1] != self.turns:
                raise ValueError(LEFT)
            self._sent = self.client.send(
                "turn", game=self.id, ply=len(self.turns), turn=played[-1]
            )
            self.turns.append(played[-1])

    def choose_turn(self, board: Board, stop=None) -> Turn:
        """Send the student's new turn on ``board`` (if not sent yet), then wait for the
        classmate's and return it."""
        try:
            self.send_new_turn(board)
            if [str(t) for t in board.turns] != self.turns:
                raise ValueError(LEFT)
            ply, sent = len(self.turns), self._sent

            def answer(m):
                return (
                    (m["type"] == "turn" and m["game"] == self.id and m["ply"] == ply)
                    or (m["type"] == "over" and m["game"] == self.id)
                    or (m["type"] == "refused" and m["seq"] == sent)
                )

            message = self.client.wait_for(answer, timeout=24 * 3600, stop=stop)
        except LobbyError as e:
            raise ValueError(str(e)) from None
        if message["type"] == "refused":
            raise ValueError(message["message"])
        if message["type"] == "over":
            raise ValueError(f"the game is over: {message['outcome']['reason']}")
        with self._sending:
            self.turns.append(message["turn"])
        return board.parse_turn(message["turn"])


def remote_board(client: LobbyClient, state: dict, **options):
    """``fa.BoardWidget`` on the lobby game ``state`` (from ``client.accept`` or
    ``client.game``): the student's clicks go to the lobby as each turn ends, the classmate's
    turns come from it."""
    from ..ui.widget import BoardWidget

    seat = RemoteSeat(client, state)
    widget = BoardWidget(seat.board(), opponent=seat, **options)
    if seat.you == "black":
        widget.controller.set_computer("white")
    widget.controller.observe(lambda: _send_quietly(seat, widget.controller.game))
    widget.controller.runner.kick()
    return widget


def _send_quietly(seat: RemoteSeat, game) -> None:
    """A change on the board: send a turn just finished.  A failure is said in the status line
    when the board next asks the seat for a turn (or, after the last turn, by the lobby's
    silence: the game stays open on its clock)."""
    with contextlib.suppress(LobbyError, ValueError):
        seat.send_new_turn(game)
