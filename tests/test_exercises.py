"""The checkers accept a correct student solution, reject plausible wrong ones (with a hint that
names the mistake), show a wrong answer as a picture, three lines and one sentence, and sample the
positions where mistakes hide: long captures, tall boards, edges, both colours."""

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

import fanorona as fa
from fanorona import exercises
from fanorona.exercises import Case, Checker, ExerciseFailed
from fanorona.exercises.samples import GAME_SIZES, NEIGHBOUR_SIZES, long_lines

# -- plain solutions, written the way a student would: from coordinates, not from the package ----

LINES = ((1, 0), (0, 1), (1, 1), (1, -1))  # one direction per kind of grid line


def parse(point):
    return ord(point[0]) - ord("a"), int(point[1:]) - 1


def name(col, row):
    return f"{chr(ord('a') + col)}{row + 1}"


def is_strong(col, row):
    return (col + row) % 2 == 0


def on_board(size, col, row):
    return 0 <= col < size[0] and 0 <= row < size[1]


def directions(col, row):
    """The eight ways out of a strong point, the four orthogonal ones out of a weak point."""
    both = [(dc, dr) for dc, dr in LINES if is_strong(col, row) or 0 in (dc, dr)]
    return both + [(-dc, -dr) for dc, dr in both]


def neighbours(width, height, point):
    col, row = parse(point)
    return {
        name(col + dc, row + dr)
        for dc, dr in directions(col, row)
        if on_board((width, height), col + dc, row + dr)
    }


def run(board, col, row, dc, dr, color):
    """The points from (col, row) on, one direction, while they hold ``color``."""
    out = []
    while on_board(board.size, col, row) and board.stone_at(name(col, row)) == color:
        out.append(name(col, row))
        col, row = col + dc, row + dr
    return out


def strings_through(board, point):
    col, row = parse(point)
    color = board.stone_at(point)
    found = []
    for dc, dr in LINES:
        if not is_strong(col, row) and dc and dr:
            continue
        if not (
            on_board(board.size, col + dc, row + dr) or on_board(board.size, col - dc, row - dr)
        ):
            continue  # no grid line runs this way through a corner
        back = run(board, col, row, -dc, -dr, color)
        found.append(tuple(reversed(back)) + tuple(run(board, col + dc, row + dr, dc, dr, color)))
    return found


def captures(board, origin, destination):
    (c0, r0), (c1, r1) = parse(origin), parse(destination)
    dc, dr = c1 - c0, r1 - r0
    other = board.to_move.other
    return {
        "approach": set(run(board, c1 + dc, r1 + dr, dc, dr, other)),
        "withdrawal": set(run(board, c0 - dc, r0 - dr, -dc, -dr, other)),
    }


def simple_steps(board):
    steps = []
    for origin in board.stones(board.to_move):
        for destination in neighbours(*board.size, origin):
            if board.stone_at(destination) is not None:
                continue
            caught = captures(board, origin, destination)
            kinds = [kind for kind in ("approach", "withdrawal") if caught[kind]]
            steps += [(origin, destination, kind) for kind in kinds] or [
                (origin, destination, None)
            ]
    return steps


KINDS = ("approach", "withdrawal")


def apply_step(board, origin, destination, capture):
    stones = {p: board.stone_at(p) for p in board.points if board.stone_at(p) is not None}
    if capture:
        for point in captures(board, origin, destination)[capture]:
            del stones[point]
    stones[destination] = stones.pop(origin)
    return stones


def winner(board):
    if simple_steps(board):
        return None
    return board.to_move.other


def compulsory_steps(board):
    steps = simple_steps(board)
    capturing = [s for s in steps if s[2] is not None]
    return capturing or steps


class Position:
    """A plain position: stones by point, the size, the side to move."""

    def __init__(self, size, stones, to_move):
        self.size, self.stones, self.to_move = size, stones, to_move

    def stone_at(self, point):
        return self.stones.get(point)

    @property
    def points(self):
        return [name(c, r) for r in range(self.size[1]) for c in range(self.size[0])]


def turns(board):
    """Whole turns under the assignment with both extensions."""
    start = Position(
        board.size,
        {p: str(board.stone_at(p)) for p in board.points if board.stone_at(p)},
        str(board.to_move),
    )
    first = [s for s in plain_steps(start) if s[2]]
    if not first:
        return [(s,) for s in plain_steps(start)]
    found = []

    def extend(position, path, visited):
        found.append(tuple(path))
        here = path[-1][1]
        for step in plain_steps(position):
            if step[0] == here and step[2] and step[1] not in visited:
                extend(after(position, step), path + [step], visited | {step[1]})

    for step in first:
        extend(after(start, step), [step], {step[0], step[1]})
    return found


def plain_steps(position):
    steps = []
    enemy = "black" if position.to_move == "white" else "white"
    for origin in [p for p, c in position.stones.items() if c == position.to_move]:
        for destination in neighbours(*position.size, origin):
            if position.stone_at(destination) is not None:
                continue
            caught = plain_captures(position, origin, destination, enemy)
            kinds = [kind for kind in KINDS if caught[kind]]
            steps += [(origin, destination, kind) for kind in kinds] or [
                (origin, destination, None)
            ]
    return steps


