"""The daemon as ``run`` and ``sim`` both build it: journal, inputs, controller, one loop.

The entry points open what differs (the pin factory: real GPIO or mock pins; the screen: the
OLED, the terminal or PNG files; the clock: real or manual) and hand it to :func:`assemble`,
so the simulator runs exactly the code the Pi runs. :func:`make_controller` is the one place
that decides what drives the table.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from firmware_host.config import Config
from firmware_host.journal import Journal, JournalError
from firmware_host.loop import Clock, Controller, EventQueue, Loop, Poller
from firmware_host.notify import Notifier
from firmware_host.referee import Referee
from firmware_host.sensing import recogniser_for
from games.core import GameState
from hardware.display import Display
from hardware.driver_types import Emit, PinFactory
from hardware.inputs import InputSet
from hardware.pinmap import PinMap

log = logging.getLogger("table_companion")


def make_controller(config: Config, journal: Journal, game: GameState[Any] | None,
                    inputs: InputSet, shutdown: Callable[[], None]) -> Controller:
    """What the loop drives: the referee, resuming ``game``, setting the dice button's
    count, reading the board sensors of the pin map, and running ``shutdown`` from its menu.
    """
    matrix = inputs.pin_map.matrix
    return Referee(config, journal, game=game, roller=inputs.dice,
                   recognise=partial(recogniser_for, layout=matrix.layout,
                                     columns=len(matrix.cols)),
                   board=inputs.matrix.occupied, shutdown=shutdown)


def resume(journal: Journal) -> GameState[Any] | None:
    """The unfinished game; one the rules can no longer replay is set aside, not fatal."""
    try:
        return journal.resume()
    except JournalError as err:
        log.error("%s; it is marked abandoned and kept in the journal", err)
        journal.abandon()
        return None


def open_journal(path: Path, resources: ExitStack) -> Journal:
    """The journal at ``path``, closed with ``resources``; raises JournalError."""
    return resources.enter_context(Journal.open(path))


def open_inputs(pins: PinMap, factory: PinFactory, emit: Emit, resources: ExitStack, *,
                clock: Clock = time.monotonic, rng: random.Random | None = None) -> InputSet:
    """The dice button, controls and board sensors of ``pins``, closed with ``resources``.
    None of them starts a thread; the loop polls them."""
    inputs = InputSet(pins, factory, emit, ticks=clock, rng=rng)
    resources.callback(inputs.close)
    return inputs


@dataclass(frozen=True)
class Daemon:
    """The assembled parts; ``loop.run()`` starts it."""

    loop: Loop
    inputs: InputSet
    journal: Journal


def assemble(config: Config, journal: Journal, factory: PinFactory, screen: Display,
             resources: ExitStack, *, events: EventQueue, notifier: Notifier | None = None,
             clock: Clock = time.monotonic, rng: random.Random | None = None,
             pollers: Sequence[Poller] = ()) -> Daemon:
    """The daemon on ``factory``'s pins showing on ``screen``; drivers put events on
    ``events``. ``pollers`` run after the inputs' (the OLED's retry, the simulator's keys).
    Raises HardwareError when a pin cannot be had."""
    notifier = notifier if notifier is not None else Notifier()
    game = resume(journal)
    if game is not None:
        notifier.status(f"resumed {game.TITLE} after {len(game.history)} moves")
    inputs = open_inputs(config.pins(), factory, events.put, resources, clock=clock, rng=rng)
    controller = make_controller(config, journal, game, inputs, lambda: loop.stop())

    def poll_inputs(now: float) -> None:
        inputs.poll()

    loop = Loop(controller, screen, notifier, events=events, clock=clock,
                pollers=[poll_inputs, *pollers])
    return Daemon(loop, inputs, journal)


def journal_state(journal: Journal) -> str:
    """One phrase for summaries: the game in progress, or none."""
    game = resume(journal)
    if game is None:
        return "no game in progress"
    return f"{game.TITLE} in progress, {len(game.history)} moves"
