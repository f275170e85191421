"""Every multiset of up to five dice, numbered, with links one die up and one die down.

When only the faces showing matter and not which die shows them, a hand of five dice is one
of 252 multisets rather than one of 7,776 throws. Walking these links replaces sums over
ordered throws: adding one random die at a time averages over six neighbours, and the best
sub-hand is found among the hands one die smaller.

Tables over the lattice are plain lists indexed like ``faces``. They are filled one size at a
time with :meth:`Lattice.fold_below` and :meth:`Lattice.mean_above`, which run the loop over a
whole size inside ``map`` and ``itemgetter`` rather than in a Python loop per hand.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement, repeat
from typing import Any, TypeVar

from games.core import DIE_FACES
from games.errors import BadDiceError

HAND_SIZE = 5
T = TypeVar("T")
Gather = Callable[[Sequence[Any]], tuple[Any, ...]]


@dataclass(frozen=True)
class Lattice:
    """The multisets of 0 to 5 dice, smallest first, sorted within a size.

    ``faces[i]`` are the sorted dice of multiset ``i``; ``index`` maps them back;
    ``of_size[k]`` is the range of indices of the multisets of ``k`` dice. ``minus[i]`` holds
    ``i`` less one die, once per distinct face. Per size ``k``, ``down[k]`` holds the same
    links as column getters over ``of_size[k]`` and ``up[k]`` six of them: the hand with one
    more die showing 1, ..., 6.
    """

    faces: tuple[tuple[int, ...], ...]
    index: Mapping[tuple[int, ...], int]
    of_size: tuple[range, ...]
    minus: tuple[tuple[int, ...], ...]
    down: tuple[tuple[Gather, ...], ...]
    up: tuple[tuple[Gather, ...], ...]

    def find(self, dice: Iterable[int]) -> int:
        """The index of these dice in any order; BadDiceError for a face or count out of range."""
        key = tuple(sorted(dice))
        found = self.index.get(key)
        if found is None:
            bad = [d for d in key if d not in DIE_FACES]
            if bad:
                raise BadDiceError(f"a die shows 1 to 6, got {bad[0]!r}")
            raise BadDiceError(f"at most {HAND_SIZE} dice, got {len(key)}")
        return found

    def sub_multisets(self, i: int) -> list[int]:
        """Every multiset inside ``i`` (itself and the empty one included), largest first."""
        seen = {i}
        frontier = [i]
        while frontier:
            frontier = [m for j in frontier for m in self.minus[j] if m not in seen]
            seen.update(frontier)
        return sorted(seen, reverse=True)

    def fold_below(
        self, size: int, own: Iterable[T], table: Sequence[T], combine: Callable[..., T]
    ) -> list[T]:
        """For each hand of ``size`` dice: ``combine(own value, table at each hand one die
        smaller...)``, with ``combine`` ``max`` say."""
        return list(map(combine, own, *[take(table) for take in self.down[size]]))

    def mean_above(self, size: int, table: Sequence[float]) -> list[float]:
        """For each hand of ``size`` dice: the mean of ``table`` over the six hands one die
        larger, that is the expectation after throwing one more die."""
        sums = map(sum, zip(*[take(table) for take in self.up[size]], strict=True))
        return list(map(operator.truediv, sums, repeat(len(DIE_FACES))))


def _columns(rows: Sequence[tuple[int, ...]], width: int) -> tuple[Gather, ...]:
    """Getters of the links as columns: the ``n``-th getter takes each row's ``n``-th link
    (short rows repeat their first) from a table, in one C call."""
    padded = [row + row[:1] * (width - len(row)) for row in rows]
    return tuple(_gather(column) for column in zip(*padded, strict=True)) if width else ()


def _gather(column: tuple[int, ...]) -> Gather:
    if len(column) > 1:
        return operator.itemgetter(*column)
    return lambda table: (table[column[0]],)  # itemgetter of one index gives no tuple


def _first_of_each_face(hand: tuple[int, ...]) -> list[int]:
    return [j for j, face in enumerate(hand) if j == 0 or face != hand[j - 1]]


@functools.cache
def lattice() -> Lattice:
    """The one shared lattice, built on first use (about a millisecond)."""
    faces = tuple(
        hand for size in range(HAND_SIZE + 1)
        for hand in combinations_with_replacement(DIE_FACES, size)
    )
    index = {hand: i for i, hand in enumerate(faces)}
    starts = [faces.index((1,) * size) for size in range(HAND_SIZE + 1)] + [len(faces)]
    of_size = tuple(range(starts[k], starts[k + 1]) for k in range(HAND_SIZE + 1))
    minus = tuple(tuple(index[hand[:j] + hand[j + 1:]] for j in _first_of_each_face(hand))
                  for hand in faces)
    plus: list[list[int]] = [[] for _ in faces]
    for i in range(len(faces)):  # i less a die is m, so m plus that die is i; faces ascend
        for m in minus[i]:
            plus[m].append(i)
    return Lattice(
        faces=faces,
        index=index,
        of_size=of_size,
        minus=minus,
        down=tuple(_columns([minus[i] for i in of_size[k]], k) for k in range(HAND_SIZE + 1)),
        up=tuple(_columns([tuple(plus[i]) for i in of_size[k]], len(DIE_FACES))
                 for k in range(HAND_SIZE)),
    )
