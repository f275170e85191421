"""Center Point rules on the shipped board: one test per ruling, notation, errors, properties.

Shipped board (red, blue, yellow, green; two players are red and yellow):
circle 1 (48): bypasses red 0, blue 12, yellow 24, green 36; starts 6, 18, 30, 42;
               safeties red 27, blue 39, yellow 3, green 15
circle 2 (40): entered at 0, 10, 20, 30; bypasses red 36, blue 6, yellow 16, green 26;
               safeties red 18, blue 28, yellow 38, green 8
circle 3 (32): entered at 29, 5, 13, 21; bypasses red 26, blue 2, yellow 10, green 18;
               safeties red 11, blue 19, yellow 27, green 3
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.centerpoint import CenterPoint, Move
from games.centerpoint_board import Feature, Location, Off, Place
from games.core import Phase, Result
from games.errors import GameOverError, IllegalAction, NotationError, OptionError, TopologyError

B, C = Off.BEGINNING, Off.CENTRE


def P(circle: int, position: int) -> Place:
    return Place(circle, position)


def game(players: int = 2, *rows: Sequence[Location], **options: object) -> CenterPoint:
    """A game where P1 won the opening; ``rows`` place each player's markers (rest at home)."""
    state = CenterPoint.new(players, **options)
    state.roll(6)
    for _ in range(players - 1):
        state.roll(1)
    if rows:
        state._where = [list(row) + [B] * (4 - len(row)) for row in rows]
        state._where += [[B] * 4 for _ in range(players - len(rows))]
    return state


def moves(state: CenterPoint) -> list[str]:
    return [str(m) for m in state.legal_actions()]


# -- the rulings, one test each ---------------------------------------------------------------


def test_players_colours_and_opening() -> None:
    assert CenterPoint.new(2).colours == (0, 2)
    assert CenterPoint.new(3).colours == (0, 1, 2)
    assert CenterPoint.new(4).colours == (0, 1, 2, 3)
    state = CenterPoint.new(3)
    for die in (4, 6, 6, 2, 5):
        assert state.phase is Phase.ROLL and state.legal_actions() == []
        state.roll(die)
    assert state.current_player == 2 and state.markers == ((B,) * 4,) * 3


def test_entering_needs_a_one() -> None:
    state = game()
    state.roll(6)  # no move: the six is carried and P1 rolls again
    assert state.current_player == 0 and state.carried == 6
    state.roll(3)  # no move: the turn passes
    assert state.current_player == 1 and state.carried == 0
    state.roll(1)
    assert moves(state) == ["m1+1"]
    state.apply("m1+1")
    assert state.markers[1][0] == P(1, 30) and state.current_player == 0


def test_six_enters_variant_enters_without_an_extra_roll() -> None:
    state = game(2, six_enters=True)
    state.roll(6)
    assert moves(state) == ["m1+1"]
    state.apply("m1+1")
    assert state.markers[0][0] == P(1, 6) and state.current_player == 1


def test_a_six_grants_another_roll() -> None:
    state = game(2, [P(1, 7)])
    state.roll(6)
    state.apply("m1+6")
    assert state.markers[0][0] == P(1, 13) and state.current_player == 0
    state.roll(2)
    state.apply("m1+2")
    assert state.current_player == 1


def test_moves_are_compulsory_and_a_roll_with_no_move_passes_the_turn() -> None:
    state = game(2, [P(1, 7), C, C, C])
    state.roll(4)
    assert moves(state) == ["m1+4"] and state.phase is Phase.MOVE
    state = game(2, [P(3, 26), C, C, C])
    state.roll(3)
    assert state.phase is Phase.ROLL and state.current_player == 1


def test_no_split_and_no_passing_over_an_own_marker() -> None:
    state = game(2, [P(1, 7), P(1, 9), C, C])
    state.roll(3)
    assert moves(state) == ["m2+3"]
    with pytest.raises(IllegalAction, match=r"^marker 1 may not pass your marker 2 on circle 1, "
                       r"position 9; play m2\+3$"):
        state.apply("m1+3")
    with pytest.raises(IllegalAction, match=r"^the die shows 3: marker 1 moves 3 spaces"):
        state.apply("m1+1")
    state = game(2, [P(1, 7), P(1, 9), C, C])
    state.roll(2)
    with pytest.raises(IllegalAction, match="your marker 2 already stands on circle 1, position 9"):
        state.apply("m1+2")


def test_landing_on_an_opponent_sends_it_back() -> None:
    state = game(2, [P(1, 7)], [P(1, 10)])
    state.roll(3)
    state.apply("m1+3")
    assert state.markers[0][0] == P(1, 10) and state.markers[1][0] is B


