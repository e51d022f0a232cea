"""Level 5 as it was before the strength work, frozen, for ``benchmarks/bench_strength.py`` to
play the new level 5 against: the alpha-beta player, its compiled search and its scores, copied
from ``fanorona/engine/`` and kept as they were.

Importing it registers the ``frozen5`` player spec with ``fanorona.engine.arena``
(``frozen5`` is level 5, ``frozen5:time=0.2`` the same search at another time a turn,
``frozen5:depth=4`` the same search to a fixed depth, whatever the machine's load).
"""

from __future__ import annotations

from fanorona.engine.arena import register_player

from .ai import AlphaBetaPlayer

#: Level 5's settings when the search was frozen (``ai.LEVELS[5]``, "alphabeta:time=1.8,endgame=4").
LEVEL5 = {"time_limit": 1.8, "endgame": 4}


def frozen_player(spec: str, seed=None) -> AlphaBetaPlayer:
    """The frozen level 5 for the arena spec ``frozen5``, ``frozen5:time=SECONDS`` or
    ``frozen5:depth=TURNS``."""
    _kind, _, options = spec.strip().partition(":")
    settings: dict = dict(LEVEL5)
    for item in filter(None, options.split(",")):
        key, _, value = item.partition("=")
        key = key.strip()
        if key == "time":
            try:
                settings["time_limit"] = float(value)
            except ValueError:
                raise ValueError(
                    f"{spec!r}: time must be a number of seconds; got {value!r}"
                ) from None
        elif key == "depth":
            try:
                settings["depth"] = int(value)
            except ValueError:
                raise ValueError(f"{spec!r}: depth must be a whole number; got {value!r}") from None
        else:
            raise ValueError(f"{spec!r}: frozen5 takes time=SECONDS or depth=TURNS, not {key!r}")
    player = AlphaBetaPlayer(seed=seed, **settings)
    player.name = spec.strip()
    return player


register_player("frozen5", frozen_player)
