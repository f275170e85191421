"""The two ends without a network: what a journal tells the night, and how the hub keeps it.

The publisher's snapshot is taken from a real journal written by the journal's own code;
the hub's store takes the messages in any order, twice, late or taken back.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from journal_helpers import FakeClock, HighDie, new_game, play, register_highdie

from firmware_host.hub.store import Change, Store
from firmware_host.journal import Journal, JournalError
from firmware_host.night import follow, topics
from firmware_host.night.follow import Snapshot, Tonight, snapshot
from firmware_host.night.published import record_beside
from firmware_host.night.topics import Cleared, Status
from games.core import Phase

TABLE, NAME = "table-2", "Table 2"


@pytest.fixture(autouse=True)
def _highdie(monkeypatch: pytest.MonkeyPatch) -> None:
    register_highdie(monkeypatch)


def won_game(journal: Journal) -> HighDie:
    """A High Die game played into ``journal`` to its end: Ann banks 4 and 6, Ben nothing."""
    game = new_game()
    journal.start(game)
    play(journal, game, "roll 4", "bank", "roll 2", "pass", "roll 6", "bank")
    return game


def test_a_reader_waits_for_the_referee_and_sees_its_commits(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with pytest.raises(JournalError, match="no journal there yet"):
        Journal.open_reader(path)
    path.write_bytes(b"")
    with pytest.raises(JournalError, match="not a ready journal"):
        Journal.open_reader(path)  # the referee has created it but not yet set it up
    writer = Journal.open(path, FakeClock())
    reader = Journal.open_reader(path)
    before = reader.data_version()
    game = new_game()
    writer.start(game)
    assert reader.data_version() != before
    with pytest.raises(JournalError, match="read-only"):
        reader.abandon()


def test_a_snapshot_is_the_live_game_and_the_latest_nights_results(tmp_path: Path) -> None:
    clock = FakeClock()
    journal = Journal.open(tmp_path / "journal.sqlite3", clock)
    first = snapshot(journal, TABLE, NAME, clock())
    assert (first.live.game, first.live.phase, first.games) == ("", "idle", ())
    won_game(journal)
    done = snapshot(journal, TABLE, NAME, clock())
    assert [g.id for g in done.games] == [1]
    assert done.games[0].players[0] == topics.Player(0, "Ann", 10, 1)
    assert (done.live.phase, done.live.scores, done.live.finished) == ("over", (10, 0), (1,))
    game = new_game()
    journal.start(game)
    play(journal, game, "roll 3", "bank", "roll 5")
    live = snapshot(journal, TABLE, NAME, clock()).live
    assert (live.game, live.turn, live.phase, live.dice, live.last, live.moves) == (
        "High Die", "Ben", "move", (5,), "roll 5", 3)
    assert live.players == ("Ann", "Ben") and live.finished == (1,)


def test_the_store_keeps_each_game_once_whatever_the_order(tmp_path: Path) -> None:
    clock = FakeClock()
    journal = Journal.open(tmp_path / "journal.sqlite3", clock)
    won_game(journal)
    snap = snapshot(journal, TABLE, NAME, clock())
    store = Store.open(tmp_path / "night.sqlite3")
    assert store.apply(snap.live) == Change(TABLE, False)
    assert store.apply(snap.games[0]) == Change("", True)
    assert store.apply(snap.games[0]) == Change()  # a repeat changes nothing
    assert store.apply(replace(snap.live, at=clock().isoformat())) == Change()
    assert store.apply(Status(TABLE, True)) == Change(TABLE, False)
    night = store.night()
    assert [s.name for s in night.standings] == ["Ann", "Ben"]
    assert night.night == snap.games[0].night
    store.close()
    again = Store.open(tmp_path / "night.sqlite3")  # a restarted hub has the night at once
    # (and has heard from no table yet)
    assert again.night() == replace(night, tables=tuple(replace(t, quiet_s=None)
                                                        for t in night.tables))
    again.tonight = "2026-01-01"  # the host's choice of night: another night, with no games
    assert (again.night().night, again.night().games) == ("2026-01-01", ())


def test_tables_are_listed_as_people_count_them(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "night.sqlite3")
    for table in ("Table-10", "table-2", "kitchen", "Table-1"):
        store.apply(Status(table, True))
    assert [t.id for t in store.night().tables] == ["kitchen", "Table-1", "table-2", "Table-10"]
    store.close()


def test_a_game_taken_back_is_dropped_and_stale_messages_are_ignored(tmp_path: Path) -> None:
    clock = FakeClock()
    journal = Journal.open(tmp_path / "journal.sqlite3", clock)
    game = won_game(journal)
    finished = snapshot(journal, TABLE, NAME, clock())
    journal.undo(game)  # the last move taken back: the game is open again
    reopened = snapshot(journal, TABLE, NAME, clock())
    store = Store.open(tmp_path / "night.sqlite3")
    store.apply(finished.games[0])
    store.apply(finished.live)
    assert store.apply(reopened.live) == Change(TABLE, True)  # it no longer lists game 1
    assert store.night().games == ()
    assert store.apply(finished.games[0]) == Change()  # the broker's stale retained copy
    assert store.apply(finished.live) == Change()  # an older live state, delivered late
    assert store.night().tables[0].live == reopened.live
    assert store.night().games == ()


def test_a_game_is_shown_once_the_live_state_lists_it_whatever_the_clocks_say(
        tmp_path: Path) -> None:
    """The referee stamps a game's end before its commit is visible: a live state taken in
    between is later than the game and does not list it yet, and must not lose it."""
    clock = FakeClock()
    journal = Journal.open(tmp_path / "journal.sqlite3", clock)
    won_game(journal)
    done = snapshot(journal, TABLE, NAME, clock())
    before = replace(done.live, finished=(), at=clock().isoformat())  # later, not listing it
    after = replace(done.live, at=clock().isoformat())
    store = Store.open(tmp_path / "night.sqlite3")
    store.apply(before)
    assert store.apply(done.games[0]) == Change()  # arrived, not yet listed
    assert store.apply(after).results
    assert [g.id for g in store.night().games] == [1]
    assert store.apply(Cleared(TABLE, 1)) == Change("", True)
    assert store.night().games == ()


def test_the_store_keeps_the_seating_until_the_host_takes_it_down(tmp_path: Path) -> None:
    path = tmp_path / "night.sqlite3"
    seating = topics.Seating((topics.SeatedTable("3", "Centennial", ("Ann", "Bob", "Cy")),),
                             "2026-11-24T22:00:00+01:00")
    store = Store.open(path)
    assert store.apply(seating) == Change(seating=True)
    store.close()
    store = Store.open(path)  # a restarted hub, before the broker has said anything
    assert store.night().seating == seating
    assert store.apply(seating) == Change()  # the broker's retained copy: nothing new
    taken_down = topics.Seating((), "2026-11-24T22:30:00+01:00")
    assert store.apply(taken_down) == Change(seating=True)
    store.close()
    store = Store.open(path)
    assert store.night().seating == topics.NO_SEATING
    store.close()


class Followed:
    """A referee's journal and a publisher's reader of it, stepped by a test: games won,
    taken back and won again, nights passing (and the clock set back), and the publisher
    restarted or its record torn."""

    def __init__(self, folder: Path) -> None:
        self.clock = FakeClock()
        self.path = folder / "journal.sqlite3"
        self.writer = Journal.open(self.path, self.clock)
        self.reader = Journal.open_reader(self.path)
        self.record = record_beside(self.path)
        self.tonight = Tonight(self.record)
        self.game: HighDie | None = None

    def step(self, what: str) -> None:
        game = self.game
        if what == "win" and (game is None or game.is_over):
            self.game = won_game(self.writer)
        elif what == "start" and (game is None or game.is_over):
            self.game = new_game()
            self.writer.start(self.game)
            play(self.writer, self.game, "roll 3")
        elif what == "undo" and game is not None and game.history:
            self.writer.undo(game)
        elif what == "bank" and game is not None and game.phase is Phase.MOVE:
            play(self.writer, game, "bank")
        elif what == "roll" and game is not None and game.phase is Phase.ROLL:
            play(self.writer, game, "roll 6")
        elif what in ("night", "back"):
            self.clock.now += timedelta(days=1 if what == "night" else -1)
        elif what == "restart":
            self.tonight = Tonight(self.record)
        elif what == "tear" and self.record.path.exists():
            self.record.path.write_bytes(self.record.path.read_bytes()[:300])
        elif what == "remove":
            self.record.path.unlink(missing_ok=True)

    def published(self) -> Snapshot:
        return snapshot(self.reader, TABLE, NAME, self.clock.now, self.tonight)

    def whole(self) -> Snapshot:
        """What a snapshot read whole from the journal is now."""
        return snapshot(self.reader, TABLE, NAME, self.clock.now)

    def both(self) -> tuple[Snapshot, Snapshot]:
        """The publisher's snapshot, and one read whole."""
        self.clock()
        return self.published(), self.whole()


