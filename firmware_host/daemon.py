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
from firmware_host.journal import Journal, Problem
from firmware_host.journal.errors import BUSY
from firmware_host.loop import (
    POLL_INTERVAL,
    Clock,
    Controller,
    DeviceLane,
    EventQueue,
    Loop,
    Poller,
    every,
)
from firmware_host.notify import Notifier
from firmware_host.pixels_device import PixelsDice, open_pixels
from firmware_host.referee import Referee
from firmware_host.referee.parts import Occupancy
from firmware_host.sensing import recogniser_for
from firmware_host.serial_device import open_serial
from firmware_host.voice.speaker import open_speaker
from firmware_host.voice.spoken import Sink, Spoken
from games.core import GameState
from games.words import count
from hardware.controls.inputs import InputSet
from hardware.dice.reader import ScannerFactory
from hardware.display.protocol import Display
from hardware.events import DeviceStatus, InputEdge
from hardware.pins.driver_types import Emit, PinFactory
from hardware.serial.bridge import Opener, SerialBridge
from hardware.sound.buzzer import Buzzer, open_output
from hardware.wiring.pinmap import PinMap

log = logging.getLogger("table_companion")


def make_controller(config: Config, journal: Journal, game: GameState[Any] | None,
                    inputs: InputSet, shutdown: Callable[[], None], *,
                    board: Occupancy | None = None, sound: Buzzer | None = None,
                    voice: Sink | None = None) -> Controller:
    """What the loop drives: the referee, resuming ``game``, setting the dice button's
    count, reading the board sensors (the pin map's matrix, unless ``board`` reads another
    scanner's cells; the pin map's layout says what the cells are either way), and running
    ``shutdown`` from its menu; ``sound`` is the buzzer, when the pin map has one, and
    ``voice`` says what the screen shows (:class:`~firmware_host.voice.spoken.Spoken`).
    """
    matrix = inputs.pin_map.matrix
    referee = Referee(config, journal, game=game, roller=inputs.dice,
                   recognise=partial(recogniser_for, layout=matrix.layout,
                                     columns=len(matrix.cols)),
                   board=board or inputs.matrix.occupied, shutdown=shutdown, sound=sound,
                   label=matrix.label,
                   restless=inputs.matrix.changes_by_itself if board is None else None)
    return referee if voice is None else Spoken(referee, voice)


def resume(journal: Journal) -> GameState[Any] | None:
    """The unfinished game, after checking it and the latest night's games: a damaged game
    is set aside (the journal says which and where, logged here), never fatal."""
    game = journal.resume()
    nights = journal.nights()
    if nights:
        journal.finished_games(nights[-1])  # the standings the menu shows: checked now
    for problem in journal.problems:
        log.error("journal %s: %s", journal.path, problem)
    for notice in journal.notices:  # moves held for a lock when the table stopped
        log.warning("journal %s: %s", journal.path, notice)
    return game


def damage_notice(problems: Sequence[Problem]) -> str:
    """The journal's damage in one line for the screen: actions lost first, as the players
    must know what to play again."""
    lost = [p for p in problems if p.lost]
    if lost:
        said = ", ".join(f"{p.lost} of game #{p.game_id}" for p in lost)
        return f"journal damage: actions lost ({said}), see the log"
    damaged = sorted({p.game_id for p in problems if p.game_id is not None})
    if not damaged:
        return "journal damage: see the log"
    return f"journal damage: game {', '.join(f'#{n}' for n in damaged)} set aside, see the log"


def open_journal(path: Path, resources: ExitStack) -> Journal:
    """The journal at ``path``, closed with ``resources``; one SQLite finds damaged is
    moved aside and what checks out of it copied into a new one (the journal's problems say
    so); raises JournalError when none can be had."""
    return resources.enter_context(Journal.open(path, salvage=True))


def open_buzzer(pins: PinMap, factory: PinFactory, emit: Emit,
                resources: ExitStack) -> Buzzer | None:
    """The pin map's buzzer, silenced and closed with ``resources``; None without one. A sound
    started wakes the loop through ``emit`` as an input's edge does."""
    if pins.buzzer is None:
        return None
    buzzer = Buzzer(open_output(pins.buzzer, pins.buzzer_kind, factory),
                    wake=lambda: emit(InputEdge()))
    resources.callback(buzzer.close)
    return buzzer


def open_voice(config: Config, journal: Journal, resources: ExitStack) -> Sink | None:
    """The ``[voice]`` speaker, its WAVs kept beside the journal and its thread stopped with
    ``resources``; None when the config asks for none or it cannot speak (logged once)."""
    speaker = open_speaker(config.voice, journal.path.parent / "voice")
    if speaker is not None:
        resources.callback(speaker.close)
        log.info("voice: %s on %s", config.voice.engine, config.voice.device)
    return speaker