def plain_captures(position, origin, destination, enemy):
    (c0, r0), (c1, r1) = parse(origin), parse(destination)
    dc, dr = c1 - c0, r1 - r0

    def walk(col, row, dc, dr):
        out = set()
        while on_board(position.size, col, row) and position.stone_at(name(col, row)) == enemy:
            out.add(name(col, row))
            col, row = col + dc, row + dr
        return out

    return {
        "approach": walk(c1 + dc, r1 + dr, dc, dr),
        "withdrawal": walk(c0 - dc, r0 - dr, -dc, -dr),
    }


def after(position, step):
    origin, destination, capture = step
    enemy = "black" if position.to_move == "white" else "white"
    stones = dict(position.stones)
    if capture:
        for point in plain_captures(position, origin, destination, enemy)[capture]:
            del stones[point]
    stones[destination] = stones.pop(origin)
    return Position(position.size, stones, position.to_move)


# -- plausible mistakes ----------------------------------------------------------------------------


def neighbours_with_diagonals_everywhere(width, height, point):
    col, row = parse(point)
    return {
        name(col + dc, row + dr)
        for dc in (-1, 0, 1)
        for dr in (-1, 0, 1)
        if (dc, dr) != (0, 0) and on_board((width, height), col + dc, row + dr)
    }


def strings_of_at_most_next_neighbours(board, point):
    """Looks one point each way only, so long strings come out cut short."""
    col, row = parse(point)
    color = board.stone_at(point)
    found = []
    for dc, dr in LINES:
        if not is_strong(col, row) and dc and dr:
            continue
        if not (
            on_board(board.size, col + dc, row + dr) or on_board(board.size, col - dc, row - dr)
        ):
            continue
        found.append(
            tuple(run(board, col, row, -dc, -dr, color)[:2])
            + tuple(run(board, col + dc, row + dr, dc, dr, color)[:1])
        )
    return found


def strings_through_forgetting_corners(board, point):
    """Follows every line direction of the point, even the one that runs off the board both ways at
    a corner, and so finds an extra string of one there."""
    col, row = parse(point)
    color = board.stone_at(point)
    found = []
    for dc, dr in LINES:
        if not is_strong(col, row) and dc and dr:
            continue
        back = run(board, col, row, -dc, -dr, color)
        found.append(tuple(reversed(back)) + tuple(run(board, col + dc, row + dr, dc, dr, color)))
    return found


def captures_jumping_gaps(board, origin, destination):
    """Takes every opponent stone along the line ahead, gaps or not."""
    (c0, r0), (c1, r1) = parse(origin), parse(destination)
    dc, dr = c1 - c0, r1 - r0
    other = board.to_move.other
    answer = captures(board, origin, destination)
    if answer["approach"]:
        col, row, ahead = c1 + dc, r1 + dr, set()
        while on_board(board.size, col, row):
            if board.stone_at(name(col, row)) == other:
                ahead.add(name(col, row))
            col, row = col + dc, row + dr
        answer["approach"] = ahead
    return answer


def captures_without_withdrawal(board, origin, destination):
    return {**captures(board, origin, destination), "withdrawal": set()}


def simple_steps_choosing_approach(board):
    """Lists a step that captures both ways once only, as an approach."""
    seen, out = set(), []
    for origin, destination, kind in simple_steps(board):
        if (origin, destination) not in seen:
            seen.add((origin, destination))
            out.append((origin, destination, kind))
    return out


def simple_steps_listing_captures_as_quiet_too(board):
    """Offers every capturing step also as a quiet step, as if capturing were optional."""
    steps = set(simple_steps(board))
    return steps | {(origin, destination, None) for origin, destination, _ in steps}


def neighbours_one_digit_row(width, height, point):
    """Reads the row as int(point[1]), so a10 is read as a1."""
    col, row = parse(point[:2])
    return {
        name(col + dc, row + dr)
        for dc, dr in directions(col, row)
        if on_board((width, height), col + dc, row + dr)
    }


def neighbours_past_the_top_edge(width, height, point):
    col, row = parse(point)
    return {
        name(col + dc, row + dr)
        for dc, dr in directions(col, row)
        if 0 <= col + dc < width and 0 <= row + dr <= height
    }


def capped_walk(limit):
    """captures() whose walk along the line stops after ``limit(board)`` - 1 stones."""

    def captures_capped(board, origin, destination):
        (c0, r0), (c1, r1) = parse(origin), parse(destination)
        dc, dr = c1 - c0, r1 - r0
        other = board.to_move.other

        def walk(col, row, dc, dr):
            out = set()
            for _ in range(1, limit(board)):
                if not (on_board(board.size, col, row) and board.stone_at(name(col, row)) == other):
                    break
                out.add(name(col, row))
                col, row = col + dc, row + dr
            return out

        return {
            "approach": walk(c1 + dc, r1 + dr, dc, dr),
            "withdrawal": walk(c0 - dc, r0 - dr, -dc, -dr),
        }

    return captures_capped


def captures_swapped(board, origin, destination):
    answer = captures(board, origin, destination)
    return {"approach": answer["withdrawal"], "withdrawal": answer["approach"]}


