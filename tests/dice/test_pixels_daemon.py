"""The daemon as ``run`` builds it, with ``[dice] source = "pixels"``: the scan is started
with the scanners handed in, a throw of the named dice is played and journaled from
``pixels``, and the scan is stopped when the daemon's resources close."""

from __future__ import annotations

import queue
import random
import subprocess
import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from gpiozero.pins.mock import MockFactory
from PIL import Image
from test_pixels_games import OURS, journaled_sources

from firmware_host.config import Config, DiceConfig, GameConfig
from firmware_host.daemon import assemble
from firmware_host.journal import Journal
from firmware_host.referee import Referee
from games.dalmatian import Dalmatian
from hardware.dice.mock import MockDice
from hardware.dice.pixels import RollState
from hardware.events import Event
from hardware.pins.clock import ManualClock


class Script:
    """The loop's queue: while nothing waits, the clock moves on and the next step runs."""

    def __init__(self, clock: ManualClock, steps: list[Callable[[], None]]) -> None:
        self.clock, self.steps = clock, steps
        self.queued: list[Event | None] = []

    def put(self, item: Event | None) -> None:
        self.queued.append(item)

    def get(self, block: bool = True, timeout: float | None = None) -> Event | None:
        if not self.queued:
            self.clock.advance(timeout if timeout is not None else 0.1)
            if self.steps:
                self.steps.pop(0)()
        if not self.queued:
            raise queue.Empty
        return self.queued.pop(0)


class Frames:
    def show(self, image: Image.Image) -> None:
        pass


def test_the_daemon_plays_a_throw_of_pixels_dice(tmp_path: Path) -> None:
    config = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian"), display=None,
                    journal=tmp_path / "journal.sqlite3", dice=DiceConfig("pixels", OURS, 5))
    air = MockDice()
    clock = ManualClock()
    with Journal.open(config.journal) as journal:
        journal.start(Dalmatian.new(2, ["Ann", "Ben"]))

    def throw() -> None:
        for die in OURS:
            air.advertise(die, RollState.ROLLING)
        for face, die in enumerate(OURS, 1):
            air.advertise(die, RollState.ROLLED, face)

    steps: list[Callable[[], None]] = [
        lambda: air.started.wait(2.0), throw, *[lambda: None] * 20, lambda: daemon.loop.stop()]
    factory = MockFactory()
    try:
        with ExitStack() as resources:
            journal = resources.enter_context(Journal.open(config.journal))
            daemon = assemble(config, journal, factory, Frames(), resources,
                              events=Script(clock, steps), clock=clock, rng=random.Random(1),
                              scanners=air.scanner)
            assert daemon.pixels is not None and daemon.inputs.dice.count == 5
            daemon.loop.run()
            referee = daemon.loop.controller
            assert isinstance(referee, Referee) and referee.game is not None
            assert [str(a) for a in referee.game.history] == ["roll 1-2-3-4-5"]
    finally:
        factory.close()
    assert air.listening == []  # the scan stopped with the daemon
    assert journaled_sources(config.journal) == ["pixels"]


def test_without_scanners_the_pixels_config_starts_no_scan(tmp_path: Path) -> None:
    config = Config(display=None, journal=tmp_path / "journal.sqlite3",
                    dice=DiceConfig("pixels", OURS, 5))
    factory = MockFactory()
    try:
        with ExitStack() as resources:
            journal = resources.enter_context(Journal.open(config.journal))
            daemon = assemble(config, journal, factory, Frames(), resources,
                              events=Script(ManualClock(), []), clock=ManualClock())
            assert daemon.pixels is None
    finally:
        factory.close()


def test_a_table_without_pixels_dice_starts_without_asyncio_or_bleak() -> None:
    """asyncio costs 80 ms of a start here (more on a Zero 2 W): only the scan's thread
    imports it, and bleak only when the config names Pixels dice."""
    code = ("import firmware_host.cli, firmware_host.commands.run, firmware_host.daemon\n"
            "import sys\nprint(sorted({'asyncio', 'bleak'} & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "[]"
