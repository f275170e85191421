"""Sequence Dice: the board, every roll's rule on a constructed position, notation, errors."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.core import Phase, Result
from games.errors import GameOverError, IllegalAction, NotationError, OptionError, WrongPhaseError
from games.sequence import (
    BOARD,
    CELLS,
    SIZE,
    Cell,
    ChipMove,
    SequenceDice,
    Verb,
    cells_numbered,
    lines,
    seat_colours,
)

LETTERS = {"G": 0, "B": 1, "R": 2}


def started(players: int = 2, first: int = 0, **options: object) -> SequenceDice:
    """A game whose opening ``first`` won with 6-6 against everyone else's 1-1."""
    state = SequenceDice.new(players, **options)
    for seat in range(players):
        state.roll(*((6, 6) if seat == first else (1, 1)))
    assert state.phase is Phase.ROLL and state.current_player == first
    return state


def set_board(state: SequenceDice, *rows: str) -> None:
    """Put chips on the board from a picture: G, B, R for the colours, '.' for empty."""
    assert len(rows) == 6
    chips = {}
    for row, text in enumerate(rows):
        marks = text.split()
        assert len(marks) == 6
        for col, mark in enumerate(marks):
            if mark != ".":
                chips[Cell(row, col)] = LETTERS[mark]
    state._chips = chips


def position(*rows: str, players: int = 2, first: int = 0, **options: object) -> SequenceDice:
    state = started(players, first, **options)
    set_board(state, *rows)
    return state


def dice_for(total: int) -> tuple[int, int]:
    high = min(6, total - 1)
    return high, total - high


def shown(moves: list[ChipMove]) -> list[str]:
    return [str(move) for move in moves]


EMPTY = (". . . . . .",) * 6
# Full, and no colour has three in a line: pairs of columns alternate from row to row.
FULL = (
    "G G B B G G",
    "B B G G B B",
    "G G B B G G",
    "B B G G B B",
    "G G B B G G",
    "B B G G B B",
)

# -- the board ------------------------------------------------------------------------------


def test_board_has_four_cells_each_of_2_to_9_and_12_and_no_10_or_11() -> None:
    counts = Counter(number for row in BOARD for number in row)
    assert counts == {n: 4 for n in (2, 3, 4, 5, 6, 7, 8, 9, 12)}
    assert all(len(cells_numbered(n)) == 4 for n in counts)
    assert cells_numbered(10) == cells_numbered(11) == ()


def test_board_is_exactly_the_printed_one() -> None:
    assert BOARD == (
        (2, 3, 4, 5, 6, 2),
        (6, 7, 8, 9, 7, 3),
        (5, 9, 12, 12, 8, 4),
        (4, 8, 12, 12, 9, 5),
        (3, 7, 9, 8, 7, 6),
        (2, 6, 5, 4, 3, 2),
    )
    assert [str(c) for c in cells_numbered(2)] == ["A1", "F1", "A6", "F6"]
    assert [str(c) for c in cells_numbered(12)] == ["C3", "D3", "C4", "D4"]


def test_board_turns_into_itself_by_90_degrees_but_no_mirror_does() -> None:
    def rotated(b: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(b[5 - c][r] for c in range(6)) for r in range(6))

    assert rotated(BOARD) == BOARD
    mirrors = [
        tuple(row[::-1] for row in BOARD),  # left-right
        BOARD[::-1],  # far-near
        tuple(zip(*BOARD, strict=True)),  # main diagonal
        tuple(tuple(BOARD[5 - c][5 - r] for c in range(6)) for r in range(6)),  # anti-diagonal
    ]
    assert all(mirror != BOARD for mirror in mirrors)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(CELLS), st.integers(0, 1)))
def test_the_longest_run_is_the_longest_line_of_one_colour(chips: dict[Cell, int]) -> None:
    state = started()
    state._chips = chips
    for colour in (0, 1):
        owned = [length for length in range(1, SIZE + 1) for line in lines(length)
                 if all(chips.get(cell) == colour for cell in line)]
        assert state.longest_run(colour) == max(owned, default=0)


