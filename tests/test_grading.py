"""The sandboxed grader's walls, tried directly (the nbgrader route tests are in test_nbgrader):
plain data read strictly, a package edited on disk refused before grading, and student code that
never returns, ignores its alarm or loops in C stopped with the checker's sentence."""

import json
import shutil

import pytest

import fanorona as fa
from fanorona.grading import package, plain
from fanorona.grading.grade import Notebook
from fanorona.grading.remote import Session
from fanorona.sandbox.command import inside

CHECK = "from fanorona.exercises import check_neighbours\ncases = check_neighbours(neighbours)"


def nobody(number, kind):
    raise AssertionError("no object handle expected")


@pytest.mark.parametrize(
    "line",
    [
        b"NaN",
        b"[" * 200 + b"]" * 200,
        b'{"set": [1, 2]' + b" " * (plain.MAX_LINE) + b"}",
        b"not json",
    ],
)
def test_a_reply_that_is_not_plain_json_is_refused(line):
    with pytest.raises(plain.ProtocolError):
        plain.loads(line)


@pytest.mark.parametrize(
    "data",
    [[1, 2], {"pickle": "gASV"}, {"set": 3}, {"step": ["a1", "a2"]}, {"dict": [[1]]}],
)
def test_a_value_that_is_not_one_of_the_tags_is_refused(data):
    with pytest.raises(plain.ProtocolError):
        plain.decode(data, nobody)


def test_boards_steps_and_collections_cross_as_they_were():
    board = fa.Board((5, 5), fa.Rules.danish())
    board.push(board.legal_steps()[0])
    value = {"a": (fa.Step("a1", "a2"), frozenset({"b2"})), 3: [board, None, 1.5]}
    back = plain.decode(json.loads(json.dumps(plain.encode(value, nobody))), nobody)
    again = back[3][0]
    assert back["a"] == value["a"] and back[3][1:] == [None, 1.5]
    assert again.key() == board.key() and again.chain_stone == board.chain_stone


