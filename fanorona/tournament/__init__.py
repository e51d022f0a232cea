"""Tournament night: the class's players against each other and the built-in levels, isolated,
rated, and played on Dask.

``python -m fanorona.tournament run night.sqlite submitted/ --levels 1,2,3`` plays a round robin
(or ``--schedule swiss --rounds 7``) and prints the ratings and the crosstable; running it again
resumes a killed tournament.  ``check my_player.py`` is the students' checker, ``template FILE``
writes a player to start from.  From Python: ``Tournament``, ``check_player``, ``builtin``,
``submissions``, ``from_file``.
"""

from __future__ import annotations

__all__ = [
    "TEMPLATE",
    "Limits",
    "Tournament",
    "builtin",
    "check_player",
    "dask_client",
    "from_file",
    "submissions",
]

_WHERE = {
    "Limits": "sandbox",
    "Tournament": "run",
    "dask_client": "run",
    "check_player": "check",
    "builtin": "players",
    "from_file": "players",
    "submissions": "players",
    "TEMPLATE": "players",
}


def __getattr__(name):
    """Loaded on first use, so that the students' checker (``check``) loads without Dask."""
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module 'fanorona.tournament' has no attribute {name!r}")
