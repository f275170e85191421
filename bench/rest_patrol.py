"""How a still table is read: the rest patrol's price in CPU against what it sees, as JSON.

A row that holds a piece cannot show a change by an edge (see ``hardware/board/matrix.py``),
so once the table has been still for ``REST_AFTER_S`` the matrix either looks at those rows
every ``rest_patrol`` seconds or, with ``None``, waits for an edge alone (a button, the knob,
a piece put on a free row). For each choice:

- ``idle_cpu_percent``: the daemon :mod:`bench.idle` builds, on mock pins with a piece on the
  board, once still: its process's CPU over ``IDLE_S`` seconds, median of ``RUNS`` (goal 0.2).
- ``at_rest``: ``MOVES`` moves of real hands (:func:`bench.chatter.hands`), every one after
  a pause long enough for the table to be still: phantom, missed and wrong changes, and the
  latency from the last magnet at rest to the move's last change (goal: p99 150 ms).
"""

from __future__ import annotations

import json
import queue
import random
import statistics
import tempfile
import threading
import time
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

from chatter import LATENCY_GOAL_MS, Bench, hands
from gpiozero.pins.mock import MockFactory
from idle import GOAL_CPU_PERCENT, Blank, cpu_percent
from smoke import sized

from firmware_host.config import Config
from firmware_host.daemon import assemble
from firmware_host.journal import Journal
from hardware.board.matrix import REST_AFTER_S
from hardware.controls.mock_table import MockTable
from hardware.events import Event

CHOICES: tuple[float | None, ...] = sized((0.025, 0.05, 0.1, 0.2, None), (None,))
IDLE_S = sized(4.0, 0.2)
RUNS = sized(3, 1)
MOVES = sized(2_000, 3)


def idle_cpu(rest_patrol: float | None) -> list[float]:
    """The daemon's CPU at a still table with a piece on the board, ``RUNS`` times."""
    config = replace(Config(), display=None)
    factory = MockFactory()
    table = MockTable(config.pins(), factory)
    with ExitStack() as resources, tempfile.TemporaryDirectory() as folder:
        journal = resources.enter_context(Journal.open(Path(folder) / "rest.sqlite3"))
        events: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
        daemon = assemble(config, journal, factory, Blank(), resources, events=events)
        daemon.inputs.matrix.rest_patrol = rest_patrol
        runner = threading.Thread(target=daemon.loop.run)
        runner.start()
        try:
            table.place(2, 3)
            time.sleep(REST_AFTER_S + 0.5)
            return [cpu_percent(IDLE_S) for _ in range(RUNS)]
        finally:
            daemon.loop.stop()
            runner.join()


def at_rest(rest_patrol: float | None, seed: int) -> dict[str, Any]:
    bench = Bench()
    bench.matrix.rest_patrol = rest_patrol
    rng = random.Random(seed)
    for _ in range(8):
        bench.board.place(rng.randrange(6), rng.randrange(6))
    bench.run(0.3)
    bench.events.clear()
    return hands(bench, rng, MOVES, still_share=1.0)


def main() -> None:
    found = {}
    for choice in CHOICES:
        name = "edges_only" if choice is None else f"every_{round(choice * 1000)}_ms"
        runs = idle_cpu(choice)
        moves = at_rest(choice, 7)
        latency = moves["latency_ms"].get("at_rest", {})
        found[name] = {
            "idle_cpu_percent": {"runs": runs, "median": statistics.median(runs)},
            "at_rest": {key: moves[key] for key in ("moves", "phantom", "missed",
                                                     "wrong_board_cells")}
            | {"latency_ms": latency},
            "meets_goals": statistics.median(runs) <= GOAL_CPU_PERCENT
            and moves["phantom"] == moves["missed"] == moves["wrong_board_cells"] == 0
            and latency.get("p99", 0) <= LATENCY_GOAL_MS,
        }
    print(json.dumps({"bench": "rest_patrol", "choices": found,
                      "goal": {"idle_cpu_percent": GOAL_CPU_PERCENT, "phantom": 0, "missed": 0,
                               "wrong": 0, "at_rest_p99_ms": LATENCY_GOAL_MS}}))


if __name__ == "__main__":
    main()
