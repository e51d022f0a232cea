"""Checkers for the model a student builds: the board graph, strings, captures, steps, applying a
step, the end of the simple game, and the two extensions of the course assignment."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

from ..board import Board, Step, Turn
from ..geometry import DIRECTION_NAMES, LINE_DIRECTIONS, geometry, opposite
from ..rules import Rules
from .checking import (
    Case,
    Checker,
    Guard,
    differences,
    fmt,
    iterable,
    order,
    plain_text,
    point_set,
    repeat_hint,
    sealed_check,
    short_repr,
    wrong_shape,
)
from .credit import plainly, weigh
from .samples import NEIGHBOUR_SIZES, ended_game_fens, sample_boards

CAPTURE_KINDS = ("approach", "withdrawal")
#: The course assignment's first extension alone: compulsory capture, still one step a turn.
COMPULSORY = Rules.simple().with_(mandatory_capture=True)


def empty_board(width: int, height: int) -> Board:
    return Board.from_diagram("\n".join("." * width for _ in range(height)))


def playing(boards):
    """The boards where both sides still have stones (a finished game has no steps to ask about)."""
    return [b for b in boards if b.stones("white") and b.stones("black")]


# -- neighbours ------------------------------------------------------------------------------------


def _neighbour_cases():
    for width, height in NEIGHBOUR_SIZES:
        board = empty_board(width, height)
        for point in geometry(width, height).names:
            yield Case((width, height, point), board, dict(highlight=[point]))


def _neighbours(width, height, point):
    g = geometry(width, height)
    return Counter(g.names[q] for q in g.neighbour[g.index[point]] if q >= 0)


POINT_NAME = re.compile(r"[a-z][1-9][0-9]*")


def _neighbours_hint(case, expected, actual):
    width, height, point = case.args
    g = geometry(width, height)
    odd = sorted(
        (p for p in actual - expected if not (isinstance(p, str) and POINT_NAME.fullmatch(p))),
        key=str,
    )
    if odd:
        lower = isinstance(odd[0], str) and POINT_NAME.fullmatch(odd[0].lower())
        why = (
            f"{odd[0]!r} should be written in lower case, {odd[0].lower()!r}"
            if lower
            else f"{short_repr(odd[0])} is not a point name"
        )
        return (
            f"{differences(expected, actual)} Give each neighbour as its point name, a column"
            f" letter and a row number from 1, such as 'b2': {why}."
        )
    if point in actual:
        return (
            f"{differences(expected, actual)} A point is not its own neighbour: leave {point} out."
        )
    off = sorted((p for p in actual - expected if p not in g.index), key=order)
    if off:
        return (
            f"{differences(expected, actual)} {off[0]} is off the {width}x{height} board "
            f"(a1 to {g.names[-1]})."
        )
    if (
        len(point) > 2
        and point[:2] in g.index
        and actual == set(_neighbours(width, height, point[:2]))
    ):
        return (
            f"{differences(expected, actual)} These are the neighbours of {point[:2]}: the row"
            f" number of {point} has two digits, so read it as int(point[1:])."
        )
    col, row = g.coordinates(g.index[point])
    diagonal = {
        p
        for p in expected ^ actual
        if p in g.index
        and {abs(a - b) for a, b in zip(g.coordinates(g.index[p]), (col, row))} == {1}
    }
    if diagonal and not (actual - expected - diagonal):
        kind = "strong point" if g.strong[g.index[point]] else "weak point, without diagonals"
        return f"{differences(expected, actual)} {point} is a {kind}."
    return (
        f"{differences(expected, actual)} The neighbours are the points one step away along a line:"
        " left, right, up, down, and the diagonals of a strong point."
    )


check_neighbours = Checker(
    "neighbours",
    _neighbours,
    _neighbour_cases,
    read=point_set,
    hint=_neighbours_hint,
    show_difference=lambda case, e, a: dict(strong=True),
    what="The neighbours",
)


# -- strings ---------------------------------------------------------------------------------------


def _strings_read(answer, call: str) -> Counter[tuple]:
    """A student's strings as a multiset of point tuples, each sorted (a repeat is a mistake)."""
    if isinstance(answer, str) or not iterable(answer):
        raise wrong_shape(call, answer, "a collection of strings, each a tuple of point names")
    out: Counter[tuple] = Counter()
    for string in answer:
        if isinstance(string, str) or not iterable(string):
            raise TypeError(
                f"{call}: each string should be a tuple of point names such as ('c3', 'd3'); "
                f"got {short_repr(string)}"
            )
        out[_string(string)] += 1
    return out


