"""The checkers accept a correct student solution, reject plausible wrong ones, and the student
copies of notebooks lose their solutions but stay valid notebooks."""
import re
import subprocess
import sys
import traceback

import nbformat
import pytest

import fanorona as fa
from fanorona import exercises
from fanorona.exercises import SolutionMarkerError, make_student_copies, strip_solutions

# -- plain solutions, written the way a student would: from coordinates, not from the package ----

LINES = ((1, 0), (0, 1), (1, 1), (1, -1))   # one direction per kind of grid line


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
    return {name(col + dc, row + dr) for dc, dr in directions(col, row)
            if on_board((width, height), col + dc, row + dr)}


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
        if not (on_board(board.size, col + dc, row + dr) or on_board(board.size, col - dc, row - dr)):
            continue   # no grid line runs this way through a corner
        back = run(board, col, row, -dc, -dr, color)
        found.append(tuple(reversed(back)) + tuple(run(board, col + dc, row + dr, dc, dr, color)))
    return found


def captures(board, origin, destination):
    (c0, r0), (c1, r1) = parse(origin), parse(destination)
    dc, dr = c1 - c0, r1 - r0
    other = board.to_move.other
    return {"approach": set(run(board, c1 + dc, r1 + dr, dc, dr, other)),
            "withdrawal": set(run(board, c0 - dc, r0 - dr, -dc, -dr, other))}


def simple_steps(board):
    steps = []
    for origin in board.stones(board.to_move):
        for destination in neighbours(*board.size, origin):
            if board.stone_at(destination) is not None:
                continue
            caught = captures(board, origin, destination)
            kinds = [kind for kind in ("approach", "withdrawal") if caught[kind]]
            steps += [(origin, destination, kind) for kind in kinds] or [(origin, destination, None)]
    return steps


# -- plausible mistakes ----------------------------------------------------------------------------

def neighbours_with_diagonals_everywhere(width, height, point):
    col, row = parse(point)
    return {name(col + dc, row + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)
            if (dc, dr) != (0, 0) and on_board((width, height), col + dc, row + dr)}


def strings_of_at_most_next_neighbours(board, point):
    """Looks one point each way only, so long strings come out cut short."""
    col, row = parse(point)
    color = board.stone_at(point)
    found = []
    for dc, dr in LINES:
        if not is_strong(col, row) and dc and dr:
            continue
        if not (on_board(board.size, col + dc, row + dr) or on_board(board.size, col - dc, row - dr)):
            continue
        found.append(tuple(run(board, col, row, -dc, -dr, color)[:2]) + tuple(run(board, col + dc, row + dr,
                                                                                  dc, dr, color)[:1]))
    return found


def strings_through_forgetting_corners(board, point):
    """Follows every line direction of the point, even the one that runs off the board both ways at a
    corner, and so finds an extra string of one there."""
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


# -- the checkers ----------------------------------------------------------------------------------

@pytest.mark.parametrize("checker, solution", [
    (exercises.check_neighbours, neighbours),
    (exercises.check_strings_through, strings_through),
    (exercises.check_captures, captures),
    (exercises.check_simple_steps, simple_steps),
])
def test_each_checker_accepts_a_correct_solution_and_reports_the_count(checker, solution, capsys):
    n = checker(solution)
    assert n >= 150
    assert capsys.readouterr().out == f"All {n} cases agree.\n"


@pytest.mark.parametrize("checker, mistake, words", [
    (exercises.check_neighbours, neighbours_with_diagonals_everywhere, "weak point"),
    (exercises.check_strings_through, strings_of_at_most_next_neighbours, "Missing"),
    (exercises.check_captures, captures_jumping_gaps, "approach"),
    (exercises.check_captures, captures_without_withdrawal, "withdrawal"),
    (exercises.check_simple_steps, simple_steps_choosing_approach, "both ways"),
    (exercises.check_strings_through, strings_through_forgetting_corners,
     "No grid line runs north-west to south-east through a1 (a corner)"),
    (exercises.check_simple_steps, simple_steps_listing_captures_as_quiet_too,
     "A step that captures is never also a quiet step"),
])
def test_each_checker_rejects_a_plausible_mistake_showing_input_expected_and_actual(checker, mistake, words, capsys):
    with pytest.raises(AssertionError) as info:
        checker(mistake)
    message = str(info.value)
    assert words in message and "\n" not in message
    out = capsys.readouterr().out
    assert "Input:" in out and "Expected:" in out and "Your answer:" in out
    assert " a b c" in out   # the position, drawn as text outside a notebook
    call = out.split("Input:")[1].splitlines()[0].strip()
    assert call in message


def test_the_quiet_step_slip_is_not_blamed_on_both_ways_captures():
    with pytest.raises(AssertionError) as info:
        exercises.check_simple_steps(simple_steps_listing_captures_as_quiet_too)
    assert "both ways" not in str(info.value)
    assert re.search(r"so \('\w\d+', '\w\d+', None\) is not a legal step\.$", str(info.value))


