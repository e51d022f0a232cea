"""A puzzle played on the interactive board: the student plays a turn, is told right or wrong,
and the computer answers along the puzzle's line (the solution after the right turn, the
refutation after a wrong one), so a wrong turn is shown losing on the board.

It composes a ``BoardWidget`` through its public API only: the computer's side is a player whose
``choose_turn`` reads the line, and a listener on the controller judges the first turn.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..board import Board, Turn
from ..engine.puzzles import Puzzle
from .widget import BoardWidget

__all__ = ["LinePlayer", "PuzzleBoard", "verdict_text"]


def verdict_text(puzzle: Puzzle, played: str) -> str:
    """What the student is told after their first turn."""
    refutation = puzzle.check(played)
    if refutation is None:
        line = " ".join(puzzle.solution[1:]) or "the game is over"
        return f"Right: {played} is the only winning turn. The winning line: {line}."
    line = " ".join(refutation.line)
    why = f" Watch the answer: {line}." if line else ""
    return f"Not {played}: it {refutation.verdict}.{why} Try again?"


class LinePlayer:
    """The computer's side of a puzzle: it plays the line that follows the student's first
    turn, and past its end (or once the student leaves it) the ``fallback`` player's turn."""

    name = "puzzle line"

    def __init__(self, puzzle: Puzzle, fallback):
        self.puzzle, self.fallback = puzzle, fallback

    def line(self, first: str) -> tuple[str, ...]:
        """The whole expected game after the student's ``first`` turn, that turn included."""
        refutation = self.puzzle.check(first)
        if refutation is None:
            return self.puzzle.solution
        return (first, *refutation.line)

    def choose_turn(self, board: Board, stop=None) -> Turn:
        played = [str(t) for t in board.turns]
        if played:
            line = self.line(played[0])
            if tuple(played) == line[: len(played)] and len(played) < len(line):
                return board.parse_turn(line[len(played)])
        return self.fallback.choose_turn(board, stop)


class PuzzleBoard:
    """A board set up on ``puzzle`` with a line of text that judges the student's first turn;
    ``Try again`` starts the puzzle over.  Display it as the last expression of a cell."""

    def __init__(self, puzzle: Puzzle, fallback=None, language: str = "en"):
        from ..engine.ai import AlphaBetaPlayer

        self.puzzle = puzzle
        board = puzzle.board()
        self.player = LinePlayer(puzzle, fallback or AlphaBetaPlayer(depth=3, seed=0))
        self.board = BoardWidget(board, opponent=self.player, language=language)
        self.board.controller.set_computer(board.to_move.other.value)
        self.board.delay = 0.3
        side = board.to_move.value.capitalize()
        self.message = widgets.HTML(f"<b>{html.escape(side)} to play and win.</b>")
        again = widgets.Button(description="Try again")
        again.on_click(lambda _button: self.restart())
        self.ui = widgets.VBox([self.message, again, self.board.ui])
        self.board.controller.observe(self._judge)

    @property
    def said(self) -> str:
        """The text of the message line."""
        return html.unescape(self.message.value.removeprefix("<b>").removesuffix("</b>"))

    def _judge(self) -> None:
        turns = self.board.board.turns
        if len(turns) == 1 and not self.board.board.chain:
            self.message.value = f"<b>{html.escape(verdict_text(self.puzzle, str(turns[0])))}</b>"

    def play(self, turn: str) -> None:
        """Play the student's turn by clicks, as the board would (for scripts and tests)."""
        board = self.board.board
        parsed = board.parse_turn(turn)
        self.board.click(parsed.start)
        for step in parsed.steps:
            self.board.click(step.destination)
            if self.board.controller.pending and step.capture:
                self.board.choose(step.capture)
        if self.board.board.chain:
            self.board.end_turn()

    def restart(self) -> None:
        from ..game import Game

        self.board.import_game(Game(self.puzzle.fen, self.puzzle.board().rules).to_json())
        self.board.controller.set_computer(self.puzzle.board().to_move.other.value)
        self.message.value = "<b>Again: find the one winning turn.</b>"

    def _repr_mimebundle_(self, **kwargs):
        return self.board.display_data(self.ui, **kwargs)
