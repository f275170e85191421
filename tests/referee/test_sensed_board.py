"""A Sequence Dice game on its sensed board: a replacement the sensors cannot tell from a
change of mind, offered for SELECT; failing reed switches named on the screen and in the
log with what to check, ignored once the players say so (or at once when chattering),
their phantom moves taken back, play going on with the list."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from firmware_host.config import Config, GameConfig
from firmware_host.journal import Journal
from firmware_host.referee import Referee
from firmware_host.referee.timers import UNMADE_FIX_S
from firmware_host.screens import render as render_screen
from firmware_host.screens.banner import BODY_TOP, draw_banner
from firmware_host.screens.canvas import Canvas
from firmware_host.sensing import recogniser_for
from firmware_host.views import BoardFixView, GameView, View
from games import new_game
from hardware.display.protocol import new_frame
from hardware.events import CellChanged, CellFault, Control, ControlPressed, DiceRolled, Event

CONFIG = Config(game=GameConfig("sequence"))
DEAD = ("the sensor at C2 seems dead (nothing sensed there): check its magnet and switch, "
        "or SELECT: play on, it will be ignored")
STUCK = ("the sensor at A1 seems stuck closed (a piece sensed there): check its magnet and "
         "switch, or SELECT: play on, it will be ignored")


class Board:
    """A referee of Sequence Dice whose board sensors report what the test sends."""

    def __init__(self, journal: Journal) -> None:
        self.sensed: set[tuple[int, int]] = set()
        self.by_itself: dict[tuple[int, int], int] = {}  # what the matrix would count
        self.referee = Referee(CONFIG, journal, game=journal.resume(), render=self._render,
                               recognise=lambda game: recogniser_for(game, "grid"),
                               board=lambda: frozenset(self.sensed),
                               restless=lambda: dict(self.by_itself))

    def _render(self, view: View) -> Image.Image:
        return new_frame()

    def send(self, *events: Event) -> View:
        for event in events:
            if isinstance(event, CellChanged):
                (self.sensed.add if event.occupied else self.sensed.discard)(
                    (event.row, event.col))
            self.referee.handle(event)
        self.referee.frame()
        return self.referee.view()

    def history(self) -> list[str]:
        game = self.referee.game
        assert game is not None
        return [str(action) for action in game.history]


@pytest.fixture
def opened(tmp_path: Path) -> Iterator[Board]:
    """A game for two, the opening thrown: Ann starts."""
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        journal.start(new_game("sequence", 2))
        found = Board(journal)
        found.send(DiceRolled((6, 6), "button"), DiceRolled((1, 1), "button"))
        yield found


@pytest.fixture
def board(opened: Board) -> Board:
    """Ann has thrown an 8: C2 is one."""
    opened.send(DiceRolled((4, 4), "button"))
    assert opened.referee.table is not None
    opened.referee.table.message = None
    return opened


def test_a_sensor_dead_under_its_chip_is_named_and_play_goes_on_without_it(
        board: Board, caplog: pytest.LogCaptureFixture) -> None:
    assert isinstance(board.send(CellChanged(1, 2, True)), GameView)  # Ann places C2
    assert board.history()[-1] == "place C2"
    view = board.send(CellChanged(1, 2, False))  # the switch fails open under the chip
    assert isinstance(view, BoardFixView) and view.fixes[0] == "put a green chip on C2"
    referee = board.referee
    referee.tick(100.0)
    assert referee.watch.unmade.due == 100.0 + UNMADE_FIX_S
    with caplog.at_level(logging.WARNING):
        referee.tick(100.0 + UNMADE_FIX_S)
    assert UNMADE_FIX_S <= 10
    view = board.send()
    assert isinstance(view, BoardFixView) and view.fixes == ("put a green chip on C2", DEAD)
    assert DEAD in caplog.text
    assert view.message == "P2 must roll 2 dice before moving"  # the lift's refusal
    board.send(ControlPressed(Control.SELECT))  # read
    view = board.send(ControlPressed(Control.SELECT))  # play on
    assert isinstance(view, GameView)
    assert view.message == "ignored: C2; make their moves from the list"
    assert board.history()[-1] == "place C2"  # nothing played or taken back
    assert "board sensor C2 ignored" in caplog.text
    board.send(ControlPressed(Control.SELECT))  # the message read
    view = board.send(DiceRolled((2, 4), "button"), CellChanged(0, 4, True))  # Ben: E1, a 6
    assert isinstance(view, GameView) and board.history()[-1] == "place E1"
    assert board.referee.watch.ignored == {(1, 2)}
    board.send(CellChanged(1, 2, True))  # it works again: heard again
    assert board.referee.watch.ignored == set()


def test_a_sensor_stuck_closed_is_named_and_ignored_once_the_players_say_so(
        board: Board) -> None:
    board.send(CellChanged(1, 2, True))  # Ann places C2; Ben is to roll
    view = board.send(CellChanged(0, 0, True))  # A1 closes with nothing on it
    assert isinstance(view, BoardFixView) and view.fixes == ("lift the chip from A1",)
    board.referee.tick(50.0)
    board.referee.tick(50.0 + UNMADE_FIX_S)
    view = board.send()
    assert isinstance(view, BoardFixView) and view.fixes == ("lift the chip from A1", STUCK)
    board.send(ControlPressed(Control.SELECT))  # the refusal read
    view = board.send(ControlPressed(Control.SELECT))
    assert isinstance(view, GameView) and board.history()[-1] == "place C2"
    board.send(ControlPressed(Control.SELECT), DiceRolled((1, 1), "button"))  # Ben: a 2
    view = board.send()
    assert isinstance(view, GameView) and "place A1" in view.choices  # from the list


def test_a_chattering_sensor_has_its_phantom_taken_back_and_is_ignored(
        board: Board, tmp_path: Path) -> None:
    board.send(CellChanged(1, 2, True), CellChanged(1, 2, False), CellChanged(1, 2, True))
    assert board.history()[-1] == "place C2"  # a phantom, for all the referee can tell
    reason = "chattering: 8 changes within 8 s; ignored until quiet for 2 s; check it"
    view = board.send(CellFault(1, 2, reason, chattering=True))
    assert isinstance(view, GameView)
    assert view.message == (f"board sensor C2: {reason}; took back place C2; if the chip "
                            "there is yours, SELECT plays place C2 again")
    assert view.choices[view.cursor] == "place C2"  # the fix that restores it
    assert board.history()[-1] == "roll 4-4"
    assert board.referee.watch.ignored == {(1, 2)}
    board.send(CellChanged(1, 2, True))  # the matrix is not quiet yet: still closed
    assert board.history()[-1] == "roll 4-4" and board.referee.watch.ignored == {(1, 2)}
    view = board.send(CellChanged(1, 2, False))  # quiet at last, and as the game has it
    assert isinstance(view, GameView) and board.referee.watch.ignored == set()
    assert board.history()[-1] == "roll 4-4"
    with Journal.open(tmp_path / "j.sqlite3") as again:
        resumed = again.resume()
        assert resumed is not None and str(resumed.history[-1]) == "roll 4-4"


def test_a_real_move_before_a_fault_elsewhere_is_not_taken_back(board: Board) -> None:
    board.send(CellChanged(1, 2, True))
    board.send(CellFault(0, 0, "chattering: 8 changes within 8 s", chattering=True))
    assert board.history()[-1] == "place C2"


@settings(max_examples=30)
@given(st.lists(st.floats(0.1, 12.0), min_size=1, max_size=6), st.floats(0.0, 20.0))
def test_a_fix_left_unmade_blames_its_sensor_only_once_the_board_has_been_still_8_s(
        tmp_path_factory: pytest.TempPathFactory, gaps: list[float], wait: float) -> None:
    """The players work the board at random moments (a chip on a free cell and off again)
    while a chip the game has stays unseen: the sensor is named exactly 8 s after the last
    change, never sooner, however the changes fall."""
    folder = tmp_path_factory.mktemp("unmade")
    with Journal.open(folder / "j.sqlite3") as journal:
        journal.start(new_game("sequence", 2))
        board = Board(journal)
        board.send(DiceRolled((6, 6), "button"), DiceRolled((1, 1), "button"),
                   DiceRolled((4, 4), "button"), CellChanged(1, 2, True),
                   CellChanged(1, 2, False))
        referee, now = board.referee, 0.0
        referee.tick(now)
        for gap in gaps:
            referee.tick(now + gap / 2)
            assert referee.table is not None and referee.table.suspects == ()
            now += gap
            board.send(CellChanged(5, 5, True), CellChanged(5, 5, False))
            referee.tick(now)
        referee.tick(now + wait)
        assert referee.table is not None
        assert (DEAD in referee.table.suspects) == (wait >= UNMADE_FIX_S)


def fill_the_threes(board: Board) -> None:
    """Ann on B1 and A5, Ben on F2 and E6: every 3 covered, Ann to roll."""
    for cell in ((0, 1), (1, 5), (4, 0), (5, 4)):
        board.send(DiceRolled((1, 2), "button"), CellChanged(*cell, True))
    assert board.history()[-1] == "place E6"


def test_a_replacement_is_offered_for_select_and_a_change_of_mind_is_no_move(
        opened: Board) -> None:
    fill_the_threes(opened)
    view = opened.send(DiceRolled((2, 1), "button"))  # a 3: Ann must replace F2 or E6
    assert isinstance(view, GameView) and view.choices == ("replace F2", "replace E6")
    assert view.message == "to replace: lift their chip, put yours on, SELECT"
    opened.send(CellChanged(1, 5, False))  # F2 lifted ...
    view = opened.send(CellChanged(1, 5, True))  # ... and put back: no move yet
    assert isinstance(view, GameView) and opened.history()[-1] == "roll 2-1"
    assert view.message == ("F2: if your chip is on it now, SELECT replaces; if theirs went "
                            "back, lift the chip to replace")
    assert view.choices[view.cursor] == "replace F2"
    opened.send(CellChanged(5, 4, False), CellChanged(5, 4, True))  # she takes E6 instead
    view = opened.send()
    assert isinstance(view, GameView) and view.choices[view.cursor] == "replace E6"
    opened.send(ControlPressed(Control.SELECT))
    assert opened.history()[-2:] == ["roll 2-1", "replace E6"]


def test_a_chip_stacked_on_theirs_then_theirs_pulled_out_is_played_from_the_list(
        opened: Board) -> None:
    """Nothing changes under the stack: the hint after the throw says what to do, and
    SELECT on the replacement plays it."""
    fill_the_threes(opened)
    view = opened.send(DiceRolled((2, 1), "button"))
    assert isinstance(view, GameView) and view.message is not None and "SELECT" in view.message
    opened.send(ControlPressed(Control.DOWN), ControlPressed(Control.SELECT))
    assert opened.history()[-1] == "replace E6"
    assert isinstance(opened.send(), GameView)  # the board agrees: a chip on E6


def test_a_switch_stuck_closed_on_a_cell_the_throw_allows_gives_way_to_the_players_move(
        board: Board, tmp_path: Path) -> None:
    """D5 fails closed just after Ann threw an 8 (D5 is one): for all the sensors tell, a
    move. Her own chip on C2 comes second; the screen offers it instead, SELECT takes the
    phantom back and plays hers, and the stuck sensor is then named as any other."""
    board.send(CellChanged(4, 3, True))
    assert board.history()[-1] == "place D5"
    view = board.send(CellChanged(1, 2, True))
    assert isinstance(view, BoardFixView) and view.fixes == ("lift the chip from C2",)
    assert view.message == "place D5 came first; if yours is place C2, SELECT plays it instead"
    view = board.send(ControlPressed(Control.SELECT))
    assert board.history()[-2:] == ["roll 4-4", "place C2"]
    assert isinstance(view, BoardFixView) and view.fixes == ("lift the chip from D5",)
    assert view.message == "took back place D5; played place C2"
    board.referee.tick(10.0)
    board.referee.tick(10.0 + UNMADE_FIX_S)
    view = board.send()
    assert isinstance(view, BoardFixView) and "the sensor at D5 seems stuck closed" in view.fixes[1]
    with Journal.open(tmp_path / "j.sqlite3") as again:
        resumed = again.resume()
        assert resumed is not None and [str(a) for a in resumed.history[-2:]] == [
            "roll 4-4", "place C2"]


def test_a_move_sensed_second_is_offered_only_while_the_board_made_the_last_move(
        board: Board) -> None:
    """A chip the rules refuse for another reason, or after a move made from the list, is
    a refusal as before; the offer goes with the next press that is not SELECT."""
    board.send(CellChanged(4, 3, True))  # D5 (an 8) as Ann's move
    view = board.send(CellChanged(0, 0, True))  # A1 is a 2: not an 8 either way
    assert isinstance(view, BoardFixView) and view.message == "P2 must roll 2 dice before moving"
    board.send(CellChanged(0, 0, False))
    view = board.send(CellChanged(2, 4, True))  # E3 (an 8): offered, over A1's refusal
    assert board.referee.watch.by_board.instead is not None
    assert view.message == "place D5 came first; if yours is place E3, SELECT plays it instead"
    board.send(ControlPressed(Control.DOWN))
    assert board.referee.watch.by_board.instead is None
    board.send(ControlPressed(Control.SELECT))
    assert board.history()[-1] == "place D5"


def test_a_chattering_sensors_phantom_gives_way_to_the_move_refused_behind_it(
        board: Board) -> None:
    """C2 chatters: its close made Ann's move, her own chip on E3 was refused behind it;
    once the chatter is found the phantom is taken back and her move played, with no
    SELECT needed."""
    board.send(CellChanged(1, 2, True), CellChanged(2, 4, True))
    assert board.referee.watch.by_board.instead is not None and board.history()[-1] == "place C2"
    reason = "chattering: 8 changes within 8 s; ignored until quiet for 2 s; check it"
    view = board.send(CellFault(1, 2, reason, chattering=True))
    assert board.history()[-2:] == ["roll 4-4", "place E3"]
    assert view.message == f"board sensor C2: {reason}; took back place C2; played place E3"


def restless(row: int, col: int, occupied: bool, alone: int) -> CellChanged:
    return CellChanged(row, col, occupied, alone)


def test_a_chip_straightened_or_tapped_after_its_move_is_a_hand_not_a_failing_sensor(
        board: Board) -> None:
    """Ann places C2 (an 8), then lifts it and puts it back twice within 8 s: a lift of a
    chip the game has and a chip put back where it has one are what hands do, however
    often the cell changed by itself. Nothing is named, nothing taken back."""
    board.send(restless(1, 2, True, 1))
    for alone in (2, 4, 6):
        board.send(restless(1, 2, False, alone), restless(1, 2, True, alone + 1))
    assert board.history()[-1] == "place C2" and board.referee.watch.ignored == set()
    assert board.referee.watch.blame.asking is None


def test_hesitating_between_two_cells_the_throw_allows_is_a_hand(board: Board) -> None:
    """C2, then E3 (both 8s: offered instead), back to C2 and straightened: the move
    stays, no sensor is blamed."""
    board.send(restless(1, 2, True, 1), restless(1, 2, False, 2))
    view = board.send(restless(2, 4, True, 1))
    assert view.message == "place C2 came first; if yours is place E3, SELECT plays it instead"
    board.send(restless(2, 4, False, 2), restless(1, 2, True, 3), restless(1, 2, False, 4),
               restless(1, 2, True, 5))
    assert board.history()[-1] == "place C2" and board.referee.watch.ignored == set()
    assert board.referee.watch.blame.asking is None


def test_a_chip_put_twice_on_the_same_wrong_cell_asks_and_a_hand_keeps_it_heard(
        board: Board) -> None:
    """Ann puts her chip on A1 (a 2, not her 8), lifts it, puts it there again: the
    players are asked; "yes, a hand" keeps A1 heard, so a legal chip there later is a
    move."""
    board.send(restless(0, 0, True, 1), restless(0, 0, False, 2))
    assert board.referee.watch.blame.asking is None
    view = board.send(restless(0, 0, True, 3))
    assert view.message == "A1 keeps changing: is a hand on it? SELECT: yes, BACK: no"
    board.send(ControlPressed(Control.SELECT))
    assert board.referee.watch.ignored == set() and board.referee.watch.blame.asking is None
    board.send(restless(0, 0, False, 4), restless(1, 2, True, 1))  # her chip on C2
    board.send(DiceRolled((1, 1), "button"), restless(0, 0, True, 5))  # Ben throws a 2
    assert board.history()[-1] == "place A1" and board.referee.watch.ignored == set()


def test_a_free_cell_closing_to_chips_the_rules_refuse_is_named_when_no_hand_is_on_it(
        board: Board) -> None:
    """A1 (a 2) closes by itself twice: the players say no hand is on it (BACK), and it is
    named; closing a third time it is named without asking. A change at it then is told,
    never silently dropped."""
    board.send(restless(0, 0, True, 1), restless(0, 0, False, 2), restless(0, 0, True, 3))
    view = board.send(ControlPressed(Control.BACK))
    assert isinstance(view, BoardFixView) or view.message is not None
    assert board.referee.watch.ignored == {(0, 0)}
    assert "board sensor A1: changes by itself, no hand on it" in str(view.message)
    board.send(ControlPressed(Control.SELECT))  # read
    view = board.send(restless(0, 0, False, 4))
    assert view.message == ("A1 is ignored (its sensor seemed to fail): its moves are made "
                            "from the list")
    board.send(ControlPressed(Control.SELECT))  # read
    for alone in (1, 2, 3):  # B1 (a 3): three chips refused, the last named at once
        board.send(restless(0, 1, True, 2 * alone - 1), restless(0, 1, False, 2 * alone))
    assert board.referee.watch.ignored == {(0, 0), (0, 1)}


def test_a_legal_chip_on_an_ignored_cell_is_offered_for_select(board: Board) -> None:
    """C2's sensor is ignored; Ann puts her chip there for her 8: the screen says so and
    highlights place C2, which SELECT plays."""
    board.referee.watch.ignored.add((1, 2))
    view = board.send(CellChanged(1, 2, True))
    assert isinstance(view, GameView) and view.choices[view.cursor] == "place C2"
    assert view.message is not None and view.message.startswith("C2 is ignored")
    board.send(ControlPressed(Control.SELECT))
    assert board.history()[-1] == "place C2"


def test_hands_that_swap_or_move_a_chip_over_and_over_are_not_taken_for_a_failing_cell(
        opened: Board) -> None:
    """A chip lifted and put back four times (each put offers the replacement), and a
    chip put on a cell before the throw, then placed there when the throw allows it: a move
    or an offer among a cell's last two changes clears it, however often it changed."""
    fill_the_threes(opened)
    opened.send(DiceRolled((2, 1), "button"))  # a 3: Ann must replace F2 or E6
    for alone in range(1, 9, 2):
        opened.send(restless(1, 5, False, alone), restless(1, 5, True, alone + 1))
    assert opened.referee.watch.ignored == set()
    opened.send(ControlPressed(Control.SELECT))
    assert opened.history()[-1] == "replace F2"
    opened.send(restless(1, 2, True, 1), restless(1, 2, False, 2))  # C2 before a throw
    opened.send(DiceRolled((4, 4), "button"), restless(1, 2, True, 3))  # Ben: an 8
    assert opened.history()[-1] == "place C2" and opened.referee.watch.ignored == set()