def apply_step_swapped(board, origin, destination, capture):
    other = {"approach": "withdrawal", "withdrawal": "approach", None: None}[capture]
    return apply_step(board, origin, destination, other)


def apply_step_copying_the_stone(board, origin, destination, capture):
    stones = apply_step(board, origin, destination, capture)
    stones[origin] = stones[destination]
    return stones


def apply_step_taking_both(board, origin, destination, capture):
    stones = apply_step(board, origin, destination, capture)
    if capture:
        for point in set().union(*captures(board, origin, destination).values()):
            stones.pop(point, None)
    return stones


def apply_step_first_stone_only(board, origin, destination, capture):
    stones = apply_step(board, origin, destination, None)
    if capture:
        (c0, r0), (c1, r1) = parse(origin), parse(destination)
        dc, dr = c1 - c0, r1 - r0
        first = name(c1 + dc, r1 + dr) if capture == "approach" else name(c0 - dc, r0 - dr)
        del stones[first]
    return stones


def winner_counting_stones_only(board):
    return None if board.stones(board.to_move) else board.to_move.other


def captures_listing_every_point_twice(board, origin, destination):
    """Each captured stone listed twice: a list the checker must not read as a set."""
    return {
        kind: [p for p in points for _ in (0, 1)]
        for kind, points in captures(board, origin, destination).items()
    }


def winner_with_more_stones(board):
    """The side with more stones wins once the side to move is stuck, whoever is stuck."""
    if simple_steps(board):
        return None
    mine, theirs = len(board.stones(board.to_move)), len(board.stones(board.to_move.other))
    return board.to_move if mine > theirs else board.to_move.other


def winner_the_side_to_move(board):
    answer = winner(board)
    return None if answer is None else board.to_move


def turns_revisiting(board):
    """Forgets the no-return rule of extension 2."""
    found = []
    first = [s for s in simple_steps(board) if s[2]]
    if not first:
        return [(s,) for s in simple_steps(board)]
    for step in first:
        stack = [(board.after(fa.Step(*step)), [step])]
        while stack:
            position, path = stack.pop()
            found.append(tuple(path))
            here = path[-1][1]
            plain = fa.Board.from_fen(
                position.fen().rsplit(" ", 1)[0] + " " + board.to_move.value[0], fa.Rules.simple()
            )
            stack.extend(
                (plain.after(fa.Step(*nxt)), [*path, nxt])
                for nxt in simple_steps(plain)
                if nxt[0] == here and nxt[2] and len(path) < 6
            )
    return found


def turns_only_the_longest(board):
    """Forgets that a chain may stop after any capture."""
    answer = turns(board)
    return [t for t in answer if not any(len(u) > len(t) and u[: len(t)] == t for u in answer)]


def turns_with_the_standard_direction_rule(board):
    """The game club's rule (never the same direction twice in a row) instead of the assignment's
    none."""

    def direction(step):
        (c0, r0), (c1, r1) = parse(step[0]), parse(step[1])
        return (c1 - c0, r1 - r0)

    return [t for t in turns(board) if all(direction(a) != direction(b) for a, b in zip(t, t[1:]))]


def turns_without_compulsory_capture(board):
    return list(turns(board)) + [(s,) for s in simple_steps(board) if s[2] is None]


# -- view, control and a model of one's own ------------------------------------------------------

FORWARD = [(1, 0), (0, 1), (1, 1), (-1, 1)]


def column_row(point):
    return ord(point[0]) - ord("a"), int(point[1:]) - 1


def draw_position(board, ax):
    width, height = board.size
    for row in range(height):
        for column in range(width):
            for dc, dr in FORWARD:
                if dc and dr and (column + row) % 2:
                    continue
                if 0 <= column + dc < width and 0 <= row + dr < height:
                    ax.plot([column, column + dc], [row, row + dr], color="saddlebrown", zorder=1)
    for color in ("white", "black"):
        points = [column_row(p) for p in board.points if board.stone_at(p) == color]
        if points:
            ax.scatter(*zip(*points), s=300, color=color, edgecolors="black", zorder=2)
    ax.set_aspect("equal")
    ax.axis("off")


def draw_swapped(board, ax):
    class Swapped:
        size, points = board.size, board.points

        def stone_at(self, p):
            c = board.stone_at(p)
            return None if c is None else ("black" if c == "white" else "white")

    draw_position(Swapped(), ax)


def draw_upside_down(board, ax):
    draw_position(board, ax)
    h = board.size[1]
    for art in ax.collections:
        art.set_offsets([(x, h - 1 - y) for x, y in art.get_offsets()])


def draw_all_diagonals(board, ax):
    draw_position(board, ax)
    w, h = board.size
    for c in range(w - 1):
        for r in range(h - 1):
            ax.plot([c, c + 1], [r, r + 1], color="saddlebrown")


def draw_no_diagonals(board, ax):
    draw_position(board, ax)
    for line in list(ax.lines):
        (x1, x2), (y1, y2) = line.get_xdata(), line.get_ydata()
        if x1 != x2 and y1 != y2:
            line.remove()


