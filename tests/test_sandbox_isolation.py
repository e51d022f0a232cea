"""Isolation that fails safe: no run without working bubblewrap unless an instructor allows the
weaker mode, and untrusted code never running as root in either mode, also with Python under a
private home.  The hostile code here is what a clever student would try from a solution cell."""

import json
import os
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from fanorona.sandbox import IsolationUnavailable, Limits, Sandbox, reach, require_isolation
from fanorona.sandbox import command as iso

QUICK = Limits(wall=30, cpu=10, output=2**16)
NAMESPACES = iso.bubblewrap_works()
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="dropping privileges needs root")


def one_sentence(text: str) -> bool:
    return text.endswith(".") and ". " not in text and "\n" not in text


@pytest.fixture
def no_bubblewrap(tmp_path, monkeypatch):
    """A PATH with the tools the sandbox uses but no bwrap."""
    tools = tmp_path / "bin"
    tools.mkdir()
    for name in ("prlimit", "setpriv", "true"):
        os.symlink(shutil.which(name), tools / name)
    monkeypatch.setenv("PATH", str(tools))
    monkeypatch.delenv("FANORONA_ALLOW_WEAK_ISOLATION", raising=False)
    monkeypatch.delenv("FANORONA_SANDBOX", raising=False)
    return tools


def test_without_bubblewrap_on_path_the_sandbox_refuses_in_one_sentence(no_bubblewrap):
    with pytest.raises(IsolationUnavailable) as refused:
        Sandbox(QUICK).run([sys.executable, "-c", "print('ran')"])
    sentence = str(refused.value)
    assert one_sentence(sentence), sentence
    assert "bubblewrap (bwrap) is not on PATH" in sentence
    assert "`apt-get install bubblewrap`" in sentence
    assert "FANORONA_ALLOW_WEAK_ISOLATION=1" in sentence
    assert isinstance(refused.value, RuntimeError)
    with pytest.raises(IsolationUnavailable, match="not on PATH"):
        require_isolation()


def test_the_weaker_mode_runs_only_when_allowed_and_says_so(no_bubblewrap, monkeypatch):
    assert require_isolation(allow_weak=True).startswith("no namespaces here")
    done = Sandbox(QUICK, allow_weak=True).run([sys.executable, "-c", "print('ran')"])
    assert done.stdout == b"ran\n", done.stderr
    monkeypatch.setenv("FANORONA_ALLOW_WEAK_ISOLATION", "1")
    line = require_isolation()
    assert line.startswith("no namespaces here") and "\n" not in line
    assert Sandbox(QUICK).run([sys.executable, "-c", "print('ran')"]).stdout == b"ran\n"


def test_a_bubblewrap_that_cannot_make_namespaces_is_refused(tmp_path, monkeypatch):
    """A container that forbids namespaces: bwrap is there, its probe fails."""
    tools = tmp_path / "forbidding"
    tools.mkdir()
    fake = tools / "bwrap"
    fake.write_text(
        "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n"
    )
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}:{os.environ['PATH']}")
    monkeypatch.delenv("FANORONA_ALLOW_WEAK_ISOLATION", raising=False)
    assert iso.bubblewrap_path() == str(fake) and not iso.bubblewrap_works()
    with pytest.raises(IsolationUnavailable) as refused:
        Sandbox(QUICK).run([sys.executable, "-c", "print('ran')"])
    sentence = str(refused.value)
    assert one_sentence(sentence) and str(fake) in sentence and "forbids" in sentence


def test_forcing_rlimits_still_needs_the_allowance(monkeypatch):
    monkeypatch.setenv("FANORONA_SANDBOX", "rlimits")
    monkeypatch.delenv("FANORONA_ALLOW_WEAK_ISOLATION", raising=False)
    with pytest.raises(IsolationUnavailable, match="FANORONA_SANDBOX=rlimits turns bubblewrap off"):
        Sandbox(QUICK).run([sys.executable, "-c", "print('ran')"])
    with pytest.raises(IsolationUnavailable):
        Sandbox(QUICK, namespaces=False).run([sys.executable, "-c", "print('ran')"])


@pytest.mark.skipif(not NAMESPACES, reason="namespaces are not allowed here")
def test_with_bubblewrap_the_isolation_line_names_it(monkeypatch):
    monkeypatch.delenv("FANORONA_SANDBOX", raising=False)
    assert require_isolation().startswith("bubblewrap: own network")


