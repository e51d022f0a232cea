"""``Sandbox``: run one untrusted command, once with bytes in and plain data out, or kept alive
with pipes (a tournament player between its turns)."""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from . import command as iso
from . import policy, reach
from .limits import Finished, Limits
from .process import Running

#: The environment inside (the caller's is never passed on), before the caller's additions.
BASE_ENV = {
    "PATH": "/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "PYTHONDONTWRITEBYTECODE": "1",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


class Sandbox:
    """Runs commands under ``limits``; ``namespaces`` None takes bubblewrap wherever it works
    (``FANORONA_SANDBOX=rlimits`` turns it off), False forces rlimits and a private folder.
    ``own_user`` False keeps the caller's user id, without capabilities: for the kit's own code
    that reads the caller's private files (a built-in level's cached endgame tables).
    ``package`` False hides the installed package (the grader hands its worker a copy without the
    checkers' references); only bubblewrap can hide it.  Without working bubblewrap it refuses
    to start anything (``IsolationUnavailable``) unless ``allow_weak`` or the environment
    variable allows the weaker mode; untrusted code never runs as root in either mode."""

    def __init__(
        self,
        limits: Limits | None = None,
        *,
        namespaces: bool | None = None,
        own_user: bool = True,
        package: bool = True,
        allow_weak: bool = False,
    ):
        self.limits = limits or Limits()
        self.namespaces = iso.uses_namespaces(namespaces)
        self.allow_weak = allow_weak
        self.own_user = own_user
        self.package = package

    def isolation(self) -> str:
        return iso.isolation(self.namespaces)

    def start(
        self,
        argv: Sequence[str],
        *,
        readable: Iterable[Path | str] = (),
        env: Mapping[str, str] | None = None,
        capture_stdout: bool = False,
    ) -> Running:
        """Start ``argv`` inside with pipes on its standard input and output; its standard error
        is kept (up to the output limit) by ``errors()``."""
        paths = [Path(p).resolve() for p in readable]
        missing = [str(p) for p in paths if not p.exists()]
        if missing:
            raise ValueError(f"the sandbox cannot show {', '.join(missing)}: no such file")
        if not self.namespaces and not policy.weak_allowed(self.allow_weak):
            raise policy.IsolationUnavailable(policy.missing())
        uid = iso.new_uid() if self.own_user else None
        variables = {**BASE_ENV, **(env or {})}
        command = iso.rlimits(self.limits)
        if uid is not None:
            command += iso.as_user(uid)
        elif os.geteuid() == 0:  # root without a user of its own: no capabilities, so no forks
            command += iso.as_user(0)[:1] + ["--inh-caps=-all", "--bounding-set=-all", "--"]
        folder = None
        if self.namespaces:
            argv = [iso.inside_text(arg) for arg in argv]
            variables = {key: iso.inside_text(value) for key, value in variables.items()}
            variables |= {"HOME": "/tmp", "TMPDIR": "/tmp"}
            prefix = iso.bubblewrap(paths, variables, self.limits.file_size, self.package)
            popen_env, cwd = {"PATH": BASE_ENV["PATH"]}, "/"
        else:
            if uid is not None and reach.needed():
                argv, variables = _mirrored(argv, variables)
            folder = Path(tempfile.mkdtemp(prefix="fanorona-sandbox-"))
            if uid is not None:
                os.chown(folder, uid, uid)
            variables |= {"HOME": str(folder), "TMPDIR": str(folder)}
            prefix, popen_env, cwd = [], variables, str(folder)
        try:
            popen = subprocess.Popen(
                [*prefix, *command, *argv],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=popen_env,
                cwd=cwd,
                start_new_session=True,
                close_fds=True,
            )
        except BaseException:
            if folder is not None:
                os.rmdir(folder)
            raise
        return Running(
            popen,
            self.limits,
            uid=uid,
            folder=folder,
            namespaces=self.namespaces,
            capture_stdout=capture_stdout,
        )

    def run(
        self,
        argv: Sequence[str],
        input: bytes = b"",
        *,
        readable: Iterable[Path | str] = (),
        env: Mapping[str, str] | None = None,
    ) -> Finished:
        """Run ``argv`` to its end (or its limit) with ``input`` on its standard input."""
        started = time.monotonic()
        with self.start(argv, readable=readable, env=env, capture_stdout=True) as proc:
            threading.Thread(target=_feed, args=(proc, input), daemon=True).start()
            proc.wait()
        reason = proc.reason()
        return Finished(
            returncode=proc.poll(),
            stdout=bytes(proc.captured["stdout"]),
            stderr=bytes(proc.captured["stderr"]),
            stopped=reason,
            sentence=self.limits.sentence(reason) if reason else None,
            truncated=proc.truncated,
            wall_seconds=time.monotonic() - started,
            cpu_seconds=proc.cpu_seconds(),
        )


def _mirrored(argv: Sequence[str], variables: dict[str, str]):
    """``argv`` and ``variables`` pointed at a mirror of Python that another user can run."""
    try:
        target = reach.mirror()
    except OSError as error:
        raise policy.IsolationUnavailable(
            f"Python lies in a folder other users cannot enter and no copy they can run could be"
            f" made in {reach.HOME} ({error.strerror or error}), so untrusted code would run as"
            " root: install bubblewrap with `apt-get install bubblewrap`, or install Python"
            " where all users can read it."
        ) from error
    table = reach.translation(target)
    argv = [reach.rewrite(arg, table) for arg in argv]
    variables = {key: reach.rewrite(value, table) for key, value in variables.items()}
    library = str(target / "base" / "lib")
    return argv, variables | {"LD_LIBRARY_PATH": library}


def _feed(proc: Running, data: bytes) -> None:
    """Write its input from a thread, so a process that does not read cannot block the caller."""
    stream = proc.stdin
    assert stream is not None, "start() opens standard input as a pipe"
    try:
        stream.write(data)
        stream.close()
    except (OSError, ValueError):
        pass
