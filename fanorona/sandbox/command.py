"""The command line that isolates one run: bubblewrap where namespaces are allowed, else rlimits,
its own session and a private folder only.

Both wrap the command in ``prlimit`` (util-linux), which sets the rlimits on the command itself
after the spawn, so nothing runs between fork and exec in the calling process (Dask workers have
threads).  As root the command drops to a user id of its own with ``setpriv``.
"""

from __future__ import annotations

import functools
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from .limits import Limits

BWRAP = "bwrap"  # found on PATH, where a distribution or an instructor put it
#: ``FANORONA_SANDBOX=rlimits`` runs without namespaces even where they are allowed (the tests
#: of that path, or a machine where bubblewrap misbehaves).
FORCE_VARIABLE = "FANORONA_SANDBOX"
UID_RANGE = (1_000_000, 2_000_000)  # user ids of sandboxed runs, far from any real user's
PACKAGE = Path(__file__).resolve().parent.parent  # the fanorona package, bound read-only
NAMESPACES = "own network, pid, ipc and mount namespaces"
#: How the memory of a run's whole process tree is limited (``process.Running.tree``).
MEMORY = "the memory of its whole process tree summed from /proc and held to the limit by a watcher"
WITH = (
    f"bubblewrap: {NAMESPACES}; private /tmp and /dev/shm; Python and the package read-only;"
    f" rlimits; {MEMORY}"
)
WITHOUT = (
    "no namespaces here (a container without them): rlimits, its own session and a private"
    f" folder only; no network or file-system isolation; {MEMORY}"
)
#: The host's directories a Python process needs besides the Python installation itself.
SYSTEM = ("/usr", "/etc/ld.so.cache", "/etc/alternatives", "/etc/localtime")
#: The folders the sandbox makes private and empty, and where it shows a folder of Python or the
#: package that lies in one of them on the host (a clone in /tmp): shown in its place, it would be
#: seen in the private folder.
PRIVATE = (Path("/tmp"), Path("/dev/shm"))
MOVED = Path("/run/fanorona-host")


def forced_off() -> bool:
    return os.environ.get(FORCE_VARIABLE, "") == "rlimits"


def bubblewrap_path() -> str | None:
    return shutil.which(BWRAP)


def bubblewrap_works() -> bool:
    """Whether bubblewrap is on PATH and can make its namespaces here (a container may forbid
    them)."""
    found = bubblewrap_path()
    return found is not None and _probe(found)


@functools.cache
def _probe(bwrap: str) -> bool:
    """Tried once for each bubblewrap found."""
    probe = [bwrap, *namespace_flags(), "--ro-bind", "/usr", "/usr", *_links(), "/usr/bin/true"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def uses_namespaces(wanted: bool | None = None) -> bool:
    """``wanted`` None: bubblewrap wherever it works and is not turned off by the variable."""
    if wanted is None:
        wanted = not forced_off()
    return wanted and bubblewrap_works()


def isolation(namespaces: bool | None = None) -> str:
    """One line saying which isolation a run gets on this machine."""
    inside = uses_namespaces(namespaces)
    found = WITH if inside else WITHOUT
    own = os.geteuid() == 0 or inside
    return found + ("; a user id of its own" if own else "; it runs as the calling user")


def namespace_flags() -> list[str]:
    flags = ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts"]
    flags += ["--unshare-cgroup-try", "--die-with-parent", "--new-session"]
    if os.geteuid() != 0:  # an unprivileged bubblewrap needs a user namespace for the others
        flags += ["--unshare-user", "--disable-userns"]
    return flags


def _links() -> list[str]:
    """Debian's merged /usr: /bin, /lib, ... are links into it."""
    links = []
    for name in ("bin", "sbin", "lib", "lib64", "lib32", "libx32"):
        target = Path("/", name)
        if target.is_symlink():
            links += ["--symlink", os.readlink(target), str(target)]
        elif target.is_dir():
            links += ["--ro-bind", str(target), str(target)]
    return links


def python_paths() -> list[Path]:
    """The Python installation, its virtual environment and the package: read-only inside."""
    found = {
        Path(p).resolve()
        for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)
    }
    found |= {Path(sys.executable).resolve().parent.parent, PACKAGE}
    return sorted(p for p in found if not p.is_relative_to("/usr"))