def test_32_windows_of_five_and_14_lines_of_six() -> None:
    assert len(lines(5)) == len(set(lines(5))) == 32
    assert len(lines(6)) == len(set(lines(6))) == 14
    assert (Cell(0, 0), Cell(1, 1), Cell(2, 2), Cell(3, 3), Cell(4, 4), Cell(5, 5)) in lines(6)
    assert (Cell(0, 5), Cell(1, 4), Cell(2, 3), Cell(3, 2), Cell(4, 1)) in lines(5)
    assert (Cell(1, 0), Cell(2, 1), Cell(3, 2), Cell(4, 3), Cell(5, 4)) in lines(5)
    for line in lines(5) + lines(6):
        steps = {(b.row - a.row, b.col - a.col) for a, b in pairwise(line)}
        assert len(steps) == 1 and steps <= {(0, 1), (1, 0), (1, 1), (1, -1)}


# -- notation -------------------------------------------------------------------------------


def test_cells_are_column_letter_and_row_number_from_the_far_edge() -> None:
    assert str(Cell(0, 0)) == "A1" and Cell(0, 0).number == 2
    assert str(Cell(2, 1)) == "B3" and Cell(2, 1).number == 9
    assert Cell.parse("c3") == Cell(2, 2) and Cell(2, 2).number == 12
    assert Cell.parse(" F6 ") == Cell(5, 5)
    for bad in ("G1", "A7", "A0", "A", "11", ""):
        with pytest.raises(NotationError, match=r"write a column A-F and a row 1-6, e\.g\. B3"):
            Cell.parse(bad)


@given(st.sampled_from(list(Verb)), st.sampled_from(CELLS))
@settings(max_examples=150)
def test_notation_round_trips(verb: Verb, cell: Cell) -> None:
    state = SequenceDice.new()
    move = ChipMove(verb, cell)
    text = str(move)
    assert state.parse_action(text) == move
    assert str(state.parse_action(text.upper())) == text
    assert str(state.parse(text)) == text


def test_a_bare_cell_means_the_move_the_roll_allows() -> None:
    state = position(
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . B .",
        ". . . . . .",
    )
    assert state.parse_action("e5") == ChipMove(Verb.PLACE, Cell(4, 4))
    state.roll(4, 6)
    assert state.parse_action("e5") == ChipMove(Verb.REMOVE, Cell(4, 4))
    assert str(state.apply("E5")) == "remove E5"


def test_bad_move_text_is_named() -> None:
    state = SequenceDice.new()
    for bad in ("jump B3", "place", "place B3 C4", "place 3B"):
        with pytest.raises(NotationError, match=r"e\.g\. (place )?B3"):
            state.parse_action(bad)


# -- set-up ---------------------------------------------------------------------------------


def test_options_are_validated() -> None:
    with pytest.raises(OptionError, match=r"'sequence_length' cannot be 7: allowed 5 \| 6"):
        SequenceDice.new(sequence_length=7)
    with pytest.raises(OptionError, match=r"cannot be 'maybe': allowed false \| true"):
        SequenceDice.new(wild_may_replace_corner_and_centre="maybe")
    with pytest.raises(OptionError, match="Sequence Dice is for 2 to 4 players, not 5"):
        SequenceDice.new(5)
    with pytest.raises(OptionError, match="no option 'length'"):
        SequenceDice.new(length=6)
    state = games.new_game("sequence", 4, sequence_length="6",
                           wild_may_replace_corner_and_centre="false")
    assert state.setup.options == {"sequence_length": 6,
                                   "wild_may_replace_corner_and_centre": False}
    assert SequenceDice.new().setup.options == {"sequence_length": 5,
                                                "wild_may_replace_corner_and_centre": True}


def test_six_is_recommended_for_two_players_or_two_teams() -> None:
    assert SequenceDice.recommended_options(2) == {"sequence_length": 6}
    assert SequenceDice.recommended_options(3) == {"sequence_length": 5}
    assert SequenceDice.recommended_options(4) == {"sequence_length": 6}


def test_four_players_are_two_teams_of_one_colour() -> None:
    assert seat_colours(2) == (0, 1)
    assert seat_colours(3) == (0, 1, 2)
    state = SequenceDice.new(names=["Ann", "Bob", "Cy", "Di"])
    assert state.colours == (0, 1, 0, 1)
    assert state.players_of(1) == (1, 3)
    assert state.colour_label(1) == "blue (Bob+Di)"
    assert SequenceDice.new(3).colour_label(2) == "red (P3)"


def test_opening_highest_two_dice_start_and_the_tied_roll_again() -> None:
    state = SequenceDice.new(3)
    assert state.dice_wanted == 2
    state.roll(5, 6)
    state.roll(6, 5)
    state.roll(2, 2)
    assert state.opening is not None and state.opening.to_roll == [0, 1]
    assert state.current_player == 0
    state.roll(3, 3)
    state.roll(4, 4)
    assert state.opening is None
    assert state.phase is Phase.ROLL and state.current_player == 1
    assert state.board == ((None,) * 6,) * 6