def _string(points) -> tuple:
    """A string as its points in a fixed order (a point listed twice stays twice)."""
    return tuple(sorted((plain_text(p) if isinstance(p, str) else p for p in points), key=order))


def _strings_through(board, point):
    return Counter(_string(s) for s in board.strings(board.stone_at(point)) if point in s)


def _string_cases():
    for board in sample_boards():
        for point in board.points:
            if board.stone_at(point) is not None:
                yield Case((board, point), drawing=dict(highlight=[point]))


def _missing_lines(board: Board, point: str) -> list[int]:
    """The line directions (of E, NE, N, NW) along which no grid line runs through ``point``."""
    g = board.geometry
    p = g.index[point]
    return [d for d in LINE_DIRECTIONS if g.neighbour[p][d] < 0 and g.neighbour[p][opposite(d)] < 0]


def _strings_hint(case, expected, actual):
    """Why the strings through the point differ; names the trap of a lone stone on a line that
    isn't there."""
    board, point = case.args
    missing = _missing_lines(board, point)
    if (point,) not in actual - expected or not missing:
        return (
            f"{differences(expected, actual)} A string runs along one line and stops at the first "
            "point that is empty, holds the other colour or is off the board."
        )
    col, row = board.geometry.coordinates(board.geometry.index[point])
    width, height = board.size
    what = "a corner" if col in (0, width - 1) and row in (0, height - 1) else "a weak point"
    ways = " or ".join(f"{DIRECTION_NAMES[d]} to {DIRECTION_NAMES[opposite(d)]}" for d in missing)
    return (
        f"{differences(expected, actual)} No grid line runs {ways} through {point} ({what}), so no"
        " string lies that way, not even a string of one: a stone has one string per grid line"
        " through it."
    )


check_strings_through = Checker(
    "strings_through",
    _strings_through,
    _string_cases,
    read=_strings_read,
    hint=_strings_hint,
    show_difference=lambda case, e, a: dict(strings=sorted(e)),
    what="The strings",
)


# -- captures --------------------------------------------------------------------------------------


def _capture_read(answer, call: str) -> dict:
    if not isinstance(answer, dict) or set(answer) != set(CAPTURE_KINDS):
        raise wrong_shape(
            call,
            answer,
            "a dict with exactly the keys 'approach' and 'withdrawal', "
            "each a set of points (empty when none)",
        )
    for kind in CAPTURE_KINDS:
        if isinstance(answer[kind], str) or not iterable(answer[kind]):
            raise TypeError(
                f"{call} returned {short_repr(answer[kind])} for {kind!r}: give a set of points, an"
                " empty set() when the step captures nothing that way (or did a helper function"
                " forget `return`?)."
            )
    return {
        kind: Counter(plain_text(p) if isinstance(p, str) else p for p in answer[kind])
        for kind in CAPTURE_KINDS
    }


def _simple(board: Board) -> Board:
    return Board.from_fen(board.fen(), Rules.simple())


def _captures(board, origin, destination):
    table = board.__dict__.get("_exercise_captures")
    if table is None:  # worked out once per sample board (a board the student never gets)
        table = board.__dict__["_exercise_captures"] = _capture_table(board)
    return {kind: set(table.get((origin, destination, kind), ())) for kind in CAPTURE_KINDS}


def _capture_table(board) -> dict:
    """{(origin, destination, kind): points} of every capturing step under the simplified rules."""
    simple = _simple(board)
    return {
        (s.origin, s.destination, s.capture): frozenset(simple.captures(s))
        for s in simple.legal_steps()
        if s.capture
    }


