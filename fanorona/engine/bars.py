"""The package's progress bars, made in one place so the board can watch them: every bar of long
work (a table built, the search compiled) is made by ``bar`` and kept in ``OPEN`` while it lives,
and ``fanorona.ui.progress`` reads the open ones through tqdm's public attributes."""

from __future__ import annotations

import weakref

#: The bars made here that are still referenced (a closed bar has ``disable`` set by tqdm).
OPEN: weakref.WeakSet = weakref.WeakSet()
#: Callables told ``watcher(bar)`` each time a bar made here is drawn: how the progress is read
#: where no thread can start to read it (``fanorona.ui.progress.watching_bars``).
WATCHERS: list = []


def bar(iterable=None, notebook: bool = True, **options):
    """A tqdm bar (``tqdm.auto``'s, a widget in a notebook, unless ``notebook`` is false), with
    tqdm's own options, remembered in ``OPEN``."""
    if notebook:
        from tqdm.auto import tqdm
    else:
        from tqdm import tqdm
    made = tqdm(iterable, **options)
    OPEN.add(made)
    if WATCHERS:  # someone reads the bars where no thread can: tell them at each refresh
        shown = made.display

        def display(*args, **kwargs):
            result = shown(*args, **kwargs)
            for watcher in tuple(WATCHERS):  # a watcher may leave while told
                watcher(made)
            return result

        made.display = display
    return made


def open_bars() -> list:
    """The bars made here and not closed, oldest first."""
    return sorted(
        (b for b in list(OPEN) if not getattr(b, "disable", True)),
        key=lambda b: getattr(b, "start_t", 0),
    )