def inside(path: Path) -> Path:
    """Where the sandbox shows the host's folder ``path`` of Python or the package: in its place,
    unless that is in a folder the sandbox makes private (``PRIVATE``), then under ``MOVED``."""
    if any(path.is_relative_to(private) for private in PRIVATE):
        return MOVED / path.relative_to(path.anchor)
    return path


def inside_text(text: str) -> str:
    """An argument or variable that names a file of Python or the package (``sys.executable``, a
    library folder), as the sandbox shows it."""
    for path in python_paths():
        shown = inside(path)
        if shown != path and (text == str(path) or text.startswith(f"{path}/")):
            return str(shown) + text[len(str(path)) :]
    return text


def _folders(paths: Iterable[Path]) -> list[str]:
    """Directories made 0755 for the binds below them (bubblewrap makes them 0700 as root); the
    ones that are there already (/tmp, /dev) keep their own."""
    made: list[str] = []
    for path in paths:
        for parent in reversed(path.parents):
            name = str(parent)
            if name not in ("/", "/tmp", "/dev", "/dev/shm", *made):
                made.append(name)
    flags: list[str] = []
    for name in made:
        flags += ["--perms", "0755", "--dir", name]
    return flags


def bubblewrap(
    readable: list[Path], env: dict[str, str], tmp_bytes: int, package: bool = True
) -> list[str]:
    """bubblewrap's arguments up to the command: a new root holding only what Python needs, and
    the package itself unless ``package`` is False (then an empty folder stands in its place).
    Python and the package are shown where ``inside`` says; the ``readable`` paths in their
    place, a file in /tmp too (the caller asked for it)."""
    binds = [(path, inside(path)) for path in python_paths()] + [(p, p) for p in readable]
    args = [bubblewrap_path() or BWRAP, *namespace_flags(), "--hostname", "sandbox"]
    for system in SYSTEM:
        args += ["--ro-bind-try", system, system]
    args += [*_links(), "--proc", "/proc", "--dev", "/dev"]
    for private in PRIVATE:  # before the binds, so a readable file in /tmp shows
        args += ["--perms", "1777", "--size", str(tmp_bytes), "--tmpfs", str(private)]
    args += _folders(shown for _host, shown in binds)
    for host, shown in binds:
        args += ["--ro-bind", str(host), str(shown)]
    if not package:  # after the binds, so it hides the package wherever it is installed
        hidden = str(inside(PACKAGE))
        args += ["--perms", "0555", "--tmpfs", hidden, "--remount-ro", hidden]
    args += ["--chdir", "/tmp", "--clearenv"]
    for key, value in env.items():
        args += ["--setenv", key, value]
    return [*args, "--"]


def rlimits(limits: Limits) -> list[str]:
    """``prlimit`` setting the limits on the command it runs: at the soft CPU limit SIGXCPU, a
    second later SIGKILL."""
    cpu = max(1, round(limits.cpu + 0.49))
    return [
        shutil.which("prlimit") or "/usr/bin/prlimit",
        f"--cpu={cpu}:{cpu + 1}",
        f"--as={limits.memory}",
        f"--nproc={limits.processes}",
        f"--fsize={limits.file_size}",
        f"--nofile={limits.open_files}",
        "--core=0",
        "--",
    ]


def new_uid() -> int | None:
    """A user id of this run alone when the caller is root (who must never run untrusted code);
    None for anyone else, whose own id is already unprivileged."""
    if os.geteuid() != 0:
        return None
    return UID_RANGE[0] + secrets.randbelow(UID_RANGE[1] - UID_RANGE[0])


def as_user(uid: int) -> list[str]:
    """``setpriv`` becoming ``uid``, with no groups, capabilities or ways to gain them."""
    return [
        shutil.which("setpriv") or "/usr/bin/setpriv",
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--no-new-privs",
        "--",
    ]
