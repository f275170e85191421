"""Hostile serial devices on a real pty pair: one that never reads what the host sends, one
that floods well-formed lines, one that sends nothing but garbage. Time is handed in; the
only real waits are bounded pty reads and writes."""

from __future__ import annotations

import itertools
import logging
import os
import queue
import select
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
import serial
from PIL import Image

from firmware_host.loop import POLL_INTERVAL, DeviceLane, Loop, every
from firmware_host.notify import Notifier
from hardware.backoff import Backoff
from hardware.events import Control, ControlPressed, DeviceStatus, DiceRolled, Event
from hardware.pins.clock import ManualClock
from hardware.serial.bridge import SerialBridge
from hardware.serial.framing import encode_line

FLOOD = 100_000
LAST_THROW = encode_line(["DICE", 6, 6, 6])
DEVICE_HELLO = encode_line(["HELLO", "pico-dice", "1.0"])
PATIENCE = 600.0  # seconds of table time for the flood to pass; about 3 are needed


class Pty:
    """A pty pair: the test plays the device on ``master``; the host opens ``path``."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        os.close(slave)

    def close(self) -> None:
        os.close(self.master)


@pytest.fixture
def pty() -> Iterator[Pty]:
    made = Pty()
    yield made
    made.close()


def open_port(url: str, **options: Any) -> Any:
    return serial.serial_for_url(url, **options)


def test_a_device_that_never_reads_costs_no_wait_and_no_good_line(
        pty: Pty, caplog: pytest.LogCaptureFixture) -> None:
    """Every bad line is answered with ERR; the device reads none of them, so its input
    fills. Before, each write then waited 0.5 s and the port was dropped, losing the lines
    behind; now the replies wait (equal ones once), the extra are dropped, said once."""
    events: list[Event] = []
    bridge = SerialBridge(pty.path, events.append, open_port, lines_per_second=1e9)
    bridge.poll(0.0)  # opened (raw mode) before the device speaks
    os.set_blocking(pty.master, False)
    stream = b"".join(b"junk %d\n" % n + (encode_line(["DICE", 1 + n // 100 % 6])
                                          if n % 100 == 0 else b"")
                      for n in range(20_000))
    now = 0.0
    while stream:
        with suppress(BlockingIOError):  # the host's input is full: let it read
            stream = stream[os.write(pty.master, stream[:4096]):]
        now += 0.005
        bridge.poll(now)
    for _ in range(5):  # what is still in the host's input
        now += 0.005
        bridge.poll(now)
    assert bridge.connected
    assert bridge.bad_lines == 20_000
    assert sum(isinstance(event, DiceRolled) for event in events) == 200
    dropped = [r for r in caplog.records if "does not read what the host sends" in r.message]
    assert len(dropped) == 1
    bridge.close()


class Recorder:
    """The loop's controller: what was handled, and how full the device lane was then."""

    def __init__(self, lane: DeviceLane) -> None:
        self.lane = lane
        self.handled: list[Event] = []
        self.fullest = 0

    def handle(self, event: Event) -> None:
        self.handled.append(event)
        self.fullest = max(self.fullest, len(self.lane))

    def tick(self, now: float) -> None:
        pass

    def frame(self) -> Image.Image | None:
        return None