def test_an_opponent_resting_on_its_own_safety_cannot_be_sent_back() -> None:
    state = game(2, [P(1, 1), P(1, 40)], [P(1, 3)])  # yellow safety on 3
    state.roll(2)
    assert moves(state) == ["m2+2"]
    before = state.markers
    with pytest.raises(IllegalAction, match=r"^P2's marker rests on the yellow safety on circle 1, "
                       r"position 3, where it cannot be sent back; play m2\+2$"):
        state.apply("m1+2")
    assert state.markers == before and state.history[-1] == games.Roll((2,))


def test_an_opponent_on_your_safety_is_sent_back_by_landing_or_passing() -> None:
    state = game(2, [P(1, 25)], [P(1, 27)])  # red safety on 27
    state.roll(4)
    state.apply("m1+4")
    assert state.markers[0][0] == P(1, 29) and state.markers[1][0] is B
    state = game(2, [P(1, 25)], [P(1, 27)])
    state.roll(2)
    state.apply("m1+2")
    assert state.markers[0][0] == P(1, 27) and state.markers[1][0] is B
    assert state.is_protected(0, P(1, 27)) and not state.is_protected(1, P(1, 27))


def test_an_opponent_on_a_third_colours_safety_can_be_landed_on_but_not_passed_over() -> None:
    state = game(4, [P(1, 37)], [], [P(1, 39)])  # yellow on blue's safety
    state.roll(2)
    state.apply("m1+2")
    assert state.markers[2][0] is B
    state = game(4, [P(1, 37)], [], [P(1, 39)])
    state.roll(4)
    state.apply("m1+4")
    assert state.markers[2][0] == P(1, 39) and state.markers[0][0] == P(1, 41)


def test_a_marker_on_its_own_safety_or_bypass_blocks_others() -> None:
    state = game(2, [P(1, 1), P(1, 40)], [P(1, 3)])
    state.roll(4)
    assert moves(state) == ["m2+4"]
    with pytest.raises(IllegalAction, match=r"^P2's marker rests on the yellow safety on circle 1, "
                       r"position 3 and blocks the way; play m2\+4$"):
        state.apply("m1+4")
    state = game(2, [P(1, 22), P(1, 40)], [P(1, 24)])  # yellow on its own bypass
    state.roll(5)
    assert moves(state) == ["m2+5"]


def test_with_no_other_move_a_block_is_passed_landing_exactly_on_the_own_safety() -> None:
    state = game(2, [P(1, 23), C, C, C], [P(1, 24)])  # yellow bypass 24, red safety 27
    state.roll(4)
    assert moves(state) == ["m1+4"]
    state.apply("m1+4")
    assert state.markers[0][0] == P(1, 27) and state.markers[1][0] == P(1, 24)
    for die in (1, 2, 3, 5):  # land on the block, or pass it but not onto red's own position
        state = game(2, [P(1, 23), C, C, C], [P(1, 24)])
        state.roll(die)
        assert state.phase is Phase.ROLL and state.current_player == 1


def test_a_marker_with_another_move_may_not_pass_a_block() -> None:
    state = game(2, [P(1, 23)], [P(1, 24)])
    state.roll(1)
    assert moves(state) == ["m2+1"]  # entering is the other move
    state = game(2, [P(1, 23)], [P(1, 24)])
    state.roll(4)
    assert moves(state) == ["m1+4"]  # markers at home cannot use a 4: no other move
    state = game(2, [P(1, 23), P(1, 40), C, C], [P(1, 24)])
    state.roll(4)
    assert moves(state) == ["m2+4"]
    with pytest.raises(IllegalAction, match=r"^P2's marker rests on the yellow bypass on circle 1, "
                       r"position 24 and blocks the way; play m2\+4$"):
        state.apply("m1+4")


def test_sixes_plus_the_exact_number_pass_a_long_block() -> None:
    state = game(4, [P(1, 38), C, C, C], [P(1, 39)])  # blue safety 39; red bypass 0 is 10 on
    state.roll(6)
    assert state.phase is Phase.ROLL and state.carried == 6 and state.current_player == 0
    state.roll(4)
    assert moves(state) == ["m1+10"]
    state.apply("m1+10")
    assert state.markers[0][0] == P(1, 0) and state.current_player == 1 and state.carried == 0
    state = game(4, [P(1, 38), C, C, C], [P(1, 39)])
    state.roll(6)
    state.roll(3)
    assert state.current_player == 1 and state.carried == 0


