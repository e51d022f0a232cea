"""Build the course website in build/site/ (``make site``): the notebooks executed, as students
get them.

Run as ``python docs/build_site.py [--solutions] [--out DIR]``.  Three steps:

1. execute every notebook of ``notebooks/`` in a fresh kernel, through jupyter-cache (the cache
   myst-nb uses): a notebook whose code is unchanged is not run again.  The cache lives in a folder
   named after a fingerprint of the package, so a change to ``fanorona/`` runs them all again;
2. publish a copy of each: nbgrader's own ``ClearSolutions`` replaces each solution region by its
   stub (unless ``--solutions``), the outputs of solution cells go, widget state goes, and every
   picture gets alt text (see ``alt_text``);
3. Sphinx (myst-nb, sphinx-book-theme, autodoc) renders them with the pages of ``docs/``, by
   purpose: how-to guides (``docs/how-to/``, and the teacher's guide), reference
   (``docs/reference/`` and the API), explanation (``docs/explanation/``, with ARCHITECTURE.md);
   configuration in ``docs/conf.py``.

A published notebook carries the key it was made with (its source, the package, this script), and
files are rewritten only when their content changes; Sphinx is started only when something it reads
changed (``render_stamp``).  A second build with no change runs nothing again.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
NOTEBOOKS = ROOT / "notebooks"
BUILD = ROOT / "build"
#: Files copied as they are (index.md too, less the guide's line when there is no guide), with
#: their place on the site.
PAGES = {
    DOCS / "api.md": "api.md",
    DOCS / "board.png": "docs/board.png",
    ROOT / "ARCHITECTURE.md": "docs/explanation/architecture.md",
}
#: The folders of docs/ whose Markdown pages (and pictures) the site publishes where they are, so
#: that their links to each other hold: the guides, the reference and the explanations.
FOLDERS = ("how-to", "reference", "explanation")
#: The teacher's guide, written separately; the site includes it when it exists.
GUIDE = "teachers-guide.md"
#: Pages of docs/ itself published beside the guide.
LOOSE = ("culture.md", "tutorials.md", "licence.md")
#: Kernel environment of the build: progress bars print nothing (no widget left on the page).
KERNEL_ENV = {"TQDM_DISABLE": "1"}
# : ... and the same for bars made with ``disable=False``; figures get alt text
# (docs/site_kernel.py).
KERNEL_SETUP = f"--IPKernelApp.exec_files={DOCS / 'site_kernel.py'}"
#: Seconds one notebook may run (they take under 20 s each; a busy machine may triple that).
TIMEOUT = 600
GENERIC_REPR = re.compile(r"^<(Figure|matplotlib)\b.*>$|^(HBox|VBox|Canvas|Output)\(")


def package_fingerprint() -> str:
    """Short hash of the package's source and of the build kernel's set-up: the notebooks' results
    depend on them as much as on their own code."""
    digest = hashlib.sha256()
    for path in [*sorted((ROOT / "fanorona").rglob("*")), DOCS / "site_kernel.py"]:
        if path.suffix in {".py", ".css"}:
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` unless the file holds it already (Sphinx then sees no change)."""
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


# -- 1. execution, through the cache ------------------------------------------------------------


def open_cache(folder: Path):
    """The jupyter-cache in ``folder``, named after the package's fingerprint; the caches of other
    versions beside it are removed."""
    from jupyter_cache import get_cache

    if folder.parent.is_dir():
        for old in folder.parent.iterdir():
            if old != folder:
                shutil.rmtree(old, ignore_errors=True)
    return get_cache(folder)


