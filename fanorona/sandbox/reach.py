"""A Python an unprivileged user can run, for runs without namespaces as root.

Without bubblewrap nothing can show the Python installation elsewhere, and one under a private
home (``~/.pyenv`` in a ``/root`` of mode 0700) cannot be entered by the sandbox's user id.  So
root builds, once, a mirror of it in a folder open to all (hard links where the file system
allows, else copies: every file stays root's and read-only to others) and a virtual environment
there whose site-packages are the running one's; the run is then pointed at the mirror.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

#: Where root keeps the mirrors: root's own, open to all, written only by root.
HOME = Path("/var/cache/fanorona-sandbox")


def open_to_others(path: Path) -> bool:
    """Whether every folder above ``path`` (and ``path`` itself, if a folder) lets others in."""
    for folder in [path, *path.parents]:
        if folder.is_dir() and not os.stat(folder).st_mode & 0o001:
            return False
    return True


def _venv_site() -> Path:
    return Path(sysconfig.get_path("purelib"))


def _key() -> str:
    binary = Path(sys.executable).resolve()
    state = os.stat(binary)
    text = f"{sys.base_prefix}|{sys.prefix}|{binary}|{state.st_mtime_ns}|{state.st_size}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _safe_home() -> Path:
    """The mirrors' folder, made if missing; refused unless root's and written only by root."""
    HOME.mkdir(mode=0o755, parents=True, exist_ok=True)
    state = os.lstat(HOME)
    if state.st_uid != 0 or state.st_mode & 0o022 or not HOME.is_dir() or HOME.is_symlink():
        raise OSError(f"{HOME} must be a folder of root's that only root can write to")
    return HOME


def _link_tree(source: Path, target: Path, skip: tuple[str, ...] = ()) -> None:
    """Copy ``source`` to ``target`` as hard links (copies across file systems), folders 0755."""

    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst, follow_symlinks=False)
        except OSError:
            shutil.copy2(src, dst, follow_symlinks=False)

    shutil.copytree(
        source,
        target,
        symlinks=True,
        copy_function=link,
        ignore=shutil.ignore_patterns(*skip),
    )
    for folder, _dirs, _files in os.walk(target):
        os.chmod(folder, 0o755)


def _build(target: Path, final: Path) -> None:
    """The base installation (less its site-packages under a venv) and a venv on the running
    one's, built in ``target`` to be renamed ``final``."""
    base = Path(sys.base_prefix).resolve()
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    (target / "base" / "lib").mkdir(parents=True)
    _link_tree(base / "bin", target / "base" / "bin", skip=("__pycache__",))
    in_venv = sys.prefix != sys.base_prefix
    skip = ("site-packages",) if in_venv else ()  # a venv's own replace the base's
    _link_tree(base / "lib" / version, target / "base" / "lib" / version, skip=skip)
    (target / "base" / "lib" / version / "site-packages").mkdir(exist_ok=True)
    for library in (base / "lib").glob("libpython*"):
        if library.is_file() or library.is_symlink():
            os.link(library, target / "base" / "lib" / library.name, follow_symlinks=False)
    venv = target / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "lib").mkdir()
    binary = Path(sys.executable).resolve()
    os.symlink(f"../../base/bin/{binary.name}", venv / "bin" / "python")
    site = _venv_site()
    if not in_venv:  # the base's own site-packages, mirrored with it
        (venv / "lib" / version).mkdir()
        base_site = f"../../../base/lib/{version}/site-packages"
        os.symlink(base_site, venv / "lib" / version / "site-packages")
    elif open_to_others(site):
        (venv / "lib" / version).mkdir()
        os.symlink(site, venv / "lib" / version / "site-packages")
    else:
        _link_tree(site.parent, venv / "lib" / version)
    (venv / "pyvenv.cfg").write_text(
        f"home = {final / 'base' / 'bin'}\ninclude-system-site-packages = false\n"
        f"version = {'.'.join(map(str, sys.version_info[:3]))}\n"
    )
    for folder, _dirs, _files in os.walk(target):
        os.chmod(folder, 0o755)


def mirror() -> Path:
    """The mirror of the running Python, built once (two builders at once: one rename wins)."""
    home = _safe_home()
    target = home / _key()
    if (target / "venv" / "pyvenv.cfg").exists():
        return target
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=home))
    try:
        _build(building / "tree", target)
        with contextlib.suppress(OSError):  # another process got there first: its tree is kept
            os.rename(building / "tree", target)
    finally:
        shutil.rmtree(building, ignore_errors=True)
    os.chmod(target, 0o755)
    return target


def needed() -> bool:
    """Whether an unprivileged user could not run this Python as it is installed."""
    paths = [Path(sys.executable), Path(sys.base_prefix), Path(sys.prefix), _venv_site()]
    paths.append(Path(sys.executable).resolve())
    return not all(open_to_others(path) for path in paths)


def translation(target: Path) -> dict[str, str]:
    """How the running Python's paths read in the mirror: the venv's first, then the base's."""
    base = str(target / "base")
    venv = str(target / "venv")
    found = {sys.executable: f"{venv}/bin/python", sys.prefix: venv}
    found |= {str(Path(sys.executable).resolve()): f"{venv}/bin/python"}
    found |= {sys.base_prefix: base, str(Path(sys.base_prefix).resolve()): base}
    return found


def rewrite(text: str, table: dict[str, str]) -> str:
    """``text`` (an argument or a variable) with a path of the running Python in the mirror's."""
    for host in sorted(table, key=len, reverse=True):
        if text == host or text.startswith(f"{host}/"):
            return table[host] + text[len(host) :]
    return text
