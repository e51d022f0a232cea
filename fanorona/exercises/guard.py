"""Running the student's code: a time limit on each call, its prints captured, and one sentence
for every way out that is not an answer.

``Guard.running`` runs a block of the student's code under a time limit (SIGALRM on the main
thread, where a Jupyter kernel runs its cells, else a watchdog thread that raises in the checking
thread), with its printed output captured and capped, and turns a timeout, an interrupt (Ctrl-C,
an interrupted kernel) or ``exit()`` into an ``ExerciseFailed`` whose one sentence names the call.
"""

from __future__ import annotations

import io
import signal
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager, redirect_stderr, redirect_stdout

UNFINISHED = "Write the function first: it still raises NotImplementedError."
#: Seconds one call of the student's code may take, and all the calls of one check together: the
#: notebooks' reference solutions, timed by benchmarks/checker_time_limits.py on a busy machine,
#: could be 23 times slower (check_turns, the slowest; 32 times for its slowest call) and still
#: pass.  nbgrader's cell timeout must be longer than CHECK_LIMIT, so that a slow solution gets
#: this module's sentence rather than a CellTimeoutError.
CALL_LIMIT = 10.0
CHECK_LIMIT = 120.0
#: Characters of the student's printed output kept and shown after a check.
OUTPUT_SHOWN = 2000
#: Characters of an answer shown in a message.
ANSWER_SHOWN = 600


class ExerciseFailed(AssertionError):
    """A checker's verdict on a wrong or unfinished answer.  IPython shows only its message
    (``_render_traceback_``): the lines above it already say what differs."""

    def _render_traceback_(self) -> list[str]:
        return [f"\x1b[1;31m{type(self).__name__}\x1b[0m: {self}"]


def cut(text: str, limit: int = ANSWER_SHOWN) -> str:
    """``text``, cut after ``limit`` characters with a note of how much was left out."""
    return (
        text
        if len(text) <= limit
        else f"{text[:limit]} ... ({len(text) - limit:,} more characters)"
    )


class _Unfinished(Exception):
    """The student's function still raises NotImplementedError, as the stub of a student copy
    does."""


class _TimeUp(BaseException):
    """Raised into the student's code when its time is up (a BaseException, so ``except Exception``
    in the student's code does not swallow it)."""


def came_from_time_up(error: BaseException | None) -> bool:
    """Whether ``error`` was raised while a ``_TimeUp`` was being handled (matplotlib's cleanup
    after a stopped draw, say, raises ValueError of its own)."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, _TimeUp):
            return True
        seen.add(id(error))
        error = error.__context__
    return False


@contextmanager
def time_limit(seconds: float):
    """Raise ``_TimeUp`` in this thread if the block runs longer than ``seconds``, and again every
    quarter second after, in case the student's code catches it.  On the main thread (a Jupyter
    kernel's cells run there) a SIGALRM timer does it, even inside ``time.sleep``; elsewhere a
    watchdog thread raises it asynchronously (pure Python code only)."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        armed = [True]

        def ring(_signum, _frame):
            if armed[0]:
                raise _TimeUp()

        previous = signal.signal(signal.SIGALRM, ring)
        started = time.monotonic()
        outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds, 0.25)
        try:
            yield
        finally:
            armed[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)
            if outer:  # someone else's timer (pytest-timeout, say) was running: put it back
                signal.setitimer(
                    signal.ITIMER_REAL, max(outer - (time.monotonic() - started), 0.001)
                )
        return
    import ctypes

    target, done = threading.get_ident(), threading.Event()

    def watch():
        wait = seconds
        while not done.wait(wait):
            ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(target), ctypes.py_object(_TimeUp)
            )
            wait = 0.25

    watchdog = threading.Thread(target=watch, daemon=True, name="fanorona-exercises-time-limit")
    watchdog.start()
    try:
        yield
    finally:
        done.set()
        watchdog.join()


class CappedText(io.TextIOBase):
    """Where the student's prints go during a check: the first ``keep`` characters are kept, the
    rest only counted (a function printing a megabyte a call must not fill the notebook)."""

    def __init__(self, keep: int = OUTPUT_SHOWN):
        super().__init__()
        self.parts: list[str] = []
        self.keep, self.kept, self.total = keep, 0, 0

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        text = str(text)
        self.total += len(text)
        if self.kept < self.keep:
            self.parts.append(text[: self.keep - self.kept])
            self.kept += len(self.parts[-1])
        return len(text)

    def text(self) -> str:
        return "".join(self.parts)


