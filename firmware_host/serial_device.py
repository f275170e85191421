"""The configured serial device in the daemon: a :class:`~hardware.serial.bridge.SerialBridge`
whose events reach the queue only for what ``[serial]`` says the device provides.

A board scanner that also reports dice it should not (or a dice reader that sends an empty
BOARD after HELLO) must not play moves nobody asked it for, so the filter sits between the
bridge and the queue rather than in the referee, which cannot tell one source from another.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import ExitStack

from firmware_host.config import SerialConfig
from firmware_host.loop import DeviceLane
from hardware.events import CellChanged, DiceRolled, Event
from hardware.pins.driver_types import Emit
from hardware.serial.bridge import Opener, SerialBridge

log = logging.getLogger(__name__)


def provided(settings: SerialConfig, emit: Emit) -> Emit:
    """``emit``, dropping dice when the device is not the dice and cells when it is not the
    board; status reports always pass."""

    def keep(event: Event) -> None:
        match event:
            case DiceRolled(dice=dice) if not settings.dice:
                log.info("serial dice %s ignored: the config says dice = false", dice)
            case CellChanged() if not settings.board:
                log.debug("serial cell %s,%s ignored: the config says board = false",
                          event.row, event.col)
            case _:
                emit(event)

    return keep


def open_serial(settings: SerialConfig, lane: DeviceLane, opener: Opener,
                resources: ExitStack,
                wake_inputs: Callable[[], None] | None = None) -> SerialBridge:
    """The bridge to ``settings.port`` putting its events in ``lane``, taking no more lines
    than the lane has room for, closed with ``resources``. Nothing is opened yet: the first
    poll opens the port, and a device that is absent is opened as soon as its node is back.

    ``wake_inputs`` is called for every throw the device reports: hands are at the table, so the
    board's patrol looks quickly again, as after a throw of the button."""

    def put(event: Event) -> None:
        if wake_inputs is not None and isinstance(event, DiceRolled):
            wake_inputs()
        lane.put(event)

    bridge = SerialBridge(settings.port, provided(settings, put), opener,
                          baudrate=settings.baud, room=lane.room)
    resources.callback(bridge.close)
    return bridge
