"""The questions the notebooks ask (predict-then-run, concept checks) and the game-tree checker
that compares a student's search with the reference node by node."""

import ast
import math
import re
from pathlib import Path

import nbformat
import pytest

from fanorona.exercises import UNFINISHED, ExerciseFailed
from fanorona.exercises.answers import QUESTIONS
from fanorona.exercises.questions import BLANK, NUDGE, ask, choose, judge, predict, show
from fanorona.exercises.search import (
    HAND_TREE,
    TREES,
    Tree,
    check_search,
    reference_alphabeta,
    reference_minimax,
)

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"


def test_a_right_guess_is_called_right_with_the_reason():
    feedback = predict(8, 8, "a centre point has eight lines.")
    assert feedback.right is True
    assert feedback.sentence.startswith("Right: 8. a centre point")


def test_a_wrong_guess_names_both_values():
    feedback = predict(4, 8, "diagonals count.")
    assert feedback.right is False
    assert "you said 4, the answer is 8" in feedback.sentence


def test_a_blank_guess_shows_the_answer_with_a_nudge_without_failing():
    feedback = predict(BLANK, {"e3", "d2"}, "why.")
    assert feedback.right is None
    assert "No guess written yet" in feedback.sentence and "{d2, e3}" in feedback.sentence
    assert feedback.sentence.endswith(NUDGE)


def test_guesses_are_read_the_way_a_student_means_them():
    assert predict(" D2E3A ", "d2e3A", "").right
    assert predict(["b", "a"], {"a", "b"}, "").right
    assert predict(5.0, 5, "").right
    assert predict(1, True, "").right is False
    assert predict(3, {"a"}, "").right is False


def test_a_concept_check_takes_a_letter_in_either_case():
    options = {"A": "approach", "B": "withdrawal"}
    assert choose("b", options, "B", "").right
    wrong = choose("A", options, "B", "the stone moves away.")
    assert wrong.right is False and "withdrawal" in wrong.sentence
    stray = choose("z", options, "B", "the stone moves away.")
    assert "not one of the letters" in stray.sentence and "moves away" not in stray.sentence
    with pytest.raises(ValueError, match="not one of the options"):
        choose("a", options, "C", "")


def test_an_unknown_question_is_named():
    with pytest.raises(ValueError, match="no question named 'nowhere'"):
        judge("nowhere", 3)


# -- the game-tree checker ---------------------------------------------------------------------


def minimax(tree, node, maximizing):
    seen = tree.look(node)
    if not isinstance(seen, list):
        return seen
    values = [minimax(tree, child, not maximizing) for child in seen]
    return max(values) if maximizing else min(values)


def alphabeta(tree, node, maximizing, alpha, beta):
    seen = tree.look(node)
    if not isinstance(seen, list):
        return seen
    best = -math.inf if maximizing else math.inf
    for child in seen:
        value = alphabeta(tree, child, not maximizing, alpha, beta)
        if maximizing:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha >= beta:
            break
    return best


def test_a_correct_minimax_and_alphabeta_pass_every_tree():
    assert check_search(minimax) == len(TREES)
    assert check_search(alphabeta, alphabeta=True) == len(TREES)


def test_the_hand_tree_prunes_two_leaves():
    full, pruned = Tree(HAND_TREE), Tree(HAND_TREE)
    assert reference_minimax(full, "A", True) == reference_alphabeta(pruned, "A", True) == 5
    assert set(full.looked) - set(pruned.looked) == {"H", "I"}


def test_alphabeta_that_never_prunes_is_told_so():
    def no_pruning(tree, node, maximizing, alpha, beta):
        return minimax(tree, node, maximizing)

    with pytest.raises(ExerciseFailed, match="never prunes"):
        check_search(no_pruning, alphabeta=True)


def test_pruning_only_beyond_equality_is_recognised():
    def strict(tree, node, maximizing, alpha, beta):
        return reference_alphabeta(tree, node, maximizing, alpha, beta, strict=True)

    with pytest.raises(ExerciseFailed, match="alpha >= beta too"):
        check_search(strict, alphabeta=True)


def test_children_in_the_wrong_order_are_caught_at_the_first_node():
    def right_to_left(tree, node, maximizing):
        seen = tree.look(node)
        if not isinstance(seen, list):
            return seen
        values = [right_to_left(tree, child, not maximizing) for child in reversed(seen)]
        return max(values) if maximizing else min(values)

    with pytest.raises(ExerciseFailed, match="after A your search looked at D; the reference"):
        check_search(right_to_left)


def test_a_right_walk_with_a_wrong_value_is_told_the_value():
    def always_max(tree, node, maximizing):
        seen = tree.look(node)
        return seen if not isinstance(seen, list) else max(always_max(tree, c, 0) for c in seen)

    with pytest.raises(ExerciseFailed, match="visits the right nodes but returns 9"):
        check_search(always_max)


def test_an_unfinished_search_gets_the_unfinished_sentence():
    def stub(tree, node, maximizing):
        raise NotImplementedError

    with pytest.raises(ExerciseFailed, match=UNFINISHED):
        check_search(stub)


# -- where the notebooks ask ------------------------------------------------------------------


