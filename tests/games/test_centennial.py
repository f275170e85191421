"""Centennial: the worked examples of the rulings, claims, variants, notation and replay."""

from __future__ import annotations

import copy
import json
import random
from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.centennial import (
    HOME,
    TARGETS,
    Centennial,
    CentennialAction,
    Claim,
    NoMoreClaims,
    Pass,
    Stop,
    label,
    made_numbers,
    targets_reached,
)
from games.core import Phase, Result
from games.errors import (
    IllegalAction,
    NotationError,
    NotYourTurnError,
    OptionError,
    WrongPhaseError,
)

ALL_DICE = list(product(range(1, 7), repeat=3))


def first_player_starts(state: Centennial) -> Centennial:
    """Opening rolls that make P1 the first player."""
    for die in [6] + [1] * (state.players - 1):
        state.roll(die)
    assert state.current_player == 0 and state.dice_wanted == 3
    return state


def walk(state: Centennial, goal: tuple[int, ...]) -> Centennial:
    """Throw dice, one step or none at a time, until every marker reaches ``goal``."""
    reuse = state.setup.options["dice_reuse"]
    while state.progress != goal:
        player = state.turn
        start = state.progress[player]
        steps = 1 if start < goal[player] else 0
        dice = next(d for d in ALL_DICE if len(targets_reached(start, d, reuse)) == steps)
        state.roll(*dice)
        if state.awaiting_stop:
            state.apply(Stop(player, start + 1))
        assert state.phase is Phase.ROLL
    return state


def game_at(goal: tuple[int, ...], **options: Any) -> Centennial:
    """A game with P1 to throw and the markers at ``goal`` (progress per player)."""
    state = walk(first_player_starts(Centennial.new(len(goal), **options)), goal)
    while state.turn != 0:  # throws that move nobody
        state.roll(*next(d for d in ALL_DICE
                          if state.next_target(state.turn) not in made_numbers(d)))
    return state


def observable(state: Centennial) -> dict[str, Any]:
    return {
        "phase": state.phase,
        "player": state.current_player,
        "progress": state.progress,
        "claimable": state.claimable,
        "legal": [str(a) for a in state.legal_actions()],
        "actions": [str(a) for a in state.history],
    }


# -- the worked examples of the rulings ---------------------------------------------------


def test_off_board_1_2_3_reaches_6_or_3_without_reuse() -> None:
    assert targets_reached(0, (1, 2, 3)) == (1, 2, 3, 4, 5, 6)
    assert targets_reached(0, (1, 2, 3), dice_reuse=False) == (1, 2, 3)
    state = first_player_starts(Centennial.new(2))
    state.roll(1, 2, 3)
    assert state.progress == (6, 0)
    state = first_player_starts(Centennial.new(2, dice_reuse=False))
    state.roll(1, 2, 3)
    assert state.progress == (3, 0)


def test_off_board_1_1_1_reaches_3() -> None:
    assert targets_reached(0, (1, 1, 1)) == (1, 2, 3)
    assert targets_reached(0, (1, 1, 1), dice_reuse=False) == (1, 2)  # 1, then 1+1
    state = first_player_starts(Centennial.new(2))
    state.roll(1, 1, 1)
    assert state.progress == (3, 0) and state.current_player == 1


def test_off_board_2_3_4_stays_off_and_the_turn_passes() -> None:
    assert targets_reached(0, (2, 3, 4)) == ()
    state = first_player_starts(Centennial.new(3, mode="declare"))
    state.roll(2, 3, 4)
    assert state.progress == (0, 0, 0)
    assert state.phase is Phase.ROLL and state.current_player == 1


def test_on_8_going_up_1_4_5_reaches_10() -> None:
    assert targets_reached(8, (1, 4, 5)) == (9, 10)
    assert targets_reached(8, (1, 4, 5), dice_reuse=False) == (9,)
    state = game_at((8, 9, 5))
    state.roll(1, 4, 5)
    assert state.progress == (10, 9, 5) and state.current_player == 1


