"""The board's buttons are enabled only where pressing them would do something: a new instructor
pressing a live button that answers "nothing to take back" thinks the board is broken."""

import fanorona as fa


def enabled(widget, name: str) -> bool:
    return not widget.controls[name].disabled


def test_undo_turn_is_off_at_the_start_and_on_after_a_turn():
    w = fa.BoardWidget(size=(5, 5))
    try:
        assert not enabled(w, "undo")
        w.click("c2")
        w.click("c3")
        assert w.board.turns, "a turn was played"
        assert enabled(w, "undo")
        w.undo()
        assert not w.board.turns
        assert not enabled(w, "undo")
    finally:
        w.close()


def test_computer_move_is_off_once_the_game_is_over():
    w = fa.BoardWidget(size=(5, 5), opponent=1)  # the computer plays black
    try:
        live = fa.Board.from_diagram("W....\n.....\n..B..\n.....\n.....", to_move="black")
        w.load_position(live.fen())
        assert w.controller.shows.paused and enabled(w, "computer_move")
        over = fa.Board.from_diagram("W....\n.....\n.....\n.....\n.....", to_move="black")
        assert over.outcome() is not None
        w.load_position(over.fen())
        assert not enabled(w, "computer_move"), "no move to ask for once the game is over"
    finally:
        w.close()


def test_the_status_line_never_says_the_computer_is_playing_a_turn_it_has_finished():
    class Chain:
        name = "chain"

        def choose_turn(self, board):
            return board.parse_turn("c1c2Ad2A")

    w = fa.BoardWidget(size=(5, 5), opponent=Chain())
    try:
        w.delay = 0
        w.load_position(
            fa.Board.from_diagram("W....\n.....\n..W..\n....W\n..B..", to_move="black").fen()
        )
        shown = []
        w.controls["status"].observe(
            lambda change: shown.append((change["new"], len(w.board.turns), len(w.board.chain))),
            names="value",
        )
        w.computer_move()
        w.wait()
        assert [str(t) for t in w.board.turns] == ["c1c2Ad2A"]
        mid = [text for text, turns, chain in shown if chain]
        over = [text for text, turns, _chain in shown if turns == 1]
        assert mid and all("chain is playing c1c2A." in text for text in mid), mid
        assert over and all("chain played c1c2Ad2A. White to move." in text for text in over), over
    finally:
        w.close()


def test_the_search_line_under_the_board_says_a_table_answered_as_the_controller_does():
    from fanorona.engine.ai import SearchInfo

    class Tabled:
        name = "tabled"
        last_search = SearchInfo(99, 1234, 0.01, 0.0, ["a1b1"])

        def choose_turn(self, board):
            return board.legal_turns()[0]

    w = fa.BoardWidget(size=(5, 5), opponent=Tabled())
    try:
        w.delay = 0
        w.click("c2")
        w.click("c3")
        w.wait()
        line = w.controller.shows.search_line
        assert line.startswith("Looked up in the endgame table: 1,234 nodes")
        assert w.controls["search"].value == f'<div class="fanorona-search">{line}</div>'
    finally:
        w.close()


def test_the_typed_turn_box_is_off_once_the_game_is_over():
    w = fa.BoardWidget(size=(5, 5))
    try:
        assert enabled(w, "typed")
        over = fa.Board.from_diagram("W....\n.....\n.....\n.....\n.....", to_move="black")
        assert over.outcome() is not None
        w.load_position(over.fen())
        assert not enabled(w, "typed"), "no turn to type once the game is over"
        w.new_game()
        assert enabled(w, "typed")
    finally:
        w.close()
