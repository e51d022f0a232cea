"""The interactive board without a browser: its methods, and synthetic mouse clicks on its
canvas."""

import json
import random
import time
from string import Formatter

import ipywidgets
import pytest
from matplotlib.backend_bases import MouseEvent

import fanorona as fa
from fanorona import positions

# ipympl 0.10 passes matplotlib arguments on to traitlets, which warns; not ours to fix.
pytestmark = pytest.mark.filterwarnings(
    r"ignore:Passing unrecognized arguments to super\(Toolbar\):DeprecationWarning"
)

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
    px, py = w.ax.transData.transform((ord(point[0]) - ord("a"), int(point[1:]) - 1))
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
    """Click a whole turn: the stone, each destination, the captured string when a step captures
    both ways."""
    press(w, turn.start)
    for step in turn.steps:
        twins = [
            s
            for s in w.board.legal_steps()
            if (s.origin, s.destination) == (step.origin, step.destination)
        ]
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


def test_clicks_between_points_and_outside_the_board_do_nothing(widgets_made):
    w = widgets_made()
    before = w.status
    px, py = w.ax.transData.transform((3.5, 1.5))
    MouseEvent("button_press_event", w.canvas, px, py, button=1)._process()
    MouseEvent("button_press_event", w.canvas, 1, 1, button=1)._process()
    assert w.status == before
    with pytest.raises(ValueError, match="no point 'k9' on a 9x5 board"):
        w.click("k9")


def test_the_computer_replies_in_the_background(widgets_made):
    w = widgets_made(opponent=2)
    w.click("d3")
    w.click("e3")
    w.choose("withdrawal")
    w.wait()
    assert w.error is None
    assert len(w.board.turns) == 2 and w.board.to_move == "white"
    reply = str(w.board.turns[1])
    assert f"Level 2 played {reply}" in w.status
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


def test_bad_opponents_and_languages_are_refused():
    with pytest.raises(ValueError, match="levels go from 1 to 5"):
        fa.BoardWidget(opponent=9)
    with pytest.raises(ValueError, match="choose_turn"):
        fa.BoardWidget(opponent="strong")
    with pytest.raises(
        ValueError, match="language must be one of 'en', 'da', 'de', 'cs'; got 'fr'"
    ):
        fa.BoardWidget(language="fr")


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


def test_rule_reasons_are_said_in_the_boards_language(widgets_made):
    w = widgets_made(fa.Board.from_diagram(CHAIN), language="cs")
    w.click("c1")
    w.click("a1")
    assert w.status.startswith("Nepovoleno: c1 a a1 nejsou sousedé na čáře")


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
    assert w.status.startswith("d4 selected")
    with pytest.raises(ValueError, match="replay shows 0 to 1"):
        w.replay(5)


def test_overlays_add_to_the_picture(widgets_made):
    w = widgets_made(max_width=None)
    texts = len(w.ax.texts)
    w.show(names=True)
    assert len(w.ax.texts) == texts + 45
    collections = len(w.ax.collections)
    w.show(strings=True, strong=True)
    assert len(w.ax.collections) == collections + 1, "the strong points' diamonds"
    bands = [
        c
        for c in w.ax.collections
        if hasattr(c, "get_segments") and len(c.get_segments()) > 0 and c.get_linewidth()[0] > 10
    ]
    assert sum(len(c.get_segments()) for c in bands) == len(
        w.board.strings("white", 2) + w.board.strings("black", 2)
    )
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
    assert "perfect" not in [v for _, v in w.controls["level"].options], (
        "the solver is slow on simple rules"
    )
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


# -- the view of each classroom finding ---------------------------------------------------------


def edge_rgba(collection):
    return tuple(collection.get_edgecolor()[0]) if len(collection.get_edgecolor()) else None


