"""The board's view kept up to date, and its controls wired to its actions.

``fanorona.ui.widget.BoardWidget`` composes a picture (``fanorona.ui.picture.Picture``), the
controls (``fanorona.ui.panel.Panel``) and a controller; this module is what joins them:
``refresh`` shows the controller's state after every change (the picture first, then the text),
and ``wire`` makes each button, chooser and slider act as a program calling the board does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .setup import OVERLAYS

if TYPE_CHECKING:
    from .widget import BoardWidget


def refresh(board: BoardWidget) -> None:
    """Called by the controller after every change, with its lock held: draw the scene and send
    the picture, then bring the text and the controls up to date."""
    scene = board.controller.scene()
    picture, panel = board.picture, board.panel
    if picture.update(scene, board.board.size, board.controller.overlays):
        panel.new_frame(picture.point_pixels())
    picture.send()
    panel.show(scene)


def wire(board: BoardWidget) -> None:
    """Each control acts through the board's own methods, as a program would."""
    w, c, observe = board.controls, board.controller, board.panel.observe
    actions = {
        "undo": board.undo,
        "undo_step": board.undo_step,
        "redo": board.redo,
        "end_turn": board.end_turn,
        "new_game": board.new_game,
        "approach": lambda: board.choose("approach"),
        "withdrawal": lambda: board.choose("withdrawal"),
        "computer_move": board.computer_move,
        "export": board.export_game,
        "load": lambda: guarded(board, board.load_position, w["position"].value, "load_error"),
        "load_diagram": lambda: guarded(
            board, board.load_position, w["diagram"].value or "", "load_error"
        ),
        "import": lambda: guarded(board, board.import_game, w["record"].value, "import_error"),
    }
    for name, action in actions.items():
        w[name].on_click(lambda _button, action=action: action())
    observe("size", lambda v: board.new_game(size=v))
    observe("rules", lambda v: None if v == "custom" else board.new_game(rules=v))
    observe("computer", c.set_computer)
    observe("level", c.set_level)
    observe("language", c.set_language)
    observe("delay", c.set_delay)
    observe("replay", lambda v: c.replay(None if v >= len(board.board.turns) else v))
    for name in OVERLAYS:
        observe(name, lambda v, name=name: board.show(**{name: v}))
    observe("typed", board.type_turn)


def guarded(board: BoardWidget, action, text: str, failure: str) -> None:
    """A button's action whose bad input is said in the status line, never raised into the page."""
    try:
        action(text)
    except Exception as e:  # GameRecordError, ValueError are documented; anything else is said
        board.controller.report(failure, reason=str(e) or type(e).__name__)


__all__ = ["refresh", "wire"]