class TableTime:
    """The loop's queue on a manual clock: a wait moves the clock by its timeout."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.queued: deque[Event | None] = deque()

    def put(self, item: Event | None) -> None:
        self.queued.append(item)

    def get(self, block: bool = True, timeout: float | None = None) -> Event | None:
        if not self.queued:
            self.clock.advance(timeout or 0.0)
            raise queue.Empty
        return self.queued.popleft()


def test_a_flooding_device_is_throttled_and_reported_and_a_button_keeps_its_place(
        pty: Pty) -> None:
    """100,000 DICE lines, then one more throw. The button pressed in the middle of the
    flood is the very next event handled; the lane never holds more than its limit; the
    flood is reported once when it starts and once when it ends; the last throw arrives."""
    clock = ManualClock()
    lane = DeviceLane(limit=32)
    recorder = Recorder(lane)
    table = TableTime(clock)
    ports: list[Any] = []

    def opener(url: str, **options: Any) -> Any:
        ports.append(open_port(url, **options))
        return ports[-1]

    bridge = SerialBridge(pty.path, lane.put, opener, room=lane.room,
                          backoff=Backoff(0.5, 1.0))
    bridge.poll(0.0)
    os.write(pty.master, DEVICE_HELLO)  # the device answers the greeting before it floods:
    select.select([ports[-1].fileno()], [], [], 2.0)  # a slow flood must not read as silence
    bridge.poll(POLL_INTERVAL)

    def device_keeps_up(now: float) -> None:
        """While the writer runs, table time passes only once it has written something:
        a busy machine slowing the writer must not look like the flood pausing."""
        if writer.is_alive():
            select.select([ports[-1].fileno()], [], [], 2.0)
    pressed: list[int] = []  # how many events were handled when the button was pressed

    def hands(now: float) -> None:
        if not pressed and len(recorder.handled) >= 50:
            table.put(ControlPressed(Control.ROLL))
            pressed.append(len(recorder.handled))
        last = recorder.handled[-1] if recorder.handled else None
        if last == DiceRolled((6, 6, 6), "serial") or now > PATIENCE:
            loop.stop()

    loop = Loop(recorder, Frames(), Notifier(), events=table, clock=clock,
                pollers=[every(POLL_INTERVAL, poll) for poll in (device_keeps_up, bridge.poll,
                                                                  hands)], lanes=[lane])

    def flood() -> None:
        lines = [encode_line(["DICE", 1 + n % 6, 1 + n // 6 % 6]) for n in range(FLOOD)]
        data = b"".join(lines) + LAST_THROW
        while data:  # blocking writes: the host reads at its own pace
            data = data[os.write(pty.master, data[:65536]):]

    writer = threading.Thread(target=flood, daemon=True)
    writer.start()
    loop.run()
    writer.join(timeout=10)
    bridge.close()

    assert recorder.handled[-1] == DiceRolled((6, 6, 6), "serial"), "the last throw was lost"
    assert not [e for e in recorder.handled if isinstance(e, DeviceStatus) and not e.connected]
    assert pressed and recorder.handled[pressed[0]] == ControlPressed(Control.ROLL)
    assert recorder.fullest <= lane.limit
    assert bridge.dropped_lines > FLOOD * 0.9
    statuses = [e.message for e in recorder.handled if isinstance(e, DeviceStatus)]
    assert [m for m in statuses if "table can take" in m] == [
        f"serial device on {pty.path} sends more than the table can take; dropping lines"]
    calm = [m for m in statuses if "calm again" in m]
    assert len(calm) <= 1  # the last throw may come before the flood is judged over
    dice = sum(isinstance(e, DiceRolled) for e in recorder.handled)
    assert dice + bridge.dropped_lines == FLOOD + 1


def test_a_throw_just_after_a_flood_waits_its_turn_instead_of_being_dropped(pty: Pty) -> None:
    """The flood empties the throttle's bucket; the throw that follows it at once finds no
    token left, waits with the newest lines and is handled as the bucket fills again."""
    events: list[Event] = []
    bridge = SerialBridge(pty.path, events.append, open_port, lines_per_second=200)
    bridge.poll(0.0)
    os.write(pty.master, b"".join(encode_line(["DICE", 1 + n % 6]) for n in range(400)))
    for _ in range(4):  # the flood read and taken as far as the bucket allows, at one time
        select.select([pty.master], [], [], 0.2)
        bridge.poll(0.0)
    os.write(pty.master, LAST_THROW)
    select.select([pty.master], [], [], 0.2)
    now = 0.0
    while now < 2.0:
        bridge.poll(now)
        now += POLL_INTERVAL
    bridge.close()
    dice = [e for e in events if isinstance(e, DiceRolled)]
    assert dice[-1] == DiceRolled((6, 6, 6), "serial")
    assert len(dice) + bridge.dropped_lines == 401


class Frames:
    def show(self, image: Image.Image) -> None:
        pass


def test_bad_lines_are_logged_as_a_count_a_minute(
        pty: Pty, caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    events: list[Event] = []
    bridge = SerialBridge(pty.path, events.append, open_port)
    bridge.poll(0.0)
    with caplog.at_level(logging.WARNING, logger="hardware.serial.bridge"):
        now = 0.0
        for _ in range(1204):
            os.write(pty.master, b"TC1 DICE 3*00\n")
            now += 0.04
            bridge.poll(now)  # 25 bad lines a second for 48 s
        bridge.poll(61.0)
    bad = [r.getMessage() for r in caplog.records if "bad line" in r.getMessage()]
    assert bad == [
        f"serial device on {pty.path} sent a bad line b'TC1 DICE 3*00': CHECKSUM: line says "
        "00, content gives B8",
        f"1,204 bad lines from {pty.path} in the last minute (the last: CHECKSUM: line says "
        "00, content gives B8)",
    ]
    assert bridge.bad_lines == 1204
    bridge.close()


class Slow(Recorder):
    """Each event takes 10 ms of table time to handle."""

    def __init__(self, lane: DeviceLane, clock: ManualClock) -> None:
        super().__init__(lane)
        self.clock = clock
        self.at: list[float] = []

    def handle(self, event: Event) -> None:
        self.at.append(self.clock())
        self.clock.advance(0.010)
        super().handle(event)


def test_a_device_gets_at_most_half_the_loops_time_so_buttons_are_still_polled() -> None:
    clock = ManualClock()
    lane = DeviceLane()
    for face in range(1, 7):
        lane.put(DiceRolled((face,), "serial"))
    slow = Slow(lane, clock)
    polled: list[float] = []

    def poll(now: float) -> None:
        polled.append(now)
        if len(slow.handled) == 6:
            loop.stop()

    loop = Loop(slow, Frames(), Notifier(), events=TableTime(clock), clock=clock,
                pollers=[every(POLL_INTERVAL, poll)], lanes=[lane])
    loop.run()
    gaps = [later - earlier for earlier, later in itertools.pairwise(slow.at)]
    assert min(gaps) >= 0.020 - 1e-9  # 10 ms for the device, then 10 ms for the table
    between = [later - earlier for earlier, later in itertools.pairwise(polled)]
    assert max(between) <= 0.015 + 1e-9  # a poll waits at most for the event in hand
