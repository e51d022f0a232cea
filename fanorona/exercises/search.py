"""Checks a student's minimax and alpha-beta on hand-sized game trees by the nodes they visit.

A right value is not enough: a search that looks at every leaf gets alpha-beta's value too.
So the tree records each node the search looks at, in order, and the checker compares that
list with the reference search's, as Berkeley's CS188 does with the states a search expands.

A tree is a dict: an inner node's name maps to its children's names (left to right), a leaf's
to its value for the maximizing side.  The root is ``"A"`` and the maximizing side moves there.
The reference alpha-beta stops looking at a node's children once ``alpha >= beta`` (equality
prunes too, as notebook 7's ``alphabeta`` does).

The grader (``fanorona.grading``) runs the student's search in its sandboxed worker, on a tree of
the worker's own built from the same dict, and judges the value and the nodes looked at that come
back with ``judge``, here, one tree at a time.
"""

from __future__ import annotations

import math
import random
import string
from fractions import Fraction

from .credit import weigh
from .guard import UNFINISHED, ExerciseFailed, Guard

#: The tree notebook 7 draws and asks about: max at A, min at B, C and D.
HAND_TREE = {
    "A": ["B", "C", "D"],
    "B": ["E", "F"],
    "C": ["G", "H", "I"],
    "D": ["J", "K"],
    "E": 5,
    "F": 8,
    "G": 3,
    "H": 9,
    "I": 1,
    "J": 7,
    "K": 4,
}


#: Nodes a search may look at on one tree before it is stopped (the largest tree has 59).
LOOKS = 1000


class Tree:
    """A game tree that remembers which nodes were looked at, in order."""

    def __init__(self, nodes: dict, limit: int = LOOKS):
        self.nodes, self.limit = nodes, limit
        self.looked: list[str] = []

    def look(self, node: str):
        """The children's names of an inner node (a list), or a leaf's value (a number)."""
        if node not in self.nodes:
            raise ExerciseFailed(f"the tree has no node {node!r}")
        if len(self.looked) >= self.limit:
            raise ExerciseFailed(f"the search looked at more than {self.limit} nodes: a loop?")
        self.looked.append(node)
        seen = self.nodes[node]
        return list(seen) if isinstance(seen, list) else seen


def reference_minimax(tree: Tree, node: str, maximizing: bool) -> float:
    seen = tree.look(node)
    if not isinstance(seen, list):
        return seen
    values = [reference_minimax(tree, child, not maximizing) for child in seen]
    return max(values) if maximizing else min(values)


def reference_alphabeta(
    tree: Tree, node: str, maximizing: bool, alpha=-math.inf, beta=math.inf, strict=False
) -> float:
    """``strict`` prunes only when ``alpha > beta``: the other common convention, used only to
    recognise it in a student's answer."""
    seen = tree.look(node)
    if not isinstance(seen, list):
        return seen
    best = -math.inf if maximizing else math.inf
    for child in seen:
        value = reference_alphabeta(tree, child, not maximizing, alpha, beta, strict)
        if maximizing:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha > beta or (alpha == beta and not strict):
            break
    return best


def random_tree(seed: int, depth: int = 3, widest: int = 3) -> dict:
    """A seeded tree with ``depth`` levels below the root, 2 to ``widest`` children a node, and
    values from -9 to 9 (ties included, where the pruning rule shows)."""
    rng, names = random.Random(seed), iter(_names())
    nodes: dict[str, list[str] | int] = {}

    def grow(name: str, level: int) -> None:
        if level == depth:
            nodes[name] = rng.randint(-9, 9)
            return
        children = [next(names) for _ in range(rng.randint(2, widest))]
        nodes[name] = children
        for child in children:
            grow(child, level + 1)

    grow(next(names), 0)
    return nodes


def _names():
    yield from string.ascii_uppercase
    for first in string.ascii_uppercase:
        for second in string.ascii_lowercase:
            yield first + second


#: The trees every check runs: the hand tree, then seeded ones of depth 2 to 4.
TREES = [HAND_TREE] + [random_tree(seed, depth) for seed, depth in enumerate((2, 3, 3, 4, 4, 3))]


def _run(search, nodes: dict, alphabeta: bool) -> tuple[object, list[str]]:
    """The student's search on one tree, under the checkers' time limit, its prints captured."""
    tree, unfinished, value = Tree(nodes), False, None
    with Guard().running(search_call(alphabeta)):
        try:
            if alphabeta:
                value = search(tree, "A", True, -math.inf, math.inf)
            else:
                value = search(tree, "A", True)
        except NotImplementedError:
            unfinished = True
    if unfinished:
        raise ExerciseFailed(UNFINISHED)
    return value, tree.looked


