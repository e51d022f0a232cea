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

from ..sandbox import IsolationUnavailable, Limits, Sandbox, require_isolation
from . import plain
from .package import student_view

#: Seconds a notebook cell outside the checks may run in the worker before it is stopped.
CELL_LIMIT = 30.0
#: Seconds any other question may take to be written and answered (a call's own limit is less).
REPLY_LIMIT = 15.0
#: Bytes of all the lines of one reply that comes in parts (each line is bounded by ``plain``).
MAX_REPLY = 8 * 2**20
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


def _reply(line: bytes, number: int) -> dict:
    reply = plain.loads(line)
    if not isinstance(reply, dict) or not isinstance(reply.get("printed", ""), str):
        raise plain.ProtocolError("a reply that is not a dict with what was printed")
    if reply.get("id") != number or type(reply.get("id")) is not int:
        raise plain.ProtocolError(f"a reply to question {reply.get('id')!r}, not {number}")
    return reply


def broken_channel(e: plain.ProtocolError) -> str:
    return (
        f"Your code sent the grader something it does not accept ({e}), so the process running"
        " your code was stopped and this check gives no points for what is left."
    )


def library_dirs() -> list[str]:
    """Where the installed libraries are (numpy, matplotlib, ...), without running site."""
    paths = sysconfig.get_paths()
    return list(dict.fromkeys(paths[key] for key in ("purelib", "platlib")))


def grading_isolation(allow_weak: bool = False) -> str:
    """The one line saying how graded code is isolated here, or ``IsolationUnavailable``: without
    namespaces only when allowed, and only as root (so the worker runs as a user of its own, never
    as the instructor's, who owns the gradebook)."""
    line = require_isolation(allow_weak)
    if not line.startswith("bubblewrap") and os.geteuid() != 0:
        raise IsolationUnavailable(
            "Without bubblewrap the grader must run as root, so that students' code runs as a"
            " user of its own and not as yours (who owns the gradebook): install it with"
            " `apt-get install bubblewrap`, or run nbgrader as root."
        )
    return line


