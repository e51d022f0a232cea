"""Grading one student's notebook: the student's cells in the sandbox, the checks in this process.

``grade_notebook(nb)`` runs every code cell that is not a graded check cell in a sandboxed worker
(``remote.Session``), in order, as a kernel would; at each check cell it calls the checker named
in the cell (``check_neighbours(neighbours)``) here, with stand-ins (``remote.Remote``) for the
student's objects.  The checkers' cases, their references, the comparison and the points never
leave this process.  A ``Checker`` that counts cases gives partial credit by its rule in
``exercises.credit`` (the share of its cases that agree, or of kinds of cases weighted), and a
check whose code uses the kit part it asks for gets nothing (``exercises.own_work``, read from
the cells' text here).  Each check cell gets the checker's lines and one sentence as its output,
in the form nbgrader's ``SaveAutoGrades`` scores: an error for no points, a number for partial
credit.  The workers of a notebook, and of all of a student's notebooks, are held to a budget of
time from here (``budget``).
"""

from __future__ import annotations

import ast
import io
import math
import re
import textwrap
from collections.abc import Callable
from contextlib import redirect_stdout
from dataclasses import dataclass, field, replace

from .. import exercises
from ..exercises import Case, Checker, ExerciseFailed, Guard, credit, own_work
from ..exercises.guard import UNFINISHED, _Unfinished
from . import special
from .budget import Budget
from .package import PACKAGE
from .remote import (
    CELL_LIMIT,
    WORKER_LIMITS,
    BoardChanged,
    CallTimedOut,
    Refused,
    Remote,
    Session,
    StudentError,
)

#: Modules graded code cannot import, and the sentence for trying.
HIDDEN_MODULES = ("fanorona.exercises", "fanorona.grading", "fanorona.tournament")
#: Checks the grader runs its own way (``special``), on the student's objects: each gives its
#: cases and whether they agree, for partial credit (``exercises.credit``).
COUNTED: dict[str, Callable[..., special.Counted]] = {
    "check_view": special.view,
    "check_subtraction": special.subtraction,
    "check_game_tree": special.game_tree,
    "check_clickable": special.clickable,
    "check_simple_clickable": special.simple_clickable,
    "check_tournament_player": special.tournament,
}
#: Check cells that call no checker on the notebook's names, by grade id: the checker and names.
UNCALLED = {
    "check_subtraction": ("check_subtraction", ["Subtraction"]),
    "check_game_tree": ("check_game_tree", ["tree_minimax", "tree_alphabeta"]),
}
#: Characters of a line of feedback: nbgrader's page shows an output's lines as they are.
WIDTH = 100
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
        if self.sentence is not None:  # the partial-credit line, wrapped to fit the page
            wrapped = textwrap.fill(self.sentence, WIDTH)
            shown.append({"output_type": "stream", "name": "stdout", "text": wrapped + "\n"})
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


