"""Every notebook in notebooks/ follows the course's rules: valid nbformat 4 with the python3
kernel, outputs only where a cell asks to keep them (and then text only), no records of a run in
the metadata, no private names of the package, listed in the map of 00_start_here, and without
solutions in the student copy.

Running the notebooks themselves is nbval's job: ``pytest --nbval --nbval-current-env notebooks``.
"""

import ast
import io
import json
import re
import tokenize
from pathlib import Path

import nbformat
import pytest

from fanorona.exercises import make_student_copies

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
START = NOTEBOOK_DIR / "00_start_here.ipynb"
TEXT_MIME = "text/plain"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"


def read(path):
    return nbformat.read(path, as_version=nbformat.NO_CONVERT)


def code_cells(nb):
    return [(n, cell) for n, cell in enumerate(nb.cells, 1) if cell.cell_type == "code"]


# -- private names -------------------------------------------------------------------------------

OWN_OBJECTS = {"self", "cls"}  # a notebook's own classes may keep private attributes
GETATTR_PRIVATE = re.compile(r"""getattr\([^)]*,\s*['"]_(?!_)""")
FROM_FANORONA = re.compile(r"^\s*from\s+fanorona\b[\w.]*\s+import\b")


def is_dunder(word):
    return word.startswith("__") and word.endswith("__")


def python_only(source):
    """The cell without IPython's magics and shell lines, which are not Python."""
    return "\n".join(
        "" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()
    )


def private_uses(source):
    """The private names a cell reaches: ``obj._name`` (not ``self._name``), ``from fanorona...
    import _name`` and ``getattr(obj, "_name")``; Python's own ``__dunder__`` names are fine."""
    found = [m.group() for m in GETATTR_PRIVATE.finditer(source)]
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(python_only(source)).readline)
        if t.type
        not in (
            tokenize.COMMENT,
            tokenize.NL,
            tokenize.NEWLINE,
            tokenize.INDENT,
            tokenize.DEDENT,
        )
    ]
    for before, (dot, word) in zip([None] + tokens, zip(tokens, tokens[1:])):
        if word.type != tokenize.NAME or not word.string.startswith("_") or is_dunder(word.string):
            continue
        if dot.string == "." and (before is None or before.string not in OWN_OBJECTS):
            found.append(f"{before.string if before else ''}.{word.string}")
        elif FROM_FANORONA.match(word.line):
            found.append(f"import {word.string}")
    return found


@pytest.mark.parametrize(
    "source, expected",
    [
        ("me, opp = b._me_opp()", ["b._me_opp"]),
        ("fa.Board()._white", [")._white"]),
        ("fa.board._bits(3)", ["board._bits"]),
        ("from fanorona.board import Board, _bits", ["import _bits"]),
        ("getattr(board, '_chain')", ["getattr(board, '_"]),
        (
            (
                "class P:\n    def __init__(self):\n        super().__init__()\n        self._rng"
                " = 1\n"
            ),
            [],
        ),
        ("x = b.__class__.__name__\n_ = 3\ndef _helper():\n    pass", []),
        ("print('b._me_opp() is private')  # so is b._white", []),
        ("%matplotlib inline\nb.push('e2e3')", []),
    ],
)
def test_the_private_name_detector(source, expected):
    assert private_uses(source) == expected


# -- each notebook -------------------------------------------------------------------------------


def test_there_are_notebooks_and_the_start_page_is_one_of_them():
    assert START in NOTEBOOKS and len(NOTEBOOKS) >= 3


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_valid_nbformat_4_with_the_python3_kernel(path):
    assert json.loads(path.read_text(encoding="utf-8"))["nbformat"] == 4
    nb = read(path)
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == "python3"
    assert nb.metadata.kernelspec.display_name == "Python 3"
    assert nb.metadata.language_info.name == "python"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_outputs_only_in_cells_marked_keep_output_and_text_only(path):
    for n, cell in code_cells(read(path)):
        if not cell.outputs:
            continue
        assert cell.metadata.get("keep_output") is True, (
            f"{path.name} cell {n} has outputs but no keep_output"
        )
        for output in cell.outputs:
            if output.output_type == "stream":
                assert output.name == "stdout", f"{path.name} cell {n} keeps {output.name}"
            else:
                assert output.output_type == "execute_result", (
                    f"{path.name} cell {n} keeps {output.output_type}"
                )
                assert set(output.data) == {TEXT_MIME}, (
                    f"{path.name} cell {n} keeps {sorted(output.data)}"
                )


def run_records(nb):
    """What a run leaves in the metadata: the kernel's timestamps in a cell's ``execution`` entry
    and saved widget state; they change on every run, make noisy diffs and mean nothing to a
    reader."""
    found = ["widget state"] if "widgets" in nb.metadata else []
    return found + [
        f"cell {n} execution" for n, cell in enumerate(nb.cells, 1) if "execution" in cell.metadata
    ]


