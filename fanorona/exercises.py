"""Checkers for the functions students write in the notebooks, and the student copies.

Each ``check_...`` function runs a student's function on many positions (the start positions,
the teaching positions and positions from seeded random games on several board sizes) and
compares every answer with the rules package.  At the first difference it shows the position
with the input ringed, prints the input, the expected and the actual answer, and raises
``AssertionError``; when all agree it prints ``All N cases agree.`` and returns N.  Inputs are
printed as code that can be pasted into a notebook cell that imported ``fanorona as fa``; an
unfinished exercise (still the stub) gets one sentence instead of a traceback.

``python -m fanorona.exercises SRC_DIR OUT_DIR`` writes student copies of the notebooks: every
code region between the lines ``### BEGIN SOLUTION`` and ``### END SOLUTION`` becomes
``raise NotImplementedError()`` and all outputs are cleared.
"""
from __future__ import annotations

import argparse
import copy
import random
from functools import lru_cache, wraps
from pathlib import Path

from . import positions
from .board import Board, Step
from .geometry import DIRECTION_NAMES, LINE_DIRECTIONS, geometry, opposite
from .rules import Rules

#: Board sizes the neighbour checker walks through, small and large, wide and tall.
NEIGHBOUR_SIZES = ((3, 3), (5, 3), (3, 5), (5, 5), (7, 3), (9, 5), (11, 7))
#: Board sizes of the seeded random games that supply positions, and the games per size.
GAME_SIZES = ((3, 3), (5, 3), (5, 5), (7, 5), (9, 5))
GAMES_PER_SIZE = 2
MAX_TURNS = 24
CAPTURE_KINDS = ("approach", "withdrawal")

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
STUB = "raise NotImplementedError()"
UNFINISHED = "Write the function first: it still raises NotImplementedError."


# -- positions to test on -------------------------------------------------------------------------

def _random_game_fens(size, seed: int) -> list[str]:
    """The positions of one random game under the standard rules, one per completed turn."""
    rng = random.Random(seed)
    board = Board(size)
    fens = []
    for _ in range(MAX_TURNS):
        turns = board.legal_turns()
        if not turns:
            break
        board.push(rng.choice(turns))
        fens.append(board.fen())
    return fens


@lru_cache(maxsize=None)
def _sample_fens() -> tuple[tuple[str, str], ...]:
    """(position text, rules preset) of every sample position, without repeats, in a fixed order."""
    found = {}
    for name in positions.names():
        board = positions.load(name)
        found.setdefault(board.fen(), positions.POSITIONS[name].rules)
    for n, size in enumerate(GAME_SIZES):
        for game in range(GAMES_PER_SIZE):
            for fen in _random_game_fens(size, seed=1000 * n + game):
                found.setdefault(fen, "standard")
    return tuple(found.items())


def sample_boards(rules: Rules | None = None) -> list[Board]:
    """Fresh boards of every sample position (with ``rules`` if given, else each one's own)."""
    return [Board.from_fen(fen, rules if rules is not None else Rules.named(preset))
            for fen, preset in _sample_fens()]


# -- showing a difference ------------------------------------------------------------------------

def _in_notebook() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def _show(board: Board, title: str, **drawing) -> None:
    """Draw the board in a notebook, or print it as text elsewhere."""
    if not _in_notebook():
        print(title)
        print(board)
        return
    from IPython.display import Image, display
    from .draw import board_png
    display(Image(board_png(board, title=title, **drawing)))


def _order(value):
    """Sort point names by column then row number (so a9 comes before a10), anything else as text."""
    if isinstance(value, str) and value[1:].isdigit():
        return (value[0], int(value[1:]))
    return (str(value), 0)


def _fmt(value) -> str:
    """A stable, readable text for the sets, dicts and tuples in answers; a string of stones (a
    frozenset) shows as a tuple of its points."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_fmt(v)}" for k, v in value.items()) + "}"
    if isinstance(value, frozenset):
        return _fmt(tuple(sorted(value, key=_order)))
    if isinstance(value, set):
        items = [_fmt(v) for v in sorted(value, key=_order)]
        return "{" + ", ".join(items) + "}" if items else "set()"
    if isinstance(value, tuple):
        return "(" + ", ".join(_fmt(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def _fail(board: Board, what: str, call: str, expected, actual, hint: str = "", caption: str = "", **drawing):
    """Show the case that differs, then stop with one paragraph that says what went wrong."""
    _show(board, f"{what}: {_short(call, board)}{caption}", **drawing)
    print(f"Input:       {call}")
    print(f"Expected:    {_fmt(expected)}")
    print(f"Your answer: {_fmt(actual)}")
    raise AssertionError(f"{what} for {call} differ from the rules: the rules give {_fmt(expected)}, "
                         f"but your function returned {_fmt(actual)}. {hint}".strip())


class _Unfinished(Exception):
    """The student's function still raises NotImplementedError, as the stub of a student copy does."""


