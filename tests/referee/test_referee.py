"""The referee: controls, dice and menus in, journaled actions and views out.

Each test drives a :class:`Referee` with the events the drivers would emit and checks the
journal (what survives a power cut) and the view (what the screen is asked to show). The
renderer is replaced by one that records the views, so these tests do not depend on pixels.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image
from zbar_helpers import decoded

import games.dalmatian_advice
from firmware_host.config import Config, GameConfig, NightConfig
from firmware_host.journal import Journal
from firmware_host.menu import DiceEntry
from firmware_host.night.topics import short_path
from firmware_host.referee import Referee
from firmware_host.referee.game_menu import moves_notice
from firmware_host.referee.settings import Settings
from firmware_host.referee.timers import PAGE_S, UNMADE_FIX_S
from firmware_host.screens import render as render_screen
from firmware_host.sensing import recogniser_for
from firmware_host.views import BoardFixView, DiceEntryView, GameView, MenuView, NoticeView, View
from games import new_game
from games.core import Phase
from games.dalmatian import Dalmatian
from games.dalmatian_advice import prepared
from hardware.display.protocol import new_frame
from hardware.events import (
    CellChanged,
    CellFault,
    Control,
    ControlHeld,
    ControlPressed,
    ControlTurned,
    DeviceStatus,
    DiceRolled,
    Event,
)
from hardware.sound.buzzer import CHIRP, REFUSAL, TUNE


@dataclass
class Roller:
    count: int = 0

    def tumble(self, final: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """Two faces of 6, then the throw."""
        return ((6,) * len(final), (6,) * len(final), final)


class Table:
    """A referee on a fresh journal, with shorthands for what the players do."""

    def __init__(self, journal: Journal, config: Config) -> None:
        self.journal = journal
        self.config = config
        self.roller = Roller()
        self.shutdowns = 0
        self.views: list[View] = []
        self.referee = Referee(config, journal, game=journal.resume(), roller=self.roller,
                               shutdown=self._shutdown, render=self._render)

    def _shutdown(self) -> None:
        self.shutdowns += 1

    def _render(self, view: View) -> Image.Image:
        self.views.append(view)
        return new_frame()

    def send(self, *events: Event) -> View:
        for event in events:
            self.referee.handle(event)
        self.referee.frame()
        return self.referee.view()

    def press(self, *controls: Control) -> View:
        return self.send(*(ControlPressed(c) for c in controls))

    def roll(self, *dice: int) -> View:
        return self.send(DiceRolled(tuple(dice), "button"))

    def menu(self) -> MenuView:
        view = self.send()
        assert isinstance(view, MenuView), view
        return view

    def choose(self, label: str) -> View:
        """Move the cursor to the menu entry starting with ``label`` and select it."""
        view = self.menu()
        matches = [i for i, item in enumerate(view.items) if item.startswith(label)]
        assert matches, f"no {label!r} in {view.items}"
        self.send(ControlTurned(matches[0] - view.cursor))
        return self.press(Control.SELECT)

    @property
    def game(self) -> Dalmatian:
        game = self.referee.game
        assert isinstance(game, Dalmatian)
        return game


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    config = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian", {"rounds": 1}))
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        yield Table(journal, config)


def start_dalmatian(table: Table) -> None:
    """From the start menu, through the players and options menus, to a game."""
    assert table.menu().title == "New game"
    table.choose("Dalmatian")
    table.choose("2 players")
    table.choose("Start")


def test_the_start_menu_offers_every_game_and_back_opens_the_menu(table: Table) -> None:
    view = table.menu()
    assert [item.split(" (")[0] for item in view.items] == [
        "Centennial", "Sequence Dice", "Center Point", "Dalmatian", "Multi-Gam"]
    assert view.items[view.cursor].startswith("Dalmatian")  # the configured game
    menu = table.press(Control.BACK)
    assert isinstance(menu, MenuView) and menu.title == "Menu"
    assert menu.items[3:5] == ("Standings", "Settings") and menu.items[-1] == "Shut down"
    assert table.press(Control.BACK) == view  # the menu closes; the game choice does not
    table.press(Control.BACK)
    assert table.menu().title == "Menu"


def test_a_game_starts_from_the_menus_with_the_configured_names_and_variants(
        table: Table) -> None:
    start_dalmatian(table)
    assert table.game.setup.names == ("Ann", "Ben")
    assert table.game.rounds == 1
    assert table.journal.resume() is not None
    assert isinstance(table.send(), GameView)
    assert table.roller.count == 5  # the opening throw of five dice


def test_options_cycle_with_select_before_the_start(table: Table) -> None:
    table.choose("Dalmatian")
    table.choose("2 players")
    menu = table.menu()
    index = menu.items.index("Best score only")
    assert menu.values[index] == "no"
    table.choose("Best score only")
    assert table.menu().values[index] == "yes"
    table.choose("Start")
    assert table.game.setup.options["round_winner_only"] is True


def test_dice_of_the_wrong_count_are_refused_with_the_reason(table: Table) -> None:
    start_dalmatian(table)
    view = table.roll(1, 2)
    assert isinstance(view, GameView)
    assert view.message == "5 dice are due, got 2"
    assert table.game.history == []


def play_opening_and_total(table: Table) -> None:
    table.roll(6, 6, 6, 6, 6)  # Ann opens
    table.roll(1, 1, 1, 1, 1)  # Ben: Ann starts the round
    table.roll(3, 3)  # the starting total 6; Ben plays first
    assert table.game.total == 6


def test_a_whole_dalmatian_game_is_played_and_scored_from_the_table(table: Table) -> None:
    start_dalmatian(table)
    play_opening_and_total(table)
    table.roll(1, 2, 3, 4, 5)  # Ben: 1+5, 2+4 score 4
    view = table.send()
    assert isinstance(view, GameView) and view.choices[0] == "stop"
    table.press(Control.SELECT, Control.SELECT)  # asked again, then stop
    table.roll(6, 6, 6, 6, 6)  # Ann: five sixes score 5 and end the turn by themselves
    assert table.game.is_over
    assert table.game.scores() == (5, 4)
    assert table.journal.finished_games()[0].players[0].place == 1


def test_hold_buttons_keep_dice_and_the_roll_button_throws_the_others(table: Table) -> None:
    start_dalmatian(table)
    play_opening_and_total(table)
    table.roll(1, 1, 2, 5, 6)
    table.press(Control.HOLD4, Control.HOLD3)  # keep the 5 and the 2... then change mind
    table.press(Control.HOLD3)
    view = table.send()
    assert isinstance(view, GameView) and view.held == frozenset({3})
    assert table.roller.count == 4
    table.roll(4, 4, 2, 1)
    assert [str(a) for a in table.game.history[-2:]] == ["reroll 1-1-2-6", "roll 4-4-2-1"]
    assert table.game.dice == (1, 2, 4, 4, 5)
    assert table.roller.count == 5  # holds are cleared after a reroll


def test_a_throw_whose_write_fails_leaves_the_roller_and_the_holds_as_they_were(
        table: Table) -> None:
    """The journal takes a failed write back: the button still throws the dice not held,
    the holds stay, and the same throw goes through once the journal writes again."""
    start_dalmatian(table)
    play_opening_and_total(table)
    table.roll(1, 1, 2, 5, 6)
    table.press(Control.HOLD1, Control.HOLD2, Control.HOLD3)
    assert table.roller.count == 2
    table.journal._db.set_authorizer(  # the reroll and its throw are one transaction
        lambda action, arg1, *rest: sqlite3.SQLITE_DENY if arg1 == "COMMIT"
        else sqlite3.SQLITE_OK)
    view = table.roll(4, 4)
    assert isinstance(view, GameView) and view.message is not None
    assert "journal error" in view.message
    assert view.held == frozenset({0, 1, 2}) and view.layout == (1, 1, 2, 5, 6)
    assert table.roller.count == 2  # not the count the refused throw would have left
    table.journal._db.set_authorizer(None)
    table.roll(3, 3)
    assert [str(a) for a in table.game.history[-2:]] == ["reroll 5-6", "roll 3-3"]
    assert table.game.dice == (1, 1, 2, 3, 3)


def test_hold_buttons_outside_dalmatian_say_what_they_are_for(tmp_path: Path) -> None:
    config = Config(game=GameConfig("sequence"))
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        journal.start(new_game("sequence", 2))
        table = Table(journal, config)
        view = table.press(Control.HOLD1)
        assert isinstance(view, GameView)
        assert view.message == "the hold buttons keep Dalmatian dice between rerolls"


def test_an_illegal_move_leaves_game_and_journal_unchanged(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        game = new_game("sequence", 2)
        journal.start(game)
        table = Table(journal, Config(game=GameConfig("sequence")))
        table.roll(6, 5)
        table.roll(1, 1)  # P1 starts; then rolls a 2
        table.roll(1, 1)
        assert table.referee.game is not None
        before = list(table.referee.game.history)
        table.send(DiceRolled((3, 3), "serial"))  # no dice are due: a choice is
        view = table.send()
        assert isinstance(view, GameView)
        assert view.message is not None and "no dice are due" in view.message
        assert table.referee.game.history == before
        assert len(journal.resume().history) == len(before)  # type: ignore[union-attr]
        view = table.press(Control.SELECT)  # the refusal covers the choices: SELECT clears it
        assert isinstance(view, GameView) and view.message is None
        assert table.referee.game.history == before
        table.press(Control.SELECT)  # now it plays the highlighted move
        assert len(table.referee.game.history) == len(before) + 1


def test_the_cursor_and_select_play_the_highlighted_move(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        journal.start(new_game("sequence", 2))
        table = Table(journal, Config(game=GameConfig("sequence")))
        table.roll(6, 5)
        table.roll(1, 1)
        table.roll(4, 4)  # P1 rolls 8: four empty 8s
        view = table.send(ControlTurned(2))
        assert isinstance(view, GameView) and view.cursor == 2
        wanted = view.choices[2]
        table.press(Control.UP, Control.DOWN, Control.SELECT)
        game = journal.resume()
        assert game is not None and str(game.history[-1]) == wanted


def test_physical_dice_are_typed_in_with_the_controls(table: Table) -> None:
    start_dalmatian(table)
    table.press(Control.SELECT)  # dice phase: SELECT opens the dice entry
    assert isinstance(table.referee.pages.top, DiceEntry)
    table.press(Control.UP, Control.UP, Control.SELECT)  # die 1: 3
    table.press(Control.DOWN, Control.SELECT)  # die 2: 6 (1 wraps down to 6)
    table.press(Control.SELECT, Control.SELECT)  # dice 3 and 4: 1
    table.press(Control.BACK)  # back to die 4 ...
    table.press(Control.UP, Control.SELECT, Control.SELECT)  # ... make it 2; die 5: 1
    assert str(table.game.history[-1]) == "roll 3-6-1-2-1"
    assert isinstance(table.send(), GameView)


def test_the_journal_notes_where_each_throw_came_from(table: Table) -> None:
    start_dalmatian(table)
    table.press(Control.SELECT, *[Control.SELECT] * 5)  # typed in: 1-1-1-1-1
    table.send(DiceRolled((3, 3, 3, 3, 3), "serial"))
    table.roll(*[2] * table.game.dice_wanted)
    with closing(sqlite3.connect(table.journal.path)) as db:
        rows = db.execute("SELECT action, source FROM actions ORDER BY seq").fetchall()
    assert [source for _, source in rows] == ["manual", "serial", "button"]
    assert rows[0] == ("roll 1-1-1-1-1", "manual")


def test_undo_asks_first_and_takes_back_the_last_action(table: Table) -> None:
    start_dalmatian(table)
    table.roll(6, 6, 6, 6, 6)
    table.press(Control.BACK)
    table.choose("Undo last action")
    assert table.menu().title == "Undo roll 6-6-6-6-6?"
    assert table.menu().items[table.menu().cursor] == "No"
    table.press(Control.SELECT)  # No: nothing happens
    assert len(table.game.history) == 1
    table.choose("Undo last action")
    table.choose("Yes")
    view = table.send()
    assert isinstance(view, GameView) and view.message == "took back roll 6-6-6-6-6"
    assert table.game.history == []
    resumed = table.journal.resume()
    assert resumed is not None and resumed.history == []
    table.roll(5, 2, 6, 1, 3)
    table.press(Control.BACK)
    table.choose("Undo last action")
    assert table.menu().title == "Undo roll 1-2-3-5-6?"  # as the dice lie on the screen


def test_a_long_press_on_roll_opens_the_menu_and_abandon_leads_to_a_new_game(
        table: Table) -> None:
    start_dalmatian(table)
    table.send(ControlHeld(Control.ROLL))
    assert table.menu().title == "Menu"
    table.choose("Abandon game")
    table.choose("Yes")
    assert table.menu().title == "New game"
    assert table.referee.game is None
    assert table.journal.resume() is None


def test_standings_show_the_night_and_close_with_select(table: Table) -> None:
    start_dalmatian(table)
    play_opening_and_total(table)
    table.roll(6, 6, 6, 6, 6)
    table.roll(6, 6, 6, 6, 1)
    table.press(Control.SELECT, Control.SELECT)  # Ann stops with 4 (asked twice): Ben won
    table.press(Control.BACK)
    view = table.choose("Standings")
    assert view == NoticeView("Tonight", ("Ben: 1 won of 1", "Ann: 0 won of 1"))
    assert isinstance(table.press(Control.SELECT), MenuView)
    table.choose("Next game")
    assert table.menu().title == "New game"


def test_shut_down_is_confirmed_then_asked_of_the_daemon(table: Table) -> None:
    start_dalmatian(table)
    table.press(Control.BACK)
    table.choose("Shut down")
    table.choose("Yes")
    assert table.shutdowns == 1


def test_a_resumed_game_goes_on_where_it_stopped(tmp_path: Path) -> None:
    config = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian", {"rounds": 1}))
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        first = Table(journal, config)
        start_dalmatian(first)
        play_opening_and_total(first)
    with Journal.open(path) as journal:
        again = Table(journal, config)
        view = again.send()
        assert isinstance(view, GameView) and view.message == "resumed after 3 moves"
        assert again.game.total == 6 and again.game.phase is Phase.ROLL


def test_device_news_and_sensor_faults_reach_the_screen(table: Table) -> None:
    start_dalmatian(table)
    view = table.send(DeviceStatus("serial", False, "dice reader lost; retrying"))
    assert isinstance(view, GameView) and view.message == "dice reader lost; retrying"
    view = table.send(CellFault(1, 2, "stuck closed"))
    assert isinstance(view, GameView)
    assert view.message == "board sensor C2: stuck closed"


def test_a_bug_in_handling_is_logged_and_the_referee_goes_on(
        table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    start_dalmatian(table)

    def broken(*args: object) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(table.referee, "_dice", broken)
    view = table.roll(1, 2, 3, 4, 5)
    assert isinstance(view, GameView)
    assert view.message == "internal error (KeyError), logged; no accepted move is lost"
    assert "while handling" in caplog.text


def test_a_long_message_turns_its_pages_until_a_press_clears_it(table: Table) -> None:
    start_dalmatian(table)
    long = "the dice roller says: " + "a rather long account of what happened " * 3
    view = table.send(DeviceStatus("dice roller", True, long))
    assert isinstance(view, GameView) and view.message == long and view.page == 0
    table.referee.tick(10.0)
    assert table.referee.frame() is None  # nothing new yet
    table.referee.tick(10.0 + PAGE_S)
    assert table.referee.frame() is not None
    view = table.referee.view()
    assert isinstance(view, GameView) and view.page == 1
    view = table.press(Control.DOWN)
    assert isinstance(view, GameView) and view.message is None


def test_a_chip_on_a_cell_the_roll_refuses_shows_why_beside_the_fix(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        journal.start(new_game("sequence", 2))
        table = Table(journal, Config(game=GameConfig("sequence")))
        table.referee = Referee(Config(game=GameConfig("sequence")), journal,
                                game=journal.resume(), board=frozenset,
                                recognise=lambda game: recogniser_for(game, "grid"),
                                render=table._render)
        table.roll(6, 6)
        table.roll(1, 1)
        table.roll(4, 4)
        view = table.send(CellChanged(3, 3, True))  # D4 is a 12, the roll is 8
        assert isinstance(view, BoardFixView)
        assert view.fixes == ("lift the chip from D4",)
        assert view.message is not None and view.message.startswith("D4 is a 12, the roll is 8")
        assert "allowed: place" in view.message
        view = table.send(CellChanged(3, 3, False))
        assert isinstance(view, GameView) and view.message is not None  # still to be read


def test_back_on_a_message_closes_the_message_only(table: Table) -> None:
    start_dalmatian(table)
    view = table.roll(1, 2)
    assert isinstance(view, GameView) and view.message == "5 dice are due, got 2"
    view = table.press(Control.BACK)
    assert isinstance(view, GameView) and view.message is None  # no menu opened
    menu = table.press(Control.BACK)
    assert isinstance(menu, MenuView) and menu.title == "Menu"
    view = table.press(Control.BACK)
    assert isinstance(view, GameView) and view.message is None  # the old one stays closed


def test_what_a_throw_did_is_said_once_the_dice_land(table: Table) -> None:
    start_dalmatian(table)
    table.roll(6, 6, 6, 6, 6)
    view = table.roll(1, 1, 1, 1, 1)  # the last opening throw: who starts
    assert isinstance(view, GameView) and view.message is None  # still tumbling
    assert view.thrower == 1  # the band names Ben until his throw has landed
    now = 0.0
    while table.referee.timers.tumble.busy:
        table.referee.tick(now)
        now += 0.1
        view = table.send()
        assert isinstance(view, GameView)
        assert view.message is None if table.referee.timers.tumble.busy else view.message
    view = table.send()
    assert isinstance(view, GameView) and view.message == "Ben threw 1-1-1-1-1: Ann starts"
    view = table.roll(3, 3)
    assert isinstance(view, GameView) and view.thrower == 0  # Ann's total tumbles
    table.referee.timers.tumble.land()
    assert table.send().message == "Ann threw 3-3: total 6; Ben's turn"  # type: ignore[union-attr]
    table.roll(1, 2, 3, 4, 5)  # Ben: 4 score, the turn goes on: nothing to say
    table.referee.timers.tumble.land()
    view = table.send()
    assert isinstance(view, GameView) and view.message is None
    table.press(Control.SELECT, Control.SELECT)  # asked again, then stop
    table.roll(6, 6, 6, 6, 6)  # Ann: all five score, the turn ends by itself
    table.referee.timers.tumble.land()
    assert table.game.is_over  # one round: nothing over the final scores
    assert table.send().message is None  # type: ignore[union-attr]


def test_a_throw_with_no_move_says_so_and_a_press_is_not_spent_on_it(tmp_path: Path) -> None:
    config = Config(players=("Ann", "Ben"), game=GameConfig("centerpoint"))
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        journal.start(new_game("centerpoint", 2, ["Ann", "Ben"]))
        table = Table(journal, config)
        table.referee.table.message = None  # type: ignore[union-attr]  # "resumed" aside
        table.send(DiceRolled((5,), "serial"))
        view = table.send(DiceRolled((3,), "serial"))
        assert view.message == "Ben threw 3: Ann starts"  # type: ignore[union-attr]
        view = table.send(DiceRolled((4,), "serial"))  # no marker may enter on a 4
        assert view.message == "Ann threw 4: no move; Ben's turn"  # type: ignore[union-attr]
        view = table.press(Control.SELECT)  # gone, and SELECT did what it does: dice entry
        assert isinstance(view, DiceEntryView)
        table.press(Control.BACK)
        view = table.send(DiceRolled((2,), "serial"))
        assert view.message == "Ben threw 2: no move; Ann's turn"  # type: ignore[union-attr]
        view = table.press(Control.BACK)  # closes what the throw did, and only that
        assert isinstance(view, GameView) and view.message is None


def test_a_centennial_throw_is_shown_by_the_board_not_said_over_it(tmp_path: Path) -> None:
    config = Config(players=("Ann", "Ben"), game=GameConfig("centennial"))
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        journal.start(new_game("centennial", 2, ["Ann", "Ben"]))
        table = Table(journal, config)
        table.referee.table.message = None  # type: ignore[union-attr]  # "resumed" aside
        table.send(DiceRolled((5,), "serial"))
        view = table.send(DiceRolled((3,), "serial"))
        assert view.message == "Ben threw 3: Ann starts"  # type: ignore[union-attr]
        view = table.send(DiceRolled((4, 2, 5), "serial"))  # no 1: Ann's marker stays off
        assert isinstance(view, GameView) and view.message is None
        assert view.game.throw.dice == (4, 2, 5)  # the screen's own panel shows it


def test_a_dalmatian_turn_that_ends_by_itself_says_what_it_scored(tmp_path: Path) -> None:
    config = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian", {"rounds": 2}))
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        journal.start(new_game("dalmatian", 2, ["Ann", "Ben"], rounds=2))
        table = Table(journal, config)
        for dice in ((6, 6, 6, 6, 6), (1, 1, 1, 1, 1), (3, 3), (1, 2, 2, 2, 2)):
            table.send(DiceRolled(dice, "serial"))
        table.press(Control.SELECT, Control.SELECT)  # asked again, then Ben stops
        view = table.send(DiceRolled((6, 6, 6, 6, 6), "serial"))
        assert isinstance(view, GameView)
        assert view.message == "Ann threw 6-6-6-6-6: +5; Ben's turn"


def test_board_fixes_are_shown_until_the_board_agrees(tmp_path: Path) -> None:
    @dataclass(frozen=True)
    class Outcome:
        action: str | None
        fixes: tuple[str, ...]
        message: str | None = None
        offer: str | None = None
        refused: str | None = None

    class Recogniser:
        """Wants A1 occupied; sensed changes update what it knows."""

        def __init__(self) -> None:
            self.board: set[tuple[int, int]] = set()
            self.ignored: set[tuple[int, int]] = set()

        def reset(self, game: object, occupied: frozenset[tuple[int, int]]) -> Outcome:
            self.board = set(occupied)
            return self.review(game)

        def changed(self, game: object, event: CellChanged) -> Outcome:
            self.board ^= {(event.row, event.col)}
            return self.review(game)

        def review(self, game: object) -> Outcome:
            return Outcome(None, () if (0, 0) in self.board else ("put a chip on A1",))

        def missing(self, game: object) -> frozenset[tuple[int, int]]:
            return frozenset({(0, 0)}) - self.board

        def extra(self, game: object) -> frozenset[tuple[int, int]]:
            return frozenset()

        def hint(self, game: object) -> str | None:
            return None

    with Journal.open(tmp_path / "j.sqlite3") as journal:
        journal.start(new_game("sequence", 2))
        table = Table(journal, Config())
        table.referee = Referee(Config(), journal, game=journal.resume(),
                                recognise=lambda game: Recogniser(), board=frozenset,
                                render=table._render)
        assert table.referee.table is not None
        table.referee.table.message = None  # "resumed after 0 moves" aside
        assert table.send() == BoardFixView("Sequence Dice", ("put a chip on A1",))
        # slow to put it down: the screen asks, and never blames the sensor
        assert table.referee.tick(100.0) is None
        assert table.referee.tick(1000.0) is None
        assert table.send() == BoardFixView("Sequence Dice", ("put a chip on A1",))
        assert isinstance(table.send(CellChanged(0, 0, True)), GameView)
        assert table.referee.tick(1001.0) is None
        table.send(CellChanged(0, 0, False), DiceRolled((6, 5), "button"))
        # the throw stands above the fix, so its dice are seen
        assert table.send() == BoardFixView("Sequence Dice", ("put a chip on A1",), dice=(6, 5))
        assert table.referee.tick(1002.0) == 1002.0 + UNMADE_FIX_S
        # the players put the chip down, and still nothing is sensed: say what to check
        assert table.referee.tick(1002.0 + UNMADE_FIX_S - 1) == 1002.0 + UNMADE_FIX_S
        assert table.referee.tick(1002.0 + UNMADE_FIX_S) is None
        suspect = ("the sensor at A1 seems dead (nothing sensed there): check its magnet and "
                   "switch, or SELECT: play on, it will be ignored")
        assert table.send() == BoardFixView("Sequence Dice", ("put a chip on A1", suspect),
                                            dice=(6, 5))
        assert table.referee.tick(1500.0) is None  # said once
        # sensed at last: the fix and the suspicion go, and nothing is said after
        view = table.send(CellChanged(0, 0, True))
        table.referee.tick(1501.0)
        assert isinstance(view, GameView) and view.message is None
        assert table.send() == view


@pytest.mark.parametrize(("long_press", "title"), [
    ("menu", "Menu"), ("undo", "Undo roll 6-6-6-6-6?"), ("dice", None), ("moves", None)])
def test_the_long_press_does_what_the_config_says(tmp_path: Path, long_press: str,
                                                  title: str | None) -> None:
    config = Config(players=("Ann", "Ben"), long_press=long_press)
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        journal.start(new_game("dalmatian", 2))
        table = Table(journal, config)
        table.roll(6, 6, 6, 6, 6)
        view = table.send(ControlHeld(Control.ROLL))
        if long_press == "moves":  # the second opening throw is due
            assert isinstance(view, GameView)
            assert view.message == "no moves until the dice are thrown"
        elif title is None:
            assert view == DiceEntryView((1, 1, 1, 1, 1), 0)
        else:
            assert table.menu().title == title


def test_shutting_down_leaves_a_screen_that_says_it_is_safe_to_unplug(table: Table) -> None:
    start_dalmatian(table)
    table.press(Control.BACK)
    table.choose("Shut down")
    view = table.choose("Yes")
    assert view == NoticeView("Stopped", ("Every move is saved.", "Safe to unplug."))


def test_a_button_roll_tumbles_then_settles_on_the_thrown_dice(table: Table) -> None:
    start_dalmatian(table)
    table.roll(1, 2, 3, 4, 5)  # drawn once by send()
    assert table.referee.frame() is None  # nothing changed since
    shown = []
    for now in (10.0, 10.01, 10.1, 10.2, 10.3):
        table.referee.tick(now)
        view = table.referee.view()
        assert isinstance(view, GameView)
        shown.append(view.rolling)
    assert shown == [(6,) * 5, (6,) * 5, (6,) * 5, (1, 2, 3, 4, 5), None]
    assert table.referee.frame() is not None


def test_typed_in_dice_do_not_tumble(table: Table) -> None:
    start_dalmatian(table)
    table.send(DiceRolled((1, 2, 3, 4, 5), "manual"))
    table.referee.tick(10.0)
    view = table.referee.view()
    assert isinstance(view, GameView) and view.rolling is None


def test_a_reroll_tumbles_the_thrown_dice_beside_the_held_ones(table: Table) -> None:
    start_dalmatian(table)
    play_opening_and_total(table)
    table.roll(1, 1, 2, 5, 6)
    table.press(Control.HOLD4)  # keep the 5
    table.roll(4, 4, 2, 1)
    table.referee.tick(20.0)
    view = table.referee.view()
    assert isinstance(view, GameView) and view.rolling == (6, 6, 6, 5, 6)  # the 5 stays 4th


def test_a_throw_during_the_last_ones_tumble_shows_its_own_dice(table: Table) -> None:
    start_dalmatian(table)
    play_opening_and_total(table)
    table.referee.tick(20.0)
    view = table.referee.view()
    assert isinstance(view, GameView) and view.rolling == (6, 6)  # the total still tumbles
    view = table.roll(1, 2, 3, 4, 5)  # Ben throws before it settles
    assert isinstance(view, GameView) and view.rolling is None
    assert view.layout == (1, 2, 3, 4, 5)
    table.referee.tick(20.01)
    view = table.referee.view()
    assert isinstance(view, GameView) and view.rolling == (6,) * 5  # his own throw tumbles


@pytest.mark.parametrize("hint", [True, False])
def test_the_advisor_tables_are_built_at_the_tick_after_the_total_is_shown(
    tmp_path: Path, hint: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games.dalmatian_advice, "_PLANS", {})
    config = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian", {"rounds": 1}),
                    hint=hint)
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        table = Table(journal, config)
        start_dalmatian(table)
        table.roll(6, 6, 6, 6, 6)
        table.roll(1, 1, 1, 1, 1)
        table.referee.tick(0.0)
        assert not prepared(6)  # no total yet
        table.roll(3, 3)  # the starting total 6 is shown; Ben has not thrown
        assert not prepared(6)
        table.referee.tick(0.0)
        assert prepared(6) is hint  # no hint shown, nothing to build


def test_the_menu_keeps_its_entries_in_place_and_greys_what_does_not_apply(
        table: Table) -> None:
    start_dalmatian(table)
    table.press(Control.BACK)
    at_start = table.menu()
    assert at_start.items == ("Back to the game", "Undo last action", "Type in dice",
                              "Standings", "Settings", "Abandon game", "Read the moves",
                              "Shut down")
    assert at_start.greyed == {1}  # nothing to undo; the opening dice are due
    table.choose("Undo last action")
    assert table.menu().message == "nothing to undo yet"
    table.press(Control.SELECT)  # the first press only clears the message ...
    table.choose("Back to the game")
    table.roll(6, 6, 6, 6, 6)
    table.roll(1, 1, 1, 1, 1)
    table.roll(3, 4)
    table.roll(1, 2, 3, 4, 5)  # Ben's turn: a move is due, no dice
    table.press(Control.BACK)
    in_turn = table.menu()
    assert in_turn.items == at_start.items and in_turn.greyed == {2}
    table.choose("Type in dice")
    assert table.menu().message == "no dice are due now"


def test_the_moves_are_read_out_from_the_menu(table: Table) -> None:
    start_dalmatian(table)
    table.press(Control.BACK)
    view = table.choose("Read the moves")  # the opening throws are due
    assert isinstance(view, GameView) and view.message == "no moves until the dice are thrown"
    table.press(Control.SELECT)
    for dice in ((6, 6, 6, 6, 6), (1, 1, 1, 1, 1), (3, 4), (1, 2, 3, 5, 5)):
        table.roll(*dice)
    table.press(Control.BACK)
    view = table.choose("Read the moves")
    game = table.referee.game
    assert game is not None and isinstance(view, GameView)
    assert view.message == moves_notice(game)
    assert view.message.startswith("Moves: stop, reroll 1, reroll 2, reroll 3, reroll 5, ")
    assert view.message.count(", ") == 23  # 1-2-3-5-5: the fives' rerolls are one each


def test_dice_thrown_while_they_are_being_typed_in_stand(table: Table) -> None:
    start_dalmatian(table)
    assert isinstance(table.press(Control.SELECT), DiceEntryView)  # dice due: typed in ...
    view = table.roll(6, 6, 6, 6, 6)  # ... or thrown after all
    assert isinstance(view, GameView) and view.message is None
    assert [str(a) for a in table.game.history] == ["roll 6-6-6-6-6"]


def test_back_on_a_menus_message_closes_the_message_alone(table: Table) -> None:
    start_dalmatian(table)
    table.press(Control.BACK)
    table.choose("Settings")
    table.roll(1, 2, 3, 4, 5)  # the dice button pressed with the menu open
    assert table.menu().message == "dice 1-2-3-4-5 ignored: close the menu first"
    settings = table.press(Control.BACK)
    assert isinstance(settings, MenuView) and settings.title == "Settings"
    assert settings.message is None
    table.press(Control.BACK)
    table.choose("Undo last action")
    assert table.menu().message == "nothing to undo yet"
    down = table.press(Control.DOWN)  # closes the message; the cursor stays
    assert isinstance(down, MenuView) and down.message is None
    assert down.items[down.cursor] == "Undo last action"


def test_the_menu_from_the_game_choice_has_the_same_places(table: Table) -> None:
    menu = table.press(Control.BACK)
    assert isinstance(menu, MenuView)
    assert menu.items[0] == "Back to the game choice" and len(menu.items) == 8
    assert menu.greyed == {1, 2, 5, 6}
    table.choose("Standings")
    assert table.send() == NoticeView("Tonight", ("no game finished yet",))


def test_settings_show_and_change_hint_and_sound(table: Table) -> None:
    table.referee.parts.sounder = Sounds()
    table.press(Control.BACK)
    table.choose("Settings")
    assert (table.menu().items, table.menu().values) == (("Hint", "Sound"), ("on", "on"))
    table.choose("Sound")
    table.choose("Hint")
    assert table.menu().values == ("off", "off")
    assert not table.referee.settings.hint and not table.referee.settings.sound


def test_a_table_without_a_buzzer_shows_no_sound_to_turn_on(table: Table) -> None:
    table.press(Control.BACK)
    table.choose("Settings")
    menu = table.menu()
    assert (menu.items, menu.values, menu.greyed) == (("Hint", "Sound"), ("on", "none"), {1})
    table.choose("Sound")  # greyed: says why, changes nothing
    assert table.referee.settings.sound


def test_settings_are_kept_with_the_game_through_a_quit_and_a_power_cut(
        tmp_path: Path) -> None:
    config = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian", {"rounds": 1}))
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        table = Table(journal, config)
        start_dalmatian(table)
        table.press(Control.BACK)
        table.choose("Settings")
        table.choose("Hint")
        # on disk as the press returns: another reader (what a power cut leaves) sees it
        db = sqlite3.connect(path)
        assert db.execute("SELECT settings FROM games").fetchone() == (
            '{"hint": false, "sound": true}',)
        db.close()
    with Journal.open(path) as journal:  # quit and resume
        table = Table(journal, config)
        table.referee.parts.sounder = Sounds()
        assert table.referee.game is not None and not table.referee.settings.hint
        view = table.send()
        assert isinstance(view, GameView) and not view.hint
        table.press(Control.BACK, Control.BACK)  # "resumed after 0 moves" closes first
        table.choose("Settings")
        assert table.menu().values == ("off", "on")
        table.choose("Sound")
        table.press(Control.BACK)  # back to the menu
        table.choose("Abandon game")
        table.choose("Yes")
        table.choose("Dalmatian")  # the next game starts with the table's settings
        table.choose("2 players")
        table.choose("Start")
    with Journal.open(path) as journal:
        assert Table(journal, config).referee.settings == Settings(hint=False, sound=False)


def test_a_highlighted_option_too_long_for_its_row_scrolls_with_the_ticks(
        table: Table) -> None:
    table.choose("Dalmatian")
    table.choose("2 players")
    table.send(ControlTurned(3))  # past Start and the players
    assert table.menu().items[table.menu().cursor] == "Best score only"
    for tick in range(10):
        table.referee.tick(float(tick))
    assert table.menu().scroll == 9
    table.send(ControlTurned(-1))
    assert table.menu().scroll == 0  # a new line starts from its beginning
    table.send(ControlTurned(-2))  # "Start" fits: it never scrolls
    for tick in range(10, 20):
        table.referee.tick(float(tick))
    assert table.menu().scroll == 0


def test_dice_typed_in_are_shown_as_they_are_set(table: Table) -> None:
    start_dalmatian(table)
    assert table.press(Control.SELECT) == DiceEntryView((1, 1, 1, 1, 1), 0)
    assert table.press(Control.UP) == DiceEntryView((2, 1, 1, 1, 1), 0)
    assert table.press(Control.SELECT, Control.DOWN) == DiceEntryView((2, 6, 1, 1, 1), 1)


def test_at_a_game_night_the_standings_carry_the_pages_address_for_a_qr_code(
        tmp_path: Path) -> None:
    config = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian", {"rounds": 1}),
                    night=NightConfig("Table 2", page="http://10.0.0.2:8080/"))
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        table = Table(journal, config)
        start_dalmatian(table)
        play_opening_and_total(table)
        table.roll(6, 6, 6, 6, 6)
        table.roll(6, 6, 6, 6, 1)
        table.press(Control.SELECT, Control.SELECT)  # stop, asked again
        table.press(Control.BACK)  # closes the game's own QR code
        table.press(Control.BACK)
        view = table.choose("Standings")
    assert view == NoticeView("Won tonight", ("Ben 1/1", "Ann 0/1"),
                              qr="http://10.0.0.2:8080/")


def test_at_a_game_night_a_games_end_shows_a_qr_code_of_its_page_that_a_phone_reads(
        tmp_path: Path) -> None:
    """The code holds the game's short address on the hub (from the table's [night]
    settings alone), and zbar reads it from the 128x64 frame as the OLED shows it."""
    night = NightConfig("Table 2", broker="mqtts://hub.local:8883")
    config = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian", {"rounds": 1}),
                    night=night)
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        table = Table(journal, config)
        start_dalmatian(table)
        play_opening_and_total(table)
        table.roll(1, 2, 3, 4, 5)
        table.press(Control.SELECT, Control.SELECT)  # asked again, then Ben stops on 4
        view = table.roll(6, 6, 6, 6, 6)  # Ann's 5 ends the game
        url = "http://hub.local:8080" + short_path("table-2", journal.game_id or 0)
        assert view == NoticeView("Game over", ("Ann 5", "Ben 4"), qr=url)
        assert len(url) == len("http://hub.local:8080/g/") + 8
        assert decoded(render_screen(view), tmp_path) == [url]
        assert isinstance(table.press(Control.SELECT), GameView)  # the final position
        assert isinstance(table.press(Control.SELECT), MenuView)  # and a new game


def test_without_a_game_night_a_games_end_shows_the_game_as_it_ended(table: Table) -> None:
    start_dalmatian(table)
    play_opening_and_total(table)
    table.roll(1, 2, 3, 4, 5)
    table.press(Control.SELECT, Control.SELECT)  # stop, asked again
    view = table.roll(6, 6, 6, 6, 6)
    assert table.game.is_over and isinstance(view, GameView)


def rerolled_both_ways(tmp_path: Path) -> tuple[Table, Table]:
    """Two tables at the same turn: one rerolls dice 2 and 4 from the list, the other
    holds dice 1, 3 and 5 and presses ROLL; both throw 6-3."""
    tables = []
    for name in ("list", "holds"):
        config = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian", {"rounds": 1}))
        journal = Journal.open(tmp_path / f"{name}.sqlite3")
        table = Table(journal, config)
        start_dalmatian(table)
        play_opening_and_total(table)
        table.roll(5, 1, 4, 2, 2)  # laid out sorted: 1 2 2 4 5
        tables.append(table)
    by_list, by_holds = tables
    view = by_list.send()
    assert isinstance(view, GameView)
    wanted = view.choices.index("reroll 2-4 (dice 2,4)")
    by_list.send(ControlTurned(wanted))
    by_list.press(Control.SELECT)
    waiting = by_list.send()
    assert isinstance(waiting, GameView) and waiting.layout == (1, 0, 2, 0, 5)
    assert by_list.roller.count == 2
    by_list.roll(6, 3)
    by_holds.press(Control.HOLD1, Control.HOLD3, Control.HOLD5)
    assert by_holds.roller.count == 2
    by_holds.roll(6, 3)
    return by_list, by_holds


def test_a_reroll_from_the_list_and_by_the_hold_buttons_do_the_same(tmp_path: Path) -> None:
    by_list, by_holds = rerolled_both_ways(tmp_path)
    assert by_list.game.history == by_holds.game.history
    assert [str(a) for a in by_list.game.history[-2:]] == ["reroll 2-4", "roll 6-3"]
    views = [table.send() for table in (by_list, by_holds)]
    assert all(isinstance(v, GameView) and v.layout == (1, 6, 2, 3, 5) for v in views)
    for table in (by_list, by_holds):
        table.journal.close()


def test_hold_button_n_keeps_the_nth_die_shown_after_a_reroll(table: Table) -> None:
    start_dalmatian(table)
    play_opening_and_total(table)  # the total is 6
    table.roll(3, 1, 5, 5, 2)  # 1 2 3 5 5
    table.press(Control.HOLD1, Control.HOLD2, Control.HOLD4, Control.HOLD5)
    table.roll(4)  # the 3 in the middle becomes a 4 where it lay
    view = table.send()
    assert isinstance(view, GameView) and view.layout == (1, 2, 4, 5, 5)
    table.press(Control.HOLD3)  # the 4 shown third: reroll the others
    table.roll(1, 1, 1, 1)
    assert str(table.game.history[-2]) == "reroll 1-2-5-5"


def test_the_list_names_dice_by_their_places_as_the_hold_buttons_do(table: Table) -> None:
    start_dalmatian(table)
    play_opening_and_total(table)
    table.roll(5, 1, 5, 2, 4)
    view = table.send()
    assert isinstance(view, GameView)
    assert view.choices[:5] == ("stop", "reroll 1 (die 1)", "reroll 2 (die 2)",
                                "reroll 4 (die 3)", "reroll 5 (die 4)")  # either 5: one
    assert view.choices[-1] == "reroll 1-2-4-5-5 (dice 1,2,3,4,5)"


def test_a_long_choice_in_a_game_scrolls_with_the_ticks(table: Table) -> None:
    start_dalmatian(table)
    play_opening_and_total(table)
    table.roll(5, 1, 5, 2, 4)
    view = table.send(ControlTurned(-1))  # the last choice: all five dice, 33 characters
    assert isinstance(view, GameView) and view.choices[view.cursor].startswith("reroll 1-2-4-5-5")
    for tick in range(6):
        table.referee.tick(float(tick))
    view = table.send()
    assert isinstance(view, GameView) and view.scroll == 5
    view = table.send(ControlTurned(1))  # round to "stop", which fits: no scrolling
    table.referee.tick(10.0)
    table.referee.tick(20.0)
    assert isinstance(view, GameView) and view.cursor == 0 and table.referee.table.scroll == 0


class Sounds:
    """A buzzer that only records what it was asked to play."""

    def __init__(self) -> None:
        self.played: list[tuple[tuple[float | None, float], ...]] = []

    def play(self, notes: Sequence[tuple[float | None, float]]) -> None:
        self.played.append(tuple(notes))


def test_the_buzzer_chirps_buzzes_and_plays_the_end(tmp_path: Path) -> None:
    config = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian", {"rounds": 1}))
    sounds = Sounds()
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        journal.start(new_game("dalmatian", 2, rounds=1))
        table = Table(journal, config)
        table.referee.parts.sounder = sounds
        table.roll(6, 6, 6, 6, 6)
        assert sounds.played == [CHIRP]
        table.roll(1, 2)  # two dice where five are due: refused
        assert sounds.played[-1] == REFUSAL
        table.press(Control.HOLD1)  # the hold buttons have nothing to keep yet
        assert sounds.played[-1] == REFUSAL
        table.roll(1, 1, 1, 1, 1)
        table.roll(3, 3)
        table.roll(6, 6, 6, 6, 6)
        table.roll(6, 6, 6, 6, 1)
        table.press(Control.SELECT, Control.SELECT)  # Ann stops (asked twice): the end
        assert table.game.is_over and sounds.played[-1] == TUNE
        table.referee.toggle("sound")  # the Settings menu's Sound: off
        count = len(sounds.played)
        table.roll(1, 2)
        assert len(sounds.played) == count


def test_a_moves_log_lines_are_written_once_its_frame_is_out(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """Under systemd a log line is a write to the journal's socket: the frame of a move
    must not wait for it, so the referee writes the move's lines at the tick after it."""
    start_dalmatian(table)
    caplog.set_level(logging.INFO, logger="firmware_host.referee")
    dice = (6, 5, 4, 3, 2)[:table.game.dice_wanted]  # the opening throw
    faces = "-".join(map(str, dice))
    table.roll(*dice)
    assert f"dice {faces} from button" not in caplog.text
    table.referee.tick(0.0)
    assert f"dice {faces} from button" in caplog.text
    assert f"Dalmatian: roll {faces}" in caplog.text
    caplog.clear()
    table.referee.tick(0.0)
    assert caplog.text == ""  # written once


