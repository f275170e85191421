"""The daemon with a serial dice reader on a real pty: absent at start, played, unplugged in
the middle of a game (the button takes over), plugged in again behind the same name.

The daemon is the one ``run`` builds (:func:`firmware_host.daemon.assemble`) on mock pins and
a manual clock; the test plays the device's end of the pty, speaking TC1. Time moves only
where the loop would wait; the only real waits are bounded ``select`` calls for pty I/O.
"""

from __future__ import annotations

import os
import queue
import random
import select
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import serial
from gpiozero.pins.mock import MockFactory
from PIL import Image

from firmware_host.config import Config, GameConfig, SerialConfig
from firmware_host.daemon import Daemon, assemble
from firmware_host.journal import Journal
from firmware_host.loop import DeviceLane
from firmware_host.referee import Referee
from firmware_host.sensing import SequenceRecogniser
from firmware_host.views import GameView, MenuView
from games.core import Phase
from games.dalmatian import Dalmatian
from games.sequence import SequenceDice
from hardware.controls.mock_table import MockTable
from hardware.events import (
    CellChanged,
    Control,
    ControlPressed,
    DiceRolled,
    Event,
    InputEdge,
)
from hardware.pins.clock import ManualClock
from hardware.serial.framing import encode_line

IO_WAIT = 2.0  # seconds a pty may take to pass bytes along; never reached when all is well
PATIENCE = 120.0  # seconds of table time a step may take to show its effect
DEVICE_HELLO = encode_line(["HELLO", "pico-dice", "1.0"])

Wait = tuple[str, Callable[[], bool], float | None]
"""What a script step waits for: a description, a condition, and how far the clock moves
per loop wait meanwhile (None: as far as the loop asks, 5 ms)."""


class PtyDevice:
    """The device end of a pty pair, reached through a symlink that is repointed when it is
    plugged in again, as udev keeps a /dev/serial/by-id name for a USB serial device."""

    def __init__(self, link: Path) -> None:
        self.master, slave = os.openpty()
        path = os.ttyname(slave)
        os.close(slave)
        link.unlink(missing_ok=True)
        link.symlink_to(path)

    def send(self, *words: str | int) -> None:
        os.write(self.master, encode_line(list(words)))

    def receive(self) -> bytes:
        assert select.select([self.master], [], [], IO_WAIT)[0], "the host sent nothing"
        return os.read(self.master, 4096)

    def unplug(self) -> None:
        os.close(self.master)


class Table:
    """The loop's event queue, and the script's hands: while no event waits, the clock
    moves on and the script takes its next step once the last one has had its effect."""

    def __init__(self, clock: ManualClock, script: Iterator[Wait], stop: Callable[[], None]):
        self.clock = clock
        self.script = script
        self.stop = stop
        self.queued: deque[Event | None] = deque()
        self.taken: list[Event] = []
        self.waiting: Wait | None = None
        self.deadline = 0.0

    def put(self, item: Event | None) -> None:
        self.queued.append(item)

    def get(self, block: bool = True, timeout: float | None = None) -> Event | None:
        if not self.queued:
            step = self.waiting[2] if self.waiting else None
            self.clock.advance(step or timeout or 0.0)
            self._resume()
        if not self.queued:
            raise queue.Empty
        event = self.queued.popleft()
        if event is not None:
            self.taken.append(event)
        return event

    def _resume(self) -> None:
        while self.waiting is None or self.waiting[1]():
            try:
                self.waiting = next(self.script)
            except StopIteration:
                self.waiting = ("the end", lambda: False, None)
                self.stop()
                return
            self.deadline = self.clock() + PATIENCE
        if self.clock() > self.deadline:
            raise AssertionError(f"waited {PATIENCE} s of table time for {self.waiting[0]}")


class Taken(DeviceLane):
    """The daemon's device lane, recording what the loop takes from it into ``taken``."""

    def __init__(self, inner: DeviceLane, taken: list[Event]) -> None:
        super().__init__(inner.limit)
        self.inner = inner
        self.taken = taken

    def take(self) -> Event | None:
        event = self.inner.take()
        if event is not None:
            self.taken.append(event)
        return event

    def __len__(self) -> int:
        return len(self.inner)


