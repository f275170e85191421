"""``table-companion selftest``: a test pattern, then every button, the knob and each cell.

On a Pi it uses the real pins and the OLED of the daemon's config (``--config``), and waits
for a person to act; with ``--mock`` it builds the pin map on mock pins and lets simulated
hands do each step, so it runs unattended (the screen is drawn in the terminal). The exit
status is 0 when every check passed, 1 when one failed, 69 when there is no GPIO.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from contextlib import ExitStack
from pathlib import Path

from PIL import Image

from firmware_host.commands import Subparsers, add_command, output_file
from firmware_host.commands.run import EXIT_HARDWARE
from firmware_host.config import ConfigError, load
from firmware_host.errors import UsageError
from firmware_host.selftest import SelfTest, check_pixels, draw_test_pattern, steps_for
from hardware.controls.inputs import InputSet
from hardware.controls.mock_table import MockTable
from hardware.dice.mock import MockDice
from hardware.dice.reader import PixelsReader, bleak_scanners
from hardware.display.emulators import TerminalView
from hardware.display.factory import OledConfig, open_oled
from hardware.errors import HardwareError, WiringError
from hardware.events import Event
from hardware.pins.clock import ManualClock
from hardware.pins.driver_types import PinFactory
from hardware.pins.factory import mock_factory, open_pin_factory
from hardware.wiring.pinmap import load_pin_map


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "selftest", description=(
        "Draw a test pattern, then ask for every input in turn and check that "
        "it arrives; with [dice] source = \"pixels\", listen for each named Pixels die and "
        "say its battery. Exit status 0: all passed; 1: a check failed; 69: no GPIO."))
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="config file (default: /etc/table-companion/config.toml if "
                             "present); gives the pin map and the OLED")
    parser.add_argument("--map", metavar="NAME",
                        help="pin map to test in place of the config's (name or .toml file)")
    parser.add_argument("--mock", action="store_true",
                        help="mock pins and simulated hands: runs by itself, no Pi needed")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="S",
                        help="seconds to wait for each action (default: 30)")
    parser.add_argument("--png", type=Path, metavar="FILE",
                        help="also save the test pattern as a PNG image")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.timeout <= 0:
        raise UsageError(f"--timeout must be more than 0 seconds, not {args.timeout:g}")
    if args.png is not None:
        if args.png.suffix.lower() != ".png":
            raise UsageError(f"--png: {args.png} does not end in .png; name a .png file")
        output_file(args.png, "--png")
    try:
        config = load(args.config)
        pin_map = load_pin_map(args.map or config.pin_map)
    except (ConfigError, WiringError) as err:
        raise UsageError(str(err)) from err
    with ExitStack() as resources:
        try:
            factory = mock_factory() if args.mock else open_pin_factory(config.pin_library)
        except HardwareError as err:
            print(f"table-companion selftest: error: {err}", file=sys.stderr)
            return EXIT_HARDWARE
        resources.callback(factory.close)
        pattern = draw_test_pattern(pin_map.name)
        if args.png is not None:
            pattern.save(args.png)
        if args.mock:
            TerminalView(sys.stdout, in_place=False).show(pattern)
        else:
            _show_on_oled(config.display, factory, pattern, resources)
        table = MockTable(pin_map, factory) if args.mock else None
        events: queue.SimpleQueue[Event] = queue.SimpleQueue()
        clock = ManualClock() if args.mock else time.monotonic
        try:
            inputs = InputSet(pin_map, factory, events.put, ticks=clock)
        except HardwareError as err:
            print(f"table-companion selftest: error: {err}", file=sys.stderr)
            return EXIT_HARDWARE
        resources.callback(inputs.close)
        print(f"self-test of pin map {pin_map.name}: {pin_map.title}")
        wait = clock.advance if isinstance(clock, ManualClock) else time.sleep
        test = SelfTest(inputs, events, sys.stdout, clock=clock, wait=wait, table=table,
                        timeout=args.timeout)
        failed = bool(test.run(steps_for(pin_map)))
        if config.dice.source == "pixels":
            failed |= not _check_dice(config.dice.pixels, args.mock, args.timeout)
        return 1 if failed else 0


def _check_dice(named: tuple[str, ...], mock: bool, timeout: float) -> bool:
    """The config's Pixels dice heard: through bleak, or mock dice with ``mock``."""
    if mock:
        dice = MockDice(named)
        return check_pixels(PixelsReader(dice.scanner, named), named, timeout, sys.stdout,
                            dice.wait)
    try:
        scanners = bleak_scanners()
    except HardwareError as err:
        print(f"Pixels dice: {err}")
        return False
    return check_pixels(PixelsReader(scanners, named), named, timeout, sys.stdout, time.sleep)


def _show_on_oled(display: OledConfig | None, factory: PinFactory, pattern: Image.Image,
                  resources: ExitStack) -> None:
    """Show the pattern on the config's OLED; a missing panel is reported, not fatal."""
    if display is None:
        print("screen: none configured; testing the inputs only")
        return
    try:
        oled = open_oled(display, pin_factory=factory)
    except HardwareError as err:
        print(f"screen: {err}; testing the inputs anyway")
        return
    resources.callback(oled.close)
    oled.show(pattern)
    print(f"screen: {display.describe()} shows a test pattern: check for a complete border "
          "and an even checkerboard")
