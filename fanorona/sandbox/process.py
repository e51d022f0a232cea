"""A sandboxed process and what watches it: the wall and CPU limits of its whole tree, its output
cap, pausing it between turns, and the cleanup that leaves nothing of it behind."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

from .limits import Limits

POLL = 0.05  # seconds between two looks at the tree's wall and CPU time
#: The fastest a run's processes take memory together, in bytes a second (two cores faulting pages
#: in, measured at about 1.5 GB/s here): the watcher looks again before the room left under the
#: memory limit could be filled at that speed, and at most every ``QUICKEST`` seconds.
FILL_RATE = 4 * 2**30
QUICKEST = 0.002
#: Bytes by which the memory all of a run's processes hold may pass its limit before the watcher
#: has stopped them: what they can take at ``FILL_RATE`` while the watcher waits to be scheduled.
MEMORY_MARGIN = 128 * 2**20
TICK = os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it, read from /proc (children of every thread)."""
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{current}/task"):
                with (
                    contextlib.suppress(OSError),
                    open(f"/proc/{current}/task/{task}/children") as f,
                ):
                    queue += [int(child) for child in f.read().split()]
    return found


def cpu_of(pids: list[int]) -> float:
    """CPU seconds of these processes and of the children they have waited for."""
    ticks = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError), open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
            ticks += sum(int(fields[i]) for i in (11, 12, 13, 14))
    return ticks / TICK


PAGE = os.sysconf("SC_PAGE_SIZE")


def resident_of(pids: list[int]) -> int:
    """Bytes of memory these processes hold (resident, as the kernel counts it in statm)."""
    pages = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError), open(f"/proc/{pid}/statm") as f:
            pages += int(f.read().split()[1])
    return pages * PAGE


def signal_all(pids: list[int], number: int) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, number)


def pids_of_user(uid: int) -> list[int]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        with (
            contextlib.suppress(OSError, StopIteration, ValueError),
            open(f"/proc/{pid}/status") as f,
        ):
            line = next(line for line in f if line.startswith("Uid:"))
            if uid in map(int, line.split()[1:]):
                found.append(int(pid))
    return found


def remove_owned(uid: int, folders=("/tmp", "/dev/shm")) -> None:
    """Remove what user ``uid`` left in the shared temporary folders (without namespaces)."""
    for folder in folders:
        with contextlib.suppress(OSError):
            for entry in os.scandir(folder):
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_uid != uid:
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(entry.path, ignore_errors=True)
                    else:
                        os.unlink(entry.path)


