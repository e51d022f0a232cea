"""The board's controller, headless: no ipywidgets, no matplotlib, no redraw.

What a classroom try-out and a fuzzing run found has a test here each, driven exactly as it was
found, and named for what it checks.
"""

import random
import sys
import threading
import time

import pytest

import fanorona as fa
from fanorona import positions
from fanorona.ui.controller import Controller, Model, Reply

# White's c1 can capture c3 by approach, then go on to capture e2 from c2; Black keeps a5.
CHAIN = """\
B....
.....
..B..
....B
..W.."""


def clicks(c, *points):
    return [c.click(p) for p in points]


class Scripted:
    """A player that plays given turn texts in order."""

    name = "scripted"

    def __init__(self, *texts):
        self.texts = list(texts)

    def choose_turn(self, board):
        return board.parse_turn(self.texts.pop(0))


class Gate:
    """A player that holds its answer until the test lets it go, and says when it has started."""

    name = "gate"

    def __init__(self):
        self.started, self.go = threading.Event(), threading.Event()

    def choose_turn(self, board):
        self.started.set()
        assert self.go.wait(30)
        return board.legal_turns()[0]


def test_the_controller_imports_no_gui_library():
    import subprocess

    code = (
        "import sys, fanorona.ui.controller, fanorona.ui.computer, fanorona.ui.labels; "
        "print(sorted(m for m in sys.modules "
        "if m.split('.')[0] in ('ipywidgets', 'matplotlib', 'ipympl')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_a_click_selects_then_steps_and_says_so(made):
    c = made()
    assert c.click("d2") == Reply("selected", "d2 selected: click a teal dot to move there")
    assert c.selected == "d2" and c.scene()["targets"] == ["e3"]
    reply = c.click("e3")
    assert reply.action == "moved" and str(c.model.turns[-1]) == "d2e3A"
    assert c.selected is None and c.model.to_move == "black"


def test_refusals_explain_and_change_nothing(made):
    start = fa.Board.from_diagram(CHAIN)
    c = made(start.copy())
    assert "belongs to the opponent" in c.click("a5").message
    assert "no stone on b4" in c.click("b4").message
    c.click("c1")
    assert "c1 and a1 are not neighbours" in c.click("a1").message
    assert (
        c.click("b1").message == "Not allowed: capture is compulsory, and white can capture: c1c2A"
    )
    assert c.model == start and c.model.turns == []


def test_compulsory_capture_names_the_stones_with_orange_dots(made):
    c = made()
    reply = c.click("a2")
    capturers = sorted({t.start for t in fa.Board().legal_turns()})
    assert (
        reply.message
        == f"Capture is compulsory: move a stone with an orange dot ({', '.join(capturers)})"
    )
    assert c.scene()["must"] == capturers and c.selected is None


@pytest.mark.parametrize("kind, gone, kept", [("approach", "f3", "c3"), ("withdrawal", "c3", "f3")])
def test_a_two_way_capture_is_chosen_by_clicking_a_stone_of_its_string(made, kind, gone, kept):
    c = made()
    clicks(c, "d3")
    reply = c.click("e3")
    assert reply.action == "choose" and c.pending == ("d3", "e3") and c.model == fa.Board()
    assert c.click(gone).action == "moved"
    assert str(c.model.turns[-1]) == "d3e3" + kind[0].upper()
    assert c.model.stone_at(gone) is None and c.model.stone_at(kept) == "black"


def test_c_the_two_candidate_strings_are_told_apart_with_the_waiting_step(made):
    c = made(positions.load("both-ways"))
    step = c.model.legal_turns()[0].steps[0]
    clicks(c, step.origin, step.destination)
    scene = c.scene()
    approach = c.model.captures(fa.Step(step.origin, step.destination, "approach"))
    withdrawal = c.model.captures(fa.Step(step.origin, step.destination, "withdrawal"))
    assert scene["approach"] == approach and scene["withdrawal"] == withdrawal
    assert not set(approach) & set(withdrawal)
    assert scene["waiting"] == (step.origin, step.destination)
    assert "marked A (red) to capture by approach" in c.status and "marked W (blue)" in c.status


def test_c_before_the_destination_click_each_capture_is_marked_by_its_kind(made):
    c = made()
    c.click("d3")
    scene = c.scene()
    assert scene["targets"] == ["e3"]
    assert scene["approach"] == ["f3"] and scene["withdrawal"] == ["c3"], (
        "one stone each way at the start"
    )
    c.click("d3")
    c.click("d2")
    scene = c.scene()
    assert scene["approach"] == ["f4", "g5"] and scene["withdrawal"] == []


def test_clicking_the_origin_cancels_a_waiting_choice(made):
    c = made()
    clicks(c, "d3", "e3")
    assert c.click("d3") == Reply("cancelled", "Choice cancelled")
    assert c.pending is None and c.model == fa.Board()
    assert c.choose("approach").message == "There is no capture to choose now"
    with pytest.raises(ValueError, match="'approach' or 'withdrawal'"):
        c.choose("both")


def test_a_chain_goes_on_and_can_stop_early(made):
    c = made(fa.Board.from_diagram(CHAIN))
    clicks(c, "c1", "c2")
    assert c.model.chain_stone == "c2" and c.selected == "c2"
    assert c.moves == "1. c1c2A…"
    assert "every step of a chain must capture" in c.click("b2").message
    assert c.end_turn().action == "ended"
    assert c.model.to_move == "black" and c.moves == "1. c1c2A"


def test_a_undo_step_in_the_middle_of_a_chain_keeps_the_chain(made):
    c = made(positions.load("long-chain"))
    clicks(c, "b2", "c1", "d2")
    taken = c.undo_step()
    assert taken == Reply("undone", "Took back the step c1d2A")
    assert c.selected == "c1" and c.model.chain_stone == "c1"
    assert "d2" in c.scene()["targets"], "c1 has its marks again"
    reply = c.click("d2")
    assert reply == Reply("chain", "d2 may capture again: click a teal dot, or End turn")
    assert [str(s) for s in c.model.chain] == ["b2c1W", "c1d2A"] and c.model.turns == []


def test_a_undo_step_of_a_first_step_selects_the_stone_again(made):
    c = made()
    clicks(c, "d2", "e3")
    c.undo_step()
    assert c.model == fa.Board() and c.selected == "d2"
    assert c.click("e3").action == "moved"


def test_a_undo_step_after_end_turn_takes_back_the_last_step(made):
    start = fa.Board.from_diagram(CHAIN)
    c = made(start.copy())
    clicks(c, "c1", "c2")
    c.end_turn()
    assert c.undo_step().message == "Took back the step c1c2A"
    assert c.model == start and c.selected == "c1"


def test_b_undo_step_after_the_computers_reply_is_unavailable_and_says_so(made):
    reply = str(fa.Board().after("d3e3W").legal_turns()[0])
    c = made(opponent=Scripted(reply))
    clicks(c, "d3", "e3")
    c.choose("withdrawal")
    c.runner.wait()
    assert [str(t) for t in c.model.turns] == ["d3e3W", reply]
    assert not c.history.can_undo_step()
    reply = c.undo_step()
    assert reply.action == "refused" and "use Undo turn" in reply.message
    assert len(c.model.turns) == 2


def test_b_undo_step_after_redo_takes_back_one_step(made):
    c = made(positions.load("long-chain"))
    clicks(c, "b2", "c1", "d2")
    while c.model.chain:
        c.click(sorted(c.scene()["targets"])[0])
    whole = c.model.turns[-1]
    assert len(whole.steps) >= 3
    c.undo()
    c.redo()
    assert c.model.turns[-1] == whole
    reply = c.undo_step()
    assert reply.message == f"Took back the step {whole.steps[-1]}"
    assert list(c.model.chain) == list(whole.steps[:-1])


def test_undo_and_redo_take_whole_turns(made):
    c = made()
    clicks(c, "d3", "e3")
    c.choose("withdrawal")
    second = c.model.legal_turns()[0]
    for step in second.steps:
        if not c.model.chain:
            c.click(step.origin)
        c.click(step.destination)
        if c.pending:
            c.choose(step.capture)
    if c.model.chain:
        c.end_turn()
    after_two = c.model.copy()
    assert c.undo().message == f"Took back {second}"
    c.undo()
    assert c.model == fa.Board()
    assert c.undo().message == "Nothing to undo"
    c.redo()
    c.redo()
    assert c.model == after_two
    assert c.redo().message == "Nothing to redo"


def test_w2_a_move_by_anyone_clears_the_redo_list(made):
    c = made()
    clicks(c, "d3", "e3")
    c.choose("withdrawal")
    c.undo()
    assert c.history.can_redo()
    c.set_computer("white")
    c.runner.wait()
    c.set_computer("nobody")
    assert not c.history.can_redo()
    assert c.redo().message == "Nothing to redo"
    assert len(c.model.turns) == 1 and c.error is None


def test_w1_a_waiting_choice_does_not_survive_a_step_taken_back(made):
    c = made()
    clicks(c, "d3", "e3")
    c.choose("approach")
    clicks(c, "c3", "d3")
    assert c.pending == ("c3", "d3")
    c.undo_step()
    assert c.pending is None
    for action in (lambda: c.click("d4"), lambda: c.choose("approach"), c.end_turn, c.undo, c.redo):
        assert isinstance(action(), Reply)
    assert c.status and c.error is None


def test_w1_a_waiting_choice_does_not_survive_the_computer_taking_over(made):
    c = made()
    clicks(c, "d3", "e3")
    c.set_computer("white")
    c.runner.wait()
    assert c.error is None and c.pending is None
    assert len(c.model.turns) == 1 and c.model.to_move == "black"
    assert c.click(c.model.legal_steps()[0].origin).action == "selected"


def test_w1_end_turn_while_a_choice_waits_in_a_chain(made):
    c = made(fa.Board.from_fen("BBBBBBBBB/BBBB..BBB/BWBWWB.BW/WWWW.WW.W/WWWWWWWW. w"))
    clicks(c, "e3", "f4", "e4")
    assert c.pending == ("f4", "e4")
    assert c.end_turn().action == "ended"
    assert c.pending is None and c.model.to_move == "black"
    reply = c.click("a5")
    assert reply == Reply(
        "refused", "Capture is compulsory: move a stone with an orange dot (d4, f3, g4, h3, h4)"
    )
    assert c.selected is None and c.error is None


def test_w3_the_computer_switched_on_mid_chain_finishes_it(made):
    c = made(fa.Board.from_diagram(CHAIN))
    clicks(c, "c1", "c2")
    c.set_computer("white")
    c.runner.wait()
    assert c.error is None
    assert [str(t) for t in c.model.turns] == ["c1c2Ad2A"]
    assert "finished the chain: c1c2Ad2A" in c.status
    assert c.click("a5").action == "selected"


def test_w3_at_level_perfect_too(made):
    board = fa.Board.from_diagram("B.B\n...\nW.W", rules=fa.Rules.standard())
    c = made(board)
    c.set_level("perfect")
    c.set_computer("white")
    c.runner.wait(120)
    assert c.error is None, c.status
    assert "level 5 plays instead" in c.status
    assert len(c.model.turns) == 1


def test_w4_perfect_falls_back_to_the_strongest_search_with_a_sentence(made):
    c = made(size=(3, 3))
    c.set_level("perfect")
    c.set_computer("white")
    c.runner.wait(120)
    c.load_position("B.B\n...\nW.W")
    assert c.shows.paused and "press Computer move" in c.status
    c.computer_move()
    c.runner.wait(120)
    assert c.error is None
    assert "not in the perfect player's table: level 5 plays instead" in c.status
    assert len(c.model.turns) == 1


def test_whatever_fails_in_the_computer_reaches_the_status_and_the_board_stays_usable(made):
    class Broken:
        name = "broken"

        def choose_turn(self, board):
            raise RuntimeError("out of ideas")

    c = made(opponent=Broken())
    clicks(c, "d2", "e3")
    c.runner.wait()
    assert isinstance(c.error, RuntimeError)
    assert c.status.startswith("The computer failed: RuntimeError: out of ideas")
    c.set_computer("nobody")
    assert c.click(c.model.legal_steps()[0].origin).action == "selected"


def test_g_end_turn_is_refused_while_the_computer_plays_its_chain(made):
    player = Gate()
    c = made(fa.Board.from_diagram(CHAIN), opponent=player)
    c.set_computer("white")
    assert player.started.wait(10)
    assert c.status.startswith("gate is thinking")
    assert c.end_turn().message == "Wait: it is gate's turn"
    player.go.set()
    c.runner.wait()


def test_g_while_animating_the_status_says_playing_not_thinking(made):
    c = made(fa.Board.from_diagram(CHAIN), opponent=Scripted("c1c2Ad2A"))
    seen = []
    c.observe(lambda: seen.append((c.status, len(c.model.chain))))
    c.set_computer("white")
    c.runner.wait()
    mid_chain = [status for status, chain in seen if chain == 1]
    assert mid_chain and all("scripted is playing c1c2A" in s for s in mid_chain)
    assert seen[-1][0].startswith("scripted played c1c2Ad2A")


def test_no_change_shows_the_computers_finished_turn_as_still_being_played(made):
    """The last step ends the computer's turn: the change that draws it already says the turn was
    played, never "is playing" beside the other side to move."""
    c = made(fa.Board.from_diagram(CHAIN), opponent=Scripted("c1c2Ad2A"))
    seen = []
    c.observe(lambda: seen.append((c.status, c.model.to_move, len(c.model.turns))))
    c.set_computer("white")
    c.runner.wait()
    over = [status for status, side, turns in seen if turns == 1]
    assert over and [str(t) for t in c.model.turns] == ["c1c2Ad2A"]
    assert all(side == "black" for _status, side, turns in seen if turns == 1)
    assert all(s.startswith("scripted played c1c2Ad2A. Black to move") for s in over), over


def test_the_computers_level_is_named_in_the_boards_language(made):
    c = made(opponent=1)
    clicks(c, "d2", "e3")
    c.runner.wait()
    reply = str(c.model.turns[-1])
    expected = {
        "en": f"Level 1 played {reply}. White to move.",
        "da": f"Niveau 1 spillede {reply}. Hvid er i trækket.",
        "de": f"Stufe 1 spielte {reply}. Weiß ist am Zug.",
        "cs": f"Počítač (úroveň 1) zahrál {reply}. Na tahu je bílý.",
    }
    for language, status in expected.items():
        c.set_language(language)
        assert c.status == status
    assert '"black": "level 1"' in c.export_game(), "the game record keeps the English name"


def test_clicks_are_refused_while_the_computer_thinks_and_undo_drops_its_answer(made):
    player = Gate()
    c = made(opponent=player)
    clicks(c, "d3", "e3")
    c.choose("approach")
    assert player.started.wait(10)
    assert c.click("e2").message == "Wait: it is gate's turn"
    c.undo()
    assert c.model == fa.Board()
    player.go.set()
    c.runner.wait()
    assert c.model == fa.Board(), "the late answer was not played"


@pytest.mark.parametrize(
    "language, thinking, refused",
    [
        ("en", "ann is thinking", "Wait: it is ann's turn"),
        ("da", "ann tænker", "Vent: det er anns tur"),
    ],
)
def test_a_classmate_is_named_as_the_lobby_spells_them_while_it_is_their_turn(
    made, language, thinking, refused
):
    """A lobby seat is a player with a name: a click in its turn names it, never "the computer",
    and never capitalised into someone else ("ann", not "Ann")."""
    player = Gate()
    player.name = "ann"
    c = made(opponent=player)
    c.set_language(language)
    clicks(c, "d3", "e3")
    c.choose("approach")
    assert player.started.wait(10)
    assert c.status.startswith(thinking), c.status
    assert c.click("e2").message == refused
    player.go.set()
    c.runner.wait()


def test_e_the_replay_shows_the_position_shown_and_forgets_its_sentence_at_the_end(made):
    c = made(fa.Board.from_diagram(CHAIN))
    clicks(c, "c1", "c2", "d2")
    assert c.model.count("black") == 1
    c.replay(0)
    assert c.shows.details.startswith("Stones: white 1, black 3")
    assert (
        c.status
        == "Showing the position after 0 of 1 turns: move the slider to the end to play on. "
        "White to move."
    )
    assert c.click("a5").action == "refused"
    c.replay(1)
    assert c.shown is None
    assert c.status == "Black to move."
    assert c.shows.details.startswith("Stones: white 1, black 1")


def test_e_the_move_list_marks_the_turn_shown(made):
    c = made()
    clicks(c, "d3", "e3")
    c.choose("withdrawal")
    reply = c.model.legal_turns()[0]
    c.model.push(reply)
    c.replay(1)
    assert c.moves == f"1. ▸d3e3W  {reply}"
    c.replay(None)
    assert c.moves == f"1. d3e3W  {reply}"
    with pytest.raises(ValueError, match="replay shows 0 to 2"):
        c.replay(5)


def test_i_each_mark_has_one_meaning(made):
    c = made()
    scene = c.scene()
    assert scene["must"] and scene["selected"] is None, "orange dots only while nothing is selected"
    c.click("d2")
    scene = c.scene()
    assert scene["must"] == [] and scene["selected"] == "d2"


def test_i_the_status_is_short_and_the_search_apart(made):
    c = made(size=(5, 3))
    c.set_level(3)
    c.set_computer("white")
    c.runner.wait()
    assert c.error is None
    assert "depth" not in c.status and "nodes" not in c.status
    assert "depth" in c.shows.search and "nodes" in c.shows.search
    assert "Stones" not in c.status and c.shows.details.startswith("Stones")


def test_l_loading_a_position_pauses_the_computer_and_says_so(made):
    c = made()
    c.set_computer("white")
    c.runner.wait()
    c.load_position("long-chain")
    assert c.shows.paused and not c.runner.busy()
    assert c.model == positions.load("long-chain")
    assert "The computer plays white: press Computer move" in c.status
    c.computer_move()
    c.runner.wait()
    assert len(c.model.turns) == 1 and c.model.to_move == "black"


def test_l_a_level_the_new_board_lacks_changes_with_a_sentence(made):
    c = made(size=(3, 3))
    c.set_level("perfect")
    c.new_game(size=(9, 5))
    assert c.shows.level == 5 and "level 5 plays instead" in c.status


def test_loading_names_diagrams_and_position_texts(made):
    c = made()
    c.load_position("strings")
    assert c.model == positions.load("strings")
    c.load_position(CHAIN)
    assert c.model.diagram() == CHAIN
    c.load_position("BBB/B.W/WWW b")
    assert c.model.to_move == "black"
    before = c.model.copy()
    with pytest.raises(ValueError, match="neither a position name"):
        c.load_position("no such place")
    assert c.model == before


def test_settings_are_checked(made):
    c = made()
    with pytest.raises(ValueError, match="computer plays one of"):
        c.set_computer("martians")
    with pytest.raises(ValueError, match="the level is one of"):
        c.set_level("perfect")
    with pytest.raises(ValueError, match="no overlay called 'stars'"):
        c.set_overlays(stars=True)
    with pytest.raises(ValueError, match="language must be one of"):
        c.set_language("fr")
    with pytest.raises(ValueError, match="no point 'k9' on a 9x5 board"):
        c.click("k9")


def test_a_game_record_goes_out_and_comes_back(made):
    c = made()
    clicks(c, "d3", "e3")
    c.choose("withdrawal")
    record = c.export_game()
    played = c.model.copy()
    c.new_game()
    c.import_game(record)
    assert c.model == played and c.status.startswith("Game record read: 1 turns")
    with pytest.raises(fa.GameRecordError):
        c.import_game(record.replace("d3e3W", "d3e3X"))
    assert c.model == played


# -- a model of one's own ---------------------------------------------------------------------


class PlainStep:
    def __init__(self, origin, destination, capture=None):
        self.origin, self.destination, self.capture = origin, destination, capture

    def __str__(self):
        return (
            self.origin
            + self.destination
            + {"approach": "A", "withdrawal": "W", None: ""}[self.capture]
        )


class PlainTurn:
    def __init__(self, step):
        self.steps = (step,)

    def __str__(self):
        return str(self.steps[0])


class SimpleGame:
    """The assignment's simplified game, written plainly: no compulsory capture, no chains; a side
    that cannot move loses.  Independent of the package: its own geometry and captures."""

    def __init__(self, width=5, height=3):
        self.size = (width, height)
        self.points = tuple(f"{chr(97 + c)}{r + 1}" for r in range(height) for c in range(width))
        self.stones = {}
        for r in range(height):
            for c in range(width):
                if r < height // 2:
                    self.stones[(c, r)] = "white"
                elif r > height // 2:
                    self.stones[(c, r)] = "black"
                elif c != width // 2:
                    self.stones[(c, r)] = ("black", "white")[(c + (c > width // 2)) % 2]
        self.to_move, self.turns, self.chain, self.chain_stone = "white", [], (), None
        self.history = []

    def _xy(self, point):
        return ord(point[0]) - 97, int(point[1:]) - 1

    def _name(self, xy):
        return f"{chr(97 + xy[0])}{xy[1] + 1}"

    def _on(self, x, y):
        return 0 <= x < self.size[0] and 0 <= y < self.size[1]

    def _directions(self, x, y):
        straight = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        return straight + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] if (x + y) % 2 == 0 else [])

    def stone_at(self, point):
        return self.stones.get(self._xy(point))

    def _run(self, x, y, dx, dy):
        enemy = "black" if self.to_move == "white" else "white"
        run = []
        while self._on(x, y) and self.stones.get((x, y)) == enemy:
            run.append(self._name((x, y)))
            x, y = x + dx, y + dy
        return run

    def _options(self, point):
        x, y = self._xy(point)
        found = []
        for dx, dy in self._directions(x, y):
            tx, ty = x + dx, y + dy
            if not self._on(tx, ty) or (tx, ty) in self.stones:
                continue
            approach = self._run(tx + dx, ty + dy, dx, dy)
            withdrawal = self._run(x - dx, y - dy, -dx, -dy)
            kinds = [
                k for k, run in (("approach", approach), ("withdrawal", withdrawal)) if run
            ] or [None]
            found += [
                (
                    PlainStep(point, self._name((tx, ty)), k),
                    {"approach": approach, "withdrawal": withdrawal}.get(k, []),
                )
                for k in kinds
            ]
        return found

    def legal_steps(self):
        if self.outcome():
            return []
        mine = [self._name(xy) for xy, s in self.stones.items() if s == self.to_move]
        return [step for p in sorted(mine) for step, _ in self._options(p)]

    def captures(self, step):
        for s, run in self._options(step.origin):
            if (s.destination, s.capture) == (step.destination, step.capture):
                return run
        raise ValueError(f"{step} is not a step of this game")

    def push(self, step):
        run = self.captures(step)
        self.history.append(dict(self.stones))
        for p in run:
            del self.stones[self._xy(p)]
        self.stones[self._xy(step.destination)] = self.stones.pop(self._xy(step.origin))
        self.turns.append(PlainTurn(step))
        self.to_move = "black" if self.to_move == "white" else "white"

    def pop(self):
        self.stones = self.history.pop()
        self.to_move = "black" if self.to_move == "white" else "white"
        return self.turns.pop().steps[0]

    def end_turn(self):
        raise ValueError("this game has no chains")

    def outcome(self):
        mine = [xy for xy, s in self.stones.items() if s == self.to_move]
        if not any(self._options(self._name(xy)) for xy in mine):

            class Result:
                winner = "black" if self.to_move == "white" else "white"
                reason = f"{self.to_move} cannot move"

            return Result()
        return None


def test_a_plain_model_of_ones_own_follows_the_protocol():
    assert isinstance(SimpleGame(), Model)
    with pytest.raises(ValueError, match="needs .*legal_steps"):
        Controller(object())


def test_a_plain_model_is_played_to_its_end_by_clicks(made):
    rng = random.Random(3)
    game = SimpleGame()
    c = made(game)
    played = 0
    while game.outcome() is None and played < 200:
        step = rng.choice(game.legal_steps())
        c.click(step.origin)
        reply = c.click(step.destination)
        if reply.action == "choose":
            stones = c.choice_strings()[step.capture]
            reply = c.click(stones[0])
        assert reply.action == "moved", reply
        played += 1
        assert str(game.turns[-1]) == str(step)
    assert game.outcome() is not None, "a random simplified game ends"
    assert c.status.startswith(f"Played {game.turns[-1]}")
    assert "wins" in c.status
    c.undo()
    assert len(game.turns) == played - 1
    c.redo()
    assert len(game.turns) == played


def test_a_plain_model_refuses_what_needs_a_board(made):
    c = made(SimpleGame())
    with pytest.raises(ValueError, match="loading a position needs a fanorona.Board"):
        c.load_position("long-chain")
    with pytest.raises(ValueError, match="the computer needs a fanorona.Board"):
        c.set_computer("black")
    picture = c.scene()["board"]
    assert isinstance(picture, fa.Board) and picture.diagram() == "BBBBB\nBW.BW\nWWWWW"


def test_a_model_that_fails_is_shown_as_a_sentence(made):
    class Faulty(SimpleGame):
        def push(self, step):
            raise KeyError("oops")

    c = made(Faulty())
    steps = c.model.legal_steps()
    step = next(
        s
        for s in steps
        if [(t.origin, t.destination) for t in steps].count((s.origin, s.destination)) == 1
    )
    assert c.click(step.origin).action == "selected"
    reply = c.click(step.destination)
    assert (
        reply.action == "error" and reply.message == "The model's push() failed: KeyError: 'oops'"
    )
    assert c.selected is None and c.pending is None and isinstance(c.error.__cause__, KeyError)
    assert c.click(step.origin).action == "selected", "the board is still usable"


# -- faulty models, undo and the replay, the computer's animation, the words of the status -------


def in_thread(action, timeout=10.0):
    """Run ``action`` in a daemon thread; its result, or a failed assertion if it is still running
    (a hang must fail the test, not the suite)."""
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("value", action()), daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), f"still running after {timeout} s"
    return result["value"]


def one_way_step(game):
    """A step whose destination click plays it at once (it does not capture two ways)."""
    steps = game.legal_steps()
    return next(
        s
        for s in steps
        if [(t.origin, t.destination) for t in steps].count((s.origin, s.destination)) == 1
    )


class NeverShorter(SimpleGame):
    """A plausible student bug: pop() restores the stones but forgets to shorten ``turns``."""

    def pop(self):
        self.stones = self.history[-1] if self.history else self.stones
        return self.turns[-1].steps[0]


def lock_is_free(c) -> bool:
    if c.lock.acquire(timeout=2):
        c.lock.release()
        return True
    return False


@pytest.mark.parametrize("action", ["undo", "new_game"])
def test_a_model_whose_pop_never_shortens_turns_is_caught_not_waited_for(action):
    game = NeverShorter()
    c = Controller(game)  # not the `made` fixture: on a hang its clean-up would wait for the lock
    step = one_way_step(game)
    clicks(c, step.origin, step.destination)
    reply = in_thread(getattr(c, action))
    assert reply == Reply(
        "error",
        f"The model's pop() failed: returned {step} but neither turns nor chain got shorter",
    )
    assert lock_is_free(c)
    assert c.click("a1").action in ("selected", "refused"), "the board still answers clicks"


def test_a_pop_that_fidgets_without_shortening_turns_is_stopped_after_bounded_calls():
    class Fidgety(SimpleGame):
        pops = 0

        def pop(self):
            self.pops += 1
            self.chain = () if self.chain else (self.turns[-1].steps[0],)
            return self.turns[-1].steps[0]

    game = Fidgety()
    c = Controller(game)
    step = one_way_step(game)
    clicks(c, step.origin, step.destination)
    reply = in_thread(c.undo)
    assert reply == Reply(
        "error", "The model's pop() failed: 3 calls did not shorten turns (still 1 long)"
    )
    assert game.pops == 3 and lock_is_free(c)


def test_a_pop_that_takes_back_nothing_at_all_is_named():
    class Stuck(SimpleGame):
        def pop(self):
            return PlainStep("a1", "b1")

    game = Stuck()
    c = Controller(game)
    step = one_way_step(game)
    clicks(c, step.origin, step.destination)
    reply = in_thread(c.undo_step)
    assert reply == Reply(
        "error", "The model's pop() failed: returned a1b1 but neither turns nor chain got shorter"
    )
    assert lock_is_free(c)


def test_undo_and_redo_against_the_computer_name_every_turn_they_take_back_or_play_again(made):
    """Against the computer, Undo takes back its answer and your turn, Redo plays both again: each
    sentence names both turns, in the game's order, as the move list loses or gains them."""
    c = made(opponent=Scripted("g4g5Wf4Ag3A", "g4g5Wf4Ag3A"))
    clicks(c, "d2", "e3")
    c.runner.wait()
    assert [str(t) for t in c.model.turns] == ["d2e3A", "g4g5Wf4Ag3A"]
    undone = c.undo()
    assert c.model.turns == [] and undone.message == "Took back d2e3A, g4g5Wf4Ag3A"
    assert c.status == "Took back d2e3A, g4g5Wf4Ag3A. White to move."
    redone = c.redo()
    assert [str(t) for t in c.model.turns] == ["d2e3A", "g4g5Wf4Ag3A"]
    assert redone.message == "Replayed d2e3A, g4g5Wf4Ag3A"
    c.set_language("de")
    assert c.status == "Wiederholt: d2e3A, g4g5Wf4Ag3A. Weiß ist am Zug."


def test_undo_turn_with_the_replay_moved_back_does_not_wedge_the_board(made):
    c = made()
    clicks(c, "d2", "e3")
    c.replay(0)
    reply = c.undo()
    assert reply.action == "undone" and c.model.turns == []
    assert c.shown is None, "the replay is kept within the game: no 'after 0 of 0 turns'"
    assert "Showing" not in c.status
    assert c.click("d2").action == "selected", "clicks play again"
    assert (
        c.history.can_redo() and c.redo().action == "redone" and str(c.model.turns[-1]) == "d2e3A"
    )


def test_the_replay_never_points_past_the_games_end(made):
    c = made()
    clicks(c, "d3", "e3")
    c.choose("withdrawal")
    second = c.model.legal_turns()[0]
    c.model.push(second)
    c.replay(1)
    c.undo()
    assert len(c.model.turns) == 1 and c.shown is None
    assert c.moves == "1. d3e3W"
    c.undo()
    assert c.moves == "" and c.shown is None


def test_undo_step_after_a_whole_turn_pushed_as_text(made):
    board = fa.Board()
    board.push("d2e3A")
    c = made(board)
    reply = c.undo_step()
    assert reply == Reply("undone", "Took back the step d2e3A")
    assert c.model.turns == [] and c.selected == "d2" and c.error is None


def test_undo_step_of_a_chain_pushed_as_text_keeps_its_first_steps(made):
    board = fa.Board.from_diagram(CHAIN)
    board.push("c1c2Ad2A")
    c = made(board)
    assert c.undo_step() == Reply("undone", "Took back the step c2d2A")
    assert [str(s) for s in c.model.chain] == ["c1c2A"] and c.selected == "c2"
    assert c.click("d2").action == "moved" and str(c.model.turns[-1]) == "c1c2Ad2A"


def test_undo_step_is_refused_while_the_computer_animates_its_chain(made):
    c = made(fa.Board.from_diagram(CHAIN), opponent=Scripted("c1c2Ad2A"), delay=1.0)
    c.set_computer("white")
    deadline = time.monotonic() + 10
    while len(c.model.chain) != 1:
        assert time.monotonic() < deadline, "the computer never played its first step"
        time.sleep(0.01)
    assert not c.history.can_undo_step()
    assert c.undo_step() == Reply("refused", "Wait: the computer is moving")
    assert [str(s) for s in c.model.chain] == ["c1c2A"]
    c.runner.wait()
    assert [str(t) for t in c.model.turns] == ["c1c2Ad2A"], "the computer played the turn it chose"


class Moody(SimpleGame):
    """A model with one fault switched on by the test (``broken`` names the member); its own
    methods still work, so the fault shows only where the board reads the member."""

    broken = None

    @property
    def to_move(self):
        if self.broken == "to_move" and not self._inside:
            raise RuntimeError("lost track")
        return self._to_move

    @to_move.setter
    def to_move(self, side):
        self._to_move = side

    _inside = False

    def _own(self, method, *args):
        inside, self._inside = self._inside, True
        try:
            return method(*args)
        finally:
            self._inside = inside

    def legal_steps(self):
        return self._own(super().legal_steps)

    def captures(self, step):
        return self._own(super().captures, step)

    def push(self, step):
        if self.broken != "push":
            self._own(super().push, step)

    def outcome(self):
        return "white wins" if self.broken == "outcome" else self._own(super().outcome)


@pytest.mark.parametrize(
    "member, sentence",
    [
        ("to_move", "The model's to_move failed: RuntimeError: lost track"),
        ("push", "The model's push() failed: played STEP but neither turns nor chain changed"),
        (
            "outcome",
            "The model's outcome() failed: answered 'white wins'; "
            "it should be None or have a winner "
            "('white', 'black' or None) and a reason (text)",
        ),
    ],
)
def test_every_model_fault_is_a_sentence_naming_the_member(made, member, sentence):
    game = Moody()
    c = made(game)
    step = one_way_step(game)
    game.broken = member
    sentence = sentence.replace("STEP", str(step))
    reply = c.click(step.origin)
    if member == "push":
        assert reply.action == "selected"
        reply = c.click(step.destination)
    assert reply == Reply("error", sentence)
    assert c.status.startswith(sentence) and c.error.member.startswith(member)
    for read in (
        c.scene,
        lambda: c.shows.details,
        lambda: c.moves,
        c.history.can_undo_step,
        c.history.can_redo,
    ):
        read()  # what the view reads never raises
    game.broken = None
    assert c.click(step.origin).action == "selected", "the board is usable once the model behaves"


def test_a_click_does_not_raise_when_to_move_fails_after_the_move(made):
    game = Moody()
    c = made(game)
    step = one_way_step(game)
    c.click(step.origin)
    game.broken = "to_move"
    reply = c.click(step.destination)
    assert reply == Reply("moved", f"Played {step}")
    assert c.status == f"Played {step}. The model's to_move failed: RuntimeError: lost track."


def test_a_scene_of_a_failing_model_says_so_in_its_title(made):
    game = Moody()
    c = made(game)
    game.broken = "to_move"
    scene = c.scene()
    assert scene["title"] == "The model's to_move failed: RuntimeError: lost track"
    assert scene["board"].diagram() == ".....\n.....\n....."


def test_a_click_while_the_computer_is_paused_says_how_to_let_it_move(made):
    c = made()
    c.set_computer("white")
    c.runner.wait()
    c.load_position("long-chain")
    assert c.shows.paused
    reply = c.click("b2")
    assert reply == Reply(
        "refused", "The computer plays white: press Computer move when it should move"
    )


def test_a_language_switch_says_the_status_again_in_the_new_language(made):
    c = made()
    c.click("d2")
    assert c.status == "d2 selected: click a teal dot to move there. White to move."
    c.set_language("de")
    assert (
        c.status
        == "d2 gewählt: klicke auf einen türkisen Punkt, um dorthin zu ziehen. Weiß ist am Zug."
    )


def test_undo_turn_is_unavailable_on_a_fresh_board(made):
    c = made()
    assert not c.history.can_undo()
    clicks(c, "d2", "e3")
    assert c.history.can_undo()


def test_reply_action_is_an_enum(made):
    from fanorona.ui.controller import Action

    reply = made().click("d2")
    assert (
        reply.action is Action.SELECTED
        and reply.action == "selected"
        and str(reply.action) == "selected"
    )


def test_an_undo_after_a_paused_load_leaves_no_pause_for_a_persons_side(made):
    c = made()
    clicks(c, "d2", "e3")
    record = c.export_game()
    c.set_computer("black")
    c.runner.wait()
    c.import_game(record)
    assert c.shows.paused and c.model.to_move == "black"
    c.undo()
    assert c.model.turns == [] and not c.shows.paused, (
        "no Computer move button while a person is to move"
    )


def test_entering_the_replay_clears_the_selection(made):
    c = made()
    clicks(c, "d2", "e3")
    assert c.click(c.model.legal_steps()[0].origin).action == "selected"
    c.replay(0)
    assert c.selected is None and c.pending is None


def test_what_may_act_is_answered_while_the_model_fails(made):
    class Forgetful(SimpleGame):
        broken = False

        @property
        def chain(self):
            if self.broken:
                raise RuntimeError("no chain today")
            return ()

        @chain.setter
        def chain(self, value):
            pass

    game = Forgetful()
    c = made(game)
    step = one_way_step(game)
    clicks(c, step.origin, step.destination)
    game.broken = True
    assert not c.history.can_undo_step() and not c.history.can_redo() and c.history.can_undo(), (
        "asked, none raises"
    )
    assert c.scene()["title"] == "The model's chain failed: RuntimeError: no chain today"
    game.broken = False
    assert c.history.can_undo() and c.undo().action == "undone"
