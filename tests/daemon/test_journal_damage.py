"""A damaged journal: each damaged game is named with its first bad action and set aside;
every good game, the night's standings and the game in progress are kept."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from journal_helpers import FakeClock, new_game, play, register_highdie

from firmware_host.daemon import damage_notice
from firmware_host.journal import UNKNOWN_SOURCE, Journal, Problem, Throw, standings, threads
from firmware_host.journal import journal as journal_module
from firmware_host.journal.records import action_hash
from firmware_host.journal.schema import MIGRATIONS
from firmware_host.journal.threads import CHECKPOINT_WRITES, Checkpointer
from firmware_host.journal.wal import (
    FRAME_HEADER,
    WAL_HEADER,
    action_row,
    page_rows,
    read_log,
    wal_path,
)


@pytest.fixture(autouse=True)
def _highdie_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    register_highdie(monkeypatch)


@pytest.fixture
def night(tmp_path: Path) -> Path:
    """Three finished games and one in progress (game #4: roll 4, pass, roll 2)."""
    path = tmp_path / "j.sqlite3"
    with Journal.open(path, FakeClock()) as journal:
        for names in (("Ann", "Ben"), ("Ben", "Cy"), ("Cy", "Ann")):
            game = new_game(names=names)
            journal.start(game)
            play(journal, game, "roll 2", "bank", "roll 6", "bank")
        game = new_game(target=10)
        journal.start(game)
        play(journal, game, "roll 4", "pass", "roll 2")
    return path


def sql(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


def rehash(path: Path, game_id: int) -> None:
    """Chain a game's actions again as they now read: a rules change, not damage."""
    db = sqlite3.connect(path)
    last = db.execute("SELECT hash FROM games WHERE id = ?", (game_id,)).fetchone()[0]
    for seq, action, at in db.execute("SELECT seq, action, at FROM actions WHERE game_id = ? "
                                      "ORDER BY seq", (game_id,)).fetchall():
        last = action_hash(last, seq, action, at)
        db.execute("UPDATE actions SET hash = ? WHERE game_id = ? AND seq = ?",
                   (last, game_id, seq))
    db.commit()
    db.close()


def opened(path: Path) -> Iterator[Journal]:
    with Journal.open(path, FakeClock()) as journal:
        yield journal


def finished_ids(journal: Journal) -> list[int]:
    return [game.id for game in journal.finished_games()]


def test_a_changed_action_sets_its_game_aside_and_a_new_one_starts(night: Path) -> None:
    sql(night, "UPDATE actions SET action = 'roll 5' WHERE game_id = 4 AND seq = 3")
    with Journal.open(night, FakeClock()) as journal:
        assert journal.resume() is None
        assert [str(p) for p in journal.problems] == [
            "game #4: action 3 ('roll 5') changed on disk (hash mismatch); the game is set aside"]
        assert finished_ids(journal) == [1, 2, 3]
        assert journal.start(new_game()) == 5
    with Journal.open(night) as journal:
        assert journal.set_aside() == [(4, "action 3 ('roll 5') changed on disk (hash mismatch)")]
        assert journal.resume() is not None  # the new game, not the damaged one


def test_an_action_the_rules_refuse_names_it(night: Path) -> None:
    sql(night, "UPDATE actions SET action = 'fold' WHERE game_id = 4 AND seq = 2")
    rehash(night, 4)
    with Journal.open(night) as journal:
        assert journal.resume() is None
        [problem] = journal.problems
    assert problem == Problem(4, "action 2 ('fold') is refused by the rules ('fold' is not "
                                 "bank or pass); the game is set aside")


@pytest.mark.parametrize(("damage", "reason"), [
    ("UPDATE games SET setup = '{\"game\": \"highdie\", \"names\": [\"Ben\"' WHERE id = 2",
     "its setup is not readable (bad JSON)"),
    ("UPDATE games SET setup = '{\"game\": \"highdie\", \"names\": [\"Ben\", \"Ben\"], "
     "\"options\": {}}' WHERE id = 2",
     "its setup lacks the game, the options or distinct player names"),
    ("UPDATE games SET started_at = '2026-13-45T99:00' WHERE id = 2",
     "its start time '2026-13-45T99:00' is not a date and time with its offset"),
    ("UPDATE games SET ended_at = 'yesterday' WHERE id = 2",
     "its end time 'yesterday' is not a date and time with its offset"),
    ("UPDATE results SET seat = 7 WHERE game_id = 2 AND seat = 1",
     "its results name seats [0, 7], not one per player of 2"),
    ("UPDATE results SET score = 60 WHERE game_id = 2 AND seat = 1",
     "its results or end time changed on disk (seal mismatch)"),
    ("UPDATE results SET place = 'first' WHERE game_id = 2 AND seat = 1",
     "the result of seat 1 is not readable"),
    ("DELETE FROM actions WHERE game_id = 2 AND seq = 2", "action 2 is missing"),
    ("UPDATE games SET setup = replace(setup, 'Cy', 'Cx') WHERE id = 2",
     "its setup or start time changed on disk (hash mismatch)"),
])
def test_a_damaged_finished_game_is_left_out_of_the_results(
    night: Path, damage: str, reason: str
) -> None:
    sql(night, "PRAGMA foreign_keys=OFF", damage)
    with Journal.open(night) as journal:
        games = journal.finished_games()
        assert [game.id for game in games] == [1, 3]
        assert journal.problems == [Problem(2, f"{reason}; left out of the results")]
        assert [(s.name, s.wins) for s in standings(games)] == [("Ben", 1), ("Ann", 1), ("Cy", 0)]
        resumed = journal.resume()
        assert resumed is not None and len(resumed.history) == 3


def test_a_journal_from_before_the_hashes_is_chained_as_it_stands(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        assert isinstance(statement, str)
        db.execute(statement)
    db.executescript("""
        PRAGMA application_id=1413696076; PRAGMA user_version=1;
        INSERT INTO games VALUES (1, '{"game": "highdie", "names": ["Ann", "Ben"],
            "options": {"target": 5}}', '2026-11-21T20:01:00.000+01:00',
            '2026-11-21T20:05:00.000+01:00', 'finished');
        INSERT INTO actions VALUES (1, 1, 'roll 5', '2026-11-21T20:02:00.000+01:00'),
                                   (1, 2, 'bank', '2026-11-21T20:03:00.000+01:00');
        INSERT INTO results VALUES (1, 0, 5, 1), (1, 1, 0, 2);
        INSERT INTO games VALUES (2, '{"game": "highdie", "names": ["Ann", "Ben"],
            "options": {"target": 5}}', '2026-11-21T20:06:00.000+01:00', NULL, NULL);
        INSERT INTO actions VALUES (2, 1, 'roll 3', '2026-11-21T20:07:00.000+01:00');
    """)
    db.commit()
    db.close()
    with Journal.open(path) as journal:
        [played] = journal.finished_games()
        assert [p.score for p in played.players] == [5, 0]
        assert journal.throws(played) == [Throw((5,), UNKNOWN_SOURCE)]
        game = journal.resume()
        assert game is not None
        journal.apply(game, "bank")
    with Journal.open(path) as journal:
        resumed = journal.resume()
        assert resumed is not None and [str(a) for a in resumed.history] == ["roll 3", "bank"]
        assert journal.problems == []


def test_the_main_file_alone_holds_every_finished_game(tmp_path: Path) -> None:
    """A game's end checkpoints the log: a copy of the .sqlite3 alone (or a lost -wal)
    keeps it."""
    path = tmp_path / "j.sqlite3"
    copy = tmp_path / "copy" / "j.sqlite3"
    copy.parent.mkdir()
    with Journal.open(path, FakeClock()) as journal:
        game = new_game()
        journal.start(game)
        play(journal, game, "roll 2", "bank", "roll 6", "bank")
        assert journal.wait_checkpointed()
        shutil.copyfile(path, copy)  # the -wal is left behind, as `cp` of the file would
        game = new_game()
        journal.start(game)
        journal.apply(game, "roll 1")
        with Journal.open(copy) as alone:
            assert finished_ids(alone) == [1]


def test_an_idle_journal_is_checkpointed(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path, FakeClock(), idle_checkpoint=0.05) as journal:
        game = new_game()
        journal.start(game)
        journal.apply(game, "roll 2")
        assert journal.wait_checkpointed()
        (path.parent / "copy.sqlite3").write_bytes(path.read_bytes())
        with Journal.open(path.parent / "copy.sqlite3") as alone:
            resumed = alone.resume()
        assert resumed is not None and [str(a) for a in resumed.history] == ["roll 2"]


def test_a_long_game_keeps_the_log_from_growing(tmp_path: Path) -> None:
    """The log is checkpointed every CHECKPOINT_WRITES commits, so with the pauses of a
    table it starts over, and a long game's commits write over the log's blocks instead of
    growing the file (a file that grows makes each fsync commit the filesystem's journal)."""
    wal = tmp_path / "j.sqlite3-wal"
    sizes = []
    with Journal.open(tmp_path / "j.sqlite3", FakeClock()) as journal:
        game = new_game()
        journal.start(game)
        for _ in range(3 * CHECKPOINT_WRITES):
            play(journal, game, "roll 1", "pass")
            assert journal.wait_quiet(5.0)  # the next player picks the die up
            sizes.append(wal.stat().st_size)
    frame = 4096 + 24  # a page of the log and its header
    assert sizes[0] < sizes[CHECKPOINT_WRITES // 8] < sizes[CHECKPOINT_WRITES // 4]  # it grew
    # 384 commits, a page or so each (a few take more), in a log that starts over after
    # every 64: it holds about 92 pages; one restart missed would make it about 150
    assert max(sizes) <= 2 * CHECKPOINT_WRITES * frame


class GatedCheckpoints:
    """Stands in for the checkpointer's sqlite3 module: its first checkpoint waits for
    :attr:`release` and then sets :attr:`done`, so a test can open a write around it."""

    Error = sqlite3.Error

    def __init__(self) -> None:
        self.started, self.release, self.done = (threading.Event() for _ in range(3))
        self.count = 0

    def connect(self, *args: Any, **kwargs: Any) -> Any:
        db = sqlite3.connect(*args, **kwargs)
        gate = self

        class Gated:
            def execute(self, sql: str) -> sqlite3.Cursor:
                gate.count += 1
                if gate.count == 1:
                    gate.started.set()
                    gate.release.wait(5)
                try:
                    return db.execute(sql)
                finally:
                    gate.done.set()

            def close(self) -> None:
                db.close()

        return Gated()


@pytest.fixture
def logged(tmp_path: Path) -> Iterator[tuple[sqlite3.Connection, Path]]:
    """A database in WAL mode with a few commits in its log, and the log's path."""
    db = sqlite3.connect(tmp_path / "j.sqlite3", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE t (x)")
    for n in range(3):
        db.execute("INSERT INTO t VALUES (?)", (n,))
    yield db, tmp_path / "j.sqlite3-wal"
    db.close()


def the_next_write_starts_the_log_over(db: sqlite3.Connection, wal: Path) -> bool:
    """Whether a commit now starts the log over: its header then has new salts."""
    salts = wal.read_bytes()[16:24]
    db.execute("INSERT INTO t VALUES (11)")
    return wal.read_bytes()[16:24] != salts


@pytest.fixture
def checkpointer(logged: tuple[sqlite3.Connection, Path]) -> Iterator[Checkpointer]:
    checkpointer = Checkpointer(db_uri(logged[1]))
    yield checkpointer
    checkpointer.close()


@pytest.fixture
def copying(checkpointer: Checkpointer, monkeypatch: pytest.MonkeyPatch) -> GatedCheckpoints:
    """The checkpointer's first checkpoint, started and held at its gate."""
    gate = GatedCheckpoints()
    monkeypatch.setattr(threads, "sqlite3", gate)
    checkpointer.wrote(ended=True)
    assert gate.started.wait(5)
    return gate


def test_a_write_begun_while_a_checkpoint_copied_is_checkpointed_again(
        logged: tuple[sqlite3.Connection, Path], checkpointer: Checkpointer,
        copying: GatedCheckpoints) -> None:
    """A write that began before the checkpoint ended and commits after it cannot start the
    log over, nor can the writes after it until the next checkpoint: a second checkpoint
    copies it, so the next write does."""
    db, wal = logged
    with checkpointer.writing():
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t VALUES (10)")
        copying.release.set()
        assert copying.done.wait(5)
        db.execute("COMMIT")
    checkpointer.wrote(ended=False)
    assert checkpointer.wait_quiet(5)
    assert copying.count == 2
    assert the_next_write_starts_the_log_over(db, wal)


def test_a_write_refused_while_a_checkpoint_copied_leaves_nothing_waiting(
        logged: tuple[sqlite3.Connection, Path], checkpointer: Checkpointer,
        copying: GatedCheckpoints) -> None:
    db, _ = logged
    with pytest.raises(sqlite3.OperationalError), checkpointer.writing():
        copying.release.set()
        assert copying.done.wait(5)
        db.execute("INSERT INTO nowhere VALUES (1)")  # refused: nothing written
    assert checkpointer.wait_quiet(5)  # the checkpoint it asked for has run
    assert checkpointer.wait_caught_up(5)


def test_a_checkpoint_due_while_a_write_is_open_waits_for_it(
        logged: tuple[sqlite3.Connection, Path], checkpointer: Checkpointer) -> None:
    db, wal = logged
    with checkpointer.writing():
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t VALUES (10)")
        checkpointer.wrote(ended=True)  # as the idle time running out would
        assert not checkpointer.wait_quiet(0.3)
        db.execute("COMMIT")
    assert checkpointer.wait_quiet(5)
    assert the_next_write_starts_the_log_over(db, wal)


def db_uri(wal: Path) -> str:
    return f"{wal.with_name(wal.name.removesuffix('-wal')).as_uri()}?mode=rw"


# -- a bad block in the write-ahead log ---------------------------------------------------
# Each frame of a game's ``-wal`` damaged in turn (a flipped bit, a cut, a zeroed 512-byte
# sector): SQLite replays only up to the damage; the journal recovers the actions of intact
# frames after it that chain to the last action read back, names every action it cannot
# read back, and alters none.

ACTIONS = 60  # within one log: the checkpointer restarts it every 64 commits
GAME = 2


def killed(folder: Path) -> tuple[Path, dict[int, list[str]]]:
    """A finished game, then one in progress of ``ACTIONS`` actions, its files copied while
    the journal is open (as a pulled plug leaves them); the actions as played."""
    path = folder / "j.sqlite3"
    kept = folder / "killed"
    kept.mkdir()
    with Journal.open(path, FakeClock(), idle_checkpoint=3600) as journal:
        first = new_game()
        journal.start(first)
        play(journal, first, "roll 6", "bank")
        assert journal.wait_quiet()  # the pause between two games: the log starts over
        game = new_game(target=10)
        journal.start(game)
        for n in range(ACTIONS // 2):
            play(journal, game, f"roll {1 + n % 6}", "pass")
        for made in path.parent.glob("j.sqlite3*"):
            shutil.copy2(made, kept / made.name)
        played = {1: [str(a) for a in first.history], GAME: [str(a) for a in game.history]}
    return kept / path.name, played


def rows_of(path: Path, game: int = GAME) -> list[tuple[int, str]]:
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        if not db.execute("SELECT 1 FROM sqlite_schema WHERE name = 'actions'").fetchone():
            return []  # the log that made the tables is lost too
        return db.execute("SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq",
                          (game,)).fetchall()
    finally:
        db.close()


def damage(wal: Path, frame: int, page_size: int, how: str) -> None:
    data = bytearray(wal.read_bytes())
    start = WAL_HEADER + frame * (FRAME_HEADER + page_size)
    middle = start + FRAME_HEADER + page_size // 2
    if how == "flip":
        data[middle] ^= 0x10
    elif how == "cut":
        del data[middle:]
    else:
        sector = middle // 512 * 512
        data[sector:sector + 512] = bytes(512)
    wal.write_bytes(bytes(data))


def test_every_frame_damaged_in_turn_loses_nothing_silently_and_alters_nothing(
        tmp_path: Path) -> None:
    original, played = killed(tmp_path)
    wal_bytes = wal_path(original).read_bytes()
    log = read_log(wal_bytes)
    assert log is not None and log.replayed == len(log.frames) > ACTIONS
    page_size = len(log.frames[0].page)
    seqs = [{found[1] for row in page_rows(f.page, f.page_number)
             if (found := action_row(row)) is not None and found[0] == GAME}
            for f in log.frames]  # the actions of the game each frame holds
    silently = altered = trials = 0
    intact_after = recovered = 0
    for frame in range(len(log.frames)):
        for how in ("flip", "cut", "zero"):
            trials += 1
            folder = tmp_path / f"{frame}-{how}"
            folder.mkdir()
            for made in original.parent.iterdir():
                shutil.copy2(made, folder / made.name)
            path = folder / original.name
            damage(wal_path(path), frame, page_size, how)
            plain = folder / "plain.sqlite3"  # what SQLite alone reads back
            shutil.copy2(path, plain)
            shutil.copy2(wal_path(path), wal_path(plain))
            kept_by_sqlite = len(rows_of(plain))
            later = set().union(*seqs[frame + 1:]) if how != "cut" else set()
            with Journal.open(path, FakeClock(), salvage=True) as journal:
                state = journal.resume()
                problems = list(journal.problems)
            for game, actions in played.items():
                back = rows_of(path, game)
                assert [seq for seq, _ in back] == list(range(1, len(back) + 1))
                altered += sum(action != actions[seq - 1] for seq, action in back)
                lost = len(actions) - len(back)
                told = sum(p.lost for p in problems if p.game_id == game)
                assert told == lost, (frame, how, game, problems)
                silently += max(0, lost - told)
                if lost:
                    assert any(folder.glob("j.sqlite3.damaged-*")), "the damaged files are kept"
            back = rows_of(path)
            if back:  # the game in progress is back, as far as it could be read
                assert state is not None and [str(a) for a in state.history] == [
                    a for _, a in back]
            wanted = {seq for seq in later if seq > kept_by_sqlite}
            intact_after += len(wanted)
            recovered += len({seq for seq, _ in back} & wanted)
    assert trials == 3 * len(log.frames)
    assert (silently, altered) == (0, 0)
    assert intact_after > 1000 and recovered >= 0.9 * intact_after, (recovered, intact_after)


def test_a_pulled_plug_alone_is_no_damage_and_a_lost_log_is_named(tmp_path: Path) -> None:
    """The log of a journal killed mid-game reads back whole: nothing to say. The same log
    deleted (or lost with a bad card) leaves the main file without the game's actions: the
    note of what the table showed says how many."""
    original, played = killed(tmp_path)
    with Journal.open(original, FakeClock()) as journal:
        assert journal.problems == []
        state = journal.resume()
    assert state is not None and [str(a) for a in state.history] == played[GAME]
    (tmp_path / "again").mkdir()
    again, _played = killed(tmp_path / "again")
    wal_path(again).unlink()
    kept = len(rows_of(again))  # what a checkpoint had copied into the main file
    with Journal.open(again, FakeClock()) as journal:
        problems = [(p.game_id, p.lost) for p in journal.problems]
    assert kept < ACTIONS
    assert problems == [(GAME, ACTIONS - kept)]  # the finished game was checkpointed as it ended
    copies = sorted(p.name for p in again.parent.glob("j.sqlite3.damaged-*"))
    with Journal.open(again, FakeClock()) as journal:  # told once, not at every start
        assert journal.problems == []
    assert sorted(p.name for p in again.parent.glob("j.sqlite3.damaged-*")) == copies


def test_the_log_is_read_by_hand_only_when_sqlite_did_not_replay_it_all(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pulled plug leaves a log SQLite replays whole: the open does not read it again by
    hand, also when the ``-shm`` was lost with it (SQLite builds its index again from the
    log). A bad frame with intact ones after it, and it does."""
    read: list[Path] = []
    real = journal_module.inspect
    monkeypatch.setattr(journal_module, "inspect",
                        lambda path, stamp: (read.append(path), real(path, stamp))[1])
    original, played = killed(tmp_path)
    log = read_log(wal_path(original).read_bytes())
    assert log is not None and len(log.frames) > 10

    def opened_again(name: str, change: Callable[[Path], None]) -> list[Problem]:
        folder = tmp_path / name
        folder.mkdir()
        for made in original.parent.iterdir():
            shutil.copy2(made, folder / made.name)
        change(folder / original.name)
        with Journal.open(folder / original.name, FakeClock(), salvage=True) as journal:
            state = journal.resume()
            assert state is not None and [str(a) for a in state.history] == played[GAME]
            return journal.problems

    assert opened_again("plug", lambda path: None) == [] and read == []
    assert opened_again("no-index", lambda path: path.with_name(path.name + "-shm").unlink()) == []
    assert read == []
    page_size = len(log.frames[0].page)
    problems = opened_again("bad-frame", lambda path: damage(wal_path(path), 3, page_size,
                                                             "flip"))
    assert read == [tmp_path / "bad-frame" / original.name]
    assert "damaged at frame 4" in problems[0].text


def test_the_screen_names_lost_actions_first() -> None:
    assert damage_notice([Problem(2, "...", lost=5), Problem(1, "...")]) == (
        "journal damage: actions lost (5 of game #2), see the log")
    assert damage_notice([Problem(3, "..."), Problem(None, "...")]) == (
        "journal damage: game #3 set aside, see the log")
    assert damage_notice([Problem(None, "...")]) == "journal damage: see the log"