def draw_with_patches(board, ax):
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Circle

    g = board.geometry
    ax.add_collection(LineCollection([(g.coordinates(p), g.coordinates(q)) for p, q in g.edges()]))
    for p in board.points:
        if board.stone_at(p):
            ax.add_patch(
                Circle(
                    column_row(p),
                    0.3,
                    facecolor="#f0f0f0" if board.stone_at(p) == "white" else "#101010",
                )
            )
    ax.plot(
        *zip(*[column_row(p) for p in board.points]),
        "o",
        color="saddlebrown",
        markersize=3,
        linestyle="None",
    )


class Clicks:
    """Selection, steps, the two-way choice and chains, driven by clicks."""

    def __init__(self, model):
        self.model, self.selected, self.pending = model, None, None

    def steps_between(self, origin, destination):
        return [
            s
            for s in self.model.legal_steps()
            if (s.origin, s.destination) == (origin, destination)
        ]

    def click(self, point):
        if self.model.outcome() is not None:
            return
        if self.pending:
            origin, destination = self.pending
            for step in self.steps_between(origin, destination):
                if point in self.model.captures(step):
                    return self.play(step)
            if point == origin:
                self.pending = None
            return
        options = self.steps_between(self.selected, point) if self.selected else []
        if len(options) == 2:
            self.pending = (self.selected, point)
        elif options:
            self.play(options[0])
        elif self.model.chain_stone:
            return
        elif point == self.selected:
            self.selected = None
        elif self.model.stone_at(point) == self.model.to_move and any(
            s.origin == point for s in self.model.legal_steps()
        ):
            self.selected = point

    def choose(self, kind):
        if self.model.outcome() is None and self.pending:
            self.play(next(s for s in self.steps_between(*self.pending) if s.capture == kind))

    def end_turn(self):
        if self.model.outcome() is None and self.model.chain:
            self.model.end_turn()
            self.settle()

    def play(self, step):
        self.model.push(step)
        self.settle()

    def settle(self):
        self.pending = None
        self.selected = self.model.chain_stone


class ClicksPlayingApproach(Clicks):
    def click(self, point):
        if self.selected and len(self.steps_between(self.selected, point)) == 2:
            return self.play(self.steps_between(self.selected, point)[0])
        super().click(point)


class ClicksIgnoringEndTurn(Clicks):
    def end_turn(self):
        pass


class ClicksForgettingTheChainStone(Clicks):
    def settle(self):
        self.pending = None
        self.selected = None


class ClicksNeverDeselecting(Clicks):
    def click(self, point):
        if point == self.selected and not self.pending and not self.model.chain_stone:
            return
        super().click(point)


class MyGame:
    def __init__(self, width=9, height=5):
        start = fa.Board((width, height))
        self.size, self.points = start.size, start.points
        self.placed = {p: str(start.stone_at(p)) for p in start.points if start.stone_at(p)}
        self.to_move, self.turns, self.chain, self.chain_stone, self.history = (
            fa.Color.WHITE,
            [],
            (),
            None,
            [],
        )

    def stone_at(self, point):
        return self.placed.get(point)

    def stones(self, color):
        return [p for p, c in self.placed.items() if c == color]

    def legal_steps(self):
        return [] if self.outcome() else [fa.Step(*s) for s in simple_steps(self)]

    def captures(self, step):
        return (
            sorted(captures(self, step.origin, step.destination)[step.capture])
            if step.capture
            else []
        )

    def push(self, step):
        self.history.append((self.placed, self.to_move))
        self.placed = {
            p: str(c)
            for p, c in apply_step(self, step.origin, step.destination, step.capture).items()
        }
        self.to_move = self.to_move.other
        self.turns.append(fa.Turn((step,)))

    def pop(self):
        self.placed, self.to_move = self.history.pop()
        return self.turns.pop().steps[0]

    def end_turn(self):
        raise fa.IllegalMoveError("no chains in the simplified game")

    def outcome(self):
        won = winner(self)
        return None if won is None else fa.Outcome(str(won), f"{self.to_move} cannot move")


class MyGameWithoutUndo(MyGame):
    def pop(self):
        return self.turns.pop().steps[0]


class MyGameNeverEnding(MyGame):
    def outcome(self):
        return None


def single_winning_turn(board, outcomes):
    wins = [turn for turn, value, _distance in outcomes if value == "win"]
    return wins[0] if len(wins) == 1 else None


def single_winning_turn_fastest(board, outcomes):
    """A mistake: the fastest winning turn, puzzle or not."""
    wins = [(distance, turn) for turn, value, distance in outcomes if value == "win"]
    return min(wins)[1] if wins else None


# -- the checkers ----------------------------------------------------------------------------------

CHECKERS = [name for name in exercises.__all__ if name.startswith("check_")]
SOLUTIONS = {
    "check_neighbours": neighbours,
    "check_strings_through": strings_through,
    "check_captures": captures,
    "check_simple_steps": simple_steps,
    "check_apply_step": apply_step,
    "check_winner": winner,
    "check_compulsory_steps": compulsory_steps,
    "check_turns": turns,
    "check_view": draw_position,
    "check_control": Clicks,
    "check_simple_control": Clicks,
    "check_model": MyGame,
    "check_single_winning_turn": single_winning_turn,
}
NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def test_every_checker_has_a_solution_here():
    assert sorted(SOLUTIONS) == sorted(CHECKERS)


