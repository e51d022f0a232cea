"""The course website (``make site``, build/site/) as a reader meets it, and Binder's configuration.

The site is served on localhost and every page is opened once in Chromium; the tests then look at
what each page asked for, logged and showed.  Without build/site/ the browser tests skip, except in
CI (CI=true), where ``make test`` builds the site first and a missing site is a failure.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import os
import re
import subprocess
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlparse

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "build" / "site"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
WIDGET = "application/vnd.jupyter.widget-view+json"
IMAGES = ("image/png", "image/jpeg", "image/svg+xml", "image/gif")
IN_CI = os.environ.get("CI") == "true"

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")
yaml = pytest.importorskip("yaml")


def need_site():
    if not (SITE / "index.html").exists():
        if IN_CI:
            pytest.fail("build/site/ is missing: in CI `make test` builds it first (make site)")
        pytest.skip("build/site/ is missing: run `make site` to build the website and test it")


def published(name: str) -> nbformat.NotebookNode:
    """The executed notebook the page was made from (the site offers it for download)."""
    return nbformat.read(SITE / "_sources" / "notebooks" / name, as_version=4)


def figures_made(nb) -> int:
    """Pictures a notebook makes: image outputs, and each widget (the board) shown, which a static
    page can only show as its picture."""
    return sum(
        1
        for cell in nb.cells
        for out in cell.get("outputs", [])
        if any(m in out.get("data", {}) for m in (*IMAGES, WIDGET))
    )


def board_has_a_picture() -> bool:
    """Whether the interactive board's display data carries an image/png (a picture where no
    kernel runs)."""
    import fanorona as fa

    data = fa.BoardWidget()._repr_mimebundle_()
    data = data[0] if isinstance(data, tuple) else data
    return "image/png" in data


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    need_site()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(SITE)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}/"
    httpd.shutdown()
    httpd.server_close()


def html_pages() -> list[str]:
    return sorted(
        str(p.relative_to(SITE)) for p in SITE.rglob("*.html") if p.parent.name != "_static"
    )


@pytest.fixture(scope="module")
def visits(server, browser):
    """Every page opened once in Chromium: what it requested, logged, showed and linked to."""
    found = {}
    context = browser.new_context()
    try:
        page = context.new_page()
        outside, errors, missing = [], [], []

        def route(r):
            host = urlparse(r.request.url).hostname
            if r.request.url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
                r.continue_()
            else:
                outside.append(r.request.url)
                r.abort()

        page.route("**/*", route)
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on(
            "response", lambda r: missing.append(f"{r.status} {r.url}") if r.status >= 400 else None
        )
        for name in html_pages():
            outside.clear(), errors.clear(), missing.clear()
            page.goto(server + name, wait_until="load")
            page.wait_for_load_state("networkidle")
            found[name] = {
                "outside": list(outside),
                "errors": list(errors),
                "missing": list(missing),
                "load_ms": page.evaluate(
                    "performance.getEntriesByType('navigation')[0].loadEventEnd"
                ),
                "images": page.eval_on_selector_all(
                    "article img",
                    "els => els.map(e => ({src: e.currentSrc, alt: e.alt, "
                    "width: e.naturalWidth, cell: !!e.closest('.cell_output')}))",
                ),
                "links": page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"),
                "text": page.inner_text("article") if page.query_selector("article") else "",
                "html": page.content(),
                "searches": page.eval_on_selector_all(
                    ".search-button-field", "els => els.filter(e => e.checkVisibility()).length"
                ),
            }
    finally:
        context.close()
    return found


def test_every_page_loads_from_localhost_alone_without_a_console_error(visits, capsys):
    assert len(visits) >= len(NOTEBOOKS) + 4
    with capsys.disabled():
        slowest = sorted(visits.items(), key=lambda kv: -kv[1]["load_ms"])
        print(
            f"\n{len(visits)} pages; load event (ms) of the slowest: "
            + ", ".join(f"{name} {v['load_ms']:.0f}" for name, v in slowest[:5])
            + f"; median {sorted(v['load_ms'] for v in visits.values())[len(visits) // 2]:.0f}"
        )
    assert {name: v["outside"] for name, v in visits.items() if v["outside"]} == {}
    assert {name: v["errors"] for name, v in visits.items() if v["errors"]} == {}
    assert {name: v["missing"] for name, v in visits.items() if v["missing"]} == {}, (
        "every file a page asks for is on the site (a favicon too)"
    )


def test_each_page_has_one_search_field_in_sight(visits):
    """The theme's header search and the sidebar's were two fields for one search."""
    assert {name: v["searches"] for name, v in visits.items() if v["searches"] != 1} == {}


def test_every_notebook_has_its_page_in_the_course_order(visits):
    index = visits["index.html"]["links"]
    pages = [urlparse(line).path.rsplit("/", 1)[-1] for line in index if "/notebooks/" in line]
    order = list(dict.fromkeys(pages))
    assert order == [p.stem + ".html" for p in NOTEBOOKS]


def test_each_notebook_page_shows_at_least_the_pictures_its_notebook_makes(visits):
    shown = {
        p.name: len(
            [i for i in visits[f"notebooks/{p.stem}.html"]["images"] if i["cell"] and i["width"]]
        )
        for p in NOTEBOOKS
    }
    made = {p.name: figures_made(published(p.name)) for p in NOTEBOOKS}
    if not board_has_a_picture():
        widgets = {
            p.name
            for p in NOTEBOOKS
            if any(
                WIDGET in o.get("data", {})
                for c in published(p.name).cells
                for o in c.get("outputs", [])
            )
        }
        assert {
            n: (shown[n], made[n]) for n in made if n not in widgets and shown[n] < made[n]
        } == {}
        pytest.xfail(
            "the board's display data has no picture yet: "
            + ", ".join(f"{n} shows {shown[n]} of {made[n]}" for n in sorted(widgets))
        )
    assert {n: (shown[n], made[n]) for n in made if shown[n] < made[n]} == {}
    assert sum(made.values()) >= 30


def test_the_widget_pages_show_the_boards_picture(visits):
    """Each board shown on pages 06 and play is on the page as its picture: the image file myst-nb
    wrote for the PNG in the board's display data (named after the SHA-256 of its bytes)."""
    boards = {
        name: [
            o
            for c in published(name).cells
            for o in c.get("outputs", [])
            if WIDGET in o.get("data", {})
        ]
        for name in ("06_interactive_board.ipynb", "play.ipynb")
    }
    assert all(boards.values())
    if not board_has_a_picture():
        pytest.xfail("the board's display data has no picture yet")
    for name, outputs in boards.items():
        shown = {
            Path(urlparse(i["src"]).path).stem
            for i in visits[f"notebooks/{Path(name).stem}.html"]["images"]
            if i["width"] > 100
        }
        for output in outputs:
            assert (
                hashlib.sha256(base64.b64decode(output.data["image/png"])).hexdigest() in shown
            ), name


