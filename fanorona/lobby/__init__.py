"""The class lobby: students play each other online through one server that referees every turn
on ``fanorona.Board``, the class watches, and ranked games make a ladder.

``python -m fanorona.lobby --help`` runs it; ``LobbyClient`` connects to it from Python, and
``remote_board`` puts a lobby game on the kit's own board.
"""

from .._extras import require

require("lobby", "The class lobby", "websockets", "starlette", "uvicorn", "openskill")

from .client import LobbyClient, LobbyError  # noqa: E402
from .seat import RemoteSeat, remote_board  # noqa: E402

__all__ = ["LobbyClient", "LobbyError", "RemoteSeat", "remote_board"]
