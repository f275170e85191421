"""Render cost of every screen: milliseconds per frame, median and p99, per sample view.

Prints one JSON object. Each sample view is built once, drawn once to warm caches, then
drawn ``REPEATS`` times; the very first draw of the process is timed apart as
``first_frame_ms``. ``render_median_ms`` is the median over every timed frame of every
screen, the figure the goal (:data:`GOAL_MEDIAN_MS`) is set on; ``worst_median_ms`` names the
slowest screen, whose cost is mostly the game's own scoring rather than drawing.
"""

from __future__ import annotations

import json
import statistics
import time

from smoke import sized

from firmware_host.screens import render
from firmware_host.screens.samples import SAMPLES

REPEATS = sized(300, 3)
GOAL_MEDIAN_MS = 0.15


def timings(view: object) -> list[float]:
    found = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        render(view)  # type: ignore[arg-type]
        found.append((time.perf_counter() - start) * 1000)
    return sorted(found)


def main() -> None:
    views = {name: build() for name, build in SAMPLES.items()}
    start = time.perf_counter()
    render(next(iter(views.values())))
    first = (time.perf_counter() - start) * 1000
    per_screen = {}
    every: list[float] = []
    for name, view in views.items():
        render(view)  # warm: glyph bitmaps, the game's own caches
        times = timings(view)
        every += times
        per_screen[name] = {"median_ms": round(statistics.median(times), 3),
                            "p99_ms": round(times[int(len(times) * 0.99) - 1], 3)}
    worst = max(per_screen.values(), key=lambda t: t["p99_ms"])
    slowest = max(per_screen, key=lambda name: per_screen[name]["median_ms"])
    median = round(statistics.median(every), 3)
    print(json.dumps({"bench": "screens", "repeats": REPEATS, "first_frame_ms": round(first, 2),
                      "render_median_ms": median,
                      "goals": {"render_median_ms": {"value": median, "goal": GOAL_MEDIAN_MS,
                                                     "ok": median <= GOAL_MEDIAN_MS}},
                      "worst_median_ms": {slowest: per_screen[slowest]["median_ms"]},
                      "worst_p99_ms": worst["p99_ms"], "screens": per_screen}))


if __name__ == "__main__":
    main()