# -- the rolls ------------------------------------------------------------------------------


def test_a_total_places_a_chip_on_an_empty_cell_of_that_number() -> None:
    state = position(
        ". . . . . .",
        ". . B . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
    )
    state.roll(3, 5)
    assert state.phase is Phase.MOVE and state.total_to_play == 8 and state.dice == (3, 5)
    assert shown(state.legal_actions()) == ["place E3", "place B4", "place D5"]
    state.apply("place B4")
    assert state.chip(Cell(3, 1)) == 0
    assert state.phase is Phase.ROLL and state.current_player == 1
    state.roll(4, 5)
    assert refusal(state, "place E3") == "E3 is an 8, the roll is 9; allowed: place D2, B3, E4, C5"


def test_all_four_covered_replaces_an_opponent_chip_on_them() -> None:
    state = position(
        ". . . . . .",
        ". . G . . .",
        ". . . . B .",
        ". B . . . .",
        ". . . G . .",
        ". . . . . .",
    )
    state.roll(4, 4)
    assert shown(state.legal_actions()) == ["replace E3", "replace B4"]
    state.apply("replace E3")
    assert state.chip(Cell(2, 4)) == 0 and state.current_player == 1


def test_a_full_2_or_12_is_replaced_too_and_gives_another_turn() -> None:
    state = position(
        ". . . . . .",
        ". . . . . .",
        ". . G R . .",
        ". . B B . .",
        ". . . . . .",
        ". . . . . .",
        players=3,
    )
    state.roll(6, 6)
    assert shown(state.legal_actions()) == ["replace D3", "replace C4", "replace D4"]
    state.apply("replace D3")
    assert state.chip(Cell(2, 3)) == 0
    assert state.phase is Phase.ROLL and state.current_player == 0


def test_all_four_own_ends_the_turn() -> None:
    state = position(
        ". . . . . .",
        ". . G . . .",
        ". . . . G .",
        ". G . . . .",
        ". . . G . .",
        ". . . . . .",
    )
    board = state.board
    state.roll(2, 6)
    assert state.phase is Phase.ROLL and state.current_player == 1 and state.board == board


def test_a_rolled_2_with_nothing_to_place_still_gives_another_turn() -> None:
    state = position(
        "G . . . . G",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        "G . . . . G",
    )
    state.roll(1, 1)
    assert state.phase is Phase.ROLL and state.current_player == 0
    state.roll(1, 2)
    assert shown(state.legal_actions()) == ["place B1", "place F2", "place A5", "place E6"]


def test_a_placed_2_gives_another_turn_and_so_does_the_next() -> None:
    state = started()
    state.roll(1, 1)
    state.apply("place F6")
    assert state.current_player == 0
    state.roll(1, 1)
    state.apply("place A1")
    assert state.current_player == 0
    state.roll(1, 2)
    state.apply("place B1")
    assert state.current_player == 1


def test_ten_removes_an_opponent_chip_but_not_from_2_or_12() -> None:
    state = position(
        "B . . . . .",
        ". B . G . .",
        ". . B . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
    )
    state.roll(5, 5)
    assert shown(state.legal_actions()) == ["remove B2"]
    state.apply("remove B2")
    assert state.chip(Cell(1, 1)) is None
    assert state.phase is Phase.ROLL and state.current_player == 1


def test_ten_removes_any_other_colour_among_three() -> None:
    state = position(
        ". . . . . .",
        ". B . G . .",
        ". . . . R .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        players=3,
        first=2,
    )
    state.roll(6, 4)
    assert shown(state.legal_actions()) == ["remove B2", "remove D2"]


def test_ten_with_nothing_removable_ends_the_turn() -> None:
    state = position(
        "B . . . . B",
        ". G . . . .",
        ". . B B . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
    )
    board = state.board
    state.roll(4, 6)
    assert state.phase is Phase.ROLL and state.current_player == 1 and state.board == board


def test_ten_never_gives_team_mates_chips_to_remove() -> None:
    state = position(
        ". . . . . .",
        ". G . B . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        players=4,
        first=2,
    )
    state.roll(5, 5)
    assert shown(state.legal_actions()) == ["remove D2"]


