"""Partial credit: what an answer that is not right everywhere keeps of a check's points.

Counting the cases that agree lets the easy cases outweigh the hard part: a ``winner`` that
ignores "stuck" agreed on 98 % of the positions.  So a check with a rule here sorts its cases
into kinds, each worth a fixed share of the points, and a kind earns its share times the share
of its cases that agree; the kinds are cut so that one systematic mistake keeps at most half the
points.  A check without a rule earns the share of its cases that agree.  Every case agreeing is
full points under any rule.  ``docs/reference/partial-credit.md`` gives each check's rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class Rule:
    """``kind(index, case)`` names what a case tests (its ``index`` in the check's order, the
    ``Case`` where the check has them); ``shares`` are the kinds' shares of the points, in the
    order the rule's sentence names them, summing to 1."""

    kind: Callable[[int, Any], str]
    shares: dict[str, Fraction]

    def __post_init__(self):
        if sum(self.shares.values()) != 1:
            raise ValueError(f"the shares {self.shares} do not sum to 1")

    def sentence(self) -> str:
        """The rule in words, as the docstrings and the partial-credit line give it."""
        parts = ", ".join(f"{kind} {share}" for kind, share in self.shares.items())
        return (
            f"Partial credit: the cases are weighted by kind ({parts} of the points), each kind"
            " earning its weight times the share of its cases that agree."
        )


#: The checks with a rule of their own, by the name of their check cell's function.
RULES: dict[str, Rule] = {}

#: The rule of a check without one of its own, for its docstring.
PLAIN = "Partial credit: the share of the cases that agree."


def weigh(name: str, kind: Callable[[int, Any], str], shares: dict[str, Fraction], checker=None):
    """Give the check ``name`` its rule, and add the rule to ``checker``'s docstring (when
    given)."""
    rule = RULES[name] = Rule(kind, shares)
    if checker is not None:
        checker.__doc__ = f"{checker.__doc__.rstrip()}\n\n{rule.sentence()}"
    return rule


def plainly(*checkers) -> None:
    """Add the plain rule to the docstrings of checks counted plainly."""
    for checker in checkers:
        checker.__doc__ = f"{checker.__doc__.rstrip()}\n\n{PLAIN}"


def share(name: str, outcomes: Sequence[tuple[Any, bool]]) -> float:
    """The share of the points earned by a check whose cases, in order, gave ``outcomes``
    (``(case, agreed)``; a case never reached counts as not agreeing).  A kind with no case in
    this run gives its weight to the others in proportion."""
    if not outcomes:
        return 0.0
    rule = RULES.get(name)
    if rule is None:
        return sum(ok for _case, ok in outcomes) / len(outcomes)
    seen: dict[str, list[bool]] = {}
    for index, (case, ok) in enumerate(outcomes):
        kind = rule.kind(index, case)
        if kind not in rule.shares:
            raise ValueError(f"the check {name} has no kind {kind!r} in its rule")
        seen.setdefault(kind, []).append(ok)
    weight = sum(rule.shares[kind] for kind in seen)
    earned = sum(rule.shares[kind] * Fraction(sum(oks), len(oks)) for kind, oks in seen.items())
    return float(earned / weight)


def explained(name: str) -> str:
    """The words on weighting for a partial-credit line ("" for a check counted plainly)."""
    rule = RULES.get(name)
    if rule is None:
        return ""
    return ", ".join(f"{kind} {share}" for kind, share in rule.shares.items())
