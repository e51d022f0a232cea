"""What the board shows, as pure functions of the controller's state: the picture's scene, the
status line, the details line and the move list.

Each function reads ``state`` (an object with ``game``, ``shown``, ``selected``, ``pending``,
``overlays``, ``language``, ``said`` and ``progress``, as ``Controller`` has) and changes
nothing, so what is drawn is always derived from the game as it is now and never kept apart
from it.  A model that fails while being read is shown as a sentence and an empty picture, never
as a traceback.  ``Shows`` is what a view (``fanorona.ui.panel.Panel``) reads of a board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .adapter import ModelFault, strings, turn_text
from .labels import ending, say

if TYPE_CHECKING:
    from .controller import Controller

#: The scene's marks, each with one meaning (see ``fanorona.ui.draw``).
MARKS = (
    "must",
    "selected",
    "targets",
    "approach",
    "withdrawal",
    "waiting",
    "path",
    "last",
    "legal",
    "strings",
)


def fault_sentence(language: str, fault: ModelFault) -> str:
    return say(language, "model_error", member=fault.member, reason=fault.problem)


def shown_board(state):
    """The position on show: the live game, or a fresh Board replayed to the slider's turn."""
    return state.game.model if state.shown is None else state.game.replayed(state.shown)


def must_capture(board, steps, replaying: bool = False) -> list[str]:
    """The stones that must capture: the origins of the legal steps when all of them capture."""
    if board.chain or replaying or not steps or any(s.capture is None for s in steps):
        return []
    return sorted({s.origin for s in steps})


def choice_strings(game, pending) -> dict[str, list[str]]:
    """While a two-way capture waits: the stones each kind would take."""
    if not pending:
        return {}
    return {
        s.capture: game.captures(s)
        for s in game.legal_steps()
        if (s.origin, s.destination) == pending
    }


def headline(state, board=None) -> str:
    """Whose turn it is, or the result (a remote opponent's word for it first)."""
    ended = getattr(getattr(state, "seat", None), "ended", None)
    if board is None and ended:
        return ended
    try:
        outcome = (state.game if board is None else board).outcome()
        side = None if outcome else (state.game.to_move if board is None else board.to_move)
    except ModelFault as fault:
        return fault_sentence(state.language, fault)
    if outcome is None:
        return say(state.language, "turn", side=side)
    reason = ending(state.language, outcome)
    if outcome.winner:
        return say(state.language, "win", side=outcome.winner, reason=reason)
    return say(state.language, "draw", reason=reason)


def replay_sentence(state) -> str:
    return say(state.language, "replaying", n=state.shown, total=len(state.game.turns))


def progress_sentence(state) -> str:
    p = state.progress
    left = "" if p.remaining is None else say(state.language, "progress_left", left=p.left)
    return say(state.language, "progress", what=p.what, percent=round(100 * p.fraction)) + left


def said(state) -> str:
    """The last action's sentence, rendered in the board's language now (so a language switch
    shows)."""
    return ". ".join(say(state.language, key, **values).rstrip(".") for key, values in state.said)


def status(state) -> str:
    """The short status line: what the last action did (or the replay), then whose turn or the
    result."""
    message = replay_sentence(state) if state.shown is not None else said(state)
    if state.progress is not None:
        message = ". ".join(filter(None, [message, progress_sentence(state)]))
    board = None if state.shown is None else shown_board(state)
    parts = [message, headline(state, board)] if message else [headline(state, board)]
    return ". ".join(p.rstrip(".") for p in parts) + "."


def details(state) -> str:
    """The line below the status: the stones of the position shown, and the turns without
    capture."""
    try:
        board = shown_board(state) if state.game.is_board else state.game.picture()
    except ModelFault as fault:
        return fault_sentence(state.language, fault)
    parts = [say(state.language, "stones", white=board.count("white"), black=board.count("black"))]
    if state.game.is_board:
        limit = board.rules.quiet_draw
        parts.append(
            say(state.language, "quiet", quiet=board.quiet_turns, limit=limit)
            if limit
            else say(state.language, "quiet_nolimit", quiet=board.quiet_turns)
        )
    return " · ".join(parts)


def move_texts(game) -> list[str]:
    """The turns in order, the one in progress ending in '…', a leading '…' when Black began."""
    try:
        texts = [str(t) for t in game.turns]
        chain = game.chain
    except ModelFault:
        return []
    if chain:
        texts.append(turn_text(chain) + "…")
    if game.black_began():
        texts.insert(0, "…")
    return texts


def move_lines(state, mark=lambda text: "▸" + text, escape=str) -> list[str]:
    """The move list, one numbered line a pair of turns; while replaying, the turn shown goes
    through ``mark``."""
    texts = [escape(text) for text in move_texts(state.game)]
    if state.shown:
        shown = state.shown - 1 + (texts[:1] == ["…"])
        texts[shown] = mark(texts[shown])
    return [f"{n // 2 + 1}. " + "  ".join(texts[n : n + 2]) for n in range(0, len(texts), 2)]


