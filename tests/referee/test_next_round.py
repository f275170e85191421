"""The next round's seat on the table's own screen: the referee (offline) reads the line the
publisher wrote beside the journal, shows it between games once when it changes, and never
in the middle of a game; whatever the file holds is shown as bounded, printable text."""

from __future__ import annotations

import random
from contextlib import ExitStack
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image

from firmware_host import next_round
from firmware_host.config import Config, GameConfig, NightConfig
from firmware_host.daemon import assemble
from firmware_host.journal import Journal
from firmware_host.referee import Referee
from firmware_host.referee.timers import PAGE_S
from firmware_host.screens import render
from firmware_host.sim import scenario as scenarios
from firmware_host.sim.runner import ScriptedTime
from firmware_host.views import GameView, View
from games.core import Phase
from games.dalmatian import Dalmatian
from hardware.controls.mock_table import MockTable
from hardware.display.protocol import new_frame
from hardware.events import Control, ControlPressed
from hardware.pins.clock import ManualClock

CONFIG = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian", {"rounds": 1}))
LINE = "Next round: table 3 with Ann, Bob, Cy"


def shown(view: View) -> str | None:
    message = getattr(view, "message", None)
    if message is None and hasattr(view, "menu"):
        message = view.menu.message
    return message


def play_out(game: Dalmatian, journal: Journal) -> None:
    rng = random.Random(1)
    while not game.is_over:
        if game.phase is Phase.ROLL:
            dice = "-".join(str(rng.randint(1, 6)) for _ in range(game.dice_wanted))
            journal.apply(game, f"roll {dice}")
        else:
            journal.apply(game, str(game.legal_actions()[0]))


def test_the_seat_is_shown_between_games_once_and_never_mid_game(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    seat = next_round.beside(path)
    with Journal.open(path) as journal:
        game = Dalmatian.new(2, ["Ann", "Ben"], rounds=1)
        journal.start(game)
        referee = Referee(CONFIG, journal, game=game, render=lambda view: new_frame())
        next_round.write(seat, LINE)
        referee.tick(10.0)
        assert shown(referee.view()) != LINE, "not in the middle of a game"
        play_out(game, journal)
        due = referee.tick(11.0)
        assert isinstance(referee.view(), GameView) and shown(referee.view()) == LINE
        assert due == 11.0 + next_round.LOOK_S, "and it looks again"
        assert referee.frame() is not None
        referee.table.message = None  # a press closes it  # type: ignore[union-attr]
        referee.tick(20.0)
        assert shown(referee.view()) is None, "shown once, not again and again"
        next_round.write(seat, "Next round: table 1 with Ann, Dee\x1b[2J\u202e")
        referee.tick(30.0)
        assert shown(referee.view()) == "Next round: table 1 with Ann, Dee[2J"
        next_round.write(seat, "")
        assert not seat.exists()


def test_with_no_game_the_new_game_menu_shows_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    next_round.write(next_round.beside(path), "Next round: " + "x" * 1000)
    with Journal.open(path) as journal:
        referee = Referee(CONFIG, journal, render=lambda view: new_frame())
        referee.tick(1.0)
        message = shown(referee.view())
        assert message is not None and message.startswith("Next round: xxx")
        assert len(message) == next_round.MAX_CHARS


def test_at_a_game_nights_end_of_game_the_seat_and_the_games_code_take_turns(
        tmp_path: Path) -> None:
    """The shipped Dalmatian scenario played on mock pins through the daemon at a game
    night, the host seating the next round halfway through: once the game ends, the OLED
    shows the seat, then the game's notice with its QR code, then the seat again, a turn
    every PAGE_S, with nobody pressing; each frame is the screens' own drawing of them."""
    scenario = scenarios.load("dalmatian", "pi40-buttons")
    *steps, last = scenario.steps
    assert last.action == "wait"  # the final scores stay on the screen: long enough for two turns
    scenario = replace(scenario, steps=(*steps, replace(last, seconds=3 * PAGE_S)))
    night = NightConfig("Table 2", page="http://hub.local:8080/")
    config = Config(night=night, pin_map=scenario.map_source)
    path = tmp_path / "journal.sqlite3"
    seat = next_round.beside(path)
    clock = ManualClock()
    factory = MockFactory()
    acts, end = scenario.timeline()
    events = ScriptedTime(clock, acts, end, MockTable(scenario.pin_map, factory))
    seated_at = acts[-1].at / 2  # in the middle of the game: not shown until it ends
    sent: list[tuple[float, bytes]] = []

    class Oled:
        def show(self, image: Image.Image) -> None:
            sent.append((clock(), image.tobytes()))

        def close(self) -> None:
            pass

    def host_seats(now: float) -> float | None:
        if now < seated_at:
            return seated_at
        if not seat.exists():
            next_round.write(seat, LINE)
        return None

    with ExitStack() as resources, Journal.open(path) as journal:
        resources.callback(factory.close)
        daemon = assemble(config, journal, factory, Oled(), resources, events=events,
                          clock=clock, rng=random.Random(5), pollers=[host_seats])
        events.finished = daemon.loop.stop
        daemon.loop.run()
        referee = daemon.loop.controller
        assert isinstance(referee, Referee)
        notice = referee.pages.notice
        game_id = journal.game_id
        referee.handle(ControlPressed(Control.SELECT))
        closed = referee.view()
    assert notice is not None and notice.then == next_round.notice(LINE)
    assert notice.title == "Game over" and notice.qr == night.game_url(game_id or 0)
    seat_frame, notice_frame = render(notice.then).tobytes(), render(notice).tobytes()
    changes = [(at, frame) for (at, frame), (_, before) in pairwise(sent) if frame != before]
    times, frames = [at for at, _ in changes], [frame for _, frame in changes]
    ended = frames.index(notice_frame)
    assert times[ended] > seated_at and seat_frame not in frames[:ended], "not mid-game"
    assert frames[ended:ended + 4] == [notice_frame, seat_frame, notice_frame, seat_frame]
    assert times[ended + 1] == times[ended], "the seat is read as the game ends"
    assert times[ended + 2] - times[ended + 1] == pytest.approx(PAGE_S, abs=0.01)
    assert times[ended + 3] - times[ended + 2] == pytest.approx(PAGE_S, abs=0.01)
    assert isinstance(closed, GameView) and shown(closed) is None, \
        "one press closes both: the final position, the seat not said again over it"
