"""How a checker runs a student's function, compares its answers and shows the first difference.

``Checker(name, reference, cases, ...)`` is the public way to write one: the reference gives the
expected answer for each case, ``read`` turns a student's answer into the same form (or says what
shape it should have), and ``hint`` names the mistake when it is recognisable.  A wrong answer
draws the position and prints three lines (input, expected, yours) and then stops with an
``ExerciseFailed`` whose notebook display is its one sentence, not a traceback.

The student's code is untrusted: each call of it runs inside ``Guard.running`` (``guard``) and
must leave the boards it is given unchanged.  ``sealed_check`` wraps a whole check: the package is
verified unchanged before and after (``seal``), the student's output is summed up, and an
unfinished stub gets one sentence.
"""

from __future__ import annotations

import inspect
import reprlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from ..board import Board
from .apart import apart
from .guard import UNFINISHED, ExerciseFailed, Guard, _Unfinished, cut


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


#: What the in-kernel checkers are: quick feedback while the student works, not the grade.
GRADED_APART = (
    "This check is quick feedback: your grade is computed separately, by the course's grader,"
    " from your solution cells."
)


# -- text ------------------------------------------------------------------------------------------


def board_code(board: Board) -> str:
    """Code that rebuilds ``board`` in a notebook cell that imported ``fanorona as fa``."""
    preset = board.rules.name()
    rules = (
        ""
        if preset == "standard"
        else f", fa.Rules.{preset}()"
        if preset
        else f", fa.{board.rules!r}"
    )
    return f"fa.Board.from_fen({board.fen()!r}{rules})"


_SHORT = reprlib.Repr()
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlist, _SHORT.maxtuple = 60, 60, 12, 12
_SHORT.maxset, _SHORT.maxfrozenset, _SHORT.maxdict, _SHORT.maxlevel = 12, 12, 12, 4


def short_repr(value) -> str:
    """A repr of a student's value, cut to a line (a huge answer must not make a huge message)."""
    try:
        return cut(_SHORT.repr(value), 200)
    except Exception as e:  # a student's __repr__ that fails is no reason to fail the message
        return f"<{type(value).__name__} object whose repr failed: {type(e).__name__}>"


def code(value) -> str:
    return board_code(value) if isinstance(value, Board) else short_repr(value)


def order(value):
    """Sort point names by column then row number (so a9 comes before a10), anything else as
    text."""
    if isinstance(value, str) and value[1:].isdigit():
        return (value[0], int(value[1:]))
    return (str(value), 0)


def _sorted(values):
    return sorted(values, key=lambda v: order(v) if isinstance(v, str) else (fmt(v), 0))


