"""Open the pin factory the drivers are handed: the real GPIO library, or the mock pins.

Only entry points call this; drivers never pick a factory themselves. gpiozero tries lgpio,
RPi.GPIO, pigpio and its native driver in turn and, when all fail, raises ``BadPinFactory``
with nothing but warnings to say why. Here those reasons are collected so that a missing
permission reads as one and not as "no pin factory".
"""

from __future__ import annotations

import warnings
from typing import Any

from hardware.errors import NO_FACTORY_FIX, NoPinFactoryError, translate

PERMISSION_HINTS = ("permission denied", "can not open gpiochip", "/dev/mem", "/dev/gpiomem")


def mock_factory() -> Any:
    """gpiozero's mock pins, pretending to be a 40-pin Pi (a Pi 3 Model B); each pin keeps
    only its recent changes (see :mod:`hardware.pins.mock`), so a long run stays small."""
    from gpiozero.pins.mock import MockFactory

    from hardware.pins.mock import ShortMemoryPin

    return MockFactory(pin_class=ShortMemoryPin)


def open_pin_factory() -> Any:
    """The first GPIO library that loads, as gpiozero would choose it (GPIOZERO_PIN_FACTORY
    is honoured); raises a one-line :class:`~hardware.errors.HardwareError` otherwise."""
    from gpiozero import Device

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            return Device._default_pin_factory()
        except Exception as exc:
            reasons = [str(warning.message) for warning in caught]
            denied = [r for r in reasons if any(hint in r.lower() for hint in PERMISSION_HINTS)]
            error = translate(PermissionError(denied[0]) if denied else exc, "GPIO")
            if isinstance(error, NoPinFactoryError):
                error = NoPinFactoryError(
                    f"GPIO: no pin library could be loaded ({'; '.join(reasons) or exc}); "
                    f"{NO_FACTORY_FIX}")
            if error is None:
                raise
            raise error from exc