def test_a_package_edited_after_its_hashes_were_recorded_is_refused(tmp_path, monkeypatch):
    copy = tmp_path / "fanorona"
    shutil.copytree(package.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(package, "PACKAGE", copy)
    record = tmp_path / package.RECORD_NAME
    package.verify(record)
    package.verify(record)  # unchanged: accepted again
    with (copy / "exercises" / "model.py").open("a") as f:
        f.write("\nNEIGHBOUR_SIZES = ()\n")
    with pytest.raises(package.PackageChanged, match=r"exercises/model\.py"):
        package.verify(record)


def test_graded_code_sees_neither_the_checkers_nor_a_writable_package():
    with Session() as session:
        assert session.run("import fanorona.exercises, fanorona.exercises.model") is None
        reach = session.run("fanorona.exercises.model.check_neighbours.reference")
        assert reach is not None and "is not there while grading" in str(reach)
        missing = session.run("import fanorona.grading.grade")
        assert missing is not None and missing.kind == "ModuleNotFoundError"
        shown = inside(package.PACKAGE) / "board.py"  # where the sandbox shows the package
        error = session.run(f"open({str(shown)!r}, 'a').write('# changed')")
        assert error is not None and error.kind in ("OSError", "PermissionError")


@pytest.mark.parametrize(
    "body",
    [
        "return sum(range(10**12))",  # in C: no signal handler runs until it ends
        "import signal\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    time.sleep(60)",
    ],
)
def test_a_call_that_never_returns_gets_the_call_limit_sentence_and_the_next_check_runs(body):
    notebook = Notebook()
    try:
        notebook.run(f"import time\ndef neighbours(width, height, point):\n    {body}")
        first = notebook.check(CHECK, 2)
        assert first.refused and "the time limit for one call" in (first.sentence or "")
        notebook.run("def neighbours(width, height, point):\n    return set()")
        second = notebook.check(CHECK, 2)
        assert second.score == 0 and "differ from the rules" in (second.sentence or "")
    finally:
        notebook.close()


# -- the checks that need more than plain calls: a drawing, a clickable figure, a game, a file ----

import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import nbformat  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from test_clickable_browser import reference_program  # noqa: E402
from test_student_copies import answer  # noqa: E402

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def check_cell(notebook: str, grade_id: str) -> str:
    cells = nbformat.read(NOTEBOOKS / notebook, as_version=4).cells
    return next(
        c.source for c in cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id
    )


def graded(sources: list[str], notebook: str, grade_id: str, points: float):
    """The check cell ``grade_id`` of ``notebook`` graded in the sandbox after ``sources`` ran."""
    notebook_state = Notebook()
    try:
        for source in sources:
            notebook_state.run(source)
        return notebook_state.check(check_cell(notebook, grade_id), points, grade_id)
    finally:
        notebook_state.close()


NOTEBOOK_10 = "10_assignment_view_and_control.ipynb"


def test_a_drawing_is_graded_in_the_sandbox_with_the_share_of_boards_drawn_right():
    program = reference_program(NOTEBOOK_10)
    right = graded([program], NOTEBOOK_10, "check_view", 3)
    assert right.score is None and "All 25 cases agree." in right.text
    no_black = program.replace('for color in ("white", "black"):', 'for color in ("white",):')
    wrong = graded([no_black], NOTEBOOK_10, "check_view", 3)
    assert 0 < (wrong.score or 0) < 3 and "No stone found on" in (wrong.sentence or "")


NOTEBOOK_10B = "10b_assignment_extensions.ipynb"


def test_a_clickable_figure_is_clicked_in_the_sandbox_and_a_broken_undo_costs_the_undone_states():
    program = reference_program(NOTEBOOK_10B)
    right = graded([program], NOTEBOOK_10B, "check_clickable", 3)
    assert right.score is None and "cases agree." in right.text
    total = int(right.text.split("All ")[1].split()[0])
    stuck = program + "\n\nMyFullGame.pop = lambda self: None\n"
    wrong = graded([stuck], NOTEBOOK_10B, "check_clickable", 3)
    assert "Undo" in (wrong.sentence or "")
    assert f"{total - 2} of {total} cases agree" in (wrong.sentence or "")  # two turns undone


def test_a_clickable_figure_that_never_redraws_gets_the_states_its_model_and_picture_agree_on():
    """Its model follows every click, its picture only the start: the game goes on after a
    wrong picture, and only the states drawn right count."""
    program = reference_program(NOTEBOOK_10B)
    clicked = "        redraw()\n\n    fig.canvas.mpl_connect"
    assert clicked in program
    frozen = program.replace(clicked, "        pass\n\n    fig.canvas.mpl_connect")
    wrong = graded([frozen], NOTEBOOK_10B, "check_clickable", 3)
    assert 0 < (wrong.score or 0) < 3 and "the figure shows the wrong stones" in (
        wrong.sentence or ""
    )


NOTEBOOK_07 = "07_computer_opponent.ipynb"


def test_the_subtraction_game_is_asked_pile_by_pile_in_the_sandbox():
    game = answer(NOTEBOOK_07, "subtraction")
    right = graded([game], NOTEBOOK_07, "check_subtraction", 2)
    assert right.score is None and "All 21 cases agree." in right.text
    wrong = graded([game.replace("(1, 3, 4)", "(1, 2, 3)")], NOTEBOOK_07, "check_subtraction", 2)
    assert 0 < (wrong.score or 0) < 2 and "is lost for the player to move" in (wrong.sentence or "")


NOTEBOOK_11 = "11_tournament.ipynb"


def test_the_tournament_player_the_notebook_writes_is_played_in_the_tournaments_sandbox():
    player = answer(NOTEBOOK_11, "tournament_player")
    assert player.startswith("%%writefile")
    right = graded([player], NOTEBOOK_11, "check_tournament_player", 3)
    assert right.score is None and "no forfeits" in right.text
    first_turn = player.replace("opponent = board.to_move.other", "return board.legal_turns()[0]")
    wrong = graded([first_turn], NOTEBOOK_11, "check_tournament_player", 3)
    assert (wrong.score or 0) < 3 and "Beat level 1" in (wrong.sentence or "")
    missing = graded([], NOTEBOOK_11, "check_tournament_player", 3)
    assert missing.score == 0 and "my_player.py" in (missing.sentence or "")


def test_the_preprocessor_checks_the_package_before_each_student(tmp_path, monkeypatch):
    """The first notebook records the hashes; after an edit on disk the next student's checks get
    the PackageChanged sentence, not a grade."""
    from fanorona.grading.preprocessor import SandboxedGrades

    copy = tmp_path / "fanorona"
    shutil.copytree(package.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(package, "PACKAGE", copy)
    grades = SandboxedGrades(record=str(tmp_path / package.RECORD_NAME))

    def student():
        nb = nbformat.v4.new_notebook()
        check = nbformat.v4.new_code_cell(CHECK)
        check.metadata["nbgrader"] = {"grade": True, "solution": False, "points": 2}
        nb.cells = [nbformat.v4.new_code_cell("def neighbours(w, h, p):\n    return set()"), check]
        return grades.preprocess(nb, {})[0].cells[1].outputs

    assert not any(o.get("ename") == "PackageChanged" for o in student())
    with (copy / "exercises" / "model.py").open("a") as f:
        f.write("\nNEIGHBOUR_SIZES = ()\n")
    refused = student()
    assert [o.get("ename") for o in refused] == ["PackageChanged"]
    assert "exercises/model.py" in refused[0]["evalue"]


HOSTILE_SEARCH = '''

def tree_alphabeta(tree, node, maximizing, alpha, beta):
    """The grader's own reference, if graded code could reach it."""
    from fanorona.exercises.search import reference_alphabeta
    return reference_alphabeta(tree, node, maximizing, alpha, beta)
'''


def test_the_game_tree_searches_run_in_the_sandbox_and_a_correct_one_gets_full_points():
    searches = answer(NOTEBOOK_07, "game_tree")
    right = graded([searches], NOTEBOOK_07, "check_game_tree", 3)
    assert right.score is None and "All 14 cases agree." in right.text


@pytest.mark.parametrize(
    ("mistake", "said"),
    [
        (("if alpha >= beta:", "if alpha > beta:"), "You prune only when alpha > beta"),
        (("for child in seen]", "for child in reversed(seen)]"), "your search looked at"),
    ],
)
def test_a_game_tree_search_that_looks_at_other_nodes_gets_the_share_of_trees_it_gets_right(
    mistake, said
):
    searches = answer(NOTEBOOK_07, "game_tree")
    assert mistake[0] in searches
    wrong = graded([searches.replace(*mistake)], NOTEBOOK_07, "check_game_tree", 3)
    assert 0 < (wrong.score or 0) < 3 and said in (wrong.sentence or "")


def test_a_game_tree_search_that_reaches_for_the_graders_reference_gets_nothing_for_it():
    searches = answer(NOTEBOOK_07, "game_tree") + HOSTILE_SEARCH
    hostile = graded([searches], NOTEBOOK_07, "check_game_tree", 3)
    assert "7 of 14 cases agree" in (hostile.sentence or "")  # the stand-in answers None
    assert hostile.score == 1.2  # minimax's seven trees (two fifths), none of alpha-beta's
