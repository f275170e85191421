"""Dalmatian's rules: opening, rounds, turns, rerolls and budget, the variations, history."""

from __future__ import annotations

import json
import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.core import Phase, Result
from games.dalmatian import Dalmatian, Reroll, Stop
from games.dalmatian_advice import advise
from games.dalmatian_score import best_split, score
from games.errors import BadDiceError, IllegalAction, NotationError, OptionError, WrongPhaseError

# total, dice, standard score, variation 1 score (RULINGS.md, Dalmatian)
WORKED = [
    (6, (1, 2, 3, 4, 5), 4, 5),
    (7, (1, 6, 6, 6, 6), 2, 5),
    (12, (6, 6, 6, 1, 1), 2, 3),
    (2, (2, 2, 2, 1, 1), 5, 5),
    (9, (3, 3, 3, 3, 3), 3, 5),
    (12, (1, 1, 1, 1, 1), 0, 0),
]


def two_dice(total: int) -> tuple[int, int]:
    return (min(6, total - 1), total - min(6, total - 1))


def at_turn(total: int, players: int = 2, **options: Any) -> Dalmatian:
    """A game whose opening P1 won, at the first turn of a round with this starting total."""
    state = Dalmatian.new(players, **options)
    state.roll(6, 6, 6, 6, 6)
    for _ in range(players - 1):
        state.roll(1, 1, 1, 1, 1)
    state.roll(*two_dice(total))
    return state


def play_random(state: Dalmatian, rng: random.Random) -> None:
    while not state.is_over:
        if state.phase is Phase.ROLL:
            state.roll(*(rng.randint(1, 6) for _ in range(state.dice_wanted)))
        else:
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("total", "dice", "standard", "several"), WORKED,
                         ids=[f"total{t}-{'-'.join(map(str, d))}" for t, d, _, _ in WORKED])
def test_worked_examples_are_recorded_when_the_turn_ends(
    total: int, dice: tuple[int, ...], standard: int, several: int
) -> None:
    assert score(dice, total) == standard
    assert score(dice, total, several_groups=True) == several
    assert sum(len(g) for g in best_split(dice, total)) == standard
    for option, expected in ((False, standard), (True, several)):
        state = at_turn(total, dice_in_several_groups=option)
        state.roll(*dice)
        if expected < 5:
            assert state.turn_score == expected and state.phase is Phase.MOVE
            state.apply("stop")
        assert state.sheet == ((None, expected),)
        assert state.last_turn is not None and state.last_turn.dice == tuple(sorted(dice))


def test_opening_ties_reroll_and_turns_go_left_from_the_starter() -> None:
    state = Dalmatian.new(3, names=["Ann", "Bob", "Cy"])
    assert (state.phase, state.current_player, state.dice_wanted) == (Phase.ROLL, 0, 5)
    state.roll(6, 6, 6, 6, 1)
    state.roll(5, 5, 5, 5, 5)
    state.roll(1, 2, 3, 4, 5)
    assert state.starter is None and state.current_player == 0  # 25, 25: Ann and Bob again
    state.roll(1, 1, 1, 1, 1)
    state.roll(2, 1, 1, 1, 1)
    assert state.starter == 1 and state.current_player == 1 and state.dice_wanted == 2
    state.roll(3, 4)
    assert state.total == 7 and state.round_number == 1
    order = []
    for _ in range(3):
        order.append(state.current_player)
        state.roll(1, 6, 2, 5, 3)
        state.apply("stop")
    assert order == [2, 0, 1]
    assert state.sheet == ((4, 4, 4),) and state.scores() == (4, 4, 4)
    assert state.starter == 2 and state.current_player == 2 and state.total is None
    assert state.round_number == 2 and state.dice_wanted == 2


def test_two_rerolls_of_any_dice_then_the_turn_scores_itself() -> None:
    state = at_turn(7)
    state.roll(1, 3, 4, 6, 6)
    assert state.rerolls_left == 2 and state.budget_left is None
    state.apply("reroll 6-6")
    assert state.dice == (1, 3, 4) and state.dice_wanted == 2 and state.phase is Phase.ROLL
    state.roll(2, 2)
    state.apply("reroll 1-2-2-3-4")  # kept dice may be thrown again
    assert state.rerolls_left == 0 and state.dice_wanted == 5
    state.roll(6, 1, 5, 2, 3)
    assert state.sheet == ((None, 4),) and state.current_player == 0 and state.dice == ()


