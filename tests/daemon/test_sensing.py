"""Board sensing: square changes read as Sequence Dice and Centennial actions, and fixes."""

from __future__ import annotations

import re
from itertools import product
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from firmware_host.sensing import (
    CentennialRecogniser,
    Outcome,
    Recogniser,
    SequenceRecogniser,
    recogniser_for,
)
from firmware_host.sensing.centennial import box_of
from games.centennial import Centennial, Stop, targets_reached
from games.core import GameState, Phase
from games.sequence import Cell, SequenceDice, Verb
from hardware.board.matrix import ReedMatrix
from hardware.board.mock import MockBoard
from hardware.events import CellChanged
from hardware.pins.clock import ManualClock
from hardware.wiring.pinmap import load_pin_map

ALL_DICE = list(product(range(1, 7), repeat=3))


class Table:
    """A game, its recogniser and a referee that applies whatever is recognised."""

    def __init__(self, game: GameState[Any], layout: str) -> None:
        self.game = game
        recogniser = recogniser_for(game, layout)
        assert recogniser is not None
        self.recogniser: Recogniser = recogniser
        assert recogniser.reset(game, recogniser.expected(game)) == Outcome(None, ())

    def sense(self, square: tuple[int, int], occupied: bool) -> Outcome:
        outcome = self.recogniser.changed(self.game, CellChanged(*square, occupied))
        if outcome.action is not None:
            self.game.apply(outcome.action)
        return outcome

    def confirm(self, outcome: Outcome) -> None:
        """SELECT on the move offered."""
        assert outcome.offer is not None
        self.game.apply(outcome.offer)


# -- choosing -------------------------------------------------------------------------------


def test_a_recogniser_is_found_for_sequence_on_the_grid_and_centennial_on_the_track() -> None:
    sequence, centennial = games.new_game("sequence", 2), games.new_game("centennial", 3)
    assert isinstance(recogniser_for(sequence, "grid"), SequenceRecogniser)
    assert isinstance(recogniser_for(centennial, "track"), CentennialRecogniser)
    assert recogniser_for(sequence, "track") is None
    assert recogniser_for(centennial, "grid") is None
    assert recogniser_for(games.new_game("dalmatian", 2), "grid") is None
    assert recogniser_for(games.new_game("centerpoint", 2), "track") is None


def test_a_recogniser_refuses_another_game() -> None:
    with pytest.raises(TypeError, match="cannot read Centennial"):
        SequenceRecogniser().expected(games.new_game("centennial", 2))
    with pytest.raises(ValueError, match="cannot have 5 columns"):
        CentennialRecogniser(columns=5)


# -- Sequence Dice --------------------------------------------------------------------------


def sequence_table(players: int = 2) -> Table:
    game = SequenceDice.new(players)
    for seat in range(players):
        game.roll(*((6, 6) if seat == 0 else (1, 1)))
    return Table(game, "grid")


def at(name: str) -> tuple[int, int]:
    cell = Cell.parse(name)
    return cell.row, cell.col


def put(table: Table, name: str) -> Outcome:
    return table.sense(at(name), True)


def lift(table: Table, name: str) -> Outcome:
    return table.sense(at(name), False)


def played(action: str) -> Outcome:
    return Outcome(action, ())


QUIET = Outcome(None, ())


def offered(action: str) -> Outcome:
    cell = action.split()[-1]
    return Outcome(None, (), f"{cell}: if your chip is on it now, SELECT replaces; if theirs "
                             "went back, lift the chip to replace", offer=action)


