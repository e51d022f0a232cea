"""The exercise, not the kit, gets the points: graded code that answers an exercise with the kit's
own engine scores 0 with a sentence naming what it used, whether it reaches it directly, through a
helper in another cell, by a base class, by patching, or by a name computed at run time; the
notebooks' own answers use none of it."""

import nbformat
import pytest
from test_clickable_browser import reference_program
from test_grading import NOTEBOOKS, graded
from test_student_copies import answer

from fanorona.exercises import ExerciseFailed, check_tournament_player
from fanorona.exercises.own_work import REFUSED, kit_use
from fanorona.grading.grade import check_call, file_call

N01, N02 = "01_board_graph.ipynb", "02_strings.ipynb"
N10, N10B, N11 = (
    "10_assignment_view_and_control.ipynb",
    "10b_assignment_extensions.ipynb",
    "11_tournament.ipynb",
)
IMPORTS_01 = "import fanorona as fa\nfrom fanorona.geometry import geometry\n"

#: route: (notebook, check, points, the student's cells, a word the sentence must hold).
ROUTES = {
    "neighbours from geometry's own graph": (
        N01,
        "check_neighbours",
        2,
        [
            IMPORTS_01,
            "def neighbours(width, height, point):\n"
            "    g = geometry(width, height)\n"
            "    return {g.names[q] for q in g.neighbour[g.index[point]] if q >= 0}\n",
        ],
        ".neighbour",
    ),
    "neighbours through a helper in another cell": (
        N01,
        "check_neighbours",
        2,
        [
            IMPORTS_01,
            "def around(width, height, point):\n"
            "    board = fa.Board((width, height))\n"
            "    g = board.geometry\n"
            "    return {g.names[q] for q in g.neighbour[g.index[point]] if q >= 0}\n",
            "def neighbours(width, height, point):\n    return around(width, height, point)\n",
        ],
        "Your code (around) uses .geometry",
    ),
    "strings from the board's own strings": (
        N02,
        "check_strings_through",
        3,
        [
            "def strings_through(board, point):\n"
            "    return [s for s in board.strings(board.stone_at(point)) if point in s]\n"
        ],
        ".strings",
    ),
    "strings through a method named at run time": (
        N02,
        "check_strings_through",
        3,
        [
            "def strings_through(board, point):\n"
            "    find = getattr(board, 'str' + 'ings')\n"
            "    return [s for s in find(board.stone_at(point)) if point in s]\n"
        ],
        "getattr(...) with a name computed at run time",
    ),
    "neighbours defined inside an if": (
        N01,
        "check_neighbours",
        2,
        [
            IMPORTS_01,
            "if True:\n"
            "    def neighbours(width, height, point):\n"
            "        g = geometry(width, height)\n"
            "        return {g.names[q] for q in g.neighbour[g.index[point]] if q >= 0}\n",
        ],
        ".neighbour",
    ),
    "neighbours wrapped and bound again under its own name": (
        N01,
        "check_neighbours",
        2,
        [
            IMPORTS_01,
            "def neighbours(width, height, point):\n"
            "    g = geometry(width, height)\n"
            "    return {g.names[q] for q in g.neighbour[g.index[point]] if q >= 0}\n",
            "neighbours = neighbours\n",
        ],
        ".neighbour",
    ),
    "neighbours put in place through globals()": (
        N01,
        "check_neighbours",
        2,
        [
            IMPORTS_01,
            "def neighbours(width, height, point):\n    return set()\n",
            "def _kit(width, height, point):\n"
            "    g = geometry(width, height)\n"
            "    return {g.names[q] for q in g.neighbour[g.index[point]] if q >= 0}\n\n\n"
            "globals()['neigh' + 'bours'] = _kit\n",
        ],
        "Your code (a cell run at the top, _kit",
    ),
    "strings from a module written at run time": (
        N02,
        "check_strings_through",
        3,
        [
            "import sys\nsys.path.insert(0, '/tmp')\n"
            "open('/tmp/helper_mod.py', 'w').write('def strings_through(board, point):\\n"
            "    return [s for s in board.strings(board.stone_at(point)) if point in s]\\n')\n",
            "from helper_mod import strings_through\n",
        ],
        "helper_mod (a module of its own, written at run time)",
    ),
    "a control found among the subclasses of object": (
        N10,
        "check_simple_control",
        5,
        [
            "def kit():\n"
            "    return next(c for c in object.__subclasses__() if c.__name__ == 'Con' + 'troller')"
            "\n\n\n"
            "class Clicks:\n"
            "    def __init__(self, model):\n"
            "        self.inner = kit()(model)\n",
        ],
        ".__subclasses__",
    ),
    "strings through getattr handed on under another name": (
        N02,
        "check_strings_through",
        3,
        [
            "fetch = getattr\n\n\n"
            "def strings_through(board, point):\n"
            "    find = fetch(board, 'str' + 'ings')\n"
            "    return [s for s in find(board.stone_at(point)) if point in s]\n"
        ],
        "getattr(...) with a name computed at run time",
    ),
    "a control that is the board's own controller": (
        N10,
        "check_simple_control",
        5,
        [
            "from fanorona.ui.controller import Controller\n\n\n"
            "class Clicks(Controller):\n"
            "    def __init__(self, model):\n"
            "        super().__init__(model)\n"
            "        self.selected = None\n"
        ],
        "fanorona.ui.controller",
    ),
    "a control patched with the controller's click": (
        N10,
        "check_simple_control",
        5,
        [
            "import fanorona.ui.controller as kit\n\n\nclass Clicks:\n"
            "    def __init__(self, model):\n        self.model = model\n",
            "Clicks.click = kit.Controller.click\n",
        ],
        ".Controller",
    ),
    "a view that is the kit's own drawing": (
        N10,
        "check_view",
        3,
        [
            "from fanorona.ui.draw import draw_board\n\n\n"
            "def draw_position(board, ax):\n    draw_board(board, ax)\n"
        ],
        "fanorona.ui.draw",
    ),
    "a view imported by a computed name": (
        N10,
        "check_view",
        3,
        [
            "def draw_position(board, ax):\n"
            "    draw = __import__('fanorona.ui.' + 'draw', fromlist=['x'])\n"
            "    draw.draw_board(board, ax)\n"
        ],
        "__import__",
    ),
    "the tournament player that is the built-in level 3": (
        N11,
        "check_tournament_player",
        3,
        [
            "%%writefile {folder}/my_player.py\n"
            "from fanorona.engine.ai import make_player\n\n"
            "player = make_player('level3')\n"
        ],
        "fanorona.engine.ai",
    ),
}


