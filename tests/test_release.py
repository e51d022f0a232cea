"""The release as a course author gets it: the wheel and the sdist built by ``python -m build``,
checked by twine and by their listed contents, then the wheel installed into fresh virtual
environments as pip does it: one with only JupyterLab (no server package added, the course copied
out and its notebooks run under nbval), and one with JupyterLab 4.0 and the oldest versions the
kit declares, on the oldest Python it supports.

These make virtual environments and call pip (minutes): ``make test-release`` runs them
(FANORONA_TEST_RELEASE=1); ``make test`` leaves them out.
"""

import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10 has no tomllib; tomli is the same parser
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        os.environ.get("FANORONA_TEST_RELEASE") != "1",
        reason="builds and installs the release (minutes): make test-release runs it",
    ),
]

#: Packages that are (or start) a server: none may come with the core.
SERVERS = {
    "voila",
    "jupyterhub",
    "nbgrader",
    "notebook",
    "jupyterlab",
    "jupyter-server",
    "uvicorn",
    "starlette",
    "dask",
    "distributed",
    "websockets",
}
#: The notebooks run in the JupyterLab-only environment: 00 to 10 and 13 to 15 (11 and 12 need
#: the tournament and lobby extras, ``play`` the Voila one).
RUN = re.compile(r"^(0\d|10|1[3-5])[a-z]?_.*\.ipynb$")
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
#: JupyterLab 4.0 with the oldest servers it accepts (its own lower bounds).
JUPYTERLAB_40 = ["jupyterlab==4.0.*", "jupyter-server==2.4.0", "jupyterlab-server==2.19.0"]
MINIMUM = re.compile(r"^([A-Za-z0-9_.-]+)(?:\[[^]]*\])?>=([0-9][^,;<> ]*)")


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def run(*command, cwd=None, timeout=1800, env=None) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [str(c) for c in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    assert done.returncode == 0, (
        f"{' '.join(map(str, command))}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """The sdist and the wheel, built as ``python -m build`` builds them (the wheel from the
    sdist, so the sdist must hold all the wheel needs)."""
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--outdir", out, ROOT, cwd=ROOT)
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return wheel, sdist


def venv(path: Path, python: str = sys.executable) -> Path:
    run(python, "-m", "venv", path)
    return path / "bin"


#: Where a package switches a server extension on for every user of the environment.
SWITCHED = ("server", "notebook")


def switched_on(folders: list[Path]) -> list[str]:
    return sorted(p.name for folder in folders if folder.is_dir() for p in folder.iterdir())


def installed(bin_: Path) -> dict[str, str]:
    listed = run(bin_ / "python", "-m", "pip", "list", "--format=freeze").stdout
    return {normal(n): v for n, _, v in (line.partition("==") for line in listed.splitlines())}


def test_twine_passes_both(dist):
    run(sys.executable, "-m", "twine", "check", "--strict", *dist)


def test_the_wheel_holds_the_package_and_the_course_and_nothing_else(dist):
    wheel, _ = dist
    names = set(zipfile.ZipFile(wheel).namelist())
    course = {n.split("course_files/", 1)[1] for n in names if "/course_files/" in n}
    expected = {f"notebooks/{n}" for n in NOTEBOOKS}
    expected |= {f"notebooks/{p.name}" for p in (ROOT / "notebooks").glob("*.json")}
    assert course == expected | {"nbgrader_config.py"}
    for name in course:
        packed = zipfile.ZipFile(wheel).read(f"fanorona/course_files/{name}")
        assert packed == (ROOT / name).read_bytes(), f"{name} is the repository's"
    data = {"fanorona/engine/puzzles.json", "fanorona/ui/widget.css"}
    assert data <= names and any(n.startswith("fanorona/lobby/pages/") for n in names)
    tops = {n.split("/", 1)[0] for n in names}
    assert tops == {
        "fanorona",
        wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info",
    }
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "fanorona").rglob("*.py")}
    assert modules <= names, "every module of the package"


def test_the_wheels_core_requires_no_server(dist):
    wheel, _ = dist
    with zipfile.ZipFile(wheel) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    core = [
        normal(re.match(r"[A-Za-z0-9_.-]+", line.split(": ", 1)[1]).group())
        for line in meta.splitlines()
        if line.startswith("Requires-Dist: ") and "extra ==" not in line
    ]
    assert core and not set(core) & SERVERS


def test_the_sdist_holds_what_builds_the_wheel_and_no_more(dist):
    _, sdist = dist
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for needed in [
        "setup.py",
        "pyproject.toml",
        "MANIFEST.in",
        "LICENSE",
        "README.md",
        "nbgrader_config.py",
    ]:
        assert needed in names
    assert {f"notebooks/{n}" for n in NOTEBOOKS} <= names
    tops = {n.split("/", 1)[0] for n in names}
    assert tops <= {
        "setup.py",
        "pyproject.toml",
        "MANIFEST.in",
        "LICENSE",
        "README.md",
        "PKG-INFO",
        "setup.cfg",
        "nbgrader_config.py",
        "notebooks",
        "fanorona",
        "fanorona.egg-info",
    }


def test_in_a_jupyterlab_only_environment_the_wheel_adds_no_server_and_the_course_runs(
    dist, tmp_path
):
    wheel, _ = dist
    bin_ = venv(tmp_path / "env")
    run(bin_ / "python", "-m", "pip", "install", "--quiet", "jupyterlab")
    servers = [tmp_path / "env" / "etc" / "jupyter" / f"jupyter_{s}_config.d" for s in SWITCHED]
    config_before = switched_on(servers)
    before = installed(bin_)
    run(bin_ / "python", "-m", "pip", "install", "--quiet", wheel)
    after = installed(bin_)
    added = set(after) - set(before)
    print("the wheel added:", sorted(added))
    assert "fanorona" in added and not added & SERVERS
    assert all(after[n] == before[n] for n in before), "nothing JupyterLab had was changed"
    assert switched_on(servers) == config_before, "no server extension switched on"
    run(bin_ / "python", "-m", "pip", "check")

    course = tmp_path / "course"
    copied = run(bin_ / "python", "-m", "fanorona", "course", course, cwd=tmp_path)
    assert f"wrote {course / 'nbgrader_config.py'}" in copied.stdout
    chosen = [n for n in NOTEBOOKS if RUN.match(n)]
    assert len(chosen) == 16 and "11_tournament.ipynb" not in chosen
    run(bin_ / "python", "-m", "pip", "install", "--quiet", "pytest", "nbval", "pytest-xdist")
    run(
        bin_ / "python",
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-n",
        "2",
        "--dist",
        "loadfile",  # a notebook's cells on one worker, in order
        "--nbval",
        "--nbval-current-env",
        *chosen,
        cwd=course / "notebooks",
        timeout=3600,
    )


def oldest_python() -> str | None:
    """The oldest Python the kit supports (requires-python), if this machine has one that runs."""
    version = PYPROJECT["project"]["requires-python"].removeprefix(">=")
    pyenv = sorted((Path.home() / ".pyenv" / "versions").glob(f"{version}.*/bin/python3"))
    candidates = [os.environ.get("FANORONA_OLDEST_PYTHON"), *map(str, pyenv)]
    candidates.append(shutil.which(f"python{version}"))
    for found in filter(None, candidates):
        asked = subprocess.run(
            [found, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True, text=True
        )
        if asked.returncode == 0 and asked.stdout.strip() == str(
            tuple(map(int, version.split(".")))
        ):
            return found
    return None


def oldest_pins() -> list[str]:
    """The core's lower bounds from pyproject.toml, each pinned."""
    pins = []
    for text in PYPROJECT["project"]["dependencies"]:
        found = MINIMUM.match(text.replace(" ", ""))
        assert found, f"the core dependency {text!r} has no lower bound"
        pins.append(f"{found.group(1)}=={found.group(2)}")
    return pins


def test_with_jupyterlab_40_and_the_oldest_versions_declared_the_board_plays(dist, tmp_path):
    python = oldest_python()
    if python is None:
        pytest.skip("no Python of requires-python's lowest version here (FANORONA_OLDEST_PYTHON)")
    wheel, _ = dist
    bin_ = venv(tmp_path / "env", python)
    pins = tmp_path / "oldest.txt"
    pins.write_text("\n".join(oldest_pins() + JUPYTERLAB_40) + "\n")
    run(
        bin_ / "python",
        "-m",
        "pip",
        "install",
        "--quiet",
        "--only-binary=:all:",
        "-c",
        pins,
        "jupyterlab==4.0.*",
        wheel,
    )
    got = installed(bin_)
    for pin in pins.read_text().split():
        name, version = pin.split("==")
        assert SpecifierSet(f"=={version}").contains(got[normal(name)]), (pin, got[normal(name)])
    run(bin_ / "python", "-m", "pip", "check")
    course = tmp_path / "course"
    run(bin_ / "python", "-m", "fanorona", "course", course)
    run(bin_ / "python", "-m", "pip", "install", "--quiet", "pytest", "nbval")
    run(
        bin_ / "python",
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--nbval",
        "--nbval-current-env",
        "00_start_here.ipynb",
        "06_interactive_board.ipynb",
        cwd=course / "notebooks",
    )