def tree_text(number: int, nodes: dict) -> str:
    """How a sentence names tree ``number`` of ``TREES``."""
    return "the hand tree" if number == 1 else f"tree {number} ({_sketch(nodes)})"


def search_call(alphabeta: bool) -> str:
    """The call of the student's search on a tree, as a sentence names it."""
    return "search(tree, 'A', True" + (", -inf, inf)" if alphabeta else ")")


def _difference(mine: list, reference: list) -> str:
    n = next((i for i, (a, b) in enumerate(zip(mine, reference)) if a != b), None)
    if n is None:
        n = min(len(mine), len(reference))
        if len(mine) > len(reference):
            return f"after the reference's last node your search went on to {mine[n]}"
        return f"your search stopped after {n} nodes; the reference goes on to {reference[n]}"
    before = ", ".join(reference[:n]) or "nothing"
    return f"after {before} your search looked at {mine[n]}; the reference looks at {reference[n]}"


def judge(nodes: dict, number: int, value, looked: list, alphabeta: bool) -> str | None:
    """None when a search (minimax, or alpha-beta if ``alphabeta``) that returned ``value`` and
    looked at ``looked`` on tree ``number`` of ``TREES`` (``nodes``) agrees with the reference;
    else the sentence saying where it differs."""
    reference = Tree(nodes)
    if alphabeta:
        expected = reference_alphabeta(reference, "A", True)
    else:
        expected = reference_minimax(reference, "A", True)
    where = tree_text(number, nodes)
    if looked != reference.looked:
        hint = ""
        if alphabeta:
            strict = Tree(nodes)
            reference_alphabeta(strict, "A", True, strict=True)
            if looked == strict.looked:
                hint = " You prune only when alpha > beta; prune when alpha >= beta too."
            elif looked == _all_nodes(nodes):
                hint = " Your search looks at every node: it never prunes."
        return f"On {where} {_difference(looked, reference.looked)}.{hint}"
    if value != expected:
        name = "alpha-beta" if alphabeta else "minimax"
        return (
            f"On {where} your {name} visits the right nodes but returns {value!r};"
            f" the value is {expected}."
        )
    return None


def check_search(search, alphabeta: bool = False) -> int:
    """Compare ``search`` (minimax, or alpha-beta if ``alphabeta``) with the reference on every
    tree of ``TREES``: the value and the nodes looked at, in order.  Returns the number of trees.
    In a kernel it runs in a forked child, as every check does, so a search that will not stop
    (a loop inside C, signals ignored) is ended and named while the kernel goes on."""
    from .apart import apart
    from .checking import in_notebook

    if in_notebook():
        return apart(lambda: _check_search(search, alphabeta))
    return _check_search(search, alphabeta)


def _check_search(search, alphabeta: bool) -> int:
    for number, nodes in enumerate(TREES, 1):
        sentence = judge(nodes, number, *_run(search, nodes, alphabeta), alphabeta)
        if sentence is not None:
            raise ExerciseFailed(sentence)
    print(f"All {len(TREES)} trees agree: the same values and the same nodes, in order.")
    return len(TREES)


def _all_nodes(nodes: dict) -> list:
    tree = Tree(nodes)
    reference_minimax(tree, "A", True)
    return tree.looked


def _sketch(nodes: dict) -> str:
    return "; ".join(f"{k}: {' '.join(v) if isinstance(v, list) else v}" for k, v in nodes.items())


def ties_decide(nodes: dict) -> bool:
    """Whether pruning also on ``alpha == beta`` looks at other nodes of this tree than pruning
    only on ``alpha > beta``."""
    both, strict = Tree(nodes), Tree(nodes)
    reference_alphabeta(both, "A", True)
    reference_alphabeta(strict, "A", True, strict=True)
    return both.looked != strict.looked


def _tree_kind(index: int, _case) -> str:
    """The grader's cases: minimax on each tree of ``TREES``, then alpha-beta on each."""
    if index < len(TREES):
        return "minimax"
    return "alpha-beta on ties" if ties_decide(TREES[index - len(TREES)]) else "alpha-beta"


#: Pruning only on ``>`` keeps half: the trees where a tie decides are alpha-beta's point.
weigh(
    "check_game_tree",
    _tree_kind,
    {
        "minimax": Fraction(2, 5),
        "alpha-beta": Fraction(1, 10),
        "alpha-beta on ties": Fraction(1, 2),
    },
    check_search,
)