def scatter_at(w, **where):
    """(offsets, zorder) of the scatters whose edge or face colour is given."""
    from matplotlib.colors import to_rgba

    found = []
    for c in w.ax.collections:
        if not hasattr(c, "get_offsets"):
            continue
        if "edge" in where and edge_rgba(c) != to_rgba(where["edge"]):
            continue
        if "face" in where and (
            not len(c.get_facecolor()) or tuple(c.get_facecolor()[0]) != to_rgba(where["face"])
        ):
            continue
        found.append(({tuple(map(float, o)) for o in c.get_offsets()}, c.get_zorder()))
    return found


def drawn_arrows(arrows) -> list[tuple[str, str]]:
    """The arrows an ``Arrows`` draws, read off its collections: each as the point nearest its
    shaft's start and the point nearest its head's tip (both stop short of their points)."""
    if not (arrows.shafts.get_visible() and arrows.heads.get_visible()):
        return []
    segments, heads = arrows.shafts.get_segments(), arrows.heads.get_paths()
    assert len(segments) == len(heads), "a shaft and a head each"

    def name(x, y):
        return f"{chr(ord('a') + round(float(x)))}{round(float(y)) + 1}"

    return [(name(*segment[0]), name(*head.vertices[0])) for segment, head in zip(segments, heads)]


def legal_pairs(board) -> list[tuple[str, str]]:
    return sorted({(s.origin, s.destination) for s in board.legal_steps()})


@pytest.mark.parametrize(
    "diagram",
    [None, "B...B\n.....\n.....\n..W..\n....."],
    ids=["9x5 start, captures only", "5x5, quiet moves"],
)
def test_legal_overlay_draws_an_arrow_for_each_legal_step_of_either_side(widgets_made, diagram):
    """Every legal step is one arrow from its origin to its destination, for White and then for
    Black, read off the arrows' collections; the collections are made once, not per click."""
    w = widgets_made(fa.Board.from_diagram(diagram) if diagram else None)
    w.show(legal=True)
    legal = w.picture.drawing.arrows["legal"]
    made = list(w.ax.collections)
    for colour in ("white", "black"):
        assert w.board.to_move == colour
        assert sorted(drawn_arrows(legal)) == legal_pairs(w.board)
        assert len(drawn_arrows(legal)) == len(legal_pairs(w.board)) > 2
        play_by_mouse(w, w.board.legal_turns()[0])
        assert list(w.ax.collections) == made, "the same artists, their data changed"
    w.show(legal=False)
    assert drawn_arrows(legal) == []


def test_c_the_choice_rings_each_string_in_its_colour_above_the_stones(widgets_made):
    from fanorona.ui.draw import COLORS, KIND_COLORS

    w = widgets_made()
    w.click("d3")
    w.click("e3")
    stones_z = max(z for _, z in scatter_at(w, face=COLORS["black"]))
    for kind, point in (("approach", (5.0, 2.0)), ("withdrawal", (2.0, 2.0))):
        rings = [(pts, z) for pts, z in scatter_at(w, edge=KIND_COLORS[kind]) if point in pts]
        assert rings and all(z > stones_z for _, z in rings), f"{kind} ring drawn over the stone"
    letters = {t.get_text(): t.get_fontsize() for t in w.ax.texts if t.get_text() in ("A", "W")}
    assert set(letters) == {"A", "W"} and min(letters.values()) >= 16
    waiting = w.picture.drawing.arrows["waiting"]
    assert drawn_arrows(waiting) == [("d3", "e3")], "the waiting step is drawn as one arrow"
    assert waiting.shafts.get_linestyle()[0][1] is not None, "dashed"
    assert "click a stone marked A (red) to capture by approach" in w.status


def test_i_the_legend_names_only_the_marks_on_show(widgets_made):
    w = widgets_made()
    legend = w.controls["legend"].value
    assert "must capture" in legend and "selected" not in legend
    w.click("d3")
    legend = w.controls["legend"].value
    assert "selected" in legend and "can go here" in legend and "must capture" not in legend
    assert "approach (A) takes these" in legend and "withdrawal (W) takes these" in legend


def test_i_the_search_is_apart_from_the_status(widgets_made):
    w = widgets_made(size=(5, 3))
    w.level = 3
    w.computer = "white"
    w.wait()
    assert "depth" not in w.status and "depth" in w.controls["search"].value
    assert "Stones" in w.controls["details"].value and "Stones" not in w.controls["status"].value