class Frames:
    """The screen: counts frames (the referee's views are read directly)."""

    def __init__(self) -> None:
        self.shown = 0

    def show(self, image: Image.Image) -> None:
        self.shown += 1


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    made = MockFactory()
    yield made
    made.close()


def test_serial_dice_survive_an_unplugged_device_and_a_new_pty(
    tmp_path: Path, factory: MockFactory
) -> None:
    link = tmp_path / "ttyTC"  # the configured port; no device behind it yet
    config = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian", {"rounds": 1}),
                    journal=tmp_path / "journal.sqlite3", display=None,
                    serial=SerialConfig(port=str(link), dice=True))
    clock = ManualClock()
    table = MockTable(config.pins(), factory)  # before the drivers claim the pins
    ports: list[Any] = []

    def opener(url: str, **options: Any) -> Any:
        ports.append(serial.serial_for_url(url, **options))
        return ports[-1]

    def host_has_read() -> None:
        """Bounded wait until what the device wrote can be read by the host's port."""
        assert select.select([ports[-1].fileno()], [], [], IO_WAIT)[0], "nothing arrived"

    played: list[str] = []  # the dice each accepted roll was told to be, as the test sent them

    def referee() -> Referee:
        controller = daemon.loop.controller
        assert isinstance(controller, Referee)
        return controller

    def game() -> Dalmatian:
        state = referee().game
        assert isinstance(state, Dalmatian)
        return state

    def message() -> str:
        view = referee().view()
        assert isinstance(view, (GameView, MenuView)), view
        return view.message or ""

    def moves() -> int:
        return len(game().history)

    def wakes() -> int:
        return sum(isinstance(event, InputEdge) for event in table_time.taken)

    def serial_dice(device: PtyDevice, *dice: int) -> Iterator[Wait]:
        before, woken = moves(), wakes()
        device.send("DICE", *dice)
        host_has_read()
        played.append("roll " + "-".join(map(str, dice)))
        yield (f"serial dice {dice} played", lambda: moves() > before, None)
        assert wakes() > woken  # hands at the table: the inputs were woken (the patrol too)

    def elapse(seconds: float) -> Iterator[Wait]:
        until = clock() + seconds
        yield (f"{seconds} s to pass", lambda: clock() >= until, None)

    def button_roll() -> Iterator[Wait]:
        before = moves()
        table.press(Control.ROLL)
        yield from elapse(0.1)  # longer than the debounce, shorter than a long press
        table.release(Control.ROLL)
        yield ("the button's dice played", lambda: moves() > before, None)

    def script() -> Iterator[Wait]:
        # absent at start: not fatal, and the screen says so
        yield ("no device reported", lambda: "cannot be opened" in message(), None)
        assert daemon.serial is not None and not daemon.serial.connected
        for _ in range(4):  # the first closes the message; Dalmatian, for two: start it
            daemon.loop.emit(ControlPressed(Control.SELECT))
        yield ("the game started", lambda: isinstance(referee().game, Dalmatian), None)

        device = PtyDevice(link)
        yield ("the port opened after the back-off", lambda: ports != [], 0.1)
        assert b"HELLO table-companion" in device.receive()
        device.send("HELLO", "pico-dice", "1.0")
        host_has_read()
        yield ("the device reported", lambda: message() == f"pico-dice 1.0 on {link}", None)
        yield from serial_dice(device, 6, 6, 6, 6, 6)  # Ann opens
        yield from serial_dice(device, 1, 1, 1, 1, 1)  # Ben: Ann starts the round
        yield from serial_dice(device, 3, 3)  # the starting total

        device.unplug()
        host_has_read()  # the hang-up
        yield ("the loss reported", lambda: "vanished" in message(), None)
        assert not daemon.serial.connected and message().startswith(
            f"serial device on {link} vanished (")
        yield from button_roll()  # the game goes on with the button
        played.append(str(game().history[-1]))

        device = PtyDevice(link)  # plugged in again: a new pty behind the same name
        opened = len(ports)
        yield ("the port reopened after the back-off", lambda: len(ports) > opened, 0.1)
        assert b"HELLO table-companion" in device.receive()
        device.send("HELLO", "pico-dice", "1.0")
        host_has_read()
        yield ("the device reported again", lambda: daemon.serial is not None
               and daemon.serial.device is not None, None)
        roller = referee().parts.roller
        assert roller is not None
        if game().phase is Phase.MOVE:  # a throw now rerolls every die (none is held)
            played.append(f"reroll {'-'.join(map(str, game().dice))}")
        yield from serial_dice(device, *[2] * roller.count)
        device.unplug()

    with ExitStack() as resources:
        journal = resources.enter_context(Journal.open(config.journal))
        table_time = Table(clock, script(), lambda: daemon.loop.stop())
        daemon: Daemon = assemble(config, journal, factory, Frames(), resources,
                                  events=table_time, clock=clock, rng=random.Random(7),
                                  serial_opener=opener)
        daemon.loop.run()
        history = [str(action) for action in game().history]
    assert history == played
    with Journal.open(config.journal) as reopened:  # every accepted action was committed
        resumed = reopened.resume()
        assert resumed is not None and [str(a) for a in resumed.history] == history
    assert daemon.serial is not None and daemon.serial.bad_lines == 0


