"""The Pico firmware on the host: a fake ``machine`` module wires a simulated reed-switch
matrix to its pins, and the firmware's lines go to the real host bridge over a pty."""

from __future__ import annotations

import importlib.util
import os
import select
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import serial

import hardware.serial.framing
from hardware.events import CellChanged, DeviceStatus, Event
from hardware.serial.bridge import SerialBridge
from hardware.serial.framing import encode_line

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware" / "pico" / "main.py"
ROWS = (2, 3, 4, 5, 6, 7, 8, 9)
COLS = (10, 11, 12, 13, 14, 15, 16, 17)


class FakeMatrix:
    """Magnets on cells; answers column reads for whichever row is driven low."""

    def __init__(self) -> None:
        self.occupied: set[tuple[int, int]] = set()
        self.pins: dict[int, FakePin] = {}

    def column_level(self, col: int) -> int:
        driven = [ROWS.index(number) for number, pin in self.pins.items()
                  if number in ROWS and pin.mode == FakePin.OUT and pin.level == 0]
        assert len(driven) <= 1, f"rows {driven} driven at once"
        return 0 if driven and (driven[0], col) in self.occupied else 1


class FakePin:
    IN, OUT, PULL_UP = 0, 1, 2
    matrix: FakeMatrix

    def __init__(self, number: int, mode: int = -1, pull: int = -1) -> None:
        self.number, self.mode, self.pull, self.level = number, -1, -1, 1
        self.init(mode, pull)
        self.matrix.pins[number] = self

    def init(self, mode: int = -1, pull: int = -1, value: int | None = None) -> None:
        self.mode = mode if mode != -1 else self.mode
        self.pull = pull if pull != -1 else self.pull
        if value is not None:
            self.level = value

    def value(self, level: int | None = None) -> int | None:
        if level is not None:
            self.level = level
            return None
        assert self.number in COLS and self.pull == self.PULL_UP, "read a column with pull-up"
        return self.matrix.column_level(COLS.index(self.number))


@pytest.fixture
def pico(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, FakeMatrix]]:
    matrix = FakeMatrix()
    FakePin.matrix = matrix
    machine = types.ModuleType("machine")
    machine.Pin = FakePin  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "serial_framing", hardware.serial.framing)
    spec = importlib.util.spec_from_file_location("pico_main", FIRMWARE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module, matrix


def started(pico: tuple[Any, FakeMatrix]) -> tuple[Any, list[bytes]]:
    module, _matrix = pico
    sent: list[bytes] = []
    firmware = module.Firmware(module.Matrix(module.ROW_PINS, module.COL_PINS), sent.append)
    firmware.start()
    return firmware, sent


def test_start_reports_who_it_is_and_the_board_at_power_on(pico: Any) -> None:
    pico[1].occupied |= {(0, 0), (2, 5), (7, 7)}
    _firmware, sent = started(pico)
    assert sent == [b"TC1 HELLO pico-board 1.0*76\n",
                    encode_line(["BOARD", 8, 8, "1", "0", "20", "0", "0", "0", "0", "80"])]


def test_a_cell_is_reported_once_it_has_settled(pico: Any) -> None:
    firmware, sent = started(pico)
    sent.clear()
    pico[1].occupied.add((3, 4))
    for _ in range(3):
        firmware.scan()
    assert sent == []
    firmware.scan()
    assert sent == [b"TC1 CELL 3 4 1*" + b"%02X" % hardware.serial.framing.crc8(
        b"TC1 CELL 3 4 1") + b"\n"]
    for _ in range(10):
        firmware.scan()
    assert len(sent) == 1
    pico[1].occupied.discard((3, 4))
    for _ in range(4):
        firmware.scan()
    assert sent[1:] == [encode_line(["CELL", 3, 4, 0])]


def test_a_bouncing_switch_reports_nothing(pico: Any) -> None:
    firmware, sent = started(pico)
    sent.clear()
    for scan in range(20):  # closed 3 scans, open 1, ...: never 4 in a row
        if scan % 4 == 3:
            pico[1].occupied.discard((1, 1))
        else:
            pico[1].occupied.add((1, 1))
        firmware.scan()
    assert sent == []


@pytest.mark.parametrize(
    ("incoming", "answers"),
    [
        (encode_line(["SNAP"]), [["BOARD", 8, 8, "4", "0", "0", "0", "0", "0", "0", "0"]]),
        (encode_line(["HELLO", "table-companion", "0.1.0"]),
         [["HELLO", "pico-board", "1.0"], ["BOARD", 8, 8, "4", "0", "0", "0", "0", "0", "0", "0"]]),
        (encode_line(["ERR", "CHECKSUM"]),
         [["BOARD", 8, 8, "4", "0", "0", "0", "0", "0", "0", "0"]]),
        (b"TC1 SNAP*00\n", [["ERR", "CHECKSUM"]]),
        (encode_line(["DANCE"]), [["ERR", "UNKNOWN"]]),
        (b"x" * 300 + b"\n", [["ERR", "TOOLONG"]]),
        (b"\x03\x04 hello\r\n", [["ERR", "FORMAT"]]),
    ],
)
def test_the_host_is_answered(pico: Any, incoming: bytes, answers: list[list[object]]) -> None:
    pico[1].occupied.add((0, 2))
    firmware, sent = started(pico)
    sent.clear()
    for byte in incoming:  # MicroPython's main loop hands over one byte at a time
        firmware.receive(bytes([byte]))
    assert sent == [encode_line(words) for words in answers]  # type: ignore[arg-type]


def test_the_host_bridge_and_the_firmware_talk_over_a_pty(pico: Any) -> None:
    module, matrix = pico
    matrix.occupied |= {(1, 6), (4, 0)}
    master, slave = os.openpty()
    path = os.ttyname(slave)
    os.close(slave)
    firmware = module.Firmware(module.Matrix(module.ROW_PINS, module.COL_PINS),
                               lambda data: os.write(master, data))
    opened: list[Any] = []

    def opener(url: str, **options: Any) -> Any:
        opened.append(serial.serial_for_url(url, **options))
        return opened[-1]

    events: list[Event] = []
    bridge = SerialBridge(path, events.append, opener)
    bridge.poll(0.0)  # opens the port and greets
    firmware.start()
    greeting = b""
    while greeting.count(b"\n") < 2:  # HELLO and SNAP from the host, however they arrive
        assert select.select([master], [], [], 2.0)[0], f"the host sent only {greeting!r}"
        greeting += os.read(master, 4096)
    firmware.receive(greeting)
    matrix.occupied.add((6, 6))
    for _ in range(4):
        firmware.scan()
    for step in range(1, 20):
        if not select.select([opened[0].fileno()], [], [], 0.5)[0]:
            break
        bridge.poll(step / 10)
    assert events[0] == DeviceStatus("serial", True, f"pico-board 1.0 on {path}")
    assert [event for event in events if isinstance(event, CellChanged)] == [
        CellChanged(1, 6, True), CellChanged(4, 0, True), CellChanged(6, 6, True)]
    assert bridge.bad_lines == 0
    bridge.close()
    os.close(master)
