"""The review's verdicts, checked on games whose every position the tables know: the exact
judge against the solved 3x5 table read board by board, the search judge against it, and the
search on 9x5 against the endgame table."""

import base64
import re

import matplotlib
import pytest

from fanorona import Board, Game, Rules
from fanorona.engine.ai import level
from fanorona.engine.endgame import endgame_table
from fanorona.engine.review import Judge, exact_score, in_words, review
from fanorona.engine.scoring import PROVEN, WIN_SCORE
from fanorona.engine.solve import solve
from fanorona.game import play_game

matplotlib.use("Agg")
RULES = Rules.solved()
RANK = {"loss": 0, "draw": 1, "win": 2}


@pytest.fixture(scope="module")
def small_game() -> Game:
    """A 3x5 game with mistakes in it: level 2 (greedy) against level 3."""
    return play_game(level(2, seed=3), level(3, seed=4), Board((3, 5), RULES), 40)


def test_exact_verdicts_are_the_tables_values_and_mistakes_its_drops(small_game):
    table = solve((3, 5), RULES, progress=False)
    result = review(small_game)
    assert result.judge == "the solved 3x5 table"
    board = small_game.board(0)
    marked = []
    for verdict, text in zip(result.verdicts, small_game.turns, strict=True):
        before = table.value(board)
        assert verdict.before == exact_score(before, table.distance(board))
        position = board.copy()
        board.push(text)
        after = "draw" if board.outcome() is None and table.value(board) == "draw" else None
        if board.outcome() is not None:
            after = "win"
        elif after is None:
            after = {"win": "loss", "loss": "win"}[table.value(board)]
        assert (verdict.after >= PROVEN, verdict.after <= -PROVEN) == (
            after == "win",
            after == "loss",
        )
        if RANK[after] < RANK[before]:
            marked.append(verdict.number)
            assert verdict.better in {str(t) for t in table.best_turns(position)}
    assert [v.number for v in result.mistakes()] == marked
    assert marked, "the game was chosen to contain a mistake"


def test_the_search_judge_agrees_with_the_table_where_it_proves_a_value(small_game):
    table = solve((3, 5), RULES, progress=False)
    searched = review(small_game, judge=Judge(depth=5))
    board = small_game.board(0)
    proven = 0
    for verdict, text in zip(searched.verdicts, small_game.turns, strict=True):
        if abs(verdict.before) >= PROVEN:
            proven += 1
            value = table.value(board)
            assert value == ("win" if verdict.before > 0 else "loss")
        board.push(text)
    assert proven >= 3


def test_on_nine_by_five_the_search_reads_exact_endgame_values():
    table = endgame_table((9, 5), 3, RULES)
    start = next(b for b in table.boards("win") if table.distance(b) == 5)
    game = play_game(level(3, seed=1), level(3, seed=2), start, 10)
    result = review(game, depth=2)
    board = game.board(0)
    for verdict, text in zip(result.verdicts, game.turns, strict=True):
        value, distance = table.value(board), table.distance(board)
        assert verdict.before == pytest.approx(exact_score(value, distance))
        board.push(text)
    assert result.verdicts[0].before == WIN_SCORE - 5


def test_the_plot_has_a_point_for_every_position(small_game):
    result = review(small_game)
    ax = result.plot()
    (line,) = ax.get_lines()[:1]
    assert len(line.get_xdata()) == len(small_game.turns) + 1
    assert len(ax.get_lines()) == 2 + len(result.mistakes())  # the curve, zero, the mistakes


def test_a_review_of_something_else_says_what_it_takes():
    with pytest.raises(TypeError, match="takes a fanorona.Game or a Board"):
        review("e2e3")


def test_the_review_button_shows_each_mistake_with_the_better_turn_as_an_arrow(small_game):
    import fanorona as fa
    from fanorona.ui.draw import xy
    from fanorona.ui.reviewpanel import ReviewPanel

    board = fa.BoardWidget(size=(3, 5))
    try:
        board.import_game(small_game.to_json())
        panel = ReviewPanel(board)
        panel.button.click()
        mistakes = review(small_game).mistakes()
        assert panel.chooser.options == tuple((m.name, m.number) for m in mistakes)
        assert panel.chooser.value == mistakes[0].number, "Review chooses the first mistake"
        assert board.controller.shown == mistakes[0].number - 1
        last = mistakes[-1]
        panel.chooser.value = last.number
        assert board.controller.shown == last.number - 1
        before = small_game.board(last.number - 1)
        path = before.parse_turn(last.better).path
        drawn = [(arrow.xy, arrow.xyann) for arrow in panel.arrows]
        assert drawn == [(xy(before, b), xy(before, a)) for a, b in zip(path, path[1:])]
        assert all(arrow.axes is board.ax for arrow in panel.arrows)
        assert last.better in panel.text.value
        bundle = panel._repr_mimebundle_()  # a page without a kernel: the picture, arrows drawn
        assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == panel.ui.model_id
        assert base64.b64decode(bundle["image/png"]) == board.picture_png()
    finally:
        board.close()


def move_list_lines(board):
    """The move list's lines as the board shows them: number -> the turns' texts on that line."""
    text = " ".join(box.value for box in board.panel.moves.boxes)
    lines = {}
    for line in re.sub(r"<[^>]+>", "\n", text).split("\n"):
        number, _, turns = line.strip().partition(". ")
        if number.isdigit():
            lines[int(number)] = turns.split()
    return lines


@pytest.mark.parametrize("skip", [0, 1], ids=["White begins", "Black begins"])
def test_each_verdict_is_named_by_the_move_lists_number_and_side(small_game, skip):
    import fanorona as fa

    played = Board.from_fen(small_game.board(skip).fen(), RULES)
    for turn in small_game.turns[skip:]:
        played.push(turn)
    game = Game.from_board(played)
    board = fa.BoardWidget(size=(3, 5))
    try:
        board.import_game(game.to_json())
        lines = move_list_lines(board)
        for verdict in review(game).verdicts:
            column = 0 if verdict.color == "white" else 1
            assert lines[verdict.move][column] == verdict.played, verdict
            assert verdict.name == f"{verdict.move}. {verdict.color.capitalize()} {verdict.played}"
            assert str(verdict).startswith(verdict.name + ": ")
    finally:
        board.close()


def test_a_proven_result_is_said_in_words_with_the_winner(small_game):
    table = solve((3, 5), RULES, progress=False)
    board = small_game.board(0)
    for verdict in review(small_game).verdicts:
        value, mover = table.value(board), board.to_move.value
        words = in_words(verdict.before, verdict.color, verdict.exact)
        if value == "draw":
            assert words == "a draw with best play"
        else:
            winner = mover if value == "win" else ("black" if mover == "white" else "white")
            distance = table.distance(board)
            assert words == f"{winner.capitalize()} wins in {distance} turn{'s' * (distance != 1)}"
        assert "stones" not in str(verdict)
        board.push(verdict.played)


def test_a_searched_value_is_never_called_a_proven_draw():
    assert in_words(0, "white", exact=False) == "even"
    assert in_words(150, "black", exact=False) == "Black 1.5 stones ahead"
    assert in_words(-250, "black", exact=False) == "White 2.5 stones ahead"
    assert in_words(WIN_SCORE - 7, "white", exact=False) == "White wins in 7 turns"
    assert in_words(-(WIN_SCORE - 1), "white", exact=True) == "Black wins in 1 turn"
