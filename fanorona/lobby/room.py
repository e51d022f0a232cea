"""One live game on the server, the referee's side of it: the board, the clocks, the draw offer,
and who may do what.

Every action names who asks; an action that the asker may not take, or a turn the rules refuse,
raises ``Refusal`` with one sentence and changes nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..board import Board, Color, IllegalMoveError, Outcome
from ..game import Game
from ..notation import NotationError
from ..rules import Rules
from .words import Said


class Refusal(Said):
    """An action the lobby refuses: the sentence (by code, ``words``) says why, and nothing
    changed."""


@dataclass
class Clock:
    """Each side's time left, in seconds; the side to move's clock runs from ``since``."""

    minutes: int
    increment: int
    left: dict = field(default_factory=dict)
    since: float = 0.0

    def __post_init__(self):
        self.left = self.left or {"white": 60.0 * self.minutes, "black": 60.0 * self.minutes}

    def remaining(self, side: str, running: str | None, now: float) -> float:
        spent = now - self.since if side == running else 0.0
        return max(0.0, self.left[side] - spent)

    def press(self, side: str, running: str | None, now: float) -> None:
        """``side`` has moved: its time is charged (if its clock ran), the increment added, and
        the other clock runs from now."""
        self.left[side] = self.remaining(side, running, now) + self.increment
        self.since = now

    def stop(self, running: str | None, now: float) -> None:
        """Charge the running side up to ``now`` and stop there (a hold, or a restart)."""
        if running is not None:
            self.left[running] = self.remaining(running, running, now)
        self.since = now

    @property
    def text(self) -> str:
        return f"{self.minutes}+{self.increment}"


class LiveGame:
    """A game being played: ``number``, the two names, and the board the server referees on."""

    def __init__(self, number, white, black, size, rules, clock, ranked, now=None):
        self.number, self.white, self.black = number, white, black
        self.rules_name, self.ranked = rules, ranked
        self.board = Board(size, Rules.named(rules))
        self.clock = Clock(*clock)
        self.clock.since = time.monotonic() if now is None else now
        self.outcome: Outcome | None = None
        self.draw_offer: str | None = None
        self.watchers: set = set()
        #: Why the clocks are held (a restart waiting for its players), or None.
        self.held: str | None = None
        #: When (the lobby's clock) the game is aborted or adjudicated unless a turn or a return
        #: comes first: the first turns' wait, or a restart's.
        self.deadline: float | None = None

    @property
    def id(self) -> str:
        return f"g{self.number}"

    @property
    def started(self) -> bool:
        """Whether each side has played its first turn: the clocks run from then on."""
        return len(self.board.turns) >= 2

    @property
    def running(self) -> str | None:
        """The side whose clock runs: the side to move, once the game has started, unless the
        game is over or held."""
        if self.outcome or self.held or not self.started:
            return None
        return self.board.to_move.value

    def hold(self, sentence: str, now: float) -> None:
        """Stop the clocks until ``release``: ``sentence`` says why."""
        self.clock.stop(self.running, now)
        self.held = sentence

    def release(self, now: float) -> None:
        self.held = None
        self.clock.since = now

    def side_of(self, name: str) -> str | None:
        return "white" if name == self.white else "black" if name == self.black else None

    def _player(self, name: str) -> str:
        side = self.side_of(name)
        if side is None:
            raise Refusal("not_a_player", name=name, game=self.id)
        if self.outcome is not None:
            raise Refusal("over", game=self.id, reason=str(self.outcome))
        return side

    def time_left(self, side: str, now: float) -> float:
        return self.clock.remaining(side, self.running, now)

    # -- what players do -----------------------------------------------------------------------

    def play(self, name: str, ply: int, text: str, now: float) -> str:
        """Play ``name``'s turn ``text`` as turn number ``ply`` (counted from 0); the turn as the
        board writes it."""
        side = self._player(name)
        if ply != len(self.board.turns):
            raise Refusal("wrong_ply", ply=ply, game=self.id, now=len(self.board.turns))
        if side != self.board.to_move.value:
            raise Refusal("not_your_turn", side=self.board.to_move.value, game=self.id)
        if self.flag(now):
            raise Refusal("time_ran_out", game=self.id, reason=str(self.outcome))
        running = self.running
        try:
            self.board.push(text)
        except (IllegalMoveError, NotationError) as e:
            raise Refusal("illegal", reason=str(e)) from None
        self.clock.press(side, running, now)
        self.draw_offer = None
        self.outcome = self.board.outcome()
        return str(self.board.turns[-1])

    def resign(self, name: str) -> None:
        side = self._player(name)
        self.outcome = Outcome.from_words(Color(side).other.value, f"{side} resigned")

    def offer_draw(self, name: str) -> str:
        side = self._player(name)
        self.draw_offer = side
        return side

    def accept_draw(self, name: str, now: float) -> None:
        side = self._player(name)
        if self.flag(now):
            raise Refusal("time_ran_out", game=self.id, reason=str(self.outcome))
        if self.draw_offer != Color(side).other.value:
            raise Refusal("no_draw_offer", game=self.id)
        self.outcome = Outcome.from_words(None, "agreed by both players")

    def flag(self, now: float) -> bool:
        """End the game if the side to move has run out of time; whether it did."""
        side = self.running
        if side is None or self.time_left(side, now) > 0:
            return False
        self.clock.left[side] = 0.0
        self.outcome = Outcome.from_words(Color(side).other.value, f"{side} ran out of time")
        return True

    def abort(self, sentence: str) -> None:
        """End the game with no winner and no rating: ``sentence`` says why."""
        self.outcome = Outcome.from_words(None, f"aborted: {sentence}")
        self.ranked = False

    def end(self, instructor: str) -> None:
        if self.outcome is not None:
            raise Refusal("over", game=self.id, reason=str(self.outcome))
        self.outcome = Outcome.from_words(None, f"ended by the instructor {instructor}")

    # -- what everyone sees --------------------------------------------------------------------

    def record(self) -> Game:
        return Game.from_board(self.board, self.outcome, self.white, self.black)

    def clocks(self, now: float) -> dict:
        return {s: round(self.time_left(s, now), 2) for s in ("white", "black")}

    def state(self, now: float, you: str | None = None) -> dict:
        """The whole game as a message: enough to draw it, follow it, or take a seat again."""
        w, h = self.board.size
        return {
            "type": "game",
            "game": self.id,
            "white": self.white,
            "black": self.black,
            "you": self.side_of(you) if you else None,
            "size": f"{w}x{h}",
            "rules": self.rules_name,
            "clock": self.clock.text,
            "ranked": self.ranked,
            "start": self.board.root().fen(),
            "turns": [str(t) for t in self.board.turns],
            "fen": self.board.fen(),
            "to_move": self.board.to_move.value,
            "clocks": self.clocks(now),
            "draw_offer": self.draw_offer,
            "held": self.held,
            "outcome": outcome_data(self.outcome),
            "legal": self.legal(),
        }

    def legal(self) -> list[str]:
        """The side to move's legal turns, for a page that offers only those."""
        return [] if self.outcome else [str(t) for t in self.board.legal_turns()]


def outcome_data(outcome: Outcome | None) -> dict | None:
    return None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason}