def test_the_advice_for_the_dice_showing_is_a_legal_choice() -> None:
    state = at_turn(7, reroll_budget=8)
    state.roll(1, 3, 4, 6, 6)
    state.apply("reroll 6")
    assert state.advice() is None, "no advice while dice are awaited"
    state.roll(6)
    advice = state.advice()
    assert advice == advise((1, 3, 4, 6, 6), 7, budget=7)
    assert advice is not None and Reroll(advice.reroll) in state.legal_actions()


def test_five_scoring_dice_end_the_turn_at_once() -> None:
    state = at_turn(6)
    state.roll(6, 6, 6, 6, 6)
    assert state.sheet == ((None, 5),) and state.current_player == 0


def test_reroll_budget_counts_dice_not_rerolls() -> None:
    state = at_turn(12, reroll_budget=8)
    assert state.setup.options["reroll_budget"] == "8"
    state.roll(1, 1, 1, 1, 2)
    assert state.budget_left == 8 and state.rerolls_left is None
    for _ in range(3):
        state.apply("reroll 1")
        state.roll(1)
    assert state.budget_left == 5 and state.phase is Phase.MOVE
    state.apply("reroll 1-1-1-1-2")
    state.roll(3, 1, 1, 1, 2)
    assert state.sheet == ((None, 0),), "the budget is spent: the turn is scored"
    assert state.current_player == 0 and state.budget_left == 8


def test_rejections_name_the_problem_and_change_nothing() -> None:
    state = at_turn(7, reroll_budget=8)
    state.roll(1, 2, 3, 4, 5)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="cannot reroll 6: the dice show 1-2-3-4-5, no 6"):
        state.apply("reroll 6")
    with pytest.raises(IllegalAction, match="1-2-3-4-5, only one 2"):
        state.apply("reroll 2-2")
    state.apply("reroll 1-2-3-4-5")
    with pytest.raises(WrongPhaseError, match="P2 must roll 5 dice"):
        state.apply("stop")
    with pytest.raises(BadDiceError, match="5 dice are due, got 2"):
        state.roll(1, 2)
    state.roll(5, 4, 3, 2, 1)
    with pytest.raises(IllegalAction, match="the reroll budget has 3 dice left"):
        state.apply("reroll 1-2-3-4")
    with pytest.raises(NotationError, match="write 'stop' or 'reroll'"):
        state.apply("hold 1-2")
    with pytest.raises(NotationError, match="names no dice"):
        state.apply("reroll")
    assert before["actions"] + ["reroll 1-2-3-4-5", "roll 5-4-3-2-1"] == state.to_json()["actions"]


def test_options_are_validated() -> None:
    with pytest.raises(OptionError, match=r"'reroll_budget' cannot be '7': allowed none \| 8"):
        Dalmatian.new(2, reroll_budget="7")
    with pytest.raises(OptionError, match="'rounds' cannot be 0: 1 to 24 allowed"):
        Dalmatian.new(2, rounds=0)
    with pytest.raises(OptionError, match="2 to 6 players, not 7"):
        Dalmatian.new(7)
    with pytest.raises(OptionError, match="no option 'budget'"):
        Dalmatian.new(2, budget=8)
    state = games.new_game("dalmatian", 4, dice_in_several_groups="true", rounds="3")
    assert state.setup.options == {"dice_in_several_groups": True, "round_winner_only": False,
                                   "reroll_budget": "none", "rounds": 3}


def test_round_winner_only_records_the_best_of_each_round_for_all_who_made_it() -> None:
    state = at_turn(6, players=3, round_winner_only=True, rounds=1)
    for dice in [(1, 5, 2, 4, 6), (6, 6, 6, 1, 1), (3, 3, 2, 4, 6)]:  # P2, P3, P1
        state.roll(*dice)
        if state.phase is Phase.MOVE:
            state.apply("stop")
        assert state.scores() == (0, 0, 0) or state.is_over
    assert state.sheet == ((5, 5, 3),)
    assert state.result() == Result((5, 5, 0), ((0, 1), (2,)))


