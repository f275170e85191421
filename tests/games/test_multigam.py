"""Multi-Gam: the rulings' worked examples, each rule on a constructed position, notation,
refusals, the play generator against a brute-force definition, history and ranking.

Positions are written one string per player listing where each of the five checkers is:
``"bar 5 off off off"``.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.core import Phase, Result
from games.errors import (
    BadDiceError,
    GameOverError,
    IllegalAction,
    NotationError,
    NotYourTurnError,
    OptionError,
    WrongPhaseError,
)
from games.multigam import BAR, DICE_RULES, OFF, MultiGam, Play, Step

Board = list[list[int]]
ALL_BAR = "bar bar bar bar bar"


def counts(where: str) -> list[int]:
    """Eight counts (BAR, 1-6, OFF) from the five checkers' places."""
    row = [0] * 8
    for word in where.split():
        row[BAR if word == "bar" else OFF if word == "off" else int(word)] += 1
    assert sum(row) == 5, where
    return row


def set_position(state: MultiGam, board: Board, mover: int) -> None:
    """Put ``board`` on the table with ``mover`` about to roll; finished players are ranked
    in seat order."""
    state._counts = [list(row) for row in board]
    state._finished = [p for p, row in enumerate(board) if row[OFF] == 5]
    state.turn = mover
    state.dice = None
    state.dice_to_play = None


def position(*rows: str, mover: int = 0, dice_rule: str = DICE_RULES[0]) -> MultiGam:
    """A game past its opening with ``rows`` (players 0 to 3, the rest on the BAR)."""
    state = MultiGam.new(dice_rule=dice_rule)
    for seat in range(4):
        state.roll(6 if seat == mover else 1)
    board = [counts(row) for row in rows] + [counts(ALL_BAR)] * (4 - len(rows))
    set_position(state, board, mover)
    assert state.phase is Phase.ROLL and state.current_player == mover
    return state


def shown(state: MultiGam) -> list[str]:
    return [str(play) for play in state.legal_actions()]


def refusal(state: MultiGam, text: str) -> str:
    """The message refusing ``text``; the state must be left as it was."""
    before = (copy.deepcopy(state._counts), list(state.history), state.dice_to_play,
              state.current_player)
    with pytest.raises(IllegalAction) as caught:
        state.apply(text)
    assert (state._counts, state.history, state.dice_to_play, state.current_player) == before
    return str(caught.value)


# -- the rulings' examples ------------------------------------------------------------------


def test_opening_tied_highest_reroll_and_the_lowest_die_on_the_table_joins() -> None:
    state = MultiGam.new(names=["A", "B", "C", "D"])
    assert state.dice_wanted == 1
    for die in (5, 5, 3, 2):
        state.roll(die)
    assert state.opening.to_roll == [0, 1] and state.current_player == 0
    state.roll(4)
    state.roll(1)
    assert state.opening_throws == (4, 1, 3, 2)
    assert state.phase is Phase.MOVE and state.current_player == 0
    assert state.dice == (4, 1) and state.dice_to_play == (4, 1)
    assert [type(a).__name__ for a in state.history] == ["Roll"] * 6  # no fresh dice


def test_opening_without_a_tie_takes_the_lowest_of_the_others() -> None:
    state = MultiGam.new(names=["A", "B", "C", "D"])
    for die in (6, 2, 2, 4):
        state.roll(die)
    assert state.current_player == 0 and state.dice_to_play == (6, 2)
    assert shown(state) == ["bar/6 bar/2"]  # 6/off with the 2 would leave checkers behind


def test_worked_position_1_only_the_larger_die_enters() -> None:
    state = position("bar off off off off", "4 4 bar bar bar")
    state.roll(3, 1)
    assert shown(state) == ["bar/3"]
    state.apply("bar/3")
    assert state.checkers(0) == (0, 0, 0, 1, 0, 0, 0, 4) and state.current_player == 1


def test_worked_position_2_the_order_matters() -> None:
    state = position("1 3 off off off", "6 6 bar bar bar")
    state.roll(5, 2)
    assert shown(state) == ["1/3 3/off"]
    assert refusal(state, "3/off 1/3") == (
        "3/off needs a 4: a larger die bears off only your backmost checker, and you have one "
        "on 1; allowed: 1/3 3/off")


