"""The interactive board without a browser: its methods, and synthetic mouse clicks on its canvas."""
import json
import random
import threading
import time
from string import Formatter

import pytest
from matplotlib.backend_bases import MouseEvent

import fanorona as fa
from fanorona import positions
from fanorona.draw import xy
from fanorona.widget import LABELS

# ipympl 0.10 passes matplotlib arguments on to traitlets, which warns; not ours to fix.
pytestmark = pytest.mark.filterwarnings(r"ignore:Passing unrecognized arguments to super\(Toolbar\):DeprecationWarning")

# White's c1 can capture c3 by approach, then go on to capture e2 from c2; Black keeps a5.
CHAIN = """\
B....
.....
..B..
....B
..W.."""


@pytest.fixture
def widgets_made():
    """Every board a test makes, closed afterwards so no computer thread outlives its test."""
    made = []

    def make(*args, **kwargs):
        w = fa.BoardWidget(*args, **kwargs)
        w.delay = 0
        made.append(w)
        return w
    yield make
    for w in made:
        w.close()


def press(w, point):
    """A left click on the canvas at the pixel of a point, as the browser would send it."""
    px, py = w.ax.transData.transform(xy(w.board, point))
    MouseEvent("button_press_event", w.canvas, px, py, button=1)._process()


def until(condition, timeout=20.0):
    """Wait for something a background thread does."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def fields(template):
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def play_by_mouse(w, turn):
    """Click a whole turn: the stone, each destination, the captured string when a step captures both ways."""
    press(w, turn.start)
    for step in turn.steps:
        twins = [s for s in w.board.legal_steps() if (s.origin, s.destination) == (step.origin, step.destination)]
        press(w, step.destination)
        if len(twins) > 1:
            press(w, w.board.captures(step)[0])
    if w.board.chain:
        w.end_turn()


def test_a_whole_game_played_with_the_mouse_matches_the_rules(widgets_made):
    w = widgets_made(size=(3, 3))
    reference = fa.Board((3, 3))
    rng = random.Random(7)
    while not w.board.is_game_over():
        turn = rng.choice(w.board.legal_turns())
        play_by_mouse(w, turn)
        reference.push(turn)
        assert w.board == reference, f"after {turn}: {w.status}"
    assert w.board.outcome() == reference.outcome()
    assert len(w.moves.splitlines()) == (len(reference.turns) + 1) // 2
    assert str(reference.turns[-1]) in w.moves
    winner = reference.outcome().winner
    assert (f"{winner.capitalize()} wins" if winner else "Draw") in w.status


@pytest.mark.parametrize("kind, gone, kept", [("approach", "f3", "c3"), ("withdrawal", "c3", "f3")])
def test_a_two_way_capture_waits_for_a_choice_by_click(widgets_made, kind, gone, kept):
    w = widgets_made()
    press(w, "d3")
    press(w, "e3")
    assert w.board == fa.Board(), "nothing is played before the choice"
    assert "captures two ways" in w.status
    assert not w.controls["approach"].disabled
    press(w, gone)
    assert str(w.board.turns[-1]) == "d3e3" + kind[0].upper()
    assert w.board.stone_at(gone) is None and w.board.stone_at(kept) == "black"
    assert w.controls["approach"].disabled


@pytest.mark.parametrize("kind", ["approach", "withdrawal"])
def test_a_two_way_capture_can_be_chosen_by_name(widgets_made, kind):
    w = widgets_made()
    w.click("d3")
    w.click("e3")
    w.choose(kind)
    assert w.board.turns == [fa.Board().parse_turn("d3e3" + kind[0].upper())]


def test_choosing_without_a_two_way_capture_says_so(widgets_made):
    w = widgets_made()
    w.choose("approach")
    assert "no capture to choose" in w.status and w.board == fa.Board()
    with pytest.raises(ValueError, match="'approach' or 'withdrawal'"):
        w.choose("both")


def test_a_chain_is_followed_and_can_stop_early(widgets_made):
    w = widgets_made(fa.Board.from_diagram(CHAIN))
    press(w, "c1")
    press(w, "c2")
    assert w.board.chain_stone == "c2" and w.board.to_move == "white"
    assert "may capture again" in w.status
    assert not w.controls["end_turn"].disabled
    assert w.moves == "1. c1c2A…"
    press(w, "b2")
    assert "every step of a chain must capture" in w.status, "the rules' reason is shown"
    assert w.board.chain_stone == "c2"
    w.end_turn()
    assert w.board.to_move == "black" and w.board.stone_at("e2") == "black"
    assert w.moves == "1. c1c2A"
    assert w.controls["end_turn"].disabled


def test_ending_a_turn_without_a_chain_explains(widgets_made):
    w = widgets_made()
    w.end_turn()
    assert "no capture chain in progress" in w.status and w.board == fa.Board()


def test_illegal_clicks_explain_and_change_nothing(widgets_made):
    start = fa.Board.from_diagram(CHAIN)
    w = widgets_made(start)
    press(w, "a5")
    assert "belongs to the opponent" in w.status
    press(w, "b4")
    assert "no stone on b4" in w.status
    press(w, "c1")
    press(w, "a1")
    assert "c1 and a1 are not neighbours" in w.status
    press(w, "b1")
    assert "capture is compulsory, and white can capture: c1c2A" in w.status
    assert w.board == start and w.board.turns == []


def test_compulsory_capture_names_the_stones_that_must_capture(widgets_made):
    w = widgets_made()
    w.click("a2")
    capturers = sorted({t.start for t in fa.Board().legal_turns()})
    assert f"move one of the marked stones ({', '.join(capturers)})" in w.status
    assert w.board == fa.Board()


def test_clicks_between_points_and_outside_the_board_do_nothing(widgets_made):
    w = widgets_made()
    before = w.status
    px, py = w.ax.transData.transform((3.5, 1.5))
    MouseEvent("button_press_event", w.canvas, px, py, button=1)._process()
    MouseEvent("button_press_event", w.canvas, 1, 1, button=1)._process()
    assert w.status == before
    with pytest.raises(ValueError, match="no point 'k9' on a 9x5 board"):
        w.click("k9")


def test_undo_and_redo_take_whole_turns(widgets_made):
    w = widgets_made()
    first = fa.Board().parse_turn("d3e3W")
    play_by_mouse(w, first)
    second = w.board.legal_turns()[0]
    play_by_mouse(w, second)
    after_two = w.board.copy()
    w.undo()
    assert w.board.turns == [first] and f"took back {second}".lower() in w.status.lower()
    w.undo()
    assert w.board == fa.Board()
    w.undo()
    assert "nothing to undo" in w.status.lower()
    w.redo()
    w.redo()
    assert w.board == after_two
    w.redo()
    assert "nothing to redo" in w.status.lower()


def test_undo_takes_back_a_chain_in_progress_and_a_step_at_a_time(widgets_made):
    start = fa.Board.from_diagram(CHAIN)
    w = widgets_made(start)
    w.click("c1")
    w.click("c2")
    w.undo_step()
    assert w.board == start
    w.click("c1")
    w.click("c2")
    w.click("d2")
    assert w.board.count("black") == 1 and w.board.to_move == "black"
    w.undo_step()
    assert w.board.chain_stone == "c2" and w.board.stone_at("e2") == "black"
    w.undo()
    assert w.board == start


def test_the_computer_replies_in_the_background(widgets_made):
    w = widgets_made(opponent=2)
    w.click("d3")
    w.click("e3")
    w.choose("withdrawal")
    w.wait()
    assert w.error is None
    assert len(w.board.turns) == 2 and w.board.to_move == "white"
    reply = str(w.board.turns[1])
    assert f"Level2 played {reply}" in w.status
    assert w.moves == f"1. d3e3W  {reply}"
    assert fa.Game.from_board(w.board).board() == w.board, "the reply was legal"
    w.undo()
    assert w.board == fa.Board(), "undo goes back to the person's turn"


def test_the_computer_can_play_white_and_both_sides(widgets_made):
    w = widgets_made(size=(3, 3))
    w.level = 1
    w.computer = "white"
    w.wait()
    assert len(w.board.turns) == 1 and w.board.to_move == "black"
    w.computer = "both"
    w.wait()
    assert w.board.is_game_over() and w.error is None


class Waiting:
    """A player that holds its answer until the test lets it go."""
    name = "waiting"

    def __init__(self):
        self.go = threading.Event()

    def choose_turn(self, board):
        self.go.wait(30)
        return board.legal_turns()[0]


def test_clicks_are_refused_while_the_computer_thinks(widgets_made):
    player = Waiting()
    w = widgets_made(opponent=player)
    w.click("d3")
    w.click("e3")
    w.choose("approach")
    until(lambda: "Waiting is thinking" in w.status)
    w.click("e2")
    assert "the computer is moving" in w.status
    assert len(w.board.turns) == 1
    player.go.set()
    w.wait()
    assert len(w.board.turns) == 2 and w.board.to_move == "white"


def test_bad_opponents_and_languages_are_refused():
    with pytest.raises(ValueError, match="levels go from 1 to 5"):
        fa.BoardWidget(opponent=9)
    with pytest.raises(ValueError, match="choose_turn"):
        fa.BoardWidget(opponent="strong")
    with pytest.raises(ValueError, match="language must be one of 'en', 'da', 'de', 'cs'; got 'fr'"):
        fa.BoardWidget(language="fr")


def test_every_language_has_every_label_and_template():
    english = LABELS["en"]
    for language, table in LABELS.items():
        assert set(table) == set(english), language
        for key, text in table.items():
            assert fields(text) == fields(english[key]), (language, key)
        if language != "en":
            assert sum(table[k] != english[k] for k in english) > 0.8 * len(english), language


def test_labels_and_status_follow_the_language(widgets_made):
    w = widgets_made(language="de")
    assert w.controls["end_turn"].description == "Zug beenden"
    w.click("a2")
    assert w.status.startswith("Schlagen ist Pflicht") and "Weiß ist am Zug" in w.status
    w.language = "da"
    assert w.controls["end_turn"].description == "Afslut træk"
    assert "Hvid er i trækket" in w.status
    w.language = "cs"
    w.click("e2")
    w.click("e4")
    assert w.status.startswith("Kámen na e4 patří soupeři")
    w.click("e1")
    assert "Na tahu je bílý" in w.status


def test_rule_reasons_stay_in_english(widgets_made):
    w = widgets_made(fa.Board.from_diagram(CHAIN), language="cs")
    w.click("c1")
    w.click("a1")
    assert w.status.startswith("Nepovoleno: c1 and a1 are not neighbours")


def test_loading_a_named_position_a_diagram_and_a_bad_text(widgets_made):
    w = widgets_made()
    name = positions.names()[-1]
    w.load_position(name)
    assert w.board == positions.load(name) and f"loaded {name}" in w.status.lower()
    assert w.controls["size"].value == "{}x{}".format(*w.board.size)
    w.load_position(CHAIN)
    assert w.board.diagram() == CHAIN and w.board.size == (5, 5)
    w.load_position("BBB/B.W/WWW b")
    assert w.board.to_move == "black" and w.board.size == (3, 3)
    with pytest.raises(ValueError, match="neither a position name"):
        w.load_position("no such place")
    w.controls["diagram"].value = "XX"
    w.controls["load_diagram"].click()
    assert w.status.startswith("Cannot load") and w.board.size == (3, 3)


def test_a_game_record_goes_out_and_comes_back(widgets_made):
    w = widgets_made()
    play_by_mouse(w, fa.Board().parse_turn("d3e3W"))
    play_by_mouse(w, w.board.legal_turns()[-1])
    record = w.export_game()
    assert json.loads(w.controls["record"].value)["turns"] == [str(t) for t in w.board.turns]
    played = w.board.copy()
    w.new_game()
    assert w.board == fa.Board()
    w.controls["import"].click()
    assert w.board == played and "2 turns" in w.status
    w.controls["record"].value = record.replace("d3e3W", "d3e3X")
    w.controls["import"].click()
    assert w.status.startswith("Cannot read the game record") and w.board == played


def test_replay_shows_earlier_positions_and_blocks_play(widgets_made):
    w = widgets_made()
    play_by_mouse(w, fa.Board().parse_turn("d3e3W"))
    w.replay(0)
    assert w.controls["replay"].value == 0
    w.click("e4")
    assert "after 0 of 1 turns" in w.status and len(w.board.turns) == 1
    white_stones = [c for c in w.ax.collections if len(c.get_offsets()) == 22]
    assert white_stones, "the start position, with its 22 stones a side, is drawn"
    w.replay(None)
    w.click("d4")
    assert "the stone on d4 is selected" in w.status.lower()
    with pytest.raises(ValueError, match="replay shows 0 to 1"):
        w.replay(5)


def test_overlays_add_to_the_picture(widgets_made):
    w = widgets_made()
    texts = len(w.ax.texts)
    w.show(names=True)
    assert len(w.ax.texts) == texts + 45
    collections = len(w.ax.collections)
    w.show(strings=True, strong=True)
    assert len(w.ax.collections) == collections + 2
    width = w.figure.get_figwidth()
    w.show(large=True)
    assert w.figure.get_figwidth() > 1.3 * width
    with pytest.raises(ValueError, match="no overlay called 'stars'"):
        w.show(stars=True)


def test_new_games_of_other_sizes_and_rules(widgets_made):
    w = widgets_made()
    w.controls["size"].value = "3x5"
    assert w.board == fa.Board((3, 5))
    w.new_game(rules="simple")
    assert w.board.rules == fa.Rules.simple() and w.board.size == (3, 5)
    assert w.controls["rules"].value == "simple"
    assert "perfect" not in [v for _, v in w.controls["level"].options], "the solver is slow on simple rules"
    w.new_game(rules="standard")
    assert "perfect" in [v for _, v in w.controls["level"].options], "small boards offer the solver"
    w.new_game(size=(9, 5))
    assert "perfect" not in [v for _, v in w.controls["level"].options]


def test_point_pixels_place_the_points_on_the_canvas(widgets_made):
    w = widgets_made()
    pixels = w.point_pixels()
    assert set(pixels) == set(w.board.points)
    assert pixels["a1"][0] < pixels["b1"][0] < pixels["i1"][0]
    assert pixels["a1"][1] > pixels["a2"][1] > pixels["a5"][1], "rows go up the page"
    assert all(0 < x < 1 and 0 < y < 1 for x, y in pixels.values())
    published = json.loads(w.controls["points"].value)
    assert {name: tuple(place) for name, place in published.items()} == pixels


def test_undo_while_the_computer_thinks_discards_its_answer(widgets_made):
    player = Waiting()
    w = widgets_made(opponent=player)
    w.click("d3")
    w.click("e3")
    w.choose("approach")
    until(lambda: "thinking" in w.status)
    w.undo()
    assert w.board == fa.Board()
    player.go.set()
    w.wait()
    time.sleep(0.2)
    assert w.board == fa.Board(), "the late answer was not played"


class ScriptedChain:
    """A player that always plays one given turn text."""
    name = "scripted"

    def __init__(self, text):
        self.text = text

    def choose_turn(self, board):
        return board.parse_turn(self.text)


def test_the_computer_chain_is_shown_step_by_step(widgets_made):
    w = widgets_made(fa.Board.from_diagram(CHAIN), opponent=ScriptedChain("c1c2Ad2A"))
    w.delay = 0.3
    seen = []
    w.computer = "white"
    deadline = time.monotonic() + 20
    while len(w.board.turns) < 1 and time.monotonic() < deadline:
        seen.append(w.board.chain_stone)
        time.sleep(0.01)
    w.wait()
    assert "c2" in seen, "the position after the first capture was on show"
    assert [str(t) for t in w.board.turns] == ["c1c2Ad2A"]


def test_a_computer_turn_that_stops_a_chain_early_ends_it(widgets_made):
    w = widgets_made(fa.Board.from_diagram(CHAIN), opponent=ScriptedChain("c1c2A"))
    w.computer = "white"
    w.wait()
    assert [str(t) for t in w.board.turns] == ["c1c2A"] and w.board.to_move == "black"
    assert w.board.stone_at("e2") == "black"


def test_the_status_line_shows_the_search(widgets_made):
    w = widgets_made(size=(5, 3))
    w.level = 3
    w.computer = "white"
    w.wait()
    assert w.error is None
    assert "Search: depth" in w.status and "nodes" in w.status


def test_the_perfect_player_answers_on_a_small_board(widgets_made):
    w = widgets_made(size=(3, 3))
    w.level = "perfect"
    w.computer = "both"
    w.wait(120)
    assert w.error is None and w.board.is_game_over()
    assert "perfect 3x3" in w.export_game()


def test_the_move_list_numbers_pairs_and_marks_a_black_start(widgets_made):
    w = widgets_made(fa.Board.from_fen("BBB/B.W/WWW b"))
    turn = w.board.legal_turns()[0]
    play_by_mouse(w, turn)
    assert w.moves == f"1. …  {turn}"
    reply = w.board.legal_turns()[0]
    play_by_mouse(w, reply)
    assert w.moves.splitlines()[1] == f"2. {reply}"
