"""The interactive board's controls: the ipywidgets around the picture (buttons, choosers, sliders,
the status line, a progress bar, the move list), their layout, and showing the controller's state
in them.

The panel only shows; what a control does when used is wired by ``fanorona.ui.widget.BoardWidget``
through ``Panel.observe``, which tells a user's change from the panel's own syncing.
"""

from __future__ import annotations

import html
import json
from contextlib import contextmanager
from pathlib import Path

import ipywidgets as widgets

from .. import positions
from ..board import Board
from ..rules import PRESETS
from .adapter import ModelFault
from .controller import COMPUTER_SIDES, OVERLAYS, SIZES, size_text
from .draw import LEGEND
from .labels import LANGUAGES, labels
from .movelist import MoveList

#: Turns the Turn slider is rebuilt ahead for (see ``Panel._rebuild_replay_slider``).
SLIDER_ROOM = 64

# : The board's style sheet (wrapping rows, a scrolling move list, Large mode), shipped beside this
# module.
STYLE = (
    "<style>" + (Path(__file__).with_name("widget.css")).read_text(encoding="utf-8") + "</style>"
)

#: The buttons, by name (their labels are the names' labels); the turn's own come first, in a row.
TURN_BUTTONS = ("end_turn", "approach", "withdrawal", "undo", "undo_step", "redo")
BUTTONS = (*TURN_BUTTONS, "new_game", "computer_move", "load", "load_diagram", "export", "import")
#: The choosers and sliders, each labelled by its name's label.
CHOOSERS = ("size", "rules", "computer", "level", "language", "delay", "position", "replay")
#: What a board that is not a ``fanorona.Board`` cannot do (change size, rules, the computer,
#: replay, load or save).
BOARD_ONLY = (
    "size",
    "rules",
    "computer",
    "level",
    "replay",
    "load",
    "load_diagram",
    "export",
    "import",
)