def test_passing_a_block_is_refused_unless_it_lands_on_the_own_safety_or_bypass() -> None:
    state = game(4, [P(1, 38), P(1, 20), C, C], [P(1, 39)])
    state.carried = 6  # a six with no move was rolled before
    state.roll(4)  # m1 is blocked by blue; m2 would land on an empty place: no block passed
    assert moves(state) == ["m2+4"]
    with pytest.raises(IllegalAction, match=r"^P2's marker rests on the blue safety on circle 1, "
                       r"position 39 and blocks the way; play m2\+4$"):
        state.apply("m1+4")
    state = game(4, [P(1, 38), C, C, C], [P(1, 39)])
    state.carried = 6
    state.roll(4)
    assert moves(state) == ["m1+10"]
    with pytest.raises(IllegalAction, match=r"^P2's marker rests on the blue safety on circle 1, "
                       r"position 39; with no other move a block may be passed only by landing "
                       r"exactly on your own safety or bypass; play m1\+10$"):
        state.apply("m1+4")


def test_the_own_bypass_leads_into_the_next_circle() -> None:
    state = game(2, [P(1, 46)])
    state.roll(4)
    state.apply("m1+4")
    assert state.markers[0][0] == P(2, 1)
    state = game(2, [P(1, 0)])
    state.roll(1)
    state.apply("m1+1")
    assert state.markers[0][0] == P(2, 0)


def test_short_cut_by_landing_exactly_on_another_colours_unoccupied_bypass() -> None:
    state = game(2, [P(1, 6)])
    state.roll(6)
    state.apply("m1+6")
    assert state.markers[0][0] == P(1, 12)  # blue's bypass: rests there
    state.roll(3)
    state.apply("m1+3")
    assert state.markers[0][0] == P(2, 12)  # into circle 2 at 10, then 2 more
    state = game(2, [P(1, 10)])
    state.roll(5)
    state.apply("m1+5")
    assert state.markers[0][0] == P(1, 15)  # passing a bypass is no short cut


def test_landing_on_a_third_colours_bypass_sends_its_occupant_back_and_takes_the_short_cut(
) -> None:
    # The ruling: red lands exactly on blue's bypass where green rests. Green is not on its
    # own bypass, so it goes back; red then rests there as on a free bypass.
    state = game(4, [P(1, 6), P(1, 40)], [], [], [P(1, 12)])
    state.roll(6)
    assert moves(state) == ["m1+6", "m2+6"]
    state.apply("m1+6")
    assert state.markers[0][0] == P(1, 12) and state.markers[3][0] is B
    state.turn = 0
    state.roll(3)
    state.apply("m1+3")
    assert state.markers[0][0] == P(2, 12)  # the short cut, as from an unoccupied bypass
    state = game(4, [], [P(1, 10)], [], [P(1, 12)])
    state.turn = 1
    state.roll(2)
    state.apply("m1+2")  # blue lands on its own bypass: green goes home
    assert state.markers[1][0] == P(1, 12) and state.markers[3][0] is B


def test_an_opponent_on_its_own_bypass_still_cannot_be_landed_on() -> None:
    state = game(4, [P(1, 6), P(1, 40)], [P(1, 12)])  # blue rests on its own bypass
    state.roll(6)
    assert moves(state) == ["m2+6"]
    with pytest.raises(IllegalAction, match=r"^P2's marker rests on the blue bypass on circle 1, "
                       r"position 12, where it cannot be sent back"):
        state.apply("m1+6")


def test_the_text_example_exact_roll_into_the_centre() -> None:
    # 3 positions from the final bypass (red's on circle 3 is 26): a 4 enters the centre
    state = game(2, [P(3, 23)])
    state.roll(4)
    assert moves(state) == ["m1+4"]
    state.apply("m1+4")
    assert state.markers[0][0] is C and state.scores() == (1, 0)
    for die in (5, 6):  # a 5 or 6 may move to the last bypass and stop
        state = game(2, [P(3, 23)])
        state.roll(die)
        assert moves(state) == ["m1+3"]
        with pytest.raises(IllegalAction, match=rf"cannot reach the centre with a {die}; it may "
                           r"stop on its last bypass: m1\+3"):
            state.apply(f"m1+{die}")
        state.apply("m1+3")
        assert state.markers[0][0] == P(3, 26)
    state.roll(1)  # the 6 rolled again: a 1 takes it in
    state.apply("m1+1")
    assert state.markers[0][0] is C