def _capture_cases():
    for board in playing(sample_boards()):
        seen = set()
        for step in _simple(board).legal_steps():
            if (step.origin, step.destination) not in seen:
                seen.add((step.origin, step.destination))
                yield Case(
                    (board, step.origin, step.destination),
                    drawing=dict(highlight=[step.origin], arrows=[(step.origin, step.destination)]),
                )


def _captures_as_counts(board, origin, destination) -> dict:
    """The expected captures as multisets, so that a stone listed twice is a difference."""
    return {kind: Counter(points) for kind, points in _captures(board, origin, destination).items()}


def _captures_hint(case, expected, actual):
    for kind in CAPTURE_KINDS:
        again = repeat_hint(Counter(actual[kind]), "captured stone")
        if again:
            return f"In {kind!r}, {again[:1].lower()}{again[1:]}"
    expected = {kind: set(points) for kind, points in expected.items()}
    actual = {kind: set(points) for kind, points in actual.items()}
    if expected["approach"] != expected["withdrawal"] and actual == {
        "approach": expected["withdrawal"],
        "withdrawal": expected["approach"],
    }:
        return (
            "Approach and withdrawal are swapped: approach takes the string just beyond the"
            " destination (the stone runs into it), withdrawal the string just behind the origin"
            " (it moves away)."
        )
    _board, origin, destination = case.args
    for kind in CAPTURE_KINDS:
        if expected[kind] and not actual[kind]:
            where = (
                "just beyond the destination" if kind == "approach" else "just behind the origin"
            )
            return (
                f"{origin}-{destination} captures by {kind} as well: the opponent's string {where},"
                " along the line of the step, goes."
            )
        if actual[kind] < expected[kind]:
            return (
                f"The {kind} misses {fmt(expected[kind] - actual[kind])}: a capture takes the whole"
                " string, up to the first point that is empty, holds the mover's colour or is off"
                " the board, however long it is."
            )
    return (
        "Approach takes the unbroken run of the opponent's stones just beyond the destination, "
        "withdrawal the run just behind the origin, both along the line of the step."
    )


check_captures = Checker(
    "captures",
    _captures_as_counts,
    _capture_cases,
    read=_capture_read,
    hint=_captures_hint,
    show_difference=lambda case, e, a: dict(captures=sorted(set().union(*e.values()))),
    what="The captures",
)


def _captures_kind(_index: int, case: Case) -> str:
    taken = _captures(*case.args).values()
    if not any(taken):
        return "no capture"
    return "longer strings" if any(len(points) > 1 for points in taken) else "single stones"


#: Taking only the first stone keeps half; swapping approach and withdrawal keeps a fifth.
weigh(
    "check_captures",
    _captures_kind,
    {
        "no capture": Fraction(1, 5),
        "single stones": Fraction(3, 10),
        "longer strings": Fraction(1, 2),
    },
    check_captures,
)


# -- simple steps ----------------------------------------------------------------------------------


def _step_read(answer, call: str) -> Counter[tuple]:
    if isinstance(answer, str) or not iterable(answer):
        raise wrong_shape(
            call,
            answer,
            "a collection of (origin, destination, capture) tuples, "
            "an empty one when the side to move cannot step",
        )
    out: Counter[tuple] = Counter()
    for item in answer:
        if isinstance(item, Step):
            item = (item.origin, item.destination, item.capture)
        if not isinstance(item, (tuple, list)) or len(item) != 3:
            raise TypeError(
                f"{call}: each step should be a tuple (origin, destination, capture) such as "
                f"('d2', 'e3', 'approach'); got {short_repr(item)}"
            )
        out[tuple(plain_text(x) if isinstance(x, str) else x for x in item)] += 1
    return out


def _steps_of(board):
    return Counter((s.origin, s.destination, s.capture) for s in board.legal_steps())