def test_d_the_move_list_wraps_and_keeps_whole_chains(widgets_made):
    w = widgets_made(positions.load("long-chain"))
    w.click("b2")
    while w.board.chain or w.board.to_move == "white":
        w.click(w.controller.scene()["targets"][0])
    longest = str(w.board.turns[-1])
    assert longest in moves_html(w)
    from fanorona.ui.panel import STYLE

    assert "pre-wrap" in STYLE and "overflow-y: auto" in STYLE
    assert "white-space: pre;" not in STYLE


def test_e_the_move_list_marks_the_turn_on_show(widgets_made):
    w = widgets_made()
    play_by_mouse(w, fa.Board().parse_turn("d3e3W"))
    play_by_mouse(w, w.board.legal_turns()[0])
    w.controls["replay"].value = 1
    assert '<span class="fanorona-shown">d3e3W</span>' in moves_html(w)
    assert "Showing the position after 1 of 2 turns" in w.status
    w.controls["replay"].value = 2
    assert "fanorona-shown" not in moves_html(w) and "Showing" not in w.status


def test_f_a_language_chooser_relabels_everything_and_names_the_rules(widgets_made):
    w = widgets_made()
    assert w.controls["language"].options == (
        ("English", "en"),
        ("Dansk", "da"),
        ("Deutsch", "de"),
        ("Čeština", "cs"),
    )
    w.controls["language"].value = "cs"
    assert w.language == "cs" and w.controls["end_turn"].description == "Ukončit tah"
    assert ("jednoduchá", "simple") in w.controls["rules"].options
    w.new_game(size=(3, 3))
    assert ("dokonalý", "perfect") in w.controls["level"].options
    assert "Na tahu je bílý" in w.status


def test_g_end_turn_is_disabled_while_the_computer_plays_its_chain(widgets_made):
    class Slow(ScriptedChain):
        def choose_turn(self, board):
            return board.parse_turn(self.text)

    w = widgets_made(fa.Board.from_diagram(CHAIN), opponent=Slow("c1c2Ad2A"))
    states = []
    w.controller.observe(
        lambda: states.append((len(w.board.chain), w.controls["end_turn"].disabled))
    )
    w.computer = "white"
    w.wait()
    assert any(chain for chain, _ in states), "the chain was on show"
    assert all(disabled for chain, disabled in states if chain)


def test_h_the_picture_goes_out_before_the_text(widgets_made):
    w = widgets_made(fa.Board.from_diagram(CHAIN), opponent=ScriptedChain("c1c2Ad2A"))
    w.canvas.syncing_data_url = False  # as when a browser has the canvas
    sent = []
    send_binary = w.canvas.send_binary

    def sending(data):
        sent.append(("picture", w.board.fen()))
        send_binary(data)

    w.canvas.send_binary = sending
    w.controls["status"].observe(lambda change: sent.append(("text", w.board.fen())), names="value")
    w.computer = "white"
    w.wait()
    final = w.board.fen()
    assert final == "B..../...../...../...W./..... b"
    last_text = max(i for i, (kind, _) in enumerate(sent) if kind == "text")
    pictures = [fen for kind, fen in sent[:last_text] if kind == "picture"]
    assert pictures and pictures[-1] == final, "the last text came after the final picture"
    assert next(kind for kind, fen in sent if fen == final) == "picture"


def test_b_undo_step_is_disabled_after_the_computers_reply(widgets_made):
    w = widgets_made(opponent=2)
    w.click("d3")
    w.click("e3")
    w.choose("withdrawal")
    w.wait()
    assert w.controls["undo_step"].disabled
    w.undo_step()
    assert "use Undo turn" in w.status and len(w.board.turns) == 2


def test_l_a_paused_computer_offers_its_button(widgets_made):
    w = widgets_made()
    w.computer = "white"
    w.wait()
    assert w.controls["computer_move"].layout.display == "none"
    w.load_position("long-chain")
    assert w.controls["computer_move"].layout.display is None
    w.controls["computer_move"].click()
    w.wait()
    assert w.board.to_move == "black" and w.controls["computer_move"].layout.display == "none"


