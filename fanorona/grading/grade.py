"""Grading one student's notebook: the student's cells in the sandbox, the checks in this process.

``grade_notebook(nb)`` runs every code cell that is not a graded check cell in a sandboxed worker
(``remote.Session``), in order, as a kernel would; at each check cell it calls the checker named
in the cell (``check_neighbours(neighbours)``) here, with stand-ins (``remote.Remote``) for the
student's objects.  The checkers' cases, their references, the comparison and the points never
leave this process.  A ``Checker`` that counts cases gives partial credit: the share of its cases
that agree.  Each check cell gets the checker's lines and one sentence as its output, in the form
nbgrader's ``SaveAutoGrades`` scores: an error for no points, a number for partial credit.
"""

from __future__ import annotations

import ast
import io
import math
from contextlib import redirect_stdout
from dataclasses import dataclass, field

from .. import exercises
from ..exercises import Case, Checker, ExerciseFailed, Guard
from ..exercises.guard import UNFINISHED, _Unfinished
from .remote import BoardChanged, CallTimedOut, Refused, Remote, Session, StudentError

#: Modules graded code cannot import, and the sentence for trying.
HIDDEN_MODULES = ("fanorona.exercises", "fanorona.grading", "fanorona.tournament")
APART = (
    "Your code ran in a sandbox apart from the grader: what it changes in Python, the package or"
    " the checkers does not reach the grade."
)


@dataclass
class Result:
    """What one check cell shows and scores: ``score`` None means full points."""

    text: str
    sentence: str | None = None
    score: float | None = None
    refused: bool = False

    def outputs(self, points: float) -> list[dict]:
        shown = (
            [{"output_type": "stream", "name": "stdout", "text": self.text}] if self.text else []
        )
        if self.sentence is not None and (self.refused or not self.score):
            return shown + [
                {
                    "output_type": "error",
                    "ename": "ExerciseFailed",
                    "evalue": self.sentence,
                    "traceback": [f"ExerciseFailed: {self.sentence}"],
                }
            ]
        if self.sentence is not None:
            shown.append({"output_type": "stream", "name": "stdout", "text": self.sentence + "\n"})
        score = points if self.score is None else self.score
        return shown + [
            {
                "output_type": "execute_result",
                "execution_count": None,
                "metadata": {},
                "data": {"text/plain": f"{score:g}"},
            }
        ]