def test_worked_position_3_a_double_stops_at_a_prime() -> None:
    state = position("1 off off off off", "5 5 bar bar bar")
    state.roll(2, 2)
    assert state.dice_to_play == (2, 2, 2, 2)
    assert shown(state) == ["1/3"]
    state.apply("1/3")
    assert state.checkers(0) == (0, 0, 0, 1, 0, 0, 0, 4) and state.current_player == 1


def test_worked_position_4_two_ways_to_enter_and_bear_off() -> None:
    state = position("bar 5 off off off")
    state.roll(6, 4)
    assert shown(state) == ["bar/6 5/off", "bar/4 4/off"]
    state.apply("bar/4/off")
    assert state.checkers(0) == (0, 0, 0, 0, 0, 1, 0, 4)


# -- the rules ------------------------------------------------------------------------------


def test_other_dice_rules_on_worked_position_1() -> None:
    state = position("bar off off off off", "4 4 bar bar bar", dice_rule="max_only")
    state.roll(3, 1)
    assert shown(state) == ["bar/3", "bar/1"]
    state = position("bar 1 off off off", dice_rule="free")
    state.roll(2, 1)
    # both dice: to 2+2, 1+3 or BAR+4; one die: to 1+2, BAR+3, 1+1 or BAR+2
    assert shown(state) == ["bar/2 1/2", "bar/2 2/3", "1/3 3/4", "bar/2", "1/3", "bar/1", "1/2"]


def test_a_prime_blocks_every_landing_point_but_may_be_jumped() -> None:
    state = position("1 off off off off", "3 3 bar bar bar")
    state.roll(2, 1)
    assert shown(state) == ["1/2 2/4"]
    assert refusal(state, "1/3 3/4").startswith(
        "1/3: point 3 is blocked, P2 holds it with 2 checkers; allowed: 1/2 2/4")
    state.apply("1/2/4")
    assert state.checkers(0)[4] == 1


def test_a_blot_is_hit_to_its_owners_bar_and_hitting_is_optional() -> None:
    state = position("1 off off off off", "3 bar bar bar bar")
    state.roll(2, 1)
    assert shown(state) == ["1/3* 3/4", "1/2 2/4"]
    assert state.points[2] == (1, 1)
    state.apply("1/3 3/4")  # the * may be left out
    assert state.bar == (0, 5, 5, 5) and state.points[2] == (None, 0)
    assert state.points[3] == (0, 1)
    assert state.last_play == (0, Play.parse("1/3 3/4"))


def test_a_hit_is_forced_when_every_play_hits() -> None:
    state = position("1 off off off off", "3 bar bar bar bar", "5 5 bar bar bar")
    state.roll(2, 2)
    assert shown(state) == ["1/3*"]
    state.apply("1/3*")
    assert state.bar == (0, 5, 3, 5) and state.points[2] == (0, 1)


def test_loose_bar_other_checkers_move_first_and_bear_off_exactly() -> None:
    state = position("bar 4 off off off")
    state.roll(3, 3)
    assert shown(state) == ["bar/3 3/6 4/off 6/off"]
    assert refusal(state, "4/off 4/off").startswith("4/off: you have no checker on 4")
    state.apply("4/off bar/3/6/off")  # the same end in another order
    assert state.finishing_order == (0,)


def test_bearing_off_with_a_larger_die_needs_nobody_behind() -> None:
    state = position("2 5 off off off")
    state.roll(6, 5)
    assert shown(state) == ["2/off 5/off"]
    assert refusal(state, "5/off 2/off").startswith(
        "5/off needs a 2: a larger die bears off only your backmost checker, and you have one "
        "on 2")


def test_a_roll_without_a_play_passes_the_turn() -> None:
    state = position("1 off off off off", "2 2 bar bar bar", "3 3 bar bar bar")
    state.roll(1, 2)
    assert state.phase is Phase.ROLL and state.current_player == 1
    assert state.no_play == (0, (1, 2)) and state.legal_actions() == []
    assert state.checkers(0) == (0, 1, 0, 0, 0, 0, 0, 4)


