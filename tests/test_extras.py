"""The core imports nothing of an extra: with every extra's packages missing, each module of the
package imports, except the extras' own, and those say in one sentence which extra to install."""

import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
MODULE_OF = {"pillow": "PIL", "ipython": "IPython", "dask": "dask", "jupyterhub-idle-culler": None}

# the modules that belong to an extra, and the extra each names
OF_AN_EXTRA = {
    "fanorona.lobby": "lobby",
    "fanorona.tournament.cluster": "tournament",
    "fanorona.grading.preprocessor": "course",
}

IMPORT_ALL = """
import importlib, json, pkgutil, sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None   # as if not installed: import fails, find_spec answers None
import fanorona
found = {}
for module in pkgutil.walk_packages(fanorona.__path__, "fanorona."):
    try:
        importlib.import_module(module.name)
    except ImportError as error:
        found[module.name] = str(error)
print(json.dumps(found))
"""


def extra_modules() -> list[str]:
    """The top-level modules of every extra's packages that the core does not also require."""
    core = {Requirement(t).name.lower() for t in PROJECT["dependencies"]}
    names = set()
    for texts in PROJECT["optional-dependencies"].values():
        for text in texts:
            name = Requirement(text).name.lower()
            if name in core or name == "fanorona":
                continue
            module = MODULE_OF.get(name, name.replace("-", "_"))
            if module:
                names.add(module)
    return sorted(names | {"distributed", "nbconvert", "nbformat"})


def test_the_core_imports_with_every_extra_missing():
    import json

    blocked = extra_modules()
    assert {"numba", "voila", "jupyterlab", "nbgrader", "dask", "websockets"} <= set(blocked)
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, ",".join(blocked)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    failed = json.loads(done.stdout.splitlines()[-1])
    parents = {name for name in failed if any(name.startswith(m) for m in OF_AN_EXTRA)}
    assert set(failed) == parents, f"core modules that import an extra: {set(failed) - parents}"
    for module, extra in OF_AN_EXTRA.items():
        assert module in failed, module
        sentence = failed[module]
        assert f"pip install 'fanorona[{extra}]'" in sentence, sentence
        assert sentence.count(". ") == 0 and "\n" not in sentence, sentence


def test_the_core_requires_no_server():
    names = {Requirement(t).name.lower() for t in PROJECT["dependencies"]}
    servers = {"jupyterlab", "notebook", "voila", "jupyter-server", "jupyterhub", "nbgrader"}
    assert not names & servers


# Each Makefile target installs the kit with its own role's extras and no other.
ROLES = {
    "lab": {"play", "fast", "tournament", "lobby"},
    "student": {"course"},
    "course": {"course"},
    "grade-demo": {"course"},
    "hub": {"hub"},
    "tournament-demo": {"tournament"},
    "lobby": {"lobby"},
    "lobby-demo": {"lobby"},
    "test": {"test"},
}


@pytest.mark.parametrize("target", sorted(ROLES))
def test_each_target_installs_its_roles_extras_only(target):
    import re

    from conftest import make_dry_run

    lines = make_dry_run("-B", target, "CI=")  # in CI, make test also builds the site first
    extras = set()
    for line in lines:
        for found in re.findall(r"pip install[^|;]*?-e '\.\[([a-z,]+)\]'", line):
            extras |= set(found.split(","))
    assert extras, lines
    # lab's fallback line (numba missing) names a subset of the same roles
    assert extras == ROLES[target], (target, extras)
    if target != "test":
        assert "test" not in extras