def _checker(check):
    """Let a checker answer an unfinished exercise with one sentence, not a traceback of its insides."""
    @wraps(check)
    def run(fn):
        try:
            return check(fn)
        except _Unfinished:
            raise AssertionError(UNFINISHED) from None
    return run


def _board_code(board: Board) -> str:
    """Code that rebuilds ``board`` in a notebook cell that imported ``fanorona as fa``."""
    preset = board.rules.name()
    rules = "" if preset == "standard" else f", fa.Rules.{preset}()" if preset else f", fa.{board.rules!r}"
    return f"fa.Board.from_fen({board.fen()!r}{rules})"


def _short(call: str, board: Board) -> str:
    """The call with the board written as ``board``, short enough for a picture's title."""
    return call.replace(_board_code(board), "board")


def _answer(fn, board: Board, call: str, args: tuple, read, **drawing):
    """The student's answer to one input, read by ``read(answer, call)``.  If the function raises
    or its answer has the wrong shape, show the input first, then let the error through."""
    try:
        return read(fn(*args), call)
    except NotImplementedError:
        raise _Unfinished() from None
    except Exception:
        _show(board, f"your function went wrong on {_short(call, board)}", **drawing)
        print(f"Input: {call}")
        raise


def _agree(n: int) -> int:
    print(f"All {n} cases agree.")
    return n


def _wrong_shape(call: str, answer, wanted: str) -> TypeError:
    """A TypeError that names the input; a None answer most often means a missing ``return``."""
    if answer is None:
        return TypeError(f"{call} returned None: did you forget `return`? It should return {wanted}.")
    return TypeError(f"{call} should return {wanted}; got {answer!r}")


def _names(answer, call: str) -> set:
    """A student's collection of point names as a set, refusing a lone string."""
    if isinstance(answer, str) or not _iterable(answer):
        raise _wrong_shape(call, answer, "a collection of point names such as {'a2', 'b1'}")
    return set(answer)


def _iterable(value) -> bool:
    try:
        iter(value)
    except TypeError:
        return False
    return True


def _empty_board(width: int, height: int) -> Board:
    return Board.from_diagram("\n".join("." * width for _ in range(height)))


def _differences(expected: set, actual: set) -> str:
    missing, extra = expected - actual, actual - expected
    parts = ([f"missing {_fmt(missing)}"] if missing else []) + ([f"extra {_fmt(extra)}"] if extra else [])
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


# -- the checkers ----------------------------------------------------------------------------------

@_checker
def check_neighbours(fn) -> int:
    """Check ``fn(width, height, point) -> collection of point names``: the points joined to
    ``point`` by a line on an empty board of that size (orthogonal always, diagonal from strong
    points only).  Tried on every point of several board sizes; order does not matter."""
    n = 0
    for width, height in NEIGHBOUR_SIZES:
        g = geometry(width, height)
        board = _empty_board(width, height)
        for p, point in enumerate(g.names):
            call = f"neighbours({width}, {height}, {point!r})"
            expected = {g.names[q] for q in g.neighbour[p] if q >= 0}
            actual = _answer(fn, board, call, (width, height, point), _names, highlight=[point])
            n += 1
            if actual != expected:
                kind = "strong point" if g.strong[p] else "weak point, without diagonals"
                _fail(board, "The neighbours", call, expected, actual,
                      f"{_differences(expected, actual)} {point} is a {kind}.",
                      highlight=[point], strong=True)
    return _agree(n)


def _strings(answer, call: str) -> set:
    """A student's strings as a set of frozensets of point names."""
    if isinstance(answer, str) or not _iterable(answer):
        raise _wrong_shape(call, answer, "a collection of strings, each a tuple of point names")
    out = set()
    for string in answer:
        if isinstance(string, str) or not _iterable(string):
            raise TypeError(f"{call}: each string should be a tuple of point names such as ('c3', 'd3'); "
                            f"got {string!r}")
        out.add(frozenset(string))
    return out


def _missing_lines(board: Board, point: str) -> list[int]:
    """The line directions (of E, NE, N, NW) along which no grid line runs through ``point``."""
    g = board.geometry
    p = g.index[point]
    return [d for d in LINE_DIRECTIONS if g.neighbour[p][d] < 0 and g.neighbour[p][opposite(d)] < 0]