def check_call(source: str) -> tuple[str, list[str]] | None:
    """The checker and the student's names a check cell's (teacher's, locked) source calls, as in
    ``cases = check_turns(turns)``; None when it calls none that way."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in reversed(list(ast.walk(tree))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id.startswith("check_")
            and callable(getattr(exercises, node.func.id, None))
            and node.args
            and all(isinstance(a, ast.Name) for a in node.args)
            and not node.keywords
        ):
            return node.func.id, [a.id for a in node.args if isinstance(a, ast.Name)]
    return None


def refusal_of(error: StudentError) -> str | None:
    """The sentence for an exception that means the sandbox refused something, else None."""
    if error.kind in ("ModuleNotFoundError", "ImportError") and any(
        str(error.missing or "").startswith(m) for m in HIDDEN_MODULES
    ):
        return (
            f"Graded code cannot import {error.missing}: the checkers, their cases and reference"
            " answers are not there for the student's functions, so a function that uses them"
            " scores nothing."
        )
    if error.kind in ("PermissionError", "OSError") and (
        "Read-only file system" in error.text or "Permission denied" in error.text
    ):
        return (
            f"Your code tried to change a file the sandbox keeps read-only ({error.text}): graded"
            " code cannot change the package or anything outside its own /tmp."
        )
    return None


def count_agreeing(checker: Checker, fn) -> tuple[int, int, str | None]:
    """(cases that agree, cases, the first difference's sentence): every case is tried, in one
    request to the worker, and the first that differs is shown as the checker shows it."""
    cases = [
        c if isinstance(c, Case) else Case(c if isinstance(c, tuple) else (c,))
        for c in checker.cases()
    ]
    guard = Guard()
    late = (
        f"Your {checker.name} took more than {guard.check_limit:g} s in all over the"
        f" {len(cases)} calls of the check, its time limit, and was stopped: make it faster (the"
        " rules package answers each call in milliseconds)."
    )
    answers = fn.map_calls([c.args for c in cases], guard.call_limit, guard.check_limit, late)
    agreed = total = 0
    first: str | None = None
    try:
        for case in cases:
            answer = next(answers, None)
            if answer is None:
                break
            total += 1
            expected = checker.reference(*case.args)
            try:
                actual = checker.answer(lambda *_args, answer=answer: answer(), case, guard)
            except CallTimedOut:
                raise ExerciseFailed(
                    f"{checker.call_text(case)} took longer than {guard.call_limit:g} s, the time"
                    " limit for one call, and was stopped: look for a loop that never ends (the"
                    " rules package answers in milliseconds)."
                ) from None
            except (TypeError, ValueError, StudentError) as e:
                first = first or f"{checker.call_text(case)} went wrong: {type(e).__name__}: {e}"
                continue
            if actual == expected:
                agreed += 1
            elif first is None:
                try:
                    checker.judge(case, expected, actual)
                except ExerciseFailed as e:
                    first = str(e)
    except _Unfinished:
        raise ExerciseFailed(UNFINISHED) from None
    finally:
        guard.report_output()
    return agreed, len(cases), first


def run_check(name: str, args: list, points: float) -> Result:
    """One check, run here on the stand-ins ``args``: its printed lines, sentence and score."""
    checker = getattr(exercises, name)
    printed = io.StringIO()
    try:
        with redirect_stdout(printed):
            if isinstance(checker, Checker) and len(args) == 1 and isinstance(args[0], Remote):
                agreed, total, first = count_agreeing(checker, args[0])
                if agreed == total:
                    print(f"All {total} cases agree.")
                    return Result(printed.getvalue())
                score = math.floor(points * agreed / max(total, 1) * 100) / 100
                sentence = (
                    f"{first} {agreed} of {total} cases agree: {score:g} of {points:g} points."
                )
                return Result(printed.getvalue(), sentence.strip(), score)
            checker(*args)
            return Result(printed.getvalue())
    except Refused as e:
        return Result(printed.getvalue(), str(e), 0, refused=True)
    except BoardChanged:
        sentence = (
            "Your function changed the board it was given: leave the board as it was and return"
            " the answer (build a new dict or board instead)."
        )
        return Result(printed.getvalue(), sentence, 0)
    except ExerciseFailed as e:
        return Result(printed.getvalue(), str(e), 0)
    except StudentError as e:
        where = e.where.strip().splitlines()[:1]
        sentence = refusal_of(e) or " ".join(
            [f"Your code raised {e} during the check, so it gives no points.", *where]
        )
        return Result(printed.getvalue(), sentence, 0, refused=refusal_of(e) is not None)
    except Exception as e:  # a checker meeting a stand-in it cannot use: the grader's fault
        return Result(
            printed.getvalue(),
            f"The grader could not run {name} on your code ({type(e).__name__}: {e});"
            " tell the teacher.",
            0,
            refused=True,
        )


@dataclass
class Notebook:
    """The student's cells run so far, and the worker they ran in (started again after a check
    that stopped it, running the same cells)."""

    sources: list[str] = field(default_factory=list)
    session: Session | None = None
    refusals: list[str] = field(default_factory=list)
    cpu: float = 0.0  # CPU seconds of the workers, once ended

    def worker(self) -> Session:
        if self.session is None or self.session.broken:
            self.close()
            self.session = Session().__enter__()
            with redirect_stdout(io.StringIO()):
                for source in self.sources:
                    self.session.run(source)
        return self.session

    def run(self, source: str) -> tuple[str, StudentError | None]:
        self.sources.append(source)
        printed = io.StringIO()
        with redirect_stdout(printed):
            try:
                error = self.worker().run(source)
            except Refused as e:
                self.refusals.append(str(e))
                return printed.getvalue(), None
        if error is not None and (why := refusal_of(error)):
            self.refusals.append(why)
        return printed.getvalue(), error

    def check(self, source: str, points: float) -> Result:
        call = check_call(source)
        if call is None:
            return Result(
                "",
                "This check has no sandboxed grader (it calls no fanorona.exercises checker on"
                " names of the notebook), so it gives no points: tell the teacher.",
                0,
                refused=True,
            )
        name, names = call
        try:
            session = self.worker()
            args = [session.get(n) for n in names]
        except Refused as e:
            return Result("", str(e), 0, refused=True)
        except StudentError as e:
            return Result(
                "",
                f"The check needs {', '.join(names)}, which your notebook does not define ({e}).",
                0,
            )
        result = run_check(name, args, points)
        if result.sentence is not None and (result.score or 0) < points:
            extra = " ".join(dict.fromkeys(self.refusals))
            result.text += (extra + " " if extra else "") + APART + "\n"
        return result

    def close(self) -> None:
        if self.session is not None:
            self.session.close()
            self.cpu += self.session.cpu
            self.session = None


def grade_notebook(nb, state: Notebook | None = None) -> dict[str, Result]:
    """Fill every cell's outputs as the sandboxed grading gives them; the results by grade id."""
    state, results = state or Notebook(), {}
    try:
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("grade") and not meta.get("solution"):
                points = float(meta.get("points", 0))
                result = state.check(cell.source, points)
                cell.outputs = [_node(o) for o in result.outputs(points)]
                results[meta.get("grade_id", "")] = result
                continue
            printed, error = state.run(cell.source)
            outputs = (
                [{"output_type": "stream", "name": "stdout", "text": printed}] if printed else []
            )
            if error is not None:
                outputs.append({"output_type": "stream", "name": "stdout", "text": f"{error}\n"})
            cell.outputs = [_node(o) for o in outputs]
    finally:
        state.close()
    return results


def _node(output: dict):
    from nbformat import from_dict

    return from_dict(output)