def fmt(value) -> str:
    """A stable, readable text for the sets, dicts and tuples in answers; a string of stones (a
    frozenset) shows as a tuple of its points; a multiset (Counter) as a set whose repeated members
    say how often they come."""
    if isinstance(value, Counter):
        items = [fmt(v) + (f" (x{value[v]})" if value[v] > 1 else "") for v in _sorted(+value)]
        return "{" + ", ".join(items) + "}" if items else "set()"
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(
                f"{k!r}: {fmt(v)}" for k, v in sorted(value.items(), key=lambda kv: order(kv[0]))
            )
            + "}"
        )
    if isinstance(value, frozenset):
        return fmt(tuple(sorted(value, key=order)))
    if isinstance(value, set):
        items = [fmt(v) for v in _sorted(value)]
        return "{" + ", ".join(items) + "}" if items else "set()"
    if isinstance(value, tuple):
        return "(" + ", ".join(fmt(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return short_repr(value)


def differences(expected, actual) -> str:
    """'Missing {...}; extra {...}.' for two sets or multisets, cut to a readable length."""
    if isinstance(expected, Counter) or isinstance(actual, Counter):
        expected, actual = Counter(expected), Counter(actual)
        missing, extra = expected - actual, actual - expected
    else:
        missing, extra = expected - actual, actual - expected
    parts = ([f"missing {cut(fmt(missing), 300)}"] if missing else []) + (
        [f"extra {cut(fmt(extra), 300)}"] if extra else []
    )
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "." if text else ""


def repeats(actual) -> list:
    """The members a multiset answer lists more than once."""
    return _sorted(v for v, n in actual.items() if n > 1) if isinstance(actual, Counter) else []


def repeat_hint(actual, what: str = "answer") -> str:
    """The sentence for members listed more than once ("" when there are none)."""
    again = repeats(actual)
    if not again:
        return ""
    times = {2: "twice", 3: "three times"}.get(actual[again[0]], f"{actual[again[0]]} times")
    return f"{cut(fmt(again[0]), 200)} is listed {times}: each {what} belongs in the answer once."


def plain_text(value) -> str:
    """A student's str (or str subclass) as a plain str, so its own __eq__ or __hash__ cannot
    fool a comparison."""
    return str.__str__(value) if isinstance(value, str) else str(value)


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

    from ..ui.draw import board_png

    display(
        Image(board_png(board, title=title, **drawing), alt=f"{title}. Position: {board.fen()}")
    )


# -- reading answers
# --------------------------------------------------------------------------------


def iterable(value) -> bool:
    try:
        iter(value)
    except TypeError:
        return False
    return True


def wrong_shape(call: str, answer, wanted: str) -> TypeError:
    """A TypeError that names the input; a None answer most often means a missing ``return``."""
    if answer is None:
        return TypeError(
            f"{call} returned None: did you forget `return`? It should return {wanted}."
        )
    return TypeError(f"{call} should return {wanted}; got {short_repr(answer)}")


def point_set(answer, call: str) -> Counter:
    """A student's collection of point names as a multiset (a repeat is a mistake), refusing a
    lone string."""
    if isinstance(answer, str) or not iterable(answer):
        raise wrong_shape(call, answer, "a collection of point names such as {'a2', 'b1'}")
    return Counter(plain_text(p) if isinstance(p, str) else p for p in answer)


# -- running the student's code
# ---------------------------------------------------------------------


def board_state(board: Board) -> tuple:
    """What a student's function must leave as it was on a board it is given (cheap: it is taken
    around every call)."""
    return board.key(), board.rules, board.size, tuple(board.turns), len(board._history)


def unchanged(args: tuple, before: list, call) -> None:
    """Fail with a sentence if the student's call changed a board it was given (``call``: the
    call's text, or a function giving it)."""
    for arg, was in zip(args, before):
        if isinstance(arg, Board) and board_state(arg) != was:
            now = board_state(arg)
            what = (
                "its position"
                if now[0] != was[0]
                else (
                    "its rules"
                    if now[1] != was[1]
                    else "its turns"
                    if now[3] != was[3]
                    else "its history"
                )
            )
            text = call() if callable(call) else call
            raise ExerciseFailed(
                cut(
                    f"{text} changed the board it was given ({what}; afterwards "
                    f"{board_code(arg)}): leave the board as it was and return the answer "
                    "(build a new dict or board instead).",
                    900,
                )
            )


# -- the checker
# ------------------------------------------------------------------------------------


@dataclass
class Checker:
    """A check of a student's function against a reference on many cases.

    - ``name``: the function's name, used to print each input as a call;
    - ``reference``: ``reference(*case.args)`` is the expected answer, in comparable form;
    - ``cases``: a function returning the cases (``Case`` objects, or argument tuples);
    - ``read``: ``read(answer, call)`` turns the student's answer into comparable form, or raises
      a TypeError saying which shape is wanted (``wrong_shape`` helps); a ``Counter`` is
      compared as a multiset, so a member listed twice is a mistake of its own;
    - ``hint``: ``hint(case, expected, actual)``: a sentence naming the mistake, or "" for none
      (given sets when the answers are multisets);
    - ``show_difference``: ``show_difference(case, expected, actual)``: extra ``draw_board``
      options that mark what differs;
    - ``what``: what the answers are, for the messages ("The captures").

    Calling the checker with the student's function returns the number of cases and prints
    ``All N cases agree.``; at the first difference it shows the case and raises ExerciseFailed.
    Each call runs under the ``Guard``'s time limit and must leave the boards it is given unchanged.
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

    def answer(self, fn, case: Case, guard: Guard):
        """The student's answer to one case, read.  If the function raises or its answer has the
        wrong shape, show the input first, then let the student's own error through."""
        args = tuple(a.copy() if isinstance(a, Board) else a for a in case.args)
        before = [board_state(a) if isinstance(a, Board) else None for a in args]
        call = lambda: self.call_text(case)  # noqa: E731 - worked out only when something is wrong

        def went_wrong():
            show(case.board, f"your function went wrong on {self.short(case)}", **case.drawing)
            print(f"Input: {call()}")

        with guard.running(call, went_wrong):
            answer = fn(*args)
            if isinstance(answer, Iterator):  # a generator's code runs under the time limit too
                answer = list(answer)
        unchanged(args, before, call)
        try:
            return self.read(answer, "")
        except Exception:  # read it again to say what is wrong with the call's text in the message
            pass
        try:
            return self.read(answer, call())
        except Exception:
            went_wrong()
            raise

    def fail(self, case: Case, expected, actual, hint: str = "") -> None:
        """Show the case that differs, print input, expected and actual, and stop."""
        call = self.call_text(case)
        drawing = {**case.drawing, **self.show_difference(case, *as_sets(expected, actual))}
        show(case.board, f"{self.what}: {self.short(case)}", **drawing)
        print(f"Input:       {call}")
        print(f"Expected:    {cut(fmt(expected))}")
        print(f"Your answer: {cut(fmt(actual))}")
        raise ExerciseFailed(f"{self.what} for {call} differ from the rules. {hint}".strip())

    def judge(self, case: Case, expected, actual) -> None:
        """Fail unless the answers agree, with the hint for what differs."""
        if actual == expected:
            return
        self.fail(case, expected, actual, self.hint_for(case, expected, actual))

    def hint_for(self, case: Case, expected, actual) -> str:
        """The hint: a repeat first (alone if it is the only mistake), else the checker's own
        hint."""
        again = repeat_hint(actual, "one")
        if again and set(actual) == set(expected):
            return again
        hint = self.hint(case, *as_sets(expected, actual))
        return f"{hint} Also, {again[:1].lower()}{again[1:]}" if again and hint else hint or again

    def __call__(self, fn) -> int:
        return sealed_check(lambda guard: self.run(fn, guard))

    def run(self, fn, guard: Guard) -> int:
        n = 0
        for case in self.cases():
            case = (
                case
                if isinstance(case, Case)
                else Case(case if isinstance(case, tuple) else (case,))
            )
            expected = self.reference(*case.args)
            actual = self.answer(fn, case, guard)
            n += 1
            self.judge(case, expected, actual)
        return n


def as_sets(expected, actual):
    """Multiset answers as sets (what the hints and pictures work on); others as they are."""
    if isinstance(expected, Counter) or isinstance(actual, Counter):
        return set(expected), set(actual)
    return expected, actual


def sealed_check(run: Callable[[Guard], int], guard: Guard | None = None) -> int:
    """Run a whole check: the package verified unchanged before and after, the student's calls
    under one ``Guard``, what they printed shown, and ``All N cases agree.`` at the end.  In a
    kernel the check runs in a forked child (``apart``), so that a call which will not stop, not
    even for a signal, is ended there and the kernel goes on; elsewhere (a script, the grader's
    sandboxed worker) it runs here."""
    from .seal import tampering

    changed = tampering()
    if changed:
        raise ExerciseFailed(changed)
    if in_notebook():
        return apart(lambda: _check(run, guard or Guard()))
    return _check(run, guard or Guard())


def _check(run: Callable[[Guard], int], guard: Guard) -> int:
    from .seal import tampering

    try:
        n = run(guard)
    except _Unfinished:
        raise ExerciseFailed(UNFINISHED) from None
    finally:
        guard.report_output()
        changed = tampering()
        if changed:
            raise ExerciseFailed(changed)
    print(f"All {n} cases agree.")
    if in_notebook():
        print(GRADED_APART)
    return n


def checked(run: Callable):
    """For checkers written as plain functions ``run(student, guard) -> cases``: sealed, guarded,
    and an unfinished answer gets the one sentence."""

    @wraps(run)
    def check(student) -> int:
        return sealed_check(lambda guard: run(student, guard))

    signature = inspect.signature(run)
    # inspect.signature reads __signature__; wraps()'s type in the stubs does not declare it
    check.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=list(signature.parameters.values())[:1]
    )
    return check
