"""One sandbox for all untrusted code (a student's answer, a tournament player).

Where namespaces are allowed, bubblewrap gives each run its own network (no socket reaches the
host's 127.0.0.1), pid, ipc and mount namespaces: a new root holding only the Python installation
and this package, read-only, what the caller names in ``readable``, and private /tmp and
/dev/shm that vanish with it; as root it runs as a user id of its own.  Everywhere, rlimits
(CPU, address space, processes, file size, open files) are set by ``prlimit`` on the command
itself, the wall, CPU and memory limits of the whole tree are enforced by a watcher that kills the
process and all below it (no cgroup needed), and output is capped.  Where namespaces are not
allowed it refuses (``IsolationUnavailable``, one sentence saying what to install) unless the
weaker mode is allowed; ``require_isolation()`` checks that up front and returns the line every
log, result and feedback page must then carry.  As root, untrusted code runs as a user id of its
own in both modes.

It imports nothing from the rest of ``fanorona``, so the grader and the tournament alike stand on
it.  The agreed API is written down in ``sandbox-api.md`` of the task; in short::

    done = Sandbox(Limits(wall=10, cpu=10)).run(argv, input=b"...", readable=[path])
    with Sandbox(limits).start(argv) as proc:  # proc.stdin, proc.stdout, pause(), resume()
        ...
"""

from .command import isolation
from .limits import Finished, Limits
from .policy import IsolationUnavailable, require_isolation
from .process import Running
from .sandbox import Sandbox

__all__ = [
    "Finished",
    "IsolationUnavailable",
    "Limits",
    "Running",
    "Sandbox",
    "isolation",
    "require_isolation",
]