def test_every_picture_says_what_it_shows(visits):
    """Alt text that is words, not a file name or a hash."""
    bad = {}
    for name, v in visits.items():
        for image in v["images"]:
            alt = image["alt"].strip()
            if len(alt) < 8 or re.search(r"\.(png|svg|jpe?g)$|[0-9a-f]{32}", alt):
                bad.setdefault(name, []).append(alt)
    assert bad == {}


def test_no_page_carries_widget_state_or_a_cdn_script(visits):
    for name, v in visits.items():
        assert "application/vnd.jupyter.widget-state+json" not in v["html"], name
        assert not re.search(r"<(script|link)[^>]+(src|href)=\"(https?:)?//", v["html"]), name


def test_every_internal_link_resolves(visits, server):
    ids = {}
    missing = set()
    for name, v in visits.items():
        for link in v["links"]:
            url = urlparse(link)
            if not link.startswith(server) or url.path.endswith("/_sources/") or not url.path:
                continue
            target = SITE / unquote(url.path[1:])
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                missing.add((name, link))
            elif url.fragment and target.suffix == ".html":
                if target not in ids:
                    ids[target] = set(
                        re.findall(r'id="([^"]+)"', target.read_text(encoding="utf-8"))
                    )
                if unquote(url.fragment) not in ids[target]:
                    missing.add((name, link))
    assert missing == set()


def test_each_notebook_page_has_a_binder_button_for_its_notebook(visits):
    for path in NOTEBOOKS:
        links = visits[f"notebooks/{path.stem}.html"]["links"]
        assert any(
            line.startswith("https://mybinder.org/v2/")
            and line.endswith(f"urlpath=lab/tree/notebooks/{path.name}")
            for line in links
        ), path.name


