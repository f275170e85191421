"""Choosing who plays at the table: names picked from a list, a name typed in on the
on-screen keyboard, the same players again with one press, the next round's seat first,
and the journal keeping the names and ids, through a power cut too.

The tests marked "pins" drive the real daemon on mock pins through scenario steps, as the
simulator's keys do: the knob on ``pi40``, the UP and DOWN buttons on ``pi40-buttons``.
"""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st
from journal_helpers import new_game
from journal_helpers import play as play_journaled
from test_referee import Table as RefereeTable

import games
from firmware_host import next_round
from firmware_host.config import Config, GameConfig
from firmware_host.journal import Journal
from firmware_host.keyboard import DONE, KEYS, SELECT, Keyboard, route
from firmware_host.menu import Menu
from firmware_host.next_round import Seat
from firmware_host.players import (
    MAX_NAME,
    MAX_TYPED,
    Player,
    problem,
    read_roster,
    roster_beside,
    write_roster,
)
from firmware_host.sim import scenario as scenarios
from firmware_host.sim.runner import play
from firmware_host.views import KeyboardView, MenuView, View
from hardware.events import Control, ControlTurned

CONFIG = Config(players=("Ann", "Ben", "Cy"), game=GameConfig("dalmatian", {"rounds": 1}))


class Table(RefereeTable):
    """The referee tests' table, having looked beside its journal once, and the keyboard."""

    def __init__(self, journal: Journal, config: Config = CONFIG) -> None:
        super().__init__(journal, config)
        self.referee.tick(0.0)

    def type_in(self, name: str) -> View:
        for step in route(name):
            self.press(Control.SELECT) if step == SELECT else self.send(ControlTurned(step))
        return self.send()

    def names(self) -> tuple[str, ...]:
        assert self.referee.game is not None
        return tuple(self.referee.game.setup.names)


def stored_setups(path: Path) -> list[dict[str, Any]]:
    with closing(sqlite3.connect(path)) as db:
        return [json.loads(s) for (s,) in db.execute("SELECT setup FROM games ORDER BY id")]


# --- the keyboard


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz-'", min_size=1, max_size=MAX_TYPED))
def test_the_route_types_any_name_and_takes_it(name: str) -> None:
    taken: list[str] = []
    keyboard = Keyboard("seat 1", lambda text: taken.append(text) or None)
    for step in route(name):
        keyboard.select() if step == SELECT else keyboard.move(step)
    assert len(taken) == 1 and taken[0].lower() == name


def test_words_start_with_a_capital_and_back_takes_a_letter_back() -> None:
    keyboard = Keyboard("seat 1", lambda text: None)
    for step in route("mary-jo o'neil")[:-len(route(""))]:  # all but OK
        keyboard.select() if step == SELECT else keyboard.move(step)
    assert keyboard.text == "Mary-Jo O'Neil"
    assert not keyboard.closable
    keyboard.back()
    assert keyboard.text == "Mary-Jo O'Nei"
    keyboard.select()  # open a group ...
    keyboard.back()  # ... BACK closes it without taking a letter back
    assert keyboard.text == "Mary-Jo O'Nei" and keyboard.letter is None


def test_a_typed_name_has_at_most_its_letters_and_no_leading_space() -> None:
    keyboard = Keyboard("seat 1", lambda text: None, group=KEYS.index("z -'"))
    keyboard.select()
    keyboard.move(1)  # the space
    keyboard.select()
    assert keyboard.text == ""
    keyboard = Keyboard("seat 1", lambda text: None, text="A" * MAX_TYPED)
    keyboard.select()
    keyboard.select()
    assert keyboard.text == "A" * MAX_TYPED
    assert keyboard.message == f"a typed name has at most {MAX_TYPED} letters"


