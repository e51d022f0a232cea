"""The interactive board: a game of Fanorona played by clicking, in JupyterLab or Voilà.

Model, view, control.  The model is a ``fanorona.Board`` (or any object following
``fanorona.ui.controller.Model``, such as a student's own class); the control is
``fanorona.ui.controller.Controller``, plain Python that tests drive without a browser; this module
is the view and the wiring: an ipympl canvas and ipywidgets controls that show the controller's
state and forward clicks to it.  The view is two parts, composed here: the picture
(``fanorona.ui.picture.Picture``) and the controls (``fanorona.ui.panel.Panel``).

The board's frame is drawn once; a click redraws only the stones and marks, and the picture is
sent before the status text, so the two never disagree on the screen.
"""

from __future__ import annotations

import base64

from ..board import Board
from .controller import SIZES, Controller
from .labels import LABELS
from .panel import Panel
from .picture import MAX_WIDTH, Picture
from .typed import play_typed
from .wiring import refresh, wire


def _setting(name: str, setter: str, doc: str) -> property:
    """A property read from what the controller shows and set through its checking setter."""
    return property(
        lambda self: getattr(self.controller.shows, name),
        lambda self, value: getattr(self.controller, setter)(value),
        doc=doc,
    )


class BoardWidget:
    """A board to play on by clicking, with undo, replay, a computer opponent and overlays.

    ``board``: a position to start from (a ``fanorona.Board``, copied; ``size`` and ``rules`` are
    then ignored), or your own model: any object with the methods of ``ui.controller.Model``
    (size, points, to_move, turns, chain, chain_stone, stone_at, legal_steps, captures, push, pop,
    end_turn, outcome) is played as it is.  ``opponent``: None, a level 1-5, or any player with
    ``choose_turn(board)``; it plays Black.  ``language``: "en", "da", "de" or "cs".
    ``max_width``: the widest the picture may be, in pixels (the default fits JupyterLab's output
    area on a 1024x768 projector, Large mode too); None: no limit, as on a Voilà page.
    Display it as the last expression of a cell.
    """

    def __init__(
        self,
        board=None,
        size=(9, 5),
        rules=None,
        opponent=None,
        language: str = "en",
        max_width: int | None = MAX_WIDTH,
    ):
        if max_width is not None and (
            isinstance(max_width, bool) or not isinstance(max_width, int) or max_width < 200
        ):
            raise ValueError(
                f"max_width is a number of pixels of at least 200, or None; got {max_width!r}"
            )
        model = board.copy() if isinstance(board, Board) else board
        self.controller = Controller(
            model, size=size, rules=rules, opponent=opponent, language=language
        )
        #: The picture on its ipympl canvas (``fanorona.ui.picture.Picture``); its ``figure``,
        #: ``canvas`` and ``ax`` are this board's too.
        p = self.picture = Picture(self.controller.lock, self.click, max_width)
        self.figure, self.canvas, self.ax = p.figure, p.canvas, p.ax
        #: The controls around the picture (``fanorona.ui.panel.Panel``).
        self.panel = Panel(self.controller.shows, self.canvas)
        #: The ipywidgets controls by name (buttons, choosers, sliders, the status and move list).
        self.controls = self.panel.controls
        #: The whole board, picture and controls, as one ipywidgets box.
        self.ui = self.panel.ui
        wire(self)
        self.controller.observe(lambda: refresh(self))
        with self.controller.lock:
            refresh(self)
        self.controller.runner.kick()

    # -- what a program (or a test) does, as the buttons do it ---------------------------------

    def click(self, point: str) -> None:
        """Act on a click at ``point``: select a stone, move it, or choose a capture; else say
        why not."""
        self.controller.click(point)

    def choose(self, kind: str) -> None:
        """Settle a step that captures both ways: ``"approach"`` or ``"withdrawal"``."""
        self.controller.choose(kind)

    def end_turn(self) -> None:
        """Stop the capture chain in progress here (where the rules let it stop)."""
        self.controller.end_turn()

    def undo(self) -> None:
        """Take back a whole turn; against the computer, back to your turn."""
        self.controller.undo()

    def type_turn(self, text: str) -> None:
        """Play a whole turn typed in the notation (what the typed-turn box does on Enter); a
        turn that cannot be played is said in the status line and changes nothing."""
        if text.strip():
            play_typed(self.controller, text)
        self.controls["typed"].value = ""

    def undo_step(self) -> None:
        """Take back one step of a person's turn (unavailable, with a sentence, for the
        computer's)."""
        self.controller.undo_step()

    def redo(self) -> None:
        """Play again a turn taken back by ``undo`` (and the computer's answer to it)."""
        self.controller.redo()

    def computer_move(self) -> None:
        """Let the computer move after a loaded position paused it."""
        self.controller.computer_move()

    def new_game(self, size=None, rules=None) -> None:
        """Start again, keeping the size and rules unless new ones are given."""
        self.controller.new_game(size, rules)

    def load_position(self, name_or_diagram: str) -> None:
        """Set up a named teaching position, a diagram or a one-line position text (ValueError if
        bad).

        If the computer plays the side to move, it waits for the Computer move button.
        """
        self.controller.load_position(name_or_diagram)

    def import_game(self, text: str) -> None:
        """Replace the game by a JSON game record; one that does not replay raises
        GameRecordError."""
        self.controller.import_game(text)

    def export_game(self) -> str:
        """The game so far as a ``fanorona.Game`` JSON record (also put in the record box)."""
        text = self.controller.export_game()
        self.controls["record"].value = text
        self.controller.report("exported")
        return text

    def replay(self, turns: int | None) -> None:
        """Show the position after the first ``turns`` turns (None: the live game, where clicks
        play)."""
        self.controller.replay(turns)

    def show(self, **overlays: bool) -> None:
        """Switch overlays: strings, legal, names, strong, large (for a projector)."""
        self.controller.set_overlays(**overlays)

    def wait(self, timeout: float = 60.0) -> None:
        """Block until the computer has finished moving (for tests and scripts; never in a
        callback)."""
        self.controller.runner.wait(timeout)

    def close(self) -> None:
        """Stop the computer and close every widget (a closed board cannot be shown again)."""
        with self.controller.lock:
            self.controller.runner.cancel()
        self.panel.close()

    # -- what it shows ---------------------------------------------------------------------------

    board = property(lambda self: self.controller.model, doc="The model being played.")
    status = property(lambda self: self.controller.status, doc="The short status line.")
    search = property(
        lambda self: self.controller.shows.search, doc="The computer's last search, in its words."
    )
    moves = property(
        lambda self: self.controller.moves, doc="The move list, one numbered line a pair of turns."
    )
    error = property(
        lambda self: self.controller.error, doc="The last failure inside the computer or the model."
    )

    language = _setting(
        "language",
        "set_language",
        'The language of labels and sentences: "en", "da", "de" or "cs".',
    )
    computer = _setting(
        "computer_side",
        "set_computer",
        "Who the computer plays: 'nobody', 'white', 'black' or 'both'.",
    )
    level = _setting(
        "level",
        "set_level",
        "The computer's level: 1 to 5, 'perfect' on small boards, or 'custom'.",
    )
    delay = _setting(
        "delay", "set_delay", "Seconds between the computer's animated steps (0 for tests)."
    )

    def point_pixels(self) -> dict[str, tuple[float, float]]:
        """Each point's place on the canvas as fractions of its width and height, from the top left.

        The same table is in a hidden element of the page, so a browser test can click a point.
        """
        return self.picture.point_pixels()

    def picture_png(self) -> bytes:
        """The board's picture as it is now, as PNG bytes."""
        return self.picture.png()

    def _repr_mimebundle_(self, **kwargs):
        """A cell that ends with the board shows it live; a page without a kernel (a static site, a
        notebook viewer) shows its picture instead, and the text says how to play it."""
        return self.display_data(self.ui, **kwargs)

    def display_data(self, ui, **kwargs) -> dict:
        """The display data of ``ui``, a view holding this board (a puzzle, a review), with the
        board's picture for a page without a kernel."""
        bundle = ui._repr_mimebundle_(**kwargs)
        bundle["image/png"] = base64.b64encode(self.picture_png()).decode("ascii")
        bundle["text/plain"] = f"Fanorona board: {self.status} (run the notebook to play on it)"
        return bundle


__all__ = ["LABELS", "SIZES", "BoardWidget"]
