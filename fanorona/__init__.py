"""Fanorona, the capture game from Madagascar: exact rules for teaching.

>>> import fanorona as fa
>>> b = fa.Board()
>>> [str(t) for t in b.legal_turns()]
['d2e3A', 'e2e3A', 'f2e3A', 'd3e3A', 'd3e3W']
"""
from .board import Board, Color, IllegalMoveError, Outcome, Step, Turn, perft
from .notation import NotationError
from .rules import Rules

__all__ = ["Board", "Color", "IllegalMoveError", "NotationError", "Outcome", "Rules", "Step", "Turn", "perft"]