def test_a_sensor_whose_last_flips_were_too_brief_to_report_is_named_at_the_next_look(
        board: Board) -> None:
    """C2's close made Ann's move and its lift was refused; two more flips were too brief
    to settle, so no change tells of them, but the matrix counts four changes by itself,
    some unreported: C2 is named at the referee's next look, its phantom taken back."""
    board.send(restless(1, 2, True, 1), restless(1, 2, False, 2))
    assert board.history()[-1] == "place C2"
    board.by_itself[1, 2] = 4
    board.referee.tick(30.0)
    assert board.history()[-1] == "roll 4-4" and board.referee.watch.ignored == {(1, 2)}
    view = board.send()
    assert isinstance(view, GameView) and "took back place C2" in str(view.message)


def test_unreported_changes_by_itself_name_no_sensor_whose_changes_went_as_the_game_says(
        board: Board) -> None:
    """A cell some of whose changes by itself went unreported names its sensor only when
    one of its changes strayed since its last move; while the matrix counts any, the
    referee looks twice a second."""
    board.send(restless(1, 2, True, 3))  # Ann's move
    board.by_itself[1, 2] = 4
    assert board.referee.tick(30.0) == 30.5
    assert board.referee.watch.ignored == set() and board.history()[-1] == "place C2"
    board.by_itself.clear()
    assert board.referee.tick(31.0) != 31.5


