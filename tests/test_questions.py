"""The questions the notebooks ask (predict-then-run, concept checks) and the game-tree checker
that compares a student's search with the reference node by node."""

import math
from pathlib import Path

import nbformat
import pytest

from fanorona.exercises import UNFINISHED, ExerciseFailed
from fanorona.exercises.questions import BLANK, choose, predict
from fanorona.exercises.search import (
    HAND_TREE,
    TREES,
    Tree,
    check_search,
    reference_alphabeta,
    reference_minimax,
)

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"


def test_a_right_guess_is_called_right_with_the_reason(capsys):
    feedback = predict(8, 8, "a centre point has eight lines.")
    assert feedback.right is True
    assert capsys.readouterr().out.startswith("Right: 8. a centre point")


def test_a_wrong_guess_names_both_values():
    feedback = predict(4, 8, "diagonals count.", quiet=True)
    assert feedback.right is False
    assert "you said 4, the answer is 8" in feedback.sentence


def test_a_blank_guess_shows_the_answer_without_failing():
    feedback = predict(BLANK, {"e3", "d2"}, "why.", quiet=True)
    assert feedback.right is None
    assert "No guess written yet" in feedback.sentence and "{d2, e3}" in feedback.sentence


def test_guesses_are_read_the_way_a_student_means_them():
    assert predict(" D2E3A ", "d2e3A", "", quiet=True).right
    assert predict(["b", "a"], {"a", "b"}, "", quiet=True).right
    assert predict(5.0, 5, "", quiet=True).right
    assert predict(1, True, "", quiet=True).right is False
    assert predict(3, {"a"}, "", quiet=True).right is False


def test_a_concept_check_takes_a_letter_in_either_case():
    options = {"A": "approach", "B": "withdrawal"}
    assert choose("b", options, "B", "", quiet=True).right
    wrong = choose("A", options, "B", "the stone moves away.", quiet=True)
    assert wrong.right is False and "withdrawal" in wrong.sentence
    assert "not one of the letters" in choose("z", options, "B", "", quiet=True).sentence
    with pytest.raises(ValueError, match="not one of the options"):
        choose("a", options, "C", "")


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
