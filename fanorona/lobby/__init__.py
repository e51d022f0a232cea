"""The class lobby: students play each other online through one server that referees every turn
on ``fanorona.Board``, the class watches, and ranked games make a ladder.

``python -m fanorona.lobby --help`` runs it; ``LobbyClient`` connects to it from Python, and
``remote_board`` puts a lobby game on the kit's own board.
"""

from .client import LobbyClient, LobbyError
from .seat import RemoteSeat, remote_board

__all__ = ["LobbyClient", "LobbyError", "RemoteSeat", "remote_board"]