def test_a_six_letter_name_takes_about_33_presses_and_under_30_s_by_the_bench() -> None:
    path = Path(__file__).parents[2] / "bench" / "typing_names.py"
    spec = importlib.util.spec_from_file_location("typing_names_bench", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    spec.loader.exec_module(bench)
    found = bench.measured(bench.NAMES[:2])
    assert found["presses"] == {"Dorian": 33, "Amelia": 28}
    assert found["person_s_max"] < 30
    assert all(goal["ok"] for goal in found["goals"].values())


# --- the rules a name keeps


def test_a_name_is_refused_with_one_line_that_says_why() -> None:
    seated = [Player("Ann"), None, Player("José")]
    assert problem("ann", seated) == "Ann plays at seat 1 already"
    assert problem(" jose ", seated) == "José plays at seat 3 already"
    assert problem("", seated) == "type a name first"
    assert problem("A\u202eB", seated) == f"a name is 1 to {MAX_NAME} letters, digits or signs"
    assert problem("x" * (MAX_NAME + 1), seated) is not None
    assert problem("Christopher-Alexander", seated) is None  # long for the screen: cut there


def test_the_roster_file_is_read_as_untrusted_text(tmp_path: Path) -> None:
    path = roster_beside(tmp_path / "journal.sqlite3")
    write_roster(path, [Player("Ann Smith", "ann"), Player("Bob", "bob")])
    with path.open("a") as file:
        file.write('{"name": "Eve\\u202e", "id": "eve"}\n{"name": "Mal", "id": "NOT AN ID"}\n'
                   "not json\n[1, 2]\n")
    assert read_roster(path) == (Player("Ann Smith", "ann"), Player("Bob", "bob"))
    write_roster(path, [])
    assert not path.exists() and read_roster(path) == ()


# --- at the table


def test_three_players_picked_from_the_list_and_one_typed_in_start_the_game(
        tmp_path: Path) -> None:
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        table = Table(journal)
        table.choose("Dalmatian")
        table.choose("3 players")
        assert table.menu().items[:2] == ("Start", "Players: Ann, Ben, Cy")
        seat = table.choose("Players")
        assert isinstance(seat, MenuView) and seat.title == "Player 1 of 3"
        assert seat.items == ("Ann", "Ben", "Cy", "New player") and seat.cursor == 0
        table.choose("Cy")
        assert table.menu().title == "Player 2 of 3"
        table.choose("Ann")
        third = table.menu()
        assert third.greyed == frozenset({0, 2})  # Ann and Cy are taken
        refused = table.choose("Cy")
        assert isinstance(refused, MenuView) and refused.message == "Cy plays at seat 1 already"
        table.press(Control.SELECT)  # read
        keyboard = table.choose("New player")
        assert isinstance(keyboard, KeyboardView) and keyboard.title == "seat 3"
        options = table.type_in("Dorian")
        assert isinstance(options, MenuView) and options.items[1] == "Players: Cy, Ann, Dorian"
        assert options.cursor == 0  # on Start
        table.press(Control.SELECT)
        assert table.names() == ("Cy", "Ann", "Dorian")
    with Journal.open(tmp_path / "journal.sqlite3") as journal:  # after a power cut
        resumed = journal.resume()
        assert resumed is not None and resumed.setup.names == ("Cy", "Ann", "Dorian")
        assert Table(journal).names() == ("Cy", "Ann", "Dorian")


def test_a_typed_name_already_at_the_table_is_refused_on_the_keyboard(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        table = Table(journal)
        table.choose("Dalmatian")
        table.choose("2 players")
        table.choose("Players")
        table.choose("Ann")
        table.choose("New player")
        view = table.type_in("ann")
        assert isinstance(view, KeyboardView) and view.message == "Ann plays at seat 1 already"
        assert view.keys[view.key] == DONE


def test_the_same_players_start_again_with_one_press(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        table = Table(journal)
        table.choose("Dalmatian")
        table.choose("3 players")
        table.choose("Players")
        table.choose("Cy")
        table.choose("New player")
        table.type_in("Dee")
        table.choose("Ben")
        table.press(Control.SELECT)
        assert table.names() == ("Cy", "Dee", "Ben")
        table.referee.abandon()
        table.choose("Dalmatian")
        table.choose("3 players")
        menu = table.menu()
        assert menu.items[1] == "Players: Cy, Dee, Ben" and menu.cursor == 0
        table.press(Control.SELECT)  # one press: the same players again
        assert table.names() == ("Cy", "Dee", "Ben")
        table.referee.abandon()
        table.choose("Dalmatian")
        table.choose("3 players")
        table.choose("Players")
        first = table.menu()
        assert first.items[0] == "Same as last game: Cy, Dee, Ben"
        assert "Dee" in first.items  # a name the journal has seen
        table.choose("Ann")
        table.press(Control.BACK)  # back to seat 1 ...
        table.choose("Same as last game")  # ... and all of them at once
        assert table.menu().items[1] == "Players: Cy, Dee, Ben"


def test_names_come_from_the_config_the_journal_and_the_roster_each_once(
        tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    write_roster(roster_beside(path), [Player("Zoë", "zoe"), Player("ann", "ann-smith")])
    with Journal.open(path) as journal:
        table = Table(journal)
        table.choose("Dalmatian")
        table.choose("2 players")
        table.choose("Players")
        assert table.menu().items == ("Ann", "Ben", "Cy", "Zoë", "New player")
        table.choose("Zoë")
        table.choose("Ann")
        table.press(Control.SELECT)  # Start
        assert table.names() == ("Zoë", "Ann")
    assert stored_setups(path)[-1]["ids"] == ["zoe", "ann-smith"]


def test_an_old_journal_without_ids_still_offers_its_players(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        Table(journal).send()  # a journal of this version, then an old game in it
    setup = json.dumps({"game": "dalmatian", "names": ["Old", "Timer"],
                        "options": {"rounds": 1}})
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("INSERT INTO games (setup, started_at, ended_at, outcome) VALUES "
                   "(?, '2026-01-01T20:00:00+00:00', '2026-01-01T21:00:00+00:00', "
                   "'abandoned')", (setup,))
    with Journal.open(path) as journal:
        assert journal.recent_players() == [(Player("Old"), Player("Timer"))]
        table = Table(journal)
        table.choose("Dalmatian")
        table.choose("2 players")
        assert table.menu().items[1] == "Players: Old, Timer"


# --- the next round, as the publisher leaves it beside the journal


def seat_file(path: Path, seat: Seat) -> None:
    names = ", ".join(p.name for p in seat.players)
    next_round.write(next_round.beside(path), f"Next round: table 1 with {names}", seat)


def test_the_next_round_is_offered_first_and_one_press_starts_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    seat_file(path, Seat("Dalmatian", (Player("Rae", "rae"), Player("Sam"), Player("Tia"))))
    with Journal.open(path) as journal:
        table = Table(journal)
        menu = table.menu()
        assert menu.items[0] == "Next round: Rae, Sam, Tia" and menu.cursor == 0
        table.press(Control.SELECT)
        assert table.names() == ("Rae", "Sam", "Tia")
        assert table.referee.game is not None and table.referee.game.NAME == "dalmatian"
        table.referee.abandon()
        assert not table.menu().items[0].startswith("Next round")  # played already
    assert stored_setups(path)[-1]["ids"] == ["rae", "", ""]


@pytest.mark.parametrize(("seat", "why"), [
    (Seat("Chess", (Player("Rae"), Player("Sam"))),
     "the seating's game 'Chess' is not one this table plays"),
    (Seat("Multi-Gam", (Player("Rae"),) * 1),
     "the seating gives Multi-Gam 1 players; it takes 4"),
    (Seat("Dalmatian", (Player("Rae"), Player("rae"))), "the seating names rae twice"),
])
def test_a_seating_the_table_cannot_play_says_why_in_one_line(
        tmp_path: Path, seat: Seat, why: str) -> None:
    path = tmp_path / "journal.sqlite3"
    seat_file(path, seat)
    with Journal.open(path) as journal:
        table = Table(journal)
        assert table.menu().greyed == frozenset({0})
        assert table.choose("Next round").message == why  # type: ignore[union-attr]
        assert table.referee.game is None


def test_a_seat_that_comes_while_the_game_choice_is_open_is_offered_at_once(
        tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        table = Table(journal)
        assert not table.menu().items[0].startswith("Next round")
        seat_file(path, Seat("Dalmatian", (Player("Rae"), Player("Sam"))))
        table.referee.tick(next_round.LOOK_S + 1)
        menu = table.menu()  # the seat is the menu's first line: not said over it as well
        assert isinstance(table.referee.pages.top, Menu) and menu.message is None
        assert menu.items[0] == "Next round: Rae, Sam" and menu.cursor == 0
        seat_file(path, Seat("Dalmatian", (Player("Rae"), Player("Rae"))))
        table.referee.tick(2 * next_round.LOOK_S + 2)
        assert table.menu().message == ("Next round: table 1 with Rae, Rae: the seating "
                                        "names Rae twice")


# --- through the pins


def scenario_of(tmp_path: Path, pin_map: str, steps: list[dict[str, Any]]) -> Path:
    lines = [f'pin_map = "{pin_map}"\nsettle = 0.05\n']
    for step in steps:
        key, value = next(iter(step.items()))
        lines.append(f"[[step]]\n{key} = {json.dumps(value)}\n")
    path = tmp_path / "choose.toml"
    path.write_text("\n".join(lines))
    return path


def on_buttons(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``steps`` with each turn of the knob as as many clicks of DOWN or UP."""
    return [click for step in steps for click in (
        [{"click": "down" if step["turn"] > 0 else "up"}] * abs(step["turn"])
        if "turn" in step else [step])]


def test_pins_three_players_two_picked_with_the_knob_one_typed_with_buttons(
        tmp_path: Path) -> None:
    """The same choice with the knob (pi40) and with the UP and DOWN buttons
    (pi40-buttons): two names picked from the lists, the third typed letter by letter."""
    steps = [
        {"wait": 0.3}, {"click": "select"},  # Dalmatian (the config's)
        {"click": "select"},  # 3 players (as many as the config names)
        {"turn": 1}, {"click": "select"},  # Players
        {"turn": 2}, {"click": "select"},  # seat 1: Cy
        {"turn": -1}, {"click": "select"},  # seat 2: Ann (the cursor was on Ben)
        {"turn": -1}, {"click": "select"},  # seat 3: New player (round from the top)
    ]
    typing = [{"turn": step} if step else {"click": "select"} for step in route("Dorian")]
    for pin_map, hands in (("pi40", steps + typing),
                           ("pi40-buttons", on_buttons(steps + typing))):
        path = tmp_path / f"{pin_map}.sqlite3"
        scenario = scenarios.load(str(scenario_of(tmp_path, pin_map, [
            *hands, {"click": "select"}])), pin_map)  # and Start
        with Journal.open(path) as journal:
            play(scenario, CONFIG, journal, MockFactory(), tmp_path / pin_map, seed=1)
            state = journal.resume()
        assert state is not None and state.setup.names == ("Cy", "Ann", "Dorian"), pin_map


def test_pins_the_same_players_start_with_one_press(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        journal.start(games.new_game("dalmatian", 3, ["Cy", "Dee", "Ben"]))  # the last game
        journal.abandon()
    scenario = scenarios.load(str(scenario_of(tmp_path, "pi40", [
        {"wait": 0.3}, {"click": "select"}, {"click": "select"},  # Dalmatian, 3 players
        {"click": "select"}])), "pi40")  # one press: Start, with the same players
    with Journal.open(path) as journal:
        play(scenario, CONFIG, journal, MockFactory(), tmp_path / "out", seed=1)
        state = journal.resume()
    assert state is not None and state.setup.names == ("Cy", "Dee", "Ben")


def test_the_journal_keeps_an_id_a_seat_under_the_games_hash(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        game = new_game(target=5, names=("Ann Lee", "Ben"))
        with pytest.raises(ValueError, match="one roster id or '' a seat"):
            journal.start(game, ["Ann Lee", ""])
        with pytest.raises(ValueError):
            journal.start(game, ["ann-lee"])  # one for each seat
        journal.start(game, ["ann-lee", ""])
        play_journaled(journal, game, "roll 3", "bank", "roll 5", "bank")
        [played] = journal.finished_games()
        assert [(p.name, p.id) for p in played.players] == [("Ann Lee", "ann-lee"), ("Ben", "")]
    with closing(sqlite3.connect(path)) as db, db:  # an id changed on disk is damage
        db.execute("UPDATE games SET setup = replace(setup, 'ann-lee', 'mallory')")
    with Journal.open(path) as journal:
        assert journal.finished_games() == []
        assert "hash mismatch" in str(journal.problems[0])
