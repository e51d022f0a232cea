"""The two install routes (pip with pyproject.toml, conda with environment.yml) ask for the same
packages."""

from pathlib import Path

import pytest
from conftest import make_dry_run
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10 has no tomllib; tomli is the same parser
    tomllib = pytest.importorskip("tomli")
yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parent.parent
NOT_DEPENDENCIES = {"python", "pip"}


def requirement(text):
    """A package name (normalised) and its version specifier, from either file's spelling."""
    req = Requirement(text)
    return canonicalize_name(req.name), str(req.specifier)


def pyproject_requirements():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    texts = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        texts += extra
    return [r for r in map(requirement, texts) if r[0] != "fanorona"]  # not an extra's own roles


def environment_requirements():
    entries = yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
    texts = []
    for entry in entries:
        if isinstance(entry, dict):
            texts += [t for t in entry.get("pip", []) if not t.startswith("-e")]
        else:
            texts.append(entry)
    found = [requirement(t) for t in texts]
    return [(name, spec) for name, spec in found if name not in NOT_DEPENDENCIES]


def test_both_files_list_the_same_packages_and_versions():
    ours, conda = pyproject_requirements(), environment_requirements()
    assert len(dict(ours)) == len(set(ours)), "a package in two extras has one version range"
    assert len(conda) == len(set(conda))
    assert dict(conda) == dict(ours)


def test_the_environment_installs_the_package_itself():
    entries = yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
    pip = next(e["pip"] for e in entries if isinstance(e, dict))
    assert "-e ." in pip
    python = next(e for e in entries if isinstance(e, str) and e.startswith("python"))
    required = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert python == "python" + required


def test_licence_is_mit():
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"] == "MIT"
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    assert "Permission is hereby granted, free of charge" in text


def test_readme_shows_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    assert "make test" in readme and "make lab" in readme


def test_the_makefile_has_the_two_commands():
    makefile = (ROOT / "Makefile").read_text()
    assert "\nlab:" in makefile and "\ntest:" in makefile


def lab_setup_lines() -> list[str]:
    """The shell lines ``make lab`` runs to set itself up the first time, as ``make -n`` lists
    them."""
    return make_dry_run("-B", ".venv/.installed-play")


def test_make_lab_says_what_it_does_at_each_stage_and_shows_pips_output():
    lines = lab_setup_lines()
    stages = [line for line in lines if line.startswith('echo "make lab: ')]
    assert [s.split()[3] for s in stages] == ["1/3", "2/3", "3/3"], stages
    first = lines.index(stages[0])  # before it, the venv's own set-up (a separate target)
    installs = [line for line in lines[first:] if "pip install" in line]
    assert installs, lines
    for line in installs:
        assert "/dev/null" not in line and "--quiet" not in line and " -q " not in line, line


def test_make_labs_compile_step_imports_the_compiled_search_where_it_lives():
    """The step runs as written (numba absent, ``warm_up`` does nothing and returns at once)."""
    import subprocess

    line = next(line for line in lab_setup_lines() if "prepare compile" in line)
    done = subprocess.run(line, shell=True, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_make_labs_table_step_names_the_table_where_it_lives(tmp_path):
    """``make lab`` starts level 5's 5-stone table in the background as written: without the
    compiled search it says the level plays without the table, and with the table saved already
    it names it and starts nothing."""
    import os
    import subprocess

    line = next(line for line in make_dry_run("lab") if "prepare table" in line)
    line = line.replace(".venv/endgame-table.log", str(tmp_path / "table.log"))
    cache = tmp_path / "cache"
    env = dict(os.environ, XDG_CACHE_HOME=str(cache), FANORONA_COMPILED="0")
    off = subprocess.run(line, shell=True, cwd=ROOT, capture_output=True, text=True, env=env)
    assert off.returncode == 0, off.stderr
    assert (
        off.stdout.strip() == "level 5 plays without its 5-stone table here: the table needs numba"
    )
    saved = cache / "fanorona" / "indexed-9x5-5-solved.bin"
    saved.parent.mkdir(parents=True)
    saved.write_bytes(b"a table")
    env["FANORONA_COMPILED"] = "1"
    ready = subprocess.run(line, shell=True, cwd=ROOT, capture_output=True, text=True, env=env)
    assert ready.returncode == 0, ready.stderr
    if "needs numba" not in ready.stdout:  # numba installed here
        assert ready.stdout.strip() == f"level 5's 5-stone endgame table is ready: {saved}"
    assert not (tmp_path / "table.log").exists(), "nothing started"


def test_every_benchmark_script_has_a_main_that_make_bench_runs():
    """``make bench`` (``python -m benchmarks``) calls each ``benchmarks/bench_*.py``'s
    ``main()``."""
    import ast

    scripts = sorted((ROOT / "benchmarks").glob("bench_*.py"))
    assert scripts
    for path in scripts:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert any(
            isinstance(node, ast.FunctionDef) and node.name == "main" for node in tree.body
        ), path.name


def test_no_module_of_the_package_holds_benchmark_code():
    """Benchmarks live in benchmarks/, outside the installed package."""
    import ast

    for path in sorted((ROOT / "fanorona").rglob("*.py")):
        assert not path.name.startswith("bench"), path.name
        names = {
            node.name
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        assert not {n for n in names if n.lstrip("_").startswith("bench")}, path.name


GROUPED = """
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.xdist_group("one-course")


@pytest.mark.parametrize("n", range(6))
def test_grouped(n):
    Path(f"grouped-{n}").write_text(os.environ["PYTEST_XDIST_WORKER"])
"""
LOOSE = """
import pytest


@pytest.mark.parametrize("n", range(12))
def test_loose(n):
    pass
"""


@pytest.mark.slow
def test_an_xdist_group_runs_on_one_worker_with_the_installed_pytest(tmp_path):
    """The suite's shared servers and built courses are started once because ``--dist loadgroup``
    keeps a group on one worker; a pytest that drops the group from the test ids (9.2 with
    xdist 3.8) spreads it over both workers and starts each server twice, silently."""
    import subprocess
    import sys

    (tmp_path / "test_grouped.py").write_text(GROUPED)
    (tmp_path / "test_loose.py").write_text(LOOSE)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            "2",
            "--dist",
            "loadgroup",
            "-q",
            "-p",
            "no:cacheprovider",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    workers = {(tmp_path / f"grouped-{n}").read_text() for n in range(6)}
    assert len(workers) == 1, f"the group ran on {sorted(workers)}"


@pytest.mark.parametrize(
    ("changed", "sets_up_again"),
    [
        ("pyproject.toml", True),
        ("fanorona/engine/compiled.py", True),
        ("fanorona/engine/scoring.py", True),
        ("fanorona/geometry.py", True),
        ("fanorona/notation.py", False),
    ],
)
def test_make_lab_compiles_again_after_an_update_to_what_the_compiled_search_bakes_in(
    tmp_path, changed, sets_up_again
):
    """An update that leaves numba's cache stale makes ``make lab`` compile the search again, so
    the first kernel does not (about 45 s of waiting and 100 MB more); other edits set up
    nothing."""
    import os
    import time

    assert (ROOT / changed).exists(), changed
    stamp = tmp_path / ".installed-play"
    stamp.touch()
    later = time.time() + 3600  # newer than every file of the checkout
    os.utime(stamp, (later, later))
    lines = make_dry_run("-W", changed, str(stamp), f"VENV={tmp_path}")
    assert any("prepare compile" in line for line in lines) == sets_up_again, lines
