"""scripts/dice_check.py, the Pixels check for a real Pi: its pure parts, and its reader on
mock dice (the script itself needs the dice, bleak and BlueZ, and is not run here)."""

from __future__ import annotations

import importlib.util
import socket
from pathlib import Path
from typing import Any

import pytest

from hardware.dice.mock import MockDice
from hardware.dice.pixels import RollState

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "dice_check.py"


@pytest.fixture(scope="module")
def check() -> Any:
    spec = importlib.util.spec_from_file_location("dice_check", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_throw_is_timed_from_the_first_rolled_of_the_die_that_landed_last(check: Any) -> None:
    landings = check.Landings()
    landings.heard("A", RollState.ON_FACE, 0.5)  # at rest, never moved: no landing
    for die in ("A", "B"):
        landings.heard(die, RollState.ROLLING, 1.0)
    landings.heard("B", RollState.ROLLED, 2.0)
    landings.heard("A", RollState.ROLLED, 2.5)
    landings.heard("B", RollState.ROLLED, 2.7)  # repeated: B landed at 2.0
    assert landings.last() == 2.5
    assert landings.last() is None  # forgotten once asked


@pytest.mark.parametrize(("broker", "address"), [
    ("mqtts://hub.local:8883", ("hub.local", 8883)),
    ("mqtts://hub.local", ("hub.local", 8883)),
    ("mqtt://10.0.0.2", ("10.0.0.2", 1883)),
    ("hub.local:9001", ("hub.local", 9001)),
])
def test_the_hub_address_comes_from_a_broker_url_or_host_port(check: Any, broker: str,
                                                               address: tuple[str, int]) -> None:
    assert check.hub_address(broker) == address


def test_a_hub_address_without_a_host_is_refused(check: Any) -> None:
    with pytest.raises(ValueError, match="no host"):
        check.hub_address("mqtt://:1883")


def test_a_round_trip_is_timed_and_a_closed_port_is_none(check: Any) -> None:
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        took = check.round_trip(listening.getsockname())
        assert took is not None and 0 <= took < 2000
        port = listening.getsockname()[1]
    assert check.round_trip(("127.0.0.1", port), timeout=0.5) is None


def test_the_summary_counts_failures_apart(check: Any) -> None:
    assert check.summary([10.0, None, 30.0, 20.0]) == {
        "count": 3, "failed": 1, "median_ms": 20.0, "p90_ms": 30.0, "max_ms": 30.0}
    assert check.summary([None]) == {"count": 0, "failed": 1}


def test_the_throw_is_drawn_centred(check: Any) -> None:
    image = check.throw_frame((1, 2, 3, 4, 5)).to_image()
    lit = image.getbbox()
    assert lit is not None
    assert abs((lit[0] + lit[2]) / 2 - 64) <= 2


def test_the_reader_stamps_each_named_die_as_its_report_arrives(check: Any) -> None:
    dice = MockDice(("0000A001", "0000A002"))
    landings = check.Landings()
    reader = check.StampedReader(dice.scanner, ("0000A001",), landings)
    reader.start()
    assert dice.started.wait(5)
    for die in ("0000A001", "0000A002"):
        dice.advertise(die, RollState.ROLLING, 3)
        dice.advertise(die, RollState.ROLLED, 4)
    reader.close()
    assert [die for die, _advert in reader.take()] == ["0000A001", "0000A001"]
    assert landings.last() is not None