def test_finished_players_are_ranked_and_skipped() -> None:
    state = position("6 off off off off", "1 bar bar bar bar", "2 bar bar bar bar",
                     "3 bar bar bar bar")
    state.roll(2, 1)
    assert shown(state) == ["6/off"]
    state.apply("6/off")
    assert state.finishing_order == (0,) and state.scores() == (5, 0, 0, 0)
    movers = []
    for _ in range(3):
        movers.append(state.current_player)
        state.roll(1, 1)
        if state.phase is Phase.MOVE:
            state.apply(state.legal_actions()[0])
    assert movers == [1, 2, 3]
    assert state.current_player == 1 and state.result() is None


def test_three_finished_end_the_game_and_score_5_3_2_1() -> None:
    state = position("6 off off off off", "5 off off off off", "4 off off off off",
                     "bar 1 2 3 off")
    state.roll(1, 2)
    state.apply("6/off")
    state.roll(3, 2)
    state.apply("5/off")
    assert state.scores() == (5, 3, 0, 0) and state.current_player == 2
    state.roll(4, 1)
    assert shown(state) == ["4/5 5/off"]  # both dice can be played, so both must be
    state.apply("4/5/off")
    assert state.is_over and state.current_player is None
    assert state.finishing_order == (0, 1, 2, 3)
    assert state.result() == Result((5, 3, 2, 1), ((0,), (1,), (2,), (3,)))
    assert state.legal_actions() == []
    with pytest.raises(GameOverError, match="the game is over"):
        state.roll(1, 2)


def test_the_screen_reads_points_bar_and_off() -> None:
    state = position("bar 2 2 off off", "5 bar bar bar bar", "6 6 6 off off")
    assert state.points == ((None, 0), (0, 2), (None, 0), (None, 0), (1, 1), (2, 3))
    assert state.bar == (1, 4, 0, 5) and state.off == (2, 0, 2, 0)
    assert state.plays((6, 5)) == [Play.parse("bar/5* 2/off")]  # a hint before the roll
    state.roll(3, 3)
    assert state.dice == (3, 3) and state.dice_to_play == (3, 3, 3, 3)
    assert shown(state) == ["bar/3 2/5* 2/5"]  # 3/6 is blocked, 5/off has checkers behind


# -- notation -------------------------------------------------------------------------------


def test_notation_prints_and_parses() -> None:
    play = Play((Step(BAR, 3, True), Step(3, OFF)))
    assert str(play) == "bar/3* 3/off"
    assert Play.parse("bar/3* 3/off") == play
    assert Play.parse("B/3*/O") == play
    assert Play.parse(" bar/3*, 3/off ") == play
    assert Play.parse("0/3* 3/7") == play
    assert str(Play.parse("1/2/3/4/5")) == "1/2 2/3 3/4 4/5"


@pytest.mark.parametrize(("text", "why"), [
    ("", "no move is named"),
    ("bar", "'bar' is no move"),
    ("3/2", "'3/2' does not move forward"),
    ("off/3", "'off/3' does not move forward"),
    ("2/bar", "'2/bar' does not move forward"),
    ("1/9", "'9' is no point"),
    ("x/3", "'x' is no point"),
    ("1*/3", "'1\\*/3' marks a hit where no checker lands"),
    ("5/off*", "'5/off\\*' marks a hit off the board"),
    ("1/2 2/3 3/4 4/5 5/6", "a turn has at most four moves"),
])
def test_malformed_notation_is_named(text: str, why: str) -> None:
    with pytest.raises(NotationError, match=why + r"; write each move as from/to, points bar, "
                       r"1-6 and off, e\.g\. 'bar/3 3/off'"):
        MultiGam.new().parse_action(text)


# -- refusals -------------------------------------------------------------------------------


def test_moving_another_players_checkers_is_not_your_turn() -> None:
    state = position("1 off off off off", "3 3 bar bar bar")
    state.roll(2, 4)
    with pytest.raises(NotYourTurnError, match=r"^P2's checkers are on 3: it is P1's turn "
                       r"to move$"):
        state.apply("3/5 5/off")