def _steps_hint(case, expected, actual):
    """Why the steps differ, naming the usual slips with capturing steps before the general rule."""
    capturing = {s[:2] for s in expected if s[2]}
    quiet_too = sorted(s for s in actual - expected if s[2] is None and s[:2] in capturing)
    if quiet_too:
        return (
            f"{differences(expected, actual)} A step that captures is never also a quiet step:"
            f" under these rules a step that can capture always does, so {fmt(quiet_too[0])} is not"
            " a legal step."
        )
    ways: dict[tuple[str, str], set[str | None]] = {}
    for origin, destination, capture in expected:
        ways.setdefault((origin, destination), set()).add(capture)
    if any(
        len(ways[s[:2]]) == 2 and any(a[:2] == s[:2] for a in actual) for s in expected - actual
    ):
        return (
            f"{differences(expected, actual)} A step that can capture both ways counts once for"
            " each way, once with 'approach' and once with 'withdrawal'."
        )
    if (
        any(s[2] is None for s in actual - expected)
        and capturing
        and case.args[0].rules.mandatory_capture
    ):
        return (
            f"{differences(expected, actual)} Capture is compulsory here: while any step captures, "
            "no quiet step is allowed."
        )
    if any(s[2] is None for s in expected - actual) and not case.args[0].rules.mandatory_capture:
        return (
            f"{differences(expected, actual)} Capturing is not compulsory in the simple game: every"
            " quiet step is allowed too."
        )
    board = case.args[0]
    other = Board.from_fen(
        board.fen().rsplit(" ", 1)[0] + " " + board.to_move.other.value[0], board.rules
    )
    if actual and actual == set(_steps_of(other)):
        return (
            f"{differences(expected, actual)} These are {other.to_move}'s steps, but it is"
            f" {board.to_move}'s turn (board.to_move)."
        )
    return (
        f"{differences(expected, actual)} Every stone of the side to move may step to any empty "
        "neighbour along a line."
    )


def _wrong_steps(case, expected, actual):
    wrong = sorted(set(expected) ^ set(actual), key=str)
    return dict(highlight=sorted({s[0] for s in wrong}), arrows=[s[:2] for s in wrong])


check_simple_steps = Checker(
    "simple_steps",
    _steps_of,
    lambda: playing(sample_boards(Rules.simple())),
    read=_step_read,
    hint=_steps_hint,
    show_difference=_wrong_steps,
    what="The legal steps",
)

check_compulsory_steps = Checker(
    "compulsory_steps",
    _steps_of,
    lambda: playing(sample_boards(COMPULSORY)),
    read=_step_read,
    hint=_steps_hint,
    show_difference=_wrong_steps,
    what="The legal steps",
)

plainly(check_neighbours, check_strings_through, check_simple_steps, check_compulsory_steps)


# -- applying a step
# --------------------------------------------------------------------------------


def stones_of(board: Board) -> dict:
    """{point: "white" or "black"} for every stone on the board."""
    return {p: c.value for p in board.points if (c := board.stone_at(p)) is not None}


def _stones_read(answer, call: str) -> dict:
    if not isinstance(answer, dict):
        raise wrong_shape(
            call, answer, "a dict {point: 'white' or 'black'} of every stone after the step"
        )
    bad = [v for v in answer.values() if str(v) not in ("white", "black")]
    if bad:
        raise TypeError(
            f"{call}: each value should be 'white' or 'black' (empty points are left out); "
            f"got {short_repr(bad[0])}"
        )
    return {
        plain_text(p) if isinstance(p, str) else p: plain_text(str(v)) for p, v in answer.items()
    }


def _apply_cases():
    for board in playing(sample_boards(Rules.simple())):
        steps = board.legal_steps()
        quiet = [s for s in steps if s.capture is None][:2]
        pairs = [(s.origin, s.destination) for s in steps]
        both = [
            s for s in steps if pairs.count((s.origin, s.destination)) == 2
        ]  # first: where a swap shows
        for step in both + [s for s in steps if s.capture and s not in both] + quiet:
            yield Case(
                (board, step.origin, step.destination, step.capture),
                drawing=dict(
                    arrows=[(step.origin, step.destination)], captures=board.captures(step)
                ),
            )


def _apply_step(board, origin, destination, capture):
    return stones_of(board.after(Step(origin, destination, capture)))


