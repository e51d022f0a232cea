"""A test run stopped in the middle leaves no server or kernel behind: a pytest run that holds a
JupyterLab with a running kernel (started through ``benchmarks.servers.serving``, as the shared
fixtures do) is interrupted with Ctrl-C, terminated, or killed outright, and afterwards no process
of that server is left."""

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

pytestmark = pytest.mark.slow  # each case starts a JupyterLab and a kernel

ROOT = Path(__file__).resolve().parent.parent
# The run being interrupted: one test that starts JupyterLab on the folder, starts a kernel in it
# through the REST API, says so in a file, and waits.
HOLDS_A_SERVER = """
import json, time, urllib.request
from pathlib import Path

from benchmarks.servers import free_port, lab_command, lab_folder, serving

FOLDER = Path(__file__).parent / "served"


def test_holds_a_server():
    FOLDER.mkdir()
    lab_folder(FOLDER, {})
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = lab_command(FOLDER, port) + ["--ServerApp.disable_check_xsrf=True"]  # for the POST
    with serving(command, url + "/api", FOLDER / "lab.log"):
        request = urllib.request.Request(url + "/api/kernels", data=b"{}", method="POST")
        with urllib.request.urlopen(request, timeout=60) as answer:
            kernel = json.load(answer)["id"]
        (FOLDER.parent / "ready").write_text(kernel)
        time.sleep(600)
"""


START_WITH_CTRL_C = (
    "import signal, sys, pytest; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.exit(pytest.main(sys.argv[1:]))"
)


def left_behind(mark: str) -> list[str]:
    """The processes whose command line names ``mark`` (a kernel names its connection file)."""
    found = []
    for process in psutil.process_iter(["pid", "cmdline"]):
        line = " ".join(process.info["cmdline"] or [])
        if mark in line and process.info["pid"] != os.getpid():
            found.append(f"{process.info['pid']}: {line[:200]}")
    return found


@pytest.mark.parametrize(
    "how, workers",
    [
        ("Ctrl-C", 2),  # a terminal's Ctrl-C reaches the whole process group, xdist workers too
        ("SIGTERM", 0),
        ("SIGKILL", 0),  # no handler runs: the servers' parent-death signal and the kernel's watch
    ],
)
def test_an_interrupted_run_leaves_no_server_or_kernel_running(tmp_path, how, workers):
    (tmp_path / "test_holds.py").write_text(HOLDS_A_SERVER)
    runtime = tmp_path / "runtime"  # kernels write their connection files here: it names them
    env = dict(os.environ, PYTHONPATH=str(ROOT), JUPYTER_RUNTIME_DIR=str(runtime))
    arguments = ["-q", "-p", "no:cacheprovider", str(tmp_path)]
    arguments += ["-n", str(workers)] if workers else []
    # Ctrl-C as in a terminal, even where this run was started in the background (which ignores
    # SIGINT, and the ignoring is inherited)
    command = [sys.executable, "-c", START_WITH_CTRL_C, *arguments]
    run = subprocess.Popen(
        command,
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 600  # a shared machine may be slow
        while not (tmp_path / "ready").exists():
            assert run.poll() is None, run.stdout.read().decode()[-3000:]
            assert time.monotonic() < deadline, "the server did not start in 600 s"
            time.sleep(0.5)
        assert left_behind(str(runtime)), "the kernel is not found by its connection file"
        assert left_behind(str(tmp_path / "served")), "the server is not found by its folder"
        if (
            how == "Ctrl-C"
        ):  # pressed again every 20 s while the run has not stopped, as a person would
            for _ in range(9):
                os.killpg(run.pid, signal.SIGINT)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    run.wait(20)
                    break
        else:
            run.send_signal(signal.SIGTERM if how == "SIGTERM" else signal.SIGKILL)
        run.wait(90)
        deadline = time.monotonic() + 60
        while (left := left_behind(str(tmp_path))) and time.monotonic() < deadline:
            time.sleep(1)
        assert left == [], f"after {how}, still running:\n" + "\n".join(left)
    finally:
        for process in psutil.process_iter(["cmdline"]):
            if str(tmp_path) in " ".join(process.info["cmdline"] or []):
                with contextlib.suppress(psutil.Error):
                    process.kill()
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait(10)
