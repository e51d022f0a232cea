"""The text protocol players speak across a pipe: its words, and the checks both ends make.

One line a message, words separated by spaces; the client (a match, the arena) asks and the player
answers each command with one line (``info`` lines may come before a ``turn``).  The full
description, with an example session, is docs/reference/player-protocol.md; the server is
``fanorona.engine.serve``, the client ``fanorona.engine.remote``.
"""

from __future__ import annotations

from ..board import Board
from ..rules import PRESETS, Rules

__all__ = [
    "MAX_LINE",
    "VERSION",
    "PlayerFault",
    "ProtocolError",
    "board_from",
    "position_line",
    "read_size",
]

#: The protocol's version, exchanged first: ``fanorona 1`` and its answer ``fanorona 1 name ...``.
VERSION = 1
#: The longest line either end reads (a position of 400 turns fits many times over).
MAX_LINE = 65_536


class ProtocolError(ValueError):
    """A line the reader cannot act on; its text is the sentence sent back as ``error ...``."""


class PlayerFault(Exception):
    """A player broke the protocol, its time or the rules: the sentence names the player and the
    line, and the match counts the game as lost by that player (a forfeit)."""

    def __init__(self, player: str, sentence: str):
        super().__init__(f"{player}: {sentence}")
        self.player = player


def read_size(word: str) -> tuple[int, int]:
    """``9x5`` as (9, 5); anything else is a ``ProtocolError``."""
    width, x, height = word.lower().partition("x")
    if not (x and width.isdigit() and height.isdigit()):
        raise ProtocolError(f"a board size is written WIDTHxHEIGHT, like 9x5; got {word!r}")
    return int(width), int(height)


def read_rules(word: str) -> Rules:
    if word not in PRESETS:
        raise ProtocolError(f"the rules are one of {', '.join(PRESETS)}; got {word!r}")
    return Rules.named(word)


def new_board(size_word: str, rules_word: str) -> Board:
    """The starting board a ``newgame SIZE RULES`` line names."""
    size = read_size(size_word)
    try:
        return Board(size, read_rules(rules_word))
    except ValueError as e:
        raise ProtocolError(f"no board {size_word}: {e}") from None


def position_line(board: Board) -> str:
    """The ``position`` line for a board played from its size's start: every turn so far, so the
    player knows the quiet turns the draw rule counts as well as the stones."""
    turns = [str(t) for t in board.turns]
    return " ".join(["position", "startpos", *(["turns", *turns] if turns else [])])


def board_from(start: Board, words: list[str], current: Board | None = None) -> Board:
    """The board a ``position`` line's words (after ``position``) describe, from ``start``, the
    board of the ``newgame``: ``startpos [turns T1 T2 ...]``.  From ``current`` (the position
    before) when it is on the way, so that a game's lines cost a turn each, not the game each."""
    if not words or words[0] != "startpos":
        raise ProtocolError("a position is written 'position startpos [turns T1 T2 ...]'")
    rest = words[1:]
    if rest and rest[0] != "turns":
        raise ProtocolError(f"after 'startpos' comes 'turns' and the turns; got {rest[0]!r}")
    board, done = start.copy(), 0
    if current is not None and [str(t) for t in current.turns] == rest[1 : len(current.turns) + 1]:
        board, done = current.copy(), len(current.turns)
    for n, text in enumerate(rest[1 + done :], start=1 + done):
        try:
            board.push(text)
        except ValueError as e:
            raise ProtocolError(f"turn {n} of the position ({text!r}) is not legal: {e}") from None
    return board