def _apply_hint(case, expected, actual):
    board, origin, destination, capture = case.args
    mover = board.to_move.value
    other = {"approach": "withdrawal", "withdrawal": "approach"}.get(capture)
    if (
        other and _captures(board, origin, destination)[other]
    ):  # only then would the swap be a legal step
        moved = {
            p: c
            for p, c in {**stones_of(board), destination: mover}.items()
            if p != origin and p not in _captures(board, origin, destination)[other]
        }
        if actual == moved:
            return (
                f"You removed what a {other} would take, not the {capture} string: approach and"
                " withdrawal are swapped."
            )
    if origin in actual:
        return f"The stone must leave {origin}: the point is empty after the step."
    if actual.get(destination) != mover:
        return f"The {mover} stone should stand on {destination} after the step."
    kept = sorted(p for p in expected if p not in actual)
    if kept:
        return (
            f"{fmt(set(kept))} should still be on the board: only the chosen string goes, nothing"
            " else changes."
        )
    left = sorted((p for p in actual if p not in expected), key=str)
    taken = _captures(board, origin, destination).get(capture, set()) if capture else set()
    if taken and taken <= set(left):
        return (
            f"Nothing was captured: the {capture} takes {fmt(taken)} off the board; remove those"
            " stones and return what is left."
        )
    if left:
        return (
            f"{fmt(set(left))} should be gone: the {capture} takes the whole string, "
            "however long it is."
            if capture
            else f"{fmt(set(left))} should not be on the board."
        )
    return "Every other stone stays where it is, with its colour."


check_apply_step = Checker(
    "apply_step",
    _apply_step,
    _apply_cases,
    read=_stones_read,
    hint=_apply_hint,
    what="The stones after the step",
)


def _apply_kind(_index: int, case: Case) -> str:
    board, origin, destination, capture = case.args
    if capture is None:
        return "quiet"
    other = {"approach": "withdrawal", "withdrawal": "approach"}[capture]
    return "both ways" if _captures(board, origin, destination)[other] else "one way"


#: Removing both strings keeps half; swapping the two ways keeps the quiet steps' fifth.
weigh(
    "check_apply_step",
    _apply_kind,
    {"quiet": Fraction(1, 5), "one way": Fraction(3, 10), "both ways": Fraction(1, 2)},
    check_apply_step,
)


# -- the end of the simple game
# ---------------------------------------------------------------------

#: Where plausible ``winner`` mistakes show: the side to move stuck; the side *not* to move stuck
#: while the side to move can step; only diagonal steps left (from a strong point); stones stuck on
#: weak points next to an empty point that only a diagonal (which they lack) would reach.
BLOCKED = ("BB./WB./... w", "WW./BW./... b", ".W.../WB.../.W... b", "B.BW./WBWWW/BBBW. w")
OTHER_SIDE_STUCK = (".BB/BBW/WWB b", ".WB/WWB/WBB w")
DIAGONAL_ONLY = (".BB/BWB/BBB w", ".WB/WBB/WBB b")
WEAK_DIAGONAL = ("B.B/BBW/WBW w", "BBB/BWW/W.W b")
#: The side to move stuck while it holds more stones: it loses all the same.
STUCK_WITH_MORE = ("WWW/BBW/.BW w", "BBB/WWB/.WB b")


def _winner_cases():
    boards = sample_boards(Rules.simple()) + [
        Board.from_fen(f, Rules.simple())
        for f in ended_game_fens()
        + BLOCKED
        + OTHER_SIDE_STUCK
        + DIAGONAL_ONLY
        + WEAK_DIAGONAL
        + STUCK_WITH_MORE
    ]
    seen = set()
    for board in boards:
        if board.fen() not in seen:
            seen.add(board.fen())
            yield Case((board,))


def _winner(board):
    outcome = board.outcome()
    return None if outcome is None else outcome.winner


def _winner_read(answer, call: str):
    if answer is not None and str(answer) not in ("white", "black"):
        raise TypeError(
            f"{call} should return 'white', 'black' or None (the game goes on); got"
            f" {short_repr(answer)}"
        )
    return None if answer is None else plain_text(str(answer))


