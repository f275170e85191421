"""Choosing the GPIO library: the tests' mock pins win, the cause of a failure is named, and a
fallback is logged with its reason."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_host.config import ConfigError, parse
from hardware.errors import HardwarePermissionError, NoPinFactoryError
from hardware.pins import factory
from hardware.pins.factory import NO_CHIP, open_pin_factory

# Enough of lgpio for gpiozero's LGPIOFactory to open "the chip"; every open is written down.
FAKE_LGPIO = '''
import os
SET_PULL_NONE = SET_PULL_UP = SET_PULL_DOWN = 0
BOTH_EDGES, RISING_EDGE, FALLING_EDGE = 3, 1, 2
error = OSError

def gpiochip_open(chip):
    with open(os.environ["FAKE_LGPIO_LOG"], "a") as log:
        log.write(f"opened gpiochip{chip}\\n")
    return 7

def gpiochip_close(handle):
    pass
'''


@pytest.fixture
def real_looking_lgpio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """lgpio importable, a GPIO chip present and a Pi's revision: a Pi, as far as gpiozero
    can tell. Returns the file each opening of the chip is written to."""
    library = tmp_path / "site"
    library.mkdir()
    (library / "lgpio.py").write_text(FAKE_LGPIO)
    opened = tmp_path / "opened"
    monkeypatch.setenv("FAKE_LGPIO_LOG", str(opened))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(library), *sys.path]))
    monkeypatch.syspath_prepend(str(library))
    before = {name: sys.modules.pop(name, None) for name in ("lgpio", "gpiozero.pins.lgpio")}
    chip = tmp_path / "gpiochip0"
    chip.touch()
    monkeypatch.setattr(factory, "gpio_chips", lambda: [str(chip)])
    import gpiozero.pins.local

    monkeypatch.setattr(gpiozero.pins.local, "get_pi_revision", lambda: 0xA02082)
    yield opened
    for name, module in before.items():  # gpiozero's lgpio pins must not keep the fake
        sys.modules.pop(name, None)
        if module is not None:
            sys.modules[name] = module


def test_the_suite_uses_mock_pins_even_where_a_pin_library_is_installed(
        real_looking_lgpio: Path) -> None:
    assert isinstance(open_pin_factory(), MockFactory)
    assert isinstance(open_pin_factory("lgpio"), MockFactory)
    assert not real_looking_lgpio.exists()


def test_a_subprocess_of_a_test_uses_mock_pins_too(real_looking_lgpio: Path) -> None:
    probe = ("from gpiozero import LED, Device; LED(17); "
             "print(type(Device.pin_factory).__name__)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=60, check=True)
    assert result.stdout == "MockFactory\n"
    assert not real_looking_lgpio.exists()


def test_without_the_override_the_fake_library_would_be_opened(
        real_looking_lgpio: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the tests above guard against: the fake passes for the real thing."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY")
    opened = open_pin_factory()
    try:
        assert type(opened).__name__ == "LGPIOFactory"
    finally:
        opened.close()
    assert real_looking_lgpio.read_text() == "opened gpiochip0\n"


def test_no_gpio_chip_means_not_a_pi(no_gpio: None) -> None:
    with pytest.raises(NoPinFactoryError) as caught:
        open_pin_factory()
    assert str(caught.value) == NO_CHIP
    assert "not a Raspberry Pi" in NO_CHIP and "--mock" in NO_CHIP and "\n" not in NO_CHIP


def test_a_chip_the_user_may_not_open_reads_as_a_permission_problem(
        no_gpio: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chip = tmp_path / "gpiochip0"
    chip.touch()
    monkeypatch.setattr(factory, "gpio_chips", lambda: [str(chip)])
    monkeypatch.setattr(factory.os, "access", lambda path, mode: path != str(chip))
    with pytest.raises(HardwarePermissionError) as caught:
        open_pin_factory()
    assert str(caught.value) == (
        f"GPIO: no permission to use {chip}; add the user to group gpio: "
        "sudo usermod -aG gpio $USER (then log in again)")


def test_a_missing_library_names_the_package(
        no_gpio: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chip = tmp_path / "gpiochip0"
    chip.touch()
    monkeypatch.setattr(factory, "gpio_chips", lambda: [str(chip)])
    with pytest.raises(NoPinFactoryError) as caught:
        open_pin_factory("lgpio")
    text = str(caught.value)
    assert text.startswith("GPIO: the pin library is not installed (lgpio): ")
    assert "sudo apt install python3-lgpio" in text and "pip install lgpio" in text


def test_a_fallback_is_logged_with_its_reason(
        no_gpio: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    chip = tmp_path / "gpiochip0"
    chip.touch()
    monkeypatch.setattr(factory, "gpio_chips", lambda: [str(chip)])
    monkeypatch.setitem(factory.FACTORIES, "rpigpio", "gpiozero.pins.mock:MockFactory")
    with caplog.at_level(logging.WARNING):
        assert isinstance(open_pin_factory(), MockFactory)
    assert [r.getMessage().split(": ", 2)[:2] for r in caplog.records] == [
        ["GPIO", "using rpigpio, not lgpio"]]
    assert "lgpio" in caplog.records[0].getMessage().split(": ", 2)[2]


# Enough of RPi.GPIO (Debian's python3-rpi.gpio) for gpiozero's RPiGPIOFactory to start.
FAKE_RPI_GPIO = """
BCM, IN, OUT, I2C, SPI, HARD_PWM, SERIAL, UNKNOWN = 11, 1, 0, 42, 41, 43, 40, -1
PUD_OFF, PUD_DOWN, PUD_UP, RISING, FALLING, BOTH = 20, 21, 22, 31, 32, 33
modes = []

