"""The core where numpy cannot be imported (a JupyterLite kernel without it): the rules, the
questions, the checkers and the computer's levels load and work, and notebooks 00-05 run every
statement but their pictures.

matplotlib needs numpy, so a picture cannot be drawn without it: the notebooks are run with each
statement that draws taken out (found by the names it uses, and whatever it made, like ``fig`` and
``ax``, taken out with it), and everything else in them must run, the checkers included.  The
import is blocked as in a kernel where the package is absent, by a ``sitecustomize`` on
``PYTHONPATH`` in every process the test starts.
"""

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES_NOTEBOOKS = sorted((ROOT / "notebooks").glob("0[0-5]_*.ipynb"))
#: The names by which a notebook cell draws: pyplot, the kit's drawing, and matplotlib itself.
DRAWING = {"plt", "matplotlib", "draw_board", "MaxNLocator"}
#: numpy absent as where it is not installed: not in ``sys.modules`` (IPython's display looks
#: there), and every import of it ends in ``ModuleNotFoundError``.
BLOCK = """
import sys


class NoNumpy:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "numpy":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


sys.meta_path.insert(0, NoNumpy())
"""


@pytest.fixture(scope="module")
def blocked(tmp_path_factory):
    """An environment whose Python processes cannot import numpy."""
    site = tmp_path_factory.mktemp("no-numpy")
    (site / "sitecustomize.py").write_text(BLOCK)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    env.pop("MPLBACKEND", None)
    return env


def run(code: str, env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )


def test_numpy_is_really_blocked(blocked):
    done = run("import numpy", blocked)
    assert done.returncode != 0 and "No module named 'numpy'" in done.stderr


def test_the_rules_questions_and_checkers_load_and_judge_without_numpy(blocked):
    code = """
import sys
import fanorona as fa
from fanorona.exercises import check_neighbours, ExerciseFailed, questions
from fanorona.geometry import geometry
from fanorona.ui.controller import Controller

assert "numpy" not in sys.modules
board = fa.Board()
assert len(board.legal_turns()) == 5 and fa.perft(board, 2) > 5

def neighbours(width, height, point):
    g = geometry(width, height)
    return {g.names[q] for q in g.neighbour[g.index[point]] if q >= 0}

def wrong(width, height, point):
    return neighbours(width, height, point) - {"e3"}

print("agreed:", check_neighbours(neighbours))
try:
    check_neighbours(wrong)
except ExerciseFailed as failed:
    print("refused:", str(failed).splitlines()[0])
else:
    raise SystemExit("a wrong answer passed")
c = Controller()
c.click("d3"); c.click("e3"); c.choose("withdrawal")
print("controller:", c.status)
"""
    done = run(code, blocked)
    assert done.returncode == 0, done.stderr
    assert "All " in done.stdout and "refused:" in done.stdout, done.stdout
    assert "controller: Played d3e3W. Black to move." in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("level", [4, 5])
def test_levels_4_and_5_play_an_endgame_without_numpy(level, blocked, tmp_path):
    code = f"""
import sys
import fanorona as fa
from fanorona.engine.ai import level
board = fa.Board.from_diagram("B...B\\n.....\\n..W..\\n.....\\nW...B")
turn = level({level}, seed=1).choose_turn(board)
assert str(turn) in {{str(t) for t in board.legal_turns()}}
print("played", turn, "numpy" in sys.modules)
"""
    env = dict(blocked, XDG_CACHE_HOME=str(tmp_path))  # the table built here, not read from a cache
    done = run(code, env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("played ") and done.stdout.rstrip().endswith("False")


def _names(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        alias.asname or alias.name.split(".")[0]
        for n in ast.walk(node)
        if isinstance(n, (ast.Import, ast.ImportFrom))
        for alias in n.names
    }


def _modules(node) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if isinstance(node, ast.ImportFrom):
        return {node.module or ""}
    return set()


def _bound(statement) -> set[str]:
    """The names a drawing statement makes for later drawing: what it assigns (``fig, ax``) or
    defines (a function that draws); a loop's variables stay the notebook's."""
    if isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
        return {statement.name}
    if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return set()


def without_pictures(source: str, drawing: set[str]) -> tuple[str, int]:
    """The cell with each top-level statement that draws taken out, and how many were; the names
    such a statement binds draw too (``fig, ax = plt.subplots()``, a function that draws)."""
    tree = ast.parse(source)
    kept, dropped = [], 0
    for statement in tree.body:
        modules = _modules(statement)
        draws = _names(statement) & drawing or any(
            m.startswith(("matplotlib", "fanorona.ui.draw")) for m in modules
        )
        if draws:
            drawing |= _bound(statement)  # what it made draws too
            dropped += 1
            if modules:  # an import line: keep what it imports that is not for drawing
                others = [
                    a for a in statement.names if (a.asname or a.name.split(".")[0]) not in drawing
                ]
                module = modules.pop()
                if others and not module.startswith(("matplotlib", "fanorona.ui.draw")):
                    statement.names = others
                    kept.append(statement)
            continue
        kept.append(statement)
    tree.body = kept
    return ast.unparse(tree), dropped


#: A wrong answer in a notebook: the checker says so and shows the position as text.
WRONG_ANSWER = """
from fanorona.exercises import ExerciseFailed, check_neighbours
from fanorona.geometry import geometry

def neighbours(width, height, point):
    g = geometry(width, height)
    return {g.names[q] for q in g.neighbour[g.index[point]] if q >= 0} - {"e3"}

try:
    check_neighbours(neighbours)
except ExerciseFailed as failed:
    print(failed)
else:
    raise AssertionError("a wrong answer passed")
"""


@pytest.mark.slow
@pytest.mark.notebook
def test_notebooks_00_to_05_run_all_but_their_pictures_without_numpy(blocked, tmp_path):
    counts = {}
    for path in RULES_NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        drawing, dropped, statements = set(DRAWING), 0, 0
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            statements += len(ast.parse(cell.source).body)
            cell.source, n = without_pictures(cell.source, drawing)
            dropped += n
            cell.outputs = []
        counts[path.name] = (dropped, statements)
        nbformat.write(nb, tmp_path / path.name)
    wrong = nbformat.v4.new_notebook()
    wrong.cells = [nbformat.v4.new_code_cell(WRONG_ANSWER)]
    nbformat.write(wrong, tmp_path / "wrong_answer.ipynb")
    for data in (ROOT / "notebooks").glob("*.json"):
        shutil.copy(data, tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval-lax"]
        + ["--nbval-current-env", str(tmp_path)],
        env=blocked,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    print(json.dumps(counts))  # statements taken out (pictures) of those in each notebook
    assert done.returncode == 0, done.stdout[-4000:]
    dropped, total = map(sum, zip(*counts.values()))
    assert 0 < dropped < total / 5, "only the pictures were taken out"