def _diagonal(step) -> bool:
    return step.origin[0] != step.destination[0] and step.origin[1:] != step.destination[1:]


def _weak_diagonal(board: Board):
    """(stone, empty point) where a stone of the side to move on a weak point has an empty point
    diagonally next to it, which it cannot reach: or None."""
    g, (width, height) = board.geometry, board.size
    for point in board.stones(board.to_move):
        i = g.index[point]
        if g.strong[i]:
            continue
        col, row = g.coordinates(i)
        for dc in (-1, 1):
            for dr in (-1, 1):
                if 0 <= col + dc < width and 0 <= row + dr < height:
                    q = g.names[(row + dr) * width + col + dc]
                    if board.stone_at(q) is None:
                        return point, q
    return None


def _winner_hint(case, expected, actual):
    (board,) = case.args
    side = board.to_move.value
    if expected is None:
        steps = board.legal_steps()
        step = steps[0]
        other = Board.from_fen(
            board.fen().rsplit(" ", 1)[0] + " " + board.to_move.other.value[0], board.rules
        )
        if other.stones(other.to_move) and not other.legal_steps():
            return (
                f"The game goes on: {side}, to move, can still step (for example"
                f" {step.origin}-{step.destination}). {other.to_move} has no step, but only the"
                " player to move loses by being stuck."
            )
        if all(_diagonal(s) for s in steps):
            return (
                f"The game goes on: {side} can still step diagonally from a strong point, for"
                f" example {step.origin}-{step.destination}."
            )
        return (
            f"The game goes on: {side} can still step, for example"
            f" {step.origin}-{step.destination}."
        )
    why = (
        "has no stones left" if not board.stones(side) else "has stones, but none of them can step"
    )
    if actual is None:
        weak = _weak_diagonal(board)
        if weak and board.stones(side):
            return (
                f"The game is over: {side}, to move, is stuck: {weak[0]} is a weak point, with no"
                f" diagonal, so it cannot step to {weak[1]}. The player who cannot move loses."
            )
        return f"The game is over: {side}, to move, {why}, and the player who cannot move loses."
    return f"The player who cannot move loses: {side} {why}, so {expected} wins."


check_winner = Checker(
    "winner", _winner, _winner_cases, read=_winner_read, hint=_winner_hint, what="The winner"
)


def _winner_kind(_index: int, case: Case) -> str:
    (board,) = case.args
    if board.outcome() is None:
        return "game goes on"
    return "stuck" if board.stones(board.to_move) else "no stones"


#: Ignoring "stuck" keeps half: the blocked positions are the exercise's point.
weigh(
    "check_winner",
    _winner_kind,
    {"game goes on": Fraction(1, 4), "no stones": Fraction(1, 4), "stuck": Fraction(1, 2)},
    check_winner,
)


# -- whole turns with both extensions
# ----------------------------------------------------------------


def _turn_of(item, call: str) -> Turn:
    """One turn of a student's answer as a ``Turn``."""
    if isinstance(item, Turn):
        return item
    if isinstance(item, str) or not iterable(item):
        raise TypeError(
            f"{call}: each turn should be a tuple of steps (origin, destination, capture), such as "
            f"(('b3', 'c3', 'withdrawal'), ('c3', 'c4', 'approach')); got {short_repr(item)}"
        )
    steps = []
    for step in item:
        if isinstance(step, Step):
            steps.append(step)
            continue
        if isinstance(step, str) or not iterable(step) or len(step) != 3:
            raise TypeError(
                f"{call}: each step of a turn should be (origin, destination, capture); got "
                f"{short_repr(step)} in {short_repr(item)}"
            )
        try:
            steps.append(Step(*(plain_text(x) if isinstance(x, str) else x for x in step)))
        except ValueError as e:
            raise TypeError(f"{call}: {e} in {short_repr(item)}") from None
    try:
        return Turn(tuple(steps))
    except ValueError as e:
        raise TypeError(f"{call}: {e} in the turn {short_repr(item)}") from None


