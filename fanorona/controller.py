"""The board's controller: what a click, a button or a program does to a game, with no GUI.

``Controller`` owns the game and every setting of the interactive board (who the computer plays
and how well, the overlays, the language, the turn shown by the replay slider), the selected
stone, the step that waits for an approach-or-withdrawal choice, and undo and redo by turn and by
step.  Each action returns a ``Reply``: a short word for what happened and the sentence to show.
``fanorona.widget.BoardWidget`` only draws this state and forwards clicks, so every rule of a
click is tested here without ipywidgets or matplotlib.

The controller talks to its game through the small ``Model`` protocol below, so a student's own
model class can be played on the board (``fa.BoardWidget(MyModel())``).  The computer opponent,
game records and teaching positions need a real ``fanorona.Board``.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .board import Board, Step
from .computer import ComputerRunner
from .game import Game
from .geometry import point_name
from .labels import labels, say
from .notation import CAPTURE_LETTER, NotationError
from .rules import PRESETS, Rules

#: Board sizes offered by the size chooser, (width, height).
SIZES = ((9, 5), (5, 5), (3, 3), (5, 3), (3, 5), (7, 3), (3, 7))
#: Who the computer plays.
COMPUTER_SIDES = ("nobody", "white", "black", "both")
#: The computer's levels: the search levels of ``fanorona.ai`` and the solver's perfect player.
LEVELS = (1, 2, 3, 4, 5, "perfect")
#: The level played where "perfect" cannot be: the strongest search.
STRONGEST = 5
#: The largest board (in points) on which the solver's perfect player is offered.
PERFECT_MAX_POINTS = 15
#: The picture's overlays, all off at first.
OVERLAYS = ("strings", "legal", "names", "strong", "large")


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


@dataclass(frozen=True)
class Reply:
    """What an action did (``action``, a short word) and the sentence the status line shows."""

    action: str
    message: str


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

    ``model``: a ``fanorona.Board`` (used as it is) or any object following ``Model``;
    without one, a new board of ``size`` and ``rules``.  ``opponent``: a level 1-5 or a player
    with ``choose_turn(board)``; the computer then plays Black.
    """

    def __init__(self, model=None, *, size=(9, 5), rules: Rules | None = None, opponent=None,
                 language: str = "en"):
        labels(language)
        if model is not None and not isinstance(model, Model):
            missing = [name for name in ("size", "points", "to_move", "turns", "chain", "chain_stone", "stone_at",
                                         "legal_steps", "captures", "push", "pop", "end_turn", "outcome")
                       if not hasattr(model, name)]
            raise ValueError(f"a board model needs {', '.join(missing)} (see fanorona.controller.Model); "
                             f"{type(model).__name__} lacks them")
        self.lock = threading.RLock()
        self.model = model if model is not None else Board(parse_size(size), rules)
        self.language = language
        self.selected: str | None = None
        self.pending: tuple[str, str] | None = None   # a step that captures two ways, awaiting a choice
        self.message = ""
        self.search = ""                              # the computer's last search, in its own words
        self.overlays = dict.fromkeys(OVERLAYS, False)
        self.shown: int | None = None                 # turns shown by the replay slider; None: the live game
        self.computer_side = "nobody"
        self.level = 1
        self.delay = 0.4
        self.paused = False                           # loaded positions wait for "Computer move"
        self.custom_player = None
        self.error: Exception | None = None           # the last failure inside an action or the computer
        self._redo: list = []
        self._listeners: list = []
        self.runner = ComputerRunner(self)
        if opponent is not None:
            self._set_opponent(opponent)

    # -- notifications -------------------------------------------------------------------------

    def observe(self, listener) -> None:
        """Call ``listener()`` after every change (from any thread, with the lock held)."""
        self._listeners.append(listener)

    def changed(self) -> None:
        for listener in self._listeners:
            listener()

    def _act(self, action) -> Reply:
        """Run an action under the lock, keep its sentence, tell the views, then let the computer move."""
        with self.lock:
            try:
                reply = action()
            except Exception as e:   # a student's model that fails is shown as a sentence, not a traceback
                self.error = e
                self._settle()
                reply = Reply("error", self.sentence("model_error", reason=f"{type(e).__name__}: {e}"))
            self.message = reply.message
            self.changed()
        self.runner.kick()
        return reply

    def sentence(self, key: str, **values) -> str:
        """A sentence of the board's language (see ``fanorona.labels``)."""
        return say(self.language, key, **values)

    # -- clicks and choices --------------------------------------------------------------------

    def click(self, point: str) -> Reply:
        """Act on a click at ``point``: select a stone, move it, or choose a capture; else say why not."""
        if point not in self.model.points:
            raise ValueError(f"there is no point {point!r} on a {size_text(self.model.size)} board")
        return self._act(lambda: self._react(point))

    def choose(self, kind: str) -> Reply:
        """Settle a step that captures both ways: ``"approach"`` or ``"withdrawal"``."""
        if kind not in ("approach", "withdrawal"):
            raise ValueError(f"choose 'approach' or 'withdrawal'; got {kind!r}")
        return self._act(lambda: self._blocked() or (self._choose(kind) if self.pending
                                                     else Reply("refused", self.sentence("no_choice"))))

    def end_turn(self) -> Reply:
        """Stop the capture chain in progress here (where the rules let it stop)."""
        return self._act(lambda: self._blocked() or self._end_chain())

    def _react(self, point: str) -> Reply:
        blocked = self._blocked()
        if blocked:
            return blocked
        if self.pending:
            return self._react_to_choice(point)
        steps = self.model.legal_steps()
        if self.selected and any(s.origin == self.selected and s.destination == point for s in steps):
            return self._step_to(point, steps)
        chain_stone = self.model.chain_stone
        if chain_stone:
            if point == chain_stone:
                return Reply("refused", self.sentence("chain", point=point))
            return Reply("refused", self.sentence("illegal", reason=self._why_not(chain_stone, point)))
        if point == self.selected:
            self.selected = None
            return Reply("deselected", self.sentence("deselected"))
        if self.selected and self.model.stone_at(point) is None:
            return Reply("refused", self.sentence("illegal", reason=self._why_not(self.selected, point)))
        return self._select(point, steps)

    def _blocked(self) -> Reply | None:
        """Why the board takes no move now (replaying, game over, the computer's turn), or None."""
        if self.replaying:
            return Reply("refused", self._replay_sentence())
        if self.model.outcome() is not None:
            return Reply("refused", self.sentence("game_over"))
        if self.computer_to_move():
            return Reply("refused", self.sentence("busy"))
        return None

    def _select(self, point: str, steps: list) -> Reply:
        stone = self.model.stone_at(point)
        if stone is None:
            return Reply("refused", self.sentence("no_stone", point=point))
        if stone != self.model.to_move:
            return Reply("refused", self.sentence("not_yours", point=point))
        if not any(s.origin == point for s in steps):
            capturers = self.must_capture(steps)
            if capturers:
                return Reply("refused", self.sentence("must_capture", points=", ".join(capturers)))
            return Reply("refused", self.sentence("stuck", point=point))
        self.selected = point
        return Reply("selected", self.sentence("select", point=point))

    def must_capture(self, steps: list | None = None) -> list[str]:
        """The stones that must capture: the origins of the legal steps when all of them capture."""
        if self.model.chain or self.shown is not None:
            return []
        steps = self.model.legal_steps() if steps is None else steps
        if not steps or any(s.capture is None for s in steps):
            return []
        return sorted({s.origin for s in steps})

    def _why_not(self, origin: str, point: str) -> str:
        """The model's reason why origin-point is no legal step (a Board's error message), or a plain one."""
        try:
            self.model.captures(Step(origin, point))
        except Exception as e:     # the rules package says why in its error message
            return str(e)
        return f"{origin}-{point} is not a legal step"

    def _step_to(self, point: str, steps: list) -> Reply:
        options = [s for s in steps if (s.origin, s.destination) == (self.selected, point)]
        if len(options) > 1:
            self.pending = (self.selected, point)
            return Reply("choose", self.sentence("choose", step=f"{self.selected}-{point}"))
        return self._play(options[0])

    def choice_strings(self) -> dict[str, list[str]]:
        """While a choice waits: the stones each kind of capture would take."""
        if not self.pending:
            return {}
        return {s.capture: list(self.model.captures(s)) for s in self.model.legal_steps()
                if (s.origin, s.destination) == self.pending}

    def _react_to_choice(self, point: str) -> Reply:
        for kind, stones in self.choice_strings().items():
            if point in stones:
                return self._choose(kind)
        if point == self.pending[0]:
            self.pending = None
            return Reply("cancelled", self.sentence("cancelled"))
        return Reply("refused", self.sentence("choose", step="-".join(self.pending)))

    def _choose(self, kind: str) -> Reply:
        origin, destination = self.pending
        step = next(s for s in self.model.legal_steps()
                    if (s.origin, s.destination, s.capture) == (origin, destination, kind))
        return self._play(step)

    def _play(self, step) -> Reply:
        self.model.push(step)
        self._redo.clear()
        self.paused = False
        self._settle()
        if self.model.chain:
            return Reply("chain", self.sentence("chain", point=self.model.chain_stone))
        return Reply("moved", self.sentence("played", move=str(self.model.turns[-1])))

    def _end_chain(self) -> Reply:
        if not self.model.chain:
            return Reply("refused", self.sentence("illegal", reason="there is no capture chain in progress to end"))
        try:
            self.model.end_turn()
        except ValueError as e:
            return Reply("refused", self.sentence("illegal", reason=str(e)))
        self._redo.clear()
        self._settle()
        return Reply("ended", self.sentence("turn_ended", move=str(self.model.turns[-1])))

    def _settle(self) -> None:
        """After any change of the game: no choice waits, and only a chain's stone stays selected."""
        self.pending = None
        self.selected = self.model.chain_stone

    # -- undo and redo -------------------------------------------------------------------------

    def undo(self) -> Reply:
        """Take back a whole turn (the one in progress, else the last); against the computer, back to your turn."""
        def undo():
            self.runner.cancel()
            if not self.model.turns and not self.model.chain:
                return Reply("refused", self.sentence("nothing_to_undo"))
            taken = self._undo_turn()
            while self.against_computer() and self.computer_to_move(live_only=False) and self.model.turns:
                taken = self._undo_turn()
            return Reply("undone", self.sentence("undone", move=taken))
        return self._act(undo)

    def can_undo_step(self) -> bool:
        """A step can be taken back: one of the turn in progress, or of a turn a person played."""
        if self.replaying or (not self.model.turns and not self.model.chain):
            return False
        return bool(self.model.chain) or other(self.model.to_move) not in self.computer_sides()

    def undo_step(self) -> Reply:
        """Take back one step of a person's turn; the stone that made it is selected again."""
        def undo_step():
            self.runner.cancel()
            if not self.model.turns and not self.model.chain:
                return Reply("refused", self.sentence("nothing_to_undo"))
            if not self.can_undo_step():
                return Reply("refused", self.sentence("step_not_yours"))
            step = self.model.pop()
            if step == "end_turn":         # a chain stopped by End turn: its last step goes with the stop
                step = self.model.pop()
            self._redo.clear()
            self._settle()
            if self.selected is None and self.model.stone_at(step.origin) == self.model.to_move:
                self.selected = step.origin
            return Reply("undone", self.sentence("step_undone", move=str(step)))
        return self._act(undo_step)

    def redo(self) -> Reply:
        """Play again a turn taken back by ``undo`` (and the computer's answer to it)."""
        def redo():
            self.runner.cancel()
            if not self._redo or self.model.chain or self.replaying:
                return Reply("refused", self.sentence("nothing_to_redo"))
            reply = self._redo_turn()
            while reply.action == "redone" and self.against_computer() and self.computer_to_move() and self._redo:
                reply = self._redo_turn()
            return reply
        return self._act(redo)

    def can_redo(self) -> bool:
        return bool(self._redo) and not self.model.chain and not self.replaying

    def _undo_turn(self) -> str:
        """Take back the turn in progress, else the last whole turn (which redo can replay)."""
        model = self.model
        self.pending = None
        if model.chain:
            taken = turn_text(model.chain) + "…"
            while model.chain:
                model.pop()
            self._settle()
            return taken
        turn, count = model.turns[-1], len(model.turns)
        while len(model.turns) >= count or model.chain:
            model.pop()
        self._redo.append(turn)
        self._settle()
        return str(turn)

    def _redo_turn(self) -> Reply:
        """Replay a taken-back turn step by step, so Undo step can take back its steps; all or nothing."""
        turn = self._redo.pop()
        pushed = 0
        try:
            for step in turn.steps:
                self.model.push(step)
                pushed += 1
            if self.model.chain:
                self.model.end_turn()
                pushed += 1
        except ValueError as e:
            for _ in range(pushed):
                self.model.pop()
            self._redo.clear()
            self._settle()
            return Reply("refused", self.sentence("redo_failed", move=str(turn), reason=str(e)))
        self._settle()
        return Reply("redone", self.sentence("redone", move=str(turn)))

    # -- new games, positions and records ------------------------------------------------------

    @property
    def _is_board(self) -> bool:
        return isinstance(self.model, Board)

    def _needs_board(self, what: str) -> None:
        if not self._is_board:
            raise ValueError(f"{what} needs a fanorona.Board; this board plays a {type(self.model).__name__}")

    def new_game(self, size=None, rules: Rules | str | None = None) -> Reply:
        """Start again from the start position, keeping the size and rules unless new ones are given."""
        if not self._is_board:
            if size is not None or rules is not None:
                self._needs_board("a new size or rule set")
            return self._act(self._back_to_start)
        size = self.model.size if size is None else parse_size(size)
        rules = self.model.rules if rules is None else Rules.named(rules) if isinstance(rules, str) else rules
        board = Board(size, rules)
        return self._act(lambda: self._replace(board, self.sentence(
            "new", size=size_text(size), rules=self.rules_name(rules)), pause=False))

    def _back_to_start(self) -> Reply:
        self.runner.cancel()
        while self.model.turns or self.model.chain:
            self.model.pop()
        self._redo.clear()
        self._settle()
        return Reply("new", self.sentence("new", size=size_text(self.model.size), rules=type(self.model).__name__))

    def load_position(self, name_or_diagram: str) -> Reply:
        """Set up a named teaching position (``positions.names()``), a diagram or a one-line position text.

        A diagram has White to move and the current rules; a bad one raises ValueError saying why.
        If the computer plays the side to move, it waits for "Computer move".
        """
        from . import positions
        self._needs_board("loading a position")
        text = str(name_or_diagram).strip()
        if text in positions.names():
            board, name = positions.load(text), text
        else:
            board, name = self._board_from_text(text, positions.names()), "diagram"
        return self._act(lambda: self._replace(board, self.sentence("loaded", name=name), pause=True))

    def _board_from_text(self, text: str, names: list[str]) -> Board:
        try:
            if "/" in text:
                return Board.from_fen(text, self.model.rules)
            return Board.from_diagram(text, rules=self.model.rules)
        except (NotationError, ValueError) as e:
            raise ValueError(f"{text!r} is neither a position name ({', '.join(names)}) "
                             f"nor a diagram: {e}") from None

    def export_game(self) -> str:
        """The game so far (a chain in progress left out) as a ``fanorona.Game`` JSON record."""
        self._needs_board("a game record")
        with self.lock:
            board = self.model.copy()
            while board.chain:
                board.pop()
            return Game.from_board(board, white=self.player_name("white"), black=self.player_name("black")).to_json()

    def import_game(self, text: str) -> Reply:
        """Replace the game by a JSON game record; one that does not replay raises GameRecordError."""
        self._needs_board("a game record")
        board = Game.from_json(text).board()
        return self._act(lambda: self._replace(board, self.sentence("imported", n=len(board.turns)), pause=True))

    def _replace(self, board: Board, sentence: str, pause: bool) -> Reply:
        """A new game or position: the computer stops, selection, history and replay are cleared."""
        self.runner.cancel()
        self.model = board
        self._redo.clear()
        self._settle()
        self.search = ""
        self.shown = None
        notes = [sentence]
        if self.level == "perfect" and not self.perfect_offered():
            self.level = STRONGEST
            notes.append(self.sentence("level_changed", level=STRONGEST))
        self.paused = pause and self.computer_to_move(live_only=False)
        if self.paused:
            notes.append(self.sentence("computer_paused", side=self.model.to_move))
        return Reply("loaded", ". ".join(notes))

    # -- settings ------------------------------------------------------------------------------

    def set_computer(self, side: str) -> Reply:
        """Who the computer plays: 'nobody', 'white', 'black' or 'both'."""
        if side not in COMPUTER_SIDES:
            raise ValueError(f"the computer plays one of {', '.join(COMPUTER_SIDES)}; got {side!r}")
        if side != "nobody" and not self._is_board:
            self._needs_board("the computer")
        return self._act(lambda: self._computer_changed(computer_side=side))

    def set_level(self, level) -> Reply:
        """The computer's level: 1 to 5, 'perfect' (small boards, standard rules) or 'custom'."""
        if level not in self.levels():
            raise ValueError(f"the level is one of {', '.join(map(str, self.levels()))}; got {level!r}")
        return self._act(lambda: self._computer_changed(level=level))

    def computer_move(self) -> Reply:
        """Let a paused computer move now (after a position was loaded)."""
        def move():
            self.paused = False
            if not self.computer_to_move():
                return Reply("refused", self._blocked_reason() or self.sentence("computer_nothing"))
            return Reply("resumed", "")
        return self._act(move)

    def _blocked_reason(self) -> str:
        if self.replaying:
            return self._replay_sentence()
        return self.sentence("game_over") if self.model.outcome() is not None else ""

    def _computer_changed(self, **setting) -> Reply:
        self.runner.cancel()
        for name, value in setting.items():
            setattr(self, name, value)
        self.paused = False
        self.search = ""
        self._settle()
        return Reply("settings", "")

    def levels(self) -> list:
        """The levels offered for this board: 1-5, 'perfect' where the solver answers, 'custom' if given."""
        offered = [n for n in LEVELS if n != "perfect" or self.perfect_offered()]
        return (["custom"] if self.custom_player is not None else []) + offered

    def perfect_offered(self) -> bool:
        """Only where the solver answers in seconds: small boards under the standard rules (its
        quiet-turn draw aside); other rule sets reach millions of positions on 3x5."""
        if not self._is_board:
            return False
        w, h = self.model.size
        return w * h <= PERFECT_MAX_POINTS and self.model.rules.with_(quiet_draw=None) == Rules.solved()

    def set_overlays(self, **overlays: bool) -> None:
        """Switch overlays: strings, legal, names, strong, large (for a projector)."""
        for name in overlays:
            if name not in OVERLAYS:
                raise ValueError(f"no overlay called {name!r}; they are {', '.join(OVERLAYS)}")
        with self.lock:
            self.overlays.update({name: bool(on) for name, on in overlays.items()})
            self.changed()

    def set_delay(self, seconds: float) -> None:
        """Seconds between the computer's animated steps (0 for tests)."""
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds <= 10:
            raise ValueError(f"the step delay is a number of seconds from 0 to 10; got {seconds!r}")
        with self.lock:
            self.delay = float(seconds)
            self.changed()

    def set_language(self, language: str) -> None:
        labels(language)
        with self.lock:
            self.language = language
            self.changed()

    def replay(self, turns: int | None) -> Reply:
        """Show the position after the first ``turns`` turns (None or the game's length: the live game)."""
        if turns is not None:
            self._needs_board("the replay")
        total = len(self.model.turns)
        if turns is not None and (isinstance(turns, bool) or not isinstance(turns, int) or not 0 <= turns <= total):
            raise ValueError(f"the game has {total} turns; replay shows 0 to {total}; got {turns!r}")

        def replay():
            self.shown = None if turns is None or turns == total else turns
            if self.shown is None:
                return Reply("live", "")
            self.pending = None
            return Reply("replaying", "")
        return self._act(replay)

    @property
    def replaying(self) -> bool:
        return self.shown is not None

    def _replay_sentence(self) -> str:
        return self.sentence("replaying", n=self.shown, total=len(self.model.turns))

    def _set_opponent(self, opponent) -> None:
        if isinstance(opponent, int) and not isinstance(opponent, bool):
            if opponent not in LEVELS:
                raise ValueError(f"opponent levels go from 1 to 5; got {opponent}")
            self.level = opponent
        elif callable(getattr(opponent, "choose_turn", None)):
            self.custom_player, self.level = opponent, "custom"
        else:
            raise ValueError(f"an opponent is a level 1-5 or a player with choose_turn(board); got {opponent!r}")
        self._needs_board("the computer")
        self.computer_side = "black"

    # -- the computer's side of things (used by the runner) ------------------------------------

    def computer_sides(self) -> set[str]:
        return {"white", "black"} if self.computer_side == "both" else {self.computer_side} - {"nobody"}

    def against_computer(self) -> bool:
        """A person plays one side and the computer the other (undo and redo then skip the computer's turns)."""
        return len(self.computer_sides()) == 1

    def computer_to_move(self, live_only: bool = True) -> bool:
        """The side to move is the computer's (and, by default, the board is live and the game goes on)."""
        if self.model.to_move not in self.computer_sides():
            return False
        return not live_only or (not self.replaying and self.model.outcome() is None)

    def computer_should_move(self) -> bool:
        return self.computer_to_move() and not self.paused

    def player_name(self, side: str) -> str:
        if side not in self.computer_sides():
            return side
        if self.level == "custom":
            return getattr(self.custom_player, "name", "computer")
        return f"level {self.level}" if isinstance(self.level, int) else f"perfect {size_text(self.model.size)}"

    def computer_step(self, step, turn_text: str, name: str) -> None:
        """The runner plays one step of the computer's turn (the lock held)."""
        self.model.push(step)
        self._redo.clear()
        self._settle()
        self.message = self.sentence("playing", name=name, move=turn_text)
        self.changed()

    def computer_done(self, sentence: str, search: str = "") -> None:
        """The runner has finished the computer's turn (the lock held)."""
        if self.model.chain:
            self.model.end_turn()
        self._settle()
        self.search = search
        self.message = sentence
        self.changed()

    def report(self, key: str, **values) -> None:
        """Say something in the status line (the computer thinking or failing, a record written)."""
        with self.lock:
            self._settle()
            self.message = self.sentence(key, **values)
            self.changed()

    # -- what the views read -------------------------------------------------------------------

    def shown_board(self):
        """The model's position on show: the live game, or a fresh Board replayed to the slider's turn."""
        if self.shown is None:
            return self.model
        board = self.model.root()
        for turn in self.model.turns[:self.shown]:
            board.push(turn)
        return board

    def headline(self, board=None) -> str:
        board = self.shown_board() if board is None else board
        outcome = board.outcome()
        if outcome is None:
            return self.sentence("turn", side=board.to_move)
        if outcome.winner:
            return self.sentence("win", side=outcome.winner, reason=outcome.reason)
        return self.sentence("draw", reason=outcome.reason)

    @property
    def status(self) -> str:
        """The short status line: what the last action did (or the replay), then whose turn or the result."""
        message = self._replay_sentence() if self.replaying else self.message
        parts = [message, self.headline()] if message else [self.headline()]
        return ". ".join(p.rstrip(".") for p in parts) + "."

    @property
    def details(self) -> str:
        """The line below the status: stones on the board shown, and the turns without capture."""
        board = self.shown_board()
        parts = [self.sentence("stones", white=self._count(board, "white"), black=self._count(board, "black"))]
        if self._is_board:
            limit = board.rules.quiet_draw
            parts.append(self.sentence("quiet", quiet=board.quiet_turns, limit=limit) if limit
                         else self.sentence("quiet_nolimit", quiet=board.quiet_turns))
        return " · ".join(parts)

    @staticmethod
    def _count(board, color: str) -> int:
        return sum(board.stone_at(p) == color for p in board.points)

    def move_texts(self) -> list[str]:
        """The turns in order, the one in progress ending in '…', a leading '…' when Black began."""
        texts = [str(t) for t in self.model.turns]
        if self.model.chain:
            texts.append(turn_text(self.model.chain) + "…")
        if self._is_board and self.model.root().to_move == "black":
            texts.insert(0, "…")
        return texts

    def move_lines(self, mark=lambda text: "▸" + text, escape=str) -> list[str]:
        """The move list, one numbered line a pair of turns; while replaying, the turn shown goes through ``mark``."""
        texts = [escape(text) for text in self.move_texts()]
        if self.shown:
            shown = self.shown - 1 + (texts[:1] == ["…"])
            texts[shown] = mark(texts[shown])
        return [f"{n // 2 + 1}. " + "  ".join(texts[n:n + 2]) for n in range(0, len(texts), 2)]

    @property
    def moves(self) -> str:
        """The move list as text; while replaying, the turn shown is marked ▸."""
        return "\n".join(self.move_lines())

    def scene(self) -> dict:
        """What the picture shows now, as plain data: the board and each mark (one meaning each)."""
        board = self.shown_board()
        scene = dict(board=_picture(board), title=self.headline(board), must=[], selected=None, targets=[],
                     approach=[], withdrawal=[], waiting=None, path=[], last=[], legal=[], strings=[])
        if self.overlays["strings"]:
            scene["strings"] = [run for run in _strings(board) if len(run) > 1]
        if self.replaying:
            scene["last"] = _path(board.turns[-1].steps) if board.turns else []
            return scene
        steps = board.legal_steps() if board.outcome() is None or board.chain else []
        if self.overlays["legal"]:
            scene["legal"] = sorted({(s.origin, s.destination) for s in steps})
        if board.chain:
            scene["path"] = _path(board.chain)
        elif board.turns:
            scene["last"] = _path(board.turns[-1].steps)
        if self.pending:
            scene.update(selected=self.pending[0], waiting=self.pending, **self.choice_strings())
            return scene
        if self.selected is None:
            scene["must"] = self.must_capture(steps)
            return scene
        mine = [s for s in steps if s.origin == self.selected]
        scene.update(selected=self.selected, targets=sorted({s.destination for s in mine}))
        for kind in ("approach", "withdrawal"):
            scene[kind] = sorted({p for s in mine if s.capture == kind for p in board.captures(s)})
        return scene

    def rules_name(self, rules: Rules | None = None) -> str:
        rules = self.model.rules if rules is None else rules
        name = rules.name() or "custom"
        return labels(self.language)[f"preset_{name}"] if name in PRESETS + ("custom",) else name


def turn_text(steps) -> str:
    """A turn's text from its steps (any model's steps: origin, destination, capture), e.g. "c1c2Ad2A"."""
    return steps[0].origin + "".join(s.destination + CAPTURE_LETTER.get(s.capture, "") for s in steps)


def _path(steps) -> list[tuple[str, str]]:
    """The (origin, destination) pairs of a turn's steps, for its arrows."""
    return [(s.origin, s.destination) for s in steps]


def _picture(model) -> Board:
    """A Board with the model's stones, for drawing (a Board draws as it is)."""
    if isinstance(model, Board):
        return model
    w, h = model.size
    symbol = {"white": "W", "black": "B", None: "."}
    rows = ["".join(symbol[model.stone_at(point_name(c, r))] for c in range(w)) for r in reversed(range(h))]
    return Board.from_diagram("\n".join(rows), to_move=model.to_move)


def _strings(board) -> list[tuple[str, ...]]:
    """Both colours' strings of a Board (other models show none)."""
    if not isinstance(board, Board):
        return []
    return board.strings("white", 2) + board.strings("black", 2)


__all__ = ["COMPUTER_SIDES", "Controller", "LEVELS", "Model", "OVERLAYS", "Reply", "SIZES", "parse_size"]