def test_the_corner_hint_is_kept_for_a_lone_stone_on_a_line_that_is_not_there():
    def only_long_strings(board, point):
        return [s for s in strings_through(board, point) if len(s) > 1]
    with pytest.raises(AssertionError) as info:
        exercises.check_strings_through(only_long_strings)
    assert "No grid line runs" not in str(info.value)


@pytest.mark.parametrize("checker, mistake, right, same", [
    (exercises.check_strings_through, strings_through_forgetting_corners, strings_through,
     lambda answer: set(map(frozenset, answer))),
    (exercises.check_captures, captures_without_withdrawal, captures, lambda answer: answer),
    (exercises.check_simple_steps, simple_steps_listing_captures_as_quiet_too, simple_steps, set),
])
def test_the_printed_input_pastes_into_a_notebook_and_shows_the_mistake(checker, mistake, right, same, capsys):
    with pytest.raises(AssertionError):
        checker(mistake)
    call = capsys.readouterr().out.split("Input:")[1].splitlines()[0].strip()
    assert call.startswith(f"{right.__name__}(fa.Board.from_fen(")
    args = eval(call, {"fa": fa, right.__name__: lambda *args: args})
    assert args[0].fen() in {board.fen() for board in exercises.sample_boards()}
    assert same(mistake(*args)) != same(right(*args))


def test_the_simple_steps_input_names_the_simple_rules(capsys):
    with pytest.raises(AssertionError):
        exercises.check_simple_steps(simple_steps_choosing_approach)
    call = capsys.readouterr().out.split("Input:")[1].splitlines()[0].strip()
    assert re.fullmatch(r"simple_steps\(fa\.Board\.from_fen\('[WB./]+ [wb]', fa\.Rules\.simple\(\)\)\)", call)


def test_the_strings_checker_counts_a_lone_stone_as_a_string_of_one():
    def only_long_strings(board, point):
        return [s for s in strings_through(board, point) if len(s) > 1]
    with pytest.raises(AssertionError, match=r"Missing \{\('\w\d+',\)\}"):
        exercises.check_strings_through(only_long_strings)


def test_the_neighbour_checker_names_the_first_failing_point():
    def off_by_one_on_the_top_row(width, height, point):
        return neighbours(width, height, point) | ({"a1"} if parse(point)[1] == height - 1 else set())
    with pytest.raises(AssertionError, match=r"neighbours\(3, 3, 'a3'\)"):
        exercises.check_neighbours(off_by_one_on_the_top_row)


def test_answers_of_the_wrong_shape_get_a_sentence():
    with pytest.raises(TypeError, match="collection of point names"):
        exercises.check_neighbours(lambda w, h, p: "a2")
    with pytest.raises(TypeError, match="keys 'approach' and 'withdrawal'"):
        exercises.check_captures(lambda b, o, d: {"approach": set()})
    with pytest.raises(TypeError, match=r"tuple \(origin, destination, capture\)"):
        exercises.check_simple_steps(lambda b: [("a1", "b2")])


def test_a_forgotten_return_is_named_with_the_input(capsys):
    def no_return(width, height, point):
        neighbours(width, height, point)
    with pytest.raises(TypeError, match=re.escape("neighbours(3, 3, 'a1') returned None: did you forget `return`?")):
        exercises.check_neighbours(no_return)
    assert "Input: neighbours(3, 3, 'a1')" in capsys.readouterr().out


def test_none_instead_of_an_empty_answer_is_named_with_the_input():
    with pytest.raises(TypeError, match=r"^simple_steps\(fa\.Board\.from_fen\('.*'\, fa\.Rules\.simple\(\)\)\) "
                                        r"returned None: did you forget `return`\?"):
        exercises.check_simple_steps(lambda board: simple_steps(board) or None)

    def none_for_no_capture(board, origin, destination):
        return {kind: found or None for kind, found in captures(board, origin, destination).items()}
    with pytest.raises(TypeError, match=r"^captures\(fa\.Board\.from_fen\('.*'\), '\w\d+', '\w\d+'\) returned "
                                        r"None for '(approach|withdrawal)': give a set of points, an empty set\(\) .*"
                                        r"did a helper function forget `return`\?"):
        exercises.check_captures(none_for_no_capture)


def test_an_unfinished_exercise_gets_one_sentence_and_no_traceback_of_the_checker():
    def unfinished(width, height, point):
        raise NotImplementedError()
    with pytest.raises(AssertionError) as info:
        exercises.check_neighbours(unfinished)
    assert str(info.value) == "Write the function first: it still raises NotImplementedError."
    assert info.value.__suppress_context__
    frames = traceback.extract_tb(info.tb)
    assert [frame.name for frame in frames[1:]] == ["run"]   # the test itself, then the checker's one line


@pytest.mark.parametrize("checker", [exercises.check_strings_through, exercises.check_captures,
                                     exercises.check_simple_steps])
