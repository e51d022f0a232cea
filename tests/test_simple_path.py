"""The graded path for the simplified game alone: notebook 9 (``week3``) checks the simplified
model, notebook 10 (``week4``) the view, the control and the program on the student's simplified
``MyGame``; the extensions (``compulsory_steps``, ``turns``, chains in the control, ``MyFullGame``,
the clickable full game) are notebook 10b, the optional ``extensions`` assignment, whose points
are a bonus.  The simplified checks accept a correct simplified program and a control with
chains, and still refuse a wrong one; the sandboxed grader gives a simplified-only submission
every point of ``week3`` and ``week4`` and a full-game submission the bonus too."""

from pathlib import Path

import matplotlib
import nbformat
import pytest
from test_clickable_browser import reference_program
from test_student_copies import EARLIER, answer

import fanorona as fa
from fanorona import exercises
from fanorona.exercises import ExerciseFailed, check_clickable, check_control
from fanorona.exercises.__main__ import WEEKS
from fanorona.grading.grade import grade_notebook

matplotlib.use("Agg")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
CORE, EXTENSIONS = "10_assignment_view_and_control.ipynb", "10b_assignment_extensions.ipynb"
MODEL = "09_assignment_model.ipynb"


@pytest.fixture(scope="module")
def simple():
    """The reference solutions of notebook 10: the simplified game alone, no extension."""
    names: dict = {}
    exec(compile(reference_program(CORE), "notebook 10", "exec"), names)
    return names


@pytest.fixture(scope="module")
def full():
    """The reference solutions of notebook 10b: the control and the model with chains."""
    names: dict = {}
    exec(compile(reference_program(EXTENSIONS), "notebook 10b", "exec"), names)
    return names


def test_week4_asks_for_no_extension_and_the_extensions_are_an_optional_assignment():
    core = nbformat.read(NOTEBOOKS / CORE, as_version=4)
    code = "\n".join(c.source for c in core.cells if c.cell_type == "code")
    assert (
        "MyFullGame" not in code and "def turns" not in code and "def compulsory_steps" not in code
    )
    assert WEEKS["week4"][1] == [CORE] and WEEKS["extensions"][1] == [EXTENSIONS]
    assert WEEKS["extensions"][0].startswith("optional")


def grade_ids(notebook: str) -> list:
    return [
        c.metadata["nbgrader"]["grade_id"]
        for c in nbformat.read(NOTEBOOKS / notebook, as_version=4).cells
        if "nbgrader" in c.metadata
    ]


def test_week3_asks_for_no_extension_and_10b_grades_them_in_the_order_taught():
    model = nbformat.read(NOTEBOOKS / MODEL, as_version=4)
    code = "\n".join(c.source for c in model.cells if c.cell_type == "code")
    assert "def turns" not in code and "def compulsory_steps" not in code
    assert "check_turns" not in code and "check_compulsory_steps" not in code
    assert WEEKS["week3"][1] == [MODEL]
    in_10b = grade_ids(EXTENSIONS)
    taught = ["compulsory_steps", "check_compulsory_steps", "turns", "check_turns", "clicks"]
    assert [gid for gid in in_10b if gid in taught] == taught
    assert in_10b.index("earlier_functions") < in_10b.index("compulsory_steps")


def test_the_simplified_control_passes_and_so_does_a_control_with_chains(simple, full):
    assert exercises.check_simple_control(simple["Clicks"]) > 500
    assert exercises.check_simple_control(full["Clicks"]) > 500


def test_the_simplified_control_refuses_a_two_way_step_played_at_once(simple):
    class AtOnce(simple["Clicks"]):
        def click(self, point):
            steps = [
                s
                for s in self.model.legal_steps()
                if (s.origin, s.destination) == (self.selected, point)
            ]
            if steps:
                self.model.push(steps[0])
                self.selected = None
            else:
                super().click(point)

    with pytest.raises(ExerciseFailed, match="captures both ways: keep the step waiting"):
        exercises.check_simple_control(AtOnce)


def test_the_bonus_control_check_still_needs_chains(simple):
    with pytest.raises(ExerciseFailed, match="has no `end_turn`"):
        check_control(simple["Clicks"])


def test_the_simplified_program_is_clicked_on_the_students_mygame(simple):
    assert exercises.check_simple_clickable(simple["play"], simple["MyGame"]) > 10