@pytest.mark.parametrize("checker", CHECKERS)
def test_each_checker_accepts_a_correct_solution_and_reports_the_count(checker, capsys):
    n = getattr(exercises, checker)(SOLUTIONS[checker])
    assert n >= 25
    assert capsys.readouterr().out.endswith(f"All {n} cases agree.\n")


@pytest.mark.parametrize("checker", CHECKERS)
def test_each_checker_is_used_in_a_notebook(checker):
    assert any(f"{checker}(" in path.read_text(encoding="utf-8") for path in NOTEBOOKS)


@pytest.mark.parametrize("checker", CHECKERS)
def test_each_checker_says_an_exercise_is_unfinished_in_one_sentence(checker):
    def stub(*args):
        raise NotImplementedError()

    with pytest.raises(ExerciseFailed) as info:
        getattr(exercises, checker)(stub)
    assert str(info.value) == exercises.UNFINISHED
    assert info.value.__suppress_context__
    assert info.value._render_traceback_() == [
        f"\x1b[1;31mExerciseFailed\x1b[0m: {exercises.UNFINISHED}"
    ]


def test_a_class_with_one_method_still_the_stub_is_unfinished():
    class HalfClicks(Clicks):
        def end_turn(self):
            raise NotImplementedError()

    class HalfGame(MyGame):
        def outcome(self):
            raise NotImplementedError()

    for checker, half in (("check_control", HalfClicks), ("check_model", HalfGame)):
        with pytest.raises(ExerciseFailed, match="^Write the function first"):
            getattr(exercises, checker)(half)


#: (checker, plausible wrong solution, words its hint must hold).
MISTAKES = [
    ("check_neighbours", neighbours_with_diagonals_everywhere, "weak point"),
    ("check_neighbours", neighbours_one_digit_row, "the row number of a10 has two digits"),
    ("check_neighbours", neighbours_past_the_top_edge, "a4 is off the 3x3 board (a1 to c3)"),
    ("check_strings_through", strings_of_at_most_next_neighbours, "Missing"),
    (
        "check_strings_through",
        strings_through_forgetting_corners,
        "No grid line runs north-west to south-east through a1 (a corner)",
    ),
    ("check_captures", captures_jumping_gaps, "unbroken run"),
    ("check_captures", captures_without_withdrawal, "captures by withdrawal as well"),
    ("check_captures", capped_walk(lambda board: 5), "however long it is"),
    ("check_captures", capped_walk(lambda board: board.size[1]), "however long it is"),
    ("check_captures", captures_swapped, "Approach and withdrawal are swapped"),
    ("check_simple_steps", simple_steps_choosing_approach, "both ways"),
    (
        "check_simple_steps",
        simple_steps_listing_captures_as_quiet_too,
        "A step that captures is never also a quiet step",
    ),
    ("check_compulsory_steps", simple_steps, "Capture is compulsory here"),
    ("check_apply_step", apply_step_swapped, "approach and withdrawal are swapped"),
    ("check_apply_step", apply_step_copying_the_stone, "The stone must leave"),
    ("check_apply_step", apply_step_taking_both, "only the chosen string goes"),
    ("check_apply_step", apply_step_first_stone_only, "takes the whole string"),
    ("check_winner", winner_counting_stones_only, "has stones, but none of them can step"),
    ("check_winner", winner_the_side_to_move, "The player who cannot move loses"),
    ("check_winner", winner_with_more_stones, "The player who cannot move loses"),
    ("check_captures", captures_listing_every_point_twice, "listed twice"),
    ("check_turns", turns_revisiting, "a chain never returns to a point"),
    ("check_turns", turns_only_the_longest, "a chain may stop after every capture"),
    ("check_turns", turns_without_compulsory_capture, "Capture is compulsory"),
    ("check_turns", turns_with_the_standard_direction_rule, "no direction rule"),
    ("check_view", draw_swapped, "White and Black are swapped"),
    ("check_view", draw_upside_down, "The board is upside down"),
    ("check_view", draw_all_diagonals, "a weak point: diagonals join strong points only"),
    ("check_view", draw_no_diagonals, "The diagonals are missing"),
    (
        "check_control",
        ClicksPlayingApproach,
        "captures both ways: keep the step waiting in `pending`",
    ),
    ("check_control", ClicksIgnoringEndTurn, "end_turn() stops the chain"),
    ("check_control", ClicksForgettingTheChainStone, "During a chain the capturing stone"),
    ("check_control", ClicksNeverDeselecting, "Clicking the selected stone again deselects it"),
    ("check_model", MyGameWithoutUndo, "differs from the rules in"),
    ("check_model", MyGameNeverEnding, "differs from the rules in winner"),
    ("check_single_winning_turn", single_winning_turn_fastest, "a puzzle has exactly one"),
]


