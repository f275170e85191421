"""Every error the hardware layer raises on purpose, and the translation of library errors.

Each error also inherits a built-in (like gpiozero's ``BadPinFactory(GPIOZeroError,
ImportError)``) so callers that know nothing of this package can still catch it. Each message
is one line for the console and the screen: it names the pin or device and says what to do.
Drivers build their gpiozero devices inside :func:`building`, which turns gpiozero's, lgpio's
and luma's exceptions into these.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

GPIO_GROUP_FIX = "add the user to group gpio: sudo usermod -aG gpio $USER (then log in again)"
NO_FACTORY_FIX = (
    "on a Raspberry Pi install python3-lgpio (sudo apt install python3-lgpio) and make the "
    "venv with --system-site-packages, or pip install lgpio (adafruit-lgpio from Python "
    "3.13; on plain Debian's 32-bit ARM: sudo apt install python3-rpi.gpio); anywhere else "
    "use the mock pins (--mock)"
)


class HardwareError(Exception):
    """Base of everything ``hardware`` raises on purpose; the message is one line."""


class NoPinFactoryError(HardwareError, ImportError):
    """No GPIO library could be loaded (not a Pi, or lgpio/RPi.GPIO missing)."""


class PinInUseError(HardwareError, OSError):
    """A pin is already claimed, by another device of ours or by another program."""


class BadPinError(HardwareError, ValueError):
    """A pin this board does not have, or one that cannot do what was asked of it."""


class HardwarePermissionError(HardwareError, PermissionError):
    """The user may not open the GPIO chip, the I2C bus or the SPI device."""


class DeviceMissingError(HardwareError, FileNotFoundError):
    """A bus or device node is absent (I2C or SPI not enabled, nothing at the address)."""


class WiringError(HardwareError, ValueError):
    """A pin map that cannot be wired: a pin used twice, a bus pin reused, a bad number."""


def _pins_text(pins: Sequence[int]) -> str:
    return ", ".join(f"GPIO{pin}" for pin in pins)


def _node_and_group(text: str) -> tuple[str, str]:
    """The device node a library message is about, and the group that grants access to it."""
    # the node's name ends with a word character: "/dev/mem." in RPi.GPIO's message ends a
    # sentence, "/dev/spidev0.0" does not
    node = re.search(r"/dev/(i2c|spidev|gpiochip|gpiomem|mem)(?:[-\w.]*\w)?", text)
    if node:
        kind = node.group(1)
        return node.group(0), "i2c" if kind == "i2c" else "spi" if kind == "spidev" else "gpio"
    lowered = text.lower()
    if "i2c" in lowered:
        return "the I2C bus", "i2c"
    if "spi" in lowered:
        return "the SPI bus", "spi"
    return "/dev/gpiochip0", "gpio"


def _library(module: str, *names: str) -> tuple[type[BaseException], ...]:
    """The exception classes ``names`` of ``module``, for ``isinstance``; none while the module
    is not loaded, as no exception of it can then have been raised (so nothing is imported
    here: the library may be absent, and importing ``hardware`` stays cheap)."""
    loaded = sys.modules.get(module)
    return tuple(getattr(loaded, name) for name in names) if loaded is not None else ()


GPIOZERO = "gpiozero.exc"
LUMA = "luma.core.error"


def translate(exc: BaseException, device: str, pins: Sequence[int] = ()) -> HardwareError | None:
    """The :class:`HardwareError` that explains ``exc`` raised while building ``device``.

    ``None`` when ``exc`` is not a hardware problem a user can fix (a bug stays a bug).
    """
    if isinstance(exc, HardwareError):
        return exc
    text = str(exc)
    where = f"{device} on {_pins_text(pins)}" if pins else device
    if isinstance(exc, _library(GPIOZERO, "BadPinFactory")):
        return NoPinFactoryError(f"{where}: no pin library could be loaded; {NO_FACTORY_FIX}")
    if isinstance(exc, _library(GPIOZERO, "GPIOPinInUse")):
        pin = re.search(r"pin (\S+) is already in use", text)
        name = pin.group(1) if pin else _pins_text(pins)
        return PinInUseError(
            f"{where}: {name} is already used by another part; give each part its own pin "
            "in the pin map (table-companion wiring shows them)")
    if isinstance(exc, _library(GPIOZERO, "PinInvalidPin", "PinFixedPull", "PinInvalidFunction",
                                "PinPWMUnsupported")):
        return BadPinError(f"{where}: {text}; choose another pin in the pin map")
    # lgpio may be absent: its errors are known by their module, and told apart by text
    if type(exc).__module__.split(".")[0] == "lgpio" and "busy" in text.lower():
        return PinInUseError(
            f"{where}: the pin is held by another program; stop that program (gpioinfo "
            "lists the pins in use and who holds them)")
    if (isinstance(exc, (PermissionError, *_library(LUMA, "DevicePermissionError")))
            or "/dev/mem" in text or "can not open gpiochip" in text):
        node, group = _node_and_group(text)
        return HardwarePermissionError(
            f"{where}: no permission to use {node}; add the user to group {group}: "
            f"sudo usermod -aG {group} $USER (then log in again)")
    not_found = _library(LUMA, "DeviceNotFoundError")
    if isinstance(exc, not_found) and "address" in text:
        address = text.rsplit(" ", 1)[-1]
        return DeviceMissingError(
            f"{where}: nothing answers at I2C address {address}; check the wiring and the "
            "address (i2cdetect -y 1 lists what answers)")
    if isinstance(exc, (FileNotFoundError, *not_found)):
        node, group = _node_and_group(text)
        return DeviceMissingError(
            f"{where}: {node} not found; enable {group.upper()} with sudo raspi-config "
            "(Interface Options) and reboot")
    return None


@contextmanager
def building(device: str, *pins: int) -> Iterator[None]:
    """Build ``device`` on ``pins``; a library error a user can fix becomes a HardwareError."""
    try:
        yield
    except Exception as exc:
        error = translate(exc, device, pins)
        if error is None or error is exc:
            raise
        raise error from exc
