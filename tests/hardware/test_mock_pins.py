"""The mock pins the simulator and ``--mock`` runs use forget old level changes."""

from __future__ import annotations

from gpiozero import DigitalOutputDevice

from hardware.pins.factory import mock_factory
from hardware.pins.mock import HISTORY, ShortMemoryPin


def test_the_mock_factory_pins_keep_only_recent_changes() -> None:
    factory = mock_factory()
    try:
        row = DigitalOutputDevice(7, active_high=False, initial_value=False,
                                  pin_factory=factory)
        pin = factory.pin(7)
        assert isinstance(pin, ShortMemoryPin)
        for _ in range(HISTORY):  # what a matrix scan does to a row pin, many times over
            row.on()
            row.off()
        assert len(pin.states) == HISTORY
        assert pin.states[-1].state is True  # active low: off is high
        row.close()
    finally:
        factory.close()


def test_a_short_sequence_still_asserts() -> None:
    factory = mock_factory()
    try:
        device = DigitalOutputDevice(18, initial_value=False, pin_factory=factory)
        pin = factory.pin(18)
        pin.clear_states()
        device.on()
        device.off()
        pin.assert_states([False, True, False])
        device.close()
    finally:
        factory.close()