@pytest.mark.parametrize("checker, mistake, words", MISTAKES)
def test_each_checker_rejects_a_plausible_mistake_showing_input_expected_and_actual(
    checker, mistake, words, capsys
):
    with pytest.raises(ExerciseFailed) as info:
        getattr(exercises, checker)(mistake)
    message = str(info.value)
    assert words in message and "\n" not in message
    out = capsys.readouterr().out
    assert "Input:" in out and "Expected:" in out and "Your answer:" in out
    assert " a b c" in out  # the position, drawn as text outside a notebook
    call = out.split("Input:")[1].splitlines()[0].strip()
    if checker in (
        "check_control",
        "check_model",
    ):  # the input is a script; the sentence names its start
        assert re.search(r"from '[WB./]+ [wb]'|on \d+x\d+", message)
    else:
        assert call in message
    assert info.value._render_traceback_() == [f"\x1b[1;31mExerciseFailed\x1b[0m: {message}"]


def test_the_issues_two_leaks_are_caught_where_they_hide(capsys):
    with pytest.raises(ExerciseFailed, match=r"neighbours\(3, 11, 'a10'\)"):
        exercises.check_neighbours(neighbours_one_digit_row)
    with pytest.raises(ExerciseFailed, match=r"misses \{'g3'\}"):
        exercises.check_captures(capped_walk(lambda board: 5))


def test_a_turn_generator_that_passes_the_samples_is_still_caught_by_the_perft_walk(capsys):
    """A mistake in one position two turns from the 9x5 start that no sample holds."""
    samples = {board.fen() for board in exercises.sample_boards()}
    start = fa.Board(rules=fa.Rules.danish())
    reached = [(a, b) for a in start.legal_turns() for b in start.after(a).legal_turns()]
    a, b = next((a, b) for a, b in reached if start.after(a).after(b).fen() not in samples)
    hidden = start.after(a).after(b).fen()

    def wrong_there(board):
        answer = turns(board)
        return answer[1:] if board.fen() == hidden else answer

    with pytest.raises(ExerciseFailed):
        exercises.check_turns(wrong_there)
    out = capsys.readouterr().out
    assert f"The first position that differs, reached from the start by {a} {b}:" in out
    assert f"turns(fa.Board.from_fen({hidden!r}, fa.Rules.danish()))" in out


def test_the_quiet_step_slip_is_not_blamed_on_both_ways_captures():
    with pytest.raises(ExerciseFailed) as info:
        exercises.check_simple_steps(simple_steps_listing_captures_as_quiet_too)
    assert "both ways" not in str(info.value)
    assert re.search(r"so \('\w\d+', '\w\d+', None\) is not a legal step\.$", str(info.value))


def test_the_corner_hint_is_kept_for_a_lone_stone_on_a_line_that_is_not_there():
    def only_long_strings(board, point):
        return [s for s in strings_through(board, point) if len(s) > 1]

    with pytest.raises(ExerciseFailed) as info:
        exercises.check_strings_through(only_long_strings)
    assert "No grid line runs" not in str(info.value)
    assert re.search(r"Missing \{\('\w\d+',\)\}", str(info.value))


@pytest.mark.parametrize(
    "checker, mistake, right, same",
    [
        (
            "check_strings_through",
            strings_through_forgetting_corners,
            strings_through,
            lambda answer: set(map(frozenset, answer)),
        ),
        ("check_captures", captures_without_withdrawal, captures, lambda answer: answer),
        ("check_simple_steps", simple_steps_listing_captures_as_quiet_too, simple_steps, set),
        ("check_apply_step", apply_step_swapped, apply_step, lambda answer: answer),
        ("check_turns", turns_only_the_longest, turns, set),
    ],
)
def test_the_printed_input_pastes_into_a_notebook_and_shows_the_mistake(
    checker, mistake, right, same, capsys
):
    with pytest.raises(ExerciseFailed):
        getattr(exercises, checker)(mistake)
    call = capsys.readouterr().out.split("Input:")[1].splitlines()[0].strip()
    assert call.startswith(f"{right.__name__}(fa.Board.from_fen(")
    args = eval(call, {"fa": fa, right.__name__: lambda *args: args})
    assert same(mistake(*args)) != same(right(*args))


def test_the_neighbour_checker_names_the_first_failing_point():
    def off_by_one_on_the_top_row(width, height, point):
        return neighbours(width, height, point) | (
            {"a1"} if parse(point)[1] == height - 1 else set()
        )

    with pytest.raises(ExerciseFailed, match=r"neighbours\(3, 3, 'a3'\)"):
        exercises.check_neighbours(off_by_one_on_the_top_row)


def test_answers_of_the_wrong_shape_get_a_sentence():
    with pytest.raises(TypeError, match="collection of point names"):
        exercises.check_neighbours(lambda w, h, p: "a2")
    with pytest.raises(TypeError, match="keys 'approach' and 'withdrawal'"):
        exercises.check_captures(lambda b, o, d: {"approach": set()})
    with pytest.raises(TypeError, match=r"tuple \(origin, destination, capture\)"):
        exercises.check_simple_steps(lambda b: [("a1", "b2")])
    with pytest.raises(TypeError, match=r"a dict \{point: 'white' or 'black'\}"):
        exercises.check_apply_step(lambda b, o, d, c: [d])
    with pytest.raises(TypeError, match=r"'white', 'black' or None"):
        exercises.check_winner(lambda b: True)
    with pytest.raises(
        TypeError, match=r"each step of a turn should be \(origin, destination, capture\)"
    ):
        exercises.check_turns(lambda b: [("d3", "e3", "withdrawal")])
    with pytest.raises(TypeError, match=r"does not start where"):
        exercises.check_turns(lambda b: [(("d3", "e3", "withdrawal"), ("a1", "a2", None))])