class Running:
    """A started sandboxed process (Popen-like: ``stdin``, ``stdout``, ``pid``, ``poll()``,
    ``wait()``), watched from threads of the calling process; ``close()`` (or leaving the
    ``with`` block) kills all of it and removes what it wrote."""

    def __init__(
        self,
        popen: subprocess.Popen[bytes],
        limits: Limits,
        *,
        uid: int | None,
        folder: Path | None,
        namespaces: bool,
        capture_stdout: bool,
    ):
        self.popen, self.limits, self.uid, self.folder = popen, limits, uid, folder
        self.namespaces = namespaces
        self.pid = popen.pid
        self.stdin = popen.stdin
        self.stdout = None if capture_stdout else popen.stdout
        self.stopped: str | None = None  # the limit that ended it, once one has
        self.truncated = False
        self.captured = {"stdout": bytearray(), "stderr": bytearray()}
        self.started = time.monotonic()
        self.ended: float | None = None
        self._cpu_seen = self._cpu_final = 0.0
        self._done = threading.Event()
        streams = {"stderr": popen.stderr, **({"stdout": popen.stdout} if capture_stdout else {})}
        self._threads = [threading.Thread(target=self._wait, daemon=True)]
        self._threads += [
            threading.Thread(target=self._drain, args=(name, stream), name=name, daemon=True)
            for name, stream in streams.items()
        ]
        self._threads.append(threading.Thread(target=self._watch, daemon=True))
        for thread in self._threads:
            thread.start()

    # -- watching ----------------------------------------------------------------------------

    def _wait(self) -> None:
        """Reap it with its resource use: that includes every process below it it waited for."""
        _, status, usage = os.wait4(self.pid, 0)
        self._cpu_final = usage.ru_utime + usage.ru_stime
        code = os.waitstatus_to_exitcode(status)
        if self.namespaces and 128 < code <= 128 + 64:  # bubblewrap passes a signal on as 128+n
            code = 128 - code
        self.popen.returncode = code
        self.ended = time.monotonic()
        self._done.set()

    def tree(self) -> list[int]:
        """Its processes: every one below it, and without namespaces every one of its own user
        too (a child whose parent left is nobody's child there, but still its user's)."""
        found = descendants(self.pid)
        if self.uid is not None and not self.namespaces:
            found += sorted(set(pids_of_user(self.uid)) - set(found))
        return found

    def _watch(self) -> None:
        """The whole tree's CPU time, wall time and memory (the rlimits count each process
        alone: four children could each fill the address-space limit), looked at the more often
        the nearer the memory is to its limit."""
        wait = POLL
        while not self._done.wait(wait):
            tree = self.tree()
            self._cpu_seen = max(self._cpu_seen, cpu_of(tree))
            room = self.limits.memory - resident_of(tree)
            if self._cpu_seen > self.limits.cpu:
                self.stop("cpu")
            elif time.monotonic() - self.started > self.limits.wall:
                self.stop("wall")
            elif room < 0:
                self.stop("memory")
            wait = min(POLL, max(QUICKEST, room / FILL_RATE))

    def _drain(self, name: str, stream) -> None:
        kept = self.captured[name]
        while chunk := stream.read1(65536):
            room = self.limits.output - len(kept)
            kept += chunk[: max(room, 0)]
            if len(chunk) > room:
                self.truncated = True
                self.stop("output")

    def stop(self, reason: str) -> None:
        """Kill it for breaking the limit ``reason`` (the first reason given is kept)."""
        if self.stopped is None and not self._done.is_set():
            self.stopped = reason
        self.kill()

    # -- the Popen-like part ------------------------------------------------------------------

    def poll(self) -> int | None:
        return self.popen.returncode

    def wait(self, timeout: float | None = None) -> int | None:
        """Its return code once it has ended (negative for a signal); None after ``timeout``."""
        self._done.wait(timeout)
        return self.popen.returncode

    def pause(self) -> None:
        """Stop every process of it (SIGSTOP), so it cannot think on another's time."""
        for _ in range(2):  # a second pass for what was forked during the first
            signal_all(self.tree(), signal.SIGSTOP)

    def resume(self) -> None:
        signal_all(self.tree(), signal.SIGCONT)

    def cpu_seconds(self) -> float:
        """CPU time used so far by it and everything it started."""
        if self._done.is_set():
            return max(self._cpu_seen, self._cpu_final)
        self._cpu_seen = max(self._cpu_seen, cpu_of(self.tree()))
        return self._cpu_seen

    def errors(self) -> bytes:
        """What it wrote on standard error so far, cut at the output limit."""
        return bytes(self.captured["stderr"])

    def reason(self) -> str | None:
        """Why it ended: the limit that stopped it, or the one its exit shows it ran into."""
        if self.stopped:
            return self.stopped
        code = self.popen.returncode
        if code == -signal.SIGXCPU or (
            code == -signal.SIGKILL and self.cpu_seconds() >= self.limits.cpu - 0.5
        ):
            return "cpu"
        if code and b"MemoryError" in self.captured["stderr"][-4096:]:
            return "memory"
        return None

    # -- the end -----------------------------------------------------------------------------

    def kill(self) -> None:
        """SIGKILL its whole tree and group (and, without namespaces, its user's processes)."""
        if not self._done.is_set():  # once reaped, its pid may be another process's
            signal_all(descendants(self.pid), signal.SIGKILL)
        with contextlib.suppress(OSError):  # a group's id is not reused while it has members
            os.killpg(self.pid, signal.SIGKILL)
        if self.uid is not None and not self.namespaces:
            signal_all(pids_of_user(self.uid), signal.SIGKILL)

    def close(self) -> None:
        self.kill()
        self._done.wait()
        for thread in self._threads:  # without namespaces, a process that left may hold a pipe
            thread.join(timeout=2)
        # a stream still being read cannot be closed (it would wait for the reader): left to GC
        drained = {"stdout": self.stdout is not None, "stderr": False}
        for thread in self._threads[1:-1]:
            if not thread.is_alive():
                drained[thread.name] = True
        for name, stream in [
            ("stdin", self.popen.stdin),
            ("stdout", self.popen.stdout),
            ("stderr", self.popen.stderr),
        ]:
            if stream is not None and drained.get(name, True):
                with contextlib.suppress(OSError):
                    stream.close()
        if self.uid is not None and not self.namespaces:
            remove_owned(self.uid)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Running:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