STEPS = ("win", "start", "undo", "bank", "roll", "night", "back", "restart", "tear", "remove")


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(STEPS), max_size=40))
def test_the_publisher_reading_only_what_changed_sends_what_a_whole_read_does(
        steps: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        table = Followed(Path(folder))
        for step in ["win", *steps]:
            table.step(step)
            kept, whole = table.both()
            assert kept == whole, step


@pytest.mark.parametrize("steps", [
    ("win", "tear", "win", "win", "restart"),  # a record torn, then written again whole
    ("win", "remove", "win", "restart"),  # a record removed while the publisher runs
    ("win", "win", "night", "win", "restart", "back", "win", "restart"),
    ("win", "undo", "restart", "bank", "win", "restart"),
])
def test_the_publisher_sends_what_a_whole_read_does_after_these_steps(
        tmp_path: Path, steps: tuple[str, ...]) -> None:
    table = Followed(tmp_path)
    for step in steps:
        table.step(step)
        kept, whole = table.both()
        assert kept == whole, step


def test_a_restarted_publisher_reads_only_the_games_since_its_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Followed(tmp_path)
    for step in ("win", "win", "start"):
        table.step(step)
    before, _ = table.both()
    worked: list[int] = []
    real = follow.worked_out
    monkeypatch.setattr(follow, "worked_out", lambda game, *rest: (worked.append(game.id),
                                                                    real(game, *rest))[1])
    table.step("restart")
    table.step("bank")
    table.step("roll")
    table.step("bank")  # game 3 won
    after = table.published()
    assert worked == [3] and [g.id for g in after.games] == [1, 2, 3]
    assert after == table.whole() and after.payloads[:2] == before.payloads[:2]
    table.step("tear")  # a torn record: the night is read whole, once
    table.step("restart")
    del worked[:]
    assert table.published() == after and worked == [1, 2, 3]
    table.record.path.write_bytes(b"not a record")
    table.step("restart")
    assert table.published() == after and worked == [1, 2, 3] * 2
    table.step("restart")  # the record was written anew
    assert table.published() == after and worked == [1, 2, 3] * 2
