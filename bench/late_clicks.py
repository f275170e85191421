"""Clicks under a late loop, as JSON: how many are lost and how many count twice.

One :class:`~hardware.controls.push_button.DebouncedButton` on gpiozero's mock pins and a
manual clock, read as the daemon's loop reads it (after an edge wakes it, and at the times
it asks for), except that every read comes late: a loop busy with a write to disk (an SD
card's fsync takes milliseconds, tens at the 99th percentile) or a frame. Each button gets
``CLICKS`` clicks of 30-300 ms, 30-300 ms apart, each press and release bouncing for up to
5 ms, as a ROLL button (a hold time: a click acts on its release) and as SELECT (acts on
its press).

- ``late_0_200ms``: every read late by 0-200 ms at random.
- ``stalls``: on time (within 1 ms) but one read in twenty late by 20-200 ms.

``lost`` and ``doubled`` count clicks that did nothing and that acted twice (or held); the
goal is 0 for both.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from gpiozero.pins.mock import MockFactory
from smoke import sized

from hardware.controls.push_button import DebouncedButton
from hardware.pins.clock import ManualClock
from hardware.pins.edges import earliest

PIN = 5
HOLD_S = 1.0
CLICKS = sized(10_000, 100)
Lateness = Callable[[random.Random], float]
PROFILES: dict[str, Lateness] = {
    "late_0_200ms": lambda rng: rng.uniform(0, 0.2),
    "stalls": lambda rng: rng.uniform(0.02, 0.2) if rng.random() < 0.05 else rng.uniform(0, 0.001),
}


class LateLoop:
    """One button read by a loop late by ``late(rng)`` s at every read, whether an edge woke
    it or it reads at a time the button asked for."""

    def __init__(self, hold_time: float | None, rng: random.Random,
                 late: float | Lateness) -> None:
        self.clock = ManualClock()
        self.pin = MockFactory().pin(PIN)
        self.acts: list[str] = []
        self._rng = rng
        self._late = late if callable(late) else (lambda r: r.uniform(0, late))
        self._wake: float | None = None
        self.button = DebouncedButton(
            PIN, self.pin.factory, self.clock, name="late button",
            on_press=lambda: self.acts.append("press"),
            on_hold=None if hold_time is None else lambda: self.acts.append("hold"),
            hold_time=hold_time, waker=self._woken)
        self._due = self._read()

    def _woken(self) -> None:
        if self._wake is None:
            self._wake = self.clock() + self._late(self._rng)

    def _read(self) -> float | None:
        self._wake = None
        due = self.button.poll(self.clock())
        return None if due is None else due + self._late(self._rng)

    def play(self, edges: list[tuple[float, bool]]) -> None:
        """Drive the pin through ``edges`` (time, pressed), reading whenever the loop does,
        and on for 3 s after the last."""
        timeline: list[tuple[float, bool | None]] = [*edges, (edges[-1][0] + 3.0, None)]
        for at, pressed in timeline:
            while (read := earliest((self._wake, self._due))) is not None and read <= at:
                self.clock.now = max(self.clock.now, read)
                self._due = self._read()
            self.clock.now = at
            if pressed is not None:
                self.pin.drive_low() if pressed else self.pin.drive_high()


def clicks(rng: random.Random, count: int) -> list[tuple[float, bool]]:
    """``count`` clicks of 30-300 ms, 30-300 ms apart, each press and release bouncing for up
    to 5 ms (0, 2 or 4 extra edges); the levels as (time, pressed), one per edge."""
    edges: list[tuple[float, bool]] = []
    at = 1.0
    for _ in range(count):
        for pressed in (True, False):
            flips = sorted(rng.uniform(0, 0.005) for _ in range(2 * rng.randint(0, 2)))
            level = pressed
            for offset in (0.0, *flips):
                edges.append((at + offset, level))
                level = not level
            at += rng.uniform(0.03, 0.3)
    return edges


def counted(hold_time: float | None, late: Lateness, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    loop = LateLoop(hold_time, rng, late)
    loop.play(clicks(rng, CLICKS))
    presses = loop.acts.count("press")
    return {"clicks": CLICKS, "lost": max(0, CLICKS - presses),
            "doubled": max(0, presses - CLICKS) + loop.acts.count("hold")}


def main() -> None:
    found = {profile: {"roll": counted(HOLD_S, late, 1), "select": counted(None, late, 2)}
             for profile, late in PROFILES.items()}
    lost = sum(kind["lost"] for kinds in found.values() for kind in kinds.values())
    doubled = sum(kind["doubled"] for kinds in found.values() for kind in kinds.values())
    print(json.dumps({
        "bench": "late_clicks", "lost": lost, "doubled": doubled, **found,
        "goals": {"lost": {"value": lost, "goal": 0, "ok": lost == 0},
                  "doubled": {"value": doubled, "goal": 0, "ok": doubled == 0}},
    }))


if __name__ == "__main__":
    main()