def test_the_import_box_says_what_is_wrong_with_any_text(widgets_made):
    w = widgets_made()
    for text in (
        '{"format": "fanorona-game/1", "start": "BBB/B.W/WWW w", "turns": [5]}',
        "[[[",
        "",
        "null",
    ):
        w.controls["record"].value = text
        w.controls["import"].click()
        assert w.status.startswith("Cannot read the game record"), text
        assert w.board == fa.Board()


def test_a_plain_model_plays_on_the_widget(widgets_made):
    from test_controller import SimpleGame

    game = SimpleGame()
    w = widgets_made(game)
    step = next(
        s
        for s in game.legal_steps()
        if [(t.origin, t.destination) for t in game.legal_steps()].count((s.origin, s.destination))
        == 1
    )
    press(w, step.origin)
    press(w, step.destination)
    assert str(game.turns[-1]) == str(step) and w.board is game
    assert w.controls["computer"].disabled and w.controls["load"].disabled


# -- the picture is the game's ----------------------------------------------------------------

STONE_RGB = {"white": (0xF7, 0xF3, 0xE8), "black": (0x22, 0x22, 0x22)}


def stones_in_pixels(rgba, pixels: dict, scale: float = 1.0) -> dict:
    """The stone colour read at each point of a picture (an RGBA array) from the pixels of the
    stone's disc: eight spots at 22.5° off the board's lines (no line, arrow or mark centre there);
    a point whose spots are neither stone colour holds no stone."""
    import numpy as np

    height, width = rgba.shape[:2]
    radius = 11 * scale  # pixels at 100 dpi: inside the stone's disc (14), outside a target dot (9)
    found = {}
    for point, (fx, fy) in pixels.items():
        votes = []
        for k in range(8):
            angle = np.pi / 8 + k * np.pi / 4
            x, y = (
                round(fx * width + radius * np.cos(angle)),
                round(fy * height + radius * np.sin(angle)),
            )
            r, g, b, a = (int(v) for v in rgba[y, x])
            colour = next(
                (
                    c
                    for c, rgb in STONE_RGB.items()
                    if a == 255 and max(abs(r - rgb[0]), abs(g - rgb[1]), abs(b - rgb[2])) < 12
                ),
                None,
            )
            votes.append(colour)
        found[point] = max(set(votes), key=votes.count)
    return found


def model_stones(board) -> dict:
    return {p: board.stone_at(p) for p in board.points}


def drawn_stones(w) -> dict:
    """The stones the picture's artists hold (the white and the black dots' places)."""
    picture = w.picture.drawing
    drawn = dict.fromkeys(w.board.points)
    for colour in ("white", "black"):
        for x, y in picture.dots[colour].get_offsets():
            drawn[f"{chr(ord('a') + round(float(x)))}{round(float(y)) + 1}"] = colour
    return drawn


