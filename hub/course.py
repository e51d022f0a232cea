"""The course hub's folders and settings, and nbgrader run as one of its users.

Everything the hub writes lives in one state folder (``build/hub`` by default): the users' homes
(``home/<name>``), nbgrader's exchange (``exchange/``), the instructors' course folder in the
grader account's home (``home/grader-fanorona/fanorona``), the hub's database and secrets.  The
hub's configuration, ``make hub``, the tests and the benchmark all read the layout from here, so
they agree on where a student's files are.

Two modes share this layout.  The trial (``make hub``): separate homes under one Unix user
(``SimpleLocalProcessSpawner``), nothing added to the machine's users, and students NOT separated
from each other.  A real class (``accounts``, ``FANORONA_HUB_ACCOUNTS=1``, ``python -m hub class``):
one Unix account per student with its own home (``LocalProcessSpawner``), the course folder in the
grader account's home, nbgrader's exchange with the permissions nbgrader documents
(``hub.accounts``, docs/how-to/deploy-a-real-class.md).
"""

from __future__ import annotations

import atexit
import csv
import hashlib
import json
import multiprocessing
import multiprocessing.connection
import os
import pwd
import resource
import sys
import tempfile
import threading
from dataclasses import dataclass
from multiprocessing import forkserver
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
COURSE = "fanorona"
#: The account the instructors' shared formgrader runs as (nbgrader's one-class, many-graders
#: setup): the course folder is in its home, and the hub serves it as the service ``fanorona``.
GRADER = f"grader-{COURSE}"
#: nbgrader's group names: instructors reach the formgrader, students see the course.
INSTRUCTORS = f"formgrade-{COURSE}"
STUDENTS = f"nbgrader-{COURSE}"
#: In user servers the formgrader and the assignment editor are off (they belong to the course's
#: grader service): the server extension and JupyterLab's plugins.
STUDENT_SERVER_CONFIG = {
    "ServerApp": {"jpserver_extensions": {"nbgrader.server_extensions.formgrader": False}}
}
STUDENT_PAGE_CONFIG = {
    "disabledExtensions": {
        "@jupyter/nbgrader:formgrader": True,
        "@jupyter/nbgrader:create-assignment": True,
    }
}
TERMINAL_RC = """# A terminal of the course hub: a login shell's settings, then the kit's Python.
[ -r /etc/profile ] && . /etc/profile
[ -r "$HOME/.bashrc" ] && . "$HOME/.bashrc"
export PATH="{bin}:$PATH"
"""
PORTS = {"port": 8000, "hub_port": 8081, "proxy_api_port": 8001, "grader_port": 8002}


@dataclass(frozen=True)
class Layout:
    """Where the hub keeps everything, from its state folder."""

    state: Path
    #: A real class: every user is a Unix account, whose home is the system's.
    accounts: bool = False

    @classmethod
    def from_environment(cls) -> Layout:
        state = Path(os.environ.get("FANORONA_HUB_STATE", ROOT / "build" / "hub")).resolve()
        return cls(state, os.environ.get("FANORONA_HUB_ACCOUNTS") == "1")

    @property
    def private(self) -> Path:
        """The hub's own files (its database with the users' tokens, its cookie secret, pid
        files): a folder only the hub's account reads."""
        return self.state / "private"

    @property
    def homes(self) -> Path:
        return self.state / "home"

    @property
    def exchange(self) -> Path:
        return self.state / "exchange"

    @property
    def course(self) -> Path:
        return self.home(GRADER) / COURSE

    @property
    def student_config(self) -> Path:
        """The Jupyter configuration folder every user server reads (``JUPYTER_CONFIG_PATH``)."""
        return self.state / "etc" / "users"

    @property
    def grader_config(self) -> Path:
        return self.state / "etc" / "grader"

    def home(self, user: str) -> Path:
        if self.accounts:
            return Path(pwd.getpwnam(user).pw_dir)
        return self.homes / user

    @property
    def terminal_rc(self) -> Path:
        """What a terminal of a hub server runs first: the system's login settings, then the
        kit's Python first on PATH (a login shell's /etc/profile resets PATH without it)."""
        return self.state / "etc" / "terminal.sh"

    @property
    def runtime(self) -> Path:
        """Where the users' kernels put their IPC sockets: a short folder in the system's
        temporary one, since a socket's path must stay under 108 bytes and homes can be deep."""
        digest = hashlib.sha1(str(self.state).encode()).hexdigest()[:10]
        return Path(tempfile.gettempdir()) / f"fanorona-hub-{digest}"


