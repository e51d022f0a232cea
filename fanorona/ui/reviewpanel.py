"""A Review button for the interactive board: the computer's verdict on the game played on it,
and, for each mistake chosen, the position before it with the better turn drawn as an arrow.

It works through the board's public API (its ``board``, ``replay``, ``ax`` and ``canvas``) and
draws its arrows on the picture's axes as artists of its own, removed before the next.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..engine.review import DEFAULT_DEPTH, Review, TurnVerdict, review, standing
from ..game import Game
from .draw import xy
from .labels import labels, say

__all__ = ["ReviewPanel"]

#: The better turn's arrow: green, above the stones.
ARROW = dict(arrowstyle="-|>", color="#1a9850", lw=3, mutation_scale=22, zorder=20)


class ReviewPanel:
    """``ReviewPanel(board_widget)``: its ``ui`` shows the Review button, a chooser of the
    mistakes found, and a line of text, above the board; its words are in the board's language."""

    def __init__(self, board, depth: int = DEFAULT_DEPTH):
        self.widget, self.depth = board, depth
        self.result: Review | None = None
        self.arrows: list = []
        self.button = widgets.Button()
        self.chooser = widgets.Dropdown(options=[])
        self.text = widgets.HTML()
        self.button.on_click(lambda _button: self.run())
        self.chooser.observe(lambda change: self.show(change["new"]), names="value")
        self.ui = widgets.VBox(
            [widgets.HBox([self.button, self.chooser]), self.text, self.widget.ui]
        )
        self.words()
        self.text.value = html.escape(say(self.language, "review_start"))

    @property
    def language(self) -> str:
        return self.widget.language

    def words(self) -> None:
        """Label the button and the chooser in the board's language."""
        self.button.description = labels(self.language)["review"]
        self.button.tooltip = labels(self.language)["review_tip"]
        self.chooser.description = labels(self.language)["review_mistake"]

    def run(self) -> Review:
        """Review the game on the board and offer its mistakes in the chooser, the first chosen."""
        self.clear()
        self.words()
        self.result = review(Game.from_board(self.widget.board), self.depth)
        mistakes = self.result.mistakes()
        self.chooser.options = [(self.turn_name(v), v.number) for v in mistakes]
        exact = any(v.exact for v in self.result.verdicts)
        size = "x".join(map(str, self.result.game.board(0).size))
        judge = (
            ("review_table", {"size": size}) if exact else ("review_search", {"depth": self.depth})
        )
        self.text.value = html.escape(
            say(
                self.language,
                "review_found",
                mistakes=len(mistakes),
                turns=len(self.result.verdicts),
                judge=judge,
            )
        )
        if mistakes:  # the chooser shows the first mistake, and the board its position
            self.chooser.value = mistakes[0].number
            self.show(mistakes[0].number)
        return self.result

    def turn_name(self, verdict: TurnVerdict) -> str:
        """The turn as the move list names it, in the board's language."""
        side = labels(self.language)[verdict.color]
        return labels(self.language)["review_turn"].format(
            move=verdict.move, side=side[:1].upper() + side[1:], played=verdict.played
        )

    def value_words(self, score: float, verdict: TurnVerdict) -> str:
        """A value as the review says it, in the board's language."""
        text = labels(self.language)
        kind, side, amount = standing(score, verdict.color, verdict.exact)
        name = text[side] if side else ""
        if kind == "wins":
            key = "review_wins_one" if amount == 1 else "review_wins"
            return text[key].format(side=name, n=int(amount))
        if kind in ("draw", "even"):
            return text["review_draw"] if kind == "draw" else text["review_even"]
        stones = f"{amount:.1f}".replace(".", text["decimal_point"])
        return text["review_ahead"].format(side=name, stones=stones)

    def sentence(self, verdict: TurnVerdict) -> str:
        """The verdict on one turn, in the board's language."""
        text = labels(self.language)
        line = text["review_verdict"].format(
            turn=self.turn_name(verdict),
            before=self.value_words(verdict.before, verdict),
            after=self.value_words(verdict.after, verdict),
        )
        if verdict.better is not None:
            line = text["review_better"].format(verdict=line, better=verdict.better)
        return line

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
        self.text.value = html.escape(self.sentence(verdict))

    def clear(self) -> None:
        """Take the arrows off the picture."""
        for arrow in self.arrows:
            arrow.remove()
        self.arrows.clear()

    def _repr_mimebundle_(self, **kwargs):
        return self.widget.display_data(self.ui, **kwargs)
