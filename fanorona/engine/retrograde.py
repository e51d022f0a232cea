"""Retrograde analysis on a graph of positions joined by whole turns, shared by the solved small
boards (``solve``) and the endgame tables (``endgame``): the values and their byte codes, the rules
such a graph can stand for, the labelling pass, and its rule replayed as a check.
"""

from __future__ import annotations

from array import array

from ..rules import Rules

WIN, LOSS, DRAW = "win", "loss", "draw"
#: The byte that stands for each value in a table; a draw is 0, what is never labelled.
CODE = {DRAW: 0, WIN: 1, LOSS: 2}
NAME = {code: name for name, code in CODE.items()}
#: The value of a position for the side that played the turn leading to it.
OPPOSITE = {WIN: LOSS, LOSS: WIN, DRAW: DRAW}


def value_code(value: str) -> int:
    """The byte code of "win", "loss" or "draw", or ValueError for anything else.

    >>> value_code(LOSS)
    2
    """
    if value not in CODE:
        raise ValueError(f"a value is 'win', 'loss' or 'draw'; got {value!r}")
    return CODE[value]


def graph_rules(rules: Rules | None) -> Rules:
    """The rules a table is built under, ``Rules.solved()`` by default: only rules whose positions
    need no turn counter can be labelled on a graph of positions."""
    rules = Rules.solved() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a fanorona.Rules, e.g. Rules.solved(); got {rules!r}")
    if rules.quiet_draw is not None:
        raise ValueError(
            "the solver's positions carry no count of quiet turns, so it cannot use a "
            f"{rules.quiet_draw}-turn draw rule: use Rules.solved() or rules.with_(quiet_draw=None)"
        )
    if rules.opening_single_capture:
        raise ValueError(
            "the solver's positions do not know whose first turn it is, so it cannot use "
            "opening_single_capture: use rules.with_(opening_single_capture=False)"
        )
    return rules


def progress_bar(shown: bool, **options):
    """A tqdm progress bar for one pass of building a table, hidden unless ``shown``."""
    from .bars import bar

    return bar(disable=not shown, mininterval=0.5, **options)


def _predecessors(count: int, offsets, targets):
    """The reversed graph, in the same flat form."""
    degree = array("q", bytes(8 * (count + 1)))
    for j in targets:
        degree[j + 1] += 1
    for j in range(count):
        degree[j + 1] += degree[j]
    fill = array("q", degree)
    sources = array("i", bytes(4 * len(targets)))
    for i in range(count):
        for t in range(offsets[i], offsets[i + 1]):
            j = targets[t]
            sources[fill[j]] = i
            fill[j] += 1
    return degree, sources


def label_positions(offsets, targets, progress: bool, what: str) -> tuple[bytearray, array]:
    """The value code and turns to the end of every position of a graph whose successors of
    position i are ``targets[offsets[i]:offsets[i + 1]]``: losses with no move first, then outward
    one turn at a time.

    A position is a win as soon as one successor is a loss (found first at the smallest
    distance, since losses come out of the queue in order of distance); it is a loss once every
    successor is a win (the last one found being the longest).  What is never labelled is a draw.

    >>> values, distances = label_positions([0, 1, 2, 2, 3], [1, 2, 3], False, "a chain and a loop")
    >>> [NAME[code] for code in values], list(distances)
    (['loss', 'win', 'loss', 'draw'], [2, 1, 0, 0])
    """
    count = len(offsets) - 1
    back_offsets, sources = _predecessors(count, offsets, targets)
    unresolved = array("i", (offsets[i + 1] - offsets[i] for i in range(count)))
    values = bytearray(count)
    distances = array("i", bytes(4 * count))
    queue = array("i", (i for i in range(count) if unresolved[i] == 0))
    for i in queue:
        values[i] = CODE[LOSS]
    win, loss = CODE[WIN], CODE[LOSS]
    with progress_bar(progress, total=count, desc=f"labelling {what}", unit=" positions") as bar:
        head = 0
        while head < len(queue):
            j = queue[head]
            head += 1
            distance = distances[j] + 1
            j_lost = values[j] == loss
            for t in range(back_offsets[j], back_offsets[j + 1]):
                i = sources[t]
                if values[i]:
                    continue
                if j_lost:
                    values[i] = win
                else:
                    unresolved[i] -= 1
                    if unresolved[i]:
                        continue
                    values[i] = loss
                distances[i] = distance
                queue.append(i)
            if head % 4096 == 0:
                bar.update(4096)
        bar.update(head % 4096)
    return values, distances


def follows(value: str, distance: int | None, outcomes) -> bool:
    """Whether a position's ``value`` and ``distance`` are what the labelling gives from its
    ``outcomes``: (result for the side to move, turns to the end) of each of its turns.

    >>> follows(WIN, 3, [(WIN, 3), (LOSS, 2), (WIN, 5)])
    True
    >>> follows(LOSS, 3, [(LOSS, 2), (DRAW, None)])
    False
    """
    wins = [d for result, d in outcomes if result == WIN]
    if value == WIN:
        return bool(wins) and distance == min(wins)
    if value == LOSS:
        return all(result == LOSS for result, _ in outcomes) and distance == max(
            (d for _, d in outcomes), default=0
        )
    return not wins and any(result == DRAW for result, _ in outcomes)
