"""Long waits reported as state: the fraction done and the time left, from tqdm's own estimate.

The package shows its long work (an endgame table built, the fast search compiled) with tqdm
bars, all made by ``fanorona.engine.bars``.  ``watching_bars`` reads the bars that open while
some work runs, a few times a second,
and hands each reading to a callback as a ``Progress``, so the board can show a bar of its own
in its status area instead of a "please wait" that may be wrong by minutes.  Where no thread can
start (JupyterLite's kernel), each bar is read when tqdm draws it instead.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass

from ..engine.bars import WATCHERS, open_bars

#: Seconds between readings of the bars.
EVERY = 0.25


@dataclass(frozen=True)
class Progress:
    """A long wait: what is being done, the fraction done (0 to 1) and tqdm's estimate of the
    seconds left (None until it has one)."""

    what: str
    fraction: float
    remaining: float | None = None

    @property
    def left(self) -> str:
        """The time left as tqdm writes it, e.g. "01:15"."""
        from tqdm.std import tqdm

        return "" if self.remaining is None else tqdm.format_interval(self.remaining)


def reading(bar) -> Progress | None:
    """A bar's progress as tqdm itself computes it (its percentage and remaining time), or None
    for a bar without a total."""
    info = dict(bar.format_dict)
    if not info.get("total"):
        return None
    info["bar_format"] = "{percentage}|{remaining_s}"
    percent, remaining = bar.format_meter(**info).split("|")
    seconds = None if remaining in ("", "None") or info["n"] == 0 else float(remaining)
    return Progress(
        str(info.get("prefix") or "").rstrip(": "), min(float(percent) / 100, 1.0), seconds
    )


@contextmanager
def watching_bars(report, every: float = EVERY):
    """While the block runs, call ``report(Progress)`` with the newest bar opened in it, every
    ``every`` seconds while a bar is open; ``report(None)`` at the end."""
    before = {id(bar) for bar in open_bars()}
    done = threading.Event()

    def watch():
        while not done.wait(every):
            bars = [bar for bar in open_bars() if id(bar) not in before]
            found = reading(bars[-1]) if bars else None
            if found is not None:
                report(found)

    watcher = threading.Thread(target=watch, daemon=True, name="fanorona-progress")
    try:
        watcher.start()
    except RuntimeError:  # no threads here (JupyterLite's kernel): read each bar as it is drawn
        with reading_when_drawn(report, before):
            yield
        return
    try:
        yield
    finally:
        done.set()
        watcher.join()
        report(None)


@contextmanager
def reading_when_drawn(report, before: set[int]):
    """``watching_bars`` without a thread: a bar opened in the block is read each time tqdm
    draws it (at most every ``mininterval``), in the thread doing the work."""

    def drawn(bar) -> None:
        if id(bar) not in before and not getattr(bar, "disable", True):
            found = reading(bar)
            if found is not None:
                report(found)

    WATCHERS.append(drawn)
    try:
        yield
    finally:
        WATCHERS.remove(drawn)
        report(None)


__all__ = ["Progress", "reading", "watching_bars"]
