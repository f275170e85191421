"""How many times slower this machine runs the project's Python than the development machine.

Run it on a Raspberry Pi Zero 2 W (``python bench/pi_factor.py``, from the project's folder
in its venv): it times three CPU-bound workloads of the project's own code, each the best of
:data:`REPEATS` runs, divides by the same figures measured on the development machine
(:data:`REFERENCE_MS`, x86, 2 cores, Python 3.11) and prints the median ratio as ``factor``.
Hand that to ``bench/run_all.py --factor N`` on the development machine to replace its
assumed 10x. ``--reference`` prints this machine's own times, for refreshing the table after
a change to the workloads. The best of several runs is used because a scheduler only ever
adds time; the workloads allocate little, so the SD card plays no part.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from collections.abc import Callable

from random_play import play_out
from smoke import sized

import games.dalmatian_advice
from firmware_host.screens import render
from firmware_host.screens.samples import SAMPLES
from games.dalmatian import Dalmatian
from games.dalmatian_advice import prepare
from games.dalmatian_score import TOTALS

REPEATS = sized(7, 1)
REFERENCE_MS = {"render_samples": 76.89, "advisor_tables": 30.7, "dalmatian_games": 35.47}
"""Best-of-REPEATS on the development machine (x86-64, 2 cores, CPython 3.11), the lowest of
three runs at a load average of 1.2; the render workload follows the sample screens, so
refresh this after adding samples."""


def render_samples() -> None:
    """Every sample screen drawn 20 times: the canvas, fonts and Pillow's one conversion."""
    views = [build() for build in SAMPLES.values()]
    for _ in range(20):
        for view in views:
            render(view)


def advisor_tables() -> None:
    """Dalmatian's advisor tables for every starting total, from nothing: float arithmetic."""
    games.dalmatian_advice._PLANS.clear()
    for total in TOTALS:
        for several in (False, True):
            prepare(total, several_groups=several)
            prepare(total, budget=8, several_groups=several)


def dalmatian_games() -> None:
    """Ten seeded random Dalmatian games played to the end: the rules, objects and dicts."""
    for seed in range(10):
        play_out(Dalmatian.new(4), random.Random(seed))


WORKLOADS: dict[str, Callable[[], None]] = {
    "render_samples": render_samples,
    "advisor_tables": advisor_tables,
    "dalmatian_games": dalmatian_games,
}


def best_ms(work: Callable[[], None]) -> float:
    work()  # warm: imports, caches that are not the point
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return 1000 * min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", action="store_true",
                        help="print this machine's times as the reference table")
    parser.add_argument("--smoke", action="store_true",
                        help="one run of each workload, for the test suite (no factor to use)")
    args = parser.parse_args()
    here = {name: round(best_ms(work), 2) for name, work in WORKLOADS.items()}
    if args.reference:
        print(json.dumps({"bench": "pi_factor", "reference_ms": here}))
        return
    ratios = {name: round(here[name] / REFERENCE_MS[name], 2) for name in WORKLOADS}
    print(json.dumps({"bench": "pi_factor", "machine": platform.machine(),
                      "python": platform.python_version(), "ms": here,
                      "reference_ms": REFERENCE_MS, "ratios": ratios,
                      "factor": round(statistics.median(ratios.values()), 1),
                      "use": "bench/run_all.py --factor FACTOR on the development machine"}))


if __name__ == "__main__":
    main()
