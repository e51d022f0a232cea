"""The controller's state as each of its parts sees it: one list of what a board holds.

``fanorona.ui.controller.Controller`` is put together from small parts, each in the module of its
job (``setup.Setup``, ``computer.ComputerSeat``, ``scene.Shows``).  They all read and change the
same state; ``BoardState`` names it once, with its types, so a reader (and a type checker) of
any part knows what ``self.game`` or ``self.settings`` is.  It holds no code: the helpers listed
under ``TYPE_CHECKING`` are the controller's own.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from .adapter import GameAdapter
    from .computer import ComputerRunner
    from .progress import Progress
    from .reply import Action, Reply
    from .settings import ComputerSettings


class BoardState:
    """What a board holds (set by ``Controller.__init__``)."""

    lock: threading.RLock  # every change and every reading of a view holds it
    game: GameAdapter  # the model, through its adapter
    language: str  # of the labels and sentences
    selected: str | None  # the point of the selected stone
    pending: tuple[str, str] | None  # a step that captures both ways, awaiting its choice
    said: tuple  # the last sentence, as (template key, values) parts
    searched: tuple  # the computer's last search line, the same way
    overlays: dict[str, bool]  # the picture's overlays
    shown: int | None  # the turns the replay slider shows; None: the live game
    settings: ComputerSettings  # who the computer plays, and how
    progress: Progress | None  # a long wait in progress
    error: Exception | None  # the last failure of the model or the computer
    runner: ComputerRunner  # plays the computer's turns
    _redo: list  # the turns taken back, to play again

    if TYPE_CHECKING:  # the controller's helpers its parts call

        @property
        def model(self): ...
        def changed(self) -> None: ...
        def sentence(self, key: str, **values) -> str: ...
        def _act(self, action: Callable[[], Reply]) -> Reply: ...
        def _say(self, action: Action, key: str | None = None, **values) -> Reply: ...
        def _settle(self) -> None: ...
        def _change(self, **state) -> None: ...
        def _needs_board(self, what: str) -> None: ...
        def computer_to_move(self, live_only: bool = True) -> bool: ...
        def player_name(self, side: str) -> str: ...


__all__ = ["BoardState"]