def test_the_search_finds_withdrawal_on_the_rules_pages(server, browser):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server + "notebooks/00_start_here.html")
        page.keyboard.press("Control+K")  # the theme's search box opens
        page.fill("#pst-search-dialog input[name=q]", "withdrawal")
        page.keyboard.press("Enter")
        page.wait_for_url("**/search.html?q=withdrawal**")
        page.wait_for_selector("#search-results li", timeout=15000)
        found = page.eval_on_selector_all("#search-results li a", "els => els.map(e => e.href)")
    finally:
        context.close()
    pages = {urlparse(line).path.rsplit("/", 1)[-1] for line in found}
    assert {"03_moves_and_captures.html", "05_full_rules.html"} <= pages


def solution_lines(path: Path) -> list[str]:
    """Distinctive lines of a notebook's solutions: inside a solution region and nowhere else in
    it (not even within a line of the text, which may quote a call the solution makes)."""
    nb = nbformat.read(path, as_version=4)
    inside, outside = [], []
    for cell in nb.cells:
        region = False
        for line in cell.source.splitlines():
            if "### BEGIN SOLUTION" in line or "### END SOLUTION" in line:
                region = "BEGIN" in line
                continue
            (inside if region else outside).append(line.strip())
    elsewhere = "\n".join(outside)
    return [line for line in inside if len(line) > 25 and line not in elsewhere]


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if solution_lines(p)], ids=lambda p: p.stem)
def test_the_pages_show_the_students_version_of_each_exercise(visits, path):
    page = visits[f"notebooks/{path.stem}.html"]["text"]
    assert "raise NotImplementedError()" in page and "YOUR CODE HERE" in page
    assert [line for line in solution_lines(path) if line in page] == []
    source = json.dumps(published(path.name).cells)
    assert "BEGIN SOLUTION" not in source


def test_the_api_reference_documents_the_public_names(visits):
    text = visits["api.html"]["text"]
    for name in (
        "fanorona.Board",
        "fanorona.engine.ai.AlphaBetaPlayer",
        "fanorona.engine.ai.level",
        "fanorona.ui.controller.Model",
        "fanorona.exercises.Checker",
        "fanorona.positions.load",
        "BoardWidget",
    ):
        assert name in text, name


def test_every_page_of_docs_is_on_the_site_under_its_purpose(visits):
    """The how-to guides, the reference and the explanations are each a page, with their title."""
    folders = ("how-to", "reference", "explanation")
    pages = [p for folder in folders for p in sorted((ROOT / "docs" / folder).glob("*.md"))]
    assert len(pages) >= 10, pages
    for page in pages:
        title = page.read_text(encoding="utf-8").splitlines()[0].removeprefix("# ")
        html = f"{page.relative_to(ROOT).with_suffix('.html').as_posix()}"
        assert html in visits, html
        assert visits[html]["text"].startswith(title.replace("`", "")), html
    assert 'w.load_position("both-ways")' in visits["docs/how-to/demonstrate-in-class.html"]["text"]
    assert "docs/explanation/architecture.html" in visits
    if (ROOT / "docs" / "teachers-guide.md").exists():
        assert "docs/teachers-guide.html" in visits


# -- the build itself ------------------------------------------------------------------------------


def test_a_guides_links_to_files_off_the_site_point_at_the_repository(monkeypatch):
    """The teacher's guide sits in docs/ and links like a file of the repository; on the site, links
    to pages and pictures of the site stay, other files become the repository's.
    """
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import build_site
    finally:
        sys.path.remove(str(ROOT / "docs"))
    monkeypatch.setenv("FANORONA_REPOSITORY_URL", "https://github.com/someone/fanorona.git")
    monkeypatch.setenv("FANORONA_REPOSITORY_BRANCH", "spring")
    text = (
        "See [3](../notebooks/03_moves_and_captures.ipynb#a-step),"
        " [class](how-to/tournament.md),"
        " [make](../Makefile), [checkers](../fanorona/exercises/__init__.py),"
        " [web](https://example.org/x) and [below](#plan)."
    )
    assert (
        build_site.link_outside_pages(text, ROOT / "docs")
        == "See [3](../notebooks/03_moves_and_captures.ipynb#a-step),"
        " [class](how-to/tournament.md),"
        " [make](https://github.com/someone/fanorona/blob/spring/Makefile),"
        " [checkers](https://github.com/someone/fanorona/blob/spring/"
        "fanorona/exercises/__init__.py),"
        " [web](https://example.org/x) and [below](#plan)."
    )