def test_a_replacement_offer_stays_readable_until_taken_or_withdrawn(opened: Board) -> None:
    """An older refusal gives way to the offer; a refusal after it is cleared by the first
    press alone, and the offer's words show again until SELECT takes it."""
    fill_the_threes(opened)
    opened.send(DiceRolled((2, 1), "button"))  # a 3: Ann must replace F2 or E6
    view = opened.send(CellChanged(0, 0, True))  # A1: refused
    assert view.message is not None and "lift the chip" not in view.message
    opened.send(CellChanged(0, 0, False), CellChanged(1, 5, False))
    offer = ("F2: if your chip is on it now, SELECT replaces; if theirs went back, lift the "
             "chip to replace")
    assert opened.send(CellChanged(1, 5, True)).message == offer
    refused = opened.send(CellChanged(0, 0, True), CellChanged(0, 0, False)).message
    assert refused not in (None, offer)
    assert opened.send(ControlPressed(Control.DOWN)).message == offer
    opened.send(ControlPressed(Control.SELECT))
    assert opened.history()[-1] == "replace F2"


def test_players_who_play_on_do_not_hold_off_naming_a_sensor_left_unfixed(
        board: Board) -> None:
    """C2's sensor fails open under Ann's chip; Ben throws and places his chip on E1 4 s
    later, as if nothing were wrong: his move does not start the wait again, so C2 is named
    8 s after it disagreed."""
    board.send(CellChanged(1, 2, True), CellChanged(1, 2, False))
    referee = board.referee
    referee.tick(100.0)
    board.send(ControlPressed(Control.SELECT), DiceRolled((3, 3), "button"))  # a 6
    board.send(CellChanged(0, 4, True))
    assert board.history()[-1] == "place E1"
    referee.tick(104.0)
    referee.tick(100.0 + UNMADE_FIX_S)
    assert referee.table is not None and DEAD in referee.table.suspects


