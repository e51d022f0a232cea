"""The puzzles: each shipped puzzle's winning turn is the only one, by the tables' own look-up of
every position after a turn (not the puzzle module's outcomes); lines replay; wrong turns fail as
their refutations say; the build is reproducible."""

import base64

import pytest

from fanorona import Board, IllegalMoveError
from fanorona.engine.ai import AlphaBetaPlayer
from fanorona.engine.endgame import endgame_table
from fanorona.engine.puzzles import LADDER, RULES, Puzzle, build, collection, exact_puzzle
from fanorona.engine.solve import solve

PUZZLES = collection()
EXACT = [p for p in PUZZLES if not p.source.startswith("game")]


def table_of(puzzle: Puzzle):
    if puzzle.source.startswith("endgame"):
        return endgame_table((9, 5), 3, RULES)
    return solve(puzzle.size, RULES, progress=False)


def value_for_mover(table, board: Board, turn) -> str:
    """The value of ``turn`` for the side playing it, from the table's entry one turn on."""
    after = board.after(turn)
    outcome = after.outcome()
    if outcome is not None:
        return "win" if outcome.winner == board.to_move.value else "loss"
    return {"win": "loss", "loss": "win", "draw": "draw"}[table.value(after)]


def test_the_collection_draws_from_every_source_and_every_difficulty_band():
    sources = {p.source for p in PUZZLES}
    assert {"solved 3x5", "solved 5x3", "endgame 9x5", "game 9x5"} <= sources
    assert len(PUZZLES) >= 100
    assert {p.difficulty for p in PUZZLES} >= {1, 2, 3}
    assert len({p.fen for p in PUZZLES}) == len(PUZZLES)


@pytest.mark.parametrize("puzzle", EXACT[::15], ids=lambda p: p.name)
def test_an_exact_puzzle_has_one_winning_turn_by_the_tables_lookup(puzzle):
    table, board = table_of(puzzle), puzzle.board()
    winners = [t for t in board.legal_turns() if value_for_mover(table, board, t) == "win"]
    assert [str(t) for t in winners] == [puzzle.answer]
    assert len(board.legal_turns()) >= 2


@pytest.mark.parametrize("puzzle", EXACT[1::15], ids=lambda p: p.name)
def test_an_exact_solution_line_replays_to_the_movers_win(puzzle):
    board = puzzle.board()
    mover = board.to_move.value
    for text in puzzle.solution:
        board.push(text)
    assert board.outcome() is not None and board.outcome().winner == mover
    assert (len(puzzle.solution) + 1) // 2 == puzzle.length


@pytest.mark.parametrize("puzzle", EXACT[2::15], ids=lambda p: p.name)
def test_a_refutation_is_a_wrong_turn_that_fails_as_its_verdict_says(puzzle):
    table, board = table_of(puzzle), puzzle.board()
    assert puzzle.refutations
    for refutation in puzzle.refutations:
        assert refutation.turn != puzzle.answer
        value = value_for_mover(table, board, refutation.turn)
        assert value == ("draw" if refutation.verdict == "only draws" else "loss")
        after = board.after(refutation.turn)
        for text in refutation.line:
            after.push(text)
        if value == "loss":
            assert after.outcome() is not None and after.outcome().winner != board.to_move.value


def test_check_accepts_the_answer_and_explains_a_wrong_turn():
    puzzle = next(p for p in EXACT if p.refutations)
    assert puzzle.check(puzzle.answer) is None
    wrong = puzzle.refutations[0]
    assert puzzle.check(wrong.turn) == wrong
    other = next((str(t) for t in puzzle.board().legal_turns() if str(t) != puzzle.answer), None)
    assert other is None or puzzle.check(other) is not None
    with pytest.raises(IllegalMoveError):
        puzzle.check("a1a1")


@pytest.mark.parametrize("puzzle", PUZZLES[::20], ids=lambda p: p.name)
def test_the_stored_depth_is_the_first_that_plays_the_answer(puzzle):
    board = puzzle.board()
    if puzzle.depth <= 3:
        assert str(AlphaBetaPlayer(depth=puzzle.depth, seed=0).choose_turn(board)) == puzzle.answer
    for depth in range(1, min(puzzle.depth, 4)):
        assert str(AlphaBetaPlayer(depth=depth, seed=0).choose_turn(board)) != puzzle.answer
    assert 0 <= puzzle.rank <= len(LADDER)


def test_a_position_with_two_winning_turns_is_no_puzzle():
    table = solve((3, 5), RULES, progress=False)
    board = next(
        b
        for b in table.boards("win", 3)
        if sum(value_for_mover(table, b, t) == "win" for t in b.legal_turns()) == 2
    )
    assert exact_puzzle(table, board, "two", "solved 3x5") is None


def test_the_build_is_reproducible_and_its_puzzles_single():
    first = build(per_source=1, games=0, seed=5, progress=False)
    assert first == build(per_source=1, games=0, seed=5, progress=False)
    assert first["puzzles"] and 0 <= first["calibration_hits"] <= 1
    for data in first["puzzles"]:
        puzzle = Puzzle.from_dict(data)
        table, board = table_of(puzzle), puzzle.board()
        winners = [str(t) for t in board.legal_turns() if value_for_mover(table, board, t) == "win"]
        assert winners == [puzzle.answer]


@pytest.fixture
def puzzle_board():
    from fanorona.ui.puzzleboard import PuzzleBoard

    made = []

    def make(puzzle):
        board = PuzzleBoard(puzzle)
        board.board.delay = 0
        made.append(board)
        return board

    yield make
    for board in made:
        board.board.close()


def test_on_the_board_a_wrong_turn_is_named_and_answered_by_its_refutation(puzzle_board):
    puzzle = next(p for p in EXACT if p.refutations and p.refutations[0].line)
    board = puzzle_board(puzzle)
    wrong = puzzle.refutations[0]
    board.play(wrong.turn)
    board.board.wait()
    assert board.said.startswith(f"Not {wrong.turn}: it {wrong.verdict}")
    assert [str(t) for t in board.board.board.turns] == [wrong.turn, wrong.line[0]]
    board.restart()
    assert board.board.board.turns == []
    board.play(puzzle.answer)
    board.board.wait()
    assert board.said.startswith(f"Right: {puzzle.answer} is the only winning turn")
    assert [str(t) for t in board.board.board.turns] == list(puzzle.solution[:2])


def test_a_puzzle_on_a_page_without_a_kernel_shows_its_board_and_its_own_view(puzzle_board):
    board = puzzle_board(EXACT[0])
    bundle = board._repr_mimebundle_()
    view = bundle["application/vnd.jupyter.widget-view+json"]["model_id"]
    assert view == board.ui.model_id, "the live view is the puzzle's, message and all"
    assert base64.b64decode(bundle["image/png"]) == board.board.picture_png()
