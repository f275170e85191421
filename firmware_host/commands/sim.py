"""``table-companion sim``: the daemon of ``run`` on mock pins, with an emulated screen.

In a terminal, keys play the hands: they press the mock buttons, turn the knob and put
magnets on the board, and the screen is drawn in the terminal. With ``--scenario`` (or with
no terminal at all, when the shipped demo plays) the steps of a scenario file run on a
manual clock, as fast as the machine goes and the same on every run, and every frame is
written as a PNG, and all of them as a GIF, into ``--out``.

With ``--serial`` a TC1 device (a pty, ``loop://``, a real board) plays along with the
keys, as the config's ``[serial]`` section describes it; the service's configured device is
never opened here. Its journal is its own, never the service's. Every mistake a user can
fix is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import logging
import os
import queue
import random
import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from firmware_host.commands import Subparsers, add_command, output_folder
from firmware_host.config import SIM_JOURNAL_NAME, Config, SerialConfig, load, sim_journal
from firmware_host.daemon import assemble, journal_state, open_journal
from firmware_host.errors import UsageError
from firmware_host.journal import Journal
from firmware_host.loop import POLL_INTERVAL, every
from firmware_host.signals import stop_on_signals
from firmware_host.sim import scenario as scenarios
from firmware_host.sim.keys import Keyboard
from firmware_host.sim.pixels import MOCK_DICE, SIM_DICE, PixelsHand
from firmware_host.sim.runner import play, put_pieces_back
from firmware_host.sim.terminal import LiveScreen, keys_mode, reader
from firmware_host.sim.view import AUTO, VIEWS
from games.words import count
from hardware.controls.mock_table import MockTable
from hardware.dice.mock import MockDice
from hardware.events import Event, InputEdge
from hardware.pins.driver_types import PinFactory
from hardware.pins.factory import mock_factory
from hardware.serial.bridge import Opener, serial_for_url

DEMO = "demo"
SCENARIO_SEED = 1


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "sim", description=(
        "Run the companion on mock pins. In a terminal, keys press the buttons, "
        "turn the knob and place magnets, and the screen is drawn in the "
        "terminal. With --scenario (or without a terminal: the demo), a "
        "scenario file's steps run on a simulated clock and every frame is "
        "written into --out as a PNG, and all of them as a GIF."))
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="config file for the players, game and pin map (default: "
                             "/etc/table-companion/config.toml if present, else defaults)")
    parser.add_argument("--journal", type=Path, metavar="PATH",
                        help="journal file (default with keys: $XDG_STATE_HOME/"
                             f"table-companion/{SIM_JOURNAL_NAME}, or under ~/.local/state; a "
                             "scenario: a new one in --out)")
    parser.add_argument("--seed", type=int, metavar="N",
                        help=f"seed the dice button's throws (scenarios: {SCENARIO_SEED}; "
                             "keys: unseeded)")
    parser.add_argument("--scenario", metavar="FILE|NAME",
                        help="play a scenario file, or one shipped by name: "
                             + ", ".join(scenarios.shipped_names()))
    parser.add_argument("--out", type=Path, default=Path("sim-out"), metavar="DIR",
                        help="where a scenario's frames and GIF go (default: ./sim-out)")
    parser.add_argument("--view", choices=(AUTO, *VIEWS), default=AUTO,
                        help="how the screen is drawn: blocks (needs 130x37), braille "
                             "(66x21) or sextants (66x27, if the font has them); auto: "
                             "blocks when the terminal is large enough, else braille")
    parser.add_argument("--voice", action="store_true",
                        help="print what the table would say aloud: on the status line "
                             "with keys, a line each with a scenario")
    parser.add_argument("--serial", metavar="PORT|URL",
                        help="with keys: also take a TC1 device on this serial port or "
                             "pyserial URL (a pty, loop://); what it provides comes from the "
                             "config's [serial] section (default: dice)")
    parser.add_argument("--pixels", action="store_true",
                        help="with keys: five mock Pixels dice take the place of the "
                             "config's [dice], read through the same scan and throw assembler "
                             "as real ones; key t throws them (now and then one lands crooked "
                             "and is rolled again)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    config = load(args.config)
    journal_path: Path = args.journal or sim_journal(os.environ)
    config = replace(config, journal=journal_path, display=None,
                     serial=serial_device(config, args.serial))
    name: str | None = args.scenario
    keys = sys.stdin.isatty() and sys.stdout.isatty()
    if args.serial is not None and (name is not None or not keys):
        raise UsageError("--serial plays along with keys in a terminal; a scenario's dice "
                         "are its own steps")
    if args.pixels and (name is not None or not keys):
        raise UsageError("--pixels plays along with keys in a terminal; a scenario's dice "
                         "are its own steps")
    if name is None and not keys:
        print(f"table-companion sim: no terminal to read keys from; playing the {DEMO} "
              f"scenario into {args.out} (see --scenario)", file=sys.stderr)
        name = DEMO
    scenario = None if name is None else scenarios.load(name, config.pin_map)
    with ExitStack() as resources:
        if scenario is not None:
            output_folder(args.out, "--out")
            journal_path = args.journal or fresh_journal(args.out, scenario.name)
            config = replace(config, journal=journal_path)
        output_folder(journal_path.parent, "--journal")
        journal = open_journal(journal_path, resources)
        factory = mock_factory()
        resources.callback(factory.close)
        if scenario is None:
            return interactive(config, journal, factory, resources, seed=args.seed,
                               keys_fd=sys.stdin.fileno(), out=sys.stdout, view=args.view,
                               serial_opener=serial_for_url, pixels=args.pixels,
                               voice=args.voice)
        seed = SCENARIO_SEED if args.seed is None else args.seed
        said = Said(lambda text: print(f"says: {text}")) if args.voice else None
        played = play(scenario, config, journal, factory, args.out, seed=seed, voice=said)
        print(played.summary(scenario))
    return 0


class Said:
    """The voice as text: each phrase handed to ``show`` (nothing is made ahead)."""

    def __init__(self, show: Callable[[str], None]) -> None:
        self.say = show

    def prepare(self, texts: Sequence[str]) -> None:
        pass


def fresh_journal(out: Path, name: str) -> Path:
    """A scenario's own journal in ``out``, emptied, so that a scenario never plays into
    (or resumes) the game of the interactive simulator, nor the last run's."""
    path = out / f"{name}-journal.sqlite3"
    for stale in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        stale.unlink(missing_ok=True)
    return path


