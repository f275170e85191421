"""The luck report against values computed here from the rule text alone.

The reference below knows nothing of the advisor: it scores a hand by trying every way of
laying its dice into groups, and values a position by exhaustive expectimax over every
ordered throw of the dice picked up (6**k equally likely throws), hand by hand.
"""

from __future__ import annotations

import functools
import random
from itertools import combinations, product
from typing import Any

import pytest

from games.core import Phase
from games.dalmatian import Dalmatian, Reroll, Stop
from games.dalmatian_advice import turn_value
from games.dalmatian_luck import PlayerLuck, TurnLuck, by_player, points, turns

Hand = tuple[int, ...]


# -- the reference, from the rule text ------------------------------------------------------

@functools.cache
def disjoint(dice: Hand, total: int) -> int:
    """Most dice in disjoint groups each adding up to ``total`` (a lone die may be one)."""
    if not dice:
        return 0
    first, rest = dice[0], dice[1:]
    best = disjoint(rest, total)  # the first die in no group
    for size in range(len(rest) + 1):
        for picked in combinations(range(len(rest)), size):
            if first + sum(rest[i] for i in picked) == total:
                left = tuple(d for i, d in enumerate(rest) if i not in picked)
                best = max(best, 1 + size + disjoint(left, total))
    return best


@functools.cache
def overlapping(dice: Hand, total: int) -> int:
    """Variation 1: dice that belong to at least one group adding up to ``total``."""
    used: set[int] = set()
    for size in range(1, len(dice) + 1):
        for picked in combinations(range(len(dice)), size):
            if sum(dice[i] for i in picked) == total:
                used.update(picked)
    return len(used)


class Reference:
    """Best expected final score of a turn under one rule, by brute force."""

    def __init__(self, total: int, several: bool, budget: bool) -> None:
        self.total, self.several, self.budget = total, several, budget

    def score(self, hand: Hand) -> int:
        return (overlapping if self.several else disjoint)(tuple(sorted(hand)), self.total)

    def after(self, left: int, thrown: int) -> int:
        """Rerolls (or budget) left after picking up ``thrown`` dice; negative: not allowed."""
        return left - thrown if self.budget else left - 1

    def holds(self, hand: Hand, left: int) -> dict[Hand, float]:
        """Every allowed hold of ``hand`` (itself: stop) with its expected final score."""
        values = {hand: float(self.score(hand))}
        for size in range(len(hand)):
            for kept in {tuple(sorted(c)) for c in combinations(hand, size)}:
                after = self.after(left, len(hand) - size)
                if after >= 0:
                    values[kept] = self.throw(kept, after)
        return values

    @functools.cache  # noqa: B019 - a few instances live for the test run
    def best(self, hand: Hand, left: int) -> float:
        return max(self.holds(hand, left).values())

    @functools.cache  # noqa: B019
    def throw(self, kept: Hand, left: int) -> float:
        """Expected final score of throwing the missing dice, ``left`` remaining after."""
        throws = list(product(range(1, 7), repeat=5 - len(kept)))
        return sum(self.best(tuple(sorted(kept + t)), left) for t in throws) / len(throws)


@functools.cache
def reference(total: int, several: bool, budget: bool) -> Reference:
    return Reference(total, several, budget)


# -- games played at random, with the expected report kept alongside -----------------------

def decide(values: dict[Hand, float], dice: Hand,
           rng: random.Random) -> tuple[Stop | Reroll, float]:
    """A player's choice among the holds ``values`` rates: the best half the time, any
    other time; and the expected points it gives up against the best."""
    kept = max(values, key=values.__getitem__) if rng.random() < 0.5 \
        else rng.choice(sorted(values))
    rest = list(dice)
    for die in kept:
        rest.remove(die)
    return Stop() if kept == dice else Reroll(tuple(rest)), max(values.values()) - values[kept]


def play(rng: random.Random, players: int, **options: Any) -> tuple[Dalmatian, list[TurnLuck]]:
    """A whole game with random dice and a mix of best and random choices, and each turn's
    report as the reference computes it."""
    game = Dalmatian.new(players, **options)
    budget = game.budget is not None
    start = game.budget if budget else 2
    expected: list[TurnLuck] = []
    cost = 0.0
    while not game.is_over:
        if game.phase is Phase.ROLL:
            game.apply(f"roll {'-'.join(str(rng.randint(1, 6)) for _ in range(game.dice_wanted))}")
        else:
            assert game.total is not None
            ref = reference(game.total, game.several_groups, budget)
            left = game.budget_left if budget else game.rerolls_left
            assert left is not None
            decision, lost = decide(ref.holds(game.dice, left), game.dice, rng)
            cost += lost
            game.apply(decision)
        turn = game.last_turn
        if turn is not None and len(expected) < _turns_done(game):  # a turn just ended
            ref = reference(turn.total, game.several_groups, budget)
            expected.append(TurnLuck(
                round=len(game.sheet), player=turn.player, total=turn.total,
                optimal=ref.throw((), start), decisions=cost, scored=ref.score(turn.dice)))
            cost = 0.0
    return game, expected


