"""Pixels dice, as JSON: what a report costs, and how soon a landed throw is in the lane.

- ``report_us``: one advertisement through the reader's callback (the die identified among
  the named, its bytes decoded) and the throw assembler, on the mock dice's objects; the
  reports mix the table's five dice with another table's three and a device that is no die.
- ``cpu_percent_5_dice``: that cost at the rate five dice advertise (every 187.5 ms each),
  plus the poll that hands the reports over every 100 ms, as a share of one core.
- ``landed_to_lane_ms``: with the real clock and the reader's own thread, from the last
  die's ``rolled`` report arriving to the throw being in the daemon's lane, polled as the
  loop polls it (every :data:`firmware_host.pixels_device.POLL` s, or sooner when due), the
  dice landing at every tenth of the time between two polls in turn.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

from smoke import sized

from firmware_host.config import DiceConfig
from firmware_host.loop import DeviceLane
from firmware_host.pixels_device import PixelsDice
from hardware.dice.mock import Data, Device, MockDice
from hardware.dice.pixels import COMPANY_ID, RollState
from hardware.dice.reader import PixelsReader
from hardware.dice.throws import ThrowAssembler
from hardware.events import DiceRolled

OURS = ("0000A001", "0000A002", "0000A003", "0000A004", "0000A005")
THEIRS = ("0000B001", "0000B002", "0000B003")
REPORTS = sized(200_000, 2_000)
THROWS = sized(200, 5)
ADVERTISE_S = 0.1875
POLL_S = 0.1
LANDED_GOAL_MS = 200.0  # a throw on the screen within a few hundred ms of the last die landing


def report_cost() -> float:
    """Microseconds per report through the reader's callback and the assembler."""
    captured: list[tuple[Any, Any]] = []
    mock = MockDice((*OURS, *THEIRS))
    mock.listening.append(lambda device, data: captured.append((device, data)))
    for state in (RollState.HANDLING, RollState.ROLLING, RollState.ROLLED, RollState.ON_FACE):
        for face in range(1, 7):
            for die in (*OURS, *THEIRS):
                mock.advertise(die, state, face)
    captured.append((Device("11:22:33:44:55:66"), Data({76: b"\x02\x15" + bytes(21)})))
    captured.append((Device("11:22:33:44:55:67"), Data({COMPANY_ID: b"\x01\x02"})))
    reader = PixelsReader(mock.scanner, OURS)
    assembler = ThrowAssembler(OURS, 5, 0.0)
    start = time.perf_counter()
    for n in range(REPORTS):
        reader.detected(*captured[n % len(captured)])
        for die, advert in reader.take():
            assembler.heard(die, advert, n * 0.001)
    return (time.perf_counter() - start) / REPORTS * 1e6


def poll_cost() -> float:
    """Microseconds per poll with nothing heard (the loop's 10 polls a second)."""
    mock = MockDice(OURS)
    table = PixelsDice(DiceConfig("pixels", OURS, 5), PixelsReader(mock.scanner, OURS),
                       DeviceLane(), lambda: 5, 0.0)
    start = time.perf_counter()
    for n in range(REPORTS):
        table.poll(n * 0.001)
    return (time.perf_counter() - start) / REPORTS * 1e6


def landed_to_lane() -> list[float]:
    """Milliseconds from the last die's landing to its throw in the lane, per throw."""
    mock = MockDice(OURS)
    reader = PixelsReader(mock.scanner, OURS)
    reader.start()
    assert mock.started.wait(5.0), "the mock scanner never started"
    lane = DeviceLane(limit=1000)
    table = PixelsDice(DiceConfig("pixels", OURS, 5), reader, lane, lambda: 5,
                       time.monotonic())
    waits: list[float] = []
    due = time.monotonic()
    try:
        for n in range(THROWS):
            for state in (RollState.HANDLING, RollState.ROLLING):
                for die in OURS:
                    mock.advertise(die, state)
            due = table.poll(time.monotonic())
            time.sleep(POLL_S * (n % 10) / 10)  # the dice land at any moment between polls
            for die in OURS:
                mock.advertise(die, RollState.ROLLED, 1 + (n + OURS.index(die)) % 6)
            landed = time.monotonic()
            while (event := lane.take()) is None:
                time.sleep(max(0.0, due - time.monotonic()))
                due = table.poll(time.monotonic())
            assert isinstance(event, DiceRolled), event
            waits.append((time.monotonic() - landed) * 1000)
    finally:
        reader.close()
    return waits


def main() -> None:
    report = report_cost()
    poll = poll_cost()
    waits = sorted(landed_to_lane())
    per_second = len(OURS) / ADVERTISE_S * report + poll / POLL_S
    print(json.dumps({
        "bench": "pixels",
        "report_us": round(report, 2),
        "poll_us": round(poll, 2),
        "cpu_percent_5_dice": round(per_second / 1e6 * 100, 4),
        "landed_to_lane_ms": {"n": len(waits), "p50": round(statistics.median(waits), 1),
                              "max": round(waits[-1], 1)},
        "goals": {"landed_to_lane_ms_max": {"value": round(waits[-1], 1), "goal": LANDED_GOAL_MS,
                                            "ok": waits[-1] <= LANDED_GOAL_MS}},
    }))


if __name__ == "__main__":
    main()
