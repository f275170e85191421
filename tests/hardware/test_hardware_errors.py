"""Library errors become one line naming the pin or device and the fix."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero import DigitalInputDevice
from gpiozero.exc import BadPinFactory, GPIOPinInUse, PinInvalidPin
from gpiozero.pins.mock import MockFactory
from luma.core.error import DeviceNotFoundError, DevicePermissionError

from hardware.errors import (
    BadPinError,
    DeviceMissingError,
    HardwareError,
    HardwarePermissionError,
    NoPinFactoryError,
    PinInUseError,
    building,
    translate,
)
from hardware.pins.factory import mock_factory

ROOT = Path(__file__).resolve().parents[2]
GPIO_FIX = "add the user to group gpio: sudo usermod -aG gpio $USER (then log in again)"


class LgpioError(Exception):
    """Stands in for ``lgpio.error``, which only exists where lgpio is installed."""


LgpioError.__module__ = "lgpio"


@pytest.mark.parametrize(("raised", "kind", "message"), [
    (GPIOPinInUse("pin GPIO17 is already in use by <gpiozero.InputDevice object>"),
     PinInUseError,
     "dice button on GPIO17: GPIO17 is already used by another part; give each part its own "
     "pin in the pin map (table-companion wiring shows them)"),
    (LgpioError("GPIO busy"), PinInUseError,
     "dice button on GPIO17: the pin is held by another program; stop that program (gpioinfo "
     "lists the pins in use and who holds them)"),
    (PermissionError(13, "Permission denied", "/dev/gpiochip0"), HardwarePermissionError,
     f"dice button on GPIO17: no permission to use /dev/gpiochip0; {GPIO_FIX}"),
    (LgpioError("can not open gpiochip"), HardwarePermissionError,
     f"dice button on GPIO17: no permission to use /dev/gpiochip0; {GPIO_FIX}"),
    (RuntimeError("No access to /dev/mem.  Try running as root!"), HardwarePermissionError,
     f"dice button on GPIO17: no permission to use /dev/mem; {GPIO_FIX}"),
    (PinInvalidPin("GPIO99 is not a valid pin name"), BadPinError,
     "dice button on GPIO17: GPIO99 is not a valid pin name; choose another pin in the pin map"),
    (BadPinFactory("Unable to load any default pin factory!"), NoPinFactoryError,
     "dice button on GPIO17: no pin library could be loaded; on a Raspberry Pi install "
     "python3-lgpio (sudo apt install python3-lgpio) and make the venv with "
     "--system-site-packages, or pip install lgpio (adafruit-lgpio from Python 3.13; on "
     "plain Debian's 32-bit ARM: sudo apt install python3-rpi.gpio); anywhere else use the "
     "mock pins (--mock)"),
])
def test_gpio_errors_name_the_pin_and_the_fix(raised: Exception, kind: type[HardwareError],
                                              message: str) -> None:
    error = translate(raised, "dice button", [17])
    assert type(error) is kind
    assert str(error) == message


@pytest.mark.parametrize(("raised", "kind", "message"), [
    (DevicePermissionError("I2C device permission denied: /dev/i2c-1"), HardwarePermissionError,
     "OLED: no permission to use /dev/i2c-1; add the user to group i2c: "
     "sudo usermod -aG i2c $USER (then log in again)"),
    (PermissionError(13, "Permission denied", "/dev/spidev0.0"), HardwarePermissionError,
     "OLED: no permission to use /dev/spidev0.0; add the user to group spi: "
     "sudo usermod -aG spi $USER (then log in again)"),
    (DeviceNotFoundError("I2C device not found: /dev/i2c-1"), DeviceMissingError,
     "OLED: /dev/i2c-1 not found; enable I2C with sudo raspi-config (Interface Options) "
     "and reboot"),
    (DeviceNotFoundError("I2C device not found on address: 0x3C"), DeviceMissingError,
     "OLED: nothing answers at I2C address 0x3C; check the wiring and the address "
     "(i2cdetect -y 1 lists what answers)"),
])
def test_bus_errors_name_the_device_and_the_fix(raised: Exception, kind: type[HardwareError],
                                                message: str) -> None:
    error = translate(raised, "OLED")
    assert type(error) is kind
    assert str(error) == message


def test_library_errors_are_known_by_their_class_not_their_name() -> None:
    class GPIOPinInUse(Exception):  # named as gpiozero's, to be told apart from it
        pass

    class DeviceNotFoundError(Exception):  # likewise luma's
        pass

    assert translate(GPIOPinInUse("pin GPIO17 is already in use"), "dice button", [17]) is None
    assert translate(DeviceNotFoundError("I2C device not found on address: 0x3C"), "OLED") is None


def test_translating_imports_no_library() -> None:
    code = ("import sys\nfrom hardware.errors import translate\n"
            "assert translate(OSError('x'), 'OLED') is None\n"
            "print(sorted(m for m in sys.modules if m.startswith(('gpiozero', 'luma', 'lgpio'))))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    assert done.stdout == "[]\n"


def test_each_error_is_also_a_builtin() -> None:
    assert issubclass(NoPinFactoryError, ImportError)
    assert issubclass(PinInUseError, OSError)
    assert issubclass(BadPinError, ValueError)
    assert issubclass(HardwarePermissionError, PermissionError)
    assert issubclass(DeviceMissingError, FileNotFoundError)


def test_a_bug_is_not_disguised() -> None:
    assert translate(ZeroDivisionError("division by zero"), "dice button", [17]) is None
    with pytest.raises(ZeroDivisionError), building("dice button", 17):
        raise ZeroDivisionError


def test_building_turns_a_gpiozero_error_into_ours() -> None:
    factory = MockFactory()
    first = DigitalInputDevice(17, pin_factory=factory)
    with pytest.raises(PinInUseError, match=r"^hold button 1 on GPIO17: GPIO17 is already used"), \
            building("hold button 1", 17):
        DigitalInputDevice(17, pin_factory=factory)
    first.close()


def test_the_mock_factory_is_a_40_pin_pi() -> None:
    factory = mock_factory()
    assert isinstance(factory, MockFactory)
    assert factory.board_info.headers["J8"].rows == 20
