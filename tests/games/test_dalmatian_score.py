"""Dalmatian's scorer against a brute force over subsets (the rulings' worked examples are in
test_dalmatian.py, scored alone and through a turn)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.dalmatian_score import best_split, score, score_table
from games.dice_multisets import lattice
from games.errors import BadDiceError


def subsets(n: int) -> list[tuple[int, ...]]:
    return [c for k in range(1, n + 1) for c in combinations(range(n), k)]


def splits_into_groups(dice: list[int], total: int) -> bool:
    """Whether all these dice fall into disjoint groups each adding up to ``total``."""
    if not dice:
        return True
    first, rest = dice[0], dice[1:]
    return any(
        first + sum(rest[i] for i in pick) == total
        and splits_into_groups([d for i, d in enumerate(rest) if i not in pick], total)
        for k in range(len(rest) + 1) for pick in combinations(range(len(rest)), k)
    )


def brute_standard(dice: tuple[int, ...], total: int) -> int:
    return max((len(s) for s in subsets(len(dice))
                if splits_into_groups([dice[i] for i in s], total)), default=0)


def brute_several(dice: tuple[int, ...], total: int) -> int:
    used = {i for s in subsets(len(dice)) if sum(dice[i] for i in s) == total for i in s}
    return len(used)


def dice_used(groups: tuple[tuple[int, ...], ...], dice: tuple[int, ...]) -> int:
    """How many distinct dice these groups touch when laid on ``dice`` (reuse allowed)."""
    need = Counter(d for g in groups for d in g)
    return sum(min(n, need[face]) for face, n in Counter(dice).items())


def test_the_rule_texts_examples_give_these_groups() -> None:
    assert best_split((1, 2, 3, 4, 5), 6) == ((1, 5), (2, 4))
    assert best_split((5, 4, 3, 2, 1), 6, several_groups=True) == ((1, 2, 3), (1, 5), (2, 4))
    assert best_split((1, 6, 6, 6, 6), 7, several_groups=True) == ((1, 6),) * 4
    assert best_split((2, 2, 2, 1, 1), 2) == ((1, 1), (2,), (2,), (2,))
    assert best_split((1, 1, 1, 1, 1), 12) == ()


def test_bad_dice_and_totals_are_named() -> None:
    with pytest.raises(BadDiceError, match="a die shows 1 to 6, got 7"):
        score((1, 2, 3, 4, 7), 6)
    with pytest.raises(BadDiceError, match="at most 5 dice, got 6"):
        score((1, 2, 3, 4, 5, 6), 6)
    with pytest.raises(BadDiceError, match="starting total is two dice, 2 to 12; got 13"):
        best_split((1, 2, 3, 4, 5), 13)
    with pytest.raises(BadDiceError, match="got 1"):
        score_table(1)


@pytest.mark.parametrize("several", [False, True])
def test_every_hand_of_five_against_brute_force(several: bool) -> None:
    brute = brute_several if several else brute_standard
    shape = lattice()
    for total in range(2, 13):
        table = score_table(total, several)
        for hand in combinations_with_replacement(range(1, 7), 5):
            assert table[shape.find(hand)] == brute(hand, total), (total, hand)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 6), max_size=5), st.integers(2, 12), st.booleans())
def test_best_split_is_a_valid_split_of_the_brute_force_size(
    dice: list[int], total: int, several: bool
) -> None:
    hand = tuple(dice)
    groups = best_split(hand, total, several)
    assert all(sum(g) == total and not Counter(g) - Counter(hand) for g in groups)
    if several:
        assert score(hand, total, True) == dice_used(groups, hand) == brute_several(hand, total)
        assert len(groups) <= score(hand, total, True)
    else:
        assert not Counter(d for g in groups for d in g) - Counter(hand), "groups overlap"
        assert score(hand, total) == sum(map(len, groups)) == brute_standard(hand, total)


def test_variation_1_uses_the_fewest_groups() -> None:
    for total in (6, 7, 8):
        for hand in combinations_with_replacement(range(1, 7), 5):
            groups = best_split(hand, total, several_groups=True)
            candidates = sorted({tuple(sorted(hand[i] for i in s)) for s in subsets(5)
                                 if sum(hand[i] for i in s) == total})
            for fewer in range(1, len(groups)):
                for pick in combinations_with_replacement(candidates, fewer):
                    assert dice_used(pick, hand) < dice_used(groups, hand), (hand, pick)
