"""The Pico W dice bridge on the host: the same advertisement bytes as the decoder's tests go
in as raw payloads, and its lines are read by the Pi's serial parser and bridge."""

from __future__ import annotations

import ast
import importlib.util
import os
import select
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import serial
from hypothesis import given
from hypothesis import strategies as st
from pixels_helpers import SERVICE, STATES, advert, payloads

import hardware.dice.portable
import hardware.serial.framing
from hardware.dice.pixels import RollState, decode
from hardware.events import DeviceStatus, DiceRolled, Event
from hardware.serial.bridge import SerialBridge
from hardware.serial.framing import decode_line, encode_line
from hardware.serial.messages import Dice, parse_message

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware" / "pico" / "dice.py"
ONE, TWO, THREE = "1A2B3C4D", "AA:BB:CC:DD:EE:02", "AA:BB:CC:DD:EE:03"
STRANGER = "AA:BB:CC:DD:EE:99"


@pytest.fixture
def firmware(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setitem(sys.modules, "serial_framing", hardware.serial.framing)
    monkeypatch.setitem(sys.modules, "dice_portable", hardware.dice.portable)
    yield _load()


class Table:
    """A bridge for three dice (one named by pixel id, two by address) and what it sent."""

    def __init__(self, firmware: Any, count: int = 0) -> None:
        self.sent: list[bytes] = []
        self.bridge = firmware.Bridge((ONE, TWO, THREE), count, 0.0, self.sent.append)
        self.now = 0.0

    def say(self, die: str, state: RollState, face: int = 1) -> None:
        self.now += 0.1
        address, service = (STRANGER, SERVICE) if die == ONE else (die, None)
        self.bridge.advertised(address.lower(), payloads(advert(state, face), service), self.now)

    def throw(self, faces: dict[str, int]) -> None:
        for die in faces:
            self.say(die, RollState.ROLLING, 2)
        for die, face in faces.items():
            self.say(die, RollState.ROLLED, face)
        self.wait()

    def wait(self, seconds: float = 0.7) -> None:
        """Time passing, as the bridge's main loop ticks it: a throw of any count is sent once
        its dice have rested a moment."""
        self.now += seconds
        self.bridge.tick(self.now)

    def messages(self) -> list[Any]:
        return [parse_message(decode_line(line.rstrip(b"\n"))) for line in self.sent]


@pytest.mark.parametrize(("data", "state", "face"), STATES)
def test_raw_payloads_decode_as_the_pi_decodes_them(data: bytes, state: RollState,
                                                    face: int) -> None:
    manufacturer, service = hardware.dice.portable.pixels_parts(payloads(data, SERVICE))
    assert (manufacturer, service) == (data, SERVICE)
    assert manufacturer is not None
    reading = hardware.dice.portable.reading(manufacturer)
    pi = decode(data)
    assert (reading.state, reading.face, reading.battery, reading.charging, reading.at_rest) == (
        state, face, pi.battery, pi.charging, pi.at_rest)


def test_a_throw_is_one_dice_line_the_serial_parser_reads(firmware: Any) -> None:
    table = Table(firmware)
    table.bridge.start()
    table.throw({THREE: 5, ONE: 2, TWO: 6})
    assert table.messages()[1:] == [Dice((2, 6, 5))]  # in the order the dice are named
    assert table.messages()[0].name == "pico-dice"


def test_another_tables_dice_and_other_devices_are_ignored(firmware: Any) -> None:
    table = Table(firmware)
    table.say(STRANGER, RollState.ROLLING)
    table.say(STRANGER, RollState.ROLLED, 4)
    table.bridge.advertised(TWO, [b"\x02\x01\x06", b""], 1.0)  # no manufacturer data
    table.throw({ONE: 1, TWO: 1, THREE: 1})
    assert table.messages() == [Dice((1, 1, 1))]


def test_a_crooked_die_holds_the_throw_until_it_is_rolled_again(firmware: Any) -> None:
    table = Table(firmware)
    for die in (ONE, TWO, THREE):
        table.say(die, RollState.ROLLING, 3)
    table.say(ONE, RollState.ROLLED, 4)
    table.say(TWO, RollState.CROOKED, 2)
    table.say(THREE, RollState.ROLLED, 1)
    assert table.sent == []
    table.wait()
    assert table.sent == []
    table.say(TWO, RollState.ROLLING, 5)
    table.say(TWO, RollState.ROLLED, 3)
    table.wait()
    assert table.messages() == [Dice((4, 3, 1))]


def test_a_die_gone_quiet_sends_no_throw_of_fewer_dice(firmware: Any) -> None:
    table = Table(firmware)
    for die in (ONE, TWO, THREE):
        table.say(die, RollState.ROLLING, 3)
    table.say(ONE, RollState.ROLLED, 4)
    table.say(TWO, RollState.ROLLED, 4)
    for step in range(60):
        table.bridge.tick(table.now + step / 10)
    assert table.sent == []
    table.now += 6
    table.throw({ONE: 6, TWO: 6, THREE: 6})  # the next throw is taken whole
    assert table.messages() == [Dice((6, 6, 6))]


def test_with_no_count_a_throw_is_the_dice_that_moved(firmware: Any) -> None:
    """The Pi cannot tell the bridge how many dice a throw takes: a Dalmatian reroll throws
    the dice not held, and only they move (the Pi checks the count)."""
    table = Table(firmware)
    table.throw({ONE: 2, TWO: 3, THREE: 4})
    table.throw({ONE: 6, THREE: 5})  # TWO held: it rests where it lay
    assert table.messages() == [Dice((2, 3, 4)), Dice((6, 5))]


def test_with_no_count_a_die_still_tumbling_is_waited_for(firmware: Any) -> None:
    table = Table(firmware)
    for die in (ONE, TWO, THREE):
        table.say(die, RollState.ROLLING, 3)
    table.say(ONE, RollState.ROLLED, 4)
    table.say(TWO, RollState.ROLLED, 5)
    table.wait(0.3)
    table.say(THREE, RollState.ROLLING, 1)  # still tumbling when the others have rested
    table.wait(0.3)
    assert table.sent == []
    table.say(THREE, RollState.ROLLED, 6)  # the last landing starts the wait again
    table.wait(0.4)
    assert table.sent == []
    table.wait(0.3)
    assert table.messages() == [Dice((4, 5, 6))]


def test_a_throw_of_fewer_dice_when_count_says_so(firmware: Any) -> None:
    table = Table(firmware, count=2)
    table.throw({TWO: 3, THREE: 4})
    assert table.messages() == [Dice((3, 4))]


@pytest.mark.parametrize(("incoming", "answers"), [
    (encode_line(["HELLO", "table-companion", "0.1.0"]), [["HELLO", "pico-dice", "1.0"]]),
    (encode_line(["SNAP"]), []),  # no board to send
    (encode_line(["ERR", "CHECKSUM"]), []),
    (encode_line(["DANCE"]), [["ERR", "UNKNOWN"]]),
    (b"TC1 SNAP*00\n", [["ERR", "CHECKSUM"]]),
    (b"x" * 300 + b"\n", [["ERR", "TOOLONG"]]),
])
def test_the_host_is_answered(firmware: Any, incoming: bytes, answers: list[list[str]]) -> None:
    table = Table(firmware)
    for byte in incoming:  # MicroPython's main loop hands over one byte at a time
        table.bridge.receive(bytes([byte]))
    assert table.sent == [encode_line(list(words)) for words in answers]


@given(st.lists(st.binary(max_size=40), min_size=1, max_size=3), st.binary(max_size=12))
def test_any_bytes_from_the_radio_are_taken_or_ignored_quietly(
        raw: list[bytes], manufacturer: bytes) -> None:
    sent: list[bytes] = []
    module = _load()
    bridge = module.Bridge((ONE, TWO), 0, 0.0, sent.append)
    bridge.advertised(TWO, raw, 0.1)
    bridge.advertised(TWO, payloads(manufacturer, manufacturer[:8]), 0.2)
    bridge.tick(5.0)
    assert sent == []  # no die moved and landed: nothing to send, and nothing raised


def _load() -> Any:
    """The firmware as a module, the Pico's copies of the shared modules being the Pi's own."""
    sys.modules.setdefault("serial_framing", hardware.serial.framing)
    sys.modules.setdefault("dice_portable", hardware.dice.portable)
    spec = importlib.util.spec_from_file_location("pico_dice", FIRMWARE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pis_serial_bridge_reads_the_pico_over_a_pty(firmware: Any) -> None:
    master, slave = os.openpty()
    path = os.ttyname(slave)
    os.close(slave)
    table = Table(firmware)
    table.bridge.write = lambda data: os.write(master, data)
    opened: list[Any] = []

    def opener(url: str, **options: Any) -> Any:
        opened.append(serial.serial_for_url(url, **options))
        return opened[-1]

    events: list[Event] = []
    host = SerialBridge(path, events.append, opener)
    host.poll(0.0)  # opens the port and greets
    table.bridge.start()
    greeting = b""
    while greeting.count(b"\n") < 2:  # HELLO and SNAP from the host
        assert select.select([master], [], [], 2.0)[0], f"the host sent only {greeting!r}"
        greeting += os.read(master, 4096)
    table.bridge.receive(greeting)
    table.throw({ONE: 1, TWO: 2, THREE: 3})
    for step in range(1, 20):
        if not select.select([opened[0].fileno()], [], [], 0.5)[0]:
            break
        host.poll(step / 10)
    assert events[0] == DeviceStatus("serial", True, f"pico-dice 1.0 on {path}")
    assert [event for event in events if isinstance(event, DiceRolled)] == [
        DiceRolled((1, 2, 3), "serial")]
    assert host.bad_lines == 0
    host.close()
    os.close(master)


def test_the_shared_dice_module_stays_runnable_on_micropython() -> None:
    """It is copied to the Pico as is: nothing imported but for mypy, no dataclass or enum,
    none of the CPython-only helpers MicroPython lacks."""
    source = Path(hardware.dice.portable.__file__).read_text()
    tree = ast.parse(source)
    guarded = {id(node) for block in tree.body if isinstance(block, ast.If)
               and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
               for node in ast.walk(block)}
    imports = [node for node in ast.walk(tree)
               if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in guarded]
    assert imports == []
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.NamedExpr)
                or (isinstance(node, ast.AnnAssign) and not isinstance(node.target, ast.Name))]
    for word in ("@dataclass", "Enum)", ".hex(", ".from_bytes(", "default="):
        assert word not in source
