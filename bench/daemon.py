"""The whole daemon on mock pins, as JSON: edge-to-bus latency, cold start, memory.

- ``edge_to_bus``: a game night played through the pins. Hands press ROLL, SELECT and BACK,
  turn the knob and put magnets on the Sequence Dice cells of the default pin map
  (``pi40``), choosing at random among the legal moves, as players do (a replacement is
  their chip lifted, one's own put on, and SELECT), until each of the five games (two in a
  smoke run) has been played to its end. The daemon is the one
  :func:`firmware_host.daemon.assemble` builds, with its own loop, referee, journal (a real
  SQLite file in a temporary folder, WAL, ``synchronous=FULL``), screens and the page-diff
  OLED driver of :mod:`hardware.display.oled` on a recording bus. A
  :class:`~hardware.pins.clock.ManualClock` stands in for time, so the 20 ms button debounce
  and the matrix's 60 ms settling cost no waiting; all the work is real and timed with
  ``time.perf_counter``. The log is set up as ``table-companion run`` sets it (INFO lines,
  on a stream that goes to ``/dev/null`` here, to journald under systemd). Between gestures
  the hands wait for the journal's checkpoints, as the pauses of a real table let them run.
- ``cold_start``: a fresh interpreter imports the ``table-companion`` command and runs the
  daemon (as ``run`` assembles it, on mock pins, a new journal, the OLED driver on a
  recording bus) until the first frame's bytes are on the bus; timed from just before the
  parent starts the process.
- ``voice``: the same night again with the table's voice on (:mod:`firmware_host.voice`:
  the phrases said at the tick after each frame, espeak-ng making the WAVs on the speaker's
  thread, a sink that records when each phrase would start to play instead of aplay, which
  this machine has no sound card for): press-to-frame p99 with the voice on against off,
  and how long after its frame's last byte each phrase starts. The hands wait for the
  speaker to fall quiet before each gesture, as players listen before they move on.
- ``memory``: VmRSS, VmHWM and threads of this process after the game night.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image
from smoke import sized

from firmware_host.commands.run import log_handler
from firmware_host.config import Config, VoiceConfig
from firmware_host.daemon import Daemon, assemble, open_journal
from firmware_host.journal import Journal
from firmware_host.menu import Menu
from firmware_host.referee import Referee
from firmware_host.sensing import Recogniser
from firmware_host.views import BoardFixView, GameView, MenuView, NoticeView, View
from firmware_host.voice.speaker import Speaker, WavCache, espeak
from firmware_host.voice.spoken import Spoken
from games import REGISTRY
from games.core import Phase
from hardware.board.matrix import DEBOUNCE_S as MATRIX_DEBOUNCE_S
from hardware.controls.mock_table import MockTable
from hardware.display.factory import OledConfig, build_oled
from hardware.display.mock import RecordingInterface
from hardware.display.oled import PagedOled
from hardware.events import CellChanged, Control, ControlPressed, ControlTurned, DiceRolled, Event
from hardware.pins.clock import ManualClock
from hardware.pins.factory import mock_factory

SEED = 7
COLD_RUNS = sized(5, 1)
GAMES = sized(tuple(REGISTRY), ("centennial", "sequence"))  # played in the night, in turn
VOICED_GAMES = sized(GAMES, GAMES[:1])  # the night again, with the voice on
MAX_GESTURES = 20_000  # a night that needs more is stuck: fail rather than spin
TARGETS = {"edge_p50_ms": 2.0, "edge_p99_ms": 5.0, "rss_mib": 45.0,
           "voice_p99_over_silent_ms": 5.0, "voice_phrase_after_frame_p99_ms": 300.0}
FRAME_BYTES = 1024  # data bytes of a whole 128x64 frame
GOALS = {"bytes_per_update_median_share": 0.15, "bytes_per_update_p90_share": 0.35,
         "cold_start_s": 0.25, "edge_cpu_p50_ms": 1.0, "edge_cpu_p99_ms": 3.0,
         "wall_p50_over_commit_ms": 0.3}
I2C_HZ = (100_000, 400_000)
PI_FACTOR = 10  # a Pi Zero 2 W runs CPython this many times slower (run_all's assumption)
PI_FSYNC = 5.0  # ms: SQLite's fsync on a Pi's SD card

CLICK_S = 0.05  # a button is held this long, then released
SETTLE_S = 0.05  # then the hands wait this long: the release debounces (20 ms) meanwhile
CELL_S = 5 * MATRIX_DEBOUNCE_S  # after a magnet moves: beyond its neighbours' settling (2x), and
# slow enough that a hand at one cell stays under the matrix's chatter rate
TUMBLE_LOOK_S = 0.1  # while the dice tumble on the screen, the hands look again this often
DETENT_S = 0.03  # between two detents of the knob


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def proc_status() -> dict[str, int]:
    """VmRSS and VmHWM in KiB, and Threads, from /proc/self/status."""
    found: dict[str, int] = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "Threads"):
                found[key] = int(value.split()[0])
    return found


@dataclass
class Sample:
    kind: str
    ms: float
    cpu_ms: float
    bytes: int
    wire_s: tuple[float, ...]  # at each of I2C_HZ
    commit_ms: float | None  # the write to disk this event made, timed where it ran
    frame_ms: float  # the frame drawn and diffed, from the referee's frame() to the send
    screen: str  # what the frame showed (:func:`screen_of`)


class CommitTimes:
    """Times each of the journal's writes of an event's actions to disk."""

    def __init__(self, journal: Journal) -> None:
        self.times: list[float] = []
        write = journal._write

        def timed(*args: Any) -> None:
            started = time.perf_counter()
            write(*args)
            self.times.append((time.perf_counter() - started) * 1000)

        journal._write = timed  # type: ignore[method-assign,assignment]


def stamp() -> tuple[float, float]:
    """Wall and CPU time of this process (all its threads) now."""
    return time.perf_counter(), time.process_time()


class TimedOled:
    """The real :class:`PagedOled` on a recording bus; notes when each frame's bytes are
    sent."""

    def __init__(self, oled: PagedOled, bus: RecordingInterface,
                 sent: Callable[[tuple[float, float], int, tuple[float, ...], float], None]
                 ) -> None:
        self.oled = oled
        self.bus = bus
        self.sent = sent

    def show(self, image: Image.Image) -> None:
        send = self.oled.prepare(image)
        prepared = time.perf_counter()
        send()
        done = stamp()
        count = self.bus.byte_count()
        wire = tuple(self.bus.i2c_seconds(hz) for hz in I2C_HZ)
        self.bus.forget()
        self.sent(done, count, wire, prepared)


class Hands:
    """The loop's event queue, and the players: when nothing is queued and no gesture is
    under way, they look at the referee and make the next gesture on the mock pins.

    Every event remembers where its edge was seen: the start of the input poll that
    emitted it (buttons, matrix), or the start of the knob detent whose edge callback
    emitted it (the encoder reports from the pin's edge callbacks, not from the poll).
    """

    def __init__(self, clock: ManualClock, table: MockTable, rng: random.Random,
                 games: Sequence[str] = GAMES) -> None:
        self.clock = clock
        self.table = table
        self.rng = rng
        self.daemon: Daemon | None = None
        self.samples: list[Sample] = []
        self.games_left = list(games)
        self.games_played: dict[str, int] = {}
        self.gestures = 0
        self._acts: deque[tuple[float, Callable[[], None]]] = deque()
        self._queued: deque[tuple[Event | None, tuple[float, float]]] = deque()
        self._origin = (0.0, 0.0)
        self._current: tuple[Event, tuple[float, float], int] | None = None
        self.committer: CommitTimes | None = None
        self._target: tuple[int, str] | None = None
        self.alone: list[float] = []  # ms of a COMMIT alone, one before each gesture
        self._counted_over = False
        self._frame_started = 0.0
        self._screen = ""
        self.voice: VoiceLag | None = None  # waited for before each gesture
        self.last_sent = 0.0  # perf_counter when the last frame's bytes were on the bus

    # -- instrumentation ------------------------------------------------------------------

    def attach(self, daemon: Daemon) -> None:
        self.daemon = daemon
        self.committer = CommitTimes(daemon.journal)
        daemon.journal._db.execute("CREATE TABLE bench_commit (n INTEGER)")
        poll = daemon.inputs.poll

        def timed_poll(*, board: bool = True) -> float | None:
            self._origin = stamp()
            return poll(board=board)

        daemon.inputs.poll = timed_poll  # type: ignore[method-assign]
        referee = referee_of(daemon.loop.controller)
        frame = referee.frame

        def timed_frame() -> Image.Image | None:
            self._frame_started = time.perf_counter()
            return frame()

        referee.frame = timed_frame  # type: ignore[method-assign]
        view = referee.view

        def noted_view() -> View:
            shown = view()
            self._screen = screen_of(shown)
            return shown

        referee.view = noted_view  # type: ignore[method-assign]

    def sent(self, done: tuple[float, float], count: int, wire: tuple[float, ...],
             prepared: float) -> None:
        self.last_sent = done[0]
        if self._current is None:
            return  # the first frame, before any event
        event, origin, commits = self._current
        self._current = None
        assert self.committer is not None
        times = self.committer.times
        self.samples.append(Sample(_kind(event), (done[0] - origin[0]) * 1000,
                                   (done[1] - origin[1]) * 1000, count,
                                   wire, times[-1] if len(times) > commits else None,
                                   (prepared - self._frame_started) * 1000, self._screen))

    # -- the EventQueue protocol ----------------------------------------------------------

    def put(self, item: Event | None) -> None:
        self._queued.append((item, self._origin))

    def get(self, block: bool = True, timeout: float | None = None) -> Event | None:
        if not self._queued:
            if not self._acts:
                self._plan()
            self._pass_time(timeout)
        if not self._queued:
            raise queue.Empty
        item, origin = self._queued.popleft()
        if item is not None:
            assert self.committer is not None
            self._current = (item, origin, len(self.committer.times))
        return item

    def _pass_time(self, timeout: float | None) -> None:
        now = self.clock()
        upto = self._acts[0][0] if self._acts else now
        if timeout is not None:
            upto = min(upto, now + timeout)
        self.clock.advance(max(0.0, upto - now))
        while self._acts and self._acts[0][0] <= self.clock() and not self._queued:
            _, act = self._acts.popleft()
            self._origin = stamp()
            act()

    # -- gestures -------------------------------------------------------------------------

    def _gesture(self, *steps: tuple[float, Callable[[], None]]) -> None:
        self.gestures += 1
        if self.gestures > MAX_GESTURES:
            raise RuntimeError(f"no end after {MAX_GESTURES} gestures: {self._games_note()}")
        now = self.clock()
        for delay, act in steps:
            self._acts.append((now + delay, act))

    def _click(self, control: Control) -> None:
        self._gesture((0.0, lambda: self.table.press(control)),
                      (CLICK_S, lambda: self.table.release(control)),
                      (CLICK_S + SETTLE_S, _nothing))

    def _turn(self, detents: int) -> None:
        step = 1 if detents > 0 else -1
        acts = [(i * DETENT_S, lambda: self.table.turn(step)) for i in range(abs(detents))]
        self._gesture(*acts, (abs(detents) * DETENT_S, _nothing))

    def _cell(self, square: tuple[int, int], occupied: bool) -> None:
        act = self.table.place if occupied else self.table.lift
        self._gesture((0.0, lambda: act(*square)), (CELL_S, _nothing))

    def _move_cursor(self, cursor: int, wanted: int, length: int) -> None:
        """Turn the knob the short way round from ``cursor`` to ``wanted``."""
        down = (wanted - cursor) % length
        self._turn(down if down <= length - down else down - length)

    # -- the players ----------------------------------------------------------------------

    def _plan(self) -> None:
        assert self.daemon is not None
        self.daemon.journal.wait_quiet(1.0)  # the pause a table gives its checkpoints
        self.alone.append(commit_alone(self.daemon.journal))
        if self.voice is not None:
            self.voice.speaker.idle()  # the players hear the table out
        referee = referee_of(self.daemon.loop.controller)
        game = referee.game
        if referee.pages.notice is not None:
            self._click(Control.SELECT)
        elif referee.pages:
            self._in_page(referee)
        elif game is None:
            raise RuntimeError("no game and no menu")
        elif game.is_over:
            if not self._counted_over:
                self._counted_over = True
                self.games_played[game.NAME] = len(game.history)
            if self.games_left:
                self._click(Control.SELECT)  # the new-game menu
            else:
                self.daemon.loop.stop()
        elif referee.table is not None and referee.table.message is not None:
            self._click(Control.SELECT)  # the first press clears a notice
        elif referee.table is not None and referee.table.fixes:
            self._fix_board(referee)
        elif referee.timers.tumble.busy:  # nobody knows the throw before the dice land
            self._gesture((TUMBLE_LOOK_S, _nothing))
        elif game.phase is Phase.ROLL:
            self._click(Control.ROLL)
        else:
            self._move(referee)

    def _in_page(self, referee: Referee) -> None:
        page = referee.pages.top
        if not isinstance(page, Menu):
            self._click(Control.SELECT)  # dice typed in: accept the faces shown
        elif page.title == "New game":
            wanted = list(REGISTRY).index(self.games_left[0])
            if page.cursor != wanted:
                self._move_cursor(page.cursor, wanted, len(page.entries))
            else:
                self.games_left.pop(0)
                self._counted_over = False
                self._click(Control.SELECT)
        elif page.title.endswith(" players"):
            self._click(Control.SELECT)  # as many players as the config names
        elif page.title.endswith(" options"):
            if page.cursor != 0:
                self._move_cursor(page.cursor, 0, len(page.entries))
            else:
                self._click(Control.SELECT)  # Start
        else:
            self._click(Control.BACK)

    def _move(self, referee: Referee) -> None:
        table = referee.table
        assert table is not None
        game = table.game
        choices = [choice.label for choice in table.choices()]
        if not choices:
            raise RuntimeError(f"{game.TITLE}: a move is due but nothing is legal")
        moment = len(game.history)
        if self._target is None or self._target[0] != moment or self._target[1] not in choices:
            self._target = (moment, self.rng.choice(choices))
        wanted = choices.index(self._target[1])
        if table.recogniser is not None:
            self._by_hand(self._target[1])
        elif table.cursor != wanted:
            self._move_cursor(table.cursor, wanted, len(choices))
        else:
            self._click(Control.SELECT)

    def _by_hand(self, move: str) -> None:
        """A Sequence Dice move made with a chip: ``place B3``, ``remove B3``, ``replace B3``."""
        verb, cell = move.split()
        square = (int(cell[1:]) - 1, ord(cell[0]) - ord("A"))
        if verb == "place":
            self._cell(square, True)
        elif verb == "remove":
            self._cell(square, False)
        else:  # the opponent's chip off, one's own on, then SELECT on the offer (README)
            self._gesture((0.0, lambda: self.table.lift(*square)),
                          (CELL_S, lambda: self.table.place(*square)),
                          (2 * CELL_S, lambda: self.table.press(Control.SELECT)),
                          (2 * CELL_S + CLICK_S, lambda: self.table.release(Control.SELECT)),
                          (2 * CELL_S + CLICK_S + SETTLE_S, _nothing))

    def _fix_board(self, referee: Referee) -> None:
        """Bring the magnets in line with the game, one cell at a time."""
        table = referee.table
        assert table is not None and isinstance(table.recogniser, Recogniser)
        expected = table.recogniser.expected(table.game)
        wrong = sorted(expected ^ self.table.board.magnets)
        if not wrong:
            raise RuntimeError(f"fixes shown but the board agrees: {table.fixes}")
        self._cell(wrong[0], wrong[0] in expected)

    def _games_note(self) -> str:
        return f"played {self.games_played}, left {self.games_left}"


def referee_of(controller: object) -> Referee:
    """The referee the loop drives, itself or under the voice."""
    referee = controller.referee if isinstance(controller, Spoken) else controller
    assert isinstance(referee, Referee)
    return referee


class VoiceLag:
    """The voice's sink for the bench: phrases go to a real :class:`Speaker` (WAVs made by
    espeak-ng when it is installed, else written as text), which plays them to nothing and
    notes when each starts, after the last frame sent before it was asked for."""

    def __init__(self, folder: Path, hands: Hands) -> None:
        self.engine = "espeak-ng" if shutil.which("espeak-ng") else "none (text files)"
        make = espeak(VoiceConfig("espeak-ng")) if shutil.which("espeak-ng") else _as_text
        self.cache = WavCache(folder / "voice", "en", make)
        self.speaker = Speaker(self.cache, _nowhere, clock=time.perf_counter,
                               started=self._started)
        self.hands = hands
        self._asked: deque[tuple[str, float]] = deque()
        self.after_frame_ms: list[float] = []
        self.said = 0

    def say(self, text: str) -> None:
        self.said += 1
        self._asked.append((text, self.hands.last_sent))
        self.speaker.say(text)

    def prepare(self, texts: Sequence[str]) -> None:
        self.speaker.prepare(texts)

    def _started(self, text: str, at: float) -> None:
        while self._asked:
            asked, frame = self._asked.popleft()
            if asked == text:  # phrases before it were dropped
                self.after_frame_ms.append((at - frame) * 1000)
                return


def _as_text(text: str, path: Path) -> None:
    path.write_text(text)


def _nowhere(path: Path) -> None:
    pass


def _nothing() -> None:
    pass


def _kind(event: Event) -> str:
    match event:
        case DiceRolled():
            return "roll"
        case ControlPressed(control=control):
            return control.name.lower()
        case ControlTurned():
            return "knob"
        case CellChanged():
            return "cell"
    return type(event).__name__


def screen_of(view: View) -> str:
    """The kind of screen a view draws, for the bytes each costs: a game's (with what is
    over it: a message, tumbling dice), a menu, a notice by its title, a board to fix."""
    match view:
        case GameView():
            over = [name for name, on in (("message", view.message is not None),
                                          ("tumbling", view.rolling is not None)) if on]
            return " + ".join([view.game.NAME, *over])
        case MenuView():
            return "menu"
        case NoticeView():
            return f"notice {view.title}"
        case BoardFixView():
            return "board fix"
    return type(view).__name__


def sizes_of(samples: list[Sample], key: Callable[[Sample], str]) -> dict[str, dict[str, Any]]:
    """Bytes per update of the samples grouped by ``key``: median, p90, max, count, and the
    group's share of all the bytes sent."""
    groups: dict[str, list[int]] = {}
    for sample in samples:
        groups.setdefault(key(sample), []).append(sample.bytes)
    total = sum(sample.bytes for sample in samples) or 1
    return {name: {"median": statistics.median(sizes), "p90": percentile(sizes, 0.9),
                   "max": max(sizes), "n": len(sizes),
                   "share_of_all_bytes": round(sum(sizes) / total, 3)}
            for name, sizes in sorted(groups.items())}


