"""The serial bridge over a fake port, ``loop://`` and a real pty pair: events, bad lines,
and a device that vanishes and comes back, with time handed in by the test."""

from __future__ import annotations

import logging
import os
import select
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.backoff import Backoff
from hardware.events import CellChanged, DeviceStatus, DiceRolled, Event
from hardware.reopen import CHECK_S
from hardware.serial.bridge import SerialBridge
from hardware.serial.framing import crc8, encode_line

HOST_GREETING = encode_line(["HELLO", "table-companion", version("table-companion")]) \
    + encode_line(["SNAP"])
DEVICE_HELLO = encode_line(["HELLO", "pico-board", "1.0"])


class FakePort:
    """An in-memory port: the test puts device bytes in ``incoming`` and reads ``sent``."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.sent = bytearray()
        self.gone = False

    def read(self, size: int) -> bytes:
        if self.gone:
            raise serial.SerialException("device reports readiness to read but returned no data")
        chunk, self.incoming = bytes(self.incoming[:size]), self.incoming[size:]
        return chunk

    def write(self, data: bytes) -> int:
        self.sent += data
        return len(data)

    def close(self) -> None:
        pass


class FakeOpener:
    def __init__(self) -> None:
        self.ports: list[FakePort] = []
        self.present = True  # the device opens
        self.node = True  # its device node exists
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, url: str, **options: Any) -> FakePort:
        self.calls.append((url, options))
        if not self.present:
            raise serial.SerialException(f"could not open port {url}: No such file")
        self.ports.append(FakePort())
        return self.ports[-1]


def fake_bridge() -> tuple[SerialBridge, FakeOpener, list[Event]]:
    events: list[Event] = []
    opener = FakeOpener()
    bridge = SerialBridge("/dev/ttyACM0", events.append, opener, backoff=Backoff(0.5, 4.0),
                          exists=lambda _: opener.node)
    return bridge, opener, events


def test_opening_greets_the_device_and_its_hello_reports_it() -> None:
    bridge, opener, events = fake_bridge()
    bridge.poll(0.0)
    assert opener.calls == [("/dev/ttyACM0", {"baudrate": 115200, "timeout": 0,
                                              "write_timeout": 0, "exclusive": True})]
    port = opener.ports[0]
    assert bytes(port.sent) == HOST_GREETING
    port.incoming += DEVICE_HELLO
    bridge.poll(0.1)
    assert events == [DeviceStatus("serial", True, "pico-board 1.0 on /dev/ttyACM0")]


def test_dice_cells_and_snapshots_become_events() -> None:
    bridge, opener, events = fake_bridge()
    bridge.poll(0.0)
    port = opener.ports[0]
    port.incoming += (DEVICE_HELLO + encode_line(["DICE", 3, 1, 4])
                      + encode_line(["CELL", 2, 3, 1]) + encode_line(["CELL", 2, 3, 1])
                      + encode_line(["BOARD", 3, 4, "8", "0", "4"]))
    bridge.poll(0.1)
    assert events[1:] == [
        DiceRolled((3, 1, 4), "serial"),
        CellChanged(2, 3, True),  # the repeated CELL changes nothing
        CellChanged(0, 3, True),  # the snapshot: row 0 = 0x8, row 2 = 0x4
        CellChanged(2, 2, True),
        CellChanged(2, 3, False),
    ]
    assert bridge.bad_lines == 0


def test_a_bad_line_is_counted_logged_and_answered(caplog: pytest.LogCaptureFixture) -> None:
    bridge, opener, events = fake_bridge()
    bridge.poll(0.0)
    port = opener.ports[0]
    port.sent.clear()
    port.incoming += b"TC1 DICE 3 1 4*FF\n" + b"\x00\xff" * 300 + b"\n" + b"TC1 DICE 2*00\n"
    with caplog.at_level(logging.WARNING, logger="hardware.serial.bridge"):
        bridge.poll(0.1)
    assert bridge.bad_lines == 3
    assert bytes(port.sent) == (encode_line(["ERR", "CHECKSUM"]) + encode_line(["ERR", "TOOLONG"])
                                + encode_line(["ERR", "CHECKSUM"]))
    assert "sent a bad line b'TC1 DICE 3 1 4*FF': CHECKSUM: line says FF, content gives 4E" \
        in caplog.text
    assert not any(isinstance(event, DiceRolled) for event in events)


def test_a_device_error_reply_is_counted_and_not_answered() -> None:
    bridge, opener, _events = fake_bridge()
    bridge.poll(0.0)
    port = opener.ports[0]
    port.sent.clear()
    port.incoming += encode_line(["ERR", "UNKNOWN", "no", "such", "verb"])
    bridge.poll(0.1)
    assert (bridge.device_errors, bridge.bad_lines, bytes(port.sent)) == (1, 0, b"")


def test_another_protocol_version_is_reported_once() -> None:
    bridge, opener, events = fake_bridge()
    bridge.poll(0.0)
    line = b"TC2 HELLO pico 2.0"
    opener.ports[0].incoming += line + b"*%02X\n" % crc8(line)
    bridge.poll(0.1)
    assert events == [DeviceStatus(
        "serial", False,
        "serial device on /dev/ttyACM0 speaks TC2, not TC1; update its firmware or "
        "table-companion")]


def test_a_silent_device_is_reported_and_greeted_again() -> None:
    bridge, opener, events = fake_bridge()
    bridge.poll(0.0)
    port = opener.ports[0]
    bridge.poll(1.9)
    assert events == [] and bytes(port.sent) == HOST_GREETING
    bridge.poll(2.0)
    assert bytes(port.sent) == HOST_GREETING * 2
    assert events == [DeviceStatus(
        "serial", False, "serial device on /dev/ttyACM0 does not answer HELLO; is the "
        "table-companion firmware on it?")]


def test_a_device_whose_node_is_there_but_will_not_open_is_retried_with_back_off() -> None:
    bridge, opener, events = fake_bridge()
    bridge.poll(0.0)
    opener.ports[0].incoming += DEVICE_HELLO + encode_line(["CELL", 0, 0, 1])
    bridge.poll(0.1)
    opener.ports[0].gone = True
    opener.present = False  # the node stays: a busy port, a firmware still booting
    bridge.poll(1.0)
    assert not bridge.connected
    assert events[-1].connected is False and "vanished" in events[-1].message  # type: ignore[union-attr]
    tries = []
    for tenth in range(11, 120):
        before = len(opener.calls)
        bridge.poll(tenth / 10)
        if len(opener.calls) > before:
            tries.append(tenth / 10)
    assert tries == [1.5, 2.5, 4.5, 8.5]  # delays 0.5, 1, 2, 4, then capped at 4
    opener.present = True
    bridge.poll(12.5)
    port = opener.ports[1]
    assert bytes(port.sent) == HOST_GREETING
    # the board changed while it was away: the snapshot reports only the difference
    port.incoming += DEVICE_HELLO + encode_line(["BOARD", 1, 2, "2"])
    bridge.poll(12.6)
    assert events[-3:] == [DeviceStatus("serial", True, "pico-board 1.0 on /dev/ttyACM0"),
                           CellChanged(0, 0, False), CellChanged(0, 1, True)]


@pytest.mark.parametrize("outage", [3.0, 300.0, 86_400.0])
def test_an_unplugged_device_is_back_within_a_second_of_its_node_whatever_the_outage(
        outage: float) -> None:
    """Its node is looked for every half second while missing; no open is tried meanwhile,
    and the back-off a long outage would have grown does not delay it."""
    bridge, opener, events = fake_bridge()
    bridge.poll(0.0)
    opener.ports[0].gone = True
    opener.present = opener.node = False
    now = 1.0
    bridge.poll(now)
    assert events[-1].message.startswith("serial device on /dev/ttyACM0 vanished")  # type: ignore[union-attr]
    # polled as the daemon polls (every 5 ms) for the first and the last 10 s; in between
    # every CHECK_S, so that each poll looks for the node: as many looks as at 5 ms, without
    # the 99 polls in 100 that find nothing to do (17 million in a day)
    for step, until in ((0.005, min(outage, 10.0)), (CHECK_S, outage - 10.0), (0.005, outage)):
        while now < until:
            now += step
            bridge.poll(now)
    assert len(opener.calls) == 1  # nothing tried while the node was gone
    assert events[-1] == DeviceStatus("serial", False, "serial device on /dev/ttyACM0 is not "
                                      "plugged in; waiting for it")
    opener.present = opener.node = True
    back = now
    while not bridge.connected:
        now += 0.005
        bridge.poll(now)
    assert now - back <= 0.5 + 1e-9
    assert bytes(opener.ports[1].sent) == HOST_GREETING


good_lines = st.sampled_from([
    (encode_line(["DICE", 5, 2]), DiceRolled((5, 2), "serial")),
    (encode_line(["CELL", 1, 1, 1]), CellChanged(1, 1, True)),
])


@settings(max_examples=150)
@given(garbage=st.lists(st.binary(max_size=300), max_size=5), good=good_lines,
       chunk=st.integers(1, 64))
def test_garbage_never_crashes_and_a_good_line_after_it_still_counts(
    garbage: list[bytes], good: tuple[bytes, Event], chunk: int
) -> None:
    bridge, opener, events = fake_bridge()
    bridge.poll(0.0)
    port = opener.ports[0]
    noise = b"".join(part + b"\n" for part in garbage)
    stream = noise + good[0]
    for start in range(0, len(stream), chunk):
        port.incoming += stream[start:start + chunk]
        bridge.poll(0.1)
    assert events[-1] == good[1]
    assert bridge.bad_lines <= noise.count(b"\n")


def test_loop_url_carries_lines_through_real_pyserial() -> None:
    ports: list[Any] = []

    def opener(url: str, **options: Any) -> Any:
        ports.append(serial.serial_for_url(url, **options))
        return ports[-1]

    events: list[Event] = []
    bridge = SerialBridge("loop://", events.append, opener)
    bridge.poll(0.0)  # the greeting loops back: the host hears itself say HELLO and SNAP
    ports[0].write(encode_line(["DICE", 6, 6]) + b"noise\n")
    bridge.poll(0.1)
    bridge.poll(0.2)  # the ERR replies loop back too and are not answered
    host = f"table-companion {version('table-companion')}"
    assert events == [DeviceStatus("serial", True, f"{host} on loop://"),
                      DiceRolled((6, 6), "serial")]
    assert bridge.bad_lines == 2  # the looped-back SNAP (not a device verb) and "noise"
    assert bridge.device_errors == 2
    bridge.close()


class PtyDevice:
    """The device end of a pty pair, reached by the host through a stable symlink, as udev
    gives a USB serial device a stable /dev/serial/by-id name."""

    def __init__(self, link: Path) -> None:
        self.master, slave = os.openpty()
        path = os.ttyname(slave)
        os.close(slave)
        link.unlink(missing_ok=True)
        link.symlink_to(path)

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def receive(self, size: int) -> bytes:
        """``size`` bytes from the host, however the kernel splits its writes."""
        data = b""
        while len(data) < size:
            assert select.select([self.master], [], [], 2.0)[0], f"the host sent only {data!r}"
            data += os.read(self.master, size - len(data))
        return data

    def unplug(self) -> None:
        os.close(self.master)


def test_a_pty_device_vanishes_and_comes_back(tmp_path: Path) -> None:
    link = tmp_path / "ttyTC"
    device = PtyDevice(link)
    opened: list[Any] = []

    def opener(url: str, **options: Any) -> Any:
        opened.append(serial.serial_for_url(url, **options))
        return opened[-1]

    def poll_when_readable(now: float) -> None:
        assert select.select([opened[-1].fileno()], [], [], 2.0)[0], "nothing arrived"
        bridge.poll(now)

    events: list[Event] = []
    bridge = SerialBridge(str(link), events.append, opener, backoff=Backoff(1.0, 8.0))
    bridge.poll(0.0)
    assert device.receive(len(HOST_GREETING)) == HOST_GREETING
    device.send(DEVICE_HELLO + encode_line(["DICE", 4, 4]))
    poll_when_readable(0.1)
    assert events == [DeviceStatus("serial", True, f"pico-board 1.0 on {link}"),
                      DiceRolled((4, 4), "serial")]

    device.unplug()
    poll_when_readable(5.0)
    assert not bridge.connected
    gone = events[-1]
    assert isinstance(gone, DeviceStatus) and not gone.connected
    assert gone.message.startswith(f"serial device on {link} vanished (")  # pyserial's words
    assert gone.message.endswith("); retrying")
    bridge.poll(6.0)  # the old pty has gone with its node: the bridge only looks for it
    assert not bridge.connected
    assert events[-1].message.endswith("is not plugged in; waiting for it")  # type: ignore[union-attr]

    device = PtyDevice(link)  # plugged in again: a new pty behind the same name
    bridge.poll(6.4)
    assert not bridge.connected
    bridge.poll(6.5)  # the next look, half a second on: opened at once, whatever the back-off
    assert bridge.connected
    assert device.receive(len(HOST_GREETING)) == HOST_GREETING
    device.send(DEVICE_HELLO + encode_line(["CELL", 5, 5, 1]))
    poll_when_readable(6.6)
    assert events[-2:] == [DeviceStatus("serial", True, f"pico-board 1.0 on {link}"),
                           CellChanged(5, 5, True)]
    bridge.close()
    device.unplug()
