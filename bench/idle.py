"""The daemon at idle on gpiozero's mock pins, and a press to the referee, as JSON.

The daemon is the one :func:`firmware_host.daemon.assemble` builds, with the real clock and
queue, running its loop in a thread; the screen discards frames.

- ``idle_cpu_percent``: the process's CPU time over ``IDLE_S`` seconds of an untouched table,
  as a percentage of one core (goal <= 0.2), with the board empty and again with a piece on
  it, once the table has been still for ``REST_AFTER_S`` (a row holding a piece cannot show
  a change by an edge, so the matrix patrols it: forty looks a second on a still table, for
  the reasons ``bench/rest_patrol.py`` measures).
  ``piece_on_board_hands_busy`` is the same over the seconds after the piece was put down,
  when the matrix looks every 20 ms (not a goal: hands are at the table then).
- ``knob_to_referee_ms``: from turning the knob (its edge callback queues the event) to the
  referee's ``handle``; goal <= 2 ms.
- ``press_to_referee_ms``: from pressing SELECT to the referee's ``handle`` (goal <= 2 ms);
  a press after a rest is taken at the first read, the debounce guards what follows it.
- ``roll_click_to_referee_ms``: from releasing ROLL, held 50 ms, to the referee's ``handle``
  (goal <= 2 ms); with a hold time a click is decided on release, taken at its first read.
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
from smoke import sized

from firmware_host.config import Config
from firmware_host.daemon import assemble
from firmware_host.journal import Journal
from firmware_host.referee import Referee
from hardware.board.matrix import REST_AFTER_S
from hardware.controls.mock_table import MockTable
from hardware.events import Control, Event

IDLE_S = sized(10.0, 0.2)
IDLE_RUNS = sized(3, 1)
PRESSES = sized(40, 2)
GOAL_CPU_PERCENT = 0.2
GOAL_MS = 2.0
WAIT_S = 5.0


class Blank:
    def show(self, image: Any) -> None:
        pass


def cpu_percent(seconds: float) -> float:
    start_cpu, start = time.process_time(), time.perf_counter()
    time.sleep(seconds)
    return round((time.process_time() - start_cpu) / (time.perf_counter() - start) * 100, 3)


def latencies(what: str, act: Callable[[], None], undo: Callable[[], None],
              handled: list[float], count: int = PRESSES,
              before: Callable[[], None] | None = None) -> dict[str, float]:
    """From ``act`` to the referee, ``count`` times; ``before`` comes first, outside the time.
    An event that never reaches the referee ends the bench with a message naming ``what``
    was waited for, rather than waiting for ever."""
    found = []
    for _ in range(count):
        if before is not None:
            before()
            time.sleep(0.05)
        seen = len(handled)
        start = time.perf_counter()
        act()
        deadline = start + WAIT_S
        while len(handled) == seen:
            if time.perf_counter() > deadline:
                raise SystemExit(f"idle bench: {what} did not reach the referee within "
                                 f"{WAIT_S:g} s (try {len(found) + 1} of {count})")
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
        idle_empty = [cpu_percent(IDLE_S) for _ in range(IDLE_RUNS)]
        knob = latencies("a turn of the knob", lambda: table.turn(1), lambda: table.turn(-1),
                         handled)
        press = latencies("a press of SELECT", lambda: table.press(Control.SELECT),
                          lambda: table.release(Control.SELECT), handled)
        roll = latencies("the throw of a 50 ms click of ROLL",
                         lambda: table.release(Control.ROLL), lambda: None, handled,
                         before=lambda: table.press(Control.ROLL))
        table.place(2, 3)
        time.sleep(0.5)
        busy_hands = cpu_percent(REST_AFTER_S - 1.0)
        time.sleep(1.5)
        idle_piece = [cpu_percent(IDLE_S) for _ in range(IDLE_RUNS)]
        daemon.loop.stop()
        runner.join()
    latency = {"knob_to_referee_ms": knob, "press_to_referee_ms": press,
               "roll_click_to_referee_ms": roll}
    goals = {f"{name}_median": {"value": figure["median"], "goal": GOAL_MS,
                                "ok": figure["median"] <= GOAL_MS}
             for name, figure in latency.items()}
    empty, piece = statistics.median(idle_empty), statistics.median(idle_piece)
    goals["idle_cpu_percent_empty_board"] = {"value": empty, "goal": GOAL_CPU_PERCENT,
                                             "ok": empty <= GOAL_CPU_PERCENT}
    goals["idle_cpu_percent_piece_on_board"] = {"value": piece, "goal": GOAL_CPU_PERCENT,
                                                "ok": piece <= GOAL_CPU_PERCENT}
    print(json.dumps({
        "bench": "idle",
        "idle_cpu_percent": {"empty_board": {"runs": idle_empty, "median": empty},
                             "piece_on_board": {"runs": idle_piece, "median": piece},
                             "piece_on_board_hands_busy": busy_hands,
                             "goal": GOAL_CPU_PERCENT},
        **latency,
        "goal_ms": GOAL_MS,
        "goals": goals,
    }))


if __name__ == "__main__":
    main()