def test_a_whole_sequence_game_by_the_sensors_alone() -> None:
    table = sequence_table()
    game = table.game
    assert isinstance(game, SequenceDice)
    game.roll(1, 1)  # 2: another turn follows
    assert put(table, "A1") == played("place A1")
    game.roll(3, 3)
    assert put(table, "A2") == played("place A2")
    game.roll(1, 2)  # P2
    assert put(table, "B1") == played("place B1")
    game.roll(2, 3)
    assert put(table, "A3") == played("place A3")
    game.roll(1, 2)
    assert put(table, "F2") == played("place F2")

    game.roll(4, 4)  # a chip on the wrong number, taken off again
    assert put(table, "B3") == Outcome(
        None, ("lift the chip from B3",),
        "B3 is a 9, the roll is 8; allowed: place C2, E3, B4, D5", refused="place B3")
    assert lift(table, "B3") == QUIET
    assert put(table, "B4") == played("place B4")

    game.roll(5, 5)  # P2's defensive 10: a corner chip lifted by mistake, then put back
    assert lift(table, "A1") == Outcome(
        None, ("put a green chip on A1",),
        "A1 is a 2 cell: a defensive 10 cannot clear 2 or 12 cells; allowed: remove A2, A3, B4",
        refused="remove A1")
    assert put(table, "A1") == QUIET
    assert lift(table, "A2") == played("remove A2")

    game.roll(1, 2)
    assert put(table, "A5") == played("place A5")
    game.roll(2, 1)
    assert put(table, "E6") == played("place E6")  # every 3 is covered now
    game.roll(3, 3)
    assert put(table, "A2") == played("place A2")

    game.roll(1, 2)  # P2 replaces P1's chip on A5: the lift waits for the put
    assert table.recogniser.hint(game) == "to replace: lift their chip, put yours on, SELECT"
    assert lift(table, "A5") == QUIET
    assert put(table, "A5") == offered("replace A5")  # or a change of mind: they look alike
    table.confirm(offered("replace A5"))
    game.roll(2, 1)  # and P1 takes it back
    assert lift(table, "A5") == QUIET
    table.confirm(put(table, "A5"))
    assert table.recogniser.hint(game) is None
    game.roll(5, 6)  # P2's wild 11
    assert put(table, "C3") == played("place C3")

    game.roll(2, 2)
    assert put(table, "A4") == played("place A4")
    assert game.is_over and game.winning_line == tuple(Cell(row, 0) for row in range(5))
    assert [str(a) for a in game.history[-3:]] == ["place C3", "roll 2-2", "place A4"]
    assert put(table, "D4") == Outcome(None, ("lift the chip from D4",),
                                       "the game is over; place D4 cannot be played",
                                       refused="place D4")


def test_a_chip_put_down_before_the_roll_is_a_mistake() -> None:
    table = sequence_table()
    assert put(table, "C4") == Outcome(None, ("lift the chip from C4",),
                                       "P1 must roll 2 dice before moving", refused="place C4")
    table.game.roll(4, 5)  # 9, and C4 is no 9: the stray chip still has to go
    assert table.recogniser.review(table.game) == Outcome(None, ("lift the chip from C4",))
    assert lift(table, "C4") == QUIET
    assert put(table, "B3") == played("place B3")


def test_a_lift_on_the_wrong_turn_and_a_lift_with_the_wrong_verb() -> None:
    table = sequence_table()
    table.game.roll(3, 4)
    assert put(table, "B2") == played("place B2")
    assert lift(table, "B2") == Outcome(None, ("put a green chip on B2",),
                                        "P2 must roll 2 dice before moving", refused="remove B2")
    assert put(table, "B2") == QUIET
    table.game.roll(4, 4)
    assert lift(table, "B2") == Outcome(
        None, ("put a green chip on B2",),
        "a roll of 8 places a chip on an empty 8, it does not remove; "
        "allowed: place C2, E3, B4, D5", refused="remove B2")


def test_a_lift_for_a_replacement_is_excused_only_while_the_replacement_is_due() -> None:
    table = sequence_table()
    game = table.game
    for dice, cell in [((1, 2), "B1"), ((1, 2), "F2"), ((1, 2), "A5"), ((1, 2), "E6")]:
        game.roll(*dice)
        assert put(table, cell) == played(f"place {cell}")
    game.roll(2, 1)  # P1: every 3 covered, P2 holds F2 and E6
    assert lift(table, "B1") == Outcome(
        None, ("put a green chip on B1",),
        "B1 holds your own chip; allowed: replace F2, E6", refused="replace B1")
    assert put(table, "B1") == QUIET
    assert lift(table, "F2") == QUIET
    assert table.recogniser.review(game) == QUIET
    game.undo()  # the referee takes the roll back: the lifted chip is now simply missing
    assert table.recogniser.review(game) == Outcome(None, ("put a blue chip on F2",))
    assert put(table, "F2") == QUIET  # no replacement: none is due


def test_a_square_beyond_the_board_is_named() -> None:
    table = sequence_table()
    assert table.sense((6, 7), True) == Outcome(None, ("lift the chip from H7",),
                                                "H7 is not a cell of the board")


def test_reset_after_a_resume_lists_each_difference_in_board_order() -> None:
    game = SequenceDice.replay(SequenceDice.new(3).setup, [
        "roll 6-6", "roll 1-1", "roll 1-1", "roll 3-4", "place B2", "roll 3-4", "place E2",
        "roll 4-4", "place C2"])
    recogniser = recogniser_for(game, "grid")
    assert recogniser is not None
    assert recogniser.expected(game) == {at("B2"), at("E2"), at("C2")}
    scanned = {at("B2"), at("F6"), at("A1")}
    assert recogniser.reset(game, scanned) == Outcome(None, (
        "lift the chip from A1", "put a red chip on C2", "put a blue chip on E2",
        "lift the chip from F6"))
    assert recogniser.board == scanned
    assert recogniser.reset(game, recogniser.expected(game)) == QUIET