def test_a_throw_still_tumbling_ends_with_its_game(tmp_path: Path) -> None:
    """Cat's throw tumbles as a new game for two starts: the band must not name seat 2 of
    a game that has two seats (drawing that frame raised IndexError)."""
    config = Config(players=("Ann", "Ben", "Cat"), game=GameConfig("dalmatian", {"rounds": 1}))
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        table = Table(journal, config)
        assert table.menu().title == "New game"
        table.choose("Dalmatian")
        table.choose("3 players")
        table.choose("Start")
        table.roll(6, 6, 6, 6, 6)
        table.roll(1, 1, 1, 1, 1)
        table.roll(2, 2, 2, 2, 2)  # Cat's opening throw, still tumbling
        assert table.referee.timers.tumble.thrower == 2
        table.send(ControlHeld(Control.ROLL))
        table.choose("Abandon game")
        table.choose("Yes")
        table.choose("Dalmatian")
        table.choose("2 players")
        table.choose("Start")
        table.referee.tick(30.0)
        view = table.referee.view()
        assert isinstance(view, GameView) and view.thrower is None and view.rolling is None
        render_screen(view)


def test_a_frame_that_fails_to_draw_shows_a_plain_error_and_play_goes_on(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    start_dalmatian(table)
    calls = 0

    def broken(view: View) -> Image.Image:
        nonlocal calls
        calls += 1
        if isinstance(view, GameView):
            raise IndexError("list index out of range")
        return render_screen(view)

    table.referee.frames.render = broken
    with caplog.at_level(logging.ERROR):
        table.roll(6, 6, 6, 6, 6)
        table.roll(1, 1, 1, 1, 1)
    assert table.referee.frame() is None  # drawn, as an error frame, at each event
    assert [r.message for r in caplog.records].count("while drawing the screen") == 1
    assert len(table.game.history) == 2  # both throws were played
    assert calls == 4  # each event: the game's frame failed, then the error frame


def test_a_dalmatian_stop_with_rerolls_left_is_asked_for_twice(table: Table) -> None:
    """"stop" is the list's first item: a SELECT pressed as the dice land must not end a
    turn that could still reroll. The second SELECT stops; a knob turn forgets the question."""
    start_dalmatian(table)
    play_opening_and_total(table)
    table.send(DiceRolled((1, 2, 3, 4, 5), "serial"))  # Ben: 1+5, 2+4 score 4, 2 rerolls left
    view = table.press(Control.SELECT)
    assert isinstance(view, GameView) and view.message == "2 rerolls left: SELECT again to stop"
    assert table.game.current_player == 1
    table.press(Control.DOWN, Control.UP)  # away and back: asked again
    table.press(Control.SELECT)
    assert table.game.current_player == 1
    table.press(Control.SELECT)
    assert table.game.current_player == 0 and str(table.game.history[-1]) == "stop"
