"""Questions the notebooks ask before they show an answer: predict-then-run and concept checks.

A question cell holds the question as a comment, ``guess = ...`` for the student to replace, and
``questions.ask(name, guess)``.  The answer and its reason are kept by the question
(``answers``), not in the notebook, so nothing above the question gives it away; the cells that
compute it come after.  A guess left as ``...`` is not an error: the notebook must still run from
top to bottom (under nbval too), so the answer is shown with a nudge to guess first next time.
Nothing is graded here: a wrong guess is where the learning starts, not a lost point.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .answers import QUESTIONS

#: What a guess cell holds until the student writes something.
BLANK = ...

#: Said, after the answer, to a student who ran a question without guessing.
NUDGE = "Next time write a guess first: even a wrong one makes the answer stick."


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


def show(value) -> str:
    """A value as the feedback writes it: sets sorted in braces, whole numbers with commas."""
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(map(str, value))) + "}"
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def predict(guess, answer, why: str) -> Feedback:
    """Compare a predicted value with the computed ``answer``; say right or wrong and ``why``."""
    if guess is BLANK:
        return Feedback(None, f"No guess written yet. The answer is {show(answer)}: {why} {NUDGE}")
    if _same(guess, answer):
        return Feedback(True, f"Right: {show(answer)}. {why}")
    return Feedback(
        False, f"Not quite: you said {show(guess)}, the answer is {show(answer)}. {why}"
    )


def choose(guess, options: Mapping[str, str], answer: str, why: str) -> Feedback:
    """A concept check: ``guess`` is the letter of one of ``options`` (letter -> statement)."""
    if answer not in options:
        raise ValueError(f"the answer {answer!r} is not one of the options {', '.join(options)}")
    if guess is BLANK:
        return predict(guess, f"{answer} ({options[answer]})", why)
    letter = guess.strip().lower() if isinstance(guess, str) else guess
    letters = {key.lower(): key for key in options}
    if letter not in letters:
        return Feedback(
            None, f"{show(guess)} is not one of the letters {', '.join(options)}; pick one."
        )
    return predict(letters[letter], answer, f"{answer} says: {options[answer]}. {why}")


def judge(name: str, guess) -> Feedback:
    """The verdict on ``guess`` for the question ``name``, its answer computed now."""
    if name not in QUESTIONS:
        raise ValueError(f"there is no question named {name!r}")
    question = QUESTIONS[name]
    if question.options:
        return choose(guess, question.options, str(question.answer()), question.why)
    return predict(guess, question.answer(), question.why)


def ask(name: str, guess) -> None:
    """Print the verdict on ``guess`` for the question ``name``, once (nothing is returned, so
    the cell shows no second copy of it)."""
    print(judge(name, guess))
