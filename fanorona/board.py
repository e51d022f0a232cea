"""A Fanorona position, whose turn it is, the capture chain in progress, and its history.

``Board`` is the one object most users touch: ``legal_turns()``, ``push()``, ``pop()``,
``after()``, ``outcome()``.  Underneath, a position is two integers used as bit sets (one
bit a point) and the move generator of ``movegen`` works on those; everything a board hands
out is a plain ``Step`` or ``Turn`` named by point names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from .geometry import MAX_HEIGHT, MAX_WIDTH, check_size, geometry, point_name, short_repr
from .movegen import KIND_NAME, KIND_OF, PAIKA, advance, generator
from .movegen import bits as _bits
from .notation import (
    CAPTURE_LETTER,
    SYMBOL,
    NotationError,
    format_diagram,
    format_fen,
    parse_diagram,
    parse_fen,
    parse_point_name,
    tokenize_turn,
)
from .rules import Rules


class Color(str, Enum):
    """A side. Equal to the plain strings ``"white"`` and ``"black"``."""

    WHITE = "white"
    BLACK = "black"

    def __str__(self) -> str:
        return self.value

    @property
    def other(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE


def _color(value) -> Color:
    try:
        return Color(value)
    except ValueError:
        raise ValueError(f"a side is 'white' or 'black'; got {short_repr(value)}") from None


#: Every point name of the biggest board, so that a Step checks its points without parsing them.
_POINT_NAMES = frozenset(point_name(c, r) for c in range(MAX_WIDTH) for r in range(MAX_HEIGHT))


class IllegalMoveError(ValueError):
    """A step or turn that the rules do not allow here; the message says which rule."""


@dataclass(frozen=True)
class Step:
    """One stone moving one point along a line, capturing by approach, withdrawal or not at all."""

    origin: str
    destination: str
    capture: str | None = None  # None, "approach" or "withdrawal"

    def __post_init__(self):
        for point in (self.origin, self.destination):
            if not (isinstance(point, str) and point in _POINT_NAMES):
                parse_point_name(point)  # says what is wrong with the name
                raise NotationError(
                    f"{point} is not a point name on any board: they have at most {MAX_HEIGHT} rows"
                )
        if not (
            self.capture is None or (isinstance(self.capture, str) and self.capture in KIND_OF)
        ):
            raise ValueError(
                f"a step's capture is None, 'approach' or 'withdrawal'; got "
                f"{short_repr(self.capture)}"
            )

    def __str__(self) -> str:
        return f"{self.origin}{self.destination}{CAPTURE_LETTER.get(self.capture, '')}"

    def __repr__(self) -> str:
        return f"<Step {self}>"


@dataclass(frozen=True)
class Turn:
    """A whole turn: one step, or a capture followed by the chain's further captures."""

    steps: tuple[Step, ...]

    def __post_init__(self):
        object.__setattr__(self, "steps", tuple(self.steps))
        for step in self.steps:
            if not isinstance(step, Step):
                raise TypeError(
                    "a turn is made of Step objects, e.g. Step('d2', 'e3', 'approach'); "
                    f"got {short_repr(step)}"
                )
        if not self.steps:
            raise ValueError("a turn has at least one step")
        for a, b in zip(self.steps, self.steps[1:]):
            if b.origin != a.destination:
                raise ValueError(f"step {b} does not start where {a} ended")

    @property
    def start(self) -> str:
        return self.steps[0].origin

    @property
    def path(self) -> tuple[str, ...]:
        """The points the stone stands on during the turn, the start first."""
        return (self.start,) + tuple(s.destination for s in self.steps)

    @property
    def is_capture(self) -> bool:
        return self.steps[0].capture is not None

    def __str__(self) -> str:
        return self.start + "".join(
            s.destination + CAPTURE_LETTER.get(s.capture, "") for s in self.steps
        )

    def __repr__(self) -> str:
        return f"<Turn {self}>"


