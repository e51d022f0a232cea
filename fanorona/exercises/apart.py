"""A check run in a forked child process, so that a student's call that never returns (a loop
inside C code such as ``sum(range(10**12))``, or code that ignores signals) is ended from outside
and named in one sentence, while the kernel stays usable.

The child runs the whole check, so the student's objects keep their state from call to call and
need not be picklable; it sends back through a pipe what the kernel must show (printed text,
displayed pictures), the start and end of each student call with its time limit, and the verdict.
The parent watches the clock and kills the child when a call outlives its limit by ``GRACE``.
Where fork is missing or refused (a sandbox's process limit), the check runs in this process, as
it did before, with only the in-process time limit.
"""

from __future__ import annotations

import io
import os
import pickle
import select
import signal
import struct
import sys
import time
import traceback
from collections.abc import Callable

from .guard import CHECK_LIMIT, ExerciseFailed, watch_calls

#: Seconds past a call's limit before its process is killed: the in-process limit (SIGALRM) comes
#: first and gives the same sentence when the call is in Python code that can be interrupted.
GRACE = 0.5
#: Seconds the checker's own work (outside the student's calls) may take before the child is
#: taken for stuck; far beyond any check's reference work.
SPARE = CHECK_LIMIT + 480.0
_FRAME = struct.Struct("!I")

Send = Callable[[tuple], None]


class _Channel:
    """The child's end of the pipe: pickled messages, each behind its length."""

    def __init__(self, fd: int):
        self.fd = fd

    def __call__(self, message: tuple) -> None:
        data = pickle.dumps(message)
        view = memoryview(_FRAME.pack(len(data)) + data)
        while view:
            view = view[os.write(self.fd, view) :]


class _ChannelText(io.TextIOBase):
    """The child's stdout and stderr: every write goes to the kernel as printed text."""

    def __init__(self, send: Send):
        super().__init__()
        self.send = send

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        text = str(text)
        if text:
            self.send(("out", text))
        return len(text)


def _quiet_kernel(send: Send) -> None:
    """In the child, nothing may touch the kernel's sockets (they belong to the parent): pictures
    go through the pipe, and every other kernel message (a widget's comm) is dropped."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None:
        return
    shell.display_pub.publish = lambda data, metadata=None, **_: send(
        ("display", data, metadata or {})
    )
    kernel = getattr(shell, "kernel", None)
    if kernel is not None:
        kernel.session.send = lambda *args, **kwargs: None


def _traceback_lines(error: BaseException) -> list[str]:
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:
        shell = None
    if shell is not None:
        return shell.InteractiveTB.structured_traceback(type(error), error, error.__traceback__)
    return traceback.format_exception(type(error), error, error.__traceback__)


def _child(work: Callable[[], object], fd: int) -> None:
    send = _Channel(fd)
    try:
        sys.stdout = sys.stderr = _ChannelText(send)
        _quiet_kernel(send)
        watch_calls(send)
        send(("done", work()))
    except ExerciseFailed as failed:
        send(("failed", str(failed)))
    except BaseException as error:
        try:
            blob: bytes | None = pickle.dumps(error)
        except Exception:
            blob = None
        send(("raised", blob, type(error).__name__, str(error), _traceback_lines(error)))
    finally:
        os._exit(0)


def _raise_from_child(blob: bytes | None, name: str, message: str, lines: list[str]):
    try:
        error = pickle.loads(blob) if blob is not None else RuntimeError(f"{name}: {message}")
    except Exception:
        error = RuntimeError(f"{name}: {message}")
    if lines:
        error._render_traceback_ = lambda: lines  # type: ignore[union-attr]  # IPython shows it
    raise error


class _Watcher:
    """The parent's side: reads the child's messages, shows them, and keeps the clock."""

    def __init__(self, pid: int, fd: int):
        self.pid, self.fd = pid, fd
        self.status: int | None = None
        self.buffer = b""
        self.call: tuple | None = None  # (limit, the sentence for each way out, started)
        self.last = time.monotonic()

    def deadline(self) -> float:
        if self.call is not None:
            return self.call[2] + self.call[0] + GRACE
        return self.last + SPARE

    def messages(self):
        """The child's messages as they come, until it closes the pipe."""
        while True:
            left = self.deadline() - time.monotonic()
            if left <= 0:
                self.stop("time")
            ready, _, _ = select.select([self.fd], [], [], max(left, 0.0))
            if not ready:
                continue
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                return
            self.buffer += chunk
            while len(self.buffer) >= _FRAME.size:
                (size,) = _FRAME.unpack_from(self.buffer)
                if len(self.buffer) < _FRAME.size + size:
                    break
                data = self.buffer[_FRAME.size : _FRAME.size + size]
                self.buffer = self.buffer[_FRAME.size + size :]
                yield pickle.loads(data)

    def follow(self):
        """Show what the child sends; return its verdict, or stop it with a sentence."""
        for kind, *rest in self.messages():
            self.last = time.monotonic()
            if kind == "out":
                sys.stdout.write(rest[0])
            elif kind == "display":
                from IPython.display import publish_display_data

                publish_display_data(rest[0], metadata=rest[1])
            elif kind == "call":
                self.call = (*rest, time.monotonic())
            elif kind == "returned":
                self.call = None
            else:
                self.reap()
                if kind == "failed":
                    raise ExerciseFailed(rest[0]) from None
                if kind == "raised":
                    _raise_from_child(*rest)
                return rest[0]
        raise ExerciseFailed(self.ended(self.reap()))

    def reap(self, kill: bool = False) -> int:
        """Wait for the child (killed first if ``kill``) once; its wait status."""
        if self.status is None:
            if kill:
                os.kill(self.pid, signal.SIGKILL)
            self.status = os.waitpid(self.pid, 0)[1]
        return self.status

    def ended(self, status: int) -> str:
        how = (
            f"exit code {os.waitstatus_to_exitcode(status)}"
            if os.WIFEXITED(status)
            else f"signal {os.WTERMSIG(status)}"
        )
        if self.call is None:
            return f"The check's process ended ({how}) before it gave a verdict; run it again."
        return self.call[1]["exit"].replace("called exit() (SystemExit)", f"ended Python ({how})")

    def stop(self, why: str):
        """Kill the child and say which call it was running, in the guard's own sentence."""
        self.reap(kill=True)
        if self.call is None:
            raise ExerciseFailed(
                f"The check itself took more than {SPARE:g} s outside your code, or was"
                " interrupted there, and was stopped; run it again."
            )
        raise ExerciseFailed(self.call[1][why]) from None


def apart(work: Callable[[], object]):
    """``work()`` run in a forked child, which tells the parent of each student call its guards
    run (``guard.watch_calls``); or here, where fork is not available."""
    if not hasattr(os, "fork"):
        return work()
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return work()
    if pid == 0:
        os.close(read)
        _child(work, write)
    os.close(write)
    watcher = _Watcher(pid, read)
    try:
        return watcher.follow()
    except KeyboardInterrupt:
        watcher.stop("interrupt")
    finally:
        os.close(read)
        watcher.reap(kill=True)
