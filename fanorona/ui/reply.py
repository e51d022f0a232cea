"""What an action of the board answers: an ``Action`` (what happened) and the sentence to show."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .labels import say


class Action(str, Enum):
    """What an action did (equal to its word, so ``reply.action == "moved"`` holds)."""

    SELECTED, DESELECTED, CHOOSE, CANCELLED = "selected", "deselected", "choose", "cancelled"
    MOVED, CHAIN, ENDED, REFUSED, ERROR = "moved", "chain", "ended", "refused", "error"
    UNDONE, REDONE, LOADED, NEW = "undone", "redone", "loaded", "new"
    SETTINGS, RESUMED, LIVE, REPLAYING = "settings", "resumed", "live", "replaying"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:  # a printed Reply reads as before: Reply(action='moved', ...)
        return repr(self.value)


@dataclass(frozen=True)
class Reply:
    """What an action did and the sentence the status line shows (``said``: its parts, to say again
    in another language)."""

    action: Action
    message: str
    said: tuple = field(default=(), compare=False, repr=False)


def answer(language: str, action: Action, key: str | None = None, **values) -> Reply:
    """The reply of an action, its sentence (template ``key`` of ``fanorona.ui.labels``) said in
    ``language``; no key: nothing to say."""
    if key is None:
        return Reply(action, "")
    return Reply(action, say(language, key, **values), ((key, values),))


__all__ = ["Action", "Reply", "answer"]
