"""Dalmatian's score: how many dice form groups that each add up to the starting total.

Standard rule: the groups are disjoint, a die on its own equal to the total is a group, and
the score is the most dice such a split can use. Variation 1 (``several_groups``): a die may
serve in several groups and the score counts the dice that belong to at least one.

Only the faces matter, not which die shows them, so both scores are tables over the
multisets of up to five dice (:mod:`games.dice_multisets`), built for a total on first use in
well under a millisecond; after that a score is a dictionary lookup. The advisor reads the
same tables.
"""

from __future__ import annotations

import functools
import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

from games.dice_multisets import HAND_SIZE, lattice
from games.errors import BadDiceError

TOTALS = range(2, 13)
Group = tuple[int, ...]


@dataclass(frozen=True)
class _Disjoint:
    """Scores by disjoint groups: ``splits`` of every hand that is a union of groups, and
    ``score`` of every hand, the size of its largest sub-hand that is one."""

    score: list[int]
    splits: dict[int, tuple[Group, ...]]


def check_total(total: int) -> int:
    """The starting total, or BadDiceError: two dice make 2 to 12."""
    if type(total) is not int or total not in TOTALS:
        raise BadDiceError(f"the starting total is two dice, 2 to 12; got {total!r}")
    return total


@functools.cache
def _groups(total: int) -> tuple[int, ...]:
    """The multisets of one to five dice adding up to ``total``, fewest dice first."""
    faces = lattice().faces
    return tuple(i for i in range(1, len(faces)) if sum(faces[i]) == total)


@functools.cache
def _disjoint(total: int) -> _Disjoint:
    shape = lattice()
    faces = shape.faces
    splits: dict[int, tuple[int, ...]] = {0: ()}
    queue = [0]
    for packed in queue:  # grows while it is walked: every union of groups that fits in a hand
        for group in _groups(total):
            if len(faces[packed]) + len(faces[group]) <= HAND_SIZE:
                union = shape.index[tuple(sorted(faces[packed] + faces[group]))]
                if union not in splits:
                    splits[union] = (*splits[packed], group)
                    queue.append(union)
    own = [0] * len(faces)
    for i in splits:
        own[i] = len(faces[i])
    score = [0]
    for size in range(1, HAND_SIZE + 1):
        part = shape.of_size[size]
        score += shape.fold_below(size, own[part.start:part.stop], score, max)
    return _Disjoint(score, {i: tuple(sorted(faces[g] for g in gs)) for i, gs in splits.items()})


@functools.cache
def _covered_faces(total: int) -> list[int]:
    """For each hand, a bit mask of the faces that belong to some group inside it."""
    shape = lattice()
    own = [sum(1 << f for f in set(hand)) if sum(hand) == total else 0 for hand in shape.faces]
    covered = [0]
    for size in range(1, HAND_SIZE + 1):  # a group inside a hand is the hand or inside one less
        part = shape.of_size[size]
        covered += shape.fold_below(size, own[part.start:part.stop], covered, _union)
    return covered


def _union(*masks: int) -> int:
    return functools.reduce(operator.or_, masks)


@functools.cache
def score_table(total: int, several_groups: bool = False) -> tuple[int, ...]:
    """The score of every multiset of :func:`games.dice_multisets.lattice`, by its index."""
    check_total(total)
    if not several_groups:
        return tuple(_disjoint(total).score)
    covered = _covered_faces(total)
    return tuple(sum(covered[i] >> f & 1 for f in hand) for i, hand in enumerate(lattice().faces))


def score(dice: Iterable[int], total: int, several_groups: bool = False) -> int:
    """The score of up to five dice against ``total``."""
    return score_table(total, several_groups)[lattice().find(dice)]


def best_split(dice: Iterable[int], total: int, several_groups: bool = False) -> tuple[Group, ...]:
    """The groups that make the score, each a sorted tuple of die values.

    Standard rule: disjoint groups holding the most dice. Variation 1: the fewest groups
    that together use every scoring die (a die may appear in several of them).
    """
    check_total(total)
    i = lattice().find(dice)
    if several_groups:
        return _cover(i, total)
    table = _disjoint(total)
    minus = lattice().minus
    while i not in table.splits:  # down to the sub-hand that makes the score
        i = next(m for m in minus[i] if table.score[m] == table.score[i])
    return table.splits[i]


@functools.lru_cache(maxsize=4096)
def _cover(i: int, total: int) -> tuple[Group, ...]:
    faces = lattice().faces
    hand = Counter(faces[i])
    inside = [faces[g] for g in _groups(total) if not Counter(faces[g]) - hand]
    wanted = {f: n for f, n in hand.items() if any(f in group for group in inside)}
    for count in range(1, HAND_SIZE + 1):
        if not wanted:
            break
        for groups in combinations_with_replacement(inside, count):
            if _covers(groups, wanted):
                return tuple(sorted(groups))
    return ()


def _covers(groups: Sequence[Group], wanted: dict[int, int]) -> bool:
    """Whether these groups, laid on the dice, can between them touch every wanted die."""
    return all(sum(group.count(f) for group in groups) >= n for f, n in wanted.items())
