"""The grader's side of the sandboxed worker: a session, and stand-ins for the student's objects.

``Session`` starts ``fanorona.grading.worker`` in the sandbox (``fanorona.sandbox``) with the
package as graded code sees it (``package.student_view``), and asks it questions one line at a
time.  ``Remote`` stands in the grader's process for a function, class or object of the
student's: calling it, reading an attribute, ``str()`` or ``len()`` of it each become a question,
and the answer comes back as plain data.  So the checkers run here unchanged, with the student's
code always over there.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import sys
import sysconfig
import time
from collections.abc import Iterator
from typing import Any

from ..sandbox import Limits, Sandbox
from . import plain
from .package import student_view

#: Seconds a notebook cell outside the checks may run in the worker before it is stopped.
CELL_LIMIT = 30.0
#: What the worker of one notebook may use in all (a check's own limits are the Guard's).
WORKER_LIMITS = Limits(
    wall=900.0, cpu=600.0, memory=2 * 2**30, output=64 * 2**20, processes=16, file_size=16 * 2**20
)
#: How the worker starts: isolated from the environment, without site's .pth files (an editable
#: install's path would bring back the whole package), the student view first on the path.
BOOT = "import sys; sys.path[:0] = sys.argv[1:]; from fanorona.grading.worker import main; main()"


class Refused(Exception):
    """The worker stopped, was stopped, or answered with something that is not plain data: one
    sentence saying which (a check that meets it gives no points)."""


class StudentError(Exception):
    """The student's code raised an exception in the worker; its type, message and lines."""

    def __init__(self, error: dict):
        self.kind = str(error.get("type", "Exception"))[:80]
        self.text = str(error.get("message", ""))[:600]
        self.where = str(error.get("where", ""))[:1500]
        self.missing = error.get("missing")
        super().__init__(f"{self.kind}: {self.text}" if self.text else self.kind)


def _reply(line: bytes) -> dict:
    reply = plain.loads(line)
    if not isinstance(reply, dict) or not isinstance(reply.get("printed", ""), str):
        raise plain.ProtocolError("a reply that is not a dict with what was printed")
    return reply


def library_dirs() -> list[str]:
    """Where the installed libraries are (numpy, matplotlib, ...), without running site."""
    paths = sysconfig.get_paths()
    return list(dict.fromkeys(paths[key] for key in ("purelib", "platlib")))


class Session:
    """One sandboxed worker for one student's notebook."""

    def __init__(self, limits: Limits | None = None):
        self.limits = limits or WORKER_LIMITS
        self._context: Any = None
        self._proc: Any = None  # the sandbox's Running, once started
        self._buffer = b""
        self.broken: str | None = None
        self.cpu = 0.0  # CPU seconds the worker used, once it has ended

    def __enter__(self) -> Session:
        view = student_view()
        argv = [sys.executable, "-I", "-S", "-c", BOOT, str(view), *library_dirs()]
        self._context = Sandbox(self.limits, package=False).start(
            argv, readable=[view], env={"MPLBACKEND": "Agg"}
        )
        self._proc = self._context.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._context is not None:
            context, self._context = self._context, None
            with contextlib.suppress(OSError):
                self._proc.stdin.close()  # the worker ends by itself: its CPU time is counted
            self._proc.wait(1.0)
            self.cpu = self._proc.cpu_seconds()
            context.__exit__(None, None, None)

    def ask(self, request: dict | None, timeout: float | None = None, late: str = "") -> dict:
        """Send one request and read its reply (within ``timeout`` seconds if given).  Anything
        that goes wrong on the way breaks the session: its worker's state is no longer known."""
        if self.broken:
            raise Refused(self.broken)
        try:
            if request is not None:  # None: the next line of a reply that comes in parts
                line = json.dumps(request, allow_nan=False).encode() + b"\n"
                self._proc.stdin.write(line)
                self._proc.stdin.flush()
            reply = _reply(self._read_line(timeout, late))
        except plain.ProtocolError as e:
            self.broken = (
                "The worker running your code answered with something that is not plain data"
                f" ({e}), so it was stopped."
            )
            self.close()
            raise Refused(self.broken) from None
        except (BrokenPipeError, OSError):
            self.broken = self._ended()
            self.close()
            raise Refused(self.broken) from None
        except BaseException:
            self.broken = (
                "The check before this one was stopped while your code ran, so this one started"
                " over."
            )
            self.close()
            raise
        if reply.get("printed"):
            print(reply["printed"], end="")
        return reply

    def _read_line(self, timeout: float | None, late: str) -> bytes:
        fd = self._proc.stdout.fileno()
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._buffer:
            if len(self._buffer) > plain.MAX_LINE:
                raise plain.ProtocolError(f"a reply longer than {plain.MAX_LINE:,} bytes")
            wait = None if deadline is None else max(deadline - time.monotonic(), 0)
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                self.broken = late or (
                    f"A cell of your notebook ran longer than {timeout:g} s in the grader and was"
                    " stopped: look for a loop that never ends outside the functions."
                )
                self.close()
                raise Refused(self.broken)
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise BrokenPipeError
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _ended(self) -> str:
        proc = self._proc
        proc.wait(2.0)
        reason = proc.reason()
        if reason:
            return f"The sandbox stopped your code: {self.limits.sentence(reason)}"
        return (
            f"The process running your code ended (exit code {proc.poll()}) before it answered:"
            " a function that calls os._exit() or kills its own process ends the check there."
        )

    # -- questions ---------------------------------------------------------------------------------

    def run(self, source: str) -> StudentError | None:
        """Run one cell's source in the student's namespace; the student's exception, if any."""
        reply = self.ask({"op": "run", "source": source}, timeout=CELL_LIMIT)
        return StudentError(reply["error"]) if "error" in reply else None

    def value(self, reply: dict):
        if "error" in reply:
            error = reply["error"] if isinstance(reply["error"], dict) else {}
            if error.get("unfinished"):
                raise NotImplementedError
            raise StudentError(error)
        return plain.decode(reply.get("value"), lambda number, kind: Remote(self, number, kind))

    def answer_of(self, entry):
        """One answer of a ``map`` request, as a call would have given it."""
        if not isinstance(entry, dict):
            raise Refused("An answer of the worker's was not plain data.")
        error = entry.get("error")
        if isinstance(error, dict) and error.get("type") == "TimeUp":
            raise CallTimedOut
        if entry.get("changed"):
            raise BoardChanged("changed the board it was given")
        return self.value(entry)

    def get(self, name: str):
        return self.value(self.ask({"op": "get", "name": name}))

    def send(self, value):
        """A value of the grader's as plain data (a ``Remote`` as its number)."""

        def handle(obj) -> int:
            if isinstance(obj, Remote):
                return object.__getattribute__(obj, "_number")
            raise plain.ProtocolError(f"a {type(obj).__name__} cannot be sent to the worker")

        return plain.encode(value, handle)