def check_source(notebook: str, grade_id: str) -> str:
    cells = nbformat.read(NOTEBOOKS / notebook, as_version=4).cells
    return next(
        c.source for c in cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id
    )


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_an_answer_from_the_kits_own_engine_scores_nothing_in_the_grader(route):
    notebook, check, points, cells, word = ROUTES[route]
    result = graded(cells, notebook, check, points)
    assert result.score == 0 and result.refused, result.text
    assert word in (result.sentence or "") and "no points" in (result.sentence or "")


def test_the_tournament_player_from_the_kits_levels_is_refused_in_the_kernel_too(tmp_path):
    player = tmp_path / "my_player.py"
    cells = ROUTES["the tournament player that is the built-in level 3"][3]
    player.write_text(cells[0].split("\n", 1)[1])
    with pytest.raises(ExerciseFailed, match="file uses fanorona.engine.ai"):
        check_tournament_player(player)


def graded_checks():
    """(notebook, check cell source, the reference cells before it) of every graded check."""
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        sources: list[str] = []
        for cell in nbformat.read(path, as_version=4).cells:
            meta = cell.metadata.get("nbgrader", {})
            if cell.cell_type != "code":
                continue
            if meta.get("grade") and not meta.get("solution"):
                yield path.name, cell.source, list(sources)
            elif meta.get("solution") and meta.get("grade_id") != "earlier_functions":
                sources.append(answer(path.name, meta["grade_id"]))
            else:
                sources.append(cell.source)


def test_no_notebooks_own_answer_uses_a_part_its_check_refuses():
    refusing = set()
    for notebook, source, sources in graded_checks():
        call = check_call(source)
        if call is not None:
            assert kit_use(call[0], sources, call[1]) is None, (notebook, call)
            refusing.add(call[0])
        on_file = file_call(source)
        if on_file is not None:
            written = [s for s in sources if s.startswith("%%writefile")]
            assert kit_use(on_file[0], written, None) is None, notebook
            refusing.add(on_file[0])
    assert set(REFUSED) <= refusing  # every refusing check is one a notebook grades


@pytest.mark.parametrize("notebook", [N10, N10B])
def test_the_reference_programs_use_nothing_their_checks_refuse(notebook):
    program = reference_program(notebook)
    for check, names in (("check_view", ["draw_position"]), ("check_clickable", ["play"])):
        assert kit_use(check, [program], names) is None


@pytest.mark.parametrize("notebook", [N10, N10B, N11])
def test_each_notebook_that_refuses_parts_says_which_in_its_first_cell(notebook):
    first = nbformat.read(NOTEBOOKS / notebook, as_version=4).cells[0].source
    assert "Graded code may not use" in first


INNOCENT = [
    "%load_ext autoreload\n%autoreload 2\nimport inspect\nimport fanorona as fa\n",
    "board = fa.Board()\nprint(type(board).__name__, board.__class__, getattr(board, 'size'))\n",
    "%time neighbours(9, 5, 'e3')\nhelp(fa.Board)\nprint(inspect.getsource(neighbours))\n",
    "from fanorona.exercises import *\n",
]


def test_innocent_cells_of_a_student_refuse_nothing():
    (answer_cell,) = [answer(N01, "neighbours")]
    helpers = [
        c.source
        for c in nbformat.read(NOTEBOOKS / N01, as_version=4).cells
        if c.cell_type == "code" and "def is_strong" in c.source
    ]
    checked = "def parts(step):\n    return all(hasattr(step, p) for p in ('origin', 'capture'))\n"
    assert helpers
    sources = [*helpers, answer_cell, checked, *INNOCENT]
    assert kit_use("check_neighbours", sources, ["neighbours", "parts"]) is None


def test_a_definition_written_again_is_judged_by_the_one_in_force():
    kit = ROUTES["neighbours from geometry's own graph"][3]
    rewritten = "def neighbours(width, height, point):\n    return {point}\n"
    assert kit_use("check_neighbours", [*kit, rewritten], ["neighbours"]) is None
    assert kit_use("check_neighbours", [rewritten, *kit], ["neighbours"]) is not None


@pytest.mark.notebook
def test_in_a_kernel_the_check_says_so_at_once():
    """The student hears it while working, from the cells run so far, before the grader says
    it."""
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import matplotlib\nmatplotlib.use('Agg')\n"
            "from fanorona.ui.draw import draw_board\n\n\n"
            "def draw_position(board, ax):\n    draw_board(board, ax)\n"
        ),
        nbformat.v4.new_code_cell(
            "from fanorona.exercises import check_view\n\ncases = check_view(draw_position)"
        ),
    ]
    NotebookClient(nb, timeout=120, allow_errors=True, kernel_name="python3").execute()
    errors = [o for o in nb.cells[1].outputs if o.output_type == "error"]
    assert errors and "uses fanorona.ui.draw" in errors[0].evalue