class Session:
    """One sandboxed worker for one student's notebook (without namespaces only if
    ``allow_weak``, or the environment variable, allows it)."""

    def __init__(self, limits: Limits | None = None, allow_weak: bool = False):
        self.limits = limits or WORKER_LIMITS
        self.allow_weak = allow_weak
        self._context: Any = None
        self._proc: Any = None  # the sandbox's Running, once started
        self._buffer = b""
        self._number = 0  # the last request's number
        self.received = 0  # bytes of the last line read
        self.broken: str | None = None
        self.cpu = 0.0  # CPU seconds the worker used, once it has ended

    def __enter__(self) -> Session:
        view = student_view()
        argv = [sys.executable, "-I", "-S", "-c", BOOT, str(view), *library_dirs()]
        grading_isolation(self.allow_weak)
        self._context = Sandbox(self.limits, package=False, allow_weak=self.allow_weak).start(
            argv, readable=[view], env={"MPLBACKEND": "Agg", "FANORONA_COMPILED": "0"}
        )
        self._proc = self._context.__enter__()
        os.set_blocking(self._proc.stdin.fileno(), False)  # written with a deadline (``_write``)
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
        """Send one request and read its reply, each within ``timeout`` seconds (``REPLY_LIMIT``
        if None).  Every request carries a number its reply must name; ``request`` None reads the
        next line of a reply that comes in parts.  Anything that goes wrong on the way breaks the
        session: its worker's state is no longer known."""
        if self.broken:
            raise Refused(self.broken)
        timeout = REPLY_LIMIT if timeout is None else timeout
        try:
            if request is not None:
                self._number += 1
                line = json.dumps({**request, "id": self._number}, allow_nan=False).encode()
                self._write(line + b"\n", timeout)
            line = self._read_line(timeout, late)
            self.received = len(line)
            reply = _reply(line, self._number)
        except plain.ProtocolError as e:
            self.broken = broken_channel(e)
            self.close()
            raise Refused(self.broken) from None
        except (BrokenPipeError, OSError):
            self.broken = self._ended()
            self.close()
            raise Refused(self.broken) from None
        except BaseException:
            if not self.broken:
                self.broken = (
                    "The check before this one was stopped while your code ran, so this one"
                    " started over."
                )
            self.close()
            raise
        if reply.get("printed"):
            print(reply["printed"], end="")
        return reply

    def _write(self, data: bytes, timeout: float) -> None:
        """All of ``data`` to the worker within ``timeout`` seconds: a worker that stops reading
        breaks the session rather than blocking the grader."""
        fd = self._proc.stdin.fileno()
        deadline = time.monotonic() + timeout
        view = memoryview(data)
        while view:
            _, ready, _ = select.select([], [fd], [], max(deadline - time.monotonic(), 0))
            if not ready:
                self.broken = (
                    "The process running your code stopped reading the grader's questions (a"
                    f" cell that reads standard input?) for {timeout:g} s, so it was stopped."
                )
                self.close()
                raise Refused(self.broken)
            view = view[os.write(fd, view[: 1 << 16]) :]

    def _read_line(self, timeout: float, late: str) -> bytes:
        fd = self._proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            if len(self._buffer) > plain.MAX_LINE:
                raise plain.ProtocolError(f"a reply longer than {plain.MAX_LINE:,} bytes")
            ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0))
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

    def batch(self, request: dict, count: int, limits: tuple, late: tuple) -> tuple:
        """Send a request answered in up to ``count`` lines and read them all, ``limits`` (one
        line's, all lines') seconds with the ``late`` sentence for each, before any is looked at:
        judging an answer may ask about an object of the student's, which must wait for the
        reply's end.  (the entries, the closing reply)."""
        (limit, total), (stuck, too_long) = limits, late
        deadline = time.monotonic() + total
        entries: list = []
        size = 0
        try:
            reply = self.ask(request, timeout=min(limit + 2, total), late=stuck)
            while "entry" in reply:
                size += self.received
                if len(entries) == count or size > MAX_REPLY:
                    self.refuse(f"more answers than calls, or more than {MAX_REPLY:,} bytes")
                entries.append(reply["entry"])
                left = deadline - time.monotonic()
                wait = max(min(limit + 2, left), 0.01)
                reply = self.ask(None, timeout=wait, late=too_long if left <= limit + 2 else stuck)
        except BaseException:
            if not self.broken:  # left mid-reply: its state is unknown
                self.broken = "The check before this one stopped in the middle of its calls."
                self.close()
            raise
        return entries, reply

    def refuse(self, why: str):
        """Break the session for a reply the grader does not accept, with the sentence saying so."""
        self.broken = broken_channel(plain.ProtocolError(why))
        self.close()
        raise Refused(self.broken)

    # -- questions ---------------------------------------------------------------------------------

    def run(self, source: str) -> StudentError | None:
        """Run one cell's source in the student's namespace; the student's exception, if any."""
        reply = self.ask(
            {"op": "run", "source": source, "limit": CELL_LIMIT}, timeout=CELL_LIMIT + 5
        )
        return StudentError(reply["error"]) if "error" in reply else None

    def read(self, expression: str):
        """The text of the file the notebook's ``expression`` names (None if none)."""
        return self.value(self.ask({"op": "read", "expression": expression}))

    def cpu_now(self) -> float:
        """CPU seconds of the live worker and all below it."""
        return self._proc.cpu_seconds() if self._proc is not None and self._context else 0.0

    def value(self, reply: dict):
        if "error" in reply:
            error = reply["error"] if isinstance(reply["error"], dict) else {}
            if error.get("unfinished"):
                raise NotImplementedError
            raise StudentError(error)
        made = []

        def remote(number: int, kind: str) -> Remote:
            made.append(number)
            if len(made) > plain.MAX_HANDLES:
                raise plain.ProtocolError(
                    f"more than {plain.MAX_HANDLES:,} objects of its own in one answer"
                )
            return Remote(self, number, kind)

        try:
            return plain.decode(reply.get("value"), remote)
        except plain.ProtocolError as e:
            self.refuse(str(e))

    def answer_of(self, entry, expected: list | None = None):
        """One answer of a ``map`` request, as a call would have given it (``expected``: the
        boards' states the call must leave, ``boards_sent``)."""
        if not isinstance(entry, dict):
            raise Refused("An answer of the worker's was not plain data.")
        error = entry.get("error")
        if isinstance(error, dict) and error.get("type") == "TimeUp":
            raise CallTimedOut
        if "error" not in entry:
            left_as_sent(entry, expected or [])
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


def boards_sent(sent: list) -> list:
    """[[index, state]] of each board among the arguments ``sent`` (as plain data): its state
    (``plain.board_state``) as the worker builds it from that data, which the call must leave."""
    return [
        [i, plain.board_state(plain.board_from(a["board"]))]
        for i, a in enumerate(sent)
        if isinstance(a, dict) and list(a) == ["board"]
    ]


def left_as_sent(reply: dict, expected: list) -> None:
    """Raise ``BoardChanged`` unless the reply reports each board of ``expected`` in the state it
    was sent in: judged here, from the plain data the worker reports (a reply without them is
    judged as a change)."""
    if not expected:
        return
    after = reply.get("after")
    reported = {}
    if isinstance(after, list):
        reported = {
            pair[0]: pair[1]
            for pair in after
            if isinstance(pair, list) and len(pair) == 2 and type(pair[0]) is int
        }
    for index, state in expected:
        if reported.get(index, ()) != state:
            raise BoardChanged("changed the board it was given")


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
        if "error" not in reply:
            left_as_sent(reply, boards_sent(request["args"]))
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
        expected = [boards_sent(sent) for sent in request["calls"]]
        stuck = (
            f"A call of your function ran longer than {limit:g} s, the time limit for one call,"
            " and was stopped: look for a loop that never ends (the rules package answers in"
            " milliseconds)."
        )
        entries, reply = session.batch(request, len(calls), (limit, total), (stuck, late))
        for entry, boards in zip(entries, expected):
            yield lambda entry=entry, boards=boards: session.answer_of(entry, boards)
        session.value(reply)  # the student's error, if the request itself failed

    def ask_worker(self, op: str, *args, **fields):
        """A request of the worker's own about this object (``worker.FIGURES``), its ``args``
        sent as plain data."""
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
        """Decided here, among the members the object gives (not by its own ``__contains__``)."""
        return any(member == item for member in self)