def sections(path):
    """The cells of each ``##`` section of a notebook (the title cell's section included)."""
    found, current = [], None
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "markdown" and cell.source.lstrip().startswith("## "):
            current = [cell.source.splitlines()[0], []]
            found.append(current)
        elif current is not None:
            current[1].append(cell)
    return found


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("0[0-6]_*.ipynb")), ids=lambda p: p.stem)
def test_every_section_of_the_first_notebooks_asks_a_question(path):
    silent = [
        title
        for title, cells in sections(path)
        if not any(c.cell_type == "code" and "questions." in c.source for c in cells)
    ]
    assert silent == []


def test_a_search_that_keeps_looking_is_stopped_with_a_sentence():
    def forever(tree, node, maximizing):
        while True:
            tree.look(node)

    with pytest.raises(ExerciseFailed, match="more than 1000 nodes: a loop"):
        check_search(forever)


# -- every question the notebooks ask: asked, then told --------------------------------------

ASK = re.compile(r"""questions\.ask\(\s*["']([^"']+)["']""")


def asked():
    """(notebook, cell number, question name, the sources of every cell up to and including it)."""
    found = []
    for path in sorted(NOTEBOOKS.glob("0[0-6]_*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        for n, cell in enumerate(cells):
            if cell.cell_type == "code":
                found += [(path.stem, n, name, cells[: n + 1]) for name in ASK.findall(cell.source)]
    return found


ASKED = asked()


def test_every_question_is_asked_once_and_every_ask_has_its_question():
    names = [name for _, _, name, _ in ASKED]
    assert sorted(names) == sorted(QUESTIONS) and len(names) == len(set(names)) >= 40


def test_no_notebook_computes_an_answer_in_its_own_question_cell():
    for stem, n, _, cells in ASKED:
        assert not re.search(r"questions\.(predict|choose)", cells[-1].source), (stem, n)


def a_wrong_guess(name):
    question, answer = QUESTIONS[name], QUESTIONS[name].answer()
    if question.options:
        return next(letter for letter in question.options if letter != answer)
    if isinstance(answer, bool):
        return not answer
    if isinstance(answer, int):
        return answer + 1
    if isinstance(answer, set):
        return answer - {min(answer)}
    return answer + "x"


@pytest.mark.parametrize("name", sorted(QUESTIONS))
def test_each_question_answers_a_skip_a_wrong_and_a_right_guess_once(name, capsys):
    question = QUESTIONS[name]
    right = question.answer()
    if isinstance(right, int) and not isinstance(right, bool):
        right = float(right)  # read as a student means it
    for guess, verdict in ((BLANK, None), (a_wrong_guess(name), False), (right, True)):
        assert ask(name, guess) is None
        printed = capsys.readouterr().out
        assert printed.count("\n") == 1 and printed.strip() == judge(name, guess).sentence
        assert judge(name, guess).right is verdict, printed
        assert question.why in printed
        assert printed.strip().endswith(NUDGE) is (verdict is None)
        assert show(question.answer()) in printed


def clauses(why):
    """The parts of a reason long enough that finding one in a cell means the cell tells it."""
    return [part.strip() for part in re.split(r"[:;,.()]", why) if len(part.strip()) >= 20]


def tokens(answer):
    """The words an answer is written with where it is distinctive enough to look for (in lower
    case): a point name or word, the members of a set (a cell names a set when it names them
    all), a number of two digits or more (with or without its comma)."""
    if isinstance(answer, (set, frozenset)):
        return sorted(str(member).lower() for member in answer)
    if isinstance(answer, str) and len(answer) > 1:
        return [answer.lower()]
    if isinstance(answer, int) and not isinstance(answer, bool) and answer >= 10:
        return sorted({str(answer), f"{answer:,}"})
    return []


def asserted_constants(source):
    """The constants an ``assert`` compares something with in a cell: how a notebook states a
    count (``len(x) == 3``)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    return {
        node.value
        for statement in ast.walk(tree)
        if isinstance(statement, ast.Assert)
        for compare in ast.walk(statement.test)
        if isinstance(compare, ast.Compare)
        for node in [compare.left, *compare.comparators]
        if isinstance(node, ast.Constant) and not isinstance(node.value, (bool, type(None)))
    }


def section(cells):
    """The cells of the question's own ``##`` section, up to and including the question."""
    for start in range(len(cells) - 1, -1, -1):
        if cells[start].cell_type == "markdown" and cells[start].source.lstrip().startswith("#"):
            return cells[start:]
    return cells


@pytest.mark.parametrize("stem, n, name, cells", ASKED, ids=[f"{a[0]}-{a[2]}" for a in ASKED])
def test_nothing_up_to_a_question_shows_its_answer(stem, n, name, cells):
    question = QUESTIONS[name]
    answer = question.answer()
    told = []
    for number, cell in enumerate(cells):
        text = " ".join(cell.source.split()).lower()
        told += [
            f"cell {number} gives the reason {c!r}"
            for c in clauses(question.why)
            if c.lower() in text
        ]
        named = [
            t for t in tokens(answer) if re.search(rf"(?<![\w,]){re.escape(t)}(?![\w,])", text)
        ]
        if named and (set(named) == set(tokens(answer)) or not isinstance(answer, set)):
            told.append(f"cell {number} names {', '.join(named)}")
    if isinstance(answer, int) and not isinstance(answer, bool):
        told += [
            f"an assert states {answer}"
            for cell in section(cells)
            if cell.cell_type == "code" and answer in asserted_constants(cell.source)
        ]
    assert told == [], f"{stem} cell {n} ({name}): " + "; ".join(told)