@pytest.mark.parametrize("delay", [0, 0.4])
def test_every_picture_sent_is_whole_and_shows_the_models_stones(widgets_made, delay):
    """A browser keeps only the last of pictures that come faster than it loads them, so each
    picture sent must show the whole board as the game has it (a difference picture, dropped,
    leaves a stale board); the artists equal the model's stones after every step, and a browser
    asking for full redraws from the kernel's thread meanwhile mixes nothing up."""
    import io
    import threading

    import numpy as np
    from PIL import Image

    w = widgets_made(size=(5, 5))
    w.level = 1
    w.delay = delay
    w.canvas.syncing_data_url = False  # as when a browser has the canvas
    w.canvas._handle_message(w.canvas, {"type": "refresh"}, [])
    pixels = w.point_pixels()
    frames, artists_wrong = [], []
    send_binary = w.canvas.send_binary

    def sending(data):
        frames.append((data, model_stones(w.board)))
        send_binary(data)

    w.canvas.send_binary = sending
    w.controller.observe(
        lambda: drawn_stones(w) == model_stones(w.board) or artists_wrong.append(w.board.fen())
    )
    stop = threading.Event()

    def browser_asks_for_redraws():
        while not stop.is_set():
            w.canvas._handle_message(w.canvas, {"type": "draw"}, [])
            time.sleep(0.003)

    asking = threading.Thread(target=browser_asks_for_redraws)
    asking.start()
    try:
        w.computer = "both"
        until(lambda: w.board.is_game_over(), timeout=120)
        w.wait()
    finally:
        stop.set()
        asking.join()
    w.canvas.send_binary = send_binary
    assert w.error is None and not artists_wrong, artists_wrong[:3]
    assert len(frames) > 5
    for n, (data, stones) in enumerate(frames):
        rgba = np.asarray(Image.open(io.BytesIO(data)).convert("RGBA"))
        assert (rgba[:, :, 3] == 255).all(), (
            f"picture {n} of {len(frames)} is a difference, not a whole board"
        )
        assert stones_in_pixels(rgba, pixels) == stones, (
            f"picture {n} of {len(frames)} shows other stones"
        )
    assert frames[-1][1] == model_stones(w.board), "the last picture is of the final position"


def test_the_legend_names_the_dashed_arrow_of_a_waiting_step(widgets_made):
    from fanorona.ui.labels import LABELS

    w = widgets_made()
    assert "waiting for its capture" not in w.controls["legend"].value
    w.click("d3")
    w.click("e3")  # captures both ways: the step waits, drawn as a dashed arrow
    assert (
        "⇢" in w.controls["legend"].value
        and "the step waiting for its capture to be chosen" in w.controls["legend"].value
    )
    for language in LABELS:
        w.language = language
        assert LABELS[language]["legend_waiting"] in w.controls["legend"].value


def test_the_board_displays_as_a_picture_where_no_kernel_runs(widgets_made):
    """A static page or a notebook viewer shows image/png: the board's current picture."""
    import base64
    import io

    import numpy as np
    from PIL import Image

    w = widgets_made(size=(5, 5))
    w.click("c2")
    w.click("c3")
    bundle = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "run the notebook to play" in bundle["text/plain"]
    rgba = np.asarray(Image.open(io.BytesIO(base64.b64decode(bundle["image/png"]))).convert("RGBA"))
    assert stones_in_pixels(rgba, w.point_pixels()) == model_stones(w.board)
    assert w.board.stone_at("c2") is None, "the picture is of the game as it is now"
    w.click("d4")  # a later picture changes with the game (no stale frame kept)
    w.click("d4")
    w.show(strings=True)
    rgba = np.asarray(
        Image.open(io.BytesIO(base64.b64decode(w._repr_mimebundle_()["image/png"]))).convert("RGBA")
    )
    assert stones_in_pixels(rgba, w.point_pixels()) == model_stones(w.board)


def long_game(turns: int) -> fa.Board:
    """A game of many quiet turns: a stone a side, far apart, stepping to and fro (no quiet-turn
    draw)."""
    board = fa.Board.from_diagram(
        "........B\n.........\n.........\n.........\nW........", rules=fa.Rules(quiet_draw=None)
    )
    for n in range(turns):
        board.push(board.parse_turn(("a1a2", "i5i4", "a2a1", "i4i5")[n % 4]))
    return board


def html_sent(w, action) -> int:
    """The characters of HTML the board's text boxes are given while action runs."""
    sent = []
    boxes, seen = [w.ui], []
    while boxes:
        box = boxes.pop()
        seen.append(box)
        boxes += getattr(box, "children", ())
    handlers = [
        (box, lambda change: sent.append(len(change["new"])))
        for box in seen
        if isinstance(box, ipywidgets.HTML)
    ]
    for box, handler in handlers:
        box.observe(handler, names="value")
    action()
    for box, handler in handlers:
        box.unobserve(handler, names="value")
    return sum(sent)


