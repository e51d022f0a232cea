"""Fanorona, the capture game from Madagascar: exact rules for teaching.

>>> import fanorona as fa
>>> b = fa.Board()
>>> [str(t) for t in b.legal_turns()]
['d2e3A', 'e2e3A', 'f2e3A', 'd3e3A', 'd3e3W']
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from .board import Board, Color, IllegalMoveError, Outcome, Step, Termination, Turn, perft
from .game import Game, GameRecordError, play_game
from .notation import NotationError
from .rules import Rules

try:
    __version__ = _version("fanorona")  # the installed metadata's, so it is never out of step
except PackageNotFoundError:  # a source tree on sys.path, never installed
    __version__ = "0+unknown"

__all__ = [
    "Board",
    "BoardWidget",
    "Color",
    "Game",
    "GameRecordError",
    "IllegalMoveError",
    "NotationError",
    "Outcome",
    "Rules",
    "Step",
    "Termination",
    "Turn",
    "perft",
    "play_game",
]


def __getattr__(name):
    """``BoardWidget`` is loaded on first use, so ``import fanorona`` needs no ipywidgets."""
    if name == "BoardWidget":
        from .ui.widget import BoardWidget

        return BoardWidget
    raise AttributeError(f"module 'fanorona' has no attribute {name!r}")