class CallTimedOut(Exception):
    """One call of a ``map`` request ran out of its time in the worker."""


class BoardChanged(AssertionError):
    """The student's function changed a board it was given (in the worker's copy)."""


class Remote:
    """The grader's stand-in for one object of the student's, living in the worker."""

    __slots__ = ("_kind", "_number", "_session")

    def __init__(self, session: Session, number: int, kind: str):
        object.__setattr__(self, "_session", session)
        object.__setattr__(self, "_number", number)
        object.__setattr__(self, "_kind", kind)

    def _ask(self, **request):
        session = object.__getattribute__(self, "_session")
        request["target"] = object.__getattribute__(self, "_number")
        return session.value(session.ask(request))

    def __call__(self, *args, **kwargs):
        session = object.__getattribute__(self, "_session")
        request = {
            "op": "call",
            "target": object.__getattribute__(self, "_number"),
            "args": [session.send(a) for a in args],
            "kwargs": {str(k): session.send(v) for k, v in kwargs.items()},
        }
        reply = session.ask(request)
        if reply.get("changed"):
            raise BoardChanged("changed the board it was given")
        return session.value(reply)

    def map_calls(self, calls: list[tuple], limit: float, total: float, late: str) -> Iterator:
        """Call this function on each argument tuple in one request, ``limit`` seconds a call
        (timed here, as each answer arrives) and ``total`` in all: for each call, a
        zero-argument function giving its answer or raising what it raised."""
        session = object.__getattribute__(self, "_session")
        request = {
            "op": "map",
            "target": object.__getattribute__(self, "_number"),
            "calls": [[session.send(a) for a in args] for args in calls],
            "limit": limit,
        }
        deadline = time.monotonic() + total
        stuck = (
            f"A call of your function ran longer than {limit:g} s, the time limit for one call,"
            " and was stopped: look for a loop that never ends (the rules package answers in"
            " milliseconds)."
        )

        def next_line():
            left = deadline - time.monotonic()
            wait = min(limit + 2, left)
            return session.ask(
                None, timeout=max(wait, 0.01), late=late if left <= limit + 2 else stuck
            )

        finished = False
        try:
            reply = session.ask(request, timeout=limit + 2, late=stuck)
            for _ in calls:
                if "entry" not in reply:
                    break
                yield lambda entry=reply["entry"]: session.answer_of(entry)
                reply = next_line()
            if "entry" in reply:
                reply = next_line()
            finished = True
        finally:
            if not finished and not session.broken:  # left mid-reply: its state is unknown
                session.broken = "The check before this one stopped in the middle of its calls."
                session.close()
        session.value(reply)  # the student's error, if the request itself failed

    def ask_worker(self, op: str, *args, **fields):
        """A request of the worker's own about this object (``worker.Worker.FIGURES``), its
        ``args`` sent as plain data."""
        session = object.__getattribute__(self, "_session")
        return self._ask(op=op, args=[session.send(a) for a in args], **fields)

    def __getattr__(self, name: str):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        try:
            return self._ask(op="attr", name=name)
        except StudentError as e:
            if e.kind == "AttributeError":
                raise AttributeError(e.text) from None
            raise

    def __setattr__(self, name: str, value) -> None:
        session = object.__getattribute__(self, "_session")
        self._ask(op="setattr", name=name, value=session.send(value))

    def _special(self, name: str, *args):
        session = object.__getattribute__(self, "_session")
        return self._ask(op="special", name=name, args=[session.send(a) for a in args])

    def __str__(self) -> str:
        text = self._special("str")
        return text if isinstance(text, str) else "?"

    def __repr__(self) -> str:
        text = self._special("repr")
        return text if isinstance(text, str) else f"<{object.__getattribute__(self, '_kind')}>"

    def __len__(self) -> int:
        n = self._special("len")
        if type(n) is not int or n < 0:
            raise TypeError("len() of the student's object is not a count")
        return n

    def __bool__(self) -> bool:
        return bool(self._special("bool"))

    def __iter__(self):
        items = self._special("iter")
        return iter(items if isinstance(items, list) else [])

    def __getitem__(self, key):
        return self._special("getitem", key)

    def __contains__(self, item) -> bool:
        return bool(self._special("contains", item))
