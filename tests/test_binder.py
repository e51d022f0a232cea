"""Binder runs every notebook: each import of each notebook is satisfied by binder/environment.yml
(a package listed there, or the kit itself, whose parts that need an extra find its packages
listed too)."""

import ast
import importlib.metadata
import re
import sys
from pathlib import Path

import nbformat
import pytest
from IPython.core.inputtransformer2 import TransformerManager
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")
yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
EXTRAS = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]


def binder_packages() -> set[str]:
    entries = yaml.safe_load((ROOT / "binder" / "environment.yml").read_text())["dependencies"]
    return {canonicalize_name(re.split(r"[<>=!\[ ]", entry)[0]) for entry in entries}


def notebook_imports(path: Path) -> set[str]:
    """Every module a notebook's code imports, magics turned into the Python they run."""
    found = set()
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code" or cell.source.lstrip().startswith("%%"):
            continue
        tree = ast.parse(TransformerManager().transform_cell(cell.source))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module)
                found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def extra_of(module: str) -> str | None:
    """The extra a module of the kit asks for (``_extras.require``), looking up its packages."""
    parts = module.split(".")
    for n in range(len(parts), 1, -1):
        base = ROOT.joinpath(*parts[:n])
        for source in (base / "__init__.py", base.with_suffix(".py")):
            if source.exists():
                match = re.search(r'require\(\s*"(\w+)"', source.read_text(encoding="utf-8"))
                if match:
                    return match.group(1)
    return None


def distributions(module: str) -> set[str]:
    top = module.split(".")[0]
    return {canonicalize_name(d) for d in importlib.metadata.packages_distributions().get(top, [])}


def test_the_import_reader_sees_magics_and_imports():
    assert extra_of("fanorona.lobby.client") == "lobby"
    assert extra_of("fanorona.board") is None
    assert distributions("matplotlib.pyplot") == {"matplotlib"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_binder_satisfies_every_import_of_the_notebook(path):
    listed = binder_packages()
    missing = []
    for module in sorted(notebook_imports(path)):
        top = module.split(".")[0]
        if top in sys.stdlib_module_names:
            continue
        if top == "fanorona":
            extra = extra_of(module)
            needed = {canonicalize_name(Requirement(r).name) for r in EXTRAS.get(extra, [])}
            missing += [f"{module} needs {name}" for name in sorted(needed - listed)]
            continue
        found = distributions(module)
        if not found & listed:
            missing.append(f"{module} ({', '.join(sorted(found)) or 'not installed here'})")
    assert not missing, f"{path.name}: binder/environment.yml lacks {missing}"
