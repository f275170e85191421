"""The configured Pixels dice in the daemon: what the scan hears goes through the throw
assembler into the device lane, polled by the loop like the serial device.

How many dice a throw takes is the referee's to say: it tells the dice button before each
throw (fewer when dice are held), and the assembler reads the same count at every poll.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack

from firmware_host.config import DiceConfig
from firmware_host.loop import DeviceLane
from hardware.dice.reader import PixelsReader, ScannerFactory
from hardware.dice.throws import SOURCE, ThrowAssembler
from hardware.events import DeviceStatus, DiceRolled, Event

POLL = 0.1  # seconds between looks at what the scan heard: a throw lands within a few


class PixelsDice:
    """The named dice's reports turned into throws and notices in ``lane``."""

    def __init__(self, settings: DiceConfig, reader: PixelsReader, lane: DeviceLane,
                 count: Callable[[], int], now: float,
                 wake_inputs: Callable[[], None] | None = None) -> None:
        self.reader = reader
        self.assembler = ThrowAssembler(settings.pixels, settings.count, now)
        self._lane = lane
        self._count = count
        self._wake = wake_inputs

    def poll(self, now: float) -> float:
        self.assembler.count = self._count() or self.assembler.count
        told: list[Event] = []
        for die, advert in self.reader.take():
            told += self.assembler.heard(die, advert, now)
        told += [DeviceStatus(SOURCE, False, problem) for problem in self.reader.problems()]
        told += self.assembler.tick(now)
        for event in told:
            if self._wake is not None and isinstance(event, DiceRolled):
                self._wake()  # hands at the table: the board's patrol looks quickly again
            self._lane.put(event)
        due = self.assembler.due()
        return now + POLL if due is None else min(now + POLL, due)


def open_pixels(settings: DiceConfig, lane: DeviceLane, make_scanner: ScannerFactory,
                resources: ExitStack, count: Callable[[], int], now: float,
                wake_inputs: Callable[[], None] | None = None) -> PixelsDice:
    """The scan for ``settings``' dice, started now and stopped with ``resources``."""
    reader = PixelsReader(make_scanner, settings.pixels)
    reader.start()
    resources.callback(reader.close)
    return PixelsDice(settings, reader, lane, count, now, wake_inputs)