def test_stopping_at_9_leaves_10_claimable_and_never_6() -> None:
    state = game_at((8, 9, 5), mode="declare")
    state.roll(1, 4, 5)
    assert [str(a) for a in state.legal_actions()] == [
        "P1 stops at 8", "P1 stops at 9", "P1 stops at 10"]
    state.apply("P1 stops at 9")
    assert state.overlooked == (10,) and state.claimable == (10,)
    assert state.phase is Phase.MOVE and 6 in state.made  # 1+5 was made, never needed
    assert [str(a) for a in state.legal_actions()] == ["P2 claims 10", "no more claims"]
    with pytest.raises(IllegalAction, match=r"^6 is not claimable: P1 overlooked 10$"):
        state.apply("P3 claims 6")
    state.apply("P2 claims 10")
    assert state.progress == (9, 10, 5)
    assert state.phase is Phase.ROLL and state.current_player == 1  # claims closed by themselves


def test_on_3_going_down_1_1_6_finishes() -> None:
    on_3_down = HOME - 2
    assert label(on_3_down) == "3 back"
    assert targets_reached(on_3_down, (1, 1, 6)) == (2, 1)
    assert targets_reached(on_3_down, (1, 1, 6), dice_reuse=False) == (2,)
    state = game_at((on_3_down, 4))
    state.roll(1, 1, 6)
    assert state.is_over and state.winner == 0 and state.current_player is None
    assert state.result() == Result((HOME, 4), ((0,), (1,)))
    assert state.legal_actions() == []


def test_the_turn_at_12_happens_inside_a_throw() -> None:
    assert targets_reached(11, (6, 6, 5)) == (12, 11)
    state = game_at((11, 0))
    state.roll(6, 6, 5)
    assert state.progress == (13, 0) and label(13) == "11 back"
    assert state.next_target(0) == 10


def test_from_the_text_p2_on_9_claims_10_first_caller_wins() -> None:
    state = game_at((8, 9, 5, 9), mode="declare")
    state.roll(1, 4, 5)
    state.apply("P1 stops at 9")
    assert [str(a) for a in state.legal_actions()] == [
        "P2 claims 10", "P4 claims 10", "no more claims"]
    state.apply("P4 claims 10")
    assert state.progress == (9, 9, 5, 10)
    assert state.phase is Phase.ROLL  # nothing left to claim


# -- claims --------------------------------------------------------------------------------


def test_a_claimant_takes_consecutive_numbers_one_after_another() -> None:
    state = game_at((0, 3, 5), mode="declare")
    state.roll(1, 2, 4)
    assert state.chain == (1, 2, 3, 4, 5, 6, 7)
    state.apply("P1 stops at 1")
    assert state.claimable == (2, 3, 4, 5, 6, 7)
    for text in ["P2 claims 4", "P2 claims 5", "P3 claims 6", "P2 claims 6"]:
        if text == "P2 claims 6":
            with pytest.raises(IllegalAction, match=r"^6 was already claimed by P3$"):
                state.apply(text)
        else:
            state.apply(text)
    assert state.progress == (1, 5, 6)
    assert list(state.claimable) == [2, 3, 7]
    state.apply("P3 claims 7")
    assert state.progress == (1, 5, 7) and state.phase is Phase.ROLL and state.turn == 1


def test_an_11_made_on_both_sides_of_the_turn_is_two_claimable_numbers() -> None:
    state = game_at((10, 10, 12), mode="declare")
    state.roll(5, 6, 1)
    assert state.chain == (11, 12, 11)
    assert [str(a) for a in state.legal_actions()] == [
        "P1 stops at 10", "P1 stops at 11", "P1 stops at 12", "P1 stops at 11 back"]
    state.apply("P1 stops at 10")
    assert [str(a) for a in state.legal_actions()] == [
        "P2 claims 11", "P3 claims 11", "no more claims"]
    for text in ["P2 claims 11", "P3 claims 11", "P2 claims 12"]:
        state.apply(text)
    assert state.progress == (10, 12, 13) and label(13) == "11 back"
    assert state.claimable == () and state.phase is Phase.ROLL


def test_without_claim_chain_each_player_claims_once_per_throw() -> None:
    state = game_at((0, 3, 5), mode="declare", claim_chain=False)
    state.roll(1, 2, 4)
    state.apply("P1 stops off board")
    state.apply("P2 claims 4")
    assert [str(a) for a in state.legal_actions()] == ["P3 claims 6", "no more claims"]
    with pytest.raises(IllegalAction, match=r"^P2 already claimed 4 from this throw: one claim "
                                            r"each \(claim_chain = false\)$"):
        state.apply("P2 claims 5")
    state.apply("no more claims")
    assert state.progress == (0, 4, 5) and state.current_player == 1