def setmode(mode):
    modes.append(mode)

def setwarnings(flag):
    pass

def cleanup():
    pass
"""


def test_rpigpio_alone_serves_when_the_config_names_it_and_the_log_says_so(
        no_gpio: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A system whose only GPIO library is the distribution's RPi.GPIO (plain Debian's 32-bit
    ARM with Python 3.13): pin_library = "rpigpio" opens it; the log names it and its file."""
    package = tmp_path / "site" / "RPi"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "GPIO.py").write_text(FAKE_RPI_GPIO)
    chip = tmp_path / "gpiochip0"
    chip.touch()
    monkeypatch.setattr(factory, "gpio_chips", lambda: [str(chip)])
    for name in ("RPi", "RPi.GPIO", "gpiozero.pins.rpigpio"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    with caplog.at_level(logging.INFO, logger="table_companion.gpio"):
        opened = open_pin_factory("rpigpio")
    try:
        assert type(opened).__name__ == "RPiGPIOFactory"
        assert sys.modules["RPi.GPIO"].modes == [11]  # type: ignore[attr-defined]
    finally:
        opened.close()
        monkeypatch.delitem(sys.modules, "gpiozero.pins.rpigpio")
    assert [r.getMessage() for r in caplog.records] == [
        f"GPIO: using rpigpio ({package / 'GPIO.py'})"]


def test_rpigpio_missing_names_debians_package(
        no_gpio: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chip = tmp_path / "gpiochip0"
    chip.touch()
    monkeypatch.setattr(factory, "gpio_chips", lambda: [str(chip)])
    with pytest.raises(NoPinFactoryError) as caught:
        open_pin_factory("rpigpio")
    assert str(caught.value) == (
        "GPIO: the pin library is not installed (rpigpio): sudo apt install python3-rpi.gpio, "
        "in a venv that sees the system's packages (./run.sh's and systemd/install.sh's do)")


def test_an_unknown_forced_factory_says_how_to_undo_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-library")
    with pytest.raises(NoPinFactoryError) as caught:
        open_pin_factory()
    assert str(caught.value) == (
        "GPIO: GPIOZERO_PIN_FACTORY=no-such-library could not be loaded (Unable to find pin "
        "factory 'no-such-library'); unset it to let pin_library in the config choose")


def test_the_config_names_the_pin_library(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert parse("", path).pin_library == "auto"
    assert parse('pin_library = "rpigpio"\n', path).pin_library == "rpigpio"
    with pytest.raises(ConfigError) as caught:
        parse('players = ["Ann"]\npin_library = "pigpio"\n', path)
    assert str(caught.value) == (
        f'{path}, line 2: pin_library: "pigpio" is not allowed: '
        "allowed auto | lgpio | rpigpio | native")