def test_eleven_places_on_any_empty_cell_without_another_turn() -> None:
    state = started()
    state.roll(5, 6)
    assert len(state.legal_actions()) == 36
    state = position(*FULL)
    del state._chips[Cell(5, 0)]
    state.roll(6, 5)
    assert shown(state.legal_actions()) == ["place A6"]
    state.apply("place A6")
    assert state.chip(Cell(5, 0)) == 0 and state.current_player == 1


def test_eleven_on_a_full_board_replaces_any_opponent_chip() -> None:
    state = position(*FULL)
    assert max(state.scores()) == 2
    state.roll(5, 6)
    expected = [f"replace {c}" for c in CELLS if state.chip(c) == 1]
    assert shown(state.legal_actions()) == expected and len(expected) == 18
    assert "replace C3" in expected and "replace A6" in expected
    state.apply("replace C3")
    assert state.chip(Cell(2, 2)) == 0 and state.current_player == 1


def test_eleven_on_a_full_board_spares_2_and_12_cells_in_the_variant() -> None:
    state = position(*FULL, wild_may_replace_corner_and_centre=False)
    state.roll(5, 6)
    expected = [f"replace {c}" for c in CELLS
                if state.chip(c) == 1 and c.number not in (2, 12)]
    assert shown(state.legal_actions()) == expected and len(expected) == 14


def test_eleven_on_a_full_board_with_nothing_to_replace_ends_the_turn() -> None:
    only_on_2_and_12 = [
        "B G G G G B",
        "G G G G G G",
        "G G B B G G",
        "G G B B G G",
        "G G G G G G",
        "B G G G G B",
    ]
    state = position(*only_on_2_and_12, wild_may_replace_corner_and_centre=False)
    state.roll(6, 5)
    assert state.phase is Phase.ROLL and state.current_player == 1
    state = started()
    state._chips = dict.fromkeys(CELLS, 0)
    state.roll(5, 6)
    assert state.phase is Phase.ROLL and state.current_player == 1


# -- winning --------------------------------------------------------------------------------


def test_five_in_a_row_wins_at_once_and_names_the_line() -> None:
    state = position(
        "G G G G . .",
        ". . . . . .",
        "B B B B . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
    )
    state.roll(3, 3)
    state.apply("place E1")
    assert state.is_over and state.current_player is None
    assert [str(c) for c in state.winning_line or ()] == ["A1", "B1", "C1", "D1", "E1"]
    assert state.result() == Result((5, 4), ((0,), (1,)))
    assert state.legal_actions() == []
    with pytest.raises(GameOverError, match="the game is over"):
        state.roll(1, 2)


def test_six_needs_the_whole_line() -> None:
    state = position(
        "G G G G . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        sequence_length=6,
    )
    state.roll(3, 3)
    state.apply("place E1")
    assert not state.is_over and state.scores() == (5, 0)
    state.roll(1, 1)  # P2: another turn
    state.apply("place A6")
    state.roll(2, 2)
    state.apply("place F3")
    state.roll(1, 1)
    state.apply("place F1")
    assert state.is_over and len(state.winning_line or ()) == 6


def test_a_diagonal_win_reports_the_longest_run_through_the_chip() -> None:
    state = position(
        "G . . . . .",
        ". G . . . .",
        ". . . . . .",
        ". . . G . .",
        ". . . . G .",
        ". . . . . G",
    )
    state.roll(6, 6)
    state.apply("place C3")
    assert [str(c) for c in state.winning_line or ()] == ["A1", "B2", "C3", "D4", "E5", "F6"]
    assert state.phase is Phase.OVER  # the win stops the extra turn of the 12


def test_a_replacement_completes_a_line() -> None:
    state = position(
        ". . . . . .",
        ". B . . B .",
        ". . . . G .",
        ". . . . G .",
        ". B . . G .",
        ". . . . G .",
    )
    state.roll(3, 4)
    assert shown(state.legal_actions()) == ["replace B2", "replace E2", "replace B5"]
    state.apply("replace E2")
    assert [str(c) for c in state.winning_line or ()] == ["E2", "E3", "E4", "E5", "E6"]


def test_a_team_wins_together() -> None:
    state = position(
        ". . . . . .",
        "B G . . . .",
        "B . G . . .",
        "B . . G . .",
        "B . . . G .",
        ". . . . . .",
        players=4,
        first=2,
    )
    assert state.scores() == (4, 4, 4, 4)
    state.roll(5, 5)
    assert shown(state.legal_actions()) == ["remove A2", "remove A3", "remove A4", "remove A5"]
    state.apply("remove A4")
    state.roll(3, 4)
    assert shown(state.legal_actions()) == ["place E2", "place B5"]
    state.apply("place E2")
    assert state.current_player == 0 and not state.is_over
    state.roll(5, 6)
    state.apply("place A1")
    assert [str(c) for c in state.winning_line or ()] == ["A1", "B2", "C3", "D4", "E5"]
    result = state.result()
    assert result is not None and result.ranking == ((0, 2), (1, 3))
    assert result.scores == (5, 2, 5, 2)


