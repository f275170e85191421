"""Render cost of every screen: milliseconds per frame, median and p99, per sample view.

Prints one JSON object. Each sample view is built once, drawn once to warm caches, then
drawn ``REPEATS`` times; the very first draw of the process is timed apart as
``first_frame_ms``. Measured on the development machine; a Pi 4 is several times slower.
"""

from __future__ import annotations

import json
import statistics
import time

from firmware_host.screens import render
from firmware_host.screens.samples import SAMPLES

REPEATS = 300


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
    for name, view in views.items():
        render(view)  # warm: glyph masks at this size, the game's own caches
        times = timings(view)
        per_screen[name] = {"median_ms": round(statistics.median(times), 3),
                            "p99_ms": round(times[int(len(times) * 0.99) - 1], 3)}
    worst = max(per_screen.values(), key=lambda t: t["p99_ms"])
    print(json.dumps({"bench": "screens", "repeats": REPEATS, "first_frame_ms": round(first, 2),
                      "worst_p99_ms": worst["p99_ms"], "screens": per_screen}))


if __name__ == "__main__":
    main()