def moves_html(w) -> str:
    """The move list's HTML, whether one box or many."""
    boxes, parts = [w.controls["moves"]], []
    while boxes:
        box = boxes.pop(0)
        parts.append(getattr(box, "value", ""))
        boxes += getattr(box, "children", ())
    return "".join(parts)


def test_a_click_in_a_long_game_rewrites_only_the_end_of_the_move_list(widgets_made):
    w = widgets_made(long_game(1000))
    assert "1. a1a2  i5i4" in moves_html(w) and "500. a2a1  i4i5" in moves_html(w)
    whole = len(moves_html(w))
    sent = html_sent(w, lambda: (w.click("a1"), w.click("b1")))
    assert str(w.board.turns[-1]) == "a1b1"
    assert "501. a1b1" in moves_html(w)
    assert sent < whole / 5, f"two clicks sent {sent} characters of a list of {whole}"
    w.replay(3)  # the turn shown is marked, in the first box
    assert '2. <span class="fanorona-shown">a2a1</span>' in moves_html(w)
    w.replay(None)
    assert "fanorona-shown" not in moves_html(w)
    w.undo()
    assert "501." not in moves_html(w) and "500. a2a1  i4i5" in moves_html(w)
    w.new_game()
    assert moves_html(w).count("<br>") == 0 and "1." not in moves_html(w)


@pytest.mark.parametrize("size", [(9, 5), (3, 7), (5, 5)])
def test_large_mode_fits_jupyterlabs_output_area_on_a_projector(widgets_made, size):
    """JupyterLab at 1024x768 with the file browser open gives a notebook's output 592 px."""
    w = widgets_made(size=size)
    normal = w.figure.get_figwidth() * w.figure.dpi
    w.show(large=True)
    large = w.figure.get_figwidth() * w.figure.dpi
    assert normal <= large <= 592, f"{size}: {normal:.0f} px, Large {large:.0f} px"
    if size != (9, 5):
        assert large > 1.3 * normal, "a small board grows in Large mode"
    with pytest.raises(ValueError, match="max_width is a number of pixels"):
        fa.BoardWidget(max_width=10)


def test_a_long_wait_shows_a_bar_with_the_time_left(widgets_made):
    """The controller's progress (read from a real tqdm bar, as the runner reads the package's
    bars) is shown under the status line with tqdm's estimate of the time left; None hides it."""
    import io

    from tqdm import tqdm

    from fanorona.ui.progress import reading

    w = widgets_made()
    bar, text = w.controls["progress"], w.controls["progress_text"]
    assert bar.layout.display == "none"
    progress = tqdm(total=200, file=io.StringIO(), mininterval=0, desc="Listing 9x5")
    time.sleep(0.05)
    progress.update(50)
    seen = reading(progress)
    w.controller.seat.show_progress(seen)
    assert bar.layout.display is None and text.layout.display is None
    assert bar.value == 0.25 and "25%" in text.value and "Listing 9x5" in text.value
    assert seen.remaining is not None and seen.left in text.value, "the time left, tqdm's own"
    w.controller.seat.show_progress(None)
    assert bar.layout.display == "none"
    progress.close()


@pytest.mark.parametrize("max_width", [580, None], ids=["fitted to JupyterLab", "no limit"])
def test_large_mode_styles_the_controls_only_when_large_is_on(widgets_made, max_width):
    """The controls' larger text follows the Large setting: the default 9x5 board shrunk to fit
    580 px is not in Large mode, and turning Large on for it enlarges the controls though the
    picture cannot grow."""
    w = widgets_made(max_width=max_width)
    assert (w.picture.drawing.scale != 1) == (max_width is not None), "the 9x5 board is shrunk"
    assert "fanorona-large" not in w.ui._dom_classes
    w.show(large=True)
    assert "fanorona-large" in w.ui._dom_classes
    w.show(large=False)
    assert "fanorona-large" not in w.ui._dom_classes