def interactive(config: Config, journal: Journal, factory: PinFactory, resources: ExitStack,
                *, seed: int | None, keys_fd: int, out: TextIO, view: str = AUTO,
                serial_opener: Opener | None = None, pixels: bool = False,
                voice: bool = False) -> int:
    """Play with keys on terminal ``keys_fd``, the screen drawn on ``out`` in ``view``
    (following the terminal's size), until ``q``; with ``serial_opener``, the config's
    serial device plays along; with ``pixels``, mock Pixels dice thrown with a key; with
    ``voice``, the status line shows what the table says."""
    pins = config.pins()
    table = MockTable(pins, factory)  # before the drivers claim the pins
    events: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
    mock_dice = MockDice(MOCK_DICE) if pixels else None
    hand = None if mock_dice is None else PixelsHand(mock_dice, lambda: daemon.inputs.dice.count)
    keyboard = Keyboard(table, pins, events.put, reader(keys_fd), quit=lambda: None,
                        magnets=put_pieces_back(journal, pins, table),
                        pixels=None if hand is None else hand.throw)
    screen = LiveScreen(out, lambda: [keyboard.help(), keyboard.status], view)
    keyboard.changed = screen.redraw_footer
    dice_pollers = [] if mock_dice is None else [every(POLL_INTERVAL, mock_dice.poll)]
    said: list[str] = []

    def subtitle(text: str) -> None:  # the newest first: the line is cut to the width
        said[:] = [text, *said[:2]]
        keyboard.status = "says: " + " · ".join(said)
        screen.redraw_footer()

    daemon = assemble(replace(config, dice=SIM_DICE) if pixels else config, journal, factory,
                      screen, resources, events=events,
                      rng=None if seed is None else random.Random(seed),
                      pollers=[every(POLL_INTERVAL, keyboard.poll),
                               every(POLL_INTERVAL, screen.poll), *dice_pollers],
                      serial_opener=serial_opener,
                      scanners=None if mock_dice is None else mock_dice.scanner,
                      voice=Said(subtitle) if voice else None)
    keyboard.quit = daemon.loop.stop
    # the resize wakes the loop: besides drawing at once, a signal that only took note could
    # leave the loop's wait on its queue (SimpleQueue.get with a timeout) asleep for good on
    # CPython 3.11 and 3.12, the simulator frozen until an event arrives, and none would
    screen.follow_resizes(resources, wake=lambda: events.put(InputEdge()))
    with keys_mode(keys_fd, out), stop_on_signals(daemon.loop.stop):
        try:
            daemon.loop.run()
        finally:
            screen.leave()
    print(f"table-companion sim: {count(daemon.loop.handled, 'event')} handled; journal "
          f"{journal.path}: {journal_state(journal)}", file=out)
    return 0


def serial_device(config: Config, port: str | None) -> SerialConfig | None:
    """The serial device of ``--serial``, on the config's settings; none without it, since
    the service's own device is not the simulator's."""
    if port is None:
        return None
    if not port.strip():
        raise UsageError("--serial: give a serial port or pyserial URL, e.g. /dev/pts/3")
    return replace(config.serial or SerialConfig(), port=port)


