"""The journal: commit before show, exact resume, results, standings, damaged files."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from journal_helpers import CET, FakeClock, new_game, play, register_highdie

from firmware_host.journal import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    Journal,
    JournalError,
    PlayedGame,
    PlayerResult,
    Standing,
    night_of,
    places,
    standings,
    system_clock,
)
from firmware_host.journal.clock import LocalClock
from firmware_host.journal.errors import Failure
from games.core import Result
from games.errors import GameOverError, IllegalAction


@pytest.fixture(autouse=True)
def _highdie_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    register_highdie(monkeypatch)


def test_a_new_journal_is_versioned_wal_and_ours(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    Journal.open(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,) == (4,)
    assert db.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_schema WHERE type='table'")}
    assert tables == {"games", "actions", "results"}


REFUSED_WITHIN_S = 1.0
"""Twenty times the journal's own wait for another program's lock (PLAY_BUSY_MS, 50 ms), room
for a loaded machine; a fifth of the 5 s SQLite waits at open, which would freeze the
table if it came back during play."""


def test_a_journal_another_program_holds_refuses_an_action_at_once(tmp_path: Path) -> None:
    """A sqlite3 shell left in a write transaction: the action is refused with the reason
    after the journal's short wait, not SQLite's busy timeout (no frozen table), the game is
    as before, and it is written once the other program lets go."""
    path = tmp_path / "j.sqlite3"
    with Journal.open(path, FakeClock()) as journal:
        game = new_game()
        journal.start(game)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        for action in ("roll 4", "roll 4"):  # one INSERT, or one more after a failed one
            start = time.perf_counter()
            with pytest.raises(JournalError, match=r"^the journal is busy \(another program "
                                                   r"has it open\)") as refused:
                journal.apply(game, action)
            assert time.perf_counter() - start < REFUSED_WITHIN_S
            assert refused.value.failure is Failure.BUSY
            assert game.history == []
        other.execute("ROLLBACK")
        other.close()
        journal.apply(game, "roll 4")
        assert [str(a) for a in game.history] == ["roll 4"]


def test_each_action_is_committed_before_apply_returns(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path, FakeClock()) as journal:
        game = new_game()
        journal.start(game)
        journal.apply(game, "roll 4")
        journal.apply(game, "bank")
        other = sqlite3.connect(path)  # a second reader sees only committed rows
        rows = other.execute("SELECT seq, action, at FROM actions ORDER BY seq").fetchall()
        assert rows == [(1, "roll 4", "2026-11-21T20:02:00.000+01:00"),
                        (2, "bank", "2026-11-21T20:03:00.000+01:00")]
        assert other.execute("PRAGMA synchronous").fetchone() is not None


def test_resume_rebuilds_the_unfinished_game_exactly(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        game = new_game(target=10)
        journal.start(game)
        play(journal, game, "roll 4", "bank", "roll 2", "pass", "roll 6")
    with Journal.open(path) as journal:
        resumed = journal.resume()
    assert resumed is not None
    assert resumed.to_json() == game.to_json()
    assert resumed.scores() == (4, 0)
    assert resumed.legal_actions() == ["bank", "pass"]


def test_an_illegal_action_changes_neither_game_nor_file(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        game = new_game()
        journal.start(game)
        journal.apply(game, "roll 3")
        with pytest.raises(IllegalAction, match="no dice are due"):
            journal.apply(game, "roll 5")
        assert [str(a) for a in game.history] == ["roll 3"]
        resumed = journal.resume()
        assert resumed is not None and resumed.to_json() == game.to_json()


def test_a_failed_write_leaves_the_game_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        game = new_game()
        journal.start(game)
        journal.apply(game, "roll 3")
        db = sqlite3.connect(path)
        db.execute("CREATE TRIGGER full BEFORE INSERT ON actions "
                   "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
        db.commit()
        with pytest.raises(JournalError, match=r"j.sqlite3: journal error: database or disk"):
            journal.apply(game, "bank")
        assert [str(a) for a in game.history] == ["roll 3"]
        assert game.scores() == (0, 0)


def test_a_game_not_started_here_is_refused(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        game = new_game()
        with pytest.raises(JournalError, match="no game is being played: start one first"):
            journal.apply(game, "roll 3")
        assert game.history == []
        journal.start(game)
        stranger = new_game()
        stranger.apply("roll 2")
        with pytest.raises(JournalError, match="holds 0 actions but this game has 1"):
            journal.apply(stranger, "bank")
        assert [str(a) for a in stranger.history] == ["roll 2"]
        with pytest.raises(JournalError, match=r"game #1 is unfinished: abandon it first"):
            journal.start(new_game())


def test_finishing_records_results_and_ends_the_game(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3", FakeClock()) as journal:
        game = new_game(target=5, names=("Ann", "Ben"))
        journal.start(game)
        play(journal, game, "roll 3", "bank", "roll 5", "bank")
        assert game.is_over
        assert journal.resume() is None
        [played] = journal.finished_games()
    assert played == PlayedGame(
        id=1, game="highdie", options={"target": 5},
        started=datetime(2026, 11, 21, 20, 1, tzinfo=CET),
        ended=datetime(2026, 11, 21, 20, 5, tzinfo=CET),
        players=(PlayerResult(0, "Ann", 3, 2), PlayerResult(1, "Ben", 5, 1)),
    )
    assert played.night == date(2026, 11, 21)


def test_undo_takes_back_the_last_action_even_the_winning_one(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        game = new_game()
        journal.start(game)
        play(journal, game, "roll 3", "bank", "roll 5", "bank")
        assert str(journal.undo(game)) == "bank"
        assert not game.is_over
        assert journal.finished_games() == []
        assert str(journal.undo(game)) == "roll 5"
        resumed = journal.resume()
        assert resumed is not None
        assert [str(a) for a in resumed.history] == ["roll 3", "bank"]
        journal.undo(game)
        journal.undo(game)
        with pytest.raises(GameOverError, match="nothing to undo"):
            journal.undo(game)
        resumed = journal.resume()
        assert resumed is not None and resumed.history == []


def test_an_abandoned_game_stays_out_of_resume_and_results(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        game = new_game()
        journal.start(game)
        journal.apply(game, "roll 3")
        journal.abandon()
        assert journal.resume() is None
        assert journal.finished_games() == []
        with pytest.raises(JournalError, match="no game is being played"):
            journal.apply(game, "bank")
        assert journal.start(new_game()) == 2


def test_nights_turn_at_six_in_the_morning() -> None:
    assert night_of(datetime(2026, 11, 22, 1, 30, tzinfo=CET)) == date(2026, 11, 21)
    assert night_of(datetime(2026, 11, 22, 5, 59, tzinfo=CET)) == date(2026, 11, 21)
    assert night_of(datetime(2026, 11, 22, 6, 0, tzinfo=CET)) == date(2026, 11, 22)


def test_results_are_grouped_by_night(tmp_path: Path) -> None:
    clock = FakeClock(datetime(2026, 11, 21, 23, 58, tzinfo=CET))
    with Journal.open(tmp_path / "j.sqlite3", clock) as journal:
        for _ in range(2):  # the second game starts after midnight: still the 21st's night
            game = new_game()
            journal.start(game)
            play(journal, game, "roll 5", "bank")
        clock.now = datetime(2026, 11, 22, 19, 0, tzinfo=CET)
        game = new_game()
        journal.start(game)
        play(journal, game, "roll 1", "pass", "roll 6", "bank")
        assert journal.nights() == [date(2026, 11, 21), date(2026, 11, 22)]
        assert [g.id for g in journal.finished_games(date(2026, 11, 21))] == [1, 2]
        assert [g.id for g in journal.finished_games(date(2026, 11, 22))] == [3]


def test_a_nights_games_are_read_without_the_other_nights(tmp_path: Path) -> None:
    """The menu's standings and the daemon's start read one night: its rows alone, so their
    cost stays the same after a year of nights (a damaged game of a week ago is not even
    decoded; reading every night names it)."""
    clock = FakeClock(datetime(2026, 11, 14, 20, 0, tzinfo=CET))
    with Journal.open(tmp_path / "j.sqlite3", clock) as journal:
        for when in (datetime(2026, 11, 14, 20, 0, tzinfo=CET),  # a week ago, damaged below
                     datetime(2026, 11, 21, 23, 58, tzinfo=CET),
                     datetime(2026, 11, 22, 5, 58, tzinfo=CET),  # started 5:59: the 21st's night
                     datetime(2026, 11, 22, 5, 59, tzinfo=CET)):  # started 6:00: the 22nd's
            clock.now = when
            game = new_game()
            journal.start(game)
            play(journal, game, "roll 5", "bank")
        journal._db.execute("UPDATE games SET setup = 'not json' WHERE id = 1")
        assert [g.id for g in journal.finished_games(date(2026, 11, 21))] == [2, 3]
        assert [g.id for g in journal.finished_games(date(2026, 11, 22))] == [4]
        assert journal.problems == []
        assert [g.id for g in journal.finished_games()] == [2, 3, 4]
        assert [p.game_id for p in journal.problems] == [1]


def test_places_follow_competition_ranking() -> None:
    assert places(Result((7, 3, 7, 1), ((0, 2), (1,), (3,)))) == {0: 1, 2: 1, 1: 3, 3: 4}


def test_standings_rank_by_wins_then_the_share_of_players_finished_ahead_of() -> None:
    start = datetime(2026, 11, 21, 20, 0, tzinfo=CET)

    def game(*players: tuple[str, int]) -> PlayedGame:
        rows = tuple(PlayerResult(seat, name, 0, place) for seat, (name, place) in
                     enumerate(players))
        return PlayedGame(1, "highdie", {}, start, start, rows)

    night = [
        game(("Ann", 1), ("Ben", 2), ("Cy", 3)),
        game(("Ben", 1), ("Cy", 1), ("Ann", 3)),
        game(("Cy", 1), ("Ann", 2)),
    ]
    assert standings(night) == [
        Standing("Cy", played=3, wins=2, ahead=0.5),
        # Ann and Ben each beat two players in all: Ben half of those he met in each game,
        # Ann both in one game of three and nobody in the others
        Standing("Ben", played=2, wins=1, ahead=0.5),
        Standing("Ann", played=3, wins=1, ahead=1 / 3),
    ]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(st.integers(0, 7).map(lambda d: f"roll {d}"),
                          st.sampled_from(["bank", "pass", "undo"])), max_size=30))
def test_whatever_is_played_the_journal_replays_to_the_same_game(
    tmp_path_factory: pytest.TempPathFactory, moves: list[str]
) -> None:
    path = tmp_path_factory.mktemp("j") / "j.sqlite3"
    with Journal.open(path) as journal:
        game = new_game(target=10)
        journal.start(game)
        for move in moves:
            with contextlib.suppress(IllegalAction):
                journal.undo(game) if move == "undo" else journal.apply(game, move)
    with Journal.open(path) as journal:
        resumed = journal.resume()
        finished = journal.finished_games()
    if game.is_over:
        assert resumed is None
        assert [p.score for p in finished[0].players] == list(game.scores())
    else:
        assert resumed is not None and resumed.to_json() == game.to_json()
        assert finished == []


def test_a_damaged_file_gives_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"this is no database at all" * 200)
    with pytest.raises(JournalError) as err:
        Journal.open(path)
    assert str(err.value) == (f"{path}: the journal is damaged (file is not a database); "
                              "move the file aside and the companion starts a new one")
    assert (err.value.failure, err.value.damage) == (Failure.DAMAGED, "file is not a database")


def test_a_truncated_journal_is_reported_as_damaged(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        for _ in range(30):
            game = new_game(names=tuple(f"Player number {i}" for i in range(3)))
            journal.start(game)
            play(journal, game, "roll 5", "bank")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] + b"\xff" * 600 + data[len(data) // 2 + 600:])
    with pytest.raises(JournalError, match=r"the journal is damaged \("), Journal.open(path) as j:
        j.finished_games()


def test_a_missing_folder_names_the_folder(tmp_path: Path) -> None:
    path = tmp_path / "nowhere" / "j.sqlite3"
    with pytest.raises(JournalError, match=rf"check that {tmp_path / 'nowhere'} exists") as err:
        Journal.open(path)
    assert err.value.failure is Failure.CANNOT_OPEN


def test_a_folder_given_for_the_journal_is_named_as_one(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="is a folder; the journal is a file") as err:
        Journal.open(tmp_path)
    assert err.value.failure is Failure.FOLDER


def test_export_never_creates_a_journal(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with pytest.raises(JournalError, match="no journal there; give the right --journal PATH"):
        Journal.open_existing(path)
    assert not path.exists()


def test_another_programs_database_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (id INTEGER)")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="an SQLite file but not a table-companion journal"):
        Journal.open(path)


def test_a_journal_from_a_newer_version_is_not_touched(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    Journal.open(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=7")
    db.close()
    with pytest.raises(JournalError, match=r"journal version 7, this one reads up to 4"):
        Journal.open(path)


def test_the_system_clock_reads_local_time_with_its_offset() -> None:
    before = datetime.now().astimezone()
    stamp = system_clock()
    after = datetime.now().astimezone()
    assert before <= stamp <= after
    assert stamp.utcoffset() == after.utcoffset()


def test_the_clock_looks_its_offset_up_once_a_minute_and_follows_a_change_on_the_minute() -> None:
    """Daylight saving starts at 120 s: the stamps switch offset exactly there, and the
    offset is looked up once per minute read, not once per stamp."""
    winter, summer = timezone(timedelta(hours=1)), timezone(timedelta(hours=2))
    lookups: list[float] = []

    def zone_at(timestamp: float) -> timezone:
        lookups.append(timestamp)
        return winter if timestamp < 120 else summer

    now = [0.0]
    clock = LocalClock(lambda: now[0], zone_at)
    offsets = {}
    for tenth in range(0, 1900, 7):  # 0 to 190 s
        now[0] = tenth / 10
        stamp = clock()
        assert stamp.timestamp() == pytest.approx(now[0])
        offsets[now[0]] = stamp.utcoffset()
    assert all(offset == (winter if t < 120 else summer).utcoffset(None)
               for t, offset in offsets.items())
    assert [int(t // 60) for t in lookups] == [0, 1, 2, 3]