def ports() -> dict[str, int]:
    """The hub's ports, each from ``FANORONA_HUB_<NAME>`` if set (the tests pick free ones)."""
    return {
        name: int(os.environ.get(f"FANORONA_HUB_{name.upper()}", n)) for name, n in PORTS.items()
    }


def nbgrader_settings(layout: Layout, course_root: Path | None = None) -> str:
    """nbgrader's settings for every account on the hub: the course and the exchange (and, for
    the grader account, where the course folder is)."""
    lines = [
        "c = get_config()  # noqa: F821",
        f"c.CourseDirectory.course_id = {COURSE!r}",
        f"c.Exchange.root = {str(layout.exchange)!r}",
    ]
    if course_root is None and not layout.accounts:
        # One Unix user for every student: nbgrader would take the OS name for each (as it does
        # for everyone but ``jovyan``), so a student's exchange name is their hub name.
        lines.insert(0, "import os")
        lines.append('c.CourseDirectory.student_id = os.environ.get("JUPYTERHUB_USER", "*")')
    elif course_root is not None:
        lines.append(f"c.CourseDirectory.root = {str(course_root)!r}")
    if course_root is not None and layout.accounts:
        # A submission counts only if its student sent it (hub.exchange).
        lines[1:1] = ["import sys", f"sys.path.insert(0, {str(ROOT)!r})"]
        lines.append('c.ExchangeFactory.collect = "hub.exchange.OwnedCollect"')
    return "\n".join(lines) + "\n"


def prepare(layout: Layout) -> None:
    """Make the state folder: the exchange open to every account (nbgrader's documented mode),
    the settings folders, and the course folder built from notebooks/ (as ``make course``) if it
    is not there yet; a course folder already there is kept with its gradebook."""
    from fanorona.exercises.__main__ import course

    layout.state.mkdir(parents=True, exist_ok=True)
    layout.state.chmod(0o711)  # students reach the exchange and the settings, list nothing
    layout.private.mkdir(exist_ok=True)
    layout.private.chmod(0o700)
    if not layout.accounts:
        layout.homes.mkdir(parents=True, exist_ok=True)
    layout.exchange.mkdir(parents=True, exist_ok=True)
    # nbgrader's documented exchange: writable by every account; the sticky bit keeps one
    # account from renaming or removing another's entries.
    layout.exchange.chmod(0o1777)
    layout.terminal_rc.parent.mkdir(parents=True, exist_ok=True)
    layout.terminal_rc.write_text(TERMINAL_RC.format(bin=BIN))
    shell = ["/bin/bash", "--rcfile", str(layout.terminal_rc), "-i"]
    terminal = {"terminado_settings": {"shell_command": shell}}
    for folder, course_root in (
        (layout.student_config, None),
        (layout.grader_config, layout.course),
    ):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "nbgrader_config.py").write_text(nbgrader_settings(layout, course_root))
    server = {"ServerApp": {**STUDENT_SERVER_CONFIG["ServerApp"], **terminal}}
    (layout.student_config / "jupyter_server_config.json").write_text(json.dumps(server, indent=1))
    (layout.grader_config / "jupyter_server_config.json").write_text(
        json.dumps({"ServerApp": terminal}, indent=1)
    )
    (layout.student_config / "labconfig").mkdir(exist_ok=True)
    (layout.student_config / "labconfig" / "page_config.json").write_text(
        json.dumps(STUDENT_PAGE_CONFIG, indent=1)
    )
    if not layout.accounts and not (layout.course / "nbgrader_config.py").exists():
        course(ROOT / "notebooks", layout.course, ROOT / "nbgrader_config.py")