def summary(values: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(values), 3), "p99": round(percentile(values, 0.99), 3),
            "max": round(max(values), 3), "n": len(values)}


def game_night(folder: Path, voiced: bool = False) -> dict[str, Any]:
    config = Config(journal=folder / "journal.sqlite3", display=None)
    clock = ManualClock()
    factory = mock_factory()
    pins = config.pins()
    table = MockTable(pins, factory)  # before the drivers claim the pins
    hands = Hands(clock, table, random.Random(SEED), VOICED_GAMES if voiced else GAMES)
    bus = RecordingInterface()
    screen = TimedOled(build_oled(OledConfig(), bus), bus, hands.sent)
    bus.forget()  # the panel's init sequence
    started = time.perf_counter()
    with ExitStack() as resources:
        resources.callback(factory.close)
        journal = open_journal(config.journal, resources)
        hands.voice = VoiceLag(folder, hands) if voiced else None
        daemon = assemble(config, journal, factory, screen, resources, events=hands,
                          clock=clock, rng=random.Random(SEED), voice=hands.voice)
        hands.attach(daemon)
        daemon.loop.run()
        handled = daemon.loop.handled
        if hands.voice is not None:
            hands.voice.speaker.idle()
            hands.voice.speaker.close()
    wall = time.perf_counter() - started
    alone = hands.alone
    samples = hands.samples
    by_kind: dict[str, list[float]] = {}
    for sample in samples:
        by_kind.setdefault(sample.kind, []).append(sample.ms)
    sizes = [sample.bytes for sample in samples]
    committing = [sample for sample in samples if sample.commit_ms is not None]
    commit_p50 = statistics.median(s.commit_ms for s in committing if s.commit_ms is not None)
    wall_p50 = statistics.median(sample.ms for sample in committing)
    over = {"wall_p50_over_commit_p50_ms": round(wall_p50 - commit_p50, 3),
            "wall_p50_over_commit_alone_p50_ms": round(wall_p50 - statistics.median(alone), 3)}
    return {
        "ms": summary([sample.ms for sample in samples]),
        "cpu_ms": summary([sample.cpu_ms for sample in samples]),
        "committing_events": {
            "n": len(committing),
            "wall_ms": summary([sample.ms for sample in committing]),
            "cpu_ms": summary([sample.cpu_ms for sample in committing]),
            "commit_ms": summary([s.commit_ms for s in committing if s.commit_ms is not None]),
            "commit_alone_ms": summary(alone),
            **over,
            "wall_p50_over_commit_ms": max(over.values()),
            "wall_minus_own_commit_ms": summary([s.ms - s.commit_ms for s in committing
                                                 if s.commit_ms is not None]),
            "frame_ms": summary([sample.frame_ms for sample in committing]),
        },
        "frame_beside_the_write_on_a_pi": overlap_worth(committing),
        "ms_by_edge": {kind: summary(times) for kind, times in sorted(by_kind.items())},
        "bytes_per_update": {"median": statistics.median(sizes), "p90": percentile(sizes, 0.9),
                             "max": max(sizes), "updates_sending_nothing": sizes.count(0),
                             "median_share": round(statistics.median(sizes) / FRAME_BYTES, 3),
                             "p90_share": round(percentile(sizes, 0.9) / FRAME_BYTES, 3),
                             "by_edge": sizes_of(samples, lambda sample: sample.kind),
                             "by_screen": sizes_of(samples, lambda sample: sample.screen)},
        "wire_ms_per_update": {
            f"i2c_{hz // 1000}khz": {
                "p50": round(1000 * statistics.median(s.wire_s[index] for s in samples), 2),
                "p90": round(1000 * percentile([s.wire_s[index] for s in samples], 0.9), 2),
                "max": round(1000 * max(s.wire_s[index] for s in samples), 2)}
            for index, hz in enumerate(I2C_HZ)},
        "events_handled": handled,
        "gestures": hands.gestures,
        "actions_per_game": hands.games_played,
        "table_seconds": round(clock(), 1),
        "wall_s": round(wall, 2),
        **({} if hands.voice is None else {"voice": spoken(hands.voice)}),
    }


