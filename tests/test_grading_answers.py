"""Answers as a student writes them, graded in the sandbox: every correct answer scores full points
whatever reasonable collection it returns, and no answer can wedge the grader, cost it more than a
bounded amount of CPU, or speak for it.  Each is graded the way nbgrader's preprocessor does it:
the teacher's notebook, every cell run, its solution cell replaced by the student's."""

import json
import time
from pathlib import Path

import nbformat
import pytest

from fanorona.grading import plain
from fanorona.grading.grade import Notebook, grade_notebook

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def solved(notebook: str, solution_id: str, extra: str = ""):
    """The teacher's notebook as a student who solved it hands it in, ``extra`` after the
    solution in its cell."""
    nb = nbformat.read(NOTEBOOKS / notebook, as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == solution_id:
            lines = [line for line in cell.source.splitlines() if "### " not in line]
            cell.source = "\n".join(lines) + ("\n\n" + extra if extra else "")
    return nb


def graded(notebook: str, solution_id: str, check_id: str, extra: str = ""):
    started = time.monotonic()
    result = grade_notebook(solved(notebook, solution_id, extra))[check_id]
    return result, time.monotonic() - started


NEIGHBOURS = {
    "numpy-array": "import numpy as np\n_n = neighbours\n"
    "def neighbours(w, h, p):\n    return np.array(sorted(_n(w, h, p)))",
    "dict-keys": "_n = neighbours\n"
    "def neighbours(w, h, p):\n    return dict.fromkeys(_n(w, h, p)).keys()",
    "deque": "from collections import deque\n_n = neighbours\n"
    "def neighbours(w, h, p):\n    return deque(sorted(_n(w, h, p)))",
    "counter": "from collections import Counter\n_n = neighbours\n"
    "def neighbours(w, h, p):\n    return Counter(_n(w, h, p))",
    "set-subclass": "class Points(set):\n    pass\n_n = neighbours\n"
    "def neighbours(w, h, p):\n    return Points(_n(w, h, p))",
    "list-subclass-with-its-own-iter": "class Points(list):\n"
    "    def __iter__(self):\n        return iter(sorted(list.__iter__(self)))\n"
    "_n = neighbours\ndef neighbours(w, h, p):\n    return Points(_n(w, h, p))",
    "generator": "_n = neighbours\ndef neighbours(w, h, p):\n    yield from _n(w, h, p)",
    "map-object": "_n = neighbours\ndef neighbours(w, h, p):\n    return map(str, _n(w, h, p))",
    "numpy-strings-on-the-first-call-only": "import numpy as np\n_n = neighbours\nfirst = [True]\n"
    "def neighbours(w, h, p):\n    if first.pop() if first else False:\n"
    "        return np.array(sorted(_n(w, h, p)))\n    return _n(w, h, p)",
    "a-tuple": "_n = neighbours\ndef neighbours(w, h, p):\n    return tuple(_n(w, h, p))",
}


@pytest.mark.parametrize("shape", NEIGHBOURS)
def test_a_correct_neighbours_in_any_collection_scores_full_points(shape):
    result, _ = graded("01_board_graph.ipynb", "neighbours", "check_neighbours", NEIGHBOURS[shape])
    assert result.score is None and "All 305 cases agree." in result.text, result


def test_a_neighbours_that_lists_a_point_twice_is_told_so():
    """Normalising must not hide a repeat: the notebook asks for the points, each once."""
    twice = "_n = neighbours\ndef neighbours(w, h, p):\n    found = sorted(_n(w, h, p))\n"
    twice += "    return found + found[:1]"
    result, _ = graded("01_board_graph.ipynb", "neighbours", "check_neighbours", twice)
    assert result.score == 0 and "0 of 305 cases agree" in (result.sentence or ""), result


CAPTURES = {
    "defaultdict-of-sets": "from collections import defaultdict\n_c = captures\n"
    "def captures(board, origin, destination):\n    found = defaultdict(set)\n"
    "    for kind, points in _c(board, origin, destination).items():\n"
    "        found[kind] |= points\n    return found",
    "ordered-dict-of-lists": "from collections import OrderedDict\n_c = captures\n"
    "def captures(board, origin, destination):\n"
    "    return OrderedDict((k, sorted(v)) for k, v in _c(board, origin, destination).items())",
}


@pytest.mark.parametrize("shape", CAPTURES)
def test_a_correct_captures_in_a_dict_subclass_scores_full_points_without_a_wedge(shape):
    result, seconds = graded(
        "03_moves_and_captures.ipynb", "captures", "check_captures", CAPTURES[shape]
    )
    assert result.score is None and "cases agree." in result.text, result
    assert seconds < 60


def test_an_object_of_the_students_in_every_answer_is_asked_about_only_after_the_batch():
    """Each answer an iterable object of the student's own: judging it asks the worker for its
    members, which must not start while the batch's answers are still arriving (the grader and
    the worker would each wait on the other's full pipe); asked after, it is read and agrees."""
    opaque = (
        "class Opaque:\n    def __iter__(self):\n        return iter(self.points)\n"
        "    def __repr__(self):\n        return 'Opaque(' + 'x' * 5000 + ')'\n"
        "_n = neighbours\ndef neighbours(w, h, p):\n    o = Opaque()\n"
        "    o.points = _n(w, h, p)\n    return o"
    )
    result, seconds = graded("01_board_graph.ipynb", "neighbours", "check_neighbours", opaque)
    assert result.score is None and "All 305 cases agree." in result.text, result
    assert seconds < 60


#: Cheap to build as a list in the worker; a set of it (the checker counts the members) would
#: take the grader minutes in C, where no alarm reaches.
COLLIDING = (
    "P = 2**61 - 1\nMANY = [[1 + k * P for k in range(90_000)]]\n"
    "def neighbours(w, h, p):\n    return MANY.pop() if MANY else set()"
)


def test_a_set_built_to_collide_costs_the_grader_little_and_scores_nothing():
    result, seconds = graded("01_board_graph.ipynb", "neighbours", "check_neighbours", COLLIDING)
    assert result.score == 0 and "of one hash" in result.text + (result.sentence or ""), result
    assert seconds < 30


def test_a_forged_reply_on_the_channel_says_the_students_code_broke_it():
    forged = (  # the channel found among the process's open pipes
        "import os, stat\n"
        "_n = neighbours\n"
        "def neighbours(w, h, p):\n"
        "    for fd in range(3, 64):\n"
        "        try:\n"
        "            if stat.S_ISFIFO(os.fstat(fd).st_mode):\n"
        '                os.write(fd, b\'{"value": {"pickle": 1}, "printed": ""}\\n\')\n'
        "        except OSError:\n"
        "            pass\n"
        "    return _n(w, h, p)"
    )
    result, _ = graded("01_board_graph.ipynb", "neighbours", "check_neighbours", forged)
    assert result.score == 0
    assert "Your code sent the grader something it does not accept" in (result.sentence or "")
    assert "tell the teacher" not in (result.sentence or "") + result.text


@pytest.mark.parametrize(
    "line",
    [
        b'{"value": ' + b"1" * 40 + b', "id": 1}',
        b'{"value": {"list": [' + b"0," * plain.MAX_VALUES + b'0]}, "id": 1}',
        b'{"value": {"list": [' + b"[" * 40 + b"]" * 40 + b"]}}",
    ],
    ids=["long-number", "too-many-values", "too-deep"],
)
def test_a_reply_is_measured_before_anything_is_built_from_it(line):
    with pytest.raises(plain.ProtocolError):
        plain.loads(line)


def test_the_measure_lets_an_honest_large_answer_through():
    value = {"dict": [[str(i), {"set": [str(i), str(i + 1)]}] for i in range(20_000)]}
    line = json.dumps({"value": value, "id": 3}).encode()
    assert plain.loads(line)["value"] == value


def test_a_function_that_raises_gets_its_first_failing_call_and_its_line_in_a_few_lines():
    raising = "def neighbours(w, h, p):\n    found = set()\n    return found | undefined_name"
    result, _ = graded("01_board_graph.ipynb", "neighbours", "check_neighbours", raising)
    shown = result.text + (result.sentence or "")
    assert result.score == 0 and len(shown.splitlines()) <= 10, shown
    cell = next(c for c in solved("01_board_graph.ipynb", "neighbours", raising).cells
                if "undefined_name" in c.source)  # fmt: skip
    line = cell.source.splitlines().index("    return found | undefined_name") + 1
    assert "NameError" in shown and f"raised in neighbours, line {line} of its cell" in shown


def test_the_partial_credit_line_wraps():
    wrong = "_n = neighbours\ndef neighbours(w, h, p):\n    return _n(w, h, p) if w > 3 else set()"
    result, _ = graded("01_board_graph.ipynb", "neighbours", "check_neighbours", wrong)
    assert 0 < result.score < 2 and "cases agree" in result.sentence
    shown = "".join(o.get("text", "") for o in result.outputs(2))
    assert "cases agree" in shown and max(map(len, shown.splitlines())) <= 100, shown


def test_a_child_the_students_cell_forks_never_answers_for_the_worker():
    """A forked child whose code raises back into the worker's loop would answer the grader's
    questions and read its next ones beside the worker: it must leave instead."""
    forks = "import os, time\nif os.fork() == 0:\n    raise KeyboardInterrupt\ntime.sleep(0.5)"
    state = Notebook()
    nb = solved("01_board_graph.ipynb", "neighbours", forks)
    result = grade_notebook(nb, state)["check_neighbours"]
    assert result.score is None and "All 305 cases agree." in result.text, result
    assert state.refusals == [], "the worker was never broken, nor started again"


@pytest.mark.parametrize(
    ("notebook", "solution_id", "check_id", "name"),
    [
        ("01_board_graph.ipynb", "neighbours", "check_neighbours", "neighbours"),
        ("02_strings.ipynb", "strings_through", "check_strings_through", "strings_through"),
        ("03_moves_and_captures.ipynb", "captures", "check_captures", "captures"),
        ("04_simple_game.ipynb", "simple_steps", "check_simple_steps", "simple_steps"),
    ],
)
def test_a_wrong_answer_is_not_told_it_imported_the_checkers_or_tried_to_get_around(
    notebook, solution_id, check_id, name
):
    """The teacher's own cells import the checkers; a student who only answered wrongly reads
    why the answer is wrong, not that graded code cannot import them or ran apart."""
    wrong = f"def {name}(*args):\n    return None"
    result, _ = graded(notebook, solution_id, check_id, wrong)
    said = " ".join(((result.sentence or "") + result.text).split())
    assert result.score == 0 and "returned None" in said, said
    assert "cannot import" not in said and "apart from the grader" not in said, said