def test_a_chip_touched_during_a_10_and_back_on_its_cell_is_no_removal(
        opened: Board, tmp_path: Path) -> None:
    """Ann throws a 10 and brushes Ben's chip on F2 off its switch for a moment: the lift
    removed it, the chip back on F2 takes the removal back, and the screen says how to make
    it; lifted again, it is the removal."""
    fill_the_threes(opened)
    opened.send(DiceRolled((4, 6), "button"))
    opened.send(CellChanged(1, 5, False))
    assert opened.history()[-1] == "remove F2"
    view = opened.send(CellChanged(1, 5, True))
    assert opened.history()[-1] == "roll 4-6" and isinstance(view, GameView)
    assert view.message == "F2 is back: took back remove F2 (lift the chip again to make it)"
    opened.send(ControlPressed(Control.SELECT), CellChanged(1, 5, False))
    assert opened.history()[-1] == "remove F2"
    with Journal.open(tmp_path / "j.sqlite3") as again:
        resumed = again.resume()
        assert resumed is not None and str(resumed.history[-1]) == "remove F2"


class Roller:
    """A dice button as the referee sees it: its dice tumble for eight frames."""

    count = 2

    def tumble(self, final: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        return ((1, 1),) * 7 + (final,)


def test_a_switch_closing_as_the_dice_tumble_is_no_move_and_is_named_when_left(
        tmp_path: Path) -> None:
    """D5 sticks closed just as Ann throws an 8 with the button (D5 is one): no player
    knows the throw while the dice still tumble on the screen, so it is offered, not
    played; Ann's own chip on C2 is her move, and D5, left closed, is named."""
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        journal.start(new_game("sequence", 2))
        board = Board(journal)
        referee = board.referee
        referee.parts.roller = Roller()
        board.send(DiceRolled((6, 6), "manual"), DiceRolled((1, 1), "manual"))
        board.send(DiceRolled((4, 4), "button"))
        referee.tick(10.0)  # the first face
        view = board.send(CellChanged(4, 3, True))
        assert board.history()[-1] == "roll 4-4"
        assert isinstance(view, BoardFixView) and view.fixes == ("lift the chip from D5",)
        for frame in range(1, 20):
            referee.tick(10.0 + frame * 0.05)
        assert not referee.timers.tumble.busy
        view = board.send()
        assert view.message == ("D5 changed before the dice landed: if that was your hand, "
                                "SELECT plays place D5")
        board.send(CellChanged(1, 2, True))
        assert board.history()[-1] == "place C2"
        referee.tick(11.0)
        referee.tick(11.0 + UNMADE_FIX_S)
        assert referee.table is not None
        assert any("D5 seems stuck closed" in line for line in referee.table.suspects)


def test_a_throw_under_the_fixes_shows_its_dice_in_the_band(tmp_path: Path) -> None:
    """Centennial on the track, the companion moving the markers: while the screen listed
    where to put the roller's marker, ROLL threw on and journaled throws whose dice no frame
    showed (the fix list covers the game's screen). Each throw's dice now stand in the
    band above the fixes, as the players may play on while a fix waits."""
    from games.centennial import Centennial

    occupied: set[tuple[int, int]] = set()
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        game = Centennial.new(2, ["Ann", "Ben"])
        journal.start(game)
        referee = Referee(Config(game=GameConfig("centennial")), journal, game=journal.resume(),
                          render=lambda view: new_frame(),
                          recognise=lambda game: recogniser_for(game, "track"),
                          board=lambda: frozenset(occupied))
        for dice in ((6,), (1,), (1, 2, 3)):  # Ann starts, then takes her marker to 6
            referee.handle(DiceRolled(dice, "button"))
        referee.frame()
        view = referee.view()
        assert isinstance(view, BoardFixView) and view.fixes[0] == "put Ann's marker on box 6"
        assert view.dice == (1, 2, 3)
        referee.handle(DiceRolled((1, 1, 2), "button"))  # Ben throws before the marker is down
        referee.frame()
        view = referee.view()
        assert isinstance(view, BoardFixView) and view.dice == (1, 1, 2)
        assert [str(a) for a in journal.resume().history][-1] == "roll 1-1-2"
        band = Canvas()  # the frame's band: the game's title and those dice
        draw_banner(band, "Centennial", (), (1, 1, 2))
        box = (0, 0, 128, BODY_TOP)
        assert render_screen(view).crop(box).tobytes() == band.to_image().crop(box).tobytes()
        render_screen(view).resize((512, 256)).save(tmp_path / "fix.png")
