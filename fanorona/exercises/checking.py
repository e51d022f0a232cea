"""How a checker runs a student's function, compares its answers and shows the first difference.

``Checker(name, reference, cases, ...)`` is the public way to write one: the reference gives the
expected answer for each case, ``read`` turns a student's answer into the same form (or says what
shape it should have), and ``hint`` names the mistake when it is recognisable.  A wrong answer
draws the position and prints three lines (input, expected, yours) and then stops with an
``ExerciseFailed`` whose notebook display is its one sentence, not a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import wraps
from typing import Any, Callable, Iterable

from ..board import Board

UNFINISHED = "Write the function first: it still raises NotImplementedError."


class ExerciseFailed(AssertionError):
    """A checker's verdict on a wrong or unfinished answer.  IPython shows only its message
    (``_render_traceback_``): the lines above it already say what differs."""

    def _render_traceback_(self) -> list[str]:
        return [f"\x1b[1;31m{type(self).__name__}\x1b[0m: {self}"]


@dataclass
class Case:
    """One input to try: the arguments for the student's function, the board to draw when the
    answer differs (the first Board argument unless given), and options for ``draw_board``."""

    args: tuple
    board: Board | None = None
    drawing: dict = field(default_factory=dict)

    def __post_init__(self):
        self.args = tuple(self.args)
        if self.board is None:
            self.board = next((a for a in self.args if isinstance(a, Board)), None)


# -- text ------------------------------------------------------------------------------------------

def board_code(board: Board) -> str:
    """Code that rebuilds ``board`` in a notebook cell that imported ``fanorona as fa``."""
    preset = board.rules.name()
    rules = "" if preset == "standard" else f", fa.Rules.{preset}()" if preset else f", fa.{board.rules!r}"
    return f"fa.Board.from_fen({board.fen()!r}{rules})"


def code(value) -> str:
    return board_code(value) if isinstance(value, Board) else repr(value)


def order(value):
    """Sort point names by column then row number (so a9 comes before a10), anything else as text."""
    if isinstance(value, str) and value[1:].isdigit():
        return (value[0], int(value[1:]))
    return (str(value), 0)


def fmt(value) -> str:
    """A stable, readable text for the sets, dicts and tuples in answers; a string of stones (a
    frozenset) shows as a tuple of its points."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {fmt(v)}" for k, v in sorted(value.items(), key=lambda kv: order(kv[0]))) + "}"
    if isinstance(value, frozenset):
        return fmt(tuple(sorted(value, key=order)))
    if isinstance(value, set):
        items = [fmt(v) for v in sorted(value, key=lambda v: order(v) if isinstance(v, str) else (fmt(v), 0))]
        return "{" + ", ".join(items) + "}" if items else "set()"
    if isinstance(value, tuple):
        return "(" + ", ".join(fmt(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def differences(expected: set, actual: set) -> str:
    """'Missing {...}; extra {...}.' for two sets."""
    missing, extra = expected - actual, actual - expected
    parts = ([f"missing {fmt(missing)}"] if missing else []) + ([f"extra {fmt(extra)}"] if extra else [])
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "." if text else ""


# -- showing ---------------------------------------------------------------------------------------

def in_notebook() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def show(board: Board | None, title: str, **drawing) -> None:
    """Draw the board in a notebook (with the title as the picture's alt text), else print it."""
    if board is None:
        return
    if not in_notebook():
        print(title)
        print(board)
        return
    from IPython.display import Image, display
    from ..draw import board_png
    display(Image(board_png(board, title=title, **drawing), alt=f"{title}. Position: {board.fen()}"))


# -- reading answers --------------------------------------------------------------------------------

def iterable(value) -> bool:
    try:
        iter(value)
    except TypeError:
        return False
    return True


def wrong_shape(call: str, answer, wanted: str) -> TypeError:
    """A TypeError that names the input; a None answer most often means a missing ``return``."""
    if answer is None:
        return TypeError(f"{call} returned None: did you forget `return`? It should return {wanted}.")
    return TypeError(f"{call} should return {wanted}; got {answer!r}")


def point_set(answer, call: str) -> set:
    """A student's collection of point names as a set, refusing a lone string."""
    if isinstance(answer, str) or not iterable(answer):
        raise wrong_shape(call, answer, "a collection of point names such as {'a2', 'b1'}")
    return set(answer)


# -- the checker ------------------------------------------------------------------------------------

class _Unfinished(Exception):
    """The student's function still raises NotImplementedError, as the stub of a student copy does."""


@dataclass
class Checker:
    """A check of a student's function against a reference on many cases.

    name: the function's name, used to print each input as a call;
    reference: ``reference(*case.args)`` is the expected answer, already in comparable form;
    cases: a function returning the cases (``Case`` objects, or argument tuples);
    read: ``read(answer, call)`` turns the student's answer into comparable form, or raises a
      TypeError saying which shape is wanted (``wrong_shape`` helps);
    hint: ``hint(case, expected, actual)``: a sentence naming the mistake, or "" for none;
    show_difference: ``show_difference(case, expected, actual)``: extra ``draw_board`` options
      that mark what differs;
    what: what the answers are, for the messages ("The captures").

    Calling the checker with the student's function returns the number of cases and prints
    ``All N cases agree.``; at the first difference it shows the case and raises ExerciseFailed.
    """

    name: str
    reference: Callable
    cases: Callable[[], Iterable]
    read: Callable[[Any, str], Any] = lambda answer, call: answer
    hint: Callable = lambda case, expected, actual: ""
    show_difference: Callable = lambda case, expected, actual: {}
    what: str = "The answers"

    def __post_init__(self):
        self.__doc__ = f"Check your ``{self.name}`` against the rules package on many cases."

    def __repr__(self) -> str:
        return f"<Checker {self.name}>"

    def call_text(self, case: Case) -> str:
        return f"{self.name}({', '.join(code(a) for a in case.args)})"

    def short(self, case: Case) -> str:
        """The call with its board written as ``board``, short enough for a picture's title."""
        text = self.call_text(case)
        return text.replace(board_code(case.board), "board") if case.board is not None else text

    def answer(self, fn, case: Case):
        """The student's answer to one case, read.  If the function raises or its answer has the
        wrong shape, show the input first, then let the student's own error through."""
        args = tuple(a.copy() if isinstance(a, Board) else a for a in case.args)
        call = self.call_text(case)
        try:
            return self.read(fn(*args), call)
        except NotImplementedError:
            raise _Unfinished() from None
        except Exception:
            show(case.board, f"your function went wrong on {self.short(case)}", **case.drawing)
            print(f"Input: {call}")
            raise

    def fail(self, case: Case, expected, actual, hint: str = "") -> None:
        """Show the case that differs, print input, expected and actual, and stop."""
        call = self.call_text(case)
        drawing = {**case.drawing, **self.show_difference(case, expected, actual)}
        show(case.board, f"{self.what}: {self.short(case)}", **drawing)
        print(f"Input:       {call}")
        print(f"Expected:    {fmt(expected)}")
        print(f"Your answer: {fmt(actual)}")
        raise ExerciseFailed(f"{self.what} for {call} differ from the rules. {hint}".strip())

    def __call__(self, fn) -> int:
        try:
            n = self.run(fn)
        except _Unfinished:
            raise ExerciseFailed(UNFINISHED) from None
        print(f"All {n} cases agree.")
        return n

    def run(self, fn) -> int:
        n = 0
        for case in self.cases():
            case = case if isinstance(case, Case) else Case(case if isinstance(case, tuple) else (case,))
            expected = self.reference(*case.args)
            actual = self.answer(fn, case)
            n += 1
            if actual != expected:
                self.fail(case, expected, actual, self.hint(case, expected, actual))
        return n


def checked_unfinished(run: Callable):
    """For checkers written as plain functions: an unfinished answer gets the one sentence."""
    @wraps(run)
    def check(*args, **kwargs):
        try:
            return run(*args, **kwargs)
        except _Unfinished:
            raise ExerciseFailed(UNFINISHED) from None
    return check


def unfinished_guard(fn):
    """Call ``fn`` but turn its NotImplementedError into the checker's 'unfinished' signal."""
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except NotImplementedError:
            raise _Unfinished() from None
    return call