def test_a_marker_on_its_last_bypass_needs_a_one() -> None:
    state = game(2, [P(3, 26), P(1, 7)])
    state.roll(2)
    with pytest.raises(IllegalAction, match="marker 1 is on its last bypass: only a 1 takes it"):
        state.apply("m1+2")


def test_first_to_bring_all_four_markers_to_the_centre_wins() -> None:
    state = game(2, [C, C, C, P(3, 25)], [C, C, C, P(1, 6)])
    state.roll(2)
    state.apply("m4+2")
    assert state.is_over and state.current_player is None and state.winner == 0
    assert state.result() == Result((4, 3), ((0,), (1,)))
    with pytest.raises(GameOverError):
        state.roll(3)
    state.check_invariants()


# -- options, notation, rejections ---------------------------------------------------------


def test_option_validation() -> None:
    with pytest.raises(OptionError, match=r"'six_enters' cannot be 'maybe': allowed false \| true"
                       ) as refused:
        CenterPoint.new(2, six_enters="maybe")
    assert refused.value.option == "six_enters"
    with pytest.raises(OptionError, match="Center Point is for 2 to 4 players, not 5"):
        CenterPoint.new(5)
    with pytest.raises(TopologyError, match="no shipped board 'castle'"):
        CenterPoint.new(2, board="castle")
    with pytest.raises(OptionError, match="no option 'sixes'; options: six_enters, board"):
        CenterPoint.new(2, sixes=True)
    state = games.new_game("center-point", 3, six_enters="true")
    assert state.setup.options == {"six_enters": True, "board": "centerpoint"}


@given(st.builds(Move, st.integers(1, 4), st.integers(1, 40)))
@settings(max_examples=200)
def test_notation_round_trips(move: Move) -> None:
    state = CenterPoint.new(2)
    assert state.parse_action(str(move)) == move
    assert str(state.parse_action(str(move))) == str(move)


def test_notation_is_forgiving_but_checked() -> None:
    state = CenterPoint.new(2)
    assert state.parse_action(" M2 + 5 ") == Move(2, 5)
    assert state.parse_action("3+1") == Move(3, 1)
    with pytest.raises(NotationError, match=r"'x' is not a Center Point move: write m<marker>"):
        state.parse_action("x")
    with pytest.raises(NotationError, match="there is no marker 5; markers are 1 to 4"):
        state.parse_action("m5+2")
    with pytest.raises(NotationError, match="a move goes at least 1 space"):
        state.parse_action("m1+0")


def test_entering_rejections_name_what_is_wrong() -> None:
    state = game(2, [P(1, 20)])
    state.roll(1)
    assert moves(state) == ["m2+1", "m1+1"]
    with pytest.raises(IllegalAction, match=r"^markers enter in number order: marker 2 enters "
                       r"first; play m2\+1, m1\+1$"):
        state.apply("m3+1")
    state = game(2, [P(1, 20)])
    state.roll(4)
    with pytest.raises(IllegalAction, match=r"^marker 2 is at the beginning: entering needs a 1; "):
        state.apply("m2+1")
    state = game(2, [P(1, 20)], [], six_enters=True)
    state.roll(4)
    with pytest.raises(IllegalAction, match="entering needs a 1 or 6"):
        state.apply("m2+1")
    state = game(2, [P(1, 6), C])
    state.roll(1)
    with pytest.raises(IllegalAction, match="your marker 1 already stands on circle 1, position 6"):
        state.apply("m3+1")
    with pytest.raises(IllegalAction, match="marker 2 is already in the centre"):
        state.apply("m2+1")


# -- properties -------------------------------------------------------------------------------

BOARD = games.centerpoint.load_board()
ALL_PLACES = [P(c + 1, p) for c, size in enumerate(BOARD.sizes) for p in range(size)]
MARKED = sorted(BOARD.marks) + list(BOARD.starts)


