"""A Review button for the interactive board: the computer's verdict on the game played on it,
and, for each mistake chosen, the position before it with the better turn drawn as an arrow.

It works through the board's public API (its ``board``, ``replay``, ``ax`` and ``canvas``) and
draws its arrows on the picture's axes as artists of its own, removed before the next.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..engine.review import DEFAULT_DEPTH, Review, TurnVerdict, review
from ..game import Game
from .draw import xy

__all__ = ["ReviewPanel"]

#: The better turn's arrow: green, above the stones.
ARROW = dict(arrowstyle="-|>", color="#1a9850", lw=3, mutation_scale=22, zorder=20)


class ReviewPanel:
    """``ReviewPanel(board_widget)``: its ``ui`` shows the Review button, a chooser of the
    mistakes found, and a line of text, above the board."""

    def __init__(self, board, depth: int = DEFAULT_DEPTH):
        self.widget, self.depth = board, depth
        self.result: Review | None = None
        self.arrows: list = []
        self.button = widgets.Button(description="Review", tooltip="the computer's verdict")
        self.chooser = widgets.Dropdown(options=[], description="Mistake")
        self.text = widgets.HTML("Play a game, then press Review.")
        self.button.on_click(lambda _button: self.run())
        self.chooser.observe(lambda change: self.show(change["new"]), names="value")
        self.ui = widgets.VBox(
            [widgets.HBox([self.button, self.chooser]), self.text, self.widget.ui]
        )

    def run(self) -> Review:
        """Review the game on the board and offer its mistakes in the chooser."""
        self.clear()
        self.result = review(Game.from_board(self.widget.board), self.depth)
        mistakes = self.result.mistakes()
        self.chooser.options = [(f"turn {v.number}: {v.played}", v.number) for v in mistakes]
        found = f"{len(mistakes)} mistake{'s' * (len(mistakes) != 1)}"
        self.text.value = html.escape(
            f"{found} in {len(self.result.verdicts)} turns, judged by {self.result.judge}."
        )
        if mistakes:
            self.show(mistakes[0].number)
        return self.result

    def verdict(self, number: int) -> TurnVerdict:
        if self.result is None:
            raise ValueError("press Review first: there is no review to show yet")
        return self.result.verdicts[number - 1]

    def show(self, number: int | None) -> None:
        """Show the position before turn ``number`` with the better turn as an arrow."""
        if number is None or self.result is None:
            return
        verdict = self.verdict(number)
        self.widget.replay(number - 1)
        self.clear()
        if verdict.better is not None:
            board = self.result.game.board(number - 1)
            path = board.parse_turn(verdict.better).path
            for a, b in zip(path, path[1:]):
                self.arrows.append(
                    self.widget.ax.annotate("", xy(board, b), xy(board, a), arrowprops=ARROW)
                )
            self.widget.canvas.draw_idle()
        self.text.value = html.escape(str(verdict))

    def clear(self) -> None:
        """Take the arrows off the picture."""
        for arrow in self.arrows:
            arrow.remove()
        self.arrows.clear()

    def _repr_mimebundle_(self, **kwargs):
        return self.widget.display_data(self.ui, **kwargs)