def test_a_forgotten_return_is_named_with_the_input(capsys):
    def no_return(width, height, point):
        neighbours(width, height, point)

    with pytest.raises(
        TypeError, match=re.escape("neighbours(3, 3, 'a1') returned None: did you forget `return`?")
    ):
        exercises.check_neighbours(no_return)
    assert "Input: neighbours(3, 3, 'a1')" in capsys.readouterr().out


def test_none_instead_of_an_empty_answer_is_named_with_the_input():
    with pytest.raises(
        TypeError,
        match=r"^simple_steps\(fa\.Board\.from_fen\('.*'\, fa\.Rules\.simple\(\)\)\) "
        r"returned None: did you forget `return`\?",
    ):
        exercises.check_simple_steps(lambda board: simple_steps(board) or None)

    def none_for_no_capture(board, origin, destination):
        return {kind: found or None for kind, found in captures(board, origin, destination).items()}

    with pytest.raises(
        TypeError,
        match=r"^captures\(fa\.Board\.from_fen\('.*'\), '\w\d+', '\w\d+'\) returned "
        r"None for '(approach|withdrawal)': give a set of points, an empty set\(\) .*"
        r"did a helper function forget `return`\?",
    ):
        exercises.check_captures(none_for_no_capture)


def test_an_error_in_the_students_function_keeps_its_own_traceback_after_the_input(capsys):
    with pytest.raises(KeyError) as info:
        exercises.check_strings_through(lambda board, point: {}["x"])
    assert "Input: strings_through(fa.Board.from_fen(" in capsys.readouterr().out
    assert not hasattr(info.value, "_render_traceback_")
    assert info.traceback[-1].name == "<lambda>"


def test_a_student_function_that_changes_the_board_it_is_given_fails_with_a_sentence():
    def destructive(board, origin, destination):
        answer = captures(board, origin, destination)
        board.push(board.legal_turns()[0])
        return answer

    with pytest.raises(
        ExerciseFailed,
        match=r"^captures\(fa\.Board\.from_fen\(.*\) changed the board it was given "
        r"\(its position; afterwards fa\.Board\.from_fen\(",
    ):
        exercises.check_captures(destructive)


# -- what the samples cover
# -------------------------------------------------------------------------


def test_sample_positions_cover_several_sizes_a_tall_board_and_both_sides_to_move():
    boards = exercises.sample_boards()
    assert {b.size for b in boards} >= set(GAME_SIZES) >= {(3, 3), (5, 5), (9, 5), (5, 11)}
    for size in GAME_SIZES:
        assert {b.to_move for b in boards if b.size == size} == {"white", "black"}, size
    assert len({b.fen() for b in boards}) == len(boards)
    assert all(b.rules == fa.Rules.simple() for b in exercises.sample_boards(fa.Rules.simple()))
    assert (
        max(height for _, height in NEIGHBOUR_SIZES) >= 10 and max(b.size[1] for b in boards) >= 10
    )


@pytest.mark.parametrize("size", GAME_SIZES)
def test_the_samples_hold_the_longest_capture_of_each_size_both_ways_and_for_both_colours(size):
    longest = max(len(line) for line in long_lines(*size)) - 2
    found = {}
    for board in exercises.sample_boards(fa.Rules.simple()):
        if board.size == size and board.outcome() is None:
            for step in board.legal_steps():
                if step.capture:
                    key = (board.to_move.value, step.capture)
                    found[key] = max(found.get(key, 0), len(board.captures(step)))
    assert found == {
        (color, kind): longest
        for color in ("white", "black")
        for kind in ("approach", "withdrawal")
    }


def test_the_winner_checker_sees_both_endings_of_the_simple_game():
    reasons = set()
    for board in [case.args[0] for case in exercises.check_winner.cases()]:
        outcome = board.outcome()
        if outcome is not None:
            reasons.add(outcome.reason.split(" ", 1)[1])
    assert reasons == {"has no stones left", "has no legal turn"}


# -- a checker of one's own
# -------------------------------------------------------------------------


def stone_count_checker():
    return Checker(
        "stone_count",
        lambda board, color: board.count(color),
        lambda: [
            (board, color)
            for board in exercises.sample_boards()[:20]
            for color in ("white", "black")
        ],
        read=lambda answer, call: answer,
        what="The stone counts",
        hint=lambda case, expected, actual: "Count the stones of the colour asked for.",
    )


