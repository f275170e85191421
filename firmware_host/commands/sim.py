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
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from firmware_host.commands import Subparsers, add_command
from firmware_host.config import Config, SerialConfig, load
from firmware_host.daemon import assemble, journal_state, open_journal
from firmware_host.errors import UsageError
from firmware_host.journal import Journal
from firmware_host.loop import stop_on_signals
from firmware_host.sim import scenario as scenarios
from firmware_host.sim.keys import Keyboard
from firmware_host.sim.runner import play
from firmware_host.sim.terminal import LiveScreen, keys_mode, reader
from hardware.controls.mock_table import MockTable
from hardware.events import Event
from hardware.pins.driver_types import PinFactory
from hardware.pins.factory import mock_factory
from hardware.serial.bridge import Opener, serial_for_url

DEMO = "demo"
SCENARIO_SEED = 1
JOURNAL_NAME = "sim-journal.sqlite3"


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
                        help="journal file (default: $XDG_STATE_HOME/table-companion/"
                             f"{JOURNAL_NAME}, or under ~/.local/state)")
    parser.add_argument("--seed", type=int, metavar="N",
                        help=f"seed the dice button's throws (scenarios: {SCENARIO_SEED}; "
                             "keys: unseeded)")
    parser.add_argument("--scenario", metavar="FILE|NAME",
                        help="play a scenario file, or one shipped by name: "
                             + ", ".join(scenarios.shipped_names()))
    parser.add_argument("--out", type=Path, default=Path("sim-out"), metavar="DIR",
                        help="where a scenario's frames and GIF go (default: ./sim-out)")
    parser.add_argument("--serial", metavar="PORT|URL",
                        help="with keys: also take a TC1 device on this serial port or "
                             "pyserial URL (a pty, loop://); what it provides comes from the "
                             "config's [serial] section (default: dice)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    config = load(args.config)
    journal_path: Path = args.journal or default_journal(os.environ)
    config = replace(config, journal=journal_path, display=None,
                     serial=serial_device(config, args.serial))
    name: str | None = args.scenario
    keys = sys.stdin.isatty() and sys.stdout.isatty()
    if args.serial is not None and (name is not None or not keys):
        raise UsageError("--serial plays along with keys in a terminal; a scenario's dice "
                         "are its own steps")
    if name is None and not keys:
        print(f"table-companion sim: no terminal to read keys from; playing the {DEMO} "
              f"scenario into {args.out} (see --scenario)", file=sys.stderr)
        name = DEMO
    scenario = None if name is None else scenarios.load(name, config.pin_map)
    with ExitStack() as resources:
        _make_folder(journal_path.parent, "--journal")
        journal = open_journal(journal_path, resources)
        factory = mock_factory()
        resources.callback(factory.close)
        if scenario is None:
            return interactive(config, journal, factory, resources, seed=args.seed,
                               keys_fd=sys.stdin.fileno(), out=sys.stdout,
                               serial_opener=serial_for_url)
        _make_folder(args.out, "--out")
        seed = SCENARIO_SEED if args.seed is None else args.seed
        played = play(scenario, config, journal, factory, args.out, seed=seed)
        print(played.summary(scenario))
    return 0


def interactive(config: Config, journal: Journal, factory: PinFactory, resources: ExitStack,
                *, seed: int | None, keys_fd: int, out: TextIO,
                serial_opener: Opener | None = None) -> int:
    """Play with keys on terminal ``keys_fd``, the screen drawn on ``out``, until ``q``;
    with ``serial_opener``, the config's serial device plays along."""
    pins = config.pins()
    table = MockTable(pins, factory)  # before the drivers claim the pins
    events: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
    keyboard = Keyboard(table, pins, events.put, reader(keys_fd), quit=lambda: None)
    screen = LiveScreen(out, lambda: [keyboard.help(), keyboard.status])
    keyboard.changed = screen.redraw_footer
    daemon = assemble(config, journal, factory, screen, resources, events=events,
                      rng=None if seed is None else random.Random(seed),
                      pollers=[keyboard.poll], serial_opener=serial_opener)
    keyboard.quit = daemon.loop.stop
    with keys_mode(keys_fd, out), stop_on_signals(daemon.loop):
        try:
            daemon.loop.run()
        finally:
            screen.leave()
    print(f"table-companion sim: {daemon.loop.handled} events handled; journal "
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


def default_journal(environ: Mapping[str, str]) -> Path:
    """The simulator's journal under $XDG_STATE_HOME (or ~/.local/state), never /var/lib."""
    state = environ.get("XDG_STATE_HOME", "")
    base = Path(state) if os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "table-companion" / JOURNAL_NAME


def _make_folder(folder: Path, option: str) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UsageError(f"{option}: cannot create {folder} ({err.strerror or err})") from None
