"""Typing a new player's name at the table: presses per name, the time a person takes, and
the referee's own time per press, as JSON.

Each name is typed as :func:`firmware_host.keyboard.route` says (the fewest presses of
UP/DOWN and SELECT, then OK), through a real referee drawing every frame, from "New
player" on the first seat's list to the name taken. A person's time is estimated with the
keystroke-level model (Card, Moran and Newell, 1980): 0.28 s a press (an average typist's
keystroke) and 1.35 s of looking before each letter and before OK (its mental act). The
knob's figure counts a turn of several detents as one gesture.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from functools import partial
from pathlib import Path

from firmware_host.config import Config
from firmware_host.journal import Journal
from firmware_host.keyboard import SELECT, Keyboard, route
from firmware_host.referee import Referee
from hardware.events import Control, ControlPressed

NAMES = ("Dorian", "Amelia", "Hannah", "Robert", "Sophie", "Xavier", "Yvonne", "Quincy",
         "Wilbur", "Zainab", "Gloria", "Kirsty", "Ursula", "Victor", "Maxime", "Jasper")
PRESS_S = 0.28
LOOK_S = 1.35
GOAL_S = 30.0  # a 6-letter name, by hand


def person_seconds(name: str) -> float:
    """The keystroke-level estimate of typing ``name`` and taking it."""
    return len(route(name)) * PRESS_S + (len(name) + 1) * LOOK_S


def gestures(presses: list[int]) -> int:
    """Presses with a knob: moves one way in a row are one turn."""
    count, last = 0, None
    for press in presses:
        if press == SELECT or press != last:
            count += 1
        last = press
    return count


def taken(typed: list[str], name: str) -> str:
    """Note ``name`` and refuse it, so the keyboard stays for the next."""
    typed.append(name)
    return "taken"


def referee_ms(names: tuple[str, ...]) -> list[float]:
    """Milliseconds the referee takes for each press (handling and drawing the frame),
    typing ``names`` one after the other on the keyboard of a new game's first seat."""
    timings = []
    with tempfile.TemporaryDirectory() as folder, \
            Journal.open(Path(folder) / "journal.sqlite3") as journal:
        referee = Referee(Config(players=("Ann", "Ben")), journal)
        for name in names:
            referee.pages.clear()
            typed: list[str] = []
            referee.open(Keyboard("seat 1", partial(taken, typed)))
            for press in route(name):
                control = Control.SELECT if press == SELECT else \
                    Control.DOWN if press > 0 else Control.UP
                began = time.perf_counter()
                referee.handle(ControlPressed(control))
                referee.frame()
                timings.append((time.perf_counter() - began) * 1000)
            assert typed == [name], (typed, name)
    return timings


def measured(names: tuple[str, ...]) -> dict[str, object]:
    presses = {name: len(route(name)) for name in names}
    seconds = {name: round(person_seconds(name), 1) for name in names}
    timings = referee_ms(names)
    worst = max(seconds.values())
    return {
        "bench": "typing_names",
        "names": len(names),
        "presses": presses,
        "presses_mean": round(statistics.mean(presses.values()), 1),
        "presses_max": max(presses.values()),
        "knob_gestures_mean": round(statistics.mean(gestures(route(n)) for n in names), 1),
        "person_s": seconds,
        "person_s_max": worst,
        "referee_ms_per_press": {"p50": round(statistics.median(timings), 3),
                                 "max": round(max(timings), 3)},
        "goals": {"person_s_max": {"value": worst, "goal": GOAL_S, "ok": worst < GOAL_S}},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="two names only")
    args = parser.parse_args()
    print(json.dumps(measured(NAMES[:2] if args.smoke else NAMES)))


if __name__ == "__main__":
    main()
