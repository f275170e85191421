"""At idle the daemon reads no pin: edges wake it, and it waits only for the timers it needs.

The daemon is the one :func:`firmware_host.daemon.assemble` builds, on gpiozero's mock pins
and a manual clock, with systemd's watchdog on. Every pin read is counted (``MockPin``'s
state getter, which the matrix's columns, the buttons and the rows all go through).
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from firmware_host.config import Config
from firmware_host.daemon import assemble
from firmware_host.journal import Journal
from firmware_host.notify import Notifier
from firmware_host.referee import Referee
from hardware.board.matrix import REST_PATROL_S
from hardware.controls.mock_table import MockTable
from hardware.events import Control, Event
from hardware.pins.clock import ManualClock

STILL = 600.0  # ten minutes between what the hands do


class Watchdog(Notifier):
    def __init__(self) -> None:
        super().__init__("@test", 30_000_000)  # pinged every 15 s
        self.pings = 0

    def send(self, *fields: str) -> None:
        self.pings += fields == ("WATCHDOG=1",)


class IdleHours:
    """The loop's queue: waiting moves the clock; once the table has been still for ten minutes,
    the next of ``hands`` acts. Counts the pin reads of each still spell after its first 10 s."""

    def __init__(self, clock: ManualClock, reads: list[int],
                 hands: list[Callable[[], None]]) -> None:
        self.clock = clock
        self.reads = reads
        self.hands = hands
        self.stop: Callable[[], None] = lambda: None
        self.still_since = clock()
        self.quiet_reads: list[int] = []
        self.acted_at: list[float] = []
        self._snapshot: int | None = None
        self._queued: list[Event | None] = []

    def put(self, item: Event | None) -> None:
        self._queued.append(item)

    def get(self, block: bool = True, timeout: float | None = None) -> Event | None:
        if self._queued:
            return self._queued.pop(0)
        assert timeout is not None, "with the watchdog on, the loop waits for its next ping"
        self.clock.advance(timeout)
        still = self.clock() - self.still_since
        if still >= 10 and self._snapshot is None:
            self._snapshot = self.reads[0]
        if still >= STILL:
            assert self._snapshot is not None
            self.quiet_reads.append(self.reads[0] - self._snapshot)
            self._snapshot = None
            self.still_since = self.clock()
            if self.hands:
                self.acted_at.append(self.clock())
            (self.hands.pop(0) if self.hands else self.stop)()
        raise queue.Empty


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    count = [0]
    state = MockPin._get_state

    def counted(pin: MockPin) -> object:
        count[0] += 1
        return state(pin)

    monkeypatch.setattr(MockPin, "_get_state", counted)
    yield count


def test_an_idle_daemon_reads_no_pin_and_what_the_hands_do_still_reaches_the_referee(
        tmp_path: Path, reads: list[int]) -> None:
    config = replace(Config(), display=None)
    factory = MockFactory()
    table = MockTable(config.pins(), factory)
    clock = ManualClock()
    handled: list[tuple[Event, float]] = []
    hands = [lambda: table.press(Control.DOWN) if config.pins().encoder is None
             else table.turn(1),
             lambda: table.press(Control.BACK),
             lambda: table.release(Control.BACK),
             lambda: table.place(2, 3),
             lambda: table.lift(2, 3)]
    events = IdleHours(clock, reads, hands)
    notifier = Watchdog()
    with ExitStack() as resources, Journal.open(tmp_path / "j.sqlite3") as journal:
        daemon = assemble(config, journal, factory, Blank(), resources, events=events,
                          clock=clock, notifier=notifier)
        referee = daemon.loop.controller
        assert isinstance(referee, Referee)
        handle = referee.handle
        referee.handle = lambda event: (  # type: ignore[method-assign]
            handled.append((event, clock())), handle(event))[1]
        events.stop = daemon.loop.stop
        daemon.loop.run()
    # still spells read no pin; the one with a piece on the board is the exception: a row
    # holding a piece cannot show a change by its columns' edges, so the matrix drives that
    # row and reads the 6 columns, then reads again, with the edges armed, the one column its
    # drive pulled low; never the 36 cells of a scan, nor the buttons. The table has been
    # still for 5 s before the count starts: forty looks a second, 7 reads each (12 when
    # every column was read again).
    looks = (STILL - 10) / REST_PATROL_S
    assert events.quiet_reads[:4] == [0, 0, 0, 0] and events.quiet_reads[5:] == [0]
    assert 0.95 * looks * 7 <= events.quiet_reads[4] <= 1.05 * looks * 7
    assert notifier.pings >= 6 * STILL / 15
    assert [type(e).__name__ for e, _at in handled] == [
        "ControlTurned", "ControlPressed", "CellChanged", "CellChanged"]
    turned, pressed = (at for _e, at in handled[:2])
    assert (turned, pressed) == tuple(events.acted_at[:2])  # no debounce wait for either


class Blank:
    """A display that keeps nothing."""

    def show(self, image: object) -> None:
        pass