def _strings_hint(board: Board, point: str, expected: set, actual: set) -> str:
    """Why the strings through ``point`` differ; names the trap of a lone stone on a line that isn't there."""
    missing = _missing_lines(board, point)
    if frozenset([point]) not in actual - expected or not missing:
        return (f"{_differences(expected, actual)} A string runs along one line and stops at the first "
                f"point that is empty or holds the other colour.")
    col, row = board.geometry.coordinates(board.geometry.index[point])
    width, height = board.size
    what = "a corner" if col in (0, width - 1) and row in (0, height - 1) else "a weak point"
    ways = " or ".join(f"{DIRECTION_NAMES[d]} to {DIRECTION_NAMES[opposite(d)]}" for d in missing)
    return (f"{_differences(expected, actual)} No grid line runs {ways} through {point} ({what}), so no "
            f"string lies that way, not even a string of one: a stone has one string per grid line through it.")


@_checker
def check_strings_through(fn) -> int:
    """Check ``fn(board, point) -> collection of strings``: every string of the stone's colour that
    contains ``point``, each a tuple of point names along one grid line (either order).

    A string is a maximal unbroken run of one colour along one line, so a stone alone on a line
    is a string of one there.  Answers are compared as sets of frozensets."""
    n = 0
    for board in sample_boards():
        by_color = {color: board.strings(color) for color in ("white", "black")}
        for point in board.points:
            color = board.stone_at(point)
            if color is None:
                continue
            call = f"strings_through({_board_code(board)}, {point!r})"
            expected = {frozenset(s) for s in by_color[color.value] if point in s}
            actual = _answer(fn, board, call, (board.copy(), point), _strings, highlight=[point])
            n += 1
            if actual != expected:
                _fail(board, "The strings", call, expected, actual, _strings_hint(board, point, expected, actual),
                      highlight=[point], strings=[tuple(s) for s in by_color[color.value] if point in s])
    return _agree(n)


def _capture_answer(answer, call: str) -> dict:
    if not isinstance(answer, dict) or set(answer) != set(CAPTURE_KINDS):
        raise _wrong_shape(call, answer, "a dict with exactly the keys 'approach' and 'withdrawal', "
                                         "each a set of points (empty when none)")
    for kind in CAPTURE_KINDS:
        if isinstance(answer[kind], str) or not _iterable(answer[kind]):
            raise TypeError(f"{call} returned {answer[kind]!r} for {kind!r}: give a set of points, an empty "
                            f"set() when the step captures nothing that way (or did a helper function forget "
                            f"`return`?).")
    return {kind: set(answer[kind]) for kind in CAPTURE_KINDS}


def _steps_by_move(board: Board) -> dict:
    """{(origin, destination): {kind: captured points}} for every step under the simple rules."""
    simple = Board.from_fen(board.fen(), Rules.simple())
    moves: dict = {}
    for step in simple.legal_steps():
        kinds = moves.setdefault((step.origin, step.destination), {k: set() for k in CAPTURE_KINDS})
        if step.capture:
            kinds[step.capture] = set(simple.captures(step))
    return moves


@_checker
def check_captures(fn) -> int:
    """Check ``fn(board, origin, destination) -> {"approach": set, "withdrawal": set}``: the points a
    step of the side to move from ``origin`` to the adjacent empty ``destination`` would capture by
    each way (empty sets when it does not capture that way).  Tried on every such step."""
    n = 0
    for board in sample_boards():
        if board.outcome() is not None:
            continue
        for (origin, destination), expected in _steps_by_move(board).items():
            call = f"captures({_board_code(board)}, {origin!r}, {destination!r})"
            drawing = dict(highlight=[origin], arrows=[(origin, destination)])
            actual = _answer(fn, board, call, (board.copy(), origin, destination), _capture_answer, **drawing)
            n += 1
            if actual != expected:
                _fail(board, "The captures", call, expected, actual,
                      "Approach takes the unbroken run of the opponent's stones just beyond the destination, "
                      "withdrawal the run just behind the origin, both along the line of the step.",
                      caption="\n(the rules capture the crossed stones)",
                      captures=sorted(set().union(*expected.values())), **drawing)
    return _agree(n)


def _step_tuples(answer, call: str) -> set:
    if isinstance(answer, str) or not _iterable(answer):
        raise _wrong_shape(call, answer, "a collection of (origin, destination, capture) tuples, "
                                         "an empty one when the side to move cannot step")
    out = set()
    for item in answer:
        if isinstance(item, Step):
            item = (item.origin, item.destination, item.capture)
        if not isinstance(item, (tuple, list)) or len(item) != 3:
            raise TypeError(f"{call}: each step should be a tuple (origin, destination, capture) such as "
                            f"('d2', 'e3', 'approach'); got {item!r}")
        out.add(tuple(item))
    return out


