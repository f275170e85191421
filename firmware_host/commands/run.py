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

import serial
from PIL import Image

from firmware_host.commands import Subparsers, add_command
from firmware_host.config import Config, ConfigError, load
from firmware_host.daemon import assemble, open_journal
from firmware_host.journal import JournalError
from firmware_host.loop import Poller, stop_on_signals
from firmware_host.notify import Notifier
from hardware.display.emulators import TerminalView
from hardware.display.factory import open_oled
from hardware.display.fallback import FallbackDisplay
from hardware.display.protocol import Display
from hardware.errors import HardwareError
from hardware.events import Event
from hardware.pins.driver_types import Emit
from hardware.pins.factory import mock_factory, open_pin_factory

# sysexits.h codes: each is a mistake that a restart would only repeat
EXIT_CONFIG = 78  # EX_CONFIG: the config file is wrong
EXIT_JOURNAL = 65  # EX_DATAERR: the journal is damaged, foreign or unwritable
EXIT_HARDWARE = 69  # EX_UNAVAILABLE: no GPIO here, or no permission to use it

log = logging.getLogger("table_companion")


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "run", description=(
        "Run the companion until stopped. Exit status 78: bad config file; "
        "65: unusable journal; 69: no GPIO (try --mock)."))
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
            journal = open_journal(config.journal, resources)
        except JournalError as err:
            return _fail(err, EXIT_JOURNAL)
        events: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
        try:
            factory = mock_factory() if args.mock else open_pin_factory()
            resources.callback(factory.close)
            screen, screen_pollers = open_screen(config, args.mock, events.put)
            daemon = assemble(config, journal, factory, screen, resources, events=events,
                              notifier=Notifier.from_environ(), pollers=screen_pollers,
                              serial_opener=serial.serial_for_url)
        except HardwareError as err:
            return _fail(err, EXIT_HARDWARE)
        panel = None if args.mock or config.display is None else config.display.describe()
        log.info("running: screen %s, journal %s", panel or "in the terminal", config.journal)
        if config.serial is not None:
            provides = [name for name in ("board", "dice") if getattr(config.serial, name)]
            log.info("serial device %s (%s)", config.serial.port, " and ".join(provides))
        with stop_on_signals(daemon.loop):
            daemon.loop.run()
        log.info("stopped after %d events", daemon.loop.handled)
    return 0


def _fail(err: Exception, status: int) -> int:
    print(f"table-companion run: error: {err}", file=sys.stderr)
    return status


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
