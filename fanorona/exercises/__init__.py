"""Checkers for the functions students write in the notebooks, and the student copies.

Each ``check_...`` runs a student's function on many positions (the start positions, the
teaching positions, seeded random games on several sizes, a tall board among them, and built
positions with the longest captures of each size, both colours to move) and compares every
answer with the rules package.  At the first difference it draws the position with the input
marked, prints the input (as code to paste into a cell that imported ``fanorona as fa``), the
expected and the actual answer, and stops with ``ExerciseFailed``, shown as one sentence that
names the mistake where it can.  When all agree it prints ``All N cases agree.`` and returns N.

The student's code is untrusted: every call runs under a time limit (``CALL_LIMIT`` seconds a
call, ``CHECK_LIMIT`` a check), its prints are captured, and it must leave what it is given as it
was.  The package is sealed when this module is imported (``seal``): a checker that finds a
checker replaced or a class of the package patched says so (``TAMPERED``).  These checks are the
student's quick feedback in the kernel; the grade comes from ``fanorona.grading``, which runs the
same checkers in its own process on the student's code running in a sandbox.

``Checker`` is how a course author writes a new one (docs/how-to/add-an-exercise.md); ``python -m
fanorona.exercises SRC_DIR OUT_DIR`` writes student copies through nbgrader.
"""

from .checking import Case, Checker
from .clickable import check_clickable as check_clickable  # notebook 10, not in __all__:
from .clickable import check_full_game as check_full_game  # they take more than one argument
from .clickable import check_simple_clickable as check_simple_clickable
from .control import check_control, check_model, check_simple_control
from .guard import CALL_LIMIT, CHECK_LIMIT, UNFINISHED, ExerciseFailed, Guard
from .model import (
    check_apply_step,
    check_captures,
    check_compulsory_steps,
    check_neighbours,
    check_simple_steps,
    check_strings_through,
    check_turns,
    check_winner,
    stones_of,
)
from .player import check_tournament_player as check_tournament_player  # notebook 11
from .puzzles import check_single_winning_turn, outcomes_of
from .samples import sample_boards
from .seal import TAMPERED, seal_package
from .student import ReleaseError, make_student_copies
from .subtraction import check_subtraction as check_subtraction  # the grader's, for notebook 7
from .view import check_view

__all__ = [
    "CALL_LIMIT",
    "CHECK_LIMIT",
    "TAMPERED",
    "UNFINISHED",
    "Case",
    "Checker",
    "ExerciseFailed",
    "Guard",
    "ReleaseError",
    "check_apply_step",
    "check_captures",
    "check_compulsory_steps",
    "check_control",
    "check_model",
    "check_neighbours",
    "check_simple_control",
    "check_simple_steps",
    "check_single_winning_turn",
    "check_strings_through",
    "check_turns",
    "check_view",
    "check_winner",
    "make_student_copies",
    "outcomes_of",
    "sample_boards",
    "stones_of",
]

seal_package(__name__)