def spoken(voice: VoiceLag) -> dict[str, Any]:
    lags = voice.after_frame_ms
    return {"engine": voice.engine, "phrases_asked": voice.said, "phrases_started": len(lags),
            "dropped": voice.speaker.dropped, "wavs_made": voice.cache.made,
            "phrase_start_after_frame_ms": summary(lags) if lags else None}


def voice_figures(silent: dict[str, Any], voiced: dict[str, Any]) -> dict[str, Any]:
    """Press-to-frame with the voice on against off, and the phrases' lag after their frame."""
    lag = voiced["voice"]["phrase_start_after_frame_ms"]
    over = round(voiced["ms"]["p99"] - silent["ms"]["p99"], 3)
    cpu_over = round(voiced["cpu_ms"]["p99"] - silent["cpu_ms"]["p99"], 3)
    return {"press_to_frame_ms": {"silent": silent["ms"], "voiced": voiced["ms"],
                                  "p99_over_silent": over,
                                  "cpu_silent": silent["cpu_ms"], "cpu_voiced": voiced["cpu_ms"],
                                  "cpu_p99_over_silent": cpu_over,
                                  "ok": over <= TARGETS["voice_p99_over_silent_ms"]},
            **voiced["voice"],
            "phrase_ok": lag is not None
            and lag["p99"] <= TARGETS["voice_phrase_after_frame_p99_ms"]}


