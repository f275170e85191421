"""``table-companion run``: the daemon. Loads the config, opens the journal and the hardware,
and runs the event loop until SIGTERM (``systemctl stop``) or Ctrl-C.

Hardware is opened here and nowhere else. Each failure a person can fix ends the process
with one line on stderr and an exit status of its own, so the unit can tell systemd not to
restart into the same mistake (``RestartPreventExitStatus=``).
"""

from __future__ import annotations

import argparse
import logging
import os
import queue
import sys
import time
from contextlib import ExitStack
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TextIO

from PIL import Image

from firmware_host.commands import Subparsers, add_command, output_folder
from firmware_host.config import Config, ConfigError, load
from firmware_host.daemon import assemble, open_journal
from firmware_host.errors import UsageError
from firmware_host.loop import Poller, every
from firmware_host.notify import Notifier
from firmware_host.signals import stop_on_signals
from firmware_host.sim.terminal import LiveScreen, keys_mode
from hardware.dice.reader import bleak_scanners
from hardware.display.emulators import TerminalView
from hardware.display.factory import i2c_probe, open_oled
from hardware.display.fallback import FallbackDisplay
from hardware.display.protocol import Display
from hardware.errors import HardwareError
from hardware.events import Event, InputEdge
from hardware.pins.driver_types import Emit
from hardware.pins.factory import mock_factory, open_pin_factory
from hardware.reopen import CHECK_S
from hardware.serial.bridge import serial_for_url

# sysexits.h codes: each is a mistake that a restart would only repeat
EXIT_CONFIG = 78  # EX_CONFIG: the config file is wrong
EXIT_JOURNAL = 65  # EX_DATAERR: the journal is foreign, newer or unwritable (not damaged)
EXIT_HARDWARE = 69  # EX_UNAVAILABLE: no GPIO here, or no permission to use it

log = logging.getLogger("table_companion")


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "run", description=(
        "Run the companion until stopped. Exit status 78: bad config file; "
        "65: unusable journal; 69: no GPIO (try --mock)."))
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="config file (default: /etc/table-companion/config.toml if present)")
    parser.add_argument("--journal", type=Path, metavar="PATH",
                        help="journal file (default: the config's, else journal.sqlite3 in "
                             "$STATE_DIRECTORY, $XDG_STATE_HOME/table-companion or "
                             "~/.local/state/table-companion)")
    parser.add_argument("--mock", action="store_true",
                        help="use mock pins and draw the screen in the terminal (no Pi needed)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, handlers=[log_handler(sys.stderr)])
    try:
        config = load(args.config)
    except ConfigError as err:
        return _fail(err, EXIT_CONFIG)
    if args.journal is not None:
        config = replace(config, journal=args.journal)
    with ExitStack() as resources:
        try:
            output_folder(config.journal.parent, "journal")
            journal = open_journal(config.journal, resources)
        except UsageError as err:  # a JournalError, or a folder that cannot be made
            return _fail(err, EXIT_JOURNAL)
        events: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
        try:
            factory = mock_factory() if args.mock else open_pin_factory(config.pin_library)
            resources.callback(factory.close)
            scanners = bleak_scanners() if config.dice.source == "pixels" else None
            screen, screen_pollers = open_screen(config, args.mock, events.put, resources)
            daemon = assemble(config, journal, factory, screen, resources, events=events,
                              notifier=Notifier.from_environ(), pollers=screen_pollers,
                              serial_opener=serial_for_url, scanners=scanners)
        except HardwareError as err:
            return _fail(err, EXIT_HARDWARE)
        panel = None if args.mock or config.display is None else config.display.describe()
        log.info("running: screen %s, journal %s", panel or "in the terminal", config.journal)
        if config.serial is not None:
            provides = [name for name in ("board", "dice") if getattr(config.serial, name)]
            log.info("serial device %s (%s)", config.serial.port, " and ".join(provides))
        if daemon.pixels is not None:
            log.info("Pixels dice %s, %d a throw", ", ".join(config.dice.pixels),
                     config.dice.count)
        with stop_on_signals(daemon.loop.stop):
            daemon.loop.run()
    log.info("stopped after %d events", daemon.loop.handled)  # below the terminal's screen
    return 0


def _fail(err: Exception, status: int) -> int:
    prefix = _priority(logging.ERROR) if to_journald(sys.stderr) else ""
    print(f"{prefix}table-companion run: error: {err}", file=sys.stderr)
    return status


LOG_FORMAT = "%(levelname)s %(name)s: %(message)s"


def to_journald(stream: TextIO) -> bool:
    """Whether ``stream`` goes to journald: systemd names that stream's device and inode in
    ``JOURNAL_STREAM`` (a pipe to something else started from the unit has other ones)."""
    named = os.environ.get("JOURNAL_STREAM")
    if not named:
        return False
    try:
        status = os.fstat(stream.fileno())
    except (OSError, ValueError):
        return False
    return named == f"{status.st_dev}:{status.st_ino}"


def _priority(level: int) -> str:
    """The ``<N>`` prefix by which journald stores a line at syslog priority N."""
    for floor, priority in ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4),
                            (logging.INFO, 6)):
        if level >= floor:
            return f"<{priority}>"
    return "<7>"