def test_three_players_the_losers_share_second_place() -> None:
    state = position(
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". R R R R .",
        players=3,
        first=2,
    )
    state.roll(1, 1)
    state.apply("place F6")
    result = state.result()
    assert result is not None and result.ranking == ((2,), (0, 1))
    assert result.winners == (2,)


def refusal(state: SequenceDice, text: str) -> str:
    """The message refusing ``text``; the state must be left as it was."""
    before = (state.board, list(state.history), state.total_to_play, state.current_player)
    with pytest.raises(IllegalAction) as caught:
        state.apply(text)
    assert (state.board, state.history, state.total_to_play, state.current_player) == before
    return str(caught.value)


# -- refusals -------------------------------------------------------------------------------


REFUSALS = [
    ("place A1", "A1 is a 2, the roll is 8; allowed: place E3, B4, D5"),
    ("place D2", "D2 is a 9, the roll is 8; allowed: place E3, B4, D5"),
    ("place C2", "C2 is taken: blue (P2) holds it; allowed: place E3, B4, D5"),
    ("remove C2", "a roll of 8 places a chip on an empty 8, it does not remove; "
                  "allowed: place E3, B4, D5"),
    ("replace C2", "a roll of 8 places a chip on an empty 8, it does not replace; "
                   "allowed: place E3, B4, D5"),
]


@pytest.mark.parametrize(("text", "message"), REFUSALS)
def test_a_placement_refused_says_why(text: str, message: str) -> None:
    state = position(
        ". . . . . .",
        ". . B . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
    )
    state.roll(2, 6)
    assert refusal(state, text) == message


@pytest.mark.parametrize(("text", "message"), [
    ("remove A1", "A1 is a 2 cell: a defensive 10 cannot clear 2 or 12 cells; "
                  "allowed: remove B2"),
    ("remove D2", "D2 holds your own chip; allowed: remove B2"),
    ("remove E5", "E5 is empty; allowed: remove B2"),
    ("place E5", "a roll of 10 removes an opponent chip (not from a 2 or 12 cell), "
                 "it does not place; allowed: remove B2"),
])
def test_a_removal_refused_says_why(text: str, message: str) -> None:
    state = position(
        "B . . . . .",
        ". B . G . .",
        ". . B . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
    )
    state.roll(5, 5)
    assert refusal(state, text) == message


def test_a_replacement_refused_says_why() -> None:
    state = position(
        ". . . . . .",
        ". . G . . .",
        ". . . . B .",
        ". B . . . .",
        ". . . G . .",
        ". . . . . .",
    )
    state.roll(4, 4)
    assert refusal(state, "replace C2") == "C2 holds your own chip; allowed: replace E3, B4"
    assert refusal(state, "place C2") == ("a roll of 8 replaces an opponent chip: all four 8s "
                                          "are covered, it does not place; allowed: replace E3, B4")
    assert refusal(state, "replace C3") == "C3 is a 12, the roll is 8; allowed: replace E3, B4"


def test_a_wild_replacement_refused_on_a_2_in_the_variant() -> None:
    state = position(*FULL, wild_may_replace_corner_and_centre=False)
    state.roll(5, 6)
    assert refusal(state, "replace F6") == (
        "F6 is a 2 cell: a wild 11 may not replace chips on 2 or 12 cells "
        "(option wild_may_replace_corner_and_centre); allowed: replace any of 14 cells")
    assert refusal(state, "place F6") == (
        "a roll of 11 replaces an opponent chip: the board is full, it does not place; "
        "allowed: replace any of 14 cells")


def test_moves_and_dice_out_of_turn_are_refused_by_phase() -> None:
    state = started()
    with pytest.raises(WrongPhaseError, match="P1 must roll 2 dice before moving"):
        state.apply("place A1")
    state.roll(1, 2)
    with pytest.raises(WrongPhaseError, match="no dice are due: P1 must move"):
        state.roll(1, 2)


# -- the move generator against its definition ----------------------------------------------


