"""The OLED wrapper: a missing panel leaves the game on the fallback view, retried on a
schedule driven only by the times handed to tick()."""

from __future__ import annotations

from PIL import Image

from hardware.backoff import Backoff
from hardware.display.factory import OledConfig, i2c_probe
from hardware.display.fallback import FallbackDisplay
from hardware.display.protocol import new_frame
from hardware.errors import DeviceMissingError
from hardware.events import DeviceStatus, Event

MISSING = "SSD1306 on I2C bus 1 at 0x3C: nothing answers"


class Screen:
    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.fail = False
        self.closed = 0

    def show(self, image: Image.Image) -> None:
        if self.fail:
            raise DeviceMissingError("SSD1306 on I2C bus 1 at 0x3C stopped answering")
        self.frames.append(image.tobytes())

    def close(self) -> None:
        self.closed += 1


class Opener:
    """Fails while ``present`` is False; counts attempts."""

    def __init__(self, panel: Screen) -> None:
        self.panel = panel
        self.present = False
        self.attempts = 0

    def __call__(self) -> Screen:
        self.attempts += 1
        if not self.present:
            raise DeviceMissingError(MISSING)
        return self.panel


def rig() -> tuple[FallbackDisplay, Opener, Screen, Screen, list[Event]]:
    panel, fallback, events = Screen(), Screen(), []
    opener = Opener(panel)
    display = FallbackDisplay(opener, fallback, events.append, Backoff(2.0, 8.0),
                              name="SSD1306 on I2C bus 1 at 0x3C")
    return display, opener, panel, fallback, events


def frame(n: int) -> Image.Image:
    image = new_frame()
    image.putpixel((n, 0), 1)
    return image


def test_a_missing_panel_is_retried_on_the_back_off_schedule() -> None:
    display, opener, panel, fallback, events = rig()
    display.tick(0.0)
    display.show(frame(1))
    assert fallback.frames == [frame(1).tobytes()] and panel.frames == []
    assert events == [DeviceStatus(
        "oled", False, f"{MISSING}; showing the screen elsewhere and retrying")]
    attempts_at = []
    for tenth in range(1, 300):  # 0.1 s steps up to 29.9 s
        before = opener.attempts
        display.tick(tenth / 10)
        if opener.attempts > before:
            attempts_at.append(tenth / 10)
    # delays 2, 4, 8, 8, 8 ... after the first attempt at 0
    assert attempts_at == [2.0, 6.0, 14.0, 22.0]
    assert len(events) == 1  # the same failure is reported once


def test_a_panel_that_appears_gets_the_current_screen_and_takes_over() -> None:
    display, opener, panel, fallback, events = rig()
    display.tick(0.0)
    display.show(frame(1))
    opener.present = True
    display.tick(1.9)
    assert not display.connected
    display.tick(2.0)
    assert display.connected
    assert panel.frames == [frame(1).tobytes()]
    assert events[-1] == DeviceStatus("oled", True, "SSD1306 on I2C bus 1 at 0x3C ready")
    display.show(frame(2))
    assert panel.frames[-1] == frame(2).tobytes()
    assert fallback.frames == [frame(1).tobytes()]


def test_a_panel_that_stops_answering_falls_back_and_is_retried_at_once() -> None:
    display, opener, panel, fallback, events = rig()
    opener.present = True
    display.tick(0.0)
    panel.fail = True
    opener.present = False
    display.show(frame(3))
    assert fallback.frames == [frame(3).tobytes()]
    assert panel.closed == 1  # the bus is released before it is opened again
    assert events[-1] == DeviceStatus(
        "oled", False,
        "SSD1306 on I2C bus 1 at 0x3C stopped answering; showing the screen elsewhere and "
        "retrying")
    display.tick(0.5)
    assert opener.attempts == 2
    panel.fail = False
    opener.present = True
    display.tick(2.4)
    assert not display.connected  # back-off: next try at 0.5 + 2
    display.tick(2.5)
    assert display.connected and panel.frames[-1] == frame(3).tobytes()
    assert [event.connected for event in events if isinstance(event, DeviceStatus)] == [
        True, False, False, True]


def test_nothing_is_opened_before_the_first_tick() -> None:
    display, opener, _panel, fallback, _events = rig()
    display.show(frame(4))
    assert opener.attempts == 0 and fallback.frames == [frame(4).tobytes()]


def test_a_panel_that_opens_but_fails_its_first_frame_is_closed_and_retried() -> None:
    display, opener, panel, _fallback, events = rig()
    display.show(frame(5))
    opener.present, panel.fail = True, True
    display.tick(0.0)
    assert not display.connected and panel.closed == 1
    assert events[-1].connected is False  # type: ignore[union-attr]
    panel.fail = False
    display.tick(2.0)
    assert display.connected and panel.frames == [frame(5).tobytes()]


def test_a_probed_panel_is_back_within_a_second_of_answering_whatever_the_outage() -> None:
    """An I2C panel is probed (its address acknowledged?) every half second while missing;
    nothing is opened meanwhile, and the back-off an hour off the bus grew to its 60 s
    ceiling does not delay it."""
    panel, fallback, events = Screen(), Screen(), []
    opener = Opener(panel)
    probes: list[float] = []
    now = 0.0

    def probe() -> bool:
        probes.append(now)
        return opener.present

    display = FallbackDisplay(opener, fallback, events.append, name="SSD1306 on I2C bus 1 "
                              "at 0x3C", probe=probe)
    display.tick(now)  # the first open fails: the panel was never there
    while now < 3600.0:
        now += 0.005
        display.tick(now)
    assert opener.attempts == 1
    assert 7000 <= len(probes) <= 7201  # twice a second, cheap
    display.show(frame(1))
    assert fallback.frames and not panel.frames
    opener.present = True
    back = now
    while not display.connected:
        now += 0.005
        display.tick(now)
    assert now - back <= 0.5 + 1e-9
    assert panel.frames == [frame(1).tobytes()]
    assert events[-1] == DeviceStatus("oled", True, "SSD1306 on I2C bus 1 at 0x3C ready")


def test_a_panel_that_answers_its_probe_but_will_not_open_keeps_the_back_off() -> None:
    panel, fallback, events = Screen(), Screen(), []
    opener = Opener(panel)
    display = FallbackDisplay(opener, fallback, events.append, Backoff(2.0, 8.0),
                              probe=lambda: True)
    tries = []
    for tenth in range(0, 300):
        before = opener.attempts
        display.tick(tenth / 10)
        if opener.attempts > before:
            tries.append(tenth / 10)
    assert tries == [0.0, 2.0, 6.0, 14.0, 22.0]


def test_an_i2c_panel_is_probed_and_an_spi_panel_cannot_be() -> None:
    assert i2c_probe(OledConfig(interface="spi")) is None
    probe = i2c_probe(OledConfig(i2c_bus=250))  # no such bus here: nothing answers
    assert probe is not None and probe() is False
