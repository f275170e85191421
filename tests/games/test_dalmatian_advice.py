"""Dalmatian's advisor against a naive expectimax over ordered throws, and sanity facts."""

from __future__ import annotations

import functools
from collections.abc import Callable
from itertools import combinations, combinations_with_replacement, product

import pytest

import games.dalmatian_advice
from games.dalmatian_advice import Advice, advise, choices, prepare, prepared
from games.dalmatian_score import score
from games.errors import BadDiceError, OptionError

Hand = tuple[int, ...]
HANDS = list(combinations_with_replacement(range(1, 7), 5))


def naive(total: int, several: bool, budget_rule: bool) -> Callable[[Hand, int], float]:
    """Expectimax written plainly: every kept subset of dice positions, every ordered throw.

    ``value(hand, left)``: expected final score with ``left`` rerolls (or dice of budget).
    """

    @functools.cache
    def thrown(kept: Hand, left: int) -> float:
        throws = list(product(range(1, 7), repeat=5 - len(kept)))
        return sum(value(tuple(sorted(kept + t)), left) for t in throws) / len(throws)

    @functools.cache
    def value(hand: Hand, left: int) -> float:
        best = float(score(hand, total, several))
        for k in range(5):
            cost = 5 - k if budget_rule else 1
            if cost <= left:
                for keep in combinations(range(5), k):
                    kept = tuple(sorted(hand[i] for i in keep))
                    best = max(best, thrown(kept, left - cost))
        return best

    return value


@pytest.mark.parametrize(("total", "several"), [(7, False), (3, True), (11, False)])
def test_two_rerolls_match_naive_expectimax_for_every_hand(total: int, several: bool) -> None:
    value = naive(total, several, budget_rule=False)
    for hand in HANDS:
        for left in (0, 1, 2):
            advice = advise(hand, total, rerolls=left, several_groups=several)
            assert advice.expected == pytest.approx(value(hand, left), abs=1e-9), (hand, left)


@pytest.mark.parametrize(("total", "several", "budgets"),
                         [(8, False, range(0, 6)), (5, True, range(0, 4)), (12, False, (8,))])
def test_reroll_budget_matches_naive_expectimax(
    total: int, several: bool, budgets: range | tuple[int, ...]
) -> None:
    value = naive(total, several, budget_rule=True)
    for hand in HANDS[::7]:
        for left in budgets:
            advice = advise(hand, total, budget=left, several_groups=several)
            assert advice.expected == pytest.approx(value(hand, left), abs=1e-9), (hand, left)


def test_every_choice_is_valued_as_its_hold_deserves() -> None:
    value = naive(6, False, budget_rule=False)
    hand = (1, 2, 3, 4, 5)
    listed = choices(hand, 6, rerolls=1)
    assert len(listed) == 32  # five distinct dice: every subset is a distinct hold
    for advice in listed:
        if advice.stops:
            assert advice.expected == score(hand, 6)
        else:
            thrown = list(product(range(1, 7), repeat=len(advice.reroll)))
            mean = sum(value(tuple(sorted(advice.hold + t)), 0) for t in thrown) / len(thrown)
            assert advice.expected == pytest.approx(mean, abs=1e-12)
        assert sorted(advice.hold + advice.reroll) == list(hand)
    assert [a.expected for a in listed] == sorted((a.expected for a in listed), reverse=True)


def test_five_scoring_dice_are_held_for_five() -> None:
    for left in (0, 1, 2):
        assert advise((6, 6, 6, 6, 6), 6, rerolls=left) == Advice((6, 6, 6, 6, 6), (), 5.0)
    assert advise((1, 2, 3, 4, 5), 6, budget=8, several_groups=True).expected == 5.0


def test_one_die_short_rerolls_the_odd_die() -> None:
    # Four sixes score 4 against 6; only a rerolled 6 adds a fifth: 4 + 1/6.
    advice = advise((1, 6, 6, 6, 6), 6, rerolls=1)
    assert advice.hold == (6, 6, 6, 6) and advice.reroll == (1,)
    assert advice.expected == pytest.approx(4 + 1 / 6)


def test_no_reroll_left_means_stop_and_score() -> None:
    assert advise((1, 3, 4, 6, 6), 7, rerolls=0) == Advice((1, 3, 4, 6, 6), (), 4.0)
    assert advise((1, 1, 1, 1, 1), 12, budget=0) == Advice((1, 1, 1, 1, 1), (), 0.0)


def test_more_rerolls_never_expect_less() -> None:
    for hand in HANDS[::11]:
        by_rerolls = [advise(hand, 9, rerolls=r).expected for r in (0, 1, 2)]
        by_budget = [advise(hand, 9, budget=b).expected for b in range(9)]
        assert by_rerolls == sorted(by_rerolls) and by_budget == sorted(by_budget)
        assert by_rerolls[0] == by_budget[0] == score(hand, 9)


def test_a_budget_limits_how_many_dice_one_reroll_takes() -> None:
    assert all(len(a.reroll) <= 2 for a in choices((1, 1, 1, 1, 1), 12, budget=2))
    assert len(choices((1, 2, 3, 4, 5), 12, budget=0)) == 1


def test_bad_queries_are_named() -> None:
    with pytest.raises(BadDiceError, match="5 dice are due, got 4"):
        advise((1, 2, 3, 4), 7)
    with pytest.raises(BadDiceError, match="1 to 6, got 7"):
        advise((1, 2, 3, 4, 7), 7)
    with pytest.raises(BadDiceError, match="2 to 12; got 13"):
        advise((1, 2, 3, 4, 5), 13)
    with pytest.raises(OptionError, match="rerolls left are 0 to 2, got 3"):
        advise((1, 2, 3, 4, 5), 7, rerolls=3)
    with pytest.raises(OptionError, match="budget left is 0 to 8 dice, got 9"):
        advise((1, 2, 3, 4, 5), 7, budget=9)
    with pytest.raises(OptionError, match="not both"):
        advise((1, 2, 3, 4, 5), 7, rerolls=1, budget=1)


@pytest.mark.parametrize("budget", [None, 8, 3])
def test_prepare_builds_every_level_a_game_can_ask_for(
    budget: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games.dalmatian_advice, "_PLANS", {})
    assert not prepared(9, budget=budget)
    prepare(9, budget=budget)
    assert prepared(9, budget=budget) and not prepared(9, budget=budget, several_groups=True)
    built = [len(plan.expect) for plan in games.dalmatian_advice._PLANS.values()]
    rule = {"rerolls": 2} if budget is None else {"budget": budget}
    for hand in combinations_with_replacement(range(1, 7), 5):
        choices(hand, 9, **rule)  # every query of a whole turn: nothing more to build
    assert [len(plan.expect) for plan in games.dalmatian_advice._PLANS.values()] == built
