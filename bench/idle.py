"""The daemon at idle on gpiozero's mock pins, and a press to the referee, as JSON.

The daemon is the one :func:`firmware_host.daemon.assemble` builds, with the real clock and
queue, running its loop in a thread; the screen discards frames.

- ``idle_cpu_percent``: the process's CPU time over ``IDLE_S`` seconds of an untouched table,
  as a percentage of one core (goal <= 0.2), with the board empty and again with a piece on
  it (a column holding a piece is looked at every 20 ms: its level cannot show a change).
- ``knob_to_referee_ms``: from turning the knob (its edge callback queues the event) to the
  referee's ``handle``; goal <= 2 ms.
- ``press_to_referee_ms``: from pressing SELECT to the referee's ``handle``; the button's
  20 ms debounce is inside it, and ``beyond_debounce_ms`` is what is left (goal <= 2 ms).
"""

from __future__ import annotations

import json
import queue
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory

from firmware_host.config import Config
from firmware_host.daemon import assemble
from firmware_host.journal import Journal
from firmware_host.referee import Referee
from hardware.controls.mock_table import MockTable
from hardware.controls.push_button import DEBOUNCE_S
from hardware.events import Control, Event

IDLE_S = 10.0
PRESSES = 40


class Blank:
    def show(self, image: Any) -> None:
        pass


def cpu_percent(seconds: float) -> float:
    start_cpu, start = time.process_time(), time.perf_counter()
    time.sleep(seconds)
    return round((time.process_time() - start_cpu) / (time.perf_counter() - start) * 100, 3)


def latencies(act: Callable[[], None], undo: Callable[[], None], handled: list[float],
              count: int = PRESSES) -> dict[str, float]:
    found = []
    for _ in range(count):
        seen = len(handled)
        start = time.perf_counter()
        act()
        while len(handled) == seen:
            time.sleep(0.0002)
        found.append((handled[seen] - start) * 1000)
        undo()
        time.sleep(0.1)
    found.sort()
    return {"median": round(statistics.median(found), 3), "max": round(found[-1], 3)}


def main() -> None:
    config = replace(Config(), display=None)
    factory = MockFactory()
    table = MockTable(config.pins(), factory)
    handled: list[float] = []
    with ExitStack() as resources, tempfile.TemporaryDirectory() as folder:
        journal = resources.enter_context(Journal.open(Path(folder) / "idle.sqlite3"))
        events: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
        daemon = assemble(config, journal, factory, Blank(), resources, events=events)
        referee = daemon.loop.controller
        assert isinstance(referee, Referee)
        handle = referee.handle

        def timed(event: Event) -> None:
            handled.append(time.perf_counter())
            handle(event)

        referee.handle = timed  # type: ignore[method-assign]
        runner = threading.Thread(target=daemon.loop.run)
        runner.start()
        time.sleep(1.0)
        idle_empty = [cpu_percent(IDLE_S) for _ in range(3)]
        knob = latencies(lambda: table.turn(1), lambda: table.turn(-1), handled)
        press = latencies(lambda: table.press(Control.SELECT),
                          lambda: table.release(Control.SELECT), handled)
        table.place(2, 3)
        time.sleep(1.0)
        idle_piece = [cpu_percent(IDLE_S) for _ in range(3)]
        daemon.loop.stop()
        runner.join()
    print(json.dumps({
        "bench": "idle",
        "idle_cpu_percent": {"empty_board": {"runs": idle_empty,
                                             "median": statistics.median(idle_empty)},
                             "piece_on_board": {"runs": idle_piece,
                                                "median": statistics.median(idle_piece)},
                             "goal": 0.2},
        "knob_to_referee_ms": knob,
        "press_to_referee_ms": press,
        "beyond_debounce_ms": {key: round(value - DEBOUNCE_S * 1000, 3)
                               for key, value in press.items()},
        "goal_ms": 2,
    }))


if __name__ == "__main__":
    main()
