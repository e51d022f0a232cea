"""The sandbox's walls, each tried by hostile code written the way a clever student would, and each
checked against a run that is allowed the same thing (so a wall that stopped everything, or a test
that could not see a breach, would fail here)."""

import json
import os
import shutil
import socket
import sys
import tempfile
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from fanorona.sandbox import Limits, Sandbox, isolation
from fanorona.sandbox import command as iso

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "fanorona"
NAMESPACES = iso.bubblewrap_works()
needs_namespaces = pytest.mark.skipif(not NAMESPACES, reason="namespaces are not allowed here")
BOTH = pytest.mark.parametrize(
    "namespaces", [pytest.param(True, marks=needs_namespaces), False], ids=["bwrap", "rlimits"]
)
QUICK = Limits(wall=20, cpu=10, memory=512 * 2**20, output=2**16, processes=8)


def python(code: str, limits: Limits = QUICK, namespaces: bool = True, **kwargs):
    """Run ``code`` in a sandboxed Python; ``namespaces`` False forces the path without them
    (allowed here: the tests of that path)."""
    return Sandbox(limits, namespaces=namespaces, allow_weak=not namespaces).run(
        [sys.executable, "-c", textwrap.dedent(code)], **kwargs
    )


def test_isolation_says_what_it_gives_in_one_line():
    assert "\n" not in isolation()
    assert isolation(False).startswith("no namespaces here")
    if NAMESPACES:
        assert isolation().startswith("bubblewrap: own network")


def test_the_variable_forces_the_path_without_namespaces(monkeypatch):
    monkeypatch.setenv("FANORONA_SANDBOX", "rlimits")
    assert not Sandbox().namespaces
    assert isolation().startswith("no namespaces here")


@BOTH
def test_plain_data_goes_in_and_comes_out(namespaces):
    done = python("import sys; print(sys.stdin.read()[::-1])", namespaces=namespaces, input=b"abc")
    assert (done.returncode, done.stdout, done.stopped, done.sentence) == (0, b"cba\n", None, None)


@needs_namespaces
def test_no_socket_reaches_the_hosts_loopback():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        attempt = f"""
            import socket
            try:
                socket.create_connection(("127.0.0.1", {port}), timeout=2)
                print("connected")
            except OSError as e:
                print("refused", type(e).__name__)
        """
        done = python(attempt)
        outside = python(attempt, namespaces=False)
    assert done.stdout.startswith(b"refused"), done
    assert outside.stdout == b"connected\n", "the same code reaches the port without namespaces"


@needs_namespaces
def test_the_host_files_are_out_of_sight_but_readable_ones(tmp_path):
    gradebook = tmp_path / "gradebook.db"
    gradebook.write_text("alice: 100")
    shown = tmp_path / "shown.txt"
    shown.write_text("visible")
    secret = [str(ROOT / "README.md"), str(ROOT / "tests"), str(gradebook), "/root/.bashrc"]
    done = python(
        f"""
        import json, os
        for path in {[*secret, str(shown)]!r}:
            try:
                print("READ", open(path).read() if os.path.isfile(path) else os.listdir(path))
            except OSError as e:
                print("refused", type(e).__name__)
        print(json.dumps([os.listdir("/root"), os.listdir({str(iso.inside(ROOT).parent)!r})]))
        """,
        readable=[shown],
    )
    lines = done.stdout.decode().splitlines()
    assert lines[:-2] == ["refused FileNotFoundError"] * len(secret)
    assert lines[-2] == "READ visible"
    # only the folders that lead to Python and the package, not the host's others
    leading = {p.relative_to(p.anchor).parts[1] for p in iso.python_paths() if len(p.parts) > 2}
    seen_root, seen_beside = json.loads(lines[-1])
    assert set(seen_root) <= leading and ROOT.name in seen_beside
    assert len(seen_root) < len(os.listdir("/root")) and len(seen_beside) <= 1


@BOTH
def test_the_package_on_disk_cannot_be_changed(namespaces):
    """Tried where the sandbox shows the package (``iso.inside``: not in its place when that is in
    /tmp, which is private inside)."""
    if not namespaces and iso.new_uid() is None:
        pytest.skip("without namespaces, a run as the package's owner could change its files")
    target = PACKAGE / f"planted_{uuid.uuid4().hex}.py"
    shown = iso.inside(PACKAGE) if namespaces else PACKAGE
    done = python(
        f"""
        import os
        for path in [{str(shown / target.name)!r}, {str(shown / "rules.py")!r}]:
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT))  # opened for writing, unchanged
                print("could write", path)
            except OSError as e:
                print("refused", type(e).__name__)
        """,
        namespaces=namespaces,
    )
    planted = target.exists()
    target.unlink(missing_ok=True)
    assert done.stdout.count(b"refused") == 2 and not planted, done