class FakePort:
    """A device that is always there: the test puts its bytes in ``incoming``."""

    def __init__(self) -> None:
        self.incoming = bytearray()

    def read(self, size: int) -> bytes:
        chunk, self.incoming = bytes(self.incoming[:size]), self.incoming[size:]
        return chunk

    def write(self, data: bytes) -> int:
        return len(data)

    def close(self) -> None:
        pass


def test_a_serial_board_replaces_the_reed_matrix_and_its_dice_are_left_out(
    tmp_path: Path, factory: MockFactory
) -> None:
    config = Config(journal=tmp_path / "journal.sqlite3", display=None,
                    serial=SerialConfig(port="/dev/ttyACM0", board=True, dice=False))
    game = SequenceDice.replay(SequenceDice.new(3).setup, [
        "roll 6-6", "roll 1-1", "roll 1-1", "roll 3-4", "place B2", "roll 3-4", "place E2"])
    chips = SequenceRecogniser().expected(game)
    rows = [f"{sum(1 << col for (row, col) in chips if row == r):X}" for r in range(6)]
    clock = ManualClock()
    table = MockTable(config.pins(), factory)
    port = FakePort()

    def referee() -> Referee:
        controller = daemon.loop.controller
        assert isinstance(controller, Referee)
        return controller

    def script() -> Iterator[Wait]:
        assert daemon.serial is not None and referee().parts.board == daemon.serial.occupied
        assert len(referee().table.fixes) == len(chips)  # resumed: the chips are not back yet
        table.place(5, 5)  # a magnet on the unused reed matrix is never scanned
        until = clock() + 0.5
        yield ("the matrix's debounce", lambda: clock() >= until, None)
        port.incoming += (encode_line(["HELLO", "pico-board", "1.0"])
                          + encode_line(["DICE", 3, 3]) + encode_line(["BOARD", 6, 6, *rows]))
        yield ("the board put right", lambda: referee().table.fixes == (), None)

    with ExitStack() as resources:
        journal = resources.enter_context(Journal.open(config.journal))
        journal.start(game)
        table_time = Table(clock, script(), lambda: daemon.loop.stop())
        daemon = assemble(config, journal, factory, Frames(), resources, events=table_time,
                          clock=clock, serial_opener=lambda url, **options: port)
        daemon.loop.lanes = tuple(Taken(lane, table_time.taken) for lane in daemon.loop.lanes)
        daemon.loop.run()
    cells = [event for event in table_time.taken if isinstance(event, CellChanged)]
    assert sorted((event.row, event.col) for event in cells) == sorted(chips)
    assert not any(isinstance(event, DiceRolled) for event in table_time.taken)