def execute(path: Path, cache) -> tuple[nbformat.NotebookNode, float | None]:
    """The notebook with its outputs, from the cache when its code is unchanged; else run it and
    cache it.
    Returns the notebook and the seconds it ran (None when it came from the cache)."""
    from jupyter_cache.base import CacheBundleIn
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    try:
        return cache.merge_match_into_notebook(nb)[1], None
    except KeyError:
        pass
    start = time.perf_counter()
    saved = {k: os.environ.get(k) for k in KERNEL_ENV}
    os.environ.update(KERNEL_ENV)  # the kernel inherits the environment of this process
    try:
        NotebookClient(
            nb,
            timeout=TIMEOUT,
            kernel_name="python3",
            extra_arguments=[KERNEL_SETUP],
            record_timing=False,
            resources={"metadata": {"path": str(path.parent)}},
        ).execute()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    seconds = time.perf_counter() - start
    nb.metadata["kernelspec"] = nbformat.read(path, as_version=4).metadata.get("kernelspec", {})
    cache.cache_notebook_bundle(
        CacheBundleIn(nb, str(path), data={"execution_seconds": seconds}),
        check_validity=False,
        overwrite=True,
    )  # keyed by its code as committed
    return nb, seconds


# -- 2. the published copy -----------------------------------------------------------------------

IMAGE_TYPES = ("image/png", "image/jpeg", "image/svg+xml", "image/gif")
WIDGET = "application/vnd.jupyter.widget-view+json"


def first_sentence(markdown: str) -> str:
    """The first sentence of a markdown cell's prose, without headings, markup or links' targets."""
    prose = " ".join(
        line for line in markdown.splitlines() if line.strip() and not line.lstrip().startswith("#")
    )
    prose = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", prose)
    prose = re.sub(r"[*_`]", "", prose).strip()
    match = re.match(r"(.+?[.!?:])(\s|$)", prose)
    return (match.group(1) if match else prose)[:300].rstrip(":").strip()


def alt_text(output, cell, previous_markdown: str) -> tuple[str, str]:
    """What a picture shows, in words, and where the words came from.  In order: the alt text the
    code gave the picture (IPython's ``Image(alt=...)``), the cell's ``caption`` metadata (or
    myst-nb's ``mystnb.figure.caption`` / ``mystnb.image.alt``), the object's own text when it says
    more than its type (a board's position), the cell's first comment, the sentence that introduces
    the cell.
    """
    for mime in IMAGE_TYPES:
        alt = output.get("metadata", {}).get(mime, {}).get("alt")
        if alt:
            return str(alt), "code"
    meta = cell.get("metadata", {})
    mystnb = meta.get("mystnb", {})
    for alt in (
        meta.get("caption"),
        mystnb.get("figure", {}).get("caption"),
        mystnb.get("image", {}).get("alt"),
    ):
        if alt:
            return str(alt), "caption"
    text = output.get("data", {}).get("text/plain", "")
    board = re.fullmatch(r"Board\.from_fen\('([^']*)'\)", text.strip())
    if board:
        rows, side = (
            board.group(1).rsplit(" ", 1) if " " in board.group(1) else (board.group(1), "")
        )
        mover = {"w": ", White to move", "b": ", Black to move"}.get(side, "")
        return f"A Fanorona board, rows from the top: {rows}{mover}", "object"
    if text and not GENERIC_REPR.match(text.strip()) and len(text) < 200:
        return text.strip(), "object"
    comment = next(
        (
            line.lstrip("# ").strip()
            for line in cell.source.splitlines()
            if line.startswith("#") and line.lstrip("# ").strip()
        ),
        "",
    )
    if comment:
        return comment, "comment"
    return first_sentence(previous_markdown) or "A figure of the notebook", "markdown"


def publish(
    nb: nbformat.NotebookNode, solutions: bool
) -> tuple[nbformat.NotebookNode, list[tuple[str, str]]]:
    """The copy the site shows: student version of the exercises, no widget state, alt text on every
    picture.  Returns it and, for each picture, (where its alt text came from, the text)."""
    if not solutions:
        from nbgrader.preprocessors import ClearSolutions

        nb, _ = ClearSolutions().preprocess(nb, {})
        for cell in nb.cells:
            if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution"):
                cell.outputs, cell.execution_count = [], None  # a stub shows no answer
    nb.metadata.pop("widgets", None)
    pictures = []
    previous = ""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            previous = cell.source
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET in data and not any(m in data for m in IMAGE_TYPES):
                data.pop(
                    "text/plain", None
                )  # a widget with no picture of itself: its repr says nothing
            for mime in IMAGE_TYPES:
                if mime in output.get("data", {}):
                    alt, source = alt_text(output, cell, previous)
                    output.setdefault("metadata", {}).setdefault(mime, {})["alt"] = alt
                    pictures.append((source, alt))
    return nb, pictures