@needs_namespaces
def test_tmp_and_shm_filled_leave_nothing_behind():
    marker = f"flood-{uuid.uuid4().hex}"
    limits = Limits(wall=20, cpu=10, file_size=2**20, output=2**16)
    done = python(
        f"""
        written = 0
        for folder in ("/tmp", "/dev/shm"):
            for i in range(64):
                try:
                    with open(f"{{folder}}/{marker}-{{i}}", "wb") as f:
                        f.write(b"x" * 2**19)
                    written += 1
                except OSError:
                    break
        print(written)
        """,
        limits,
    )
    written = int(done.stdout)
    assert 2 <= written < 16, "each folder takes a few files, not 64 (its size is capped)"
    left = [p for folder in ("/tmp", "/dev/shm") for p in os.listdir(folder) if marker in p]
    assert left == []


@BOTH
def test_a_loop_inside_c_is_stopped_by_the_cpu_limit(namespaces):
    done = python("sum(range(10**12))", Limits(wall=30, cpu=1), namespaces)
    assert done.stopped == "cpu" and "CPU" in done.sentence
    assert done.wall_seconds < 15


@BOTH
def test_a_loop_inside_c_is_stopped_by_the_wall_limit(namespaces):
    done = python("import time; time.sleep(60)", Limits(wall=1, cpu=30), namespaces)
    assert done.stopped == "wall" and "wall-clock" in done.sentence
    assert done.wall_seconds < 10


@needs_namespaces
def test_a_function_that_ignores_its_signals_is_stopped():
    done = python(
        """
        import signal, time
        for number in (signal.SIGALRM, signal.SIGTERM, signal.SIGXCPU, signal.SIGINT):
            signal.signal(number, signal.SIG_IGN)
        signal.setitimer(signal.ITIMER_REAL, 0)
        print("ignoring", flush=True)
        while True:
            sum(range(10**6))
        """,
        Limits(wall=30, cpu=1),
    )
    assert done.stdout == b"ignoring\n"
    assert done.stopped == "cpu", "SIGXCPU ignored, SIGKILL at the hard limit or the watcher"


@needs_namespaces
def test_a_fork_bomb_is_bounded():
    done = python(
        """
        import os, time
        children = 0
        for _ in range(200):
            try:
                if os.fork() == 0:
                    time.sleep(30)
                    os._exit(0)
                children += 1
            except OSError:
                break
        print(children, flush=True)
        """,
        Limits(wall=5, cpu=10, processes=8),
    )
    assert 0 < int(done.stdout) < 8, done


@BOTH
def test_an_output_flood_is_capped(namespaces):
    done = python(
        "import sys\nwhile True: sys.stdout.write('spam' * 1000)",
        Limits(wall=20, cpu=10, output=10_000),
        namespaces,
    )
    assert done.stopped == "output" and done.truncated
    assert len(done.stdout) == 10_000 and done.stdout.startswith(b"spamspam")


@needs_namespaces
def test_memory_is_limited():
    done = python("hoard = bytearray(2**30)", Limits(memory=256 * 2**20))
    assert done.stopped == "memory" and "256 MB" in done.sentence
    assert python("hoard = bytearray(2**20)", Limits(memory=256 * 2**20)).returncode == 0


def _alive_with(marker: str) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker.encode() in f.read():
                    found.append(pid)
        except OSError:
            pass
    return found


@BOTH
def test_a_child_that_outlives_its_parent_is_killed(namespaces):
    marker = f"orphan-{uuid.uuid4().hex}"
    done = python(
        f"""
        import os, time
        if os.fork() == 0:
            os.execv("/usr/bin/sleep", ["{marker}", "60"])
        time.sleep(0.3)
        print("parent leaves")
        """,
        namespaces=namespaces,
    )
    assert done.stdout == b"parent leaves\n" and done.wall_seconds < 20
    time.sleep(0.2)
    assert _alive_with(marker) == []


