"""Play a scenario through the real daemon on mock pins, on a manual clock, into PNG and GIF.

The loop is the daemon's own :class:`~firmware_host.loop.Loop`; only its queue differs.
:class:`ScriptedTime` moves the manual clock where the loop would wait, and at each act's
moment the hands drive the mock pins, so the drivers debounce and emit as on a Pi. Nothing
sleeps, and the same scenario and seed give the same frames on every machine.
"""

from __future__ import annotations

import queue
import random
from collections import deque
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

from PIL import Image

from firmware_host.config import Config
from firmware_host.daemon import assemble, journal_state, resume
from firmware_host.journal import Journal
from firmware_host.sensing import Square, recogniser_for
from firmware_host.sim.scenario import Act, Scenario
from firmware_host.voice.spoken import Sink
from games.words import count
from hardware.controls.mock_table import MockTable
from hardware.display.emulators import GifRecorder, PngFrames
from hardware.events import Event
from hardware.pins.clock import ManualClock
from hardware.pins.driver_types import PinFactory
from hardware.wiring.pinmap import PinMap


class ScriptedTime:
    """The loop's event queue for a scenario: a wait moves the clock, acts happen on time,
    and once the last step has settled and every event is taken, ``finished`` is called."""

    def __init__(self, clock: ManualClock, acts: list[Act], end: float, table: MockTable) -> None:
        self.clock = clock
        self.table = table
        self.end = end
        self.finished: Callable[[], None] = lambda: None
        self._acts = deque(sorted(acts, key=lambda act: act.at))
        self._queued: deque[Event | None] = deque()
        self._done = False

    def put(self, item: Event | None) -> None:
        self._queued.append(item)

    def get(self, block: bool = True, timeout: float | None = None) -> Event | None:
        if not self._queued:
            self._pass_time(timeout)
        if not self._queued and not self._done and not self._acts and self.clock() >= self.end:
            self._done = True
            self.finished()
        if not self._queued:
            raise queue.Empty
        return self._queued.popleft()

    def _pass_time(self, timeout: float | None) -> None:
        now = self.clock()
        upto = self._acts[0].at if self._acts else self.end
        if timeout is not None:
            upto = min(upto, now + timeout)
        self.clock.advance(max(0.0, upto - now))
        while self._acts and self._acts[0].at <= self.clock():
            self._acts.popleft().perform(self.table, self.put)


class Recording:
    """Every new frame as a PNG in ``folder``, and all of them as one GIF at ``gif``."""

    def __init__(self, folder: Path, gif: Path, clock: ManualClock) -> None:
        self.pngs = PngFrames(folder)
        self.gif = GifRecorder(gif, ticks=clock)

    def show(self, image: Image.Image) -> None:
        self.pngs.show(image)
        self.gif.show(image)


@dataclass(frozen=True)
class Played:
    frames: int
    gif: Path
    handled: int
    seconds: float
    journal: str

    def summary(self, scenario: Scenario) -> str:
        return (f"scenario {scenario.name}: {count(self.handled, 'event')} handled in "
                f"{self.seconds:g} s of table time, {count(self.frames, 'frame')} written "
                f"({self.gif.parent}/frame-*.png, {self.gif}); journal: {self.journal}")


def play(scenario: Scenario, config: Config, journal: Journal, factory: PinFactory,
         out: Path, *, seed: int, voice: Sink | None = None) -> Played:
    """Run ``scenario`` on ``factory``'s mock pins with the dice seeded by ``seed``;
    frames written from earlier runs into ``out`` are removed first. What the table says
    goes to ``voice``, if given."""
    for old in out.glob("frame-*.png"):
        old.unlink()
    config = replace(config, pin_map=scenario.map_source)
    clock = ManualClock()
    table = MockTable(scenario.pin_map, factory)  # before the drivers claim the pins
    put_pieces_back(journal, scenario.pin_map, table)  # a board keeps its pieces over a stop
    acts, end = scenario.timeline()
    events = ScriptedTime(clock, acts, end, table)
    recording = Recording(out, out / f"{scenario.name}.gif", clock)
    with ExitStack() as resources:
        daemon = assemble(config, journal, factory, recording, resources, events=events,
                          clock=clock, rng=random.Random(seed), voice=voice)
        events.finished = daemon.loop.stop
        daemon.loop.run()
        handled = daemon.loop.handled
    recording.gif.save()
    return Played(recording.pngs.count, recording.gif.path, handled,
                  round(clock(), 3), journal_state(journal))


def put_pieces_back(journal: Journal, pins: PinMap, table: MockTable) -> set[Square]:
    """The simulated chips or markers of a resumed sensed game, put where the game has
    them before the first scan: the journal keeps the game, and the game says where its
    pieces are, so a restart never asks the player to put back pieces only simulated."""
    game = resume(journal)
    matrix = pins.matrix
    recogniser = None if game is None else recogniser_for(game, matrix.layout,
                                                          columns=len(matrix.cols))
    if game is None or recogniser is None:
        return set()
    pieces = set(recogniser.expected(game))
    for row, col in pieces:
        table.place(row, col)
    return pieces