def overlap_worth(committing: list[Sample]) -> dict[str, float]:
    """What drawing the frame beside the write to disk (on another thread, while SQLite
    lets go of the GIL) would take off a committing event's press-to-pixels p50 on a Pi,
    projected (:data:`PI_FACTOR`, :data:`PI_FSYNC`, I2C at 400 kHz): at best the smaller of
    the fsync and the frame. The loop draws after the write while that best stays under
    a fifth of the whole, which is not worth a second thread."""
    cpu = statistics.median(sample.cpu_ms for sample in committing) * PI_FACTOR
    frame = statistics.median(sample.frame_ms for sample in committing) * PI_FACTOR
    wire = 1000 * statistics.median(sample.wire_s[I2C_HZ.index(400_000)] for sample in committing)
    in_turn = cpu + PI_FSYNC + wire
    beside = cpu - frame + max(PI_FSYNC, frame) + wire
    return {"in_turn_p50": round(in_turn, 2), "beside_at_best_p50": round(beside, 2),
            "gain_at_best": round(1 - beside / in_turn, 3)}


def commit_alone(journal: Journal) -> float:
    """Milliseconds of one write to disk as an event of one action makes it (a single
    INSERT of one row, its own transaction: the connection commits each statement) on the
    journal's own connection and file, made between gestures while the daemon waits for
    the hands, so nothing else runs: what a commit costs on this disk at that moment of the
    night. Timed all night long beside the events, a machine that speeds up or slows down
    in the run moves both.

    The loop's own timing of the event's write includes, after SQLite is done, its wait
    for the GIL while the other thread is still drawing or diffing the frame."""
    started = time.perf_counter()
    journal._db.execute("INSERT INTO bench_commit VALUES (1)")
    return (time.perf_counter() - started) * 1000