def changes(before: frozenset[tuple[int, int]], after: frozenset[tuple[int, int]],
            move: str) -> list[CellChanged]:
    """What the sensors report for one move: a replacement is a lift then a put."""
    verb, name = move.split()
    if verb == Verb.REPLACE.value:
        return [CellChanged(*at(name), False), CellChanged(*at(name), True)]
    return [CellChanged(*square, square in after) for square in sorted(before ^ after)]


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from([2, 3, 4]), st.booleans())
def test_random_sequence_play_is_recognised_move_by_move(data: st.DataObject, players: int,
                                                         protected: bool) -> None:
    game = SequenceDice.new(players, wild_may_replace_corner_and_centre=protected)
    recogniser = recogniser_for(game, "grid")
    assert recogniser is not None
    recogniser.reset(game, frozenset())
    die = st.integers(1, 6)
    for _ in range(120):
        if game.is_over:
            break
        if game.phase is Phase.ROLL:
            game.roll(data.draw(die), data.draw(die))
            continue
        move = str(data.draw(st.sampled_from(game.legal_actions())))
        before = recogniser.expected(game)
        after = recogniser.expected(SequenceDice.replay(game.setup, [*game.history, move]))
        *waiting, last = [recogniser.changed(game, event)
                          for event in changes(before, after, move)]
        assert waiting == [QUIET] * len(waiting)
        assert last == (offered(move) if move.startswith("replace") else played(move))
        game.apply(move)
        assert recogniser.review(game) == QUIET


# -- Centennial -----------------------------------------------------------------------------


def centennial_at(goal: tuple[int, ...], **options: Any) -> Centennial:
    """A game with the markers at ``goal`` (progress per player) and P1 to throw."""
    game = Centennial.new(len(goal), mode="declare", **options)
    for die in [6] + [1] * (len(goal) - 1):
        game.roll(die)
    while game.progress != goal or game.turn != 0:
        player, start = game.turn, game.progress[game.turn]
        steps = 1 if start < goal[player] else 0
        game.roll(*next(d for d in ALL_DICE if len(targets_reached(start, d)) == steps))
        if game.awaiting_stop:
            game.apply(Stop(player, start + 1))
    return game


def box(number: int) -> tuple[int, int]:
    return divmod(number - 1, 4)


def test_boxes_follow_the_trip_up_and_back() -> None:
    assert [box_of(p) for p in (0, 1, 11, 12, 13, 22, 23)] == [None, 1, 11, 12, 11, 2, None]
    recogniser = CentennialRecogniser()
    assert [recogniser.square(n) for n in (1, 4, 5, 12)] == [(0, 0), (0, 3), (1, 0), (2, 3)]
    assert recogniser.box_at((2, 3)) == 12 and recogniser.box_at((3, 0)) is None
    assert CentennialRecogniser(columns=6).square(7) == (1, 0)


def test_centennial_auto_guides_each_marker_to_where_the_throw_took_it() -> None:
    game = Centennial.new(3)
    for die in (6, 1, 1):
        game.roll(die)
    table = Table(game, "track")
    game.roll(1, 2, 3)  # P1 from off the board to 6
    assert table.recogniser.review(game) == Outcome(None, ("put P1's marker on box 6",))
    assert table.sense(box(6), True) == QUIET
    game.roll(1, 1, 1)  # P2 to 3
    game.roll(1, 1, 1)  # P3 to 3 as well
    assert table.recogniser.review(game) == Outcome(
        None, ("put P2's marker on box 3", "put P3's marker on box 3"))
    assert table.sense(box(3), True) == QUIET  # one box, both markers: the sensor sees one
    game.roll(1, 1, 5)  # P1 from 6 to 7
    assert table.recogniser.review(game) == Outcome(
        None, ("move P1's marker from box 6 to box 7",))
    assert table.sense(box(5), True) == Outcome(
        None, ("move P1's marker from box 6 to box 7", "lift the marker from box 5"),
        "only P1's marker moves now")
    assert table.sense(box(5), False) == Outcome(None, ("move P1's marker from box 6 to box 7",))
    assert table.sense(box(7), True) == Outcome(None, ("move P1's marker from box 6 to box 7",))
    assert table.sense(box(6), False) == QUIET
    game.roll(1, 3, 6)  # P2 from 3 to 4; P3 stays on 3, so box 3 stays occupied
    assert table.recogniser.review(game) == Outcome(
        None, ("move P2's marker from box 3 to box 4",))
    assert table.sense(box(4), True) == QUIET
    assert table.sense(box(9), True) == Outcome(
        None, ("lift the marker from box 9",), "no marker moves before a throw: P3 throws next")


