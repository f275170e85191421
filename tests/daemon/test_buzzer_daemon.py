"""The buzzer in the assembled daemon: built from the pin map, played by the referee, timed
by the loop's polls."""

from __future__ import annotations

import queue
from contextlib import ExitStack
from pathlib import Path

from gpiozero.pins.mock import MockPWMPin

from firmware_host.config import Config, GameConfig
from firmware_host.daemon import assemble
from firmware_host.journal import Journal
from firmware_host.referee import Referee
from games import new_game
from hardware.events import DiceRolled, Event, InputEdge
from hardware.pins.factory import mock_factory
from hardware.sound.buzzer import CHIRP, Buzzer


class Frames:
    def show(self, image: object) -> None:
        self.last = image

    def close(self) -> None:
        pass


def test_an_accepted_roll_chirps_on_the_pin_maps_buzzer(tmp_path: Path) -> None:
    config = Config(pin_map="pi40-track", game=GameConfig("dalmatian"))
    factory = mock_factory()
    with ExitStack() as resources, Journal.open(tmp_path / "j.sqlite3") as journal:
        resources.callback(factory.close)
        journal.start(new_game("dalmatian", 2))
        events: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
        built = assemble(config, journal, factory, Frames(), resources, events=events)
        referee = built.loop.controller
        assert isinstance(referee, Referee) and isinstance(referee.parts.sounder, Buzzer)
        sound_poll = built.loop.pollers[-1]
        assert sound_poll(50.0) is None  # silent: the buzzer never wakes an idle loop
        referee.handle(DiceRolled((6, 6, 6, 6, 5), "button"))
        referee.frame()
        assert isinstance(events.get_nowait(), InputEdge)  # the chirp asks for a poll now
        for poll in built.loop.pollers:
            poll(100.0)
        pin = factory.pin(18, pin_class=MockPWMPin)
        assert pin.state and abs(pin.frequency - CHIRP[0][0]) < 15
        for poll in built.loop.pollers:
            poll(100.0 + CHIRP[0][1])
        assert not pin.state


def test_without_a_buzzer_in_the_pin_map_there_is_none(tmp_path: Path) -> None:
    factory = mock_factory()
    with ExitStack() as resources, Journal.open(tmp_path / "j.sqlite3") as journal:
        resources.callback(factory.close)
        events: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
        built = assemble(Config(), journal, factory, Frames(), resources, events=events)
        referee = built.loop.controller
        assert isinstance(referee, Referee) and referee.parts.sounder is None
