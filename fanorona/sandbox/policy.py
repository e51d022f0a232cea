"""Refusing to run untrusted code without namespaces, unless an instructor allows the weaker mode.

Without bubblewrap a student's code runs with rlimits, its own session, a private folder and an
unprivileged user id, but it sees the host's network and every file others may read.  That is
acceptable only where the instructor says so, and then every log line, result and feedback page
carries the one-line description ``require_isolation`` returns.
"""

from __future__ import annotations

import os

from . import command as iso

#: ``FANORONA_ALLOW_WEAK_ISOLATION=1`` lets untrusted code run where bubblewrap cannot.
ALLOW_VARIABLE = "FANORONA_ALLOW_WEAK_ISOLATION"
_ALLOW = f"or set {ALLOW_VARIABLE}=1 to run it with rlimits only, in a setting you trust"


class IsolationUnavailable(RuntimeError):
    """Untrusted code was about to run without namespaces and nobody allowed that."""


def weak_allowed(allow_weak: bool = False) -> bool:
    return allow_weak or os.environ.get(ALLOW_VARIABLE, "") == "1"


def missing() -> str:
    """The one sentence saying why bubblewrap cannot isolate here, and what to do about it."""
    if iso.forced_off():
        return (
            f"{iso.FORCE_VARIABLE}=rlimits turns bubblewrap off, so untrusted code would run"
            f" without namespaces: unset it, {_ALLOW}."
        )
    found = iso.bubblewrap_path()
    if found is None:
        return (
            "bubblewrap (bwrap) is not on PATH, so untrusted code cannot be isolated: install it"
            f" with `apt-get install bubblewrap`, {_ALLOW}."
        )
    return (
        f"bubblewrap ({found}) cannot make namespaces here (this container or kernel forbids"
        " them), so untrusted code cannot be isolated: run where namespaces are allowed"
        f" (a container started with them), {_ALLOW}."
    )


def require_isolation(allow_weak: bool = False) -> str:
    """The one-line description of the isolation untrusted code gets here, or
    ``IsolationUnavailable`` when that would be the weaker mode and it is not allowed (by
    ``allow_weak`` or the environment variable)."""
    if iso.uses_namespaces():
        return iso.isolation(True)
    if not weak_allowed(allow_weak):
        raise IsolationUnavailable(missing())
    return iso.isolation(False)
