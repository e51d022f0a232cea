"""The board without a mouse and without sight: a typed turn played as its clicks, and the live
picture said in words."""

import fanorona as fa
from fanorona.ui.controller import Controller
from fanorona.ui.typed import play_typed


def test_a_typed_two_way_capture_is_played_with_the_chosen_side():
    control = Controller()
    play_typed(control, " d3e3W ")
    assert [str(t) for t in control.model.turns] == ["d3e3W"]
    assert control.model.stone_at("c3") is None and control.model.stone_at("f3") == "black"


def test_a_typed_chain_stops_where_the_text_stops():
    board = fa.Board()
    board.push("d3e3W")
    longest = max(board.legal_turns(), key=lambda t: len(t.steps))
    shorter = fa.Turn(longest.steps[:2])
    control = Controller(board)
    play_typed(control, str(shorter))
    assert [str(t) for t in control.model.turns] == ["d3e3W", str(shorter)]
    assert not control.model.chain


def test_a_typo_or_an_illegal_turn_is_said_and_changes_nothing():
    for text, words in [
        ("d3e3", "write d3e3A or d3e3W"),
        ("e2e4", "e2e4"),
        ("zz9", "zz9"),
        ("", ""),
    ]:
        control = Controller()
        control.click("d2")
        before = control.model.fen()
        assert play_typed(control, text) is None
        assert control.model.fen() == before and control.model.turns == []
        assert control.status.startswith("Not allowed: ") and words in control.status


def test_a_stone_picked_by_mouse_first_does_not_spoil_the_typed_turn():
    control = Controller()
    control.click("f2")
    play_typed(control, "e2e3A")
    assert [str(t) for t in control.model.turns] == ["e2e3A"]


def test_the_widgets_box_plays_on_enter_and_empties_itself():
    widget = fa.BoardWidget()
    widget.controls["typed"].value = "d2e3A"
    assert [str(t) for t in widget.board.turns] == ["d2e3A"]
    assert widget.controls["typed"].value == ""
    assert widget.controls["typed"].description == "Type a turn"


def test_the_live_picture_says_in_words_what_it_shows():
    from fanorona import positions

    widget = fa.BoardWidget(positions.load("compulsory-capture"))
    assert widget.controls["picture_text"].value == (
        "Fanorona board 5x5, white to move. White stones: c1, a4. Black stones: c3."
        " Must capture: c1."
    )
    widget.type_turn("c1c2A")
    assert "Black stones: -" in widget.controls["picture_text"].value
