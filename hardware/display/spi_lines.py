"""The data/command and reset lines of an SPI OLED, driven through a gpiozero pin factory.

luma's SPI interface drives DC and RST through an object shaped like the RPi.GPIO module,
and imports RPi.GPIO itself when given none; RPi.GPIO refuses to run on a Pi 5 or off a Pi.
This adapter gives luma the same few calls on gpiozero outputs, so SPI works with lgpio on
any Pi and with gpiozero's ``MockFactory`` in tests.
"""

from __future__ import annotations

from typing import Any

from gpiozero import DigitalOutputDevice


class GpiozeroOutputs:
    """The RPi.GPIO calls luma's ``bitbang``/``spi`` make: ``setup``, ``output``, ``cleanup``."""

    LOW = 0
    HIGH = 1
    OUT = "out"

    def __init__(self, pin_factory: Any = None) -> None:
        self._pin_factory = pin_factory
        self._outputs: dict[int, Any] = {}

    def setup(self, pin: int, mode: str) -> None:
        self._outputs[pin] = DigitalOutputDevice(pin, pin_factory=self._pin_factory)

    def output(self, pin: int, value: int) -> None:
        self._outputs[pin].value = 1 if value else 0

    def cleanup(self, pins: list[int] | None = None) -> None:
        for pin in list(self._outputs) if pins is None else pins:
            output = self._outputs.pop(pin, None)
            if output is not None:
                output.close()
