"""Questions the notebooks ask before they show an answer: predict-then-run and concept checks.

A guess cell holds ``guess = ...`` for the student to replace; the cell after it calls
``predict`` or ``choose`` with the answer the package computes there and then, and prints right
or wrong with the reason.  A guess left as ``...`` is not an error: the notebook must still run
from top to bottom (under nbval too), so the answer is shown with a note that no guess was made.
Nothing is graded here: a wrong guess is where the learning starts, not a lost point.
"""

from __future__ import annotations

from dataclasses import dataclass

#: What a guess cell holds until the student writes something.
BLANK = ...


@dataclass(frozen=True)
class Feedback:
    """The verdict on one guess: ``right`` is None when no guess was written."""

    right: bool | None
    sentence: str

    def __str__(self) -> str:
        return self.sentence


def _same(guess, answer) -> bool:
    """Equal as a student means it: text without case or spaces around it, any collection of
    the same members as a set-valued answer, a whole number given as a float."""
    if isinstance(answer, (set, frozenset)):
        try:
            return set(guess) == answer
        except TypeError:
            return False
    if isinstance(answer, str):
        return isinstance(guess, str) and guess.strip().lower() == answer.strip().lower()
    if isinstance(answer, bool) or isinstance(guess, bool):
        return guess is answer
    if isinstance(answer, (int, float)) and isinstance(guess, (int, float)):
        return guess == answer
    return bool(guess == answer)


def _show(value) -> str:
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(map(str, value))) + "}"
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def predict(guess, answer, why: str, *, quiet: bool = False) -> Feedback:
    """Compare a predicted value with the computed ``answer``; say right or wrong and ``why``."""
    if guess is BLANK:
        feedback = Feedback(None, f"No guess written yet. The answer is {_show(answer)}: {why}")
    elif _same(guess, answer):
        feedback = Feedback(True, f"Right: {_show(answer)}. {why}")
    else:
        feedback = Feedback(
            False, f"Not quite: you said {_show(guess)}, the answer is {_show(answer)}. {why}"
        )
    if not quiet:
        print(feedback)
    return feedback


def choose(guess, options: dict[str, str], answer: str, why: str, *, quiet=False) -> Feedback:
    """A concept check: ``guess`` is the letter of one of ``options`` (letter -> statement)."""
    if answer not in options:
        raise ValueError(f"the answer {answer!r} is not one of the options {', '.join(options)}")
    if guess is BLANK:
        return predict(guess, f"{answer} ({options[answer]})", why, quiet=quiet)
    letter = guess.strip().lower() if isinstance(guess, str) else guess
    letters = {key.lower(): key for key in options}
    if letter not in letters:
        feedback = Feedback(
            False, f"{_show(guess)} is not one of the letters {', '.join(options)}; pick one."
        )
        if not quiet:
            print(feedback)
        return feedback
    return predict(letters[letter], answer, f"{answer} says: {options[answer]}. {why}", quiet=quiet)