def test_turn_order_asks_clockwise_from_the_rollers_left() -> None:
    state = game_at((8, 2, 9, 9), mode="declare", claim_mode="turn_order")
    state.roll(1, 4, 5)
    state.apply("P1 stops at 9")
    assert state.asked == 2 and state.current_player == 2  # P2 has nothing to claim
    assert [str(a) for a in state.legal_actions()] == ["P3 claims 10", "P3 passes"]
    with pytest.raises(NotYourTurnError, match=r"^claims go in turn order: P3 claims or passes "
                                               r"first$"):
        state.apply("P4 claims 10")
    with pytest.raises(IllegalAction, match=r"^claims go in turn order: P3 claims or passes$"):
        state.apply("no more claims")
    state.apply("P3 passes")
    assert state.asked == 3
    with pytest.raises(NotYourTurnError, match=r"^P3 passed on this throw"):
        state.apply("P3 claims 10")
    state.apply("P4 claims 10")
    assert state.progress == (9, 2, 9, 10) and state.current_player == 1


def test_a_claim_that_reaches_home_wins_at_once() -> None:
    state = game_at((0, HOME - 1), mode="declare")
    state.roll(1, 2, 3)
    state.apply("P1 stops off board")
    state.apply("P2 claims 1")
    assert state.winner == 1 and state.is_over
    assert state.result() == Result((0, HOME), ((1,), (0,)))


def test_claims_settle_before_the_next_throw() -> None:
    state = game_at((8, 9), mode="declare")
    state.roll(1, 4, 5)
    state.apply("P1 stops at 9")
    with pytest.raises(WrongPhaseError, match="no dice are due"):
        state.roll(1, 1, 1)
    state.apply("no more claims")
    assert state.phase is Phase.ROLL and state.current_player == 1
    assert state.throw is not None and state.throw.dice == (1, 4, 5)  # still showing


# -- variants and opening ------------------------------------------------------------------


def test_roll_again_while_a_throw_moves_you() -> None:
    state = first_player_starts(Centennial.new(2, roll_again=True))
    state.roll(1, 2, 3)
    assert state.progress == (6, 0) and state.current_player == 0
    state.roll(6, 6, 6)  # 7 is not made
    assert state.progress == (6, 0) and state.current_player == 1


def test_roll_again_in_declare_mode_needs_the_roller_to_move() -> None:
    state = first_player_starts(Centennial.new(2, mode="declare", roll_again=True))
    state.roll(1, 2, 3)
    state.apply("P1 stops at 2")
    assert state.current_player == 0  # P2 is off board and cannot use 3
    state.roll(3, 4, 5)
    state.apply("P1 stops at 2")
    assert state.current_player == 1


def test_the_opening_rerolls_only_tied_players() -> None:
    state = Centennial.new(3)
    assert state.dice_wanted == 1
    for die in (5, 5, 2):
        state.roll(die)
    assert state.current_player == 0 and state.opening.to_roll == [0, 1]
    state.roll(3)
    state.roll(4)
    assert state.turn == 1 and state.current_player == 1 and state.dice_wanted == 3


def test_auto_mode_never_waits_for_a_move() -> None:
    rng = random.Random(3)
    state = Centennial.new(4)
    while not state.is_over:
        assert state.phase is Phase.ROLL
        state.roll(*(rng.randint(1, 6) for _ in range(state.dice_wanted)))
    assert state.winner is not None


# -- options and notation -------------------------------------------------------------------


