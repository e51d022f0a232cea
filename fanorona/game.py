"""A game record: the start position, the rules, the turns and the result.

Saved as JSON; loading replays every turn, so a record that breaks a rule is refused with
the turn number and the reason instead of giving a board that never could have happened.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from .board import RULE_TERMINATIONS, Board, Outcome, Termination
from .geometry import short_repr
from .rules import Rules

FORMAT = "fanorona-game/1"


class GameRecordError(ValueError):
    """A game record that cannot be read or does not replay."""


@dataclass
class Game:
    start: str  # one-line position text of the first position
    rules: Rules = field(default_factory=Rules)
    turns: list[str] = field(default_factory=list)
    outcome: Outcome | None = None
    white: str = "white"  # player names
    black: str = "black"

    @classmethod
    def from_board(
        cls, board: Board, outcome: Outcome | None = None, white="white", black="black"
    ) -> Game:
        """The record of the turns played on ``board`` since its first position."""
        return cls(
            board.root().fen(),
            board.rules,
            [str(t) for t in board.turns],
            outcome if outcome is not None else board.outcome(),
            white,
            black,
        )

    def board(self, turns: int | None = None) -> Board:
        """The board after the first ``turns`` turns (all by default), replayed and checked."""
        board = Board.from_fen(self.start, self.rules)
        for n, text in enumerate(self.turns[:turns], 1):
            try:
                board.push(text)
            except (ValueError, TypeError) as e:
                label = text if isinstance(text, str) and len(text) < 40 else short_repr(text)
                raise GameRecordError(f"turn {n} ({label}) does not replay: {e}") from None
        return board

    def to_json(self) -> str:
        data = {
            "format": FORMAT,
            "start": self.start,
            "rules": asdict(self.rules),
            "turns": self.turns,
            "outcome": _outcome_data(self.outcome) if self.outcome else None,
            "white": self.white,
            "black": self.black,
        }
        return json.dumps(data, indent=1)

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Read a record (JSON text, or its UTF-8 bytes) and replay it.

        Whatever is wrong (bad JSON, a missing or mistyped field, a turn that does not replay, a
        result the replay does not reach) raises ``GameRecordError`` saying what.
        """
        data = _json_object(text)
        for key in ("start", "turns"):
            if key not in data:
                raise GameRecordError(f"the game record has no {key!r} field")
        if not isinstance(data["start"], str):
            raise GameRecordError(
                "the record's start is a position text like 'BBB/B.W/WWW w'; "
                f"got {short_repr(data['start'])}"
            )
        try:
            rules = _rules(data.get("rules", {}))
            Board.from_fen(data["start"], rules)
        except ValueError as e:
            raise GameRecordError(f"the game record is damaged: {e}") from None
        game = cls(
            data["start"],
            rules,
            _turns(data["turns"]),
            _outcome(data.get("outcome")),
            _name(data, "white"),
            _name(data, "black"),
        )
        game._check_outcome(game.board())
        return game

    def _check_outcome(self, final: Board) -> None:
        """A claimed result must be the replay's end, compared by termination and winner.  An
        unfinished game may end by declaration (agreement, resignation, time, in any words), but
        not by a rule that the replay does not reach, and an adjudication must count the stones the
        replay leaves."""
        claimed, reached = self.outcome, final.outcome()
        if claimed is None:
            return
        if reached is not None and claimed != reached:
            raise GameRecordError(
                f"the record says {claimed}, but the replayed game ends {reached}"
            )
        if reached is None and (
            claimed.termination in RULE_TERMINATIONS
            or (claimed.termination is Termination.ADJUDICATED and claimed != final.adjudicate())
        ):
            raise GameRecordError(
                f"the record says {claimed}, but the replayed game is not over "
                f"(adjudicated, it would be {final.adjudicate()})"
            )

    def save(self, path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def load(cls, path) -> Game:
        return cls.from_json(Path(path).read_bytes())


def _json_object(text) -> dict:
    """The record's JSON object, or the record error that says why there is none."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise GameRecordError(
                f"not a game record: byte {e.start + 1} is not UTF-8 text"
            ) from None
    if not isinstance(text, str):
        raise GameRecordError(
            f"a game record is JSON text, or its UTF-8 bytes; got {short_repr(text)}"
        )
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise GameRecordError(
            f"not a game record: invalid JSON at line {e.lineno}, column {e.colno}"
        ) from None
    except ValueError:  # a number longer than Python converts
        raise GameRecordError(
            "not a game record: it holds a number with thousands of digits"
        ) from None
    except RecursionError:
        raise GameRecordError("not a game record: its JSON is nested too deeply to read") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameRecordError(
            f'not a game record: it must be a JSON object with "format": "{FORMAT}"'
        )
    return data


def _rules(value) -> Rules:
    if not isinstance(value, dict):
        raise GameRecordError(
            f"the record's rules are an object of rule options; got {short_repr(value)}"
        )
    known = {f.name for f in fields(Rules)}
    for key, option in value.items():
        if key not in known:
            raise GameRecordError(
                f"the record's rules have no option {short_repr(key)}; "
                f"they are {', '.join(sorted(known))}"
            )
        if not isinstance(option, (bool, int, str, type(None))):
            raise GameRecordError(
                f"the record's rule {key} is true, false, a number, text or null; "
                f"got {short_repr(option)}"
            )
    return Rules(**value)


def _turns(value) -> list[str]:
    if not isinstance(value, list):
        raise GameRecordError(
            f'the record\'s turns are a list of turn texts like "d2e3A"; got {short_repr(value)}'
        )
    for n, turn in enumerate(value, 1):
        if not isinstance(turn, str):
            raise GameRecordError(
                f'turn {n} of the record is {short_repr(turn)}, not turn text like "d2e3A"'
            )
    return value


def _outcome_data(outcome: Outcome) -> dict:
    """An outcome as the record keeps it: the termination, and the sentence for people to read."""
    data: dict[str, object] = {
        "winner": outcome.winner,
        "termination": outcome.termination.value,
        "reason": outcome.reason,
    }
    if outcome.counts:
        data["counts"] = list(outcome.counts)
    return data


def _outcome(value) -> Outcome | None:
    """The record's outcome: by its termination, or (records written before terminations) by its
    reason, read as ``Outcome(winner, reason)`` reads words."""
    if value is None:
        return None
    if not isinstance(value, dict) or not {"winner", "reason"} <= set(value) <= {
        "winner",
        "reason",
        "termination",
        "counts",
    }:
        raise GameRecordError(
            "the record's outcome is null or an object with a winner, a termination and a reason; "
            f"got {short_repr(value)}"
        )
    if value["winner"] not in ("white", "black", None):
        raise GameRecordError(
            'the record\'s winner is "white", "black" or null for a draw; '
            f"got {short_repr(value['winner'])}"
        )
    if not isinstance(value["reason"], str):
        raise GameRecordError(
            f"the record's outcome reason is text; got {short_repr(value['reason'])}"
        )
    if "termination" not in value:
        try:
            return Outcome.from_words(value["winner"], value["reason"])
        except ValueError as e:
            raise GameRecordError(f"the record's outcome: {e}") from None
    kinds = {k.value: k for k in Termination}
    kind = value["termination"]
    if not isinstance(kind, str) or kind not in kinds:
        raise GameRecordError(
            f"the record's termination is one of {', '.join(kinds)}; got {short_repr(kind)}"
        )
    counts = value.get("counts", [])
    if not isinstance(counts, list):
        raise GameRecordError(
            f"the record's outcome counts are a list of numbers; got {short_repr(counts)}"
        )
    words = value["reason"] if kinds[kind] is Termination.DECLARED else ""
    try:
        return Outcome(value["winner"], kinds[kind], tuple(counts), words)
    except ValueError as e:
        raise GameRecordError(f"the record's outcome: {e}") from None


def _name(data: dict, side: str) -> str:
    name = data.get(side, side)
    if not isinstance(name, str):
        raise GameRecordError(
            f"the {side} player's name in the record is text; got {short_repr(name)}"
        )
    return name


def play_game(
    white, black, board: Board | None = None, max_turns: int | None = None, on_turn=None
) -> Game:
    """Let two players (anything with ``choose_turn(board)``) play from ``board`` and return the
    record.

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
    return Game(
        start,
        board.rules,
        [str(t) for t in board.turns[-n:]] if n else [],
        outcome,
        getattr(white, "name", str(white)),
        getattr(black, "name", str(black)),
    )
