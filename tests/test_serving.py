"""`make lab` and `make play` as the Makefile runs them: JupyterLab starts as
root and as a normal user, neither opens a browser, Voilà's page needs nothing from outside
localhost, and the kernel of a page that is gone is stopped while an open page keeps its own.

Each test takes the target's command line from ``make -n`` and starts it on a free port.
"""

import concurrent.futures
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import make_dry_run

from benchmarks import servers
from benchmarks.servers import free_port, wait_until_answers

pytestmark = pytest.mark.slow  # every test starts a Jupyter server of its own

ROOT = Path(__file__).resolve().parent.parent
#: Seconds, for the tests only (jupyter/voila.json says 600 and 60): longer than a kernel takes to
#: start on a loaded machine, or the culler stops it before it answers and the page never ends.
CULL_TIMEOUT, CULL_INTERVAL = 15, 2


def recipe(target: str) -> str:
    """The shell line ``make <target>`` runs, with this interpreter's bin directory as the
    venv's."""
    lines = make_dry_run("-s", "-o", ".venv/.installed-play", target)
    servers = [line for line in lines if "JUPYTER_CONFIG_PATH" in line]
    assert len(servers) == 1, lines  # before it: the bubblewrap check, the table in the background
    return servers[0]


class Server:
    """A target's command, started in the repository with extra options; stopped by ``stop()``."""

    def __init__(self, target: str, options: list[str], tmp_path: Path, user: str | None = None):
        self.port = free_port()
        self.log = tmp_path / f"{target}.log"
        self.browser_marker = tmp_path / "a-browser-was-opened"
        fake_browser = tmp_path / "fake-browser"
        fake_browser.write_text(f"#!/bin/sh\ntouch {self.browser_marker}\n")
        fake_browser.chmod(0o755)
        home = Path(tempfile.mkdtemp(dir=tmp_path))
        home.chmod(0o777)
        tmp_path.chmod(0o777)
        env = dict(
            os.environ,
            BROWSER=str(fake_browser),
            HOME=str(home),
            JUPYTER_PLATFORM_DIRS="1",
            PYTHONPATH=str(ROOT),
        )
        for name in ("MPLBACKEND", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
            env.pop(name, None)
        line = recipe(target) + f" --port={self.port} " + " ".join(options)
        command = ["sh", "-c", line]
        if user is not None:
            command = become(user) + command
        self.process = servers.start(command, self.log, env=env, cwd=ROOT)
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self):
        servers.stop(self.process)

    def text(self) -> str:
        return self.log.read_text()


@pytest.fixture
def serve(tmp_path):
    started = []

    def start(target, options=(), user=None):
        server = Server(target, list(options), tmp_path, user)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


# -- make lab ----------------------------------------------------------------------------------

LAB_OPTIONS = ["--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password="]


def check_lab_starts(server):
    wait_until_answers(server.base + "/api", server.process, server.log)
    time.sleep(2)  # a browser would be opened about now
    assert server.process.poll() is None, server.text()[-3000:]
    assert "Running as root is not recommended" not in server.text()
    assert not server.browser_marker.exists(), "make lab opened a browser"


def test_make_lab_starts_as_root_without_a_browser(serve):
    if os.geteuid() != 0:
        pytest.skip("not running as root")
    check_lab_starts(serve("lab", LAB_OPTIONS))


def become(user: str) -> list[str]:
    """The command prefix that runs a command as ``user``."""
    who = pwd.getpwnam(user)
    return ["setpriv", f"--reuid={who.pw_uid}", f"--regid={who.pw_gid}", "--clear-groups", "--"]


def test_make_lab_starts_as_a_normal_user(serve):
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root, and no setpriv to become a normal user")
        jupyter = Path(sys.executable).parent / "jupyter"
        if subprocess.run(
            become("nobody") + [str(jupyter), "lab", "--version"], cwd=ROOT, capture_output=True
        ).returncode:
            pytest.skip(f"running as root, and a normal user cannot run {jupyter} here")
        server = serve("lab", LAB_OPTIONS, user="nobody")
    else:
        server = serve("lab", LAB_OPTIONS)
    check_lab_starts(server)


# -- make play ---------------------------------------------------------------------------------

PLAY_OPTIONS = [
    f"--MappingKernelManager.cull_idle_timeout={CULL_TIMEOUT}",
    f"--MappingKernelManager.cull_interval={CULL_INTERVAL}",
]


def kernel_of(html: str) -> str:
    return re.search(r'"kernelId": "([0-9a-f-]+)"', html)[1]