@needs_namespaces
def test_a_child_that_leaves_the_session_dies_with_the_namespace():
    marker = f"escapee-{uuid.uuid4().hex}"
    done = python(
        f"""
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv("/usr/bin/sleep", ["{marker}", "60"])
            os._exit(0)
        time.sleep(0.3)
        print("parent leaves")
        """
    )
    assert done.stdout == b"parent leaves\n" and done.wall_seconds < 20
    time.sleep(0.2)
    assert _alive_with(marker) == []


@needs_namespaces
def test_a_kept_process_is_paused_between_turns_and_gone_after():
    counting = "import sys\nsys.stdin.readline()\nwhile True: sum(range(10**5))"
    with Sandbox(QUICK).start([sys.executable, "-c", counting]) as proc:
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
        time.sleep(0.5)
        proc.pause()
        paused = proc.cpu_seconds()
        time.sleep(0.5)
        assert proc.cpu_seconds() - paused < 0.05
        proc.resume()
        deadline = time.monotonic() + 20  # a busy machine gives the resumed process its core late
        while proc.cpu_seconds() - paused <= 0.1 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert proc.cpu_seconds() - paused > 0.1
        pid = proc.pid
    assert proc.poll() is not None and not os.path.exists(f"/proc/{pid}/stat")


def test_a_missing_readable_path_is_one_sentence(tmp_path):
    with pytest.raises(ValueError, match="cannot show .*nothing-here: no such file"):
        Sandbox(QUICK).run(["true"], readable=[tmp_path / "nothing-here"])


def test_limits_must_be_positive_numbers():
    with pytest.raises(ValueError, match=r"Limits\.cpu must be a positive number; got 0"):
        Limits(cpu=0)


def test_without_namespaces_the_private_folder_is_removed():
    done = python("import os; print(os.getcwd())", namespaces=False)
    folder = Path(done.stdout.decode().strip())
    assert folder.name.startswith("fanorona-sandbox-") and not folder.exists()


@needs_namespaces
@pytest.mark.parametrize("package", [True, False], ids=["shown", "hidden"])
def test_the_package_can_be_hidden_from_graded_code(package):
    """The grader hands its worker a copy of the package without the checkers: the installed one,
    with the reference answers, is then not there to be found (by path, mountinfo or import)."""
    shown = iso.inside(PACKAGE)
    code = f"""
        import os, sys
        sys.path[:0] = [{str(shown.parent)!r}]
        try:
            import fanorona.exercises.checking
            found = "imported"
        except ImportError:
            found = "not importable"
        try:
            with open({str(shown / "planted.py")!r}, "w") as f:
                f.write("NEIGHBOUR_SIZES = ()")
            wrote = "wrote"
        except OSError as e:
            wrote = e.strerror
        print(found, sorted(os.listdir({str(shown)!r})) != [], wrote)
    """
    done = Sandbox(QUICK, package=package).run([sys.executable, "-c", textwrap.dedent(code)])
    assert done.returncode == 0, done.stderr
    expected = "imported True" if package else "not importable False"
    assert done.stdout.decode().strip() == expected + " Read-only file system", (
        "the package's place is read-only, hidden or not"
    )


@needs_namespaces
def test_a_package_in_tmp_is_shown_read_only_and_the_private_tmp_stays_empty(monkeypatch):
    """A clone in /tmp: the package and Python are shown elsewhere, so the sandbox's own /tmp
    holds nothing of the host's, and the package still imports and cannot be changed."""
    clone = Path(tempfile.mkdtemp(prefix="fanorona-clone-", dir="/tmp"))
    try:
        clone.chmod(0o755)
        package = clone / "fanorona"
        package.mkdir(mode=0o755)
        (package / "__init__.py").write_text("FROM_THE_CLONE = True\n")
        monkeypatch.setattr(iso, "PACKAGE", package)
        code = """
            import json, os, sys
            sys.path.insert(0, os.path.dirname(sys.argv[1]))
            import fanorona
            try:
                open(os.path.join(sys.argv[1], "planted.py"), "w")
                wrote = "wrote"
            except OSError as e:
                wrote = e.strerror
            print(json.dumps([os.listdir("/tmp"), os.listdir("/dev/shm"), os.listdir("."),
                              fanorona.FROM_THE_CLONE, wrote]))
        """
        done = Sandbox(QUICK).run([sys.executable, "-c", textwrap.dedent(code), str(package)])
    finally:
        shutil.rmtree(clone)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [[], [], [], True, "Read-only file system"]