def test_centennial_declare_a_stop_and_a_claim_by_moving_markers() -> None:
    game = centennial_at((8, 13, 2))  # P1 on 8, P2 on 11 back (next 10), P3 on 2
    table = Table(game, "track")
    recogniser = table.recogniser
    assert recogniser.hint(game) is None  # no throw yet
    game.roll(1, 4, 5)  # P1 may go 9, 10
    assert recogniser.hint(game) == ("P1: put your marker straight down where it stops "
                                     "(counted along, it stops on the first box)")
    assert table.sense(box(8), False) == QUIET  # lifted: waiting for the put
    assert table.sense(box(9), True) == played("P1 stops at 9")
    assert game.claimable == (10,) and game.phase is Phase.MOVE
    assert recogniser.hint(game) is None  # a claim is no count along
    assert table.sense(box(11), False) == QUIET  # P2 may claim 10
    assert table.sense(box(10), True) == played("P2 claims 10")
    assert game.progress == (9, 14, 2) and game.dice_wanted == 3
    assert recogniser.review(game) == QUIET


def test_centennial_declare_refuses_a_box_off_the_chain_and_reads_a_put_back_as_nothing() -> None:
    game = centennial_at((8, 13, 2))
    table = Table(game, "track")
    game.roll(1, 4, 5)
    assert table.sense(box(8), False) == QUIET
    assert table.sense(box(8), True) == QUIET  # put back: a stop without moving takes the controls
    assert game.awaiting_stop
    assert table.sense(box(8), False) == QUIET
    assert table.sense(box(12), True) == Outcome(
        None, ("lift the marker from box 12",),
        "P1 cannot stop at 12: the throw 1-4-5 goes from 8 as far as 10", refused="P1 stops at 12")
    assert table.sense(box(12), False) == QUIET
    assert table.sense(box(2), False) == Outcome(
        None, ("put P3's marker on box 2",), "only P1's marker moves now, along the throw 1-4-5")
    assert table.sense(box(2), True) == QUIET
    assert table.sense(box(10), True) == played("P1 stops at 10")  # nothing overlooked
    assert game.progress == (10, 13, 2) and game.turn == 1


def test_centennial_declare_leaves_a_box_met_twice_to_the_controls() -> None:
    game = centennial_at((10, 0, 0))
    table = Table(game, "track")
    game.roll(6, 5, 1)  # 11, 12, 11 back: box 11 twice
    assert table.sense(box(10), False) == QUIET
    assert table.sense(box(11), True) == Outcome(
        None, (),
        "box 11 is both 11 and 11 back on this throw: enter where P1 stops with the controls")
    game.apply("P1 stops at 11 back")  # entered with the controls
    assert table.recogniser.review(game) == QUIET


def test_centennial_claims_two_players_could_make_alike_take_the_controls() -> None:
    game = centennial_at((8, 9, 9))  # P2 and P3 share box 9, both need 10
    table = Table(game, "track")
    game.roll(1, 4, 5)
    assert table.sense(box(8), False) == QUIET
    assert table.sense(box(9), True) == QUIET  # box 9 held P2 and P3 already: no event
    assert table.recogniser.review(game) == QUIET
    game.apply("P1 stops at 9")
    assert table.sense(box(10), True) == Outcome(
        None, (),
        "P2 and P3 can each claim 10: enter the claim with the controls")


def test_centennial_two_claimants_moving_at_once_are_each_told_only_their_own() -> None:
    game = centennial_at((1, 3, 4))  # P1 on 1, P2 on 3, P3 on 4
    table = Table(game, "track")
    game.roll(1, 1, 3)
    game.apply("P1 stops at 1")  # entered with the controls: 4 and 5 are overlooked
    assert table.recogniser.review(game) == QUIET
    assert table.sense(box(4), False) == QUIET  # P3 lifts, to claim 5
    assert table.sense(box(3), False) == QUIET  # P2 lifts at once, to claim 4
    assert table.sense(box(5), True) == played("P3 claims 5")  # P2 is not told to put back
    assert table.sense(box(4), True) == played("P2 claims 4")
    assert table.recogniser.review(game) == QUIET


def test_centennial_reset_after_a_resume_lists_the_differences() -> None:
    game = centennial_at((8, 13, 2))
    recogniser = recogniser_for(game, "track")
    assert recogniser is not None
    assert recogniser.expected(game) == {box(8), box(11), box(2)}
    assert recogniser.reset(game, {box(8), box(5), box(1)}) == Outcome(None, (
        "put P3's marker on box 2", "put P2's marker on box 11", "lift the marker from box 1",
        "lift the marker from box 5"))