def scene(state) -> dict:
    """What the picture shows now, as plain data: the board and each mark (one meaning each)."""
    try:
        return _scene(state)
    except ModelFault as fault:
        return {
            **{mark: [] for mark in MARKS},
            "selected": None,
            "waiting": None,
            "board": state.game.blank(),
            "title": fault_sentence(state.language, fault),
        }


def _scene(state) -> dict:
    replaying = state.shown is not None
    board = shown_board(state) if replaying else state.game.picture()
    live = state.game
    scene = dict(
        board=board,
        title=headline(state, board if replaying else None),
        must=[],
        selected=None,
        targets=[],
        approach=[],
        withdrawal=[],
        waiting=None,
        path=[],
        last=[],
        legal=[],
        strings=[],
    )
    if state.overlays["strings"]:
        scene["strings"] = strings(board)
    if replaying:
        scene["last"] = _path(board.turns[-1].steps) if board.turns else []
        return scene
    chain = live.chain
    steps = live.legal_steps() if chain or live.outcome() is None else []
    if state.overlays["legal"]:
        scene["legal"] = sorted({(s.origin, s.destination) for s in steps})
    if chain:
        scene["path"] = _path(chain)
    elif live.turns:
        scene["last"] = _path(getattr(live.turns[-1], "steps", ()))
    if state.pending:
        scene.update(
            selected=state.pending[0], waiting=state.pending, **choice_strings(live, state.pending)
        )
        return scene
    if state.selected is None:
        scene["must"] = must_capture(live, steps)
        return scene
    mine = [s for s in steps if s.origin == state.selected]
    scene.update(selected=state.selected, targets=sorted({s.destination for s in mine}))
    for kind in ("approach", "withdrawal"):
        scene[kind] = sorted({p for s in mine if s.capture == kind for p in live.captures(s)})
    return scene


def _path(steps) -> list[tuple[str, str]]:
    """The (origin, destination) pairs of a turn's steps, for its arrows."""
    return [(s.origin, s.destination) for s in steps]


class Shows:
    """What a view reads of a board (``fanorona.ui.controller.Controller``), each derived by the
    functions above or asked of the board's parts; it changes nothing."""

    def __init__(self, board: Controller):
        self.board = board

    model = property(lambda self: self.board.model, doc="The model being played.")
    game = property(lambda self: self.board.game, doc="The model, through its adapter.")
    language = property(lambda self: self.board.language, doc="Of the labels and sentences.")
    overlays = property(lambda self: self.board.overlays, doc="The picture's overlays, by name.")
    shown = property(lambda self: self.board.shown, doc="The turns the replay slider shows.")
    pending = property(lambda self: self.board.pending, doc="A two-way capture's step.")
    progress = property(lambda self: self.board.progress, doc="A long wait in progress, or None.")
    status = property(lambda self: status(self.board), doc="The last sentence, then the turn.")
    details = property(lambda self: details(self.board), doc="Stones and turns without capture.")
    replaying = property(lambda self: self.board.shown is not None, doc="An earlier turn shown.")
    search_line = property(
        lambda self: (
            self.sentence(self._searched[0], **self._searched[1]) if self._searched else ""
        ),
        doc="The computer's last search, as the line below the status says it.",
    )
    search = property(
        lambda self: self._searched[1]["info"] if self._searched else "",
        doc="The computer's last search, in its own words.",
    )
    _searched = property(lambda self: self.board.seat.searched)
    computer_side = property(lambda self: self._settings.side, doc="Who the computer plays.")
    level = property(lambda self: self._settings.level, doc="The computer's level.")
    delay = property(lambda self: self._settings.delay, doc="Seconds between animated steps.")
    paused = property(lambda self: self._settings.paused, doc="The computer waits to be told.")
    custom_player = property(lambda self: self._settings.custom, doc="A player given, or None.")
    _settings = property(lambda self: self.board.seat.settings)

    def sentence(self, key: str, **values) -> str:
        """A sentence of the board's language (see ``fanorona.ui.labels``)."""
        return say(self.board.language, key, **values)

    def computer_to_move(self) -> bool:
        return self.board.seat.computer_to_move()

    def levels(self) -> list:
        return self.board.seat.levels()

    def can_undo(self) -> bool:
        return self.board.history.can_undo()

    def can_undo_step(self) -> bool:
        return self.board.history.can_undo_step()

    def can_redo(self) -> bool:
        return self.board.history.can_redo()


__all__ = [
    "Shows",
    "choice_strings",
    "details",
    "move_lines",
    "move_texts",
    "must_capture",
    "scene",
    "status",
]