@pytest.mark.parametrize(("options", "message"), [
    ({"mode": "fast"}, r"option 'mode' cannot be 'fast': allowed auto \| declare"),
    ({"claim_mode": "loudest"},
     r"option 'claim_mode' cannot be 'loudest': allowed first_caller \| turn_order"),
    ({"dice_reuse": "maybe"}, r"option 'dice_reuse' cannot be 'maybe': allowed false \| true"),
    ({"reuse": True}, r"Centennial has no option 'reuse'; options: mode, dice_reuse"),
])
def test_bad_options_are_named(options: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        Centennial.new(2, **options)


def test_player_counts() -> None:
    with pytest.raises(OptionError, match="Centennial is for 2 to 8 players, not 9"):
        Centennial.new(9)
    with pytest.raises(OptionError, match="Centennial is for 2 to 8 players, not 1"):
        Centennial.new(1)
    assert Centennial.new(8, claim_chain="false", roll_again="true").setup.options == {
        "mode": "auto", "dice_reuse": True, "claim_chain": False,
        "claim_mode": "first_caller", "roll_again": True}


ACTIONS = st.one_of(
    st.builds(Stop, st.integers(0, 7), st.integers(0, HOME)),
    st.builds(Claim, st.integers(0, 7), st.integers(1, 12)),
    st.builds(Pass, st.integers(0, 7)),
    st.just(NoMoreClaims()),
)


@settings(max_examples=300)
@given(ACTIONS)
def test_notation_round_trips(action: CentennialAction) -> None:
    state = Centennial.new(8)
    assert state.parse_action(str(action)) == action
    assert str(state.parse_action(str(action).upper())) == str(action)


@pytest.mark.parametrize(("text", "action"), [
    ("P1 stops at 9", Stop(0, 9)),
    ("P1 stops at 12", Stop(0, 12)),
    ("P1 stops at 11 back", Stop(0, 13)),
    ("p2  stops  at 1 back", Stop(1, HOME)),
    ("P1 stops off board", Stop(0, 0)),
    ("P2 claims 10", Claim(1, 10)),
    ("P3 passes", Pass(2)),
    ("done", NoMoreClaims()),
])
def test_parse(text: str, action: CentennialAction) -> None:
    assert Centennial.new(3).parse_action(text) == action


@pytest.mark.parametrize(("text", "message"), [
    ("P4 claims 3", r"'P4 claims 3': this game has players P1 to P3"),
    ("P1 claims 13", r"the board has numbers 1 to 12, not 13"),
    ("P1 stops at 12 back", r"the way back runs 11 to 1, so '12 back' is no position"),
    ("P1 stops at 0", r"the board has numbers 1 to 12, not 0"),
    ("jump", r"'jump' is no Centennial move; write e.g. 'P1 stops at 9'"),
])
def test_bad_notation_is_named(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Centennial.new(3).parse_action(text)


def test_labels_cover_the_round_trip() -> None:
    assert len(TARGETS) == HOME == 23
    assert [label(p) for p in (0, 1, 12, 13, 22, 23)] == [
        "off board", "1", "12", "11 back", "2 back", "1 back"]


# -- rejections ------------------------------------------------------------------------------


@pytest.mark.parametrize(("before", "text", "error", "message"), [
    ([], "P2 stops at 9", NotYourTurnError, "^P2 did not throw: P1 says where to stop$"),
    ([], "P1 stops at 11", IllegalAction,
     "^P1 cannot stop at 11: the throw 1-4-5 goes from 8 as far as 10$"),
    ([], "P1 stops at 7", IllegalAction, "^P1 cannot stop at 7: "),
    ([], "P2 claims 10", IllegalAction,
     "^nothing is claimable yet: P1 must first say where they stop$"),
    ([], "P2 passes", IllegalAction, "^P1 must first say where they stop$"),
    (["P1 stops at 9"], "P1 stops at 10", IllegalAction,
     "^P1 has stopped at 9 already; claims are open: claim a number or say 'no more claims'$"),
    (["P1 stops at 9"], "P1 claims 10", IllegalAction,
     "^P1 threw these dice and cannot claim from their own throw$"),
    (["P1 stops at 8"], "P4 claims 9", IllegalAction,
     "^P4 cannot claim 9: their next target is 4$"),
    (["P1 stops at 9"], "P3 passes", IllegalAction,
     r"^claims go to whoever calls first here \(claim_mode = first_caller\)"),
])
def test_rejections_name_the_problem_and_change_nothing(
    before: list[str], text: str, error: type[Exception], message: str
) -> None:
    state = game_at((8, 9, 7, 3), mode="declare")
    state.roll(1, 4, 5)
    for done in before:
        state.apply(done)
    seen = observable(state)
    with pytest.raises(error, match=message):
        state.apply(text)
    assert observable(state) == seen


def test_auto_mode_has_no_moves_to_make() -> None:
    state = first_player_starts(Centennial.new(2))
    with pytest.raises(WrongPhaseError, match="P1 must roll 3 dice before moving"):
        state.apply("P1 stops at 1")


# -- the chain against a brute-force definition ---------------------------------------------


def brute_force_chain(progress: int, dice: tuple[int, ...], reuse: bool) -> tuple[int, ...]:
    """The longest run of next targets that the dice make (each die once without reuse)."""
    def made_with(assignment: tuple[int, ...], step: int) -> int:
        return sum(d for d, s in zip(dice, assignment, strict=True) if s == step)

    best = 0
    for length in range(HOME - progress + 1):
        wanted = TARGETS[progress: progress + length]
        if reuse:
            sums = {sum(d for d, bit in zip(dice, mask, strict=True) if bit)
                    for mask in product((0, 1), repeat=len(dice))}
            ok = all(t in sums for t in wanted)
        else:  # give each die to one step (or to none) and check every step's sum
            ok = any(all(made_with(a, s) == t for s, t in enumerate(wanted))
                     for a in product(range(-1, len(dice)), repeat=len(dice)))
        if ok:
            best = length
    return TARGETS[progress: progress + best]


@settings(max_examples=300)
@given(st.integers(0, HOME), st.tuples(*[st.integers(1, 6)] * 3), st.booleans())
def test_chain_matches_brute_force(progress: int, dice: tuple[int, ...], reuse: bool) -> None:
    assert targets_reached(progress, dice, reuse) == brute_force_chain(progress, dice, reuse)


def fingerprint(state: Centennial) -> tuple[Any, ...]:
    return (state.progress, state.throw, state.claims, state.claims_open, state.turn,
            state.asked, len(state.history))


def every_action(players: int) -> list[CentennialAction]:
    return [
        *(Stop(p, at) for p in range(players) for at in range(HOME + 1)),
        *(Claim(p, n) for p in range(players) for n in range(1, 13)),
        *(Pass(p) for p in range(players)),
        NoMoreClaims(),
    ]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), st.booleans(), st.booleans(),
       st.sampled_from(["first_caller", "turn_order"]))