class Termination(Enum):
    """Why a game ended: by a rule (the first three), on stones, or by the players' declaration."""

    NO_STONES = "no_stones"  # the loser has no stones left
    NO_LEGAL_TURN = "no_legal_turn"  # the loser, to move, has no legal turn
    QUIET_DRAW = "quiet_draw"  # Rules.quiet_draw turns in a row without a capture: a draw
    ADJUDICATED = "adjudicated"  # stopped on time or by agreement: more stones wins
    DECLARED = "declared"  # resignation, agreement, time...: in the players' own words


#: The terminations a board reaches by its rules alone (``Board.outcome()``).
RULE_TERMINATIONS = frozenset(
    {Termination.NO_STONES, Termination.NO_LEGAL_TURN, Termination.QUIET_DRAW}
)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the ``winner`` ("white", "black", or None for a draw) and the
    ``termination``; ``reason`` is the sentence made from them (python-chess's ``Outcome``).

    ``counts`` holds the numbers the sentence names: the quiet turns of a ``QUIET_DRAW``, white's
    and black's stones of an ``ADJUDICATED`` game.  ``Outcome(winner, "words")`` is a ``DECLARED``
    ending in those words, e.g. ``Outcome(None, "agreed by both players")``.
    """

    winner: str | None
    termination: Termination = Termination.DECLARED
    counts: tuple[int, ...] = ()
    words: str = ""

    @classmethod
    def from_words(cls, winner: str | None, words: str) -> Outcome:
        """``Outcome(winner, words)`` spelled out for type checkers: see ``_from_words``."""
        winner = None if winner is None else _color(winner).value
        return cls(winner, *_from_words(winner, words))

    def __post_init__(self):
        if self.winner is not None:
            object.__setattr__(self, "winner", _color(self.winner).value)
        if isinstance(self.termination, str):  # Outcome(winner, "words"): see _from_words
            kind, counts, words = _from_words(self.winner, self.termination)
            object.__setattr__(self, "termination", kind)
            object.__setattr__(self, "counts", counts)
            object.__setattr__(self, "words", words)
        if not isinstance(self.termination, Termination):
            raise ValueError(
                f"an outcome's termination is a fanorona.Termination; got "
                f"{short_repr(self.termination)}"
            )
        object.__setattr__(self, "counts", tuple(self.counts))
        problem = self._problem()
        if problem:
            raise ValueError(f"{self.termination.name}: {problem}")

    def _problem(self) -> str | None:
        """What is inconsistent between the termination, the winner and the counts, if anything."""
        kind, counts = self.termination, self.counts
        if kind is Termination.DECLARED:
            return (
                None
                if isinstance(self.words, str) and self.words.strip()
                else "say in words how it ended"
            )
        if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts):
            return f"counts are whole numbers; got {short_repr(counts)}"
        if kind in (Termination.NO_STONES, Termination.NO_LEGAL_TURN):
            return "a side wins it" if self.winner is None or counts else None
        if kind is Termination.QUIET_DRAW:
            return (
                "a draw after a count of quiet turns"
                if self.winner is not None or len(counts) != 1
                else None
            )
        if len(counts) != 2:
            return "counts are white's and black's stones"
        w, b = counts
        return (
            None
            if self.winner == ("white" if w > b else "black" if b > w else None)
            else f"{w} white to {b} black is not won by {self.winner}"
        )

    @property
    def reason(self) -> str:
        """The sentence: why the game ended."""
        kind = self.termination
        loser = _color(self.winner).other.value if self.winner else None
        if kind is Termination.NO_STONES:
            return f"{loser} has no stones left"
        if kind is Termination.NO_LEGAL_TURN:
            return f"{loser} has no legal turn"
        if kind is Termination.QUIET_DRAW:
            return f"{self.counts[0]} turns in a row without a capture"
        if kind is Termination.ADJUDICATED:
            return f"adjudicated on stones, {self.counts[0]} white to {self.counts[1]} black"
        return self.words

    def __str__(self) -> str:
        return f"{self.winner} wins: {self.reason}" if self.winner else f"draw: {self.reason}"

    def __repr__(self) -> str:
        return f"<Outcome {self}>"


#: The rule endings and the adjudication as older code and older records wrote them, in canonical
#: form.
_ENDING_WORDS = re.compile(
    r"(?P<loser>white|black) has no (?P<what>stones left|legal turn)"
    r"|(?P<quiet>[0-9]+) turns in a row without a capture"
    r"|adjudicated on stones(?:, (?P<w>[0-9]+) white to (?P<b>[0-9]+) black)?(?P<rest>.*)"
)


def _from_words(winner: str | None, words: str) -> tuple[Termination, tuple[int, ...], str]:
    """An ending given in words (``Outcome(winner, words)``, records written before terminations):
    a rule ending or an adjudication in any spelling (case, spaces, a full stop) is that
    termination, so it is checked as one; any other words are a ``DECLARED`` ending."""
    if not isinstance(words, str):
        raise ValueError(f"an outcome's reason is text; got {short_repr(words)}")
    found = _ENDING_WORDS.fullmatch(" ".join(words.casefold().split()).rstrip(".!"))
    if found is None:
        return Termination.DECLARED, (), words
    if found["loser"]:
        if winner != Color(found["loser"]).other.value:
            raise ValueError(
                f"the reason {words!r} says {found['loser']} lost, but the winner is {winner}"
            )
        kind = (
            Termination.NO_STONES if found["what"] == "stones left" else Termination.NO_LEGAL_TURN
        )
        return kind, (), ""
    if found["quiet"]:
        return Termination.QUIET_DRAW, (int(found["quiet"]),), ""
    if found["w"] is None or found["rest"]:
        raise ValueError(
            f"an adjudication reads 'adjudicated on stones, W white to B black'; got {words!r}"
        )
    return Termination.ADJUDICATED, (int(found["w"]), int(found["b"])), ""


def turn_of(g, steps) -> Turn:
    """The ``Turn`` of a turn's steps in the generator's form (see ``movegen``), on geometry
    ``g``."""
    return Turn(tuple(Step(g.names[s[0]], g.names[s[1]], KIND_NAME[s[3]]) for s in steps))


# ---------------------------------------------------------------------------------------------


def _which(n: int, step, steps) -> str:
    """Name the failing step when a turn has several."""
    return f"step {n} ({step}): " if len(steps) > 1 else ""


def start_rows(width: int, height: int) -> list[list[str | None]]:
    """The start position, rows bottom first: White below, Black above, the middle row alternating
    so that a half turn with the colours swapped maps it onto itself, its centre empty."""
    half = width // 2
    left: list[str | None] = ["black" if c % 2 == 0 else "white" for c in range(half)]
    swap = {"white": "black", "black": "white"}
    middle = left + [None] + [swap[c] for c in reversed(left) if c is not None]
    mid = height // 2
    white: list[str | None] = ["white"] * width
    black: list[str | None] = ["black"] * width
    return [white] * mid + [middle] + [black] * mid


class Board:
    """A position with its rules, whose turn it is, the chain in progress and the history.

    >>> b = Board()
    >>> len(b.legal_turns())
    5
    """

    def __init__(self, size=(9, 5), rules: Rules | None = None):
        self.geometry = geometry(*check_size(size))
        self.rules = Rules() if rules is None else rules
        if not isinstance(self.rules, Rules):
            raise ValueError(
                f"rules must be a fanorona.Rules, e.g. Rules.simple(); got {short_repr(rules)}"
            )
        self._set_rows(start_rows(*self.geometry.size), Color.WHITE)

    # -- construction and text -----------------------------------------------------------------

    @classmethod
    def from_diagram(cls, text: str, to_move="white", rules: Rules | None = None) -> Board:
        """A board from a diagram: rows top first, one character a point (W, B or '.')."""
        rows = parse_diagram(text)
        try:
            size = check_size((len(rows[0]), len(rows)))
        except ValueError as e:
            raise NotationError(f"the diagram is {len(rows[0])}x{len(rows)}: {e}") from None
        board = cls(size, rules)
        board._set_rows(rows, _color(to_move))
        return board

    @classmethod
    def from_fen(cls, text: str, rules: Rules | None = None) -> Board:
        """A board from its one-line position text, e.g. ``"BBB/B.W/WWW w"``."""
        diagram, side = parse_fen(text)
        return cls.from_diagram(diagram, side, rules)

    def _set_rows(self, rows, to_move: Color) -> None:
        white = black = 0
        for r, row in enumerate(rows):
            for c, stone in enumerate(row):
                bit = 1 << (r * self.geometry.width + c)
                white |= bit if stone == "white" else 0
                black |= bit if stone == "black" else 0
        self._white, self._black, self._to_move = white, black, to_move
        self._chain = None  # (point, visited, last direction, used directions) mid-chain
        self._chain_path: tuple[Step, ...] = ()
        self._quiet = 0  # turns in a row without a capture
        self._ply = 0  # whole turns played since the board's first position
        self._history: list = []
        self.turns: list[Turn] = []  # the whole turns played, oldest first

    def diagram(self) -> str:
        """Rows top first, one character a point: W, B or '.'."""
        return format_diagram(self._rows())

    def fen(self) -> str:
        """The one-line position text: the diagram's rows joined by '/', then 'w' or 'b'."""
        return format_fen(self.diagram(), self._to_move.value)

    def _rows(self):
        w, h = self.geometry.size
        return [[self.stone_at_index(r * w + c) for c in range(w)] for r in range(h)]

    def __repr__(self) -> str:
        return f"Board.from_fen({self.fen()!r})"

    def __str__(self) -> str:
        w = self.geometry.width
        lines = [
            f"{r + 1:>2} " + " ".join(SYMBOL[c] for c in row)
            for r, row in reversed(list(enumerate(self._rows())))
        ]
        lines.append("   " + " ".join(chr(ord("a") + c) for c in range(w)))
        return "\n".join(lines)

    def _repr_png_(self) -> bytes | None:
        """The picture, or None where matplotlib (or the numpy it needs) is not installed, as in a
        JupyterLite kernel without them: the notebook then shows the text diagram."""
        try:
            from .ui.draw import board_png
        except ImportError:
            return None
        return board_png(self)

    # -- looking at the position ---------------------------------------------------------------

    @property
    def size(self) -> tuple[int, int]:
        return self.geometry.size

    @property
    def to_move(self) -> Color:
        return self._to_move

    @property
    def points(self) -> tuple[str, ...]:
        return self.geometry.names

    @property
    def quiet_turns(self) -> int:
        """Turns in a row without a capture (the draw rule counts these)."""
        return self._quiet

    @property
    def chain(self) -> tuple[Step, ...]:
        """The steps played so far in a turn that is still in progress (empty between turns)."""
        return self._chain_path

    @property
    def chain_stone(self) -> str | None:
        """The point of the stone that is capturing in a chain, if a chain is in progress."""
        return self.geometry.names[self._chain[0]] if self._chain else None

    def _point(self, name: str) -> int:
        c, r = parse_point_name(name)
        if c >= self.geometry.width or r >= self.geometry.height:
            w, h = self.geometry.size
            raise NotationError(
                f"there is no point {name} on a {w}x{h} board (a1 to {self.geometry.names[-1]})"
            )
        return r * self.geometry.width + c

    def stone_at_index(self, i: int) -> Color | None:
        if (self._white >> i) & 1:
            return Color.WHITE
        if (self._black >> i) & 1:
            return Color.BLACK
        return None

    def stone_at(self, point: str) -> Color | None:
        """``Color.WHITE``, ``Color.BLACK`` or None for an empty point."""
        return self.stone_at_index(self._point(point))

    def stones(self, color) -> list[str]:
        """The points holding stones of a colour."""
        bits = self._white if _color(color) is Color.WHITE else self._black
        return [self.geometry.names[i] for i in _bits(bits)]

    def count(self, color) -> int:
        return len(self.stones(color))

    def strings(self, color, min_length: int = 1) -> list[tuple[str, ...]]:
        """Every string of a colour: a maximal unbroken run of its stones along one grid line.

        A stone lies on one string per line through it, so a stone with no friend beside it on
        a line is a one-stone string on that line; ``min_length=2`` keeps the longer ones only.
        """
        bits = self._white if _color(color) is Color.WHITE else self._black
        found = []
        for line in self.geometry.lines:
            run: list[int] = []
            for p in line + (-1,):
                if p >= 0 and (bits >> p) & 1:
                    run.append(p)
                    continue
                if len(run) >= min_length:
                    found.append(tuple(self.geometry.names[i] for i in run))
                run = []
        return found

    def key(self):
        """A hashable value equal for equal positions (stones, side to move, chain in progress)."""
        return (self._white, self._black, self._to_move is Color.WHITE, self._chain)

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Board)
            and self.key() == other.key()
            and self.size == other.size
            and self.rules == other.rules
        )

    __hash__ = None  # type: ignore[assignment]  # a board changes; use key() for dictionaries

    # -- the moves -----------------------------------------------------------------------------

    def _me_opp(self) -> tuple[int, int]:
        return (
            (self._white, self._black)
            if self._to_move is Color.WHITE
            else (self._black, self._white)
        )

    def _single(self) -> bool:
        return self.rules.opening_single_capture and self._ply < 2

    def _over(self) -> bool:
        return self.outcome() is not None

    def _generator(self):
        return generator(self.geometry, self.rules)

    def _raw_steps(self) -> list:
        """The legal single steps now, in the generator's form."""
        if self._chain is None and self._over():
            return []
        me, opp = self._me_opp()
        if self._chain is not None:
            return self._generator().chain_steps(me, opp, self._chain)
        captures, quiet = self._generator().first_steps(me, opp)
        return captures if captures and self.rules.mandatory_capture else captures + quiet

    def _raw_turns(self) -> list:
        if self._chain is None and self._over():
            return []
        me, opp = self._me_opp()
        return self._generator().turns(me, opp, self._single(), self._chain)

    def _step(self, raw) -> Step:
        return turn_of(self.geometry, (raw,)).steps[0]

    def legal_steps(self) -> list[Step]:
        """The single steps allowed now: a turn's first steps, or the chain's next captures."""
        return [self._step(s) for s in self._raw_steps()]

    def legal_turns(self) -> list[Turn]:
        """Every complete turn: each capture choice, step path and allowed stopping point once.

        During a chain, the ways to finish the turn in progress (ending it now is ``end_turn()``).
        """
        return [turn_of(self.geometry, steps) for steps, *_ in self._raw_turns()]

    def captures(self, step: Step) -> list[str]:
        """The points whose stones a legal step would capture."""
        raw = self._find_step(step)
        return [self.geometry.names[i] for i in _bits(raw[4])]

    def _find_step(self, step: Step):
        if not isinstance(step, Step):
            raise TypeError(f"expected a Step, got {step!r}")
        for raw in self._raw_steps():
            if self._step(raw) == step:
                return raw
        raise IllegalMoveError(self._why_not(step))

    def push(self, move: Step | Turn | str) -> None:
        """Play a step, a whole turn, or a turn's text; an illegal one changes nothing."""
        if isinstance(move, str):
            played = self._played_text(move)  # read and tried once, not again as a Turn
            self._take(self._turn_played(played), played)
        elif isinstance(move, Step):
            raw = self._find_step(move)
            self._history.append((move, self._snapshot()))
            self._play(raw)
        elif isinstance(move, Turn):
            self._take(
                move,
                self._trial_turn(
                    str(move), [(s.origin, s.destination, s.capture) for s in move.steps]
                ),
            )
        else:
            raise TypeError(f"push takes a Step, a Turn or turn text; got {short_repr(move)}")

    def _take(self, move: Turn, played: Board) -> None:
        """Record ``move`` and take over the position a trial board reached by playing it."""
        self._history.append((move, self._snapshot()))
        self._restore(played._snapshot()[:-1] + (len(self.turns),))  # its position, our turns
        self.turns.append(played.turns[-1])

    def end_turn(self) -> None:
        """Stop a capture chain here (where the rules let the chain stop)."""
        if self._chain is None:
            raise IllegalMoveError("there is no capture chain in progress to end")
        if self.rules.must_continue and self._raw_steps():
            options = ", ".join(str(s) for s in self.legal_steps())
            raise IllegalMoveError(f"the chain must go on while it can capture: {options}")
        self._history.append(("end_turn", self._snapshot()))
        self._finish_turn()

    def pop(self):
        """Undo the last ``push`` or ``end_turn`` and return what it played."""
        if not self._history:
            raise IndexError("nothing to undo: no move has been played on this board")
        move, snapshot = self._history.pop()
        self._restore(snapshot)
        return move

    def after(self, move) -> Board:
        """A new board with ``move`` played; this one unchanged."""
        board = self.copy()
        board.push(move)
        return board

    def copy(self) -> Board:
        board = Board.__new__(Board)
        board.geometry, board.rules = self.geometry, self.rules
        board.turns = list(self.turns)
        board._restore(self._snapshot())
        board._history = list(self._history)
        return board

    def _scratch(self) -> Board:
        """A copy without history or past turns, to try a turn on: it costs the same at any game
        length."""
        board = Board.__new__(Board)
        board.geometry, board.rules, board.turns, board._history = self.geometry, self.rules, [], []
        board._restore(self._snapshot()[:-1] + (0,))
        return board

    def root(self) -> Board:
        """A new board at the first position of this board's history."""
        board = self.copy()
        if board._history:
            board._restore(board._history[0][1])
            board._history = []
        return board

    def _snapshot(self):
        """The position and counters, with the number of turns played: the turns themselves are
        kept once, in ``self.turns``, so that history grows linearly with the game."""
        return (
            self._white,
            self._black,
            self._to_move,
            self._chain,
            self._chain_path,
            self._quiet,
            self._ply,
            len(self.turns),
        )

    def _restore(self, snap) -> None:
        """Go back to a snapshot of this board (or of a copy with the same turns before it)."""
        (
            self._white,
            self._black,
            self._to_move,
            self._chain,
            self._chain_path,
            self._quiet,
            self._ply,
            turns,
        ) = snap
        del self.turns[turns:]

    def _play(self, raw) -> None:
        """Make one legal step; end the turn when the chain cannot or may not go on."""
        me, opp = self._me_opp()
        me, opp = me ^ (1 << raw[0]) ^ (1 << raw[1]), opp ^ raw[4]
        self._white, self._black = (me, opp) if self._to_move is Color.WHITE else (opp, me)
        self._chain_path += (self._step(raw),)
        if raw[3] == PAIKA:
            self._finish_turn()
            return
        self._chain = advance(self._chain, raw)
        if not (self.rules.chains and not self._single() and self._raw_steps()):
            self._finish_turn()

    def _finish_turn(self) -> None:
        turn = Turn(self._chain_path)
        self.turns.append(turn)
        self._quiet = 0 if turn.is_capture else self._quiet + 1
        self._ply += 1
        self._chain, self._chain_path = None, ()
        self._to_move = self._to_move.other

    # -- explaining what is illegal ------------------------------------------------------------

    def _trial_turn(self, label: str, steps, infer: bool = False) -> Board:
        """A copy of this board with a whole turn of (origin, destination, capture) steps played.

        Raises IllegalMoveError naming the step and the rule at the first that is not allowed.
        With ``infer``, a capture left out (None) is read as the only one the step can make.
        """
        trial = self._scratch()
        for n, (origin, dest, capture) in enumerate(steps, 1):
            if n > 1 and trial._chain is None:
                raise IllegalMoveError(
                    f"{label}: the turn is over after {trial.turns[-1].steps[-1]}: "
                    + self._why_chain_ended(trial, dest)
                )
            if infer and capture is None:
                options = [
                    s for s in trial.legal_steps() if (s.origin, s.destination) == (origin, dest)
                ]
                if len(options) > 1:
                    raise NotationError(
                        f"{label}: {origin}-{dest} captures both by approach and by withdrawal: "
                        f"write {options[0]} or {options[1]}"
                    )
                capture = options[0].capture if options else None
            step = Step(origin, dest, capture)
            try:
                trial._play(trial._find_step(step))
            except IllegalMoveError as e:
                raise IllegalMoveError(f"{label}: {_which(n, step, steps)}{e}") from None
        if trial._chain is not None:
            if self.rules.must_continue:
                raise IllegalMoveError(
                    f"{label}: the chain must go on while it can capture: "
                    + ", ".join(map(str, trial.legal_steps()))
                )
            trial._finish_turn()
        return trial

    def _why_chain_ended(self, trial: Board, destination: str) -> str:
        """Why a turn's text goes on to ``destination`` after ``trial`` has already ended the
        turn."""
        if not self.rules.chains:
            return "these rules have no capture chains"
        if self._single():
            return "a side's first turn captures one string only under these rules"
        last = trial.turns[-1].steps[-1] if trial.turns else None
        if last is not None and last.capture is None:
            return "a step that captures nothing ends the turn"
        return (
            self._chain_rule_against(trial, destination)
            or "no further capture is possible from there"
        )

    def _chain_rule_against(self, trial: Board, destination: str) -> str | None:
        """The chain rule that forbids the stone which just ended its turn on ``trial`` to go on to
        the empty ``destination``, if one does; the chain state is gone, so it is rebuilt from the
        path."""
        g, path = self.geometry, [self.geometry.index[p] for p in trial.turns[-1].path]
        there = g.index.get(destination)
        if there not in g.neighbour[path[-1]] or trial.stone_at_index(there) is not None:
            return None
        chain = None
        for a, b in zip(path, path[1:]):
            chain = advance(chain, (a, b, g.neighbour[a].index(b), None, 0))
        return self._generator().chain_rule.refusal(
            chain, there, g.neighbour[path[-1]].index(there), destination
        )

    def _why_not(self, step: Step) -> str:
        """A sentence saying which rule forbids ``step``: the first of these checks that finds
        one."""
        p, q = self._point(step.origin), self._point(step.destination)
        checks = (
            self._refusal_of_game_over,
            self._refusal_of_stone,
            self._refusal_of_line,
            self._refusal_of_chain,
            self._refusal_of_capture,
        )
        for check in checks:
            reason = check(step, p, q)
            if reason:
                return reason
        return f"{step} is not legal here"  # pragma: no cover - every rule is named above

    def _refusal_of_game_over(self, step: Step, p: int, q: int) -> str | None:
        outcome = self.outcome() if self._chain is None else None
        return f"the game is over ({outcome})" if outcome else None

    def _refusal_of_stone(self, step: Step, p: int, q: int) -> str | None:
        """The wrong stone: not the chain's, none at all, or the other side's."""
        if self._chain is not None and p != self._chain[0]:
            return (
                f"a capture chain is in progress: only the stone on "
                f"{self.geometry.names[self._chain[0]]} "
                f"may move, or end the turn"
            )
        stone = self.stone_at_index(p)
        if stone is None:
            return f"there is no stone on {step.origin}"
        if stone != self._to_move:
            return (
                f"the stone on {step.origin} is {stone.value}, "
                f"but it is {self._to_move.value}'s turn"
            )
        return None

    def _refusal_of_line(self, step: Step, p: int, q: int) -> str | None:
        """No line from origin to destination, or the destination taken."""
        g = self.geometry
        if q not in g.neighbour[p]:
            (c1, r1), (c2, r2) = g.coordinates(p), g.coordinates(q)
            if abs(c1 - c2) == 1 and abs(r1 - r2) == 1:
                weak = step.origin if not g.strong[p] else step.destination
                return (
                    f"no line joins {step.origin} and {step.destination}: "
                    f"{weak} is a weak point, without diagonals"
                )
            return f"{step.origin} and {step.destination} are not neighbours on a line"
        if self.stone_at_index(q) is not None:
            return f"{step.destination} is not empty"
        return None

    def _capture_kinds(self, p: int, q: int) -> dict:
        """How the step p->q (on a line, onto an empty point) captures: {"approach": bits, ...}."""
        d = self.geometry.neighbour[p].index(q)
        found = self._generator().step_captures(self._me_opp()[1], p, d)
        return {KIND_NAME[kind]: taken for kind, taken in found.items()}

    def _refusal_of_chain(self, step: Step, p: int, q: int) -> str | None:
        """A chain step against a chain rule, or one that captures nothing."""
        if self._chain is None:
            return None
        d = self.geometry.neighbour[p].index(q)
        reason = self._generator().chain_rule.refusal(self._chain, q, d, step.destination)
        if reason:
            return reason
        if not self._capture_kinds(p, q):
            return (
                "every step of a chain must capture, "
                f"and {step.origin}-{step.destination} captures nothing"
            )
        return None

    def _refusal_of_capture(self, step: Step, p: int, q: int) -> str | None:
        """A capture named wrongly, left unnamed, or left out when capture is compulsory."""
        kinds = self._capture_kinds(p, q)
        if step.capture is None and kinds:
            written = " or ".join(f"{Step(step.origin, step.destination, k)}" for k in kinds)
            return (
                f"{step.origin}-{step.destination} captures by {' or by '.join(kinds)}: "
                f"say which, as {written}"
            )
        if step.capture is not None and step.capture not in kinds:
            does = (
                f"it captures by {' and by '.join(kinds)} only" if kinds else "it captures nothing"
            )
            return f"{step.origin}-{step.destination} does not capture by {step.capture}: {does}"
        if step.capture is None and self.rules.mandatory_capture:
            capturing = sorted({str(Turn((self._step(s),))) for s in self._raw_steps()})
            return (
                f"capture is compulsory, and {self._to_move.value} can capture: "
                f"{', '.join(capturing)}"
            )
        return None

    # -- turn text -----------------------------------------------------------------------------

    def parse_turn(self, text: str) -> Turn:
        """Read turn text such as ``"e2e3Ad4W"`` for this position.

        A or W may be left out after a step that can capture only one way.
        """
        return self._turn_played(self._played_text(text))

    def _played_text(self, text: str) -> Board:
        """A trial board with the turn text played on it."""
        start, steps = tokenize_turn(text)
        for name in [start] + [d for d, _ in steps]:
            self._point(name)
        origins = [start] + [d for d, _ in steps[:-1]]
        return self._trial_turn(text, [(o, d, c) for o, (d, c) in zip(origins, steps)], infer=True)

    def _turn_played(self, played: Board) -> Turn:
        """The turn (or, during a chain, the rest of it) that took this board to ``played``."""
        return (
            played.turns[-1]
            if self._chain is None
            else Turn(played.turns[-1].steps[len(self._chain_path) :])
        )

    # -- the end of the game -------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """None while the game goes on; else who won and why."""
        if self._chain is not None:
            return None
        side, other = self._to_move, self._to_move.other
        me, opp = self._me_opp()
        if not me:
            return Outcome(other.value, Termination.NO_STONES)
        if not opp:
            return Outcome(side.value, Termination.NO_STONES)
        q = self.rules.quiet_draw
        if q is not None and self._quiet >= q:
            return Outcome(None, Termination.QUIET_DRAW, (q,))
        if not self._generator().has_step(me, opp):
            return Outcome(other.value, Termination.NO_LEGAL_TURN)
        return None

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def adjudicate(self) -> Outcome:
        """The result of a game stopped on time or by agreement: more stones wins (the Czech
        rule)."""
        w, b = self.count("white"), self.count("black")
        winner = "white" if w > b else "black" if b > w else None
        return Outcome(winner, Termination.ADJUDICATED, (w, b))


def perft(board: Board, depth: int) -> int:
    """The number of turn sequences ``depth`` whole turns deep from a board between turns."""
    if not isinstance(depth, int) or depth < 0:
        raise ValueError(f"depth is a whole number of turns, at least 0; got {depth!r}")
    if board.chain:
        raise ValueError("perft counts whole turns: finish the chain in progress first")
    if depth == 0:
        return 1
    if board.outcome() is not None:
        return 0
    me, opp = board._me_opp()
    return board._generator().perft(me, opp, depth, board._ply, board._quiet)