HOSTILE = """
    import json, os, sys
    found = {"uid": os.getuid(), "euid": os.geteuid()}
    try:
        found["secret"] = open(sys.argv[1]).read()
    except OSError as e:
        found["secret"] = type(e).__name__
    try:
        with open(sys.argv[2], "r+b") as db:
            db.write(b"full marks")
        found["gradebook"] = "rewritten"
    except OSError as e:
        found["gradebook"] = type(e).__name__
    try:
        open(os.path.join(os.path.dirname(sys.argv[2]), "gradebook.db-journal"), "wb").close()
        found["beside"] = "written"
    except OSError as e:
        found["beside"] = type(e).__name__
    try:
        os.setuid(0)
        found["setuid"] = "root again"
    except OSError as e:
        found["setuid"] = type(e).__name__
    planted = []
    for path in [os.__file__, os.path.join(os.path.dirname(json.__file__), "planted.py")]:
        try:
            open(path, "ab").close()
            planted.append(path)
        except OSError:
            pass
    found["planted"] = planted
    print(json.dumps(found))
"""


@as_root
@pytest.mark.parametrize(
    "namespaces",
    [
        pytest.param(True, marks=pytest.mark.skipif(not NAMESPACES, reason="no namespaces")),
        False,
    ],
    ids=["bwrap", "rlimits"],
)
def test_hostile_code_run_by_root_is_no_one(namespaces, tmp_path):
    """Run by root (Python here lies under root's private home when ``reach.needed()``): the code
    runs as an unprivileged id, cannot read another user's private file, cannot rewrite a
    root-owned gradebook or write beside it, cannot become root again, and cannot plant code in
    the Python the next run uses."""
    private = tmp_path / "teacher"
    private.mkdir(mode=0o700)
    secret = private / "answers.txt"
    secret.write_text("the reference answers")
    secret.chmod(0o600)
    os.chown(private, 4242, 4242)
    os.chown(secret, 4242, 4242)
    course = tmp_path / "course"
    course.mkdir(mode=0o755)
    gradebook = course / "gradebook.db"
    gradebook.write_bytes(b"SQLite format 3\x00 alice 0")
    gradebook.chmod(0o644)
    tmp_path.chmod(0o755)
    sandbox = Sandbox(QUICK, namespaces=namespaces, allow_weak=not namespaces)
    readable = [secret, gradebook] if namespaces else []  # shown to it, still not its to read
    argv = [sys.executable, "-c", textwrap.dedent(HOSTILE), str(secret), str(gradebook)]
    done = sandbox.run(argv, readable=readable)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["uid"] != 0 and found["euid"] != 0
    assert found["uid"] not in (4242, os.getuid())
    assert found["secret"] == "PermissionError"
    assert found["gradebook"] in ("PermissionError", "OSError")
    assert found["beside"] in ("PermissionError", "OSError")
    assert found["setuid"] == "PermissionError"
    assert found["planted"] == []
    assert gradebook.read_bytes() == b"SQLite format 3\x00 alice 0"
    assert sorted(p.name for p in course.iterdir()) == ["gradebook.db"]


@as_root
def test_python_under_a_private_home_is_run_from_a_mirror_no_one_can_change():
    """Where Python lies under a folder others cannot enter, the weaker mode runs a mirror of it
    owned by root, every folder of it closed to writes by others."""
    if not reach.needed():
        pytest.skip("Python here is open to all users: no mirror is needed")
    done = Sandbox(QUICK, namespaces=False, allow_weak=True).run(
        [sys.executable, "-c", "import sys, os; print(sys.executable, os.getuid())"]
    )
    executable, uid = done.stdout.decode().split()
    assert int(uid) != 0 and Path(executable).is_relative_to(reach.HOME), done.stderr
    for folder, _dirs, _files in os.walk(reach.HOME, followlinks=False):
        state = os.lstat(folder)
        assert state.st_uid == 0 and not state.st_mode & 0o022, folder


@pytest.mark.skipif(not NAMESPACES, reason="namespaces are not allowed here")
def test_memory_is_limited_for_the_whole_process_tree():
    """Four children each under the per-process limit, together far over it."""
    code = """
        import os, time
        for _ in range(4):
            if os.fork() == 0:
                hoard = bytearray(200 * 2**20)
                for i in range(0, len(hoard), 4096):
                    hoard[i] = 1
                time.sleep(30)
                os._exit(0)
        time.sleep(30)
    """
    limits = Limits(wall=25, cpu=20, memory=384 * 2**20, processes=8)
    done = Sandbox(limits).run([sys.executable, "-c", textwrap.dedent(code)])
    assert done.stopped == "memory" and "for all its processes" in done.sentence, done
    assert done.wall_seconds < 20