def _turns_read(answer, call: str) -> Counter:
    """The student's turns as a multiset of turn texts such as 'b3c3Wc4A' (a repeat is a
    mistake)."""
    if isinstance(answer, str) or not iterable(answer):
        raise wrong_shape(
            call,
            answer,
            "a collection of turns, each a tuple of (origin, destination, capture) "
            "steps; an empty one when the side to move cannot move",
        )
    return Counter(str(_turn_of(item, call)) for item in answer)


def _turns_of(board):
    return Counter(str(t) for t in board.legal_turns())


def _path(text: str) -> tuple[str, ...]:
    """The points of a turn's text in order, its start first (read without the rules)."""
    return tuple(re.findall(r"[a-z]\d+", text))


def _turns_hint(case, expected, actual):
    extra, missing = actual - expected, expected - actual
    diff = differences(expected, actual)
    for text in sorted(extra):
        path = _path(text)
        if len(set(path)) < len(path):
            again = next(p for i, p in enumerate(path) if p in path[:i])
            return (
                f"{diff} In {text} the stone comes back to {again}: a chain never returns to a"
                " point it stood on this turn."
            )
    if any(t[-1] not in "AW" for t in extra) and any(t[-1] in "AW" for t in expected):
        return f"{diff} Capture is compulsory: while any turn captures, no quiet step is allowed."
    if any(any(a.startswith(m) for a in actual) for m in missing):
        return (
            f"{diff} Going on is optional: a chain may stop after every capture, and each stopping"
            " point is a turn of its own."
        )
    if missing and any(len(_path(m)) > 2 for m in missing):
        return (
            f"{diff} After a capture the same stone may capture again, in any direction (these"
            " rules have no direction rule), as long as it never returns to a point it stood on"
            " this turn."
        )
    return f"{diff} A turn is a step, or a capture followed by the same stone's further captures."


_TURN_CHECK = Checker(
    "turns",
    _turns_of,
    lambda: playing(sample_boards(Rules.danish())),
    read=_turns_read,
    hint=_turns_hint,
    what="The legal turns",
    show_difference=lambda case, e, a: dict(highlight=sorted({t[:2] for t in e ^ a})),
)

#: The perft walk: from each start, every position this many turns deep is compared.
PERFT_STARTS = (((9, 5), 3), ((5, 5), 4), ((5, 11), 3))


def check_turns(fn) -> int:
    """Check ``fn(board) -> collection of turns`` under ``fa.Rules.danish()`` (compulsory capture,
    chains that never return to a point, no direction rule, stopping allowed): first on the sample
    positions, then on every position of the game tree from the start a few turns deep, as perft
    counts it with your turns.  Each turn is a tuple of (origin, destination, capture) steps.

    Partial credit: none; the first difference ends the check."""

    def run(guard: Guard) -> int:
        n = _TURN_CHECK.run(fn, guard)
        for size, depth in PERFT_STARTS:
            start = Board(size, Rules.danish())
            leaves, nodes = _perft_walk(fn, guard, start, depth)
            n += nodes
            print(
                f"perft({size[0]}x{size[1]} start, {depth}) = {leaves:,} with your turns, as with"
                " the package's."
            )
        return n

    return sealed_check(run)


def _perft_walk(fn, guard: Guard, board: Board, depth: int) -> tuple[int, int]:
    """(leaves, positions compared) of the game tree ``depth`` turns deep, walked with the student's
    turns and compared with the package's at every position before a leaf; stops at the first
    that differs."""
    expected = _turns_of(board)
    case = Case((board,))
    actual = _TURN_CHECK.answer(fn, case, guard)
    if actual != expected:
        print(
            "The first position that differs, reached from the start by "
            f"{' '.join(str(t) for t in board.turns) or 'no turn'}:"
        )
        _TURN_CHECK.judge(case, expected, actual)
    if depth == 1:
        return sum(actual.values()), 1
    leaves, nodes = 0, 1
    for text in actual.elements():
        board.push(text)
        found = _perft_walk(fn, guard, board, depth - 1)
        board.pop()
        leaves, nodes = leaves + found[0], nodes + found[1]
    return leaves, nodes