class Panel:
    """Every control of the board, laid out around ``canvas`` (the picture's ipympl canvas) in
    ``ui``, showing the state of ``controller``."""

    def __init__(self, controller, canvas):
        self.controller = controller
        self._syncing = False
        self._slider_reach = 0  # the most turns the page's Turn slider was built for
        #: The ipywidgets controls by name (buttons, choosers, sliders, the status and move list).
        w = self.controls = {name: widgets.Button() for name in BUTTONS}
        w.update({name: widgets.ToggleButton(value=False) for name in OVERLAYS})
        w.update(
            {
                name: widgets.Dropdown(options=[""])
                for name in ("size", "rules", "computer", "level")
            }
        )
        w["language"] = widgets.Dropdown(options=[(name, code) for code, name in LANGUAGES.items()])
        w["delay"] = widgets.FloatSlider(value=0.4, min=0.0, max=2.0, step=0.1)
        w["replay"] = widgets.IntSlider(value=0, min=0, max=0, layout=widgets.Layout(width="95%"))
        w["position"] = widgets.Dropdown(options=positions.names())
        w["diagram"] = widgets.Textarea(
            placeholder="B.B\n...\nW.W", layout=widgets.Layout(width="200px", height="90px")
        )
        w["record"] = widgets.Textarea(layout=widgets.Layout(width="100%", height="140px"))
        #: A whole turn typed in the notation, played on Enter: the board without a mouse.
        w["typed"] = widgets.Text(
            placeholder="d2e3A", continuous_update=False, layout=widgets.Layout(width="16em")
        )
        self.moves = MoveList()
        w["moves"] = self.moves.scroller
        for name in ("status", "details", "search", "legend", "moves_title", "points"):
            w[name] = widgets.HTML()
            w[name].add_class(f"fanorona-{name}-box")
        w["status"].add_class("fanorona-status-line")
        w["points"].layout.display = "none"
        w["progress"] = widgets.FloatProgress(
            min=0.0, max=1.0, layout=widgets.Layout(display="none", width="16em")
        )
        w["progress_text"] = widgets.HTML(layout=widgets.Layout(display="none"))
        w["points"].add_class("fanorona-points")
        #: The live picture in words, for a screen reader: beside the canvas, hidden from sight.
        #: (Not the canvas's tooltip: ipywidgets' view of a model without a description fails on
        #: one, and the canvas is then never drawn.)
        w["picture_text"] = widgets.HTML()
        w["picture_text"].add_class("fanorona-picture-text")
        for name in CHOOSERS:
            w[name].style.description_width = "initial"
        self.ui = self._layout(canvas)

    def _layout(self, canvas) -> widgets.Box:
        w = self.controls

        def row(*children):
            box = widgets.HBox(
                list(children), layout=widgets.Layout(flex_flow="row wrap", align_items="center")
            )
            box.add_class("fanorona-wrap")
            return box

        self._more = widgets.Accordion(
            children=[
                widgets.VBox(
                    [
                        row(w["position"], w["load"]),
                        row(w["diagram"], w["load_diagram"]),
                        row(w["export"], w["import"]),
                        w["record"],
                    ]
                )
            ]
        )
        side = widgets.VBox(
            [w["moves_title"], w["moves"], w["legend"]], layout=widgets.Layout(margin="0 0 0 12px")
        )
        ui = widgets.VBox(
            [
                widgets.HTML(STYLE),
                row(canvas, side),
                w["picture_text"],
                w["status"],
                row(w["progress"], w["progress_text"]),
                w["details"],
                w["search"],
                row(*(w[name] for name in TURN_BUTTONS), w["typed"]),
                row(w["new_game"], w["size"], w["rules"], w["language"]),
                row(w["computer"], w["level"], w["computer_move"], w["delay"]),
                w["replay"],
                row(*(w[name] for name in OVERLAYS)),
                self._more,
                w["points"],
            ]
        )
        ui.add_class("fanorona-board")
        return ui

    def observe(self, name: str, react) -> None:
        """Call react(new value) when a control changes, unless the change is the panel's own
        sync."""

        def handler(change):
            if not self._syncing:
                react(change["new"])

        self.controls[name].observe(handler, names="value")

    def new_frame(self, pixels: dict) -> None:
        """The picture has a new frame: the points' pixel places published for a browser test to
        click."""
        self.controls["points"].value = json.dumps(pixels)

    def show(self, scene: dict) -> None:
        """Bring the text, the move list, the legend, the progress bar and every control up to
        date with the controller (the picture of ``scene`` was sent first)."""
        c, w = self.controller, self.controls
        t = labels(c.language)
        w[
            "status"
        ].value = f'<div class="fanorona-status fanorona-text">{html.escape(c.status)}</div>'
        w[
            "details"
        ].value = f'<div class="fanorona-details fanorona-text">{html.escape(c.details)}</div>'
        w["search"].value = f'<div class="fanorona-search">{html.escape(c.search_line)}</div>'
        self.moves.update(c.model, c.shown)
        w["legend"].value = (
            '<div class="fanorona-legend fanorona-text">'
            + "<br>".join(
                f'<span class="sym" style="color:{color}">{symbol}</span>{html.escape(t[key])}'
                for mark, (key, symbol, color) in LEGEND.items()
                if scene.get(mark)
            )
            + "</div>"
        )
        w["picture_text"].value = html.escape(picture_text(c, scene))
        self._show_progress(getattr(c, "progress", None))
        self._sync_controls()

    def _show_progress(self, progress) -> None:
        """A long wait's bar (building a table, compiling) under the status line, with the time
        left that tqdm estimates.  ``progress``: the controller's ``fanorona.ui.progress.Progress``,
        or None when nothing is waited for."""
        bar, text = self.controls["progress"], self.controls["progress_text"]
        display = "none" if progress is None else None
        if bar.layout.display != display:
            bar.layout.display = text.layout.display = display
        if progress is None:
            return
        bar.value = min(max(progress.fraction, 0.0), 1.0)
        left = f" · ⏳ {progress.left}" if progress.remaining is not None else ""
        text.value = (
            '<span class="fanorona-progress fanorona-text">'
            f"{html.escape(progress.what)} {100 * bar.value:.0f}%{left}</span>"
        )

    def _sync_controls(self) -> None:
        """Show the controller's settings in the choosers and enable only the buttons that can
        act."""
        c, w, board = self.controller, self.controls, self.controller.model
        t = labels(c.language)
        size, rules = size_text(board.size), getattr(board, "rules", None)
        total, live_person = len(board.turns), not c.replaying and not c.computer_to_move()
        settings = {
            **{name: dict(description=t[name]) for name in BUTTONS},
            **{name: dict(description=t[name], value=c.overlays[name]) for name in OVERLAYS},
            "size": dict(
                options=[size_text(s) for s in SIZES]
                + ([size] if tuple(board.size) not in SIZES else []),
                value=size,
            ),
            "rules": dict(
                options=[(t[f"preset_{p}"], p) for p in PRESETS + ("custom",)],
                value=(rules.name() or "custom") if rules is not None else "custom",
            ),
            "computer": dict(
                options=[(t[side], side) for side in COMPUTER_SIDES], value=c.computer_side
            ),
            "level": dict(options=[(self._level_name(v), v) for v in c.levels()], value=c.level),
            "language": dict(value=c.language),
            "delay": dict(value=c.delay),
            "position": dict(),
            "replay": dict(max=total, value=total if c.shown is None else c.shown),
            "moves_title": dict(value=f'<b class="fanorona-text">{html.escape(t["moves"])}</b>'),
        }
        for name in CHOOSERS:
            settings[name]["description"] = t[name]
        settings["typed"] = dict(
            description=t["typed"], disabled=not live_person or finished(board)
        )
        settings["end_turn"]["disabled"] = not (live_person and board.chain)
        settings["approach"]["disabled"] = settings["withdrawal"]["disabled"] = not (
            live_person and c.pending
        )
        settings["undo"]["disabled"] = not c.can_undo()
        settings["undo_step"]["disabled"] = not c.can_undo_step()
        settings["computer_move"]["disabled"] = c.shown is not None or finished(board)
        settings["redo"]["disabled"] = not c.can_redo()
        for name in BOARD_ONLY:
            settings[name]["disabled"] = not isinstance(board, Board)
        with self._quiet():
            for name, traits in settings.items():
                for trait, value in traits.items():
                    if getattr(w[name], trait) != (tuple(value) if trait == "options" else value):
                        setattr(w[name], trait, value)
            w["computer_move"].layout.display = None if c.paused else "none"
            # Large mode's larger controls follow the Large setting, not the picture's scale: a
            # picture shrunk to fit the page's width is not Large, and Large may not enlarge it.
            (self.ui.add_class if c.overlays["large"] else self.ui.remove_class)("fanorona-large")
            if total > self._slider_reach:
                self._rebuild_replay_slider(total)
            self._more.set_title(0, t["more"])

    def _level_name(self, level) -> str:
        """A level as the Level chooser names it: its number, "perfect" or the custom player's
        name."""
        if level == "perfect":
            return labels(self.controller.language)["perfect"]
        if level == "custom":
            return getattr(self.controller.custom_player, "name", "custom")
        return str(level)

    def _rebuild_replay_slider(self, total: int) -> None:
        """Have the page rebuild the Turn slider with room for SLIDER_ROOM more turns: its End key
        goes to the largest turn the slider was built with (noUiSlider keeps that range when
        ipywidgets updates the maximum), so without this End did nothing; a change of orientation
        is what makes ipywidgets rebuild it."""
        slider = self.controls["replay"]
        self._slider_reach = total + SLIDER_ROOM
        slider.max = self._slider_reach
        slider.orientation = "vertical"
        slider.orientation = "horizontal"
        slider.max = total

    @contextmanager
    def _quiet(self):
        """Set controls from the controller without their observers taking it for a user's
        choice."""
        before, self._syncing = self._syncing, True
        try:
            yield
        finally:  # even if setting a control failed
            self._syncing = before

    def close(self) -> None:
        """Close every widget (a closed board cannot be shown again)."""
        boxes = [self.ui, *self.moves.boxes]  # the move list's spare boxes too
        while boxes:
            box = boxes.pop()
            boxes += getattr(box, "children", ())
            box.close()


__all__ = ["BUTTONS", "SLIDER_ROOM", "STYLE", "Panel"]


def finished(model) -> bool:
    """Whether the game is over (no computer move to ask for); a model whose outcome fails is
    taken as still playing, and its fault is said in the status line."""
    try:
        return model.outcome() is not None
    except ModelFault:
        return False


def picture_text(controller, scene: dict) -> str:
    """The live picture in words, for a screen reader and as its tooltip: the size, the side to
    move, every stone by point, and which must capture."""
    board = controller.game  # the model behind the adapter that names a failing member
    try:
        at = [(p, board.stone_at(p)) for p in board.points]  # each point asked once
        stones = {
            side: ", ".join(p for p, s in at if s == side) or "-" for side in ("white", "black")
        }
        size, side = size_text(board.size), board.to_move
    except ModelFault:
        return controller.status  # which says what the model got wrong
    text = controller.sentence("picture", size=size, side=side, **stones)
    if scene.get("must"):
        text += controller.sentence("picture_must", points=", ".join(scene["must"]))
    return text