def _steps_hint(expected: set, actual: set) -> str:
    """Why the steps differ, naming the two usual slips with capturing steps before the general rule."""
    capturing = {s[:2] for s in expected if s[2]}
    quiet_too = sorted(s for s in actual - expected if s[2] is None and s[:2] in capturing)
    if quiet_too:
        return (f"{_differences(expected, actual)} A step that captures is never also a quiet step: under these "
                f"rules a step that can capture always does, so {_fmt(quiet_too[0])} is not a legal step.")
    ways = {}
    for origin, destination, capture in expected:
        ways.setdefault((origin, destination), set()).add(capture)
    if any(len(ways[s[:2]]) == 2 for s in expected - actual):
        return (f"{_differences(expected, actual)} A step that can capture both ways counts once for each way, "
                f"once with 'approach' and once with 'withdrawal'.")
    return (f"{_differences(expected, actual)} Every stone of the side to move may step to any empty "
            f"neighbour along a line.")


@_checker
def check_simple_steps(fn) -> int:
    """Check ``fn(board) -> collection of (origin, destination, capture)`` tuples: every legal step
    under ``Rules.simple()`` (one step a turn, capture not compulsory), with capture None,
    "approach" or "withdrawal"; a step that captures both ways appears twice.  Tried on every
    sample position where both sides still have stones."""
    n = 0
    for board in sample_boards(Rules.simple()):
        if not (board.stones("white") and board.stones("black")):
            continue
        call = f"simple_steps({_board_code(board)})"
        expected = {(s.origin, s.destination, s.capture) for s in board.legal_steps()}
        actual = _answer(fn, board, call, (board.copy(),), _step_tuples)
        n += 1
        if actual != expected:
            wrong = sorted(expected ^ actual, key=str)
            _fail(board, "The legal steps", call, expected, actual, _steps_hint(expected, actual),
                  highlight=sorted({s[0] for s in wrong}), arrows=[s[:2] for s in wrong])
    return _agree(n)


# -- student copies ------------------------------------------------------------------------------

class SolutionMarkerError(ValueError):
    """A ``### BEGIN SOLUTION`` without its ``### END SOLUTION``, or the other way round."""


def strip_solutions(source: str, where: str = "the cell") -> str:
    """The cell source with each solution region replaced by ``raise NotImplementedError()``,
    indented like its BEGIN line."""
    out, begin = [], None
    for n, line in enumerate(source.splitlines(), 1):
        marker = line.strip()
        if marker == BEGIN:
            if begin is not None:
                raise SolutionMarkerError(f"{where}, line {n}: a second {BEGIN} before the {END} of line {begin}")
            begin = n
            out.append(line[:len(line) - len(line.lstrip())] + STUB)
        elif marker == END:
            if begin is None:
                raise SolutionMarkerError(f"{where}, line {n}: {END} without a {BEGIN} before it")
            begin = None
        elif begin is None:
            out.append(line)
    if begin is not None:
        raise SolutionMarkerError(f"{where}, line {begin}: {BEGIN} without an {END} after it")
    return "\n".join(out)


def student_notebook(notebook, name: str = "the notebook"):
    """A copy of an nbformat notebook without solutions or outputs."""
    nb = copy.deepcopy(notebook)
    for number, cell in enumerate(nb.cells, 1):
        if cell.cell_type != "code":
            continue
        cell.source = strip_solutions(cell.source, f"{name}, cell {number}")
        cell.outputs = []
        cell.execution_count = None
    return nb


def make_student_copies(src_dir, out_dir) -> list[Path]:
    """Write a student copy of every notebook in ``src_dir`` to ``out_dir``; return their paths."""
    src, out = Path(src_dir), Path(out_dir)
    notebooks = sorted(src.glob("*.ipynb"))
    if not notebooks:
        raise FileNotFoundError(f"no notebooks (*.ipynb) in {src}")
    import nbformat   # slow to import; only needed here
    copies = [(path, student_notebook(nbformat.read(path, as_version=4), path.name)) for path in notebooks]
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for path, nb in copies:
        target = out / path.name
        nbformat.write(nb, target)
        written.append(target)
    return written


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m fanorona.exercises",
                                     description="Write student copies of the notebooks, without solutions.")
    parser.add_argument("src_dir", help="folder with the teacher's notebooks")
    parser.add_argument("out_dir", help="folder for the student copies (created if missing)")
    args = parser.parse_args(argv)
    try:
        written = make_student_copies(args.src_dir, args.out_dir)
    except (SolutionMarkerError, FileNotFoundError) as e:
        parser.exit(1, f"error: {e}\n")
    print(f"Wrote {len(written)} student notebooks to {args.out_dir}")


__all__ = ["check_captures", "check_neighbours", "check_simple_steps", "check_strings_through",
           "make_student_copies", "sample_boards", "strip_solutions", "student_notebook", "SolutionMarkerError"]

if __name__ == "__main__":
    main()
