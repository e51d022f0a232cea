"""The board's controller: what a click, a button or a program does to a game, with no GUI.

``Controller`` is the click, choice and undo state machine of the interactive board: the selected
stone, the step that waits for an approach-or-withdrawal choice, undo and redo by turn and by
step, the turn the replay slider shows.  Each action returns a ``Reply``: an ``Action`` for what
happened and the sentence to show.  Its neighbours each do one job: ``fanorona.adapter.Game``
talks to the model (a ``fanorona.Board`` or a student's class following ``Model``) and turns its
faults into sentences; ``fanorona.settings.ComputerSettings`` holds who the computer plays and
how; ``fanorona.computer.ComputerRunner`` plays its turns in a thread; ``fanorona.scene`` derives
what the view shows from this state.  ``fanorona.widget.BoardWidget`` only draws and forwards
clicks, so every rule of a click is tested here without ipywidgets or matplotlib.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol, runtime_checkable

from . import scene as view
from .adapter import Game, ModelFault, turn_text
from .board import Board, Step
from .computer import ComputerRunner
from .game import Game as GameRecord
from .labels import labels, say
from .notation import NotationError
from .rules import PRESETS, Rules
from .settings import COMPUTER_SIDES, LEVELS, STRONGEST, ComputerSettings, perfect_offered

#: Board sizes offered by the size chooser, (width, height).
SIZES = ((9, 5), (5, 5), (3, 3), (5, 3), (3, 5), (7, 3), (3, 7))
#: The picture's overlays, all off at first.
OVERLAYS = ("strings", "legal", "names", "strong", "large")
MEMBERS = ("size", "points", "to_move", "turns", "chain", "chain_stone", "stone_at", "legal_steps", "captures",
           "push", "pop", "end_turn", "outcome")


@runtime_checkable
class Model(Protocol):
    """What the controller needs of a game; ``fanorona.Board`` is one, and so can a student's class be.

    Points are names like ``"c3"``; a step has ``origin``, ``destination`` and ``capture``
    (``"approach"``, ``"withdrawal"`` or None); a turn has ``steps`` and prints as turn text.
    """

    size: tuple[int, int]          # (width, height)
    points: tuple[str, ...]         # every point's name
    to_move: str                    # "white" or "black"
    turns: list                     # the whole turns played, oldest first
    chain: tuple                    # the steps of the turn in progress (empty between turns)
    chain_stone: str | None         # the point of the stone that is capturing in a chain

    def stone_at(self, point: str) -> str | None: ...      # "white", "black" or None
    def legal_steps(self) -> list: ...                      # the steps allowed now
    def captures(self, step) -> list[str]: ...              # what a legal step would capture
    def push(self, step) -> None: ...                       # play a legal step
    def pop(self): ...                                      # undo the last push or end_turn
    def end_turn(self) -> None: ...                         # stop a chain
    def outcome(self): ...                                  # None, or an object with winner and reason


class Action(str, Enum):
    """What an action did (equal to its word, so ``reply.action == "moved"`` holds)."""

    SELECTED, DESELECTED, CHOOSE, CANCELLED = "selected", "deselected", "choose", "cancelled"
    MOVED, CHAIN, ENDED, REFUSED, ERROR = "moved", "chain", "ended", "refused", "error"
    UNDONE, REDONE, LOADED, NEW = "undone", "redone", "loaded", "new"
    SETTINGS, RESUMED, LIVE, REPLAYING = "settings", "resumed", "live", "replaying"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Reply:
    """What an action did and the sentence the status line shows (``said``: its parts, to say again
    in another language)."""

    action: Action
    message: str
    said: tuple = field(default=(), compare=False, repr=False)


def parse_size(size) -> tuple[int, int]:
    """A size given as (width, height) or as text like "5x3"."""
    if isinstance(size, str):
        try:
            width, height = (int(n) for n in size.lower().split("x"))
        except ValueError:
            raise ValueError(f"a board size is written like '5x3'; got {size!r}") from None
        return width, height
    return tuple(size)


def size_text(size) -> str:
    return f"{size[0]}x{size[1]}"


def other(side: str) -> str:
    return "black" if side == "white" else "white"


class Controller:
    """The interactive board's state and rules of interaction; thread-safe (one lock).

    ``model``: a ``fanorona.Board`` (used as it is) or any object following ``Model``; without
    one, a new board of ``size`` and ``rules``.  ``opponent``: a level 1-5 or a player with
    ``choose_turn(board)``; the computer then plays Black.
    """

    def __init__(self, model=None, *, size=(9, 5), rules: Rules | None = None, opponent=None,
                 language: str = "en"):
        labels(language)
        if model is not None and not isinstance(model, Model):
            missing = [name for name in MEMBERS if not hasattr(model, name)]
            raise ValueError(f"a board model needs {', '.join(missing)} (see fanorona.controller.Model); "
                             f"{type(model).__name__} lacks them")
        self.lock = threading.RLock()
        self.game = Game(model if model is not None else Board(parse_size(size), rules))
        self.language = language
        self.selected: str | None = None
        self.pending: tuple[str, str] | None = None   # a step that captures two ways, awaiting a choice
        self.said: tuple = ()                         # the last sentence, as (template key, values) parts
        self.searched: tuple = ()                     # the computer's last search line, the same way
        self.overlays = dict.fromkeys(OVERLAYS, False)
        self.shown: int | None = None                 # turns shown by the replay slider; None: the live game
        self.settings = ComputerSettings()
        self.progress = None                          # a long wait in progress (fanorona.progress.Progress)
        self.error: Exception | None = None           # the last failure of the model or the computer
        self._redo: list = []
        self._listeners: list = []
        self.runner = ComputerRunner(self)
        if opponent is not None:
            self._needs_board("the computer")
            self.settings = self.settings.with_opponent(opponent)

    # -- actions: each runs under the lock, keeps its sentence, tells the views, lets the computer move

    def observe(self, listener) -> None:
        """Call ``listener()`` after every change (from any thread, with the lock held)."""
        self._listeners.append(listener)

    def changed(self) -> None:
        for listener in self._listeners:
            listener()

    def _act(self, action) -> Reply:
        with self.lock:
            try:
                reply = action()
            except ModelFault as fault:   # a student's model that fails is a sentence naming the member
                self.error = fault
                self._settle()
                reply = self._say(Action.ERROR, "model_error", member=fault.member, reason=fault.problem)
            self._tidy()
            self.said = reply.said
            self.changed()
        self.runner.kick()
        return reply

    def _tidy(self) -> None:
        """What an undo may leave behind: a replay past the game's end, a pause for a side a person plays."""
        if self.shown is not None and self.shown >= len(self.game.turns):
            self.shown = None
        if self.settings.paused and not self.computer_to_move(live_only=False):
            self.settings = self.settings.with_paused(False)

    def _say(self, action: Action, key: str | None = None, **values) -> Reply:
        said = ((key, values),) if key else ()
        return Reply(action, self.sentence(key, **values) if key else "", said)

    def sentence(self, key: str, **values) -> str:
        """A sentence of the board's language (see ``fanorona.labels``)."""
        return say(self.language, key, **values)

    # -- the click state machine ---------------------------------------------------------------

    def click(self, point: str) -> Reply:
        """Act on a click at ``point``: select a stone, move it, or choose a capture; else say why not."""
        if point not in self.game.points:
            raise ValueError(f"there is no point {point!r} on a {size_text(self.game.size)} board")
        return self._act(lambda: self._blocked() or self._react(point))

    def choose(self, kind: str) -> Reply:
        """Settle a step that captures both ways: ``"approach"`` or ``"withdrawal"``."""
        if kind not in ("approach", "withdrawal"):
            raise ValueError(f"choose 'approach' or 'withdrawal'; got {kind!r}")
        return self._act(lambda: self._blocked() or (self._choose(kind) if self.pending
                                                     else self._say(Action.REFUSED, "no_choice")))

    def end_turn(self) -> Reply:
        """Stop the capture chain in progress here (where the rules let it stop)."""
        return self._act(lambda: self._blocked() or self._end_chain())

    def _blocked(self) -> Reply | None:
        """Why the board takes no move now (replaying, game over, the computer's turn), or None."""
        if self.shown is not None:
            return self._say(Action.REFUSED, "replaying", n=self.shown, total=len(self.game.turns))
        if self.game.outcome() is not None:
            return self._say(Action.REFUSED, "game_over")
        if self.computer_to_move():
            if self.settings.paused:
                return self._say(Action.REFUSED, "computer_paused", side=self.game.to_move)
            return self._say(Action.REFUSED, "busy")
        return None

    def _react(self, point: str) -> Reply:
        game = self.game
        if self.pending:
            for kind, stones in self.choice_strings().items():
                if point in stones:
                    return self._choose(kind)
            if point == self.pending[0]:
                self.pending = None
                return self._say(Action.CANCELLED, "cancelled")
            return self._say(Action.REFUSED, "choose", step="-".join(self.pending))
        steps = game.legal_steps()
        options = [s for s in steps if (s.origin, s.destination) == (self.selected, point)]
        if len(options) > 1:
            self.pending = (self.selected, point)
            return self._say(Action.CHOOSE, "choose", step=f"{self.selected}-{point}")
        if options:
            return self._play(options[0])
        if game.chain_stone:
            if point == game.chain_stone:
                return self._say(Action.REFUSED, "chain", point=point)
            return self._say(Action.REFUSED, "illegal", reason=self._why_not(game.chain_stone, point))
        if point == self.selected:
            self.selected = None
            return self._say(Action.DESELECTED, "deselected")
        if self.selected and game.stone_at(point) is None:
            return self._say(Action.REFUSED, "illegal", reason=self._why_not(self.selected, point))
        stone = game.stone_at(point)
        if stone is None or stone != game.to_move:
            return self._say(Action.REFUSED, "no_stone" if stone is None else "not_yours", point=point)
        if not any(s.origin == point for s in steps):
            capturers = self.must_capture(steps)
            if capturers:
                return self._say(Action.REFUSED, "must_capture", points=", ".join(capturers))
            return self._say(Action.REFUSED, "stuck", point=point)
        self.selected = point
        return self._say(Action.SELECTED, "select", point=point)

    def _why_not(self, origin: str, point: str) -> str:
        """The model's reason why origin-point is no legal step (a Board's error message), or a plain one."""
        try:
            self.game.captures(Step(origin, point))
        except ValueError as e:     # the rules package says why in its error message
            return str(e)
        return f"{origin}-{point} is not a legal step"

    def _choose(self, kind: str) -> Reply:
        origin, destination = self.pending
        return self._play(next(s for s in self.game.legal_steps()
                               if (s.origin, s.destination, s.capture) == (origin, destination, kind)))

    def _play(self, step) -> Reply:
        self.game.push(step)
        self._redo.clear()
        self.settings = self.settings.with_paused(False)
        self._settle()
        if self.game.chain:
            return self._say(Action.CHAIN, "chain", point=self.game.chain_stone)
        return self._say(Action.MOVED, "played", move=str(self.game.turns[-1]))

    def _end_chain(self) -> Reply:
        if not self.game.chain:
            return self._say(Action.REFUSED, "illegal", reason="there is no capture chain in progress to end")
        try:
            self.game.end_turn()
        except ValueError as e:
            return self._say(Action.REFUSED, "illegal", reason=str(e))
        self._redo.clear()
        self._settle()
        return self._say(Action.ENDED, "turn_ended", move=str(self.game.turns[-1]))

    def _settle(self) -> None:
        """After any change of the game: no choice waits, and only a chain's stone stays selected."""
        self.pending = None
        try:
            self.selected = self.game.chain_stone
        except ModelFault:
            self.selected = None

    # -- undo and redo -------------------------------------------------------------------------

    def can_undo(self) -> bool:
        """There is a turn (or a turn in progress) to take back."""
        return bool(self.game.turns or self.game.chain)

    def undo(self) -> Reply:
        """Take back a whole turn (the one in progress, else the last); against the computer, back to your turn."""
        def undo():
            if not self.can_undo():
                return self._say(Action.REFUSED, "nothing_to_undo")
            self.runner.cancel()
            taken = self._undo_turn()
            while self.settings.against_person() and self.computer_to_move(live_only=False) and self.game.turns:
                taken = self._undo_turn()
            return self._say(Action.UNDONE, "undone", move=taken)
        return self._act(undo)

    def _undo_turn(self) -> str:
        """Take back the turn in progress, else the last whole turn (which redo can replay)."""
        if self.game.chain:
            taken = self.game.undo_chain()
        else:
            turn = self.game.undo_turn()
            self._redo.append(turn)
            taken = str(turn)
        self._settle()
        return taken

    def can_undo_step(self) -> bool:
        """A step of a person's can be taken back: of the turn in progress, or of the last turn
        (never while the computer plays its chain, never one of its turns)."""
        if self.shown is not None or not self.can_undo():
            return False
        if self.game.chain:
            return self.game.to_move not in self.settings.sides()
        return other(self.game.to_move) not in self.settings.sides()

    def undo_step(self) -> Reply:
        """Take back one step of a person's turn; the stone that made it is selected again."""
        def undo_step():
            if not self.can_undo():
                return self._say(Action.REFUSED, "nothing_to_undo")
            if not self.can_undo_step():
                animating = self.game.chain and self.computer_to_move()
                return self._say(Action.REFUSED, "busy" if animating else "step_not_yours")
            self.runner.cancel()
            step = self.game.undo_step()
            self._redo.clear()
            self._settle()
            if self.selected is None and self.game.stone_at(step.origin) == self.game.to_move:
                self.selected = step.origin
            return self._say(Action.UNDONE, "step_undone", move=str(step))
        return self._act(undo_step)

    def can_redo(self) -> bool:
        return bool(self._redo) and not self.game.chain and self.shown is None

    def redo(self) -> Reply:
        """Play again a turn taken back by ``undo`` (and the computer's answer to it)."""
        def redo():
            if not self.can_redo():
                return self._say(Action.REFUSED, "nothing_to_redo")
            self.runner.cancel()
            reply = self._redo_turn()
            while reply.action == Action.REDONE and self._redo and self.settings.against_person() \
                    and self.computer_to_move():
                reply = self._redo_turn()
            return reply
        return self._act(redo)

    def _redo_turn(self) -> Reply:
        """Replay a taken-back turn step by step, so Undo step can take back its steps; all or nothing."""
        turn = self._redo.pop()
        pushed = 0
        try:
            for step in turn.steps:
                self.game.push(step, passes=(ValueError,))
                pushed += 1
            if self.game.chain:
                self.game.end_turn()
                pushed += 1
        except ValueError as e:
            for _ in range(pushed):
                self.game.pop()
            self._redo.clear()
            self._settle()
            return self._say(Action.REFUSED, "redo_failed", move=str(turn), reason=str(e))
        self._settle()
        return self._say(Action.REDONE, "redone", move=str(turn))

    # -- new games, positions and records ------------------------------------------------------

    def _needs_board(self, what: str) -> None:
        if not self.game.is_board:
            raise ValueError(f"{what} needs a fanorona.Board; this board plays a {type(self.model).__name__}")

    def new_game(self, size=None, rules: Rules | str | None = None) -> Reply:
        """Start again from the start position, keeping the size and rules unless new ones are given."""
        if not self.game.is_board:
            if size is not None or rules is not None:
                self._needs_board("a new size or rule set")
            return self._act(self._back_to_start)
        size = self.game.size if size is None else parse_size(size)
        rules = self.game.rules if rules is None else Rules.named(rules) if isinstance(rules, str) else rules
        board = Board(size, rules)
        return self._act(lambda: self._replace(board, ("new", {"size": size_text(size),
                                                                "rules": rules_name(rules, self.language)})))

    def _back_to_start(self) -> Reply:
        self.runner.cancel()
        self._redo.clear()
        self.game.back_to_start()
        self._settle()
        return self._say(Action.NEW, "new", size=size_text(self.game.size), rules=type(self.model).__name__)

    def load_position(self, name_or_diagram: str) -> Reply:
        """Set up a named teaching position (``positions.names()``), a diagram or a one-line position text.

        A diagram has White to move and the current rules; a bad one raises ValueError saying why.
        If the computer plays the side to move, it waits for "Computer move".
        """
        self._needs_board("loading a position")
        board, name = position_from_text(str(name_or_diagram).strip(), self.game.rules)
        return self._act(lambda: self._replace(board, ("loaded", {"name": name}), pause=True))

    def export_game(self) -> str:
        """The game so far (a chain in progress left out) as a ``fanorona.Game`` JSON record."""
        self._needs_board("a game record")
        with self.lock:
            board = self.model.copy()
            while board.chain:
                board.pop()
            names = {side: self.player_name(side) for side in ("white", "black")}
        return GameRecord.from_board(board, **names).to_json()

    def import_game(self, text: str) -> Reply:
        """Replace the game by a JSON game record; one that does not replay raises GameRecordError."""
        self._needs_board("a game record")
        board = GameRecord.from_json(text).board()
        return self._act(lambda: self._replace(board, ("imported", {"n": len(board.turns)}), pause=True))

    def _replace(self, board: Board, said: tuple, pause: bool = False) -> Reply:
        """A new game or position: the computer stops, selection, history and replay are cleared."""
        self.runner.cancel()
        self.game = Game(board)
        self._redo.clear()
        self._settle()
        self.searched, self.shown, self.progress = (), None, None
        notes = [said]
        if self.settings.level == "perfect" and not perfect_offered(self.game):
            self.settings = self.settings.with_level(STRONGEST, False)
            notes.append(("level_changed", {"level": STRONGEST}))
        self.settings = self.settings.with_paused(pause and self.computer_to_move(live_only=False))
        if self.settings.paused:
            notes.append(("computer_paused", {"side": self.game.to_move}))
        return Reply(Action.LOADED, ". ".join(self.sentence(k, **v) for k, v in notes), tuple(notes))

    # -- settings, each through a method that checks it -----------------------------------------

    def set_computer(self, side: str) -> Reply:
        """Who the computer plays: 'nobody', 'white', 'black' or 'both'."""
        if side != "nobody" and side in COMPUTER_SIDES:
            self._needs_board("the computer")
        return self._act(lambda: self._computer_changed(self.settings.with_side(side)))

    def set_level(self, level) -> Reply:
        """The computer's level: 1 to 5, 'perfect' (small boards, standard rules) or 'custom'."""
        return self._act(lambda: self._computer_changed(self.settings.with_level(level, perfect_offered(self.game))))

    def _computer_changed(self, settings: ComputerSettings) -> Reply:
        self.runner.cancel()
        self.settings, self.searched, self.progress = settings, (), None
        self._settle()
        return self._say(Action.SETTINGS)

    def set_delay(self, seconds: float) -> None:
        """Seconds between the computer's animated steps (0 for tests)."""
        self._change(settings=self.settings.with_delay(seconds))

    def set_overlays(self, **overlays: bool) -> None:
        """Switch overlays: strings, legal, names, strong, large (for a projector)."""
        for name in overlays:
            if name not in OVERLAYS:
                raise ValueError(f"no overlay called {name!r}; they are {', '.join(OVERLAYS)}")
        self._change(overlays={**self.overlays, **{name: bool(on) for name, on in overlays.items()}})

    def set_language(self, language: str) -> None:
        """The language of every label and sentence, the status line's included."""
        labels(language)
        self._change(language=language)

    def _change(self, **state) -> None:
        """A setting that changes only what is shown (checked before; the lock held while set)."""
        with self.lock:
            for name, value in state.items():
                setattr(self, name, value)
            self.changed()

    def computer_move(self) -> Reply:
        """Let a paused computer move now (after a position was loaded)."""
        def move():
            self.settings = self.settings.with_paused(False)
            if self.computer_to_move():
                return self._say(Action.RESUMED)
            if self.shown is not None:
                return self._say(Action.REFUSED, "replaying", n=self.shown, total=len(self.game.turns))
            return self._say(Action.REFUSED, "game_over" if self.game.outcome() else "computer_nothing")
        return self._act(move)

    def levels(self) -> list:
        """The levels offered for this board: 1-5, 'perfect' where the solver answers, 'custom' if given."""
        return self.settings.levels(perfect_offered(self.game))

    def replay(self, turns: int | None) -> Reply:
        """Show the position after the first ``turns`` turns (None or the game's length: the live game)."""
        if turns is not None:
            self._needs_board("the replay")
        total = len(self.game.turns)
        if turns is not None and (isinstance(turns, bool) or not isinstance(turns, int) or not 0 <= turns <= total):
            raise ValueError(f"the game has {total} turns; replay shows 0 to {total}; got {turns!r}")

        def replay():
            self.shown = None if turns is None or turns == total else turns
            self._settle()
            return self._say(Action.LIVE if self.shown is None else Action.REPLAYING)
        return self._act(replay)

    # -- the computer's side of things (used by the runner, with the lock held) -------------------

    def computer_to_move(self, live_only: bool = True) -> bool:
        """The side to move is the computer's (and, by default, the board is live and the game goes on)."""
        if not self.settings.sides() or self.game.to_move not in self.settings.sides():
            return False
        return not live_only or (self.shown is None and self.game.outcome() is None)

    def computer_should_move(self) -> bool:
        return self.computer_to_move() and not self.settings.paused

    def player_name(self, side: str) -> str:
        return self.settings.player_name(side, self.game.size)

    def report(self, key: str, **values) -> None:
        """Say something in the status line (the computer thinking, a record written)."""
        self._tell(said=((key, values),))

    def computer_step(self, step, turn: str, name: str) -> None:
        """The runner plays one step of the computer's turn."""
        self.game.push(step)
        self._redo.clear()
        self._tell(said=(("playing", {"name": name, "move": turn}),))

    def computer_done(self, said: tuple, searched: tuple = ()) -> None:
        """The runner has finished the computer's turn."""
        if self.game.chain:
            self.game.end_turn()
        self._tell(said=tuple(said), searched=searched)

    def computer_failed(self, error: Exception) -> None:
        self._tell(error=error, said=(("computer_error", {"reason": f"{type(error).__name__}: {error}"}),))

    def show_progress(self, progress) -> None:
        """A long wait's progress (``fanorona.progress.Progress``), or None when it is over."""
        self._change(progress=progress)

    def _tell(self, **state) -> None:
        """A change from the computer's side: the game moved on, so no choice waits."""
        with self.lock:
            self._settle()
            self._change(**state)

    # -- what the views read (``fanorona.scene``: pure functions of this state) ----------------

    model = property(lambda self: self.game.model, doc="The model being played.")
    message = property(lambda self: view.said(self), doc="The last action's sentence, in today's language.")
    status = property(lambda self: view.status(self), doc="The status line: the last sentence, then the turn.")
    details = property(lambda self: view.details(self), doc="Stones and turns without capture.")
    moves = property(lambda self: "\n".join(view.move_lines(self)), doc="The move list; the turn shown marked ▸.")
    replaying = property(lambda self: self.shown is not None, doc="The replay slider shows an earlier turn.")
    search_line = property(lambda self: self.sentence(self.searched[0], **self.searched[1]) if self.searched
                           else "", doc="The computer's last search, as the line below the status says it.")
    search = property(lambda self: self.searched[1]["info"] if self.searched else "",
                      doc="The computer's last search, in its own words.")
    computer_side = property(lambda self: self.settings.side, doc="Who the computer plays (set_computer).")
    level = property(lambda self: self.settings.level, doc="The computer's level (set_level).")
    delay = property(lambda self: self.settings.delay, doc="Seconds between animated steps (set_delay).")
    paused = property(lambda self: self.settings.paused, doc="The computer waits for computer_move().")
    custom_player = property(lambda self: self.settings.custom, doc="The opponent given as a player, or None.")

    def scene(self) -> dict:
        """What the picture shows now, as plain data: the board and each mark (one meaning each)."""
        return view.scene(self)

    def move_lines(self, mark=lambda text: "▸" + text, escape=str) -> list[str]:
        """The move list, one numbered line a pair of turns; while replaying, the turn shown goes through ``mark``."""
        return view.move_lines(self, mark, escape)

    def must_capture(self, steps: list | None = None) -> list[str]:
        """The stones that must capture: the origins of the legal steps when all of them capture."""
        return view.must_capture(self.game, self.game.legal_steps() if steps is None else steps, self.replaying)

    def choice_strings(self) -> dict[str, list[str]]:
        """While a choice waits: the stones each kind of capture would take."""
        return view.choice_strings(self.game, self.pending)


def rules_name(rules: Rules, language: str) -> str:
    name = rules.name() or "custom"
    return labels(language)[f"preset_{name}"] if name in PRESETS + ("custom",) else name


def position_from_text(text: str, rules: Rules) -> tuple[Board, str]:
    """A named teaching position, a diagram or a one-line position text, and its name; ValueError if none."""
    from . import positions
    if text in positions.names():
        return positions.load(text), text
    try:
        return (Board.from_fen(text, rules) if "/" in text else Board.from_diagram(text, rules=rules)), "diagram"
    except (NotationError, ValueError) as e:
        raise ValueError(f"{text!r} is neither a position name ({', '.join(positions.names())}) "
                         f"nor a diagram: {e}") from None


__all__ = ["Action", "COMPUTER_SIDES", "Controller", "LEVELS", "Model", "OVERLAYS", "Reply", "SIZES", "parse_size",
           "turn_text"]