def test_illegal_plays_say_why() -> None:
    state = position("bar 1 off off off", "3 3 bar bar bar", "4 bar bar bar bar")
    state.roll(5, 2)
    assert shown(state) == ["bar/5 5/off", "1/6 bar/2"]  # bar/2 2/off ends as bar/5 5/off
    allowed = "; allowed: bar/5 5/off, 1/6 bar/2"
    assert refusal(state, "bar/5") == "you must play both dice when you can" + allowed
    assert refusal(state, "1/3 bar/5") == (
        "1/3: point 3 is blocked, P2 holds it with 2 checkers" + allowed)
    assert refusal(state, "1/4") == "1/4 needs a 3; the dice left are 5-2" + allowed
    assert refusal(state, "bar/2* 2/7") == "bar/2*: there is no blot to hit on 2" + allowed
    assert refusal(state, "2/4 bar/2") == "2/4: you have no checker on 2" + allowed
    assert refusal(state, "bar/5 bar/2 1/3") == "5-2 gives two moves, not 3" + allowed
    state.apply("bar/2 2/off")  # another way to the same end is the same play
    assert state.checkers(0) == (0, 1, 0, 0, 0, 0, 0, 4)


def test_the_larger_die_is_named_when_only_one_can_be_played() -> None:
    state = position("bar off off off off", "4 4 bar bar bar")
    state.roll(1, 3)
    assert refusal(state, "bar/1") == (
        "only one die can be played, so it must be the larger, the 3; allowed: bar/3")


def test_a_double_asks_for_all_four_moves() -> None:
    state = position("bar bar off off off")
    state.roll(1, 1)
    assert refusal(state, "bar/1 1/2").startswith("you must play all four moves when you can")


def test_bad_dice_and_wrong_phases_are_refused() -> None:
    state = MultiGam.new()
    with pytest.raises(BadDiceError, match="1 die is due, got 2"):
        state.roll(3, 4)
    with pytest.raises(WrongPhaseError, match="P1 must roll 1 die before moving"):
        state.apply("bar/1")
    state = position()
    with pytest.raises(BadDiceError, match="a die shows 1 to 6, got 7"):
        state.roll(7, 1)
    with pytest.raises(BadDiceError, match="2 dice are due, got 3"):
        state.roll(1, 2, 3)
    state.roll(1, 2)
    with pytest.raises(WrongPhaseError, match="no dice are due: P1 must move"):
        state.roll(1, 2)


def test_options_and_players() -> None:
    with pytest.raises(OptionError, match="Multi-Gam is for 4 players, not 3"):
        MultiGam.new(3)
    with pytest.raises(OptionError, match=r"'dice_rule' cannot be 'any': allowed "
                       r"max_then_larger \| max_only \| free"):
        MultiGam.new(dice_rule="any")
    assert MultiGam.new().setup.options == {"dice_rule": "max_then_larger"}
    assert games.game_class("Multi-Gam") is MultiGam


# -- the generator against its definition ---------------------------------------------------


def brute_force(board: Board, dice: tuple[int, int], rule: str) -> tuple[set[str], list[str]]:
    """Player 0's legal end positions by the rules as written, and the texts of plays
    that are possible one move at a time but not allowed by ``rule``."""
    faces = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    found: list[tuple[tuple[int, ...], Board, list[str]]] = []

    def explore(board: Board, left: list[int], used: tuple[int, ...], text: list[str]) -> None:
        found.append((used, board, text))
        for die in sorted(set(left)):
            for start in range(7):
                if not board[0][start]:
                    continue
                end = start + die
                if end > 7:
                    if any(board[0][p] for p in range(start)):
                        continue
                    end = 7
                holders = [p for p in (1, 2, 3) if end < 7 and board[p][end]]
                if holders and board[holders[0]][end] >= 2:
                    continue
                after = [list(row) for row in board]
                after[0][start] -= 1
                after[0][end] += 1
                for p in holders:
                    after[p][end] -= 1
                    after[p][BAR] += 1
                rest = list(left)
                rest.remove(die)
                name = {0: "bar", 7: "off"}
                explore(after, rest, (*used, die),
                        [*text, f"{name.get(start, start)}/{name.get(end, end)}"])

    explore(board, faces, (), [])
    most = max(len(used) for used, _, _ in found)
    if rule == "free":
        kept = [f for f in found if f[0]]
    else:
        kept = [f for f in found if most and len(f[0]) == most]
        if rule == "max_then_larger" and most == 1 and dice[0] != dice[1]:
            kept = [f for f in kept if f[0][0] == max(dice)] or kept
    ends = {json.dumps(b) for _, b, _ in kept}
    refused = [" ".join(t) for _, b, t in found if t and json.dumps(b) not in ends]
    return ends, refused


