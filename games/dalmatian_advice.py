"""Which dice to hold in Dalmatian, and the final score that leads to on average.

The advice is exact expectimax: the player holds whatever maximises the expected final score,
assuming the same best play on every later throw, and the expectation is taken over every
outcome with its true probability (no sampling).

It works on multisets (:mod:`games.dice_multisets`). For a hand ``H`` of fewer than five dice,
``expect[c][H]`` is the expected final score of throwing the missing dice with ``c`` rerolls
(or ``c`` dice of reroll budget) still left after that throw; throwing them one at a time,
it is the mean over the six hands one die larger, so each level costs a few thousand
additions. For a full hand it is the value of choosing well from there: stop for its score,
or hold a smaller hand ``H'`` and throw again. A reroll of any size costs one reroll under
the two-reroll rule and its number of dice under ``reroll_budget``; ``reach[c][H]`` is the best
``expect`` among the hands ``H`` can be cut down to at that price.

Levels are computed per starting total, scoring rule and reroll rule the first time a query
needs them, and kept; :func:`prepare` computes every level a rule can ask for ahead of the
first query (the daemon calls it while a round's starting total is on the screen).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.core import check_dice
from games.dalmatian_score import check_total, score_table
from games.dice_multisets import HAND_SIZE, lattice
from games.errors import OptionError

REROLLS = 2
BUDGET = 8
_TIE = 1e-9  # expectations this close are equal; the larger hold then wins


@dataclass(frozen=True)
class Advice:
    """One choice: the dice held (all five: stop), the dice thrown again, the expected score."""

    hold: tuple[int, ...]
    reroll: tuple[int, ...]
    expected: float

    @property
    def stops(self) -> bool:
        return not self.reroll


class _Plan:
    """The values for one starting total, scoring rule and reroll rule, level by level."""

    def __init__(self, total: int, several_groups: bool, budget_rule: bool) -> None:
        self.score = score_table(total, several_groups)
        self.stop = [float(s) for s in self.score[lattice().of_size[HAND_SIZE].start:]]
        self.budget_rule = budget_rule
        self.expect: list[list[float]] = []
        self.reach: list[list[float]] = []

    def level(self, left: int) -> list[float]:
        """``expect`` with ``left`` rerolls (or dice of budget) after the throw."""
        while len(self.expect) <= left:
            self._add_level()
        return self.expect[left]

    def _add_level(self) -> None:
        shape = lattice()
        left = len(self.expect)
        full = shape.of_size[HAND_SIZE]
        below = self.reach[left - 1] if left else None
        expect = [0.0] * full.start
        expect += self.stop if below is None else shape.fold_below(HAND_SIZE, self.stop, below, max)
        for size in reversed(range(HAND_SIZE)):
            part = shape.of_size[size]
            expect[part.start:part.stop] = shape.mean_above(size, expect)
        reach = expect[:full.start]
        # Under the two-reroll rule cutting a hand down further is free (same level, smaller
        # hands first); under the budget each die cut costs one, so it looks a level down.
        cut = below if self.budget_rule else reach
        if cut is not None:
            for size in range(1, HAND_SIZE):
                part = shape.of_size[size]
                reach[part.start:part.stop] = shape.fold_below(
                    size, expect[part.start:part.stop], cut, max)
        self.expect.append(expect)
        self.reach.append(reach)


_PLANS: dict[tuple[int, bool, bool], _Plan] = {}


def _plan(total: int, several_groups: bool, budget_rule: bool) -> _Plan:
    key = (total, several_groups, budget_rule)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = _Plan(total, several_groups, budget_rule)
    return plan


def choices(
    dice: Iterable[int],
    total: int,
    *,
    rerolls: int | None = None,
    budget: int | None = None,
    several_groups: bool = False,
) -> list[Advice]:
    """Every distinct hold allowed now, best first.

    Give ``rerolls`` left (0 to 2) for the standard rule or ``budget``, the dice that may
    still be rerolled (0 to 8), for the ``reroll_budget`` variation.
    """
    hand = check_dice(tuple(dice), HAND_SIZE)
    check_total(total)
    budget_rule, left = _reroll_rule(rerolls, budget)
    plan = _plan(total, bool(several_groups), budget_rule)
    shape = lattice()
    whole = shape.find(hand)
    found = [Advice(shape.faces[whole], (), float(plan.score[whole]))]
    for held in shape.sub_multisets(whole)[1:]:
        thrown = HAND_SIZE - len(shape.faces[held])
        after = left - thrown if budget_rule else left - 1
        if after >= 0:
            found.append(Advice(shape.faces[held], _less(shape.faces[whole], shape.faces[held]),
                                plan.level(after)[held]))
    return sorted(found, key=lambda a: (-round(a.expected / _TIE), -len(a.hold), a.hold))


def prepare(total: int, *, budget: int | None = None, several_groups: bool = False) -> None:
    """Compute every level a game under this rule can query (two rerolls, or a ``budget`` of
    dice), so that each later :func:`choices` call only looks values up; cheap once done."""
    check_total(total)
    budget_rule, most = _reroll_rule(None, budget)
    lattice()
    _plan(total, bool(several_groups), budget_rule).level(most - 1)


def turn_value(total: int, *, budget: int | None = None, several_groups: bool = False) -> float:
    """The expected score of a whole turn played at best, before its first throw: what a
    turn against ``total`` is worth on average, the yardstick of luck."""
    check_total(total)
    budget_rule, most = _reroll_rule(None, budget)
    return _plan(total, bool(several_groups), budget_rule).level(most)[lattice().find(())]


def prepared(total: int, *, budget: int | None = None, several_groups: bool = False) -> bool:
    """Whether every level :func:`prepare` builds for this rule is there already."""
    budget_rule, most = _reroll_rule(None, budget)
    plan = _PLANS.get((total, bool(several_groups), budget_rule))
    return plan is not None and len(plan.expect) >= most


def advise(
    dice: Iterable[int],
    total: int,
    *,
    rerolls: int | None = None,
    budget: int | None = None,
    several_groups: bool = False,
) -> Advice:
    """The hold with the highest expected final score (on a tie, the one holding more dice)."""
    return choices(dice, total, rerolls=rerolls, budget=budget, several_groups=several_groups)[0]


def _reroll_rule(rerolls: int | None, budget: int | None) -> tuple[bool, int]:
    """(budget rule?, how many left) from the one of the two that is given."""
    if budget is not None:
        if rerolls is not None:
            raise OptionError("give rerolls left or a reroll budget left, not both")
        if type(budget) is not int or not 0 <= budget <= BUDGET:
            raise OptionError(f"a reroll budget left is 0 to {BUDGET} dice, got {budget!r}")
        return True, budget
    left = REROLLS if rerolls is None else rerolls
    if type(left) is not int or not 0 <= left <= REROLLS:
        raise OptionError(f"rerolls left are 0 to {REROLLS}, got {left!r}")
    return False, left


def _less(hand: tuple[int, ...], held: tuple[int, ...]) -> tuple[int, ...]:
    """The dice of ``hand`` not in ``held`` (both sorted multisets)."""
    rest = list(hand)
    for die in held:
        rest.remove(die)
    return tuple(rest)