class Track:
    """Markers as a table holds them (several to a box), sensed as occupancy only."""

    def __init__(self, recogniser: Recogniser, game: Centennial) -> None:
        self.recogniser, self.game = recogniser, game
        self.count = [0] * 13

    def add(self, number: int, step: int) -> Outcome | None:
        was = self.count[number] > 0
        self.count[number] += step
        assert self.count[number] >= 0
        if (self.count[number] > 0) == was:
            return None
        outcome = self.recogniser.changed(self.game, CellChanged(*box(number), not was))
        assert outcome.action is None and outcome.message is None  # following is no mistake
        return outcome

    def follow(self, fix: str) -> None:
        """Do what one fix says, as a player would."""
        if match := re.fullmatch(r"move .+ from box (\d+) to box (\d+)", fix):
            self.add(int(match[1]), -1)
            self.add(int(match[2]), +1)
        elif match := re.fullmatch(r"put (?:(.+)'s marker|the markers of (.+)) on box (\d+)", fix):
            owners = 1 if match[1] else len(match[2].split(" and "))
            self.add(int(match[3]), owners)
        elif match := re.fullmatch(r"(?:lift the marker from|take .+ off the track from) box "
                                   r"(\d+)", fix):
            self.add(int(match[1]), -self.count[int(match[1])] if fix[0] == "l" else -1)
        else:
            raise AssertionError(f"a fix no player could follow: {fix!r}")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(*[st.integers(1, 6)] * 3), min_size=1, max_size=80),
       st.integers(2, 8))
def test_following_the_fixes_after_every_auto_throw_brings_the_track_into_line(
        throws: list[tuple[int, int, int]], players: int) -> None:
    game = Centennial.new(players)
    while game.dice_wanted == 1:
        game.roll(6 if game.current_player == 0 else 1)
    recogniser = CentennialRecogniser()
    recogniser.reset(game, frozenset())
    track = Track(recogniser, game)
    for dice in throws:
        if game.is_over:
            break
        game.roll(*dice)
        for _ in range(3):  # a marker set down beside another is unseen until that one leaves
            for fix in recogniser.review(game).fixes:
                track.follow(fix)
        assert recogniser.review(game) == QUIET
        assert recogniser.board == recogniser.expected(game)


# -- end to end through the drivers ---------------------------------------------------------


def test_magnets_on_a_mock_board_become_sequence_moves() -> None:
    pins = load_pin_map("pi40").matrix
    factory = MockFactory()
    board = MockBoard(factory, pins.rows, pins.cols)
    events: list[Any] = []
    clock = ManualClock()
    matrix = ReedMatrix(pins.rows, pins.cols, factory, events.append, ticks=clock)

    def settle() -> list[CellChanged]:
        for _ in range(14):
            clock.advance(0.01)
            matrix.scan()
        found = [e for e in events if isinstance(e, CellChanged)]
        events.clear()
        return found

    matrix.scan()
    table = sequence_table()
    game = table.game
    assert table.recogniser.reset(game, matrix.occupied()) == QUIET

    def play(*cells: tuple[str, bool]) -> list[Outcome]:
        for name, occupied in cells:
            (board.place if occupied else board.lift)(*at(name))
        return [table.sense((event.row, event.col), event.occupied) for event in settle()]

    game.roll(3, 4)
    assert play(("B2", True)) == [played("place B2")]
    game.roll(4, 4)
    [outcome] = play(("D4", True))  # D4 is a 12
    assert outcome.action is None and outcome.message is not None
    assert outcome.message.startswith("D4 is a 12, the roll is 8")
    assert play(("D4", False), ("B4", True)) == [  # a lift settles sooner than a piece put
        QUIET, played("place B4")]
    game.roll(5, 5)
    assert play(("B4", False)) == [played("remove B4")]
    assert [str(a) for a in game.history[-6:]] == [
        "roll 3-4", "place B2", "roll 4-4", "place B4", "roll 5-5", "remove B4"]
    assert matrix.occupied() == table.recogniser.expected(game) == {at("B2")}
    matrix.close()


def test_centennial_in_auto_mode_needs_no_hint() -> None:
    game = Centennial.new(3, mode="auto")
    recogniser = recogniser_for(game, "track")
    assert recogniser is not None
    for die in (6, 1, 1):  # the opening: P1 starts
        game.roll(die)
    game.roll(1, 4, 5)
    assert recogniser.hint(game) is None