def test_the_run_record_detector():
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("# t"), nbformat.v4.new_code_cell("1")]
    )
    assert run_records(nb) == []
    nb.cells[1].metadata["execution"] = {"iopub.status.busy": "2026-11-29T12:28:16.358087Z"}
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    assert run_records(nb) == ["widget state", "cell 2 execution"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_run_records_in_the_metadata(path):
    assert run_records(read(path)) == [], f"{path.name}: strip these before committing"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_private_names_of_the_package(path):
    for n, cell in code_cells(read(path)):
        assert private_uses(cell.source) == [], f"{path.name} cell {n} uses private names"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_package_is_imported_as_fa(path):
    sources = [cell.source for _, cell in code_cells(read(path))]
    if any(re.search(r"^\s*import fanorona\b|^\s*from fanorona\b", s, re.M) for s in sources):
        assert any(re.search(r"^import fanorona as fa$", s, re.M) for s in sources), path.name


# -- the map and the student copies ---------------------------------------------------------------


def notebooks_named_in_the_map():
    text = "\n".join(cell.source for cell in read(START).cells if cell.cell_type == "markdown")
    return set(re.findall(r"\b[\w-]+\.ipynb\b", text))


def test_every_notebook_in_the_map_exists():
    named = notebooks_named_in_the_map()
    assert {"00_start_here.ipynb", "01_board_graph.ipynb", "play.ipynb"} <= named
    missing = sorted(n for n in named if not (NOTEBOOK_DIR / n).exists())
    assert not missing, f"00_start_here names notebooks that do not exist: {missing}"


def test_every_notebook_is_in_the_map():
    unlisted = sorted({p.name for p in NOTEBOOKS} - notebooks_named_in_the_map())
    assert not unlisted, f"add these to the map in 00_start_here: {unlisted}"


def test_student_copies_have_no_solutions_and_stay_valid(tmp_path):
    written = make_student_copies(NOTEBOOK_DIR, tmp_path)
    assert sorted(p.name for p in written) == [p.name for p in NOTEBOOKS]
    exercises = 0
    for path in written:
        nb = read(path)
        nbformat.validate(nb)
        for n, cell in code_cells(nb):
            assert BEGIN not in cell.source and END not in cell.source, f"{path.name} cell {n}"
            assert cell.outputs == [] and cell.execution_count is None
            exercises += "raise NotImplementedError()" in cell.source
        assert BEGIN not in path.read_text(encoding="utf-8")
    assert exercises >= 8  # one per checker at least


def stubs_at_class_level(source):
    """Lines where a student copy raises in a class body itself: the class could not even be
    defined, so its checker would fail with a NameError instead of saying the exercise is
    unfinished."""
    tree = ast.parse(python_only(source))
    return [
        node.lineno
        for cls in ast.walk(tree)
        if isinstance(cls, ast.ClassDef)
        for node in cls.body
        if isinstance(node, ast.Raise)
    ]


def test_the_class_level_stub_detector():
    assert (
        stubs_at_class_level("class A:\n    def f(self):\n        raise NotImplementedError()")
        == []
    )
    assert stubs_at_class_level("class A:\n    x = 1\n    raise NotImplementedError()") == [3]


def test_student_copies_leave_every_class_and_function_definable(tmp_path):
    for path in make_student_copies(NOTEBOOK_DIR, tmp_path):
        for n, cell in code_cells(read(path)):
            assert stubs_at_class_level(cell.source) == [], (
                f"{path.name} cell {n}: put the solution inside methods"
            )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_solutions_and_checkers_carry_nbgrader_metadata(path):
    """nbgrader grades a checker cell only if it says so, and releases a solution only from a
    solution cell."""
    ids = []
    for n, cell in code_cells(read(path)):
        meta = cell.metadata.get("nbgrader", {})
        if BEGIN in cell.source:
            assert meta.get("solution") is True, (
                f"{path.name} cell {n}: a solution without nbgrader metadata"
            )
        if re.search(r"^cases = check_\w+\(", cell.source, re.M):
            assert (
                meta.get("grade") is True
                and meta.get("points", 0) > 0
                and meta.get("locked") is True
            ), f"{path.name} cell {n}: a checker cell that nbgrader would not grade"
        if meta:
            assert meta["schema_version"] == 3
            ids.append(meta["grade_id"])
    assert len(ids) == len(set(ids)), f"{path.name}: grade ids repeat"


def test_notebook_07_is_for_students_and_the_engine_internals_are_in_the_appendix():
    """Notebook 07 keeps the search, the evaluation and the matches a student needs, in at most 33
    cells (30, and the three of the game tree worked by hand); bit sets, the compiled search and
    the measurements live in the appendix 07b."""
    student = read(NOTEBOOK_DIR / "07_computer_opponent.ipynb")
    appendix = read(NOTEBOOK_DIR / "07b_engine_internals.ipynb")
    assert len(student.cells) <= 33
    code = "\n".join(cell.source for _, cell in code_cells(student))
    for internal in ("movegen", "compiled", "search_measurements.json", "endgame"):
        assert internal not in code, f"07 uses {internal}: it belongs in the appendix"
        assert internal in "\n".join(cell.source for _, cell in code_cells(appendix))