def brute_force_moves(state: CenterPoint) -> set[str]:
    """The legal moves by the rulings' definitions, stepping one space at a time."""
    board, me, die = state.board, state.current_player, state.die
    assert me is not None and die is not None
    colours = state.colours
    held = {w: p for p, row in enumerate(state.markers) for w in row if isinstance(w, Place)}

    def owns(player: int, place: Location) -> bool:
        mark = board.marks.get(place) if isinstance(place, Place) else None
        return mark is not None and mark.colour == colours[player]

    def walk(place: Place, spaces: int) -> list[Location]:
        path: list[Location] = []
        here: Location = place
        for step in range(spaces):
            assert isinstance(here, Place)
            mark = board.marks.get(here)
            inward = mark is not None and mark.feature is Feature.BYPASS
            if inward and (step == 0 or owns(me, here)):
                here = board.leads_to[here]
            else:
                here = P(here.circle, (here.position + 1) % board.sizes[here.circle - 1])
            path.append(here)
            if here is C:
                break
        return path

    def may_land(end: Location) -> bool:
        if not isinstance(end, Place) or end not in held:
            return True
        return held[end] != me and not owns(held[end], end)

    def blocks(path: list[Location]) -> int | None:
        """How many protected opponents the path passes; None if it passes an own marker."""
        passed = [held[w] for w in path[:-1] if w in held]
        if me in passed:
            return None
        return sum(owns(p, w) for w in path[:-1] if w in held for p in [held[w]])

    ordinary, passing = set(), set()
    row = state.markers[me]
    faces = (1, 6) if state.setup.options["six_enters"] else (1,)
    for index, where in enumerate(row):
        first_waiting = where is B and B not in row[:index]
        if first_waiting and die in faces and may_land(board.starts[colours[me]]):
            ordinary.add(f"m{index + 1}+1")
        if not isinstance(where, Place):
            continue
        full = walk(where, die)
        spaces = die if len(full) == die else len(full) - 1
        path = walk(where, spaces)
        if spaces >= 1 and may_land(path[-1]) and blocks(path) == 0:
            ordinary.add(f"m{index + 1}+{spaces}")
        for spaces in range(die, die + state.carried + 1, 6):
            path = walk(where, spaces)
            exact = len(path) == spaces and owns(me, path[-1])
            if exact and may_land(path[-1]) and (blocks(path) or 0) > 0:
                passing.add(f"m{index + 1}+{spaces}")
    return ordinary or passing


@st.composite
def positions(draw: st.DrawFn) -> CenterPoint:
    players = draw(st.integers(2, 4))
    kinds = draw(st.lists(st.sampled_from("BCPPPP"), min_size=4 * players, max_size=4 * players))
    places = draw(st.lists(st.one_of(st.sampled_from(MARKED), st.sampled_from(ALL_PLACES)),
                           min_size=16, max_size=16, unique=True))
    spots = iter(places)
    where = [B if k == "B" else C if k == "C" else next(spots) for k in kinds]
    rows = [where[4 * p: 4 * p + 4] for p in range(players)]
    rows = [[B, *row[1:]] if row.count(C) == 4 else row for row in rows]  # nobody has won
    state = game(players, *rows, six_enters=draw(st.booleans()))
    state.turn = draw(st.integers(0, players - 1))
    state.die = draw(st.integers(1, 6))
    state.carried = draw(st.sampled_from((0, 0, 6, 12)))
    return state


@given(positions())
@settings(max_examples=300, deadline=None)
def test_move_generator_matches_the_brute_force_definition(state: CenterPoint) -> None:
    expected = brute_force_moves(state)
    assert set(moves(state)) == expected
    assert len(moves(state)) == len(expected)
    for text in sorted(expected):  # each applies; anything else is refused, state unchanged
        trial = copy.copy(state)
        trial._where = [list(row) for row in state._where]
        trial.history = list(state.history)
        trial.apply(text)
        trial.check_invariants()
    before = state.markers
    for marker in range(1, 5):
        for steps in range(1, state.die + state.carried + 2):
            if f"m{marker}+{steps}" not in expected:
                with pytest.raises(IllegalAction):
                    state.apply(f"m{marker}+{steps}")
    assert state.markers == before


def random_game(seed: int, players: int, **options: object) -> CenterPoint:
    rng = random.Random(seed)
    state = CenterPoint.new(players, **options)
    while not state.is_over:
        if state.phase is Phase.ROLL:
            state.roll(rng.randint(1, 6))
        else:
            state.apply(rng.choice(state.legal_actions()))
        state.check_invariants()
        assert len(state.history) < 5000
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_and_replay_undo_and_json_agree(players: int) -> None:
    state = random_game(players, players, six_enters=players == 3)
    result = state.result()
    assert result is not None and result.scores[result.winners[0]] == 4
    again = games.from_json(state.to_json())
    assert isinstance(again, CenterPoint) and again.markers == state.markers
    assert again.result() == result
    middle = CenterPoint.replay(state.setup, state.history[: len(state.history) // 2])
    snapshots = [middle.markers]
    for action in state.history[len(state.history) // 2:][:6]:
        middle.apply(action)
        snapshots.append(middle.markers)
    for expected in reversed(snapshots[:-1]):
        middle.undo()
        assert middle.markers == expected
        middle.check_invariants()
