"""A serial device flooding the daemon over a real pty, as JSON: button latency and memory.

The daemon is the one :func:`firmware_host.daemon.assemble` builds for ``run``, on mock pins
with the real clock, a real journal in a temporary folder and a ``[serial]`` dice reader on
one end of a pty pair. A thread plays the device on the other end and writes
``flood_lines`` well-formed DICE lines as fast as the pty takes them, then one last throw
(6-6-6). Meanwhile the main thread presses ROLL on its mock pin every 100 ms.

- ``press_to_screen_ms``: from releasing the ROLL button (a click throws on release, taken
  at the first read of the release: no debounce wait) to the loop having handled the throw
  and drawn the frame after it, during the flood and, for comparison, on a quiet table.
- ``rss_growth_mib``: VmRSS after the flood minus VmRSS before it (after a warm-up).
- ``last_throw_s``: from the device's last write to the 6-6-6 throw being handled (goal: it is
  handled; a throw lost names what was waited for in ``last_throw_lost``).
- ``dropped_lines``: the flood lines the throttle dropped (the rest were handled).
"""

from __future__ import annotations

import json
import os
import queue
import statistics
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from PIL import Image
from smoke import sized

from firmware_host.config import Config, SerialConfig
from firmware_host.daemon import assemble, open_journal
from firmware_host.loop import Controller
from hardware.controls.mock_table import MockTable
from hardware.events import Control, DiceRolled, Event
from hardware.pins.factory import mock_factory
from hardware.serial.bridge import serial_for_url
from hardware.serial.framing import encode_line

FLOOD = sized(100_000, 2_000)
PRESS_EVERY_S = 0.1
CLICK_S = 0.08  # a quick click: down this long
QUIET_PRESSES = sized(20, 3)
TARGETS = {"press_to_screen_ms_max": 50.0, "rss_growth_mib": 2.0}
LAST = (6, 6, 6)
WAIT_S = 5.0
LAST_THROW_WAIT_S = 30.0


def rss_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


class Timed:
    """The referee, noting when a ROLL press has been handled and drawn, and the last throw."""

    def __init__(self, inner: Controller) -> None:
        self.inner = inner
        self.drawn: queue.SimpleQueue[float] = queue.SimpleQueue()
        self.last_throw: float | None = None
        self._pressed = False

    def handle(self, event: Event) -> None:
        self.inner.handle(event)

        self._pressed = isinstance(event, DiceRolled) and event.source == "button"
        if event == DiceRolled(LAST, "serial"):
            self.last_throw = time.perf_counter()

    def tick(self, now: float) -> None:
        self.inner.tick(now)

    def frame(self) -> Image.Image | None:
        image = self.inner.frame()  # its actions are on disk: it may be sent
        if image is not None and self._pressed:
            self._pressed = False
            self.drawn.put(time.perf_counter())
        return image


class Screen:
    def show(self, image: Image.Image) -> None:
        pass


def press(table: MockTable, timed: Timed) -> float:
    """Click ROLL; milliseconds from its release (a click throws when released) to the
    frame after the throw."""
    while not timed.drawn.empty():
        timed.drawn.get()
    table.press(Control.ROLL)
    time.sleep(CLICK_S)
    start = time.perf_counter()
    table.release(Control.ROLL)
    try:
        drawn = timed.drawn.get(timeout=WAIT_S)
    except queue.Empty:
        raise SystemExit(f"serial flood bench: no frame within {WAIT_S:g} s after a click of "
                         "ROLL (the throw was lost or the loop is stuck)") from None
    time.sleep(PRESS_EVERY_S)  # released long enough to debounce before the next click
    return (drawn - start) * 1000


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"n": len(values), "p50": round(statistics.median(ordered), 2),
            "p90": round(ordered[int(len(ordered) * 0.9)], 2), "max": round(ordered[-1], 2)}


def run(folder: Path) -> dict[str, Any]:
    master, slave = os.openpty()
    port = os.ttyname(slave)
    os.close(slave)
    config = Config(journal=folder / "journal.sqlite3", display=None,
                    serial=SerialConfig(port=port, dice=True))
    factory = mock_factory()
    table = MockTable(config.pins(), factory)
    events: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
    with ExitStack() as resources:
        journal = open_journal(config.journal, resources)
        daemon = assemble(config, journal, factory, Screen(), resources, events=events,
                          serial_opener=serial_for_url)
        timed = Timed(daemon.loop.controller)
        daemon.loop.controller = timed
        looping = threading.Thread(target=daemon.loop.run, daemon=True)
        looping.start()
        time.sleep(0.5)  # the port opened, the first frame drawn
        quiet = [press(table, timed) for _ in range(QUIET_PRESSES)]
        lines = b"".join(encode_line(["DICE", 1 + n % 6, 1 + n // 6 % 6]) for n in range(FLOOD))
        data = memoryview(encode_line(["HELLO", "pico-dice", "1.0"]) + lines
                          + encode_line(["DICE", *LAST]))
        del lines
        written: list[float] = []

        def flood() -> None:
            sent = 0
            while sent < len(data):
                sent += os.write(master, data[sent:sent + 65536])
            written.append(time.perf_counter())

        before = rss_kib()  # the flood's bytes are made: what grows after is the daemon's
        device = threading.Thread(target=flood, daemon=True)
        started = time.perf_counter()
        device.start()
        flooded: list[float] = []
        while device.is_alive():
            flooded.append(press(table, timed))
        deadline = time.perf_counter() + LAST_THROW_WAIT_S
        while timed.last_throw is None and time.perf_counter() < deadline:
            time.sleep(0.01)
        after = rss_kib()
        bridge = daemon.serial
        assert bridge is not None
        result = {
            "flood_lines": FLOOD,
            "flood_s": round(written[0] - started, 2),
            "press_to_screen_ms": {"flood": summary(flooded), "quiet": summary(quiet)},
            "rss_growth_mib": round((after - before) / 1024, 2),
            "last_throw_s": None if timed.last_throw is None
            else round(timed.last_throw - written[0], 3),
            "dropped_lines": bridge.dropped_lines,
            "bad_lines": bridge.bad_lines,
        }
        daemon.loop.stop()
        looping.join(timeout=5)
    os.close(master)
    return result


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        result = run(Path(folder))
    flood_max = result["press_to_screen_ms"]["flood"]["max"]
    if result["last_throw_s"] is None:
        result["last_throw_lost"] = (f"the {LAST} throw sent after the flood was not handled "
                                     f"within {LAST_THROW_WAIT_S:g} s")
    result["goals"] = {
        "last_throw_handled": {"value": result["last_throw_s"] is not None, "goal": True,
                               "ok": result["last_throw_s"] is not None},
        "press_to_screen_during_flood_max_ms": {
            "value": flood_max, "goal": TARGETS["press_to_screen_ms_max"],
            "ok": flood_max <= TARGETS["press_to_screen_ms_max"]},
        "rss_growth_mib": {"value": result["rss_growth_mib"], "goal": TARGETS["rss_growth_mib"],
                           "ok": result["rss_growth_mib"] <= TARGETS["rss_growth_mib"]},
    }
    print(json.dumps({"bench": "serial_flood", **result}))


if __name__ == "__main__":
    main()