def kernel_exists(server, kernel: str) -> bool:
    try:
        with urllib.request.urlopen(f"{server.base}/api/kernels/{kernel}", timeout=10) as answer:
            return json.load(answer)["id"] == kernel
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return False
        raise


def fetch_page(server, seconds: float = 240) -> str:
    """Load the page as a closed tab would have: the kernel starts, no browser ever connects to
    it.  Voila streams the page, and a page whose kernel died is never finished: give up then."""

    def read() -> str:
        with urllib.request.urlopen(server.base + "/", timeout=seconds) as answer:
            return answer.read().decode()

    pool = concurrent.futures.ThreadPoolExecutor(1)
    try:
        return pool.submit(read).result(timeout=seconds)
    except concurrent.futures.TimeoutError:
        pytest.fail(
            f"the page was not served in {seconds:.0f} s; the server's log ends:\n"
            + server.text()[-1500:]
        )
    finally:
        pool.shutdown(wait=False)


def test_make_play_culls_idle_kernels_as_configured(serve):
    config = json.loads((ROOT / "jupyter" / "voila.json").read_text())
    culling = config["MappingKernelManager"]
    assert (
        0 < culling["cull_idle_timeout"] <= 3600
        and 0 < culling["cull_interval"] <= culling["cull_idle_timeout"]
    )
    assert culling["cull_connected"] is False, "an open board would lose its kernel"
    server = serve("play")
    wait_until_answers(server.base + "/voila/static/voila.js", server.process, server.log)
    fetch_page(server)  # the culler starts with the first kernel
    time.sleep(1)
    assert (
        f"Culling kernels with idle durations > {culling['cull_idle_timeout']} seconds at "
        f"{culling['cull_interval']} second intervals" in server.text()
    )


def test_make_play_stops_the_kernel_of_a_page_that_is_gone(serve):
    server = serve("play", PLAY_OPTIONS)
    wait_until_answers(server.base + "/voila/static/voila.js", server.process, server.log)
    kernel = kernel_of(fetch_page(server))
    assert kernel_exists(server, kernel)
    deadline = time.monotonic() + CULL_TIMEOUT + CULL_INTERVAL + 60
    while kernel_exists(server, kernel):
        assert time.monotonic() < deadline, "the kernel of a page that is gone was never stopped"
        time.sleep(0.5)
    assert "Culling" in server.text()
    assert not server.browser_marker.exists(), "make play opened a browser"


@pytest.fixture
def chromium(browser):
    """The run's Chromium (tests/conftest.py)."""
    return browser


def test_make_play_works_offline_and_keeps_the_kernel_of_an_open_page(serve, chromium):
    server = serve("play", PLAY_OPTIONS)
    wait_until_answers(server.base + "/voila/static/voila.js", server.process, server.log)
    page = chromium.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    page.set_default_timeout(180_000)
    outside = []

    def only_localhost(route):
        if route.request.url.startswith(server.base):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_localhost)
    page.goto(server.base + "/")
    page.locator(".jupyter-matplotlib-canvas-div canvas").first.wait_for(state="visible")
    assert outside == [], f"the page fetched from outside localhost: {outside}"
    kernel = kernel_of(page.content())
    time.sleep(CULL_TIMEOUT + 3 * CULL_INTERVAL)
    assert kernel_exists(server, kernel), "the kernel of an open page was stopped"
    page.context.close()


def test_make_play_stops_the_kernel_when_its_page_is_closed(serve, chromium):
    """The page's goodbye reaches Voilà and is obeyed (no 403 for a missing _xsrf), long before
    the cull."""
    server = serve("play")  # the configured cull: 10 minutes, far beyond this test's wait
    wait_until_answers(server.base + "/voila/static/voila.js", server.process, server.log)
    kernels = []
    for leave in ("close", "navigate"):
        page = chromium.new_context(viewport={"width": 1280, "height": 1000}).new_page()
        page.set_default_timeout(180_000)
        page.goto(server.base + "/")
        page.locator(".jupyter-matplotlib-canvas-div canvas").first.wait_for(state="visible")
        kernel = kernel_of(page.content())
        assert kernel_exists(server, kernel)
        if leave == "close":
            page.close(run_before_unload=True)
        else:
            page.goto("about:blank")
        kernels.append(kernel)
        page.context.close()
    deadline = time.monotonic() + 30
    while any(kernel_exists(server, kernel) for kernel in kernels):
        assert time.monotonic() < deadline, "a closed page's kernel still runs:\n" + "\n".join(
            line for line in server.text().splitlines() if "shutdown" in line
        )
        time.sleep(0.5)