# -- 3. the pages -------------------------------------------------------------------------------


PLACEHOLDER = "https://github.com/OWNER/fanorona"


def repository() -> tuple[str, str]:
    """The repository Binder and the links to files outside the site point at, and its branch:
    FANORONA_REPOSITORY_URL, else the git remote 'origin' when it is on GitHub or GitLab (a clone of
    a local folder has no address Binder could reach), else a placeholder."""
    url = os.environ.get("FANORONA_REPOSITORY_URL", "")
    if not url:
        found = subprocess.run(
            ["git", "config", "--get", "remote.origin.url"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.strip()
        if found.startswith("git@"):
            found = "https://" + found[4:].replace(":", "/", 1)
        if found.startswith(("https://github.com/", "https://gitlab.com/")):
            url = found
    return (url or PLACEHOLDER).removesuffix(".git"), os.environ.get(
        "FANORONA_REPOSITORY_BRANCH", "main"
    )


LINK = re.compile(r"(\]\()([^)\s#]*)(#[^)\s]*)?(\))")


def link_outside_pages(text: str, where: Path) -> str:
    """A page's links to repository files the site does not publish (the Makefile, a module) point
    at them in the repository; links to the site's own pages and pictures stay.  ``where``: the
    page's folder in the repository."""
    url, branch = repository()

    def fix(m):
        target, anchor = m.group(2), m.group(3) or ""
        if not target or re.match(r"[a-z][a-z0-9+.-]*:", target):
            return m.group(0)
        try:
            path = (where / target).resolve().relative_to(ROOT).as_posix()
        except ValueError:
            return m.group(0)
        if (path.startswith("notebooks/") and path.endswith(".ipynb")) or (
            path.startswith("docs/") and path.endswith((".md", ".png"))
        ):
            return m.group(0)
        return f"{m.group(1)}{url}/blob/{branch}/{path}{anchor}{m.group(4)}"

    return LINK.sub(fix, text)


def prepare(src: Path, cache_root: Path, solutions: bool) -> dict:
    """Write the site's sources into ``src``; returns what it did, for the build's summary."""
    from tqdm import tqdm

    fingerprint = package_fingerprint()
    cache = None
    report = {"executed": {}, "cached": 0, "pictures": []}
    notebooks = sorted(NOTEBOOKS.glob("*.ipynb"))
    for path in tqdm(notebooks, desc="notebooks", unit="nb", disable=None):
        target = src / "notebooks" / path.name
        key = hashlib.sha256(
            b"%s %s %d " % (fingerprint.encode(), Path(__file__).read_bytes(), solutions)
            + path.read_bytes()
        ).hexdigest()
        if target.exists() and json.loads(target.read_bytes())["metadata"].get("site_build") == key:
            report["cached"] += 1  # published from this very notebook, package and script
            continue
        cache = cache or open_cache(cache_root / fingerprint)
        nb, seconds = execute(path, cache)
        if seconds is None:
            report["cached"] += 1
        else:
            report["executed"][path.name] = seconds
        nb, pictures = publish(nb, solutions)
        nb.metadata["site_build"] = key
        report["pictures"] += [(path.name, *p) for p in pictures]
        write_if_changed(target, nbformat.writes(nb).encode())
    wanted = {src / "notebooks" / p.name for p in notebooks}
    for stale in (src / "notebooks").glob("*.ipynb"):
        if stale not in wanted:
            stale.unlink()
    pages = [DOCS / name for name in LOOSE if (DOCS / name).exists()]
    for folder in FOLDERS:
        pages += sorted((DOCS / folder).glob("*.md")) + sorted((DOCS / folder).glob("*.png"))
    for page in pages:  # at docs/ as in the repository, so their relative links hold
        place = src / page.relative_to(ROOT)
        place.parent.mkdir(parents=True, exist_ok=True)
        data = page.read_bytes()
        if page.suffix == ".md":
            data = link_outside_pages(data.decode("utf-8"), page.parent).encode()
        write_if_changed(place, data)
    guide = DOCS / GUIDE
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    if guide.exists():  # at docs/ as in the repository, so its relative links hold
        write_if_changed(
            src / "docs" / GUIDE,
            link_outside_pages(guide.read_text(encoding="utf-8"), DOCS).encode(),
        )
    else:
        index = (
            "\n".join(line for line in index.splitlines() if line.strip() != "docs/teachers-guide")
            + "\n"
        )
        (src / "docs" / GUIDE).unlink(missing_ok=True)
    write_if_changed(src / "index.md", index.encode())
    for path, place in PAGES.items():
        data = path.read_bytes()
        if path.suffix == ".md":
            data = link_outside_pages(data.decode("utf-8"), ROOT / Path(place).parent).encode()
        (src / place).parent.mkdir(parents=True, exist_ok=True)
        write_if_changed(src / place, data)
    from rules_sheet import main as rules_sheet  # beside this file: the page links the sheet

    with tempfile.TemporaryDirectory() as scratch:  # kept untouched when the same: its time counts
        rules_sheet([str(Path(scratch) / "rules-sheet.pdf")])
        write_if_changed(
            src / "docs" / "rules-sheet.pdf", (Path(scratch) / "rules-sheet.pdf").read_bytes()
        )
    return report


def render_stamp(src: Path, out: Path) -> str:
    """What the rendered pages depend on: the sources as written (unchanged files keep their time),
    the configuration and extension, the package's docstrings, the repository the buttons name, the
    renderers' versions.  Equal stamps: Sphinx would find nothing out of date, and is not started.
    """
    from importlib.metadata import version

    digest = hashlib.sha256(f"{out.resolve()} {repository()} {package_fingerprint()}".encode())
    for tool in ("sphinx", "myst-nb", "sphinx-book-theme"):
        digest.update(version(tool).encode())
    for path in [DOCS / "conf.py", *sorted((DOCS / "_ext").glob("*.py"))]:
        digest.update(path.read_bytes())
    for path in sorted(p for p in src.rglob("*") if p.is_file()):
        digest.update(
            f"{path.relative_to(src)} {path.stat().st_mtime_ns} {path.stat().st_size}".encode()
        )
    return digest.hexdigest()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--solutions",
        action="store_true",
        help="publish the teacher's version, solutions included (for the instructor only)",
    )
    parser.add_argument(
        "--out",
        default=None,
        help="folder for the site (default build/site, or build/site-solutions)",
    )
    args = parser.parse_args(argv)
    name = "site-solutions" if args.solutions else "site"
    out = Path(args.out) if args.out else BUILD / name
    src, doctrees = BUILD / f"{name}-src", BUILD / f"{name}-doctrees"
    if repository()[0] == PLACEHOLDER:
        print(
            f"note: the Binder buttons point at {PLACEHOLDER}: set FANORONA_REPOSITORY_URL to the"
            " course's repository"
        )
    start = time.perf_counter()
    report = prepare(src, BUILD / "site-cache", args.solutions)
    prepared = time.perf_counter() - start
    for nb, seconds in report["executed"].items():
        print(f"  executed {nb} in {seconds:.1f} s")
    print(
        f"{len(report['executed'])} notebooks executed, {report['cached']} from the cache"
        f" ({prepared:.1f} s)"
    )
    fallback = [p for p in report["pictures"] if p[1] == "markdown"]
    print(
        f"{len(report['pictures'])} pictures, {len(fallback)} described by the sentence before"
        " their cell"
    )
    stamp, stamp_file = render_stamp(src, out), doctrees / "fanorona-site.stamp"
    if (out / "index.html").exists() and stamp_file.exists() and stamp_file.read_text() == stamp:
        print("pages unchanged: nothing to render")
    else:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "sphinx",
                "-b",
                "html",
                "-q",
                "-c",
                str(DOCS),
                "-d",
                str(doctrees),
                str(src),
                str(out),
            ]
        )
        if done.returncode:
            raise SystemExit(done.returncode)
        stamp_file.write_text(stamp)
    print(f"Site in {out} ({time.perf_counter() - start:.1f} s): open {out / 'index.html'}")


if __name__ == "__main__":
    main()