def open_inputs(pins: PinMap, factory: PinFactory, emit: Emit, resources: ExitStack, *,
                clock: Clock = time.monotonic, rng: random.Random | None = None,
                start_empty: bool = True) -> InputSet:
    """The dice button, controls and board sensors of ``pins``, closed with ``resources``.
    None of them starts a thread; their edges wake the loop, which then reads them.
    ``start_empty``: the board should be bare at the first scan (no game to resume), so a
    piece sensed then is a stuck switch."""
    inputs = InputSet(pins, factory, emit, ticks=clock, rng=rng, start_empty=start_empty)
    resources.callback(inputs.close)
    return inputs


@dataclass(frozen=True)
class Daemon:
    """The assembled parts; ``loop.run()`` starts it."""

    loop: Loop
    inputs: InputSet
    journal: Journal
    serial: SerialBridge | None = None
    pixels: PixelsDice | None = None


def assemble(config: Config, journal: Journal, factory: PinFactory, screen: Display,
             resources: ExitStack, *, events: EventQueue, notifier: Notifier | None = None,
             clock: Clock = time.monotonic, rng: random.Random | None = None,
             pollers: Sequence[Poller] = (), serial_opener: Opener | None = None,
             scanners: ScannerFactory | None = None, voice: Sink | None = None) -> Daemon:
    """The daemon on ``factory``'s pins showing on ``screen``; drivers put events on
    ``events``. ``pollers`` run after the inputs' (the OLED's retry, the simulator's keys).
    What the table says goes to ``voice``, else to the ``[voice]`` speaker if it asks for one.
    The ``[serial]`` device is used when the entry point hands the ``serial_opener`` that
    opens ports (``serial.serial_for_url``), the ``[dice]`` Pixels dice when it hands the
    ``scanners`` that scan for them (bleak's). Raises HardwareError when a pin cannot be had."""
    notifier = notifier if notifier is not None else Notifier()
    game = resume(journal)
    if game is not None:
        notifier.status(f"resumed {game.TITLE} after {count(len(game.history), 'move')}")
    inputs = open_inputs(config.pins(), factory, events.put, resources, clock=clock, rng=rng,
                         start_empty=game is None)
    bridge = serial_board = None
    lane = DeviceLane()  # the serial device's events wait behind the table's
    if config.serial is not None and serial_opener is not None:
        bridge = open_serial(config.serial, lane, serial_opener, resources,
                             wake_inputs=inputs.waker)
        serial_board = bridge if config.serial.board else None
    pixels = None
    if config.dice.source == "pixels" and scanners is not None:
        inputs.dice.count = config.dice.count  # until a game says; the referee tells both
        pixels = open_pixels(config.dice, lane, scanners, resources, lambda: inputs.dice.count,
                             clock(), wake_inputs=inputs.waker)
    if serial_board is None:
        inputs.matrix.scan()  # the board as it stands: what a resumed game is checked against
    # the five-argument call stays the usual one: only a serial board or a buzzer adds to it
    extras: dict[str, Any] = {} if serial_board is None else {"board": serial_board.occupied}
    buzzer = open_buzzer(inputs.pin_map, factory, events.put, resources)
    if buzzer is not None:
        extras["sound"] = buzzer
    voice = voice or open_voice(config, journal, resources)
    if voice is not None:
        extras["voice"] = voice
    controller = make_controller(config, journal, game, inputs, lambda: loop.stop(), **extras)
    if journal.problems:  # the table hears of it too, not only the log
        events.put(DeviceStatus("journal", True, damage_notice(journal.problems)))
    for notice in journal.notices:
        events.put(DeviceStatus("journal", True, notice))
    if journal.locked():  # a move would wait: say why before the first
        log.warning("%s: %s; moves wait until it is closed", BUSY, journal.path)
        events.put(DeviceStatus("journal", False, f"{BUSY}: moves wait until it is closed"))

    def poll_inputs(now: float) -> float | None:
        # with a serial board the device scans it; the matrix pins are left alone
        return inputs.poll(board=serial_board is None)

    serial_pollers = [] if bridge is None else [every(POLL_INTERVAL, bridge.poll)]
    pixels_pollers = [] if pixels is None else [pixels.poll]
    sound_pollers = [] if buzzer is None else [buzzer.poll]  # polled only while it sounds
    loop = Loop(controller, screen, notifier, events=events, clock=clock,
                pollers=[poll_inputs, *serial_pollers, *pixels_pollers, *sound_pollers,
                         *pollers], lanes=[lane])
    return Daemon(loop, inputs, journal, bridge, pixels)


def journal_state(journal: Journal) -> str:
    """One phrase for summaries: the game in progress, or none."""
    game = journal.resume()
    if game is None:
        return "no game in progress"
    return f"{game.TITLE} in progress, {count(len(game.history), 'move')}"