def brute_force_legal(
    chips: dict[Cell, int], mine: int, total: int, wild_replaces_all: bool
) -> set[ChipMove]:
    """Every (verb, cell) pair checked one by one against the rules as written."""

    def allowed(verb: Verb, cell: Cell) -> bool:
        held = chips.get(cell)
        opponent = held is not None and held != mine
        protected = cell.number in (2, 12)
        if total == 10:
            return verb is Verb.REMOVE and opponent and not protected
        if total == 11:
            if len(chips) < 36:
                return verb is Verb.PLACE and held is None
            return verb is Verb.REPLACE and opponent and (wild_replaces_all or not protected)
        if cell.number != total:
            return False
        if any(c.number == total and c not in chips for c in CELLS):
            return verb is Verb.PLACE and held is None
        return verb is Verb.REPLACE and opponent

    return {ChipMove(v, c) for v in Verb for c in CELLS if allowed(v, c)}


@st.composite
def positions(draw: st.DrawFn) -> tuple[int, int, dict[Cell, int], int, bool, int]:
    players = draw(st.sampled_from([2, 3, 4]))
    mover = draw(st.integers(0, players - 1))
    sides = len(set(seat_colours(players)))
    fill = draw(st.sampled_from([0.2, 0.6, 0.95, 1.0]))
    marks = draw(st.lists(st.tuples(st.floats(0, 1), st.integers(0, sides - 1)),
                          min_size=36, max_size=36))
    chips = {cell: colour for cell, (p, colour) in zip(CELLS, marks, strict=True) if p < fill}
    total = draw(st.integers(2, 12))
    return players, mover, chips, total, draw(st.booleans()), draw(st.integers(0, 10**6))


@given(positions())
@settings(max_examples=250, deadline=None)
def test_legal_moves_are_exactly_the_brute_force_ones(
    case: tuple[int, int, dict[Cell, int], int, bool, int],
) -> None:
    players, mover, chips, total, wild_replaces_all, pick = case
    state = started(players, mover, wild_may_replace_corner_and_centre=wild_replaces_all)
    state._chips = dict(chips)
    expected = brute_force_legal(chips, seat_colours(players)[mover], total, wild_replaces_all)
    state.roll(*dice_for(total))
    if not expected:
        assert state.phase is Phase.ROLL and state._chips == chips
        assert state.current_player == (mover if total in (2, 12) else (mover + 1) % players)
        return
    legal = state.legal_actions()
    assert set(legal) == expected and len(legal) == len(expected)
    for move in (ChipMove(v, c) for v in Verb for c in CELLS):
        if move not in expected:
            with pytest.raises(IllegalAction):
                state.apply(move)
    assert state._chips == chips
    move = sorted(expected, key=str)[pick % len(expected)]
    state.apply(move)
    changed = {c for c in CELLS if state.chip(c) != chips.get(c)}
    assert changed == {move.cell}
    assert state.chip(move.cell) == (None if move.verb is Verb.REMOVE
                                     else seat_colours(players)[mover])


# -- history --------------------------------------------------------------------------------


def observed(state: SequenceDice) -> tuple[object, ...]:
    return (state.phase, state.current_player, state.board, state.dice, state.total_to_play,
            state.winning_line, state.scores(), state.result(), shown(state.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_undo_replay_and_json_agree_over_a_random_game(players: int) -> None:
    rng = random.Random(f"sequence-{players}")
    state = SequenceDice.new(players, sequence_length=rng.choice([5, 6]))
    seen = []
    while not state.is_over:
        seen.append(observed(state))
        if state.phase is Phase.ROLL:
            state.roll(rng.randint(1, 6), rng.randint(1, 6))
        else:
            state.apply(rng.choice(state.legal_actions()))
        state.check_invariants()
        if rng.random() < 0.05:
            undone = state.undo()
            assert observed(state) == seen[-1]
            state.apply(str(undone))
    assert len(state.history) < 5000
    saved = json.loads(json.dumps(state.to_json()))
    assert observed(games.from_json(saved)) == observed(state)
    replayed = SequenceDice.replay(state.setup, state.history)
    assert observed(replayed) == observed(state)
    for before in reversed(seen[-20:]):
        state.undo()
        assert observed(state) == before


def test_invariants_catch_a_line_left_standing() -> None:
    state = position(
        ". . . . . .",
        ". . . . . .",
        "G G G G G .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
    )
    with pytest.raises(AssertionError, match="a sequence stands but the game goes on"):
        state.check_invariants()


def test_the_registry_finds_the_game() -> None:
    assert games.game_class("sequence") is SequenceDice
    assert games.game_class("Sequence") is SequenceDice
