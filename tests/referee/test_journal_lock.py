"""Another program holding the journal (a sqlite3 shell left in a transaction, a backup):
seen when the daemon starts, a move waits for it without the loop waiting, and is written
once it lets go."""

from __future__ import annotations

import queue
import sqlite3
import time
from contextlib import ExitStack
from pathlib import Path

from firmware_host.config import Config, GameConfig
from firmware_host.daemon import assemble
from firmware_host.journal import Journal
from firmware_host.referee import Referee
from firmware_host.views import GameView
from games import new_game
from hardware.events import DeviceStatus, DiceRolled, Event
from hardware.pins.factory import mock_factory

BUSY = "the journal is busy (another program has it open)"


class Frames:
    def show(self, image: object) -> None:
        pass

    def close(self) -> None:
        pass


def held(path: Path) -> sqlite3.Connection:
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


def test_the_lock_is_seen_at_once_and_watched_off_the_loop(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        assert not journal.locked()
        other = held(path)
        start = time.perf_counter()
        assert journal.locked()
        assert time.perf_counter() - start < 1.0  # the 50 ms a move waits, not SQLite's 5 s
        watch = journal.watch_lock()
        assert not watch.free.wait(0.3)  # still held
        other.execute("ROLLBACK")
        assert watch.free.wait(10.0)  # seen by the watch's own thread
        watch.close()
        assert not journal.locked()
        other.close()


def test_the_daemon_says_at_start_that_moves_wait_for_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    factory = mock_factory()
    with ExitStack() as resources, Journal.open(path) as journal:
        resources.callback(factory.close)
        other = held(path)
        events: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
        assemble(Config(), journal, factory, Frames(), resources, events=events)
        found = [events.get_nowait() for _ in range(events.qsize())]
        assert DeviceStatus("journal", False, f"{BUSY}: moves wait until it is closed") in found
        other.execute("ROLLBACK")
        other.close()


def test_a_move_made_while_another_program_holds_the_journal_is_written_once_it_lets_go(
        tmp_path: Path) -> None:
    """The throw is held up at once with the reason, nothing else is played before
    it, and the tick after the lock went writes it: the game and the file have it."""
    path = tmp_path / "j.sqlite3"
    config = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian"))
    with Journal.open(path) as journal:
        journal.start(new_game("dalmatian", 2))
        referee = Referee(config, journal, game=journal.resume(), render=lambda view: None)
        other = held(path)
        start = time.perf_counter()
        referee.handle(DiceRolled((6, 6, 6, 6, 5), "button"))
        assert time.perf_counter() - start < 1.0  # the 50 ms a move waits, not SQLite's 5 s
        view = referee.view()
        assert isinstance(view, GameView)
        assert view.message == f"{BUSY}: roll 6-6-6-6-5 will be written once it is closed"
        assert referee.tick(10.0) == 10.0 + 0.2  # the loop looks again soon, never waits
        referee.handle(DiceRolled((1, 1, 1, 1, 1), "button"))
        view = referee.view()
        assert isinstance(view, GameView)
        assert view.message == f"{BUSY}: roll 6-6-6-6-5 waits to be written first"
        game = referee.game
        assert game is not None and game.history == []
        other.execute("ROLLBACK")
        other.close()
        deadline = time.monotonic() + 10.0
        now = 10.0
        while not game.history and time.monotonic() < deadline:
            now += 0.2
            referee.tick(now)
            time.sleep(0.05)  # the watch's thread is told by SQLite, in real time
        assert [str(action) for action in game.history] == ["roll 6-6-6-6-5"]
        view = referee.view()
        assert isinstance(view, GameView)
        assert view.message == "the journal is free again: roll 6-6-6-6-5 written"
    with Journal.open(path) as again:
        resumed = again.resume()
        assert resumed is not None and [str(a) for a in resumed.history] == ["roll 6-6-6-6-5"]
