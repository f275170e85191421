"""Cost of the GPIO inputs on gpiozero's mock pins, as JSON.

- ``scan_us``: one matrix scan (6x6 and 8x8, a few pieces on the board), median and 95th
  percentile over many scans; the target is a 6x6 scan within 500 us.
- ``poll_us``: one poll of the default map's full input set (dice button, encoder and its
  push, BACK, five hold buttons, 6x6 matrix).
- ``threads`` and ``rss_kib``: what building that full set adds to the process, beside the
  same buttons built as gpiozero ``Button`` s (one hold thread each).
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Callable

from gpiozero import Button, DigitalOutputDevice, InputDevice, RotaryEncoder
from gpiozero.pins.mock import MockFactory
from smoke import sized

from hardware.board.matrix import ReedMatrix
from hardware.board.mock import MockBoard
from hardware.controls.inputs import InputSet
from hardware.controls.mock_table import MockTable
from hardware.pins.clock import ManualClock
from hardware.wiring.pinmap import load_pin_map

RUNS = sized(3000, 20)
POLLS = sized(1000, 10)
TARGET_6X6_US = 500


def rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def timed_us(action: Callable[[], object], runs: int = RUNS) -> dict[str, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1e6)
    times.sort()
    return {"median": round(statistics.median(times), 1),
            "p95": round(times[int(len(times) * 0.95)], 1)}


def scan_cost(size: int) -> dict[str, float]:
    factory = MockFactory()
    rows, cols = list(range(4, 4 + size)), list(range(16, 16 + size))
    board = MockBoard(factory, rows, cols)
    board.set({(0, 0), (size - 1, size - 1), (size // 2, 1), (1, size // 2)})
    clock = ManualClock()
    matrix = ReedMatrix(rows, cols, factory, lambda event: None, ticks=clock)
    matrix.scan()
    return timed_us(matrix.scan)


def full_set() -> dict[str, object]:
    pin_map = load_pin_map("pi40")
    factory = MockFactory()
    MockTable(pin_map, factory)
    threads, rss = threading.active_count(), rss_kib()
    clock = ManualClock()
    inputs = InputSet(pin_map, factory, lambda event: None, ticks=clock)
    ours = {"threads_added": threading.active_count() - threads,
            "rss_kib_added": rss_kib() - rss}
    inputs.poll()
    poll = timed_us(inputs.poll, POLLS)
    inputs.close()

    naive_factory = MockFactory()
    threads, rss = threading.active_count(), rss_kib()
    devices = [Button(pin, pin_factory=naive_factory)
               for pin in (pin_map.dice, *pin_map.buttons.values())]
    assert pin_map.encoder is not None
    devices += [RotaryEncoder(*pin_map.encoder, pin_factory=naive_factory)]
    devices += [DigitalOutputDevice(pin, pin_factory=naive_factory) for pin in pin_map.matrix.rows]
    devices += [InputDevice(pin, pin_factory=naive_factory) for pin in pin_map.matrix.cols]
    buttons = {"threads_added": threading.active_count() - threads,
               "rss_kib_added": rss_kib() - rss}
    for device in devices:
        device.close()
    return {"parts": 1 + len(pin_map.buttons) + 1 + len(pin_map.matrix.rows)
            + len(pin_map.matrix.cols), "ours": ours, "gpiozero_buttons": buttons,
            "poll_us": poll}


def main() -> None:
    six, eight = scan_cost(6), scan_cost(8)
    print(json.dumps({
        "bench": "hardware_inputs",
        "scan_us": {"6x6": six, "8x8": eight},
        "target_6x6_us": TARGET_6X6_US,
        "full_set": full_set(),
        "rss_kib_total": rss_kib(),
    }))


if __name__ == "__main__":
    main()