def _size(n: int) -> str:
    for unit, size in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} characters"


#: Told of each student call's start and end, in the child process a check runs in (``apart``),
#: so that the parent can end a call that does not stop and say which it was; every guard of the
#: check tells it, a checker's own guards too.
_watching: list[Callable[[tuple], None] | None] = [None]


def watch_calls(tell: Callable[[tuple], None]) -> None:
    """From now on, tell ``tell`` of each student call (called once, in the check's child)."""
    _watching[0] = tell


class Guard:
    """Runs the student's code for one check: each call under ``call_limit`` seconds and all of
    them within ``check_limit``, printed output captured, and every way out that is not an answer
    (a timeout, Ctrl-C or an interrupted kernel, ``exit()``) turned into one sentence naming
    the call.
    """

    def __init__(self, call_limit: float | None = None, check_limit: float | None = None):
        self.call_limit = CALL_LIMIT if call_limit is None else call_limit
        self.check_limit = CHECK_LIMIT if check_limit is None else check_limit
        self.used, self.calls = 0.0, 0
        self.output = CappedText()

    @contextmanager
    def running(self, call, on_error: Callable[[], None] | None = None):
        """Run the block as the student's code.  ``call`` is the call's text (or a function giving
        it, worked out only when needed); ``on_error()`` shows the input before the student's own
        exception goes through with its traceback."""
        limit = min(self.call_limit, max(self.check_limit - self.used, 0.01))
        total = limit < self.call_limit
        started = time.perf_counter()
        stopped = None
        if _watching[0] is not None:
            text = call() if callable(call) else call
            _watching[0](
                (
                    "call",
                    limit,
                    {
                        why: self._sentence(why, text, limit, total)
                        for why in ("time", "interrupt", "exit")
                    },
                )
            )
        try:
            with time_limit(limit), redirect_stdout(self.output), redirect_stderr(self.output):
                yield
        except _TimeUp:
            stopped = "time"
        except KeyboardInterrupt:
            stopped = "interrupt"
        except SystemExit:
            stopped = "exit"
        except NotImplementedError:
            raise _Unfinished() from None
        except (_Unfinished, ExerciseFailed):
            raise
        except Exception as error:
            if not came_from_time_up(error):
                if on_error is not None:
                    on_error()
                raise
            stopped = "time"  # the timeout broke a library's cleanup, which raised in its place
        finally:
            if _watching[0] is not None:
                _watching[0](("returned",))
            elapsed = time.perf_counter() - started
            self.used += elapsed
            self.calls += 1
        if stopped is None and elapsed > limit:  # the student's code caught the timeout and went on
            stopped = "time"
        if stopped:
            text = call() if callable(call) else call
            raise ExerciseFailed(self._sentence(stopped, text, limit, total)) from None

    def _sentence(self, stopped: str, call: str, limit: float, total: bool) -> str:
        call = cut(call, 300)
        if stopped == "time" and total:
            return (
                f"Your code took more than {self.check_limit:g} s in all over {self.calls} calls,"
                f" the time limit of one check, and was stopped in {call}: make it faster (the"
                " rules package answers each call in milliseconds)."
            )
        if stopped == "time":
            return (
                f"{call} took longer than {limit:g} s, the time limit for one call, and was"
                " stopped: look for a loop that never ends (the rules package answers in"
                " milliseconds)."
            )
        if stopped == "interrupt":
            return (
                f"{call} was interrupted (KeyboardInterrupt) before it returned, so the check"
                " stopped there; if it runs for ever, look for a loop that never ends."
            )
        return (
            f"{call} called exit() (SystemExit): a function should return its answer, not stop"
            " Python, so the check stopped there."
        )

    def report_output(self) -> None:
        """Say what the student's code printed during the check, cut short."""
        if not self.output.total:
            return
        text = self.output.text()
        more = f", the first {len(text):,} shown" if self.output.total > len(text) else ""
        calls = f"{self.calls} call{'s' * (self.calls != 1)}"
        print(f"Your code printed {_size(self.output.total)} while it was checked ({calls}{more}):")
        print(text if text.endswith("\n") else text + "\n", end="")
        if more:
            print(
                f"... ({self.output.total - len(text):,} more characters not shown). "
                "Take the print calls out of your functions."
            )