def test_the_simplified_program_refuses_a_model_that_forces_captures(simple, full):
    compulsory = full["compulsory_steps"]

    class Forcing(simple["MyGame"]):
        def legal_steps(self):
            return [fa.Step(*step) for step in sorted(compulsory(self), key=str)]

    with pytest.raises(ExerciseFailed, match="Every step of the simplified game is one turn"):
        exercises.check_simple_clickable(simple["play"], Forcing)


def test_the_simplified_program_refuses_a_model_that_takes_both_strings(simple):
    class BothStrings(simple["MyGame"]):
        def push(self, step):
            taken = simple["captures"](self, step.origin, step.destination)
            super().push(step)
            if step.capture:
                self.stones = {
                    p: c for p, c in self.stones.items() if p not in set().union(*taken.values())
                }

    with pytest.raises(ExerciseFailed, match="your model differs in"):
        exercises.check_simple_clickable(simple["play"], BothStrings)


def test_the_bonus_program_check_refuses_the_simplified_game(simple):
    with pytest.raises(ExerciseFailed, match="Capture is compulsory"):
        check_clickable(simple["play"], simple["MyGame"])


# -- under the sandboxed grader, as nbgrader autograde runs it
# ----------------------------------------------------------------


def submission(notebook: str, solved: set) -> nbformat.NotebookNode:
    """``notebook`` as a student hands it in who solved the exercises ``solved`` (grade ids, the
    pasted earlier functions among them) with the reference answers and left the others as the
    release's stub."""
    nb = nbformat.read(NOTEBOOKS / notebook, as_version=4)
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if not meta.get("solution"):
            continue
        if meta["grade_id"] not in solved:
            cell.source = "raise NotImplementedError()"
        elif meta["grade_id"] == "earlier_functions":
            cell.source = "\n\n\n".join(answer(*where) for where in EARLIER[notebook])
        else:
            cell.source = answer(notebook, meta["grade_id"])
    return nb


def scores(nb) -> dict:
    """{grade id: (score, points)} of every check cell of ``nb`` graded in the sandbox."""
    results = grade_notebook(nb)
    points = {
        c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"]["points"]
        for c in nb.cells
        if c.metadata.get("nbgrader", {}).get("grade")
    }
    return {
        gid: (points[gid] if result.score is None else result.score, points[gid])
        for gid, result in results.items()
    }


@pytest.mark.slow
def test_a_simplified_only_submission_gets_every_point_of_week4_under_the_grader():
    simplified = {"earlier_functions", "draw_position", "clicks", "play"}
    graded = scores(submission(CORE, simplified))
    assert graded and all(score == points for score, points in graded.values()), graded
    assert sum(points for _score, points in graded.values()) == 11


@pytest.mark.slow
def test_a_simplified_only_submission_gets_every_core_point_of_week3_under_the_grader():
    simplified = {"earlier_functions", "apply_step", "winner", "my_game"}
    (notebook,) = WEEKS["week3"][1]
    graded = scores(submission(notebook, simplified))
    assert graded and all(score == points for score, points in graded.values()), graded
    assert set(graded) == {"check_apply_step", "check_winner", "check_model"}, graded


@pytest.mark.slow
def test_a_full_game_submission_still_gets_the_bonus_under_the_grader():
    everything = {
        "earlier_functions",
        "compulsory_steps",
        "turns",
        "clicks",
        "my_full_game",
        "play",
    }
    graded = scores(submission(EXTENSIONS, everything))
    assert set(graded) == {
        "check_compulsory_steps",
        "check_turns",
        "check_control",
        "check_full_game",
        "check_clickable",
    }
    assert all(score == points for score, points in graded.values()), graded


@pytest.mark.slow
def test_a_simplified_control_that_skips_the_two_way_choice_scores_nothing_under_the_grader():
    nb = submission(CORE, {"earlier_functions", "draw_position", "clicks", "play"})
    clicks = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "clicks")
    choice = (
        "if len(options) == 2:\n            self.pending = (self.selected, point)\n        elif"
    )
    assert choice in clicks.source
    clicks.source = clicks.source.replace(choice, "if")
    graded = scores(nb)
    assert graded["check_simple_control"] == (0, 5) and graded["check_view"] == (3, 3), graded
