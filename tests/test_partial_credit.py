"""Partial credit separates right from almost right: graded in the sandbox as nbgrader grades a
student, each answer with one systematic mistake keeps at most half its check's points, while the
notebook's own answer (which the checker compares with the kit's board) keeps them all."""

from fractions import Fraction

import nbformat
import pytest
from test_grading import NOTEBOOKS, graded
from test_student_copies import answer

from fanorona.exercises import credit

pytestmark = pytest.mark.slow

N03, N07, N09, N13 = (
    "03_moves_and_captures.ipynb",
    "07_computer_opponent.ipynb",
    "09_assignment_model.ipynb",
    "13_puzzles.ipynb",
)


def program(notebook: str, wrong: str, mistake: tuple[str, str] = ("", "")) -> list[str]:
    """The cells a student who solved the notebook hands in, with ``mistake`` (old, new) made in
    the answer ``wrong``: notebook 9's given cells and answers up to its checks (its functions
    build on each other), of the others the answer alone."""
    cells = []
    for cell in nbformat.read(NOTEBOOKS / notebook, as_version=4).cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or meta.get("grade") or "try:" in cell.source:
            continue
        if meta.get("solution"):
            source = answer(notebook, meta["grade_id"])
            if meta["grade_id"] == wrong:
                assert mistake[0] in source, f"the answer {wrong} has no {mistake[0]!r}"
                source = source.replace(*mistake)
            cells.append(source)
        elif notebook == N09:
            cells.append(cell.source)
    return cells if notebook == N09 else [c for c in cells if "def " in c]


#: (notebook, answer, check, points, the mistake as (old text, new text)).
MISTAKES = {
    "winner ignoring stuck": (
        N09,
        "winner",
        "check_winner",
        1,
        (
            "if simple_steps(board):",
            "if any(board.stone_at(p) == board.to_move for p in board.points):",
        ),
    ),
    "apply_step removing both strings": (
        N09,
        "apply_step",
        "check_apply_step",
        2,
        (
            "captures(board, origin, destination)[capture]",
            "set().union(*captures(board, origin, destination).values())",
        ),
    ),
    "apply_step with approach and withdrawal swapped": (
        N09,
        "apply_step",
        "check_apply_step",
        2,
        (
            "captures(board, origin, destination)[capture]",
            "captures(board, origin, destination)[{'approach': 'withdrawal',"
            " 'withdrawal': 'approach'}[capture]]",
        ),
    ),
    "captures of the first stone only": (
        N03,
        "captures",
        "check_captures",
        3,
        ("column, row = column + dc, row + dr\n        return run", "break\n        return run"),
    ),
    "captures with approach and withdrawal swapped": (
        N03,
        "captures",
        "check_captures",
        3,
        ('return {"approach": enemy_run', 'return {"withdrawal": enemy_run'),
    ),
    "alpha-beta pruning only on >": (
        N07,
        "game_tree",
        "check_game_tree",
        3,
        ("if alpha >= beta:", "if alpha > beta:"),
    ),
    "a puzzle answer that is always None": (
        N13,
        "single_winning_turn",
        "check_single_winning_turn",
        1,
        ("return wins[0] if len(wins) == 1 else None", "return None"),
    ),
}


def swapped_captures(source: str) -> str:
    """The second half of the captures swap: withdrawal's run under approach's name."""
    return source.replace('"withdrawal": enemy_run(c0', '"approach": enemy_run(c0')


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_one_systematic_mistake_keeps_at_most_half_the_points(mistake):
    notebook, wrong, check, points, change = MISTAKES[mistake]
    cells = program(notebook, wrong, change)
    if mistake == "captures with approach and withdrawal swapped":
        cells = [swapped_captures(c) for c in cells]
    result = graded(cells, notebook, check, points)
    assert result.score is not None, f"{mistake} got full points: {result.text}"
    assert 0 <= result.score <= points / 2, f"{mistake}: {result.sentence}"
    if check in credit.RULES:
        assert "weighted by kind" in (result.sentence or "")


@pytest.mark.parametrize(
    ("notebook", "wrong", "check", "points"),
    sorted({(n, w, c, p) for n, w, c, p, _m in MISTAKES.values()}),
)
def test_the_notebooks_own_answer_keeps_every_point(notebook, wrong, check, points):
    result = graded(program(notebook, wrong), notebook, check, points)
    assert result.score is None and "cases agree." in result.text, result.sentence


def test_a_rule_whose_shares_do_not_make_the_whole_is_refused():
    with pytest.raises(ValueError, match="do not sum to 1"):
        credit.Rule(lambda index, case: "all", {"all": Fraction(1, 2)})


def test_a_kind_missing_from_a_run_gives_its_weight_to_the_others_in_proportion():
    rule = credit.weigh(
        "a test check", lambda index, case: case, {"a": Fraction(1, 4), "b": Fraction(3, 4)}
    )
    try:
        assert credit.share("a test check", [("a", True), ("a", False)]) == 0.5
        assert credit.share("a test check", [("a", True), ("b", False)]) == 0.25
        assert credit.share("a test check", [("a", False), ("b", True), ("b", True)]) == 0.75
        assert rule.sentence().startswith("Partial credit: the cases are weighted by kind (a 1/4")
    finally:
        del credit.RULES["a test check"]


def test_a_check_without_a_rule_earns_the_share_of_its_cases_that_agree():
    assert credit.share("check_neighbours", [(None, True)] * 3 + [(None, False)]) == 0.75
    assert credit.share("check_neighbours", []) == 0.0