@pytest.mark.slow
def test_a_build_with_no_change_runs_no_notebook(capsys):
    """Run last in this module: it rebuilds build/site/ in place, which changes nothing."""
    need_site()
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "build_site.py")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    seconds = time.perf_counter() - start
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"0 notebooks executed, {len(NOTEBOOKS)} from the cache" in done.stdout
    assert "pages unchanged: nothing to render" in done.stdout
    with capsys.disabled():
        print(f"\nno-change rebuild: {seconds:.1f} s")


# -- Binder ----------------------------------------------------------------------------------------


def requirements(texts) -> dict[str, str]:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    return {canonicalize_name(r.name): str(r.specifier) for r in map(Requirement, texts)}


def test_binder_installs_the_runtime_packages_only_on_a_pinned_python():
    entries = yaml.safe_load((ROOT / "binder" / "environment.yml").read_text())["dependencies"]
    assert all(isinstance(e, str) for e in entries), (
        "no pip section: the package comes from postBuild"
    )
    python = [e for e in entries if e.split("=")[0] == "python"]
    assert python == ["python=3.11"]  # repo2docker reads python=X.Y, not python>=X.Y
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    runtime = requirements(
        project["dependencies"]
        + extras["play"]
        + extras["fast"]
        + extras["tournament"]
        + extras["lobby"]
    )
    assert requirements([e for e in entries if e not in python]) == runtime
    post_build = (ROOT / "binder" / "postBuild").read_text()
    assert re.search(r"pip install --no-deps[^\n]* \.$", post_build, re.M)
    for script in ("postBuild", "start"):
        assert os.access(ROOT / "binder" / script, os.X_OK), script


def test_binder_start_puts_the_jupyter_settings_on_the_search_paths(tmp_path):
    shown = subprocess.run(
        [
            "bash",
            str(ROOT / "binder" / "start"),
            "bash",
            "-c",
            'echo "$JUPYTER_CONFIG_PATH|$JUPYTER_PATH"',
        ],
        env={**os.environ, "REPO_DIR": str(ROOT), "JUPYTER_PATH": "/elsewhere"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    config, data = shown.split("|")
    assert (
        config.split(":")[0] == str(ROOT / "jupyter")
        and (ROOT / "jupyter" / "jupyter_server_config.json").exists()
    )
    assert data == f"{ROOT / 'jupyter'}:/elsewhere"


@pytest.mark.slow
def test_repo2docker_reads_binder_as_intended(tmp_path):
    """repo2docker's own reading (--no-build: the Dockerfile it would build, no Docker needed)."""
    try:
        import repo2docker  # noqa: F401
    except ImportError:
        if IN_CI:
            raise
        pytest.skip("repo2docker is not installed: `make site` installs it (the site extra)")
    done = subprocess.run(
        [sys.executable, "-m", "repo2docker", "--no-build", "--no-run", "--debug", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout + done.stderr
    assert "python=3.11" in out
    lines = out.splitlines()
    env_copy = next(
        i
        for i, line in enumerate(lines)
        if line.startswith("COPY") and "binder/environment.yml" in line
    )
    repo_copy = next(
        i for i, line in enumerate(lines) if re.match(r"COPY .*src/ \$\{REPO_DIR\}/?$", line)
    )
    post_build = next(
        i
        for i, line in enumerate(lines)
        if "./binder/postBuild" in line and line.startswith("RUN ./")
    )
    assert (
        env_copy < repo_copy < post_build
    )  # the environment layer is built before the repository arrives
    assert any('R2D_ENTRYPOINT="${REPO_DIR}/binder/start"' in line for line in lines)
    assert not any(
        "requirements.txt" in line or ("environment.yml" in line and "binder/" not in line)
        for line in lines
        if line.startswith("COPY")
    )


def test_the_build_backend_floor_reads_a_licence_string():
    """``license = "MIT"`` (a PEP 639 expression) needs setuptools 77; 65.5 failed on it."""
    from packaging.requirements import Requirement

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert isinstance(data["project"]["license"], str)
    setuptools = next(
        Requirement(r) for r in data["build-system"]["requires"] if r.startswith("setuptools")
    )
    assert not setuptools.specifier.contains("76.9") and setuptools.specifier.contains("77.0")