class JournaldFormatter(logging.Formatter):
    """Each line of a record starts with its priority, so ``journalctl -p warning`` filters
    by it (a traceback's lines too)."""

    def format(self, record: logging.LogRecord) -> str:
        prefix = _priority(record.levelno)
        return prefix + super().format(record).replace("\n", "\n" + prefix)


def log_handler(stream: TextIO) -> logging.Handler:
    """The daemon's log lines on ``stream``, with journald's priority prefixes when the
    stream is the journal's."""
    handler = logging.StreamHandler(stream)
    formatter = JournaldFormatter if to_journald(stream) else logging.Formatter
    handler.setFormatter(formatter(LOG_FORMAT))
    return handler


class _NoScreen:
    """Where frames go while no panel answers and no terminal is attached."""

    def show(self, image: Image.Image) -> None:
        pass


def open_screen(config: Config, mock: bool, emit: Emit, resources: ExitStack
                ) -> tuple[Display, list[Poller]]:
    """The screen and what must be polled for it: the OLED (reopened whenever it drops off
    the bus, meanwhile the terminal if there is one) or, emulated, the terminal alone."""
    if mock or config.display is None:
        return terminal_screen(resources, MOCK_HELP, emit)
    panel = config.display
    fallback, pollers = terminal_screen(
        resources, f"{panel.describe()} not answering: its screen is drawn here meanwhile",
        emit) if sys.stdout.isatty() else (_NoScreen(), [])
    screen = FallbackDisplay(partial(open_oled, panel), fallback, emit, name=panel.describe(),
                             probe=i2c_probe(panel))
    screen.tick(time.monotonic())
    return screen, [every(CHECK_S, screen.tick), *pollers]


MOCK_HELP = "mock pins, no keys: table-companion sim plays with keys; Ctrl-C stops"


def terminal_screen(resources: ExitStack, caption: str, emit: Emit
                    ) -> tuple[Display, list[Poller]]:
    """The terminal as the screen, and what the loop must poll for it. A terminal gets the
    frame in place in the largest view that fits it, as the simulator draws it, with
    ``caption`` under it, drawn anew as soon as the terminal is resized (the resize wakes
    the loop through ``emit``), keys typed meanwhile neither echoed nor left for the shell;
    anything else (a log, a pipe) gets each new frame below the last."""
    if not sys.stdout.isatty():
        return TerminalView(sys.stdout, in_place=False), []
    if sys.stdin.isatty():  # no key is read here: none may echo into the caption
        resources.enter_context(keys_mode(sys.stdin.fileno(), sys.stdout))
    live = LiveScreen(sys.stdout, footer=lambda: [caption, ""])
    live.follow_resizes(resources, wake=lambda: emit(InputEdge()))
    resources.callback(live.leave)
    return live, [live.poll]
