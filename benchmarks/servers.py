"""Jupyter servers and the browser for the browser tests and the latency benchmark: Chromium's path
and options, a free port, a JupyterLab folder and its command line, and a server started with this
checkout's fanorona importable by its kernels.

Every server runs in a process group of its own and is stopped however its starter ends: on
leaving ``serving`` (any exception, Ctrl-C included), at interpreter exit (``atexit``), on SIGTERM
(turned into KeyboardInterrupt, so the ``finally`` blocks run), and, when the starter is killed
outright, by the kernel itself (``setpriv --pdeathsig``); a Jupyter kernel whose server is gone
stops on its own (ipykernel watches its parent)."""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Debian's Chromium (Playwright's own download does not work here), and how it is started: headless
#: in a container, without the background traffic that would add noise to timings.
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lab_folder(folder: Path, notebooks: dict[str, list[str]]) -> None:
    """Write the notebooks into ``folder`` (see ``write_notebooks``), and JupyterLab's settings
    there without the news toast that would cover the page."""
    write_notebooks(folder, notebooks)
    settings = folder / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')


def write_notebooks(folder: Path, notebooks: dict[str, list[str]]) -> None:
    """Write each notebook (its name, its code cells' sources) into ``folder`` with the Python
    kernel."""
    import nbformat

    for name, cells in notebooks.items():
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
        notebook.metadata["kernelspec"] = dict(KERNELSPEC)
        nbformat.write(notebook, folder / name)


def lab_command(folder: Path, port: int) -> list[str]:
    """JupyterLab on ``folder`` at 127.0.0.1:``port``: no token, no browser opened, its workspaces
    and settings in the folder, the app exposed to the page's scripts (``window.jupyterapp``)."""
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        "--no-browser",
        f"--port={port}",
        "--ServerApp.ip=127.0.0.1",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--LabApp.expose_app_in_browser=True",
        f"--ServerApp.root_dir={folder}",
        f"--LabApp.workspaces_dir={folder / 'workspaces'}",
        f"--LabApp.user_settings_dir={folder / 'settings'}",
        "--ServerApp.open_browser=False",
    ]
    if os.geteuid() == 0:
        command.append("--allow-root")
    return command


def voila_command(notebook: Path | str, port: int) -> list[str]:
    """Voila serving ``notebook`` at 127.0.0.1:``port``, no browser opened."""
    return [
        sys.executable,
        "-m",
        "voila",
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        str(notebook),
    ]


@contextlib.contextmanager
def serving(
    command: list[str], url: str, log: Path, timeout: float = 180, kit_settings: bool = False
):
    """Run a server in the log's folder, its output in ``log``, with this checkout's fanorona
    importable; enter once ``url`` answers, stop it (terminate, then kill) on leaving.  A server
    that stops or does not answer in ``timeout`` seconds raises RuntimeError with its log's end.
    ``kit_settings``: with the settings in jupyter/ that ``make play`` and ``make lab`` use."""
    env = dict(
        os.environ,
        JUPYTER_PLATFORM_DIRS="1",
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    if kit_settings:
        env["JUPYTER_CONFIG_PATH"] = env["JUPYTER_PATH"] = str(ROOT / "jupyter")
    env.pop("MPLBACKEND", None)
    process = start(command, log, env=env, cwd=log.parent)
    try:
        wait_until_answers(url, process, log, timeout)
        yield
    finally:
        stop(process)


#: The servers started here and not yet stopped, for the exit handler.
RUNNING: set[subprocess.Popen] = set()


def start(
    command: list[str], log: Path, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.Popen:
    """Start ``command`` in a new process group, its output in ``log``; it gets SIGTERM when the
    thread that started it dies, however (``setpriv``'s parent-death signal, where installed)."""
    watch_for_termination()
    prefix = ["setpriv", "--pdeathsig", "TERM", "--"] if shutil.which("setpriv") else []
    with open(log, "w") as out:
        process = subprocess.Popen(
            prefix + command,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
    RUNNING.add(process)
    return process


def stop(process: subprocess.Popen, grace: float = 30) -> None:
    """SIGTERM to the process's group (a Jupyter server then shuts its kernels down), SIGKILL to
    what is left of it after ``grace`` seconds."""
    RUNNING.discard(process)
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        try:
            process.wait(wait)
        except subprocess.TimeoutExpired:
            continue
        with contextlib.suppress(ProcessLookupError):  # the group's other members, if any
            os.killpg(process.pid, signal.SIGKILL)
        return


@atexit.register
def _stop_all() -> None:
    for process in list(RUNNING):
        stop(process, grace=10)


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def watch_for_termination() -> None:
    """Make SIGTERM raise KeyboardInterrupt in the main thread (where nobody else handles it), so
    a terminated run unwinds through its ``finally`` blocks and fixtures like Ctrl-C does."""
    if threading.current_thread() is threading.main_thread() and (
        signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    ):
        signal.signal(signal.SIGTERM, _interrupt)


def wait_until_answers(url: str, process: subprocess.Popen, log: Path, timeout: float = 180):
    """Return once ``url`` answers 200; RuntimeError with the log's end if the server ``process``
    stops first or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while not _answers(url):
        if process.poll() is not None:
            raise RuntimeError(
                f"the server stopped with code {process.returncode}:\n{log.read_text()[-3000:]}"
            )
        if time.monotonic() > deadline:
            raise RuntimeError(
                f"the server did not answer {url} within {timeout} s:\n{log.read_text()[-3000:]}"
            )
        time.sleep(0.5)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status == 200
    except OSError:
        return False
