"""A version of the kit built from the repository, to play against over the player protocol.

``build("v0.2.0")`` (a tag, a branch, a commit) checks the commit out into a ``git worktree`` of
its own under the builds folder (``~/.cache/fanorona/builds``), makes it a virtual environment
and installs that checkout into it with ``pip install --no-deps``: the environment reuses this
environment's third-party packages (numpy, numba, ...) through a ``.pth`` line, so nothing is
downloaded, while ``fanorona`` itself is the one of the commit.  A commit from before the protocol
(no ``fanorona/engine/serve.py``) gets today's ``protocol.py`` and ``serve.py`` copied in; they
use only the kit's public API.  ``WORKTREE`` is this checkout as it is, in this environment.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

WORKTREE = "WORKTREE"
ROOT = Path(__file__).resolve().parent.parent
BUILDS = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "fanorona" / "builds"
#: What a commit from before the protocol gets from the working tree to serve its players.
PROTOCOL_FILES = ("fanorona/engine/protocol.py", "fanorona/engine/serve.py")


@dataclass(frozen=True)
class Build:
    """One version of the kit, ready to serve its players."""

    ref: str  # as asked for
    commit: str  # the full commit, or WORKTREE
    python: str  # the interpreter of its environment
    folder: Path
    overlaid: bool  # today's protocol files copied in (a commit from before the protocol)

    def serve(self, spec: str) -> list[str]:
        """The command that serves ``spec`` (``level5``, ``alphabeta:depth=4``, ...) of this
        version."""
        return [self.python, "-m", "fanorona.engine.serve", spec]

    @property
    def label(self) -> str:
        short = self.commit if self.commit == WORKTREE else self.commit[:10]
        return self.ref if self.ref == short else f"{self.ref} ({short})"


def _git(*args: str, cwd: Path = ROOT) -> str:
    run = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if run.returncode:
        raise ValueError(f"git {' '.join(args)}: {run.stderr.strip() or 'failed'}")
    return run.stdout.strip()


def commit_of(ref: str) -> str:
    """The commit ``ref`` names, or a ``ValueError`` saying it names none."""
    try:
        return _git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except ValueError:
        raise ValueError(f"{ref!r} names no commit of {ROOT}") from None


def build(ref: str, builds: Path = BUILDS, log=print) -> Build:
    """The version ``ref`` names, checked out and installed once (later calls reuse it)."""
    if ref == WORKTREE:
        return Build(ref, WORKTREE, sys.executable, ROOT, overlaid=False)
    commit = commit_of(ref)
    folder = Path(builds) / commit[:16]
    python = folder / ".venv" / "bin" / "python"
    done = folder / ".built"
    if done.exists():
        return Build(ref, commit, str(python), folder, (folder / ".overlaid").exists())
    log(f"building {ref} ({commit[:10]}) in {folder}")
    if folder.exists():  # a build stopped halfway: start it again
        subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT)
        shutil.rmtree(folder, ignore_errors=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    _git("worktree", "add", "--detach", str(folder), commit)
    overlaid = not (folder / PROTOCOL_FILES[1]).exists()
    if overlaid:
        for name in PROTOCOL_FILES:
            shutil.copyfile(ROOT / name, folder / name)
        (folder / ".overlaid").write_text("today's protocol files copied in\n")
    # no pip or setuptools of its own: this environment's (newer) ones come through the .pth
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(folder / ".venv")], check=True
    )
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # this environment's packages, after the build's own: its fanorona comes first
    Path(site, "_fanorona_reuse.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps"] + [str(folder)],
        check=True,
        cwd=folder,
    )
    done.write_text(commit + "\n")
    return Build(ref, commit, str(python), folder, overlaid)


def remove(build_: Build) -> None:
    """Remove a build's worktree and environment."""
    if build_.commit != WORKTREE:
        subprocess.run(["git", "worktree", "remove", "--force", str(build_.folder)], cwd=ROOT)