def test_the_game_ends_after_its_rounds_and_ties_share_the_win() -> None:
    state = at_turn(6, rounds=2)
    for total in (None, 6):
        if total is not None:
            state.roll(*two_dice(total))
        for _ in range(2):
            state.roll(6, 6, 6, 6, 1)
            state.apply("stop")
    assert state.is_over and state.current_player is None and state.legal_actions() == []
    assert state.result() == Result((8, 8), ((0, 1),))
    with pytest.raises(IllegalAction, match="the game is over"):
        state.roll(1, 2)


def test_notation_round_trips() -> None:
    state = at_turn(8)
    state.roll(2, 2, 6, 6, 3)
    legal = state.legal_actions()
    assert legal[0] == Stop() and len(legal) == 1 + 17  # distinct non-empty sub-multisets
    for action in legal:
        assert str(state.parse_action(str(action))) == str(action)
    assert state.parse_action(" REROLL 6, 2 ") == Reroll((2, 6))
    assert str(Reroll((6, 2, 2))) == "reroll 2-2-6"


@settings(max_examples=200, deadline=None)
@given(
    first=st.lists(st.integers(1, 6), min_size=5, max_size=5),
    picks=st.lists(st.integers(0, 31), max_size=3),
    throws=st.lists(st.integers(1, 6), min_size=15, max_size=15),
    budget_rule=st.booleans(),
)
def test_legal_rerolls_are_every_distinct_pick_the_rule_allows(
    first: list[int], picks: list[int], throws: list[int], budget_rule: bool
) -> None:
    state = at_turn(9, reroll_budget="8" if budget_rule else "none")
    state.roll(*first)
    spent, used = 0, 0
    for mask in picks:
        if state.phase is not Phase.MOVE:
            break
        limit = min(5, 8 - spent) if budget_rule else (5 if used < 2 else 0)
        dice = state.dice
        brute = {tuple(sorted(dice[i] for i in c))
                 for k in range(1, limit + 1) for c in combinations(range(5), k)}
        legal = state.legal_actions()
        assert Stop() in legal and {a.dice for a in legal if isinstance(a, Reroll)} == brute
        chosen = [dice[i] for i in range(5) if mask >> i & 1][:limit] or [dice[0]]
        state.apply(Reroll(tuple(chosen)))
        spent, used = spent + len(chosen), used + 1
        state.roll(*throws[:len(chosen)])
        throws = throws[len(chosen):]
    state.check_invariants()


def test_undo_replay_and_json_over_random_games() -> None:
    for seed in range(4):
        rng = random.Random(seed)
        state = Dalmatian.new(rng.randint(2, 6), reroll_budget=rng.choice(["none", "8"]),
                              round_winner_only=rng.random() < 0.5, rounds=4)
        play_random(state, rng)
        saved = json.loads(json.dumps(state.to_json()))
        again = games.from_json(saved)
        assert isinstance(again, Dalmatian)
        assert again.sheet == state.sheet and again.result() == state.result()
        replayed = Dalmatian.replay(state.setup, state.history)
        assert replayed.scores() == state.scores()
        middle = len(state.history) // 2
        partial = Dalmatian.replay(state.setup, state.history[:middle])
        snapshot = (partial.sheet, partial.dice, partial.phase, partial.current_player)
        partial.apply(state.history[middle])
        partial.undo()
        assert (partial.sheet, partial.dice, partial.phase, partial.current_player) == snapshot


def test_random_games_end_well_within_the_action_limit() -> None:
    for seed in range(6):
        rng = random.Random(f"dalmatian-{seed}")
        state = Dalmatian.new(6, reroll_budget=rng.choice(["none", "8"]))
        play_random(state, rng)
        state.check_invariants()
        assert len(state.history) < 2500
        result = state.result()
        assert result is not None and sorted(p for r in result.ranking for p in r) == list(range(6))