@st.composite
def cases(draw: st.DrawFn) -> tuple[Board, tuple[int, int], str]:
    owners = [draw(st.sampled_from([None, 0, 0, 1, 2, 3])) for _ in range(6)]
    board = [[0] * 8 for _ in range(4)]
    for player in range(4):
        left = 5
        for point in range(1, 7):
            if owners[point - 1] == player:
                board[player][point] = draw(st.integers(0, min(left, 3)))
                left -= board[player][point]
        board[player][BAR] = draw(st.integers(0, left))
        board[player][OFF] = left - board[player][BAR]
    if board[0][OFF] == 5:
        board[0][OFF], board[0][BAR] = 4, 1
    finished = [p for p in (1, 2, 3) if board[p][OFF] == 5]
    if len(finished) == 3:
        board[3][OFF], board[3][BAR] = 4, 1
    dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    return board, dice, draw(st.sampled_from(DICE_RULES))


def board_of(state: MultiGam) -> str:
    return json.dumps([list(state.checkers(p)) for p in range(4)])


@given(cases())
@settings(max_examples=400, deadline=None)
def test_plays_are_exactly_the_brute_force_ones(case: tuple[Board, tuple[int, int], str]) -> None:
    board, dice, rule = case
    state = position(dice_rule=rule)
    set_position(state, board, 0)
    expected, refused = brute_force(board, dice, rule)
    state.roll(*dice)
    if not expected:
        assert state.phase is Phase.ROLL and state.no_play == (0, dice)
        assert board_of(state) == json.dumps(board)
        return
    legal = state.legal_actions()
    ends = []
    for play in legal:
        after = copy.deepcopy(state)
        after.apply(str(play))
        after.check_invariants()
        ends.append(board_of(after))
    assert set(ends) == expected and len(ends) == len(expected)
    for text in refused[:6]:
        with pytest.raises(IllegalAction):
            copy.deepcopy(state).apply(text)


# -- history --------------------------------------------------------------------------------


def observed(state: MultiGam) -> tuple[object, ...]:
    return (state.phase, state.current_player, board_of(state), state.dice, state.dice_to_play,
            state.finishing_order, state.scores(), state.result(), shown(state),
            state.opening_throws)


@pytest.mark.parametrize("rule", DICE_RULES)
def test_undo_replay_and_json_agree_over_a_random_game(rule: str) -> None:
    rng = random.Random(f"multigam-{rule}")
    state = MultiGam.new(dice_rule=rule)
    seen = []
    while not state.is_over:
        seen.append(observed(state))
        if state.phase is Phase.ROLL:
            state.roll(*(rng.randint(1, 6) for _ in range(state.dice_wanted)))
        else:
            state.apply(rng.choice(state.legal_actions()))
        state.check_invariants()
        if rng.random() < 0.05:
            undone = state.undo()
            assert observed(state) == seen[-1]
            state.apply(str(undone))
    result = state.result()
    assert result is not None and sorted(result.scores) == [1, 2, 3, 5]
    saved = json.loads(json.dumps(state.to_json()))
    assert observed(games.from_json(saved)) == observed(state)
    assert observed(MultiGam.replay(state.setup, state.history)) == observed(state)
    for before in reversed(seen[-20:]):
        state.undo()
        assert observed(state) == before


def test_invariants_catch_a_shared_point_and_a_lost_checker() -> None:
    state = position("1 off off off off", "1 bar bar bar bar")
    with pytest.raises(AssertionError, match="point 1 holds checkers of players"):
        state.check_invariants()
    state = position()
    state._counts[2][BAR] = 4
    with pytest.raises(AssertionError, match="P3 does not have five checkers"):
        state.check_invariants()


def test_the_games_command_lists_it_for_four_players(capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.cli import main

    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "multigam     Multi-Gam (4 players): four players race five checkers" in out
    assert "dice_rule = max_then_larger  (allowed max_then_larger | max_only | free)" in out
    assert "Sequence Dice (2-4 players)" in out