def test_each_picture_sent_equals_the_scene_drawn_afresh(widgets_made):
    """The picture sent after each click (the changing artists over the kept frame, the title from
    its kept pixels) is pixel for pixel the figure drawn whole from scratch: through a selection,
    a move that changes the title, an undo back to a title drawn before, and the overlays."""
    import io

    import numpy as np
    from PIL import Image

    w = widgets_made(max_width=None)
    w.canvas.syncing_data_url = False  # as when a browser has the canvas
    sent = []
    send_binary = w.canvas.send_binary
    w.canvas.send_binary = lambda data: (sent.append(data), send_binary(data))
    steps = [
        lambda: w.show(legal=True, strings=True),
        lambda: w.click("d3"),
        lambda: w.click("e3"),
        lambda: w.click("f3"),  # White's turn is played: Black to move
        lambda: w.undo(),  # White to move again: the title drawn first, from its pixels
        lambda: w.click("d2"),
    ]
    for n, step in enumerate(steps):
        sent.clear()
        step()
        assert sent, f"step {n}: a picture is sent"
        shown = np.asarray(Image.open(io.BytesIO(sent[-1])).convert("RGB"))
        w.figure.forget_frame()  # no kept frame nor text: the next draw is made from scratch
        w.canvas.draw()
        fresh = np.asarray(w.canvas.get_renderer().buffer_rgba())[:, :, :3]
        assert shown.shape == fresh.shape and (shown == fresh).all(), (
            f"step {n}: {(shown != fresh).any(axis=2).sum()} pixels differ from a fresh drawing"
        )


def test_a_click_that_moves_no_stone_redraws_no_stone(widgets_made):
    """Selecting and deselecting a stone redraws only the marks, the stones and strings under
    them restored as pixels; a step redraws the stones, and the picture equals a fresh drawing."""
    import io

    import numpy as np
    from PIL import Image

    w = widgets_made()
    w.canvas.syncing_data_url = False  # as when a browser has the canvas
    w.show(strings=True)
    drawn = []
    for artist in w.picture.drawing.under:
        draw = artist.draw
        artist.draw = lambda renderer, draw=draw: (drawn.append(1), draw(renderer))
    sent = []
    send_binary = w.canvas.send_binary
    w.canvas.send_binary = lambda data: (sent.append(data), send_binary(data))
    for point in ("d3", "d3", "d2"):
        w.click(point)
    assert sent and not drawn, "a selection redrew the stones"
    w.click("e3")  # d2-e3: a stone moves
    assert drawn, "a step kept the old stones"
    shown = np.asarray(Image.open(io.BytesIO(sent[-1])).convert("RGB"))
    w.figure.forget_frame()
    w.canvas.draw()
    assert (shown == np.asarray(w.canvas.get_renderer().buffer_rgba())[:, :, :3]).all()


def test_mouse_moves_cost_the_kernel_nothing(widgets_made):
    """The board reacts to presses only: a mouse move from the page is dropped, so matplotlib's
    hidden toolbars neither format the pointer's place nor send it, and the page is asked to send
    at most two moves a second (ipympl's default is thirty)."""
    w = widgets_made()
    w.canvas.syncing_data_url = False
    sent = []
    w.canvas.send = lambda *args, **kwargs: sent.append(args)
    fx, fy = w.point_pixels()["d3"]
    width, height = w.canvas.get_renderer().get_canvas_width_height()
    move = {"type": "motion_notify", "x": fx * width, "y": fy * height, "button": 0, "buttons": 0}
    w.canvas._handle_message(w.canvas, dict(move, modifiers=[]), [])
    assert sent == [] and w.canvas._message == "", "nothing formatted nor sent"
    assert w.canvas.pan_zoom_throttle >= 500


def test_the_titles_kept_as_pixels_are_bounded(widgets_made):
    """A plain model's fault sentences make a new title each time: the pixels kept per wording
    must not grow with them for as long as the board is open."""
    from fanorona.ui.picture import KEPT_TEXTS

    w = widgets_made(max_width=None)
    for i in range(3 * KEPT_TEXTS):
        w.picture.drawing.title.set_text(f"The model's to_move failed: fault number {i}")
        w.canvas.draw()
        assert 1 <= len(w.figure._texts) <= KEPT_TEXTS