def test_a_course_author_writes_a_checker_from_a_reference_and_inputs(capsys):
    check = stone_count_checker()
    assert check(lambda board, color: len(board.stones(color))) == 40
    with pytest.raises(
        ExerciseFailed,
        match=r"^The stone counts for stone_count\(fa\.Board\.from_fen\(.*'white'\) "
        r"differ from the rules\. Count the stones of the colour asked for\.$",
    ):
        check(lambda board, color: len(board.stones("black")))
    out = capsys.readouterr().out
    assert "Expected:    22\nYour answer: 22" not in out and "Your answer:" in out


def test_a_case_draws_its_first_board_unless_told_otherwise():
    board = fa.Board()
    assert Case((3, board)).board is board and Case((3,)).board is None


# -- student copies ------------------------------------------------------------------------------


def notebook_with(*cells):
    nb = nbformat.v4.new_notebook()
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell("# Title")] + list(cells)
    return nb


SOLVED = """def double(x):
    ### BEGIN SOLUTION
    return 2 * x
    ### END SOLUTION"""


def test_command_line_releases_through_nbgrader_and_reports_its_refusal(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    cell = nbformat.v4.new_code_cell(SOLVED)
    cell.metadata.nbgrader = {
        "grade": False,
        "grade_id": "double",
        "locked": False,
        "schema_version": 3,
        "solution": True,
        "task": False,
    }
    nbformat.write(notebook_with(cell), src / "01_a.ipynb")
    done = subprocess.run(
        [sys.executable, "-m", "fanorona.exercises", str(src), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.startswith("Wrote 1 student notebooks to ")
    copy = nbformat.read(tmp_path / "out" / "01_a.ipynb", as_version=4)
    assert (
        copy.cells[1].source
        == "def double(x):\n    # YOUR CODE HERE\n    raise NotImplementedError()"
    )
    nbformat.write(notebook_with(nbformat.v4.new_code_cell(SOLVED)), src / "01_a.ipynb")
    failed = subprocess.run(
        [sys.executable, "-m", "fanorona.exercises", str(src), str(tmp_path / "x")],
        capture_output=True,
        text=True,
    )
    assert (
        failed.returncode == 1
        and "Solution region detected in a non-solution cell" in failed.stderr
    )
    assert not (tmp_path / "x").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    failed = subprocess.run(
        [sys.executable, "-m", "fanorona.exercises", str(empty), str(tmp_path / "x")],
        capture_output=True,
        text=True,
    )
    assert failed.returncode == 1 and "no notebooks" in failed.stderr


def test_the_view_checker_reads_the_packages_own_drawing_as_right():
    """draw_board draws with a LineCollection, scatter stones in off-white and near-black, a board
    patch and highlight rings: a different way of drawing that the reader must understand."""
    from fanorona.ui.draw import draw_board

    assert (
        exercises.check_view(lambda board, ax: draw_board(board, ax, highlight=board.points[:2]))
        >= 25
    )


def test_the_control_scripts_cover_every_kind_of_click():
    """Each thing the control must get right happens in the checker's scripts, several times."""
    seen = {}

    def saw(kind):
        seen[kind] = seen.get(kind, 0) + 1

    class Spy(Clicks):
        def click(self, point):
            before = (self.model.fen(), self.selected, self.pending, len(self.model.chain))
            super().click(point)
            if before[2] and self.pending is None and self.model.fen() != before[0]:
                saw("string clicked to choose")
            elif before[2] and self.pending is None:
                saw("choice cancelled")
            elif self.pending and not before[2]:
                saw("two-way step waits")
            elif self.model.chain and len(self.model.chain) > before[3] > 0:
                saw("chain continued")
            elif self.model.fen() != before[0]:
                saw("step")
            elif self.selected != before[1]:
                saw("selected" if self.selected else "deselected")
            else:
                saw("refused")

        def choose(self, kind):
            waiting = self.pending
            super().choose(kind)
            saw("choose()" if waiting else "choose() refused")

        def end_turn(self):
            chain = bool(self.model.chain)
            super().end_turn()
            saw("chain stopped" if chain else "end_turn() refused")

    exercises.check_control(Spy)
    assert set(seen) == {
        "string clicked to choose",
        "choice cancelled",
        "two-way step waits",
        "chain continued",
        "step",
        "selected",
        "deselected",
        "refused",
        "choose()",
        "choose() refused",
        "chain stopped",
        "end_turn() refused",
    }
    assert min(seen.values()) >= 3, sorted(seen.items(), key=lambda kv: kv[1])


def test_a_timeout_that_breaks_a_librarys_cleanup_is_still_named_a_timeout():
    """A stopped draw whose own cleanup raises ValueError (matplotlib's "Invalid bounding box")
    is the time limit's doing, not the student's error."""
    import time

    from fanorona.exercises.guard import Guard

    def draw_with_cleanup():
        try:
            time.sleep(5)
        finally:
            raise ValueError("Invalid bounding box")

    timed_out = pytest.raises(ExerciseFailed, match=r"^draw\(\) took longer than 0\.2 s")
    with timed_out, Guard(call_limit=0.2, check_limit=5).running("draw()"):
        draw_with_cleanup()
    with (
        pytest.raises(ValueError, match="the student's own"),
        Guard(call_limit=0.2, check_limit=5).running("draw()"),
    ):
        raise ValueError("the student's own")
