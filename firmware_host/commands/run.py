"""``table-companion run``: the daemon. Loads the config, opens the journal and the hardware,
and runs the event loop until SIGTERM (``systemctl stop``) or Ctrl-C.

Hardware is opened here and nowhere else. Each failure a person can fix ends the process
with one line on stderr and an exit status of its own, so the unit can tell systemd not to
restart into the same mistake (``RestartPreventExitStatus=``).
"""

from __future__ import annotations

import argparse
import logging
import queue
import sys
import time
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import Any

from PIL import Image

from firmware_host.commands import Subparsers
from firmware_host.config import Config, ConfigError, load
from firmware_host.event_log import EventLog
from firmware_host.journal import Journal, JournalError
from firmware_host.loop import Loop, Poller, stop_on_signals
from firmware_host.notify import Notifier
from games.core import GameState
from hardware.controls import Controls
from hardware.dice_button import DiceButton
from hardware.display import Display
from hardware.display_emulators import TerminalView
from hardware.display_fallback import FallbackDisplay
from hardware.driver_types import Emit, PinFactory
from hardware.errors import HardwareError
from hardware.events import Event
from hardware.matrix import ReedMatrix
from hardware.oled_factory import open_oled
from hardware.pin_factory import mock_factory, open_pin_factory
from hardware.pinmap import PinMap

# sysexits.h codes: each is a mistake that a restart would only repeat
EXIT_CONFIG = 78  # EX_CONFIG: the config file is wrong
EXIT_JOURNAL = 65  # EX_DATAERR: the journal is damaged, foreign or unwritable
EXIT_HARDWARE = 69  # EX_UNAVAILABLE: no GPIO here, or no permission to use it

log = logging.getLogger("table_companion")


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "run", help="run the companion (the systemd service runs this)",
        description="Run the companion until stopped. Exit status 78: bad config file; "
                    "65: unusable journal; 69: no GPIO (try --mock).")
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="config file (default: /etc/table-companion/config.toml if present)")
    parser.add_argument("--mock", action="store_true",
                        help="use mock pins and draw the screen in the terminal (no Pi needed)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        config = load(args.config)
    except ConfigError as err:
        return _fail(err, EXIT_CONFIG)
    with ExitStack() as resources:
        try:
            journal = resources.enter_context(Journal.open(config.journal))
        except JournalError as err:
            return _fail(err, EXIT_JOURNAL)
        game = _resume(journal)
        events: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
        try:
            factory = mock_factory() if args.mock else open_pin_factory()
            resources.callback(factory.close)
            inputs = build_inputs(config.pins(), factory, events.put, resources)
        except HardwareError as err:
            return _fail(err, EXIT_HARDWARE)
        screen, screen_pollers = open_screen(config, args.mock, events.put)
        notifier = Notifier.from_environ()
        if game is not None:
            notifier.status(f"resumed {game.TITLE} after {len(game.history)} moves")
        loop = Loop(EventLog(game), screen, notifier, events=events,
                    pollers=[*inputs, *screen_pollers])
        panel = None if args.mock or config.display is None else config.display.describe()
        log.info("running: screen %s, journal %s", panel or "in the terminal", config.journal)
        with stop_on_signals(loop):
            loop.run()
        log.info("stopped after %d events", loop.handled)
    return 0


def _fail(err: Exception, status: int) -> int:
    print(f"table-companion run: error: {err}", file=sys.stderr)
    return status


def _resume(journal: Journal) -> GameState[Any] | None:
    """The unfinished game; one the rules can no longer replay is set aside, not fatal."""
    try:
        return journal.resume()
    except JournalError as err:
        log.error("%s; it is marked abandoned and kept in the journal", err)
        journal.abandon()
        return None


class _NoScreen:
    """Where frames go while no panel answers and no terminal is attached."""

    def show(self, image: Image.Image) -> None:
        pass


def open_screen(config: Config, mock: bool, emit: Emit) -> tuple[Display, list[Poller]]:
    """The screen and what must be polled for it: the OLED (reopened whenever it drops off
    the bus, meanwhile the terminal if there is one) or, emulated, the terminal alone."""
    terminal = TerminalView(sys.stdout, in_place=sys.stdout.isatty())
    if mock or config.display is None:
        return terminal, []
    panel = config.display
    fallback: Display = terminal if sys.stdout.isatty() else _NoScreen()
    screen = FallbackDisplay(partial(open_oled, panel), fallback, emit, name=panel.describe())
    screen.tick(time.monotonic())
    return screen, [screen.tick]


def build_inputs(pins: PinMap, factory: PinFactory, emit: Emit,
                 resources: ExitStack) -> list[Poller]:
    """The dice button, the controls and the board sensors on the pin map's pins, closed
    with ``resources``; returned as the loop's pollers (none of them starts a thread)."""
    dice = DiceButton(pins.dice, factory, emit)
    resources.callback(dice.close)
    controls = Controls(pins.buttons, factory, emit, encoder=pins.encoder)
    resources.callback(controls.close)
    board = ReedMatrix(pins.matrix.rows, pins.matrix.cols, factory, emit)
    resources.callback(board.close)

    def poll_all(now: float) -> None:
        dice.poll()
        controls.poll()
        board.scan()

    return [poll_all]