def file_call(source: str) -> tuple[str, str, dict, str] | None:
    """The checker, the file name and the literal options of a check cell that calls a checker on
    a file the notebook writes, as in ``check_tournament_player(folder / "my_player.py",
    games=4)``; None when it calls none that way."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in COUNTED
            and node.args
        ):
            names = [
                n.value
                for n in ast.walk(node.args[0])
                if isinstance(n, ast.Constant) and isinstance(n.value, str)
            ]
            try:
                options = {str(k.arg): ast.literal_eval(k.value) for k in node.keywords}
            except ValueError:
                return None
            expression = ast.get_source_segment(source, node.args[0]) or repr(names[-1:])
            if names:
                return node.func.id, names[-1].rsplit("/", 1)[-1], options, expression
    return None


def written_file(source: str) -> tuple[str, str] | None:
    """(file name, text) of a ``%%writefile`` cell (the worker runs no IPython magics)."""
    first, _, body = source.lstrip().partition("\n")
    if not first.startswith("%%writefile"):
        return None
    return first.split()[-1].rsplit("/", 1)[-1], body


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
    if error.kind == "AttributeError" and "is not there while grading" in error.text:
        return (
            f"Your code reached for a part of the checkers ({error.text.split(' is not')[0]})"
            " that is not there while grading: the checks run outside your code, so a function"
            " that uses them scores nothing."
        )
    if error.kind in ("PermissionError", "OSError") and (
        "Read-only file system" in error.text or "Permission denied" in error.text
    ):
        return (
            f"Your code tried to change a file the sandbox keeps read-only ({error.text}): graded"
            " code cannot change the package or anything outside its own /tmp."
        )
    if error.kind == "FileNotFoundError" and str(PACKAGE) in error.text:
        return (
            f"Your code tried to reach a file of the installed package ({error.text}): the"
            " sandbox hides the package from graded code and keeps it read-only, so nothing"
            " there can be read or changed."
        )
    return None


def student_line(error: Exception) -> str:
    """Where in the student's cells an exception was raised (the function and the line of its
    cell), if known."""
    where = error.where if isinstance(error, StudentError) else ""
    found = re.findall(r'File "<cell \d+>", line (\d+), in (\S+)', where)
    if not found:
        return ""
    line, function = found[-1]
    return f" (raised in {function}, line {line} of its cell)"


def count_agreeing(checker: Checker, fn) -> special.Counted:
    """(cases that agree, cases, the first difference's sentence, each case with whether it
    agreed): every case is tried, in one request to the worker, and the first that differs is
    shown as the checker shows it."""
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
    outcomes: list[tuple[object, bool]] = []
    try:
        for case in cases:
            answer = next(answers, None)
            if answer is None:
                break
            total += 1
            expected = checker.reference(*case.args)
            shown = io.StringIO()  # what the checker prints about a call that went wrong
            try:
                with redirect_stdout(shown):
                    actual = checker.answer(lambda *_args, answer=answer: answer(), case, guard)
            except CallTimedOut:
                raise ExerciseFailed(
                    f"{checker.call_text(case)} took longer than {guard.call_limit:g} s, the time"
                    " limit for one call, and was stopped: look for a loop that never ends (the"
                    " rules package answers in milliseconds)."
                ) from None
            except (TypeError, ValueError, StudentError) as e:
                if first is None:  # only the first call that went wrong is shown, with its line
                    print(shown.getvalue(), end="")
                    first = f"{checker.call_text(case)} went wrong: {type(e).__name__}: {e}"
                    first += student_line(e)
                outcomes.append((case, False))
                continue
            print(shown.getvalue(), end="")
            outcomes.append((case, actual == expected))
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
    outcomes += [(case, False) for case in cases[len(outcomes) :]]  # never reached
    return agreed, len(cases), first, outcomes


def shared(name: str, printed: str, counted: special.Counted, points: float) -> Result:
    """Full points when every case agrees, else the check's partial credit (``credit``), with the
    first difference."""
    agreed, total, first, outcomes = counted
    if agreed == total:
        return Result(printed + f"All {total} cases agree.\n")
    score = math.floor(points * credit.share(name, outcomes) * 100) / 100
    weights = credit.explained(name)
    by = f", weighted by kind ({weights})" if weights else ""
    sentence = f"{first or ''} {agreed} of {total} cases agree{by}: {score:g} of {points:g} points."
    return Result(printed, sentence.strip(), score)


def run_check(name: str, args: list, points: float, options: dict | None = None) -> Result:
    """One check, run here on the stand-ins ``args``: its printed lines, sentence and score."""
    printed = io.StringIO()
    try:
        with redirect_stdout(printed):
            if name in COUNTED:  # the grader's own, not necessarily in fanorona.exercises
                counted = COUNTED[name](*args, **(options or {}))
            elif (
                isinstance(checker := getattr(exercises, name), Checker)
                and len(args) == 1
                and isinstance(args[0], Remote)
            ):
                counted = count_agreeing(checker, args[0])
            else:
                checker(*args)
                return Result(printed.getvalue())
        return shared(name, printed.getvalue(), counted, points)
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
    that stopped it, running the cells that ended, once each; a cell that was stopped is not
    run again)."""

    sources: list[str] = field(default_factory=list)
    session: Session | None = None
    refusals: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # written by %%writefile cells
    cpu: float = 0.0  # CPU seconds of the workers, once ended
    allow_weak: bool = False  # whether graded code may run without namespaces
    budget: Budget = field(default_factory=Budget)
    cells: int = 0  # code cells seen so far, check cells too (to name one in a sentence)

    def worker(self) -> Session:
        if self.session is None or self.session.broken:
            self.close()
            wall, cpu = self.budget.left()
            if min(wall, cpu) <= 1:
                raise Refused(self.budget.sentence())
            limits = replace(
                WORKER_LIMITS, wall=min(WORKER_LIMITS.wall, wall), cpu=min(WORKER_LIMITS.cpu, cpu)
            )
            self.session = Session(limits, allow_weak=self.allow_weak).__enter__()
            with redirect_stdout(io.StringIO()):
                for source in self.sources:
                    self.session.run(source)
        return self.session

    def running(self) -> float:
        """CPU seconds of the worker not yet counted in the budget (ended or not)."""
        if self.session is None:
            return 0.0
        return max(self.session.cpu_now(), self.session.cpu)

    def over_budget(self) -> bool:
        return min(self.budget.left(self.running())) <= 0

    def run(self, source: str) -> tuple[str, StudentError | None]:
        self.cells += 1
        written = written_file(source)
        if written is not None:
            self.files[written[0]] = written[1]
        if self.over_budget():
            self.refusals.append(self.budget.sentence(self.running()))
            return "", None
        printed = io.StringIO()
        with redirect_stdout(printed):
            try:
                error = self.worker().run(source)
            except Refused as e:  # stopped from outside: never run again
                said = self.budget.sentence(self.running()) if self.over_budget() else str(e)
                self.refusals.append(f"{self.cell_name()}: {said}")
                return printed.getvalue() + said + "\n", None
        if error is not None and error.kind == "TimeUp":  # stopped inside: never run again
            sentence = (
                f"{self.cell_name()} ran longer than {CELL_LIMIT:g} s, the limit for one cell"
                " while grading, and was stopped; the cells after it were run and graded."
            )
            self.refusals.append(sentence)
            return printed.getvalue() + sentence + "\n", None
        self.sources.append(source)
        if error is not None and (why := refusal_of(error)):
            self.refusals.append(why)
        return printed.getvalue(), error

    def cell_name(self) -> str:
        return f"Code cell {self.cells} of your notebook"

    def player_file(self, expression: str, filename: str) -> str | None:
        """The text of the file the check reads, as the notebook left it (written by any means),
        else as its ``%%writefile`` cell wrote it."""
        try:
            text = self.worker().read(expression)
        except Refused:
            text = None
        return text if isinstance(text, str) else self.files.get(filename)

    def check(self, source: str, points: float, grade_id: str = "") -> Result:
        self.cells += 1
        if self.over_budget():
            return Result("", self.budget.sentence(self.running()), 0, refused=True)
        call = check_call(source) or UNCALLED.get(grade_id)
        on_file = file_call(source) if call is None else None
        if on_file is not None:
            name, filename, options, expression = on_file
            text = self.player_file(expression, filename)
            if text is None:
                return Result(
                    "",
                    f"The check needs the file {filename}, which a cell of the notebook writes"
                    " (with %%writefile): no cell of yours wrote it, so it gives no points.",
                    0,
                )
            refused = own_work.kit_use(name, [text], None)
            if refused is not None:
                return self.finish(Result("", refused, 0, refused=True), points)
            return self.finish(run_check(name, [text], points, options), points)
        if call is None:
            return Result(
                "",
                "This check has no sandboxed grader (it calls no fanorona.exercises checker on"
                " names of the notebook), so it gives no points: tell the teacher.",
                0,
                refused=True,
            )
        name, names = call
        refused = own_work.kit_use(name, self.sources, names)
        if refused is not None:  # read from the cells' text, here: the worker has no say
            return self.finish(Result("", refused, 0, refused=True), points)
        try:
            session = self.worker()
            args = [session.get(n) for n in names]
        except Refused as e:
            return self.finish(Result("", str(e), 0, refused=True), points)
        except StudentError as e:
            return Result(
                "",
                f"The check needs {', '.join(names)}, which your notebook does not define ({e}).",
                0,
            )
        return self.finish(run_check(name, args, points), points)

    def finish(self, result: Result, points: float) -> Result:
        """A result short of full points says what the sandbox refused, if anything was, and then
        that the student's code stood apart (never to a student whose code tried nothing).  A
        check stopped because the budget ran out says so, whatever stopped the worker."""
        if result.refused and self.over_budget():
            result = Result(result.text, self.budget.sentence(self.running()), 0, refused=True)
        if result.sentence is not None and (result.score or 0) < points and self.refusals:
            extra = " ".join(dict.fromkeys(self.refusals))
            result.text += textwrap.fill(f"{extra} {APART}", WIDTH) + "\n"
        return result

    def close(self) -> None:
        if self.session is not None:
            self.session.close()
            self.cpu += self.session.cpu
            self.budget.spend(self.session.cpu)
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
                result = state.check(cell.source, points, meta.get("grade_id", ""))
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
        state.budget.end()
    return results


def _node(output: dict):
    from nbformat import from_dict

    return from_dict(output)
