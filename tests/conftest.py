"""The whole suite runs on gpiozero's mock pins, on a Raspberry Pi as on a laptop.

``GPIOZERO_PIN_FACTORY=mock`` is set before any test (and so for every subprocess a test
starts): gpiozero's own default and :func:`hardware.pins.factory.open_pin_factory` both obey
it, so no test opens a real GPIO chip even where lgpio or RPi.GPIO is installed. A test that
needs the GPIO to be absent asks for the ``no_gpio`` fixture.
"""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import settings

os.environ["GPIOZERO_PIN_FACTORY"] = "mock"

# a real broker, hub, tables and browser for the night's tests (tests/night/, tests/hub/)
pytest_plugins = ("night_fixtures",)

# Property tests judge what the code does, not how fast a shared machine runs it: hypothesis's
# per-example deadline failed examples that merely waited for a busy core.
settings.register_profile("table-companion", deadline=None)
settings.load_profile("table-companion")

# the libraries, and gpiozero's modules that hold on to them once imported
PIN_LIBRARY_MODULES = ("lgpio", "RPi", "RPi.GPIO", "pigpio", "gpiozero.pins.lgpio",
                       "gpiozero.pins.rpigpio", "gpiozero.pins.pigpio")


@pytest.fixture
def no_gpio(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without GPIO: no forced factory, no /dev/gpiochip*, no pin library."""
    from hardware.pins import factory

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY")
    monkeypatch.setattr(factory, "gpio_chips", list)
    for name in PIN_LIBRARY_MODULES:
        monkeypatch.setitem(sys.modules, name, None)
