"""The simulator in pseudo-terminals of the sizes people have (80x24, 100x30, 140x40), read
back through a terminal emulator (pyte): the screen drawn in the view that fits, games
played for several turns with keys, a resize followed, a terminal too small told so."""

from __future__ import annotations

import fcntl
import io
import os
import select
import signal
import struct
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pyte
import pytest
from PIL import Image

from firmware_host import daemon
from firmware_host.cli import main
from firmware_host.daemon import journal_state
from firmware_host.journal import Journal
from firmware_host.keyboard import SELECT, route
from firmware_host.loop import Controller
from firmware_host.referee import Referee
from firmware_host.sensing import SequenceRecogniser
from firmware_host.sim import terminal
from firmware_host.sim.view import PLAIN, REVERSE, VIEWS, View
from games.core import Phase
from hardware.wiring.pinmap import load_pin_map

START = b"\r\r\r"  # the start menu: the configured game (Dalmatian), 2 players, Start


def set_size(fd: int, columns: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


@dataclass
class Pty:
    """A pseudo-terminal of a given size with a terminal emulator reading its screen."""

    columns: int
    rows: int
    master: int = -1
    slave: int = -1
    screen: pyte.Screen = field(init=False)
    output: bytearray = field(default_factory=bytearray)

    def __post_init__(self) -> None:
        self.master, self.slave = os.openpty()
        set_size(self.slave, self.columns, self.rows)
        self.screen = pyte.Screen(self.columns, self.rows)
        self.stream = pyte.ByteStream(self.screen)

    def resize(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows
        self.screen.resize(rows, columns)
        set_size(self.slave, columns, rows)
        os.kill(os.getpid(), signal.SIGWINCH)

    def read(self, timeout: float) -> bool:
        """Feed what the simulator wrote to the emulator; False once nothing came."""
        if not select.select([self.master], [], [], timeout)[0]:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return False
        self.output.extend(data)
        self.stream.feed(data)
        return bool(data)

    def wait_for(self, text: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in "\n".join(self.screen.display):
            assert self.read(0.2) or time.monotonic() < deadline, \
                f"{text!r} never shown; screen:\n" + self.text()

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def close(self) -> None:
        for fd in (self.master, self.slave):
            with suppress(OSError):
                os.close(fd)


@pytest.fixture
def frames(monkeypatch: pytest.MonkeyPatch) -> list[Image.Image]:
    """Every frame the simulator's screen was handed."""
    shown: list[Image.Image] = []
    show = terminal.LiveScreen.show

    def keep(self: terminal.LiveScreen, image: Image.Image) -> None:
        shown.append(image.copy())
        show(self, image)

    monkeypatch.setattr(terminal.LiveScreen, "show", keep)
    return shown


def run_sim(pty: Pty, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
            hands: Callable[[Pty], None], *args: str) -> int:
    """``table-companion sim`` on ``pty`` while ``hands`` types (in a thread) and reads."""
    keys = io.TextIOWrapper(io.FileIO(os.dup(pty.slave), "rb"))
    screen = io.TextIOWrapper(io.FileIO(os.dup(pty.slave), "wb"), encoding="utf-8",
                              write_through=True)
    monkeypatch.setattr(sys, "stdin", keys)
    monkeypatch.setattr(sys, "stdout", screen)
    failures: list[BaseException] = []
    finished = threading.Event()

    def player() -> None:
        try:
            hands(pty)
        except BaseException as failure:  # reported by the test, not lost in the thread
            failures.append(failure)
            os.write(pty.master, b"q")
        # Read on until the simulator has returned: a reader that stopped at a pause would
        # let the pty's buffer fill, and the simulator's next write would block for ever.
        deadline = time.monotonic() + 60
        while not finished.is_set() and time.monotonic() < deadline:
            pty.read(0.2)
        while pty.read(0.2):  # the rest, up to the summary
            pass

    thread = threading.Thread(target=player, daemon=True)
    thread.start()
    with ExitStack() as closing:
        closing.callback(finished.set)
        closing.callback(keys.close)
        closing.callback(screen.close)
        status = main(["sim", "--journal", str(tmp_path / "j.sqlite3"), "--seed", "3", *args])
    thread.join(30)
    if failures:
        raise failures[0]
    return status


@pytest.fixture
def pty_of() -> Iterator[Callable[[int, int], Pty]]:
    made: list[Pty] = []

    def make(columns: int, rows: int) -> Pty:
        made.append(Pty(columns, rows))
        return made[-1]

    yield make
    for pty in made:
        pty.close()


def type_keys(*chunks: bytes) -> Callable[[Pty], None]:
    """Hands that wait for the first frame, then type ``chunks`` (the simulator queues
    them and plays them in order, then quits on the final q)."""

    def hands(pty: Pty) -> None:
        pty.wait_for("┘")
        for chunk in chunks:
            os.write(pty.master, chunk)

    return hands


def assert_screen(pty: Pty, view: View, frame: Image.Image, help_line: str) -> None:
    """The frame in ``view`` from the top left, the key help under it, then the summary."""
    lines = pty.text().splitlines()
    drawn = view.lines(frame)
    assert lines[:view.rows] == [line.replace(REVERSE, "").replace(PLAIN, "") for line in drawn]
    reversed_cells = [sum(cell.reverse for cell in pty.screen.buffer[row].values())
                      for row in range(view.rows)]
    assert reversed_cells == [len(_reversed(line)) for line in drawn]  # as the view says
    assert lines[view.rows] == help_line
    assert lines[view.rows + 1].startswith("table-companion sim: ")
    assert all(len(line) <= pty.columns for line in lines)


def _reversed(line: str) -> str:
    """The characters of ``line`` drawn in reverse video."""
    return "".join(part.split(PLAIN)[0] for part in line.split(REVERSE)[1:])


HELP = "r roll (R: long)  ↑↓←→ knob  Enter select  Esc back  1-5 hold  p cell  q quit"


def moves(path: Path) -> tuple[str, int]:
    """The game in progress in the journal at ``path`` and how many moves it has."""
    with Journal.open(path) as journal:
        state = journal_state(journal)
    title, _, count = state.partition(" in progress, ")
    return title, int(count.split()[0]) if count else 0


@pytest.mark.parametrize(("columns", "rows", "view", "keys", "at_least"), [
    # the opening's two throws, the round's total, then two turns: a throw and stop
    (80, 24, "braille", b"rrrr\rr\r", 6),
    (140, 40, "blocks", b"rrr", 3),
])
def test_dalmatian_is_played_in_a_terminal_of_each_size(
        columns: int, rows: int, view: str, keys: bytes, at_least: int, tmp_path: Path,
        pty_of: Callable[[int, int], Pty], frames: list[Image.Image],
        monkeypatch: pytest.MonkeyPatch) -> None:
    pty = pty_of(columns, rows)
    status = run_sim(pty, tmp_path, monkeypatch, type_keys(START, keys, b"q"))
    assert status == 0
    assert_screen(pty, VIEWS[view], frames[-1], HELP)
    title, count = moves(tmp_path / "j.sqlite3")
    assert title == "Dalmatian" and count >= at_least  # throws and stops, all journaled


def sequence_hands(journal: Path, actions: int) -> Callable[[Pty], None]:
    """Hands that start Sequence Dice and play ``actions`` actions as a player would: ROLL
    to throw, SELECT for the first move listed, then the chip put on the cell the screen
    asks for (read here from the journal's game)."""
    cells = load_pin_map("pi40").matrix

    def hands(pty: Pty) -> None:
        pty.wait_for("┘")
        game = None
        for _ in range(6):  # the start menu's pages: game, players, options, until it starts
            os.write(pty.master, b"\r")
            with suppress(AssertionError):
                game = wait_for_game(pty, journal, lambda game: game is not None, timeout=1.0)
                break
        assert game is not None, "Sequence Dice did not start"
        chips: set[tuple[int, int]] = set()
        for _ in range(actions):
            played = len(game.history)
            os.write(pty.master, b"r" if game.phase is Phase.ROLL else b"\r")
            game = wait_for_game(pty, journal, partial(longer, played))
            for row, col in sorted(SequenceRecogniser().expected(game) - chips):
                os.write(pty.master, f"p{cells.label(row, col)}\r".encode())
                chips.add((row, col))
        os.write(pty.master, b"q")

    return hands


def longer(played: int, game: Any) -> bool:
    return len(game.history) > played


def wait_for_game(pty: Pty, path: Path, ready: Callable[[Any], bool],
                  timeout: float = 10.0) -> Any:
    """The journal's game once ``ready`` says so; reads the screen meanwhile (a terminal
    nobody reads fills up, and the simulator would wait on it)."""
    deadline = time.monotonic() + timeout
    while True:
        with Journal.open_existing(path) as journal:
            game = journal.resume()
        if ready(game) or time.monotonic() > deadline:
            assert ready(game), f"the game did not move on: {game}\n{pty.text()}"
            return game
        pty.read(0.05)


def test_sequence_dice_is_played_with_chips_and_resumes_with_them_in_place(
        tmp_path: Path, pty_of: Callable[[int, int], Pty], frames: list[Image.Image],
        monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text('pin_map = "pi40"\n[game]\nname = "sequence"\n')
    pty = pty_of(100, 30)

    hands = sequence_hands(tmp_path / "j.sqlite3", actions=6)
    assert run_sim(pty, tmp_path, monkeypatch, hands, "--config", str(config)) == 0
    assert_screen(pty, VIEWS["braille"], frames[-1], HELP)
    assert moves(tmp_path / "j.sqlite3") == ("Sequence Dice", 6)
    # quit and start again: the simulated chips are back where the game has them, so the
    # referee asks for nothing to be put back
    referees: list[Referee] = []
    make = daemon.make_controller

    def keep(*args: Any, **kwargs: Any) -> Controller:
        controller = make(*args, **kwargs)
        assert isinstance(controller, Referee)
        referees.append(controller)
        return controller

    monkeypatch.setattr(daemon, "make_controller", keep)
    again = pty_of(100, 30)
    assert run_sim(again, tmp_path, monkeypatch, type_keys(b"q"), "--config", str(config)) == 0
    [referee] = referees
    assert referee.game is not None and len(referee.game.history) == 6
    assert referee.table is not None and referee.table.recogniser is not None
    assert referee.table.fixes == ()
    assert moves(tmp_path / "j.sqlite3") == ("Sequence Dice", 6)


def typing(keys: bytes, chunk: int = 8) -> Callable[[Pty], None]:
    """Hands that type ``keys`` a few at a time, as fast as the simulator takes them (it
    drops keys typed while more than 16 wait), then q."""

    def hands(pty: Pty) -> None:
        pty.wait_for("┘")
        for start in range(0, len(keys), chunk):
            os.write(pty.master, keys[start:start + chunk])
            until = time.monotonic() + chunk * 0.25  # a click and a settle a key
            while time.monotonic() < until:
                pty.read(0.05)  # reading on, so the simulator's writes never block
        os.write(pty.master, b"q")

    return hands


def names_in(path: Path) -> tuple[str, ...]:
    """The players of the game in progress in the journal at ``path``."""
    with Journal.open(path) as journal:
        state = journal.resume()
    assert state is not None
    return state.setup.names


@pytest.mark.parametrize(("columns", "rows", "view"), [(80, 24, "braille"),
                                                       (140, 40, "blocks")])
def test_three_players_are_picked_and_typed_in_then_start_again_with_one_press(
        columns: int, rows: int, view: str, tmp_path: Path,
        pty_of: Callable[[int, int], Pty], frames: list[Image.Image],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys as a person types them: Dalmatian for 3, Players, P2 and P1 from the lists,
    "Dorian" on the keyboard (w, s and Enter), Start; then, the game abandoned, one press
    on Start plays again with the same three."""
    typed = b"".join(b"\r" if step == SELECT else b"s" if step > 0 else b"w"
                     for step in route("Dorian"))
    choose = b"\rs\r" + b"s\r" + b"s\r" + b"\r" + b"w\r" + typed + b"\r"
    status = run_sim(pty_of(columns, rows), tmp_path, monkeypatch, typing(choose))
    assert status == 0 and names_in(tmp_path / "j.sqlite3") == ("P2", "P1", "Dorian")
    abandon = b"\x1b" + b"s" * 5 + b"\rs\r"  # the menu, Abandon game, Yes
    again = abandon + b"\rs\r" + b"\r"  # Dalmatian, 3 players, and one press: Start
    pty = pty_of(columns, rows)
    status = run_sim(pty, tmp_path, monkeypatch, typing(again))
    assert status == 0 and names_in(tmp_path / "j.sqlite3") == ("P2", "P1", "Dorian")
    assert_screen(pty, VIEWS[view], frames[-1], HELP)