def _turns_done(game: Dalmatian) -> int:
    return sum(s is not None for row in game.sheet for s in row)


RULES = [
    pytest.param({}, id="standard"),
    pytest.param({"dice_in_several_groups": True}, id="variation-1"),
    pytest.param({"round_winner_only": True}, id="variation-2"),
    pytest.param({"reroll_budget": "8"}, id="variation-3"),
]


@pytest.mark.parametrize("options", RULES)
@pytest.mark.parametrize("seed", range(3))
def test_every_turn_matches_the_reference(options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    game, expected = play(rng, players=2 + seed, rounds=4, **options)
    found = turns(game.setup, [str(a) for a in game.history])
    assert len(found) == len(expected) == 4 * game.players
    for mine, theirs in zip(found, expected, strict=True):
        assert (mine.round, mine.player, mine.total, mine.scored) == \
            (theirs.round, theirs.player, theirs.total, theirs.scored)
        assert mine.optimal == pytest.approx(theirs.optimal, abs=1e-9)
        assert mine.decisions == pytest.approx(theirs.decisions, abs=1e-9)
        assert mine.luck == pytest.approx(theirs.luck, abs=1e-9)
        assert mine.decisions >= 0
        assert mine.scored == pytest.approx(mine.optimal - mine.decisions + mine.luck)
    assert [p.scored for p in by_player(game.setup, found)] == \
        [sum(t.scored for t in expected if t.player == seat) for seat in range(game.players)]


@pytest.mark.parametrize("total", range(2, 13))
def test_a_turn_is_worth_what_the_reference_says(total: int) -> None:
    assert turn_value(total) == pytest.approx(reference(total, False, False).throw((), 2),
                                              abs=1e-9)


def test_a_turn_played_by_hand() -> None:
    """Total 7; 1-6-6-6-6 scores 2. Stopping there with two rerolls left gives away the
    difference to the best hold; the reroll of four 6s to 2-3-4-5 then scores 4 by luck."""
    game = Dalmatian.new(2, names=["Ann", "Bob"], rounds=1)
    actions = ["roll 6-6-6-6-6", "roll 1-1-1-1-1", "roll 3-4",  # Ann opens, Ann rolls 7
               "roll 1-6-6-6-6", "stop",  # Bob stops at 2
               "roll 1-6-6-6-6", "reroll 6-6-6", "roll 2-3-4", "stop"]  # Ann: 1-2-3-4-6
    for text in actions:
        game.apply(text)
    ref = reference(7, False, False)
    bob, ann = turns(game.setup, actions)
    assert (bob.player, bob.scored, ann.player, ann.scored) == (1, 2, 0, 4)
    assert bob.decisions == pytest.approx(ref.best((1, 6, 6, 6, 6), 2) - 2)
    assert bob.luck == pytest.approx(2 - (ref.throw((), 2) - bob.decisions))
    assert ann.decisions == pytest.approx(
        ref.best((1, 6, 6, 6, 6), 2) - ref.throw((1, 6), 1) + ref.best((1, 2, 3, 4, 6), 1) - 4)
    report = {p.name: p for p in by_player(game.setup, [bob, ann])}
    assert str(report["Bob"]) == f"Bob: {points(bob.luck)} luck, {points(-bob.decisions)} decisions"


def test_five_scoring_dice_end_the_turn_with_no_decision() -> None:
    actions = ["roll 6-6-6-6-6", "roll 1-1-1-1-1", "roll 1-1", "roll 2-2-2-2-2"]
    (turn,) = turns(Dalmatian.new(2, rounds=1).setup, actions)
    assert (turn.player, turn.scored, turn.decisions) == (1, 5, 0.0)
    assert turn.luck == pytest.approx(5 - turn_value(2))


def test_player_totals_add_their_turns() -> None:
    one = TurnLuck(1, 0, 7, optimal=2.5, decisions=0.375, scored=3)
    two = TurnLuck(2, 0, 9, optimal=2.0, decisions=0.0, scored=1)
    ann = PlayerLuck(0, "Ann", (one, two))
    assert (ann.optimal, ann.decisions, ann.scored) == (4.5, 0.375, 4)
    assert ann.luck == pytest.approx(4 - (4.5 - 0.375))
    assert str(ann) == "Ann: -0.12 luck, -0.38 decisions"
