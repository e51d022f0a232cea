"""The import contract, read from the source with ``ast``: the layers rules core -> sandbox ->
engine -> board UI -> exercises -> the class (a module imports from its own layer or lower ones),
read from ARCHITECTURE.md's layer table, where every module is in exactly one row; nothing in the
package imports benchmark code, and the controller imports no GUI library.

Each rule is also checked against a small made-up package that breaks it, so a checker that
stopped finding anything would fail here.
"""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "fanorona"
#: The course hub, beside the package: the table's top row, which nothing in the package imports.
HUB = ROOT / "hub"

ARCHITECTURE = ROOT / "ARCHITECTURE.md"


def table_rows(text: str) -> list[tuple[str, list[str]]]:
    """The layer table of ARCHITECTURE.md's "The layers", lowest layer first: each row's layer and
    the modules it names.  A folder in backticks (``fanorona/engine/``) names its package and
    starts the row's list; the names after it are its modules."""
    section = text.split("\n## The layers", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if (
            not line.startswith("|")
            or len(cells) < 3
            or cells[0] in ("layer", "")
            or (set(cells[0]) <= set("-:"))
        ):
            continue
        modules, package = [], None
        for token in re.findall(r"`([^`]+)`", cells[1]):
            if token.endswith("/"):
                package = token.rstrip("/").replace("/", ".")
                modules.append(package)
            elif package is None:
                raise ValueError(
                    f"ARCHITECTURE.md, layer {cells[0]}: {token} comes before a folder"
                )
            else:
                modules.append(f"{package}.{token}")
        rows.append((cells[0], modules))
    return rows


#: Every module of the package by layer, lowest first, as ARCHITECTURE.md's table has them.
ROWS = table_rows(ARCHITECTURE.read_text(encoding="utf-8"))
LAYERS = {layer: set(modules) for layer, modules in ROWS}
#: Imports that go up a layer on purpose, each made inside a function so the lower module loads
#: without the higher one: a Board draws itself in a notebook (``_repr_png_``), the package's
#: ``fanorona.BoardWidget`` is loaded on first use, and notebook 11's checker plays a student's
#: player through the tournament's own check.
ALLOWED_UPWARD = {
    ("fanorona.board", "fanorona.ui.draw"),
    ("fanorona", "fanorona.ui.widget"),
    ("fanorona.exercises.player", "fanorona.tournament.check"),
}
GUI_LIBRARIES = {
    "ipywidgets",
    "matplotlib",
    "ipympl",
    "IPython",
    "ipycanvas",
    "ipyevents",
    "PIL",
    "tkinter",
}
BENCHMARK_CODE = {"benchmarks"}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(
    source: str, module: str, is_package: bool, submodules: set[str]
) -> list[tuple[str, bool]]:
    """Every module ``source`` imports, absolute, with whether the import is at the module's top
    level (``False``: inside a function or class, run only when called)."""
    tree = ast.parse(source)
    top = {id(node) for node in tree.body}
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            for alias in node.names:  # ``from . import positions`` imports a submodule (or a
                name = f"{base}.{alias.name}"  # bench module that is no longer there)
                submodule = name in submodules or alias.name.startswith("bench")
                found.append((name if submodule else base, id(node) in top))
    return found


def read_package(root: Path) -> dict[str, list[tuple[str, bool]]]:
    paths = sorted(root.rglob("*.py"))
    names = {module_name(p, root.parent) for p in paths}
    return {
        module_name(p, root.parent): imports(
            p.read_text(encoding="utf-8"),
            module_name(p, root.parent),
            p.name == "__init__.py",
            names,
        )
        for p in paths
    }


def layer_of(module: str) -> int | None:
    for n, members in enumerate(LAYERS.values()):
        if module in members:
            return n
    return None


def table_problems(rows: list[tuple[str, list[str]]], modules: set[str]) -> list[str]:
    """How the table and the package disagree, one sentence each: a module in no row, in two
    rows, or in a row but not in the package."""
    found, seen = [], {}
    for layer, named in rows:
        for module in named:
            if module in seen:
                found.append(f"{module} is in two rows of ARCHITECTURE.md: {seen[module]}, {layer}")
            seen[module] = layer
            if module not in modules:
                found.append(
                    f"ARCHITECTURE.md names {module} ({layer}), which is not in the package"
                )
    found += [
        f"{m} is in no row of ARCHITECTURE.md's layer table" for m in sorted(modules - set(seen))
    ]
    return found


def violations(graph: dict[str, list[tuple[str, bool]]]) -> list[str]:
    """What breaks the contract, one sentence each."""
    found = []
    for module, imported in graph.items():
        here = layer_of(module)
        if here is None:
            found.append(f"{module} is in no row of ARCHITECTURE.md's layer table")
            continue
        for target, _top_level in imported:
            if target.split(".")[0] in BENCHMARK_CODE or target.rpartition(".")[2].startswith(
                "bench"
            ):
                found.append(f"{module} imports benchmark code ({target})")
            there = layer_of(target) if target.split(".")[0] in ("fanorona", "hub") else None
            if there is not None and there > here and (module, target) not in ALLOWED_UPWARD:
                found.append(
                    f"{module} ({list(LAYERS)[here]}) imports {target} ({list(LAYERS)[there]})"
                )
    found += gui_in_controller(graph)
    return found


def gui_in_controller(
    graph: dict[str, list[tuple[str, bool]]], module: str = "fanorona.ui.controller"
) -> list[str]:
    """GUI libraries the controller loads: through its own imports (any), or through the top-level
    imports of the package modules it imports, and theirs."""
    found, seen, todo = [], set(), [(module, True)]
    while todo:
        name, own = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for target, top_level in graph.get(name, []):
            if not (own or top_level):
                continue
            if target.split(".")[0] in GUI_LIBRARIES:
                found.append(f"{module} loads the GUI library {target} (through {name})")
            elif target in graph:
                todo.append((target, False))
    return found


def read_code() -> dict[str, list[tuple[str, bool]]]:
    """The package's modules and the course hub's, with what each imports."""
    return read_package(PACKAGE) | read_package(HUB)


def test_the_package_keeps_its_import_contract():
    assert violations(read_code()) == []


def test_every_module_of_the_package_is_in_exactly_one_row_of_the_architecture_table():
    graph = read_code()
    assert table_problems(ROWS, set(graph)) == []
    assert "fanorona.exercises.checking" in graph and layer_of("fanorona.exercises.checking") == 4
    assert layer_of("fanorona.tournament.run") == len(ROWS) - 2  # the class, under the hub
    assert "hub.course" in graph and layer_of("hub.course") == len(ROWS) - 1


@pytest.mark.parametrize(
    "table, complaint",
    [
        (
            "| engine | `fanorona/engine/`: `ai` | |",
            "fanorona.engine.arena is in no row of ARCHITECTURE.md's layer table",
        ),
        (
            "| engine | `fanorona/engine/`: `ai`, `arena` | |\n"
            "| board UI | `fanorona/engine/`: `ai` | |",
            "fanorona.engine.ai is in two rows of ARCHITECTURE.md: engine, board UI",
        ),
        (
            "| engine | `fanorona/engine/`: `ai`, `arena`, `gone` | |",
            "ARCHITECTURE.md names fanorona.engine.gone (engine), which is not in the package",
        ),
    ],
)
def test_a_table_that_disagrees_with_the_package_is_found(table, complaint):
    text = (
        "# A\n\n## The layers\n\n| layer | modules | what |\n|---|---|---|\n"
        + table
        + "\n\n## Next\n"
    )
    found = table_problems(
        table_rows(text), {"fanorona.engine", "fanorona.engine.ai", "fanorona.engine.arena"}
    )
    assert complaint in found, found


@pytest.fixture
def made_up(tmp_path):
    """A copy of the package's layout in miniature, which each test below breaks one way."""
    root = tmp_path / "fanorona"
    for folder in ("exercises", "engine", "ui"):
        (root / folder).mkdir(parents=True)
    files = {
        "__init__.py": "from .board import Board\n",
        "rules.py": "",
        "board.py": "from .rules import Rules\n",
        "engine/__init__.py": "",
        "engine/ai.py": "from ..board import Board\n",
        "ui/__init__.py": "",
        "ui/controller.py": "from ..board import Board\n",
        "ui/widget.py": "import ipywidgets\nfrom .controller import Controller\n",
        "exercises/__init__.py": "from ..ui.widget import BoardWidget\n",
    }
    for name, text in files.items():
        (root / name).write_text(text)
    return root


def test_the_made_up_package_keeps_the_contract(made_up):
    assert violations(read_package(made_up)) == []


@pytest.mark.parametrize(
    "module, line, complaint",
    [
        (
            "board.py",
            "from .engine.ai import AlphaBetaPlayer\n",
            "fanorona.board (rules core) imports fanorona.engine.ai (engine)",
        ),
        (
            "engine/ai.py",
            "def f():\n    from ..ui.widget import BoardWidget\n",
            "fanorona.engine.ai (engine) imports fanorona.ui.widget (board UI)",
        ),
        (
            "board.py",
            "from ..exercises import checking\n",
            "fanorona.board (rules core) imports fanorona.exercises",
        ),
        (
            "engine/ai.py",
            "from benchmarks.baseline import perft\n",
            "fanorona.engine.ai imports benchmark code",
        ),
        (
            "engine/ai.py",
            "from . import bench_search\n",
            "fanorona.engine.ai imports benchmark code",
        ),
        (
            "ui/controller.py",
            "import matplotlib.pyplot as plt\n",
            "loads the GUI library matplotlib.pyplot",
        ),
        (
            "ui/controller.py",
            "def f():\n    from ipywidgets import Button\n",
            "loads the GUI library ipywidgets",
        ),
        (
            "ui/controller.py",
            "from .widget import BoardWidget\n",
            "loads the GUI library ipywidgets (through fanorona.ui.widget)",
        ),
        ("stray.py", "from .rules import Rules\n", "fanorona.stray is in no row"),
        (
            "engine/ai.py",
            "from hub.course import COURSE\n",
            "fanorona.engine.ai (engine) imports hub.course (the course hub)",
        ),
    ],
)
def test_a_deliberately_wrong_import_is_found(made_up, module, line, complaint):
    path = made_up / module
    path.write_text((path.read_text() if path.exists() else "") + line)
    found = violations(read_package(made_up))
    assert any(complaint in v for v in found), found


def test_importing_the_controller_loads_no_gui_library():
    """The same rule, at run time: a fresh interpreter imports the controller and lists its
    modules."""
    code = (
        "import sys, fanorona.ui.controller; "
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({sorted(GUI_LIBRARIES)!r})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_importing_the_package_loads_no_benchmark_code():
    code = (
        "import sys, fanorona, fanorona.engine.ai, fanorona.engine.arena; "
        "print(sorted(m for m in sys.modules if 'bench' in m))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"