def user_environment(layout: Layout, user: str) -> dict[str, str]:
    """The environment a hub user's processes get: their name and home, the hub's Jupyter
    settings, the kit's Python first on PATH (what the spawner gives their server)."""
    config = layout.grader_config if user == GRADER else layout.student_config
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("JUPYTER", "JPY_", "NBGRADER"))
    }
    env.update(
        USER=user,
        LOGNAME=user,
        JUPYTERHUB_USER=user,
        HOME=str(layout.home(user)),
        JUPYTER_CONFIG_PATH=str(config),
        JUPYTER_RUNTIME_DIR=str(layout.runtime / user),
        PATH=os.pathsep.join([str(BIN), env.get("PATH", "")]),
    )
    if layout.accounts:
        del env["JUPYTER_RUNTIME_DIR"]  # the account's own, in its home
    env.pop("MPLBACKEND", None)
    return env


#: Where every nbgrader command forks from: a process that imported nbgrader and the course's
#: grader once.  A fresh ``python -m nbgrader`` spends about 5 CPU seconds importing them (10 for
#: the grader's settings), most of a fetch's or a submit's cost; a fork of this one does not.
WARM = multiprocessing.get_context("forkserver")
#: Held while a command starts and while it is reaped: multiprocessing's start polls every child
#: started before, and two threads reading one child's exit status through the fork server
#: leave one of them with a false 255.
CHILDREN = threading.Lock()
PRELOAD = ["nbgrader.apps.nbgraderapp", "fanorona.exercises", "fanorona.grading.preprocessor"]


def warm_up() -> None:
    """Start the process nbgrader's commands fork from, if it is not running (it imports in the
    background: call this early, e.g. while the hub starts)."""
    WARM.set_forkserver_preload(PRELOAD)
    forkserver.ensure_running()


@dataclass(frozen=True)
class Done:
    """A finished nbgrader command: its exit status, what it printed, the CPU seconds it and its
    children used."""

    args: tuple[str, ...]
    returncode: int
    output: str
    cpu: float


def nbgrader_main(args: tuple[str, ...], env: dict[str, str], cwd: str, log: str, cpu) -> None:
    """``nbgrader ARGS`` in this forked process, as a fresh interpreter would run it: the user's
    environment and folder, the output (its children's too) into ``log``, exit handlers run."""
    from nbgrader.apps.nbgraderapp import main

    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    with open(log, "w") as out:
        os.dup2(out.fileno(), 1)
        os.dup2(out.fileno(), 2)
    sys.argv = ["nbgrader", *args]
    try:
        main()
    finally:
        atexit._run_exitfuncs()  # a multiprocessing child ends without them
        sys.stdout.flush()
        sys.stderr.flush()
        used = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
        cpu.value = sum(u.ru_utime + u.ru_stime for u in used)


def run_as(
    layout: Layout,
    user: str,
    *args: str,
    cwd: Path | None = None,
    check: bool = True,
    timeout: float = 3600,
) -> Done:
    """Run ``nbgrader ARGS`` as hub user ``user`` (their environment, in their home unless
    ``cwd``): what the user types in a terminal of their server.  RuntimeError with nbgrader's
    output if it fails and ``check``, or if it runs longer than ``timeout`` seconds."""
    home = layout.home(user)
    home.mkdir(parents=True, exist_ok=True)
    warm_up()
    with tempfile.NamedTemporaryFile("r", suffix=".log") as log:
        cpu = WARM.Value("d", 0.0)
        process = WARM.Process(
            target=nbgrader_main,
            args=(args, user_environment(layout, user), str(cwd or home), log.name, cpu),
        )
        with CHILDREN:
            process.start()
        late = not multiprocessing.connection.wait([process.sentinel], timeout)
        if late:
            process.kill()
        with CHILDREN:
            process.join()
        done = Done(args, process.exitcode, log.read(), cpu.value)
    if late or (check and done.returncode != 0):
        why = f"stopped after {timeout:g} s" if late else f"exit status {done.returncode}"
        raise RuntimeError(
            f"nbgrader {' '.join(args)} as {user} failed ({why}):\n{done.output[-3000:]}"
        )
    return done


def write_class_list(path: Path, students: list[str]) -> Path:
    """A class list as ``nbgrader db student import`` reads it: id, first and last name, email."""
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["id", "first_name", "last_name", "email"])
        for n, student in enumerate(students, 1):
            writer.writerow([student, "Student", f"Number {n}", f"{student}@example.org"])
    return path