CHILD = """
import time
started = time.perf_counter()
import queue, sys
from contextlib import ExitStack
from pathlib import Path
import firmware_host.cli
from firmware_host.commands import run
from firmware_host.config import Config, VoiceConfig
from firmware_host.daemon import assemble, open_journal
from hardware.display.factory import OledConfig, build_oled
from hardware.display.mock import RecordingInterface
from hardware.pins.factory import mock_factory
imported = time.perf_counter()
bus = RecordingInterface()
oled = build_oled(OledConfig(), bus)
shown = []
class FirstFrame:
    def show(self, image):
        oled.show(image)
        shown.append(time.perf_counter())
        shown.append(time.process_time())
        loop.stop()
config = Config(journal=Path(sys.argv[1]), display=None)
events = queue.SimpleQueue()
with ExitStack() as resources:
    journal = open_journal(config.journal, resources)
    factory = mock_factory()
    resources.callback(factory.close)
    daemon = assemble(config, journal, factory, FirstFrame(), resources, events=events)
    loop = daemon.loop
    loop.run()
print(started, imported, shown[0], bus.byte_count(), shown[1])
"""


def cold_start(folder: Path) -> dict[str, Any]:
    """Median of :data:`COLD_RUNS` fresh interpreters, each with a new journal, after the
    packages are compiled to bytecode (as the install does)."""
    compile_packages()
    runs = []
    for index in range(COLD_RUNS):
        journal = folder / f"cold-{index}.sqlite3"
        begun = time.perf_counter()  # CLOCK_MONOTONIC: the same clock in the child
        done = subprocess.run([sys.executable, "-c", CHILD, str(journal)], capture_output=True,
                              text=True, check=True)
        ended = time.perf_counter()
        started, imported, shown, count, cpu = (float(word) for word in done.stdout.split())
        runs.append({"first_frame_s": shown - begun, "interpreter_s": started - begun,
                     "imports_s": imported - started, "assemble_to_frame_s": shown - imported,
                     "process_s": ended - begun, "first_frame_bytes": int(count),
                     "first_frame_cpu_s": cpu})
    return {key: round(statistics.median(run[key] for run in runs), 3) for key in runs[0]} | {
        "first_frame_s_runs": [round(run["first_frame_s"], 3) for run in runs]}


