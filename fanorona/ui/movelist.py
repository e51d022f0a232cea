"""The interactive board's move list: numbered lines of two turns, in boxes an update rewrites only
where they changed."""

from __future__ import annotations

import html

import ipywidgets as widgets

from .controller import turn_text

#: Lines of the move list per box: a turn played rewrites only the last box.
MOVE_BOX_LINES = 50


class MoveList:
    """The move list: numbered lines of two turns in boxes of ``MOVE_BOX_LINES`` lines, in a
    scroller that keeps the newest turn in view.  An update rewrites only the boxes whose lines
    changed, and each turn's text is made once, so a click in a long game costs what it costs in
    a short one (the whole list re-sent and re-laid out per click grew a click nine-fold by
    5,000 turns).
    """

    def __init__(self):
        self.boxes: list = []
        self.inner = widgets.VBox()
        self.inner.add_class("fanorona-moves-inner")
        self.scroller = widgets.Box([self.inner])  # column-reverse: it stays scrolled to the end
        self.scroller.add_class("fanorona-moves")
        self._turns: list = []  # (turn, its escaped text), as the model has them
        self._lead = False  # Black began: the first line starts with "…"
        self._texts: list = []

    def update(self, model, shown: int | None) -> None:
        turns = model.turns
        kept = min(len(self._turns), len(turns))
        if kept and self._turns[0][0] is not turns[0]:
            kept = 0  # another game
        while kept and self._turns[kept - 1][0] is not turns[kept - 1]:
            kept -= 1
        if not kept:
            root = getattr(model, "root", None)
            self._lead = root is not None and root().to_move == "black"
        del self._turns[kept:]
        self._turns += [(turn, html.escape(str(turn))) for turn in turns[kept:]]
        texts = ["…"] * self._lead + [text for _, text in self._turns]
        if model.chain:
            texts.append(html.escape(turn_text(model.chain)) + "…")
        if shown:
            place = shown - 1 + self._lead
            texts[place] = f'<span class="fanorona-shown">{texts[place]}</span>'
        changed = next(
            (i for i, (a, b) in enumerate(zip(texts, self._texts)) if a != b),
            min(len(texts), len(self._texts)),
        )
        self._texts = texts
        per_box = 2 * MOVE_BOX_LINES
        count = max(1, -(-len(texts) // per_box))
        while len(self.boxes) < count:
            self.boxes.append(widgets.HTML())
        for b in range(changed // per_box, count):
            first = b * per_box
            lines = [
                f"{n // 2 + 1}. " + "  ".join(texts[n : n + 2])
                for n in range(first, min(first + per_box, len(texts)), 2)
            ]
            value = f'<div class="fanorona-moves-part fanorona-text">{"<br>".join(lines)}</div>'
            if self.boxes[b].value != value:
                self.boxes[b].value = value
        if len(self.inner.children) != count:
            self.inner.children = self.boxes[:count]


__all__ = ["MOVE_BOX_LINES", "MoveList"]
