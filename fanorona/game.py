"""A game record: the start position, the rules, the turns and the result.

Saved as JSON; loading replays every turn, so a record that breaks a rule is refused with
the turn number and the reason instead of giving a board that never could have happened.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .board import Board, IllegalMoveError, Outcome
from .notation import NotationError
from .rules import Rules

FORMAT = "fanorona-game/1"


class GameRecordError(ValueError):
    """A game record that cannot be read or does not replay."""


@dataclass
class Game:
    start: str                                   # one-line position text of the first position
    rules: Rules = field(default_factory=Rules)
    turns: list[str] = field(default_factory=list)
    outcome: Outcome | None = None
    white: str = "white"                         # player names
    black: str = "black"

    @classmethod
    def from_board(cls, board: Board, outcome: Outcome | None = None, white="white", black="black") -> "Game":
        """The record of the turns played on ``board`` since its first position."""
        return cls(board.root().fen(), board.rules, [str(t) for t in board.turns],
                   outcome if outcome is not None else board.outcome(), white, black)

    def board(self, turns: int | None = None) -> Board:
        """The board after the first ``turns`` turns (all by default), replayed and checked."""
        board = Board.from_fen(self.start, self.rules)
        for n, text in enumerate(self.turns[:turns], 1):
            try:
                board.push(text)
            except (IllegalMoveError, NotationError) as e:
                raise GameRecordError(f"turn {n} ({text}) does not replay: {e}") from None
        return board

    def to_json(self) -> str:
        data = {"format": FORMAT, "start": self.start, "rules": asdict(self.rules), "turns": self.turns,
                "outcome": asdict(self.outcome) if self.outcome else None,
                "white": self.white, "black": self.black}
        return json.dumps(data, indent=1)

    @classmethod
    def from_json(cls, text: str) -> "Game":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise GameRecordError(f"not a game record: invalid JSON at line {e.lineno}, column {e.colno}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise GameRecordError(f"not a game record: it must be a JSON object with \"format\": \"{FORMAT}\"")
        try:
            rules = Rules(**data.get("rules", {}))
            outcome = Outcome(**data["outcome"]) if data.get("outcome") else None
            game = cls(data["start"], rules, list(data["turns"]), outcome,
                       data.get("white", "white"), data.get("black", "black"))
            Board.from_fen(game.start, rules)
        except KeyError as e:
            raise GameRecordError(f"the game record has no {e.args[0]!r} field") from None
        except (TypeError, ValueError) as e:
            raise GameRecordError(f"the game record is damaged: {e}") from None
        final = game.board()
        if game.outcome is not None and final.outcome() is not None and final.outcome() != game.outcome:
            raise GameRecordError(f"the record says {game.outcome}, but the replayed game ends {final.outcome()}")
        return game

    def save(self, path) -> None:
        Path(path).write_text(self.to_json())

    @classmethod
    def load(cls, path) -> "Game":
        return cls.from_json(Path(path).read_text())


def play_game(white, black, board: Board | None = None, max_turns: int | None = None, on_turn=None) -> Game:
    """Let two players (anything with ``choose_turn(board)``) play from ``board`` and return the record.

    ``on_turn(board, turn)`` is called after each turn. A game cut by ``max_turns`` is adjudicated
    on stones.
    """
    board = Board() if board is None else board.copy()
    start = board.fen()
    players = {"white": white, "black": black}
    n = 0
    while board.outcome() is None and (max_turns is None or n < max_turns):
        player = players[board.to_move.value]
        turn = player.choose_turn(board.copy())
        board.push(turn)
        n += 1
        if on_turn is not None:
            on_turn(board, turn)
    outcome = board.outcome() or board.adjudicate()
    return Game(start, board.rules, [str(t) for t in board.turns[-n:]] if n else [], outcome,
                getattr(white, "name", str(white)), getattr(black, "name", str(black)))