def test_legal_actions_are_exactly_the_actions_the_referee_accepts(
    seed: int, players: int, reuse: bool, chain: bool, claim_mode: str
) -> None:
    rng = random.Random(seed)
    state = Centennial.new(players, mode="declare", dice_reuse=reuse, claim_chain=chain,
                           claim_mode=claim_mode)
    checked = 0
    while not state.is_over and checked < 12:
        if state.phase is Phase.ROLL:
            state.roll(*(rng.randint(1, 6) for _ in range(state.dice_wanted)))
            continue
        checked += 1
        legal, before = set(state.legal_actions()), fingerprint(state)
        accepted = set()
        for action in every_action(players):
            trial = copy.deepcopy(state) if action in legal else state
            try:
                trial.apply(action)
            except IllegalAction:
                assert fingerprint(state) == before, f"{action} was refused after a change"
                continue
            accepted.add(action)
        assert accepted == legal
        state.apply(rng.choice(state.legal_actions()))


# -- history ------------------------------------------------------------------------------


@pytest.mark.parametrize("claim_mode", ["first_caller", "turn_order"])
def test_undo_replay_and_json_over_a_random_game(claim_mode: str) -> None:
    rng = random.Random(claim_mode)
    state = Centennial.new(5, mode="declare", claim_mode=claim_mode, roll_again=True)
    seen = []
    while not state.is_over:
        seen.append(observable(state))
        if state.phase is Phase.ROLL:
            state.roll(*(rng.randint(1, 6) for _ in range(state.dice_wanted)))
        else:
            state.apply(rng.choice(state.legal_actions()))
        state.check_invariants()
    assert any(isinstance(a, Claim) for a in state.history), "the game should include claims"
    saved = json.loads(json.dumps(state.to_json()))
    restored = games.from_json(saved)
    assert isinstance(restored, Centennial) and observable(restored) == observable(state)
    assert observable(Centennial.replay(state.setup, state.history)) == observable(state)
    for expected in reversed(seen[-30:]):
        state.undo()
        assert observable(state) == expected