def goals(night: dict[str, Any], cold: dict[str, Any]) -> dict[str, dict[str, Any]]:
    figures = {"bytes_per_update_median_share": night["bytes_per_update"]["median_share"],
               "bytes_per_update_p90_share": night["bytes_per_update"]["p90_share"],
               "cold_start_s": cold["first_frame_s"],
               "edge_cpu_p50_ms": night["cpu_ms"]["p50"], "edge_cpu_p99_ms": night["cpu_ms"]["p99"],
               "wall_p50_over_commit_ms": night["committing_events"]["wall_p50_over_commit_ms"]}
    return {name: {"value": value, "goal": GOALS[name], "ok": value <= GOALS[name]}
            for name, value in figures.items()}


def compile_packages() -> None:
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-m", "compileall", "-q",
                    *(str(root / package) for package in ("games", "hardware", "firmware_host"))],
                   check=True, capture_output=True)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-daemon-") as name, \
            open(os.devnull, "w") as log_stream:
        logging.basicConfig(level=logging.INFO, handlers=[log_handler(log_stream)])
        folder = Path(name)
        cold = cold_start(folder)
        before = proc_status()
        night = game_night(folder)
        after = proc_status()
        voiced = game_night(Path(tempfile.mkdtemp(prefix="voiced-", dir=folder)), voiced=True)
    print(json.dumps({
        "bench": "daemon",
        "load_average_1min": round(os.getloadavg()[0], 2),  # others' work slows every figure
        "edge_to_bus": night,
        "cold_start": cold,
        "voice": voice_figures(night, voiced),
        "memory": {"rss_mib": round(after["VmRSS"] / 1024, 1),
                   "hwm_mib": round(after["VmHWM"] / 1024, 1),
                   "rss_mib_before_night": round(before["VmRSS"] / 1024, 1),
                   "threads_proc": after["Threads"],
                   "threads_python": threading.active_count()},
        "targets": TARGETS,
        "goals": goals(night, cold),
        "what": {
            "edge_to_bus": "perf_counter from the start of the input poll that takes an edge "
                           "(ROLL's release, SELECT's or BACK's press, at its first read; a reed "
                           "cell after it settles, 60 ms) or from the start of a knob detent's pin "
                           "edges (the encoder emits from edge callbacks), through the event "
                           "queue, the referee (journal commit, synchronous=FULL, on a file in "
                           "a temp folder), the render, to the last byte the page-diff OLED "
                           "driver hands the recording I2C interface; one sample per event; "
                           "excludes the debounce wait (manual clock)",
            "cpu_ms": "the same span in process_time (CPU of every thread of the process, the "
                      "journal's checkpointer included)",
            "committing_events": "the events that committed an action (the referee's "
                                 "Journal.apply: the frame is drawn once the write to disk "
                                 "is done); commit_ms is that write (Journal._write) timed "
                                 "where it runs; commit_alone_ms: the same "
                                 "write of one row (an INSERT that is its own transaction) on "
                                 "the journal's connection before each gesture, "
                                 "while the daemon waits for the hands and nothing else runs "
                                 "(the disk's own cost, all night beside the events); the "
                                 "goal is wall p50 over the smaller commit median, "
                                 "wall_p50_over_commit_ms",
            "frame_beside_the_write_on_a_pi": "committing events' p50 on a Pi, projected (CPU "
                                              "x10, fsync 5 ms, I2C 400 kHz): the frame drawn "
                                              "after the write, and at best beside it",
            "bytes_per_update": "command + data bytes on the bus per event (0: frame unchanged); "
                                "share: of a whole frame's 1,024 data bytes; by_edge: by the "
                                "event's kind; by_screen: by the screen the event's frame "
                                "shows (a game's, + a message or tumbling dice over it)",
            "wire_ms_per_update": "those transfers on an I2C bus at 100 and 400 kHz as luma "
                                  "sends them (32-byte writes, each with start, stop, address "
                                  "and control byte; 9 bit times a byte), without the kernel's "
                                  "gaps between writes",
            "cold_start": "parent perf_counter before starting `python -c` to the child's "
                          "perf_counter after the first frame's bytes are on the recording bus "
                          "(imports the CLI, new journal, mock pins, luma init, assemble, "
                          f"first render); median of {COLD_RUNS}; first_frame_cpu_s is the "
                          "child's own CPU time (process_time) at that moment, which a busy "
                          "machine does not inflate as it does the wall time",
            "voice": "the night played again with the voice on (see the module's docstring); "
                     "press_to_frame_ms: edge_to_bus's ms, silent and voiced; "
                     "phrase_start_after_frame_ms: perf_counter from the last byte of the "
                     "frame before a phrase was asked for to its start on the speaker's "
                     "thread (its WAV made by espeak-ng, or found in the cache)",
            "memory": "this process's /proc/self/status after the night (VmRSS, VmHWM, "
                      "Threads) and threading.active_count()",
        },
    }))


if __name__ == "__main__":
    main()