def test_every_checker_says_an_exercise_is_unfinished(checker):
    def stub(*args):
        raise NotImplementedError()
    with pytest.raises(AssertionError, match="Write the function first"):
        checker(stub)


def test_an_error_in_the_students_function_shows_the_input_and_is_not_hidden(capsys):
    with pytest.raises(KeyError):
        exercises.check_strings_through(lambda board, point: {}["x"])
    assert "Input: strings_through(fa.Board.from_fen(" in capsys.readouterr().out


def test_a_student_function_that_changes_the_board_cannot_spoil_later_cases():
    def destructive(board, origin, destination):
        answer = captures(board, origin, destination)
        board.push(board.legal_turns()[0])
        return answer
    assert exercises.check_captures(destructive) > 0


def test_sample_positions_cover_several_sizes_and_both_sides_to_move():
    boards = exercises.sample_boards()
    assert {b.size for b in boards} >= {(3, 3), (5, 3), (5, 5), (7, 5), (9, 5)}
    assert {b.to_move for b in boards} == {"white", "black"}
    assert len({b.fen() for b in boards}) == len(boards)
    assert all(b.rules == fa.Rules.simple() for b in exercises.sample_boards(fa.Rules.simple()))


# -- student copies ------------------------------------------------------------------------------

SOLVED = """def neighbours(width, height, point):
    \"\"\"The points joined to point.\"\"\"
    ### BEGIN SOLUTION
    col, row = parse(point)
    return set()
    ### END SOLUTION"""


def test_strip_solutions_keeps_the_indentation_and_the_code_around():
    assert strip_solutions(SOLVED) == ('def neighbours(width, height, point):\n'
                                       '    """The points joined to point."""\n'
                                       '    raise NotImplementedError()')
    assert strip_solutions("x = 1\n### BEGIN SOLUTION\ny = 2\n### END SOLUTION\nprint(x)") == \
        "x = 1\nraise NotImplementedError()\nprint(x)"
    assert strip_solutions("no markers here") == "no markers here"


@pytest.mark.parametrize("source, words", [
    ("### BEGIN SOLUTION\nx = 1", "line 1: ### BEGIN SOLUTION without an ### END SOLUTION"),
    ("x = 1\n### END SOLUTION", "line 2: ### END SOLUTION without a ### BEGIN SOLUTION"),
    ("### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION", "line 2: a second"),
])
def test_unmatched_markers_are_refused_with_the_line(source, words):
    with pytest.raises(SolutionMarkerError, match=words):
        strip_solutions(source, "nb.ipynb, cell 3")


def notebook_with(*sources, outputs=True):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Title")]
    for source in sources:
        cell = nbformat.v4.new_code_cell(source)
        if outputs:
            cell.outputs = [nbformat.v4.new_output("stream", text="old output\n")]
            cell.execution_count = 7
        nb.cells.append(cell)
    return nb


def test_student_copies_lose_solutions_and_outputs_and_stay_valid(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    nbformat.write(notebook_with("import fanorona as fa", SOLVED), src / "01_a.ipynb")
    nbformat.write(notebook_with("print(2)"), src / "02_b.ipynb")
    written = make_student_copies(src, tmp_path / "out")
    assert [p.name for p in written] == ["01_a.ipynb", "02_b.ipynb"]
    copy = nbformat.read(written[0], as_version=4)
    nbformat.validate(copy)
    code = [c for c in copy.cells if c.cell_type == "code"]
    assert "BEGIN SOLUTION" not in copy.cells[2].source and "raise NotImplementedError()" in code[1].source
    assert all(c.outputs == [] and c.execution_count is None for c in code)
    assert copy.cells[0].source == "# Title"
    # The teacher's notebook is untouched.
    assert "### BEGIN SOLUTION" in nbformat.read(src / "01_a.ipynb", as_version=4).cells[2].source


def test_an_unmatched_marker_names_the_notebook_and_cell_and_writes_nothing(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    nbformat.write(notebook_with("x = 1", "y = 2\n### BEGIN SOLUTION\nz = 3"), src / "03_c.ipynb")
    with pytest.raises(SolutionMarkerError, match=r"03_c\.ipynb, cell 3, line 2"):
        make_student_copies(src, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_command_line_writes_the_copies_and_reports_errors(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    nbformat.write(notebook_with(SOLVED), src / "01_a.ipynb")
    done = subprocess.run([sys.executable, "-m", "fanorona.exercises", str(src), str(tmp_path / "out")],
                          capture_output=True, text=True, check=True)
    assert done.stdout.startswith("Wrote 1 student notebooks to ")
    assert (tmp_path / "out" / "01_a.ipynb").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    failed = subprocess.run([sys.executable, "-m", "fanorona.exercises", str(empty), str(tmp_path / "x")],
                            capture_output=True, text=True)
    assert failed.returncode == 1 and "no notebooks" in failed.stderr
