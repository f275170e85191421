"""Opening the OLED: a small config, and the one function the daemon calls at start.

Constructors elsewhere never touch hardware; :func:`open_oled` is where the I2C bus or SPI
device is opened, luma's init sequence sent, and every way that can fail turned into a
:class:`~hardware.errors.HardwareError` whose message names the device and the fix.

The luma device is built with ``persist = True``: luma registers an exit hook that switches
the panel off and clears it unless ``persist`` is set, and the score must stay readable when
the service stops or restarts.

luma (and gpiozero, for SPI's DC and reset lines) are imported when a panel is opened, not
with this module: the config names controllers and interfaces from here, and a command that
only reads the config must not pay for them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hardware.display.oled import (
    SH1106_COLUMN_OFFSET,
    PagedOled,
    SH1106Addressing,
    SSD1306Addressing,
)
from hardware.display.protocol import HEIGHT, WIDTH
from hardware.errors import DeviceMissingError, HardwareError, building

CONTROLLERS = ("ssd1306", "sh1106")
INTERFACES = ("i2c", "spi")
SPI_SPEEDS_HZ = (500_000, 1_000_000, 2_000_000, 4_000_000, 8_000_000, 16_000_000, 20_000_000)
"""Speeds luma accepts that these panels manage; 8 MHz is luma's default."""


class OledConfigError(ValueError):
    """An OLED setting out of range; the message names the setting and what it accepts.
    ``key`` is the setting (``rotate``), ``problem`` the message without its name."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"display {key} = {problem}")
        self.key = key
        self.problem = problem


@dataclass(frozen=True)
class OledConfig:
    """Which panel is fitted and how it is wired (``[display]`` in the daemon's config)."""

    controller: str = "ssd1306"
    interface: str = "i2c"
    i2c_bus: int = 1
    i2c_address: int = 0x3C
    spi_port: int = 0
    spi_device: int = 0
    spi_speed_hz: int = 8_000_000
    dc_pin: int = 24
    reset_pin: int = 25
    rotate: int = 0
    """0, or 2 for a panel mounted upside down."""

    def __post_init__(self) -> None:
        checks = [
            ("controller", self.controller in CONTROLLERS, " or ".join(CONTROLLERS)),
            ("interface", self.interface in INTERFACES, " or ".join(INTERFACES)),
            ("i2c_address", 0x03 <= self.i2c_address <= 0x77, "0x03 to 0x77 (usually 0x3C)"),
            ("rotate", self.rotate in (0, 2), "0 or 2"),
            ("spi_speed_hz", self.spi_speed_hz in SPI_SPEEDS_HZ,
             ", ".join(str(speed) for speed in SPI_SPEEDS_HZ)),
        ]
        for name, ok, allowed in checks:
            if not ok:
                value = getattr(self, name)
                shown = hex(value) if name == "i2c_address" else repr(value)
                raise OledConfigError(name, f"{shown} is not supported; use {allowed}")

    def describe(self) -> str:
        """Where the panel is, for messages: ``SSD1306 on I2C bus 1 at 0x3C``."""
        if self.interface == "i2c":
            place = f"I2C bus {self.i2c_bus} at 0x{self.i2c_address:02X}"
        else:
            place = f"SPI {self.spi_port}.{self.spi_device} (DC GPIO{self.dc_pin})"
        return f"{self.controller.upper()} on {place}"


def open_interface(
    config: OledConfig, *, smbus: Any = None, spidev: Any = None, pin_factory: Any = None
) -> Any:
    """luma's serial interface for the config; ``smbus``/``spidev``/``pin_factory`` stand in
    for the kernel devices in tests (None opens the real ones)."""
    from luma.core.interface.serial import i2c, spi

    from hardware.display.spi_lines import GpiozeroOutputs

    if config.interface == "i2c":
        return i2c(bus=smbus, port=config.i2c_bus, address=config.i2c_address)
    outputs = GpiozeroOutputs(pin_factory)
    try:
        return spi(
            spi=spidev,
            gpio=outputs,
            port=config.spi_port,
            device=config.spi_device,
            bus_speed_hz=config.spi_speed_hz,
            gpio_DC=config.dc_pin,
            gpio_RST=config.reset_pin,
        )
    except BaseException:
        outputs.cleanup()  # free DC and RST, or the next try finds them in use by us
        raise


def build_luma_device(config: OledConfig, interface: Any) -> Any:
    """luma's device for the controller; its constructor sends the init sequence and a clear."""
    from luma.oled.device import sh1106, ssd1306

    if config.controller == "ssd1306":
        device = ssd1306(interface, width=WIDTH, height=HEIGHT, rotate=config.rotate)
    else:
        device = sh1106(
            interface, width=WIDTH, height=HEIGHT, rotate=config.rotate,
            page_address_offset=SH1106_COLUMN_OFFSET,
        )
    device.persist = True  # keep the score on the panel when the service stops
    return device


def build_oled(config: OledConfig, interface: Any) -> PagedOled:
    """Initialise the panel over ``interface`` and wrap it in :class:`PagedOled`."""
    addressing = SSD1306Addressing() if config.controller == "ssd1306" else SH1106Addressing()
    return PagedOled(build_luma_device(config, interface), addressing, config.describe())


def open_oled(config: OledConfig, **backends: Any) -> PagedOled:
    """Open the panel described by ``config``; a problem a user can fix raises a
    :class:`~hardware.errors.HardwareError` (an ``OSError`` or ``ImportError`` too)."""
    where = config.describe()
    pins = (config.dc_pin, config.reset_pin) if config.interface == "spi" else ()
    try:
        with building(where, *pins):
            interface = open_interface(config, **backends)
    except ImportError as err:
        if isinstance(err, HardwareError):
            raise
        raise DeviceMissingError(
            f"{where}: the Python package {err.name} is missing; install it "
            f"(sudo apt install python3-{err.name}, or pip install {err.name})"
        ) from err
    import luma.core.error

    try:
        return build_oled(config, interface)
    except (luma.core.error.Error, OSError) as err:
        interface.cleanup()  # retries must not leak an open bus each
        raise DeviceMissingError(f"{where}: {no_answer_advice(config, err)}") from err


def i2c_probe(config: OledConfig) -> Callable[[], bool] | None:
    """For an I2C panel, whether something acknowledges its address (what ``i2cdetect``
    does: one quick write, no data, about 0.1 ms on the bus); None for SPI, where a panel
    never answers. Used while the panel is missing, to open it as soon as it is back."""
    if config.interface != "i2c":
        return None

    def answers() -> bool:
        try:
            from smbus2 import SMBus

            with SMBus(config.i2c_bus) as bus:
                bus.write_quick(config.i2c_address)
        except (OSError, ImportError):
            return False
        return True

    return answers


def no_answer_advice(config: OledConfig, err: BaseException) -> str:
    """What to check when the bus opened but the panel did not take its init sequence."""
    if config.interface == "i2c":
        return (f"nothing answers ({err}); check the wiring and the address "
                f"(sudo i2cdetect -y {config.i2c_bus} lists what answers)")
    return f"sending failed ({err}); check the wiring"
