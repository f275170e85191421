"""Open the pin factory the drivers are handed: the real GPIO library, or the mock pins.

Only entry points call this; drivers never pick a factory themselves. gpiozero's own choice
tries lgpio, RPi.GPIO, pigpio and its native driver in turn and, when all fail, says only
"no pin factory", with the reasons lost in warnings. Here the libraries are tried one by one
so that the error names the real cause (no GPIO chip at all, no permission, no library), and
a fallback from the preferred library is logged with the reason it failed.
"""

from __future__ import annotations

import glob
import importlib
import logging
import os
import sys
from importlib.metadata import entry_points
from typing import Any

from hardware.errors import (
    GPIO_GROUP_FIX,
    NO_FACTORY_FIX,
    HardwarePermissionError,
    NoPinFactoryError,
    translate,
)

# config's pin_library names -> gpiozero's pin factories. pigpio is left out: it talks to a
# daemon over the network, which the service unit does not allow.
FACTORIES = {
    "lgpio": "gpiozero.pins.lgpio:LGPIOFactory",
    "rpigpio": "gpiozero.pins.rpigpio:RPiGPIOFactory",
    "native": "gpiozero.pins.native:NativeFactory",
}
# The module each library is, to say in the log which one serves and from where (the
# distribution's or the venv's).
MODULES = {"lgpio": "lgpio", "rpigpio": "RPi.GPIO"}
# How to install RPi.GPIO when the config names it: Debian's package (pip would compile it).
RPIGPIO_FIX = ("sudo apt install python3-rpi.gpio, in a venv that sees the system's packages "
               "(./run.sh's and systemd/install.sh's do)")
AUTO = "auto"
PIN_LIBRARIES = (AUTO, *FACTORIES)
"""What the config's ``pin_library`` may say; ``auto`` tries the others in this order."""

NO_CHIP = ("GPIO: there is no /dev/gpiochip*: this is not a Raspberry Pi, or the kernel has "
           "no GPIO driver; use the mock pins (--mock)")

log = logging.getLogger("table_companion.gpio")


def mock_factory() -> Any:
    """gpiozero's mock pins, pretending to be a 40-pin Pi (a Pi 3 Model B); each pin keeps
    only its recent changes (see :mod:`hardware.pins.mock`), so a long run stays small."""
    from gpiozero.pins.mock import MockFactory

    from hardware.pins.mock import ShortMemoryPin

    return MockFactory(pin_class=ShortMemoryPin)


def gpio_chips() -> list[str]:
    """The kernel's GPIO character devices; none means no GPIO driver, whatever library."""
    return sorted(glob.glob("/dev/gpiochip*"))


def open_pin_factory(library: str = AUTO) -> Any:
    """The pin factory of ``library`` (one of :data:`PIN_LIBRARIES`); ``auto`` takes the
    first of lgpio, RPi.GPIO and gpiozero's native driver that opens, and logs a warning
    saying why the ones before it did not. ``GPIOZERO_PIN_FACTORY``, when set, overrides
    the choice (the tests set it to ``mock``). Raises a one-line
    :class:`~hardware.errors.HardwareError` naming the cause."""
    forced = os.environ.get("GPIOZERO_PIN_FACTORY")
    if forced:
        return _forced(forced)
    chips = gpio_chips()
    if not chips:
        raise NoPinFactoryError(NO_CHIP)
    names = tuple(FACTORIES) if library == AUTO else (library,)
    failures: dict[str, Exception] = {}
    for name in names:
        try:
            factory = _load(name)
        except Exception as exc:
            failures[name] = exc
            continue
        if failures:
            log.warning("GPIO: using %s, not %s", name, _reasons(failures))
        log.info("GPIO: using %s%s", name, _origin(name))
        return factory
    raise _cause(chips, failures)


def _load(name: str) -> Any:
    module_name, class_name = FACTORIES[name].split(":")
    return getattr(importlib.import_module(module_name), class_name)()


def _origin(name: str) -> str:
    """Where the library ``name`` was loaded from, as `` (FILE)``; empty for gpiozero's own."""
    module = sys.modules.get(MODULES.get(name, ""))
    where = getattr(module, "__file__", None)
    return f" ({where})" if where else ""


def _forced(name: str) -> Any:
    """The pin factory registered under ``name`` (as given, else in lower case), found as
    gpiozero finds the one GPIOZERO_PIN_FACTORY names: by its package entry point."""
    from gpiozero import BadPinFactory

    try:
        found = entry_points(group="gpiozero_pin_factories")
        for wanted in (name, name.lower()):
            for entry in found.select(name=wanted):
                return entry.load()()
        raise BadPinFactory(f"Unable to find pin factory {name!r}")
    except Exception as exc:
        error = translate(exc, "GPIO")
        if error is None:
            raise
        raise NoPinFactoryError(
            f"GPIO: GPIOZERO_PIN_FACTORY={name} could not be loaded ({exc}); unset it to let "
            "pin_library in the config choose") from exc


def _reasons(failures: dict[str, Exception]) -> str:
    return "; ".join(f"{name}: {exc}" for name, exc in failures.items())


def _cause(chips: list[str], failures: dict[str, Exception]) -> Exception:
    """The one error that explains why no library opened the GPIO chip."""
    refused = [chip for chip in chips if not os.access(chip, os.R_OK | os.W_OK)]
    if refused:
        return HardwarePermissionError(f"GPIO: no permission to use {refused[0]}; {GPIO_GROUP_FIX}")
    libraries = {name: exc for name, exc in failures.items() if name != "native"}
    if libraries and all(isinstance(exc, ImportError) for exc in libraries.values()):
        missing = ", ".join(libraries)
        fix = RPIGPIO_FIX if list(libraries) == ["rpigpio"] else NO_FACTORY_FIX
        return NoPinFactoryError(f"GPIO: the pin library is not installed ({missing}): {fix}")
    for exc in failures.values():
        error = translate(exc, "GPIO")
        if error is not None and not isinstance(error, HardwarePermissionError):
            return error
    return NoPinFactoryError(f"GPIO: no pin library could open {chips[0]} "
                             f"({_reasons(failures)})")
