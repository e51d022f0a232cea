"""The course hub as a process: started with its settings in the environment, stopped however the
caller ends (the tests, the benchmark and ``make hub`` share it)."""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import secrets
import shutil
import signal
import ssl
import subprocess
import time
import urllib.request
from pathlib import Path

from .course import BIN, GRADER, ROOT, Layout

CONFIG = Path(__file__).resolve().parent / "jupyterhub_config.py"
PROXY = Path(__file__).resolve().parent / "node_modules" / ".bin" / "configurable-http-proxy"


def hub_environment(layout: Layout, ports: dict[str, int], **settings: str) -> dict[str, str]:
    """The environment ``jupyterhub_config.py`` reads: the state folder, the ports, and
    ``FANORONA_HUB_<NAME>`` for every other setting given."""
    env = dict(os.environ, FANORONA_HUB_STATE=str(layout.state))
    env["PATH"] = os.pathsep.join([str(BIN), env.get("PATH", "")])
    env.update({f"FANORONA_HUB_{name.upper()}": str(value) for name, value in ports.items()})
    env.update({f"FANORONA_HUB_{name.upper()}": value for name, value in settings.items()})
    return env


@contextlib.contextmanager
def running_hub(
    layout: Layout,
    ports: dict[str, int],
    log: Path,
    timeout: float = 420,
    prefix: tuple[str, ...] = (),
    **settings,
):
    """Start JupyterHub with this configuration (its command after ``prefix``, e.g. ``nsenter``),
    enter once its API answers, and stop it (and the servers and services it started) on leaving.
    RuntimeError with the log's end if the hub stops or does not answer in ``timeout`` seconds;
    one sentence if the proxy is missing."""
    if not PROXY.exists():
        raise RuntimeError(
            f"the proxy is not installed: run `npm ci --prefix {PROXY.parents[2]}` "
            "(make hub does it)"
        )
    layout.state.mkdir(parents=True, exist_ok=True)
    scheme = "https" if os.environ.get("FANORONA_HUB_SSL_CERT") else "http"
    url = f"{scheme}://127.0.0.1:{ports['port']}/hub/api/"
    with open(log, "w") as out:
        process = subprocess.Popen(
            [*prefix, str(BIN / "jupyterhub"), "-f", str(CONFIG)],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=hub_environment(layout, ports, accounts="1" if layout.accounts else "", **settings),
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + timeout
        while not answers(url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the hub did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.5)
        yield process
    finally:
        stop(process, layout)


def stop(process: subprocess.Popen, layout: Layout) -> None:
    """SIGTERM to the hub (it stops its servers, services and proxy), then its whole group, then
    whatever still runs in the state folder: the spawner starts each server in a session of its
    own, and a kernel can outlive its server."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(60)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)
    for pid in running_in(layout.state) + (running_as(class_accounts(layout))):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    shutil.rmtree(layout.runtime, ignore_errors=True)


def running_in(folder: Path) -> list[int]:
    """The processes whose working folder is in ``folder`` (the servers and kernels of its
    users)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if Path(os.readlink(entry / "cwd")).is_relative_to(folder):
                    found.append(int(entry.name))
    return found


def class_accounts(layout: Layout) -> set[int]:
    """The user ids of a real class's accounts (none for the trial)."""
    listed = layout.state / "etc" / "class.json"
    if not layout.accounts or not listed.exists():
        return set()
    names = json.loads(listed.read_text())
    uids = set()
    for name in [GRADER, *names["instructors"], *names["students"]]:
        with contextlib.suppress(KeyError):
            uids.add(pwd.getpwnam(name).pw_uid)
    return uids


def running_as(uids: set[int]) -> list[int]:
    """The processes run by these user ids (a real class's servers and kernels)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if entry.stat().st_uid in uids:
                    found.append(int(entry.name))
    return found


def answers(url: str) -> bool:
    """Whether the hub's API answers at ``url`` (on this machine: a certificate made for the
    hub's public name is not checked against 127.0.0.1)."""
    local = ssl._create_unverified_context() if url.startswith("https") else None
    try:
        with urllib.request.urlopen(url, timeout=5, context=local) as answer:
            return answer.status == 200
    except OSError:
        return False


def new_token() -> str:
    return secrets.token_hex(32)
