"""A journal damaged as files get damaged: pages of the main file flipped or zeroed, the
``-wal`` cut, flipped or lost after a checkpoint. Whatever the damage, the daemon's open
never fails, no game comes back different from how it was played (a game is either whole
and right, or named as lost), the game in progress resumes at most shortened, and export
says one line per problem, never a traceback.

A main file cut short by a torn write (its ``-wal`` whole), at the cuts around each page
boundary of a journal of three games (bench/torn_journal.py tries every byte): the daemon
keeps at least what a plain SQLite reader reads of the same files, and the files as found
stay as they were found."""

from __future__ import annotations

import importlib.util
import random
import shutil
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import pytest
from journal_helpers import FakeClock, new_game, play, register_highdie

from firmware_host.cli import main
from firmware_host.journal import Journal, PlayedGame
from firmware_host.journal.salvage import Saved, restore

PAGE = 4096
UNFINISHED = ["roll 4", "pass", "roll 2", "bank", "roll 3", "pass", "roll 1"]


@pytest.fixture(autouse=True)
def _highdie_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    register_highdie(monkeypatch)


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[PlayedGame]]:
    """A night of 40 finished games (several pages), checkpointed, and a game in progress
    whose actions are in the -wal alone: the files as a power cut would leave them."""
    folder = tmp_path_factory.mktemp("original")
    live, kept = folder / "live.sqlite3", folder / "j.sqlite3"
    import games
    games.REGISTRY["highdie"] = "test_core:HighDie"
    with Journal.open(live, FakeClock()) as journal:
        for index in range(40):
            game = new_game(names=(f"Player {index}", "Ben", "Cy"))
            journal.start(game)
            play(journal, game, "roll 2", "bank", "roll 6", "bank")
        assert journal.wait_checkpointed()
        game = new_game(target=10)
        journal.start(game)
        play(journal, game, *UNFINISHED)
        finished = journal.finished_games()
        shutil.copyfile(live, kept)
        shutil.copyfile(live.with_name("live.sqlite3-wal"), kept.with_name("j.sqlite3-wal"))
    del games.REGISTRY["highdie"]
    return kept, finished


def case(original: tuple[Path, list[PlayedGame]], tmp_path: Path) -> Path:
    path = tmp_path / "j.sqlite3"
    shutil.copyfile(original[0], path)
    shutil.copyfile(original[0].with_name("j.sqlite3-wal"), tmp_path / "j.sqlite3-wal")
    return path


def check(path: Path, finished: list[PlayedGame], capsys: pytest.CaptureFixture[str],
          all_finished_kept: bool = False) -> None:
    try:
        status = main(["export", "--all", "--journal", str(path)])
    except SystemExit as exit_:  # a one-line error
        status = exit_.code
    err = capsys.readouterr().err
    assert status in (0, 1, 2)
    assert all(line.startswith("table-companion export: ") for line in err.splitlines()), err
    with Journal.open(path, FakeClock(), salvage=True) as journal:
        resumed = journal.resume()
        games = journal.finished_games()
        problems = [str(p) for p in journal.problems]
    by_id = {game.id: game for game in finished}
    assert all(game == by_id[game.id] for game in games), "a game came back different"
    if all_finished_kept:
        assert games == finished
    if resumed is not None:
        assert [str(a) for a in resumed.history] == UNFINISHED[: len(resumed.history)]
    lost = {game.id for game in finished} - {game.id for game in games}
    named = " ".join(problems)
    assert all(f"#{game_id}" in named or "not recovered" in named or "moved aside" in named
               for game_id in lost), (lost, problems)


@pytest.mark.parametrize("seed", range(12))
def test_flipped_bytes_in_the_main_file(
    original: tuple[Path, list[PlayedGame]], tmp_path: Path, seed: int,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = case(original, tmp_path)
    data = bytearray(path.read_bytes())
    rng = random.Random(seed)
    for _ in range(1 + seed % 3):
        data[rng.randrange(100, len(data))] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))
    check(path, original[1], capsys)


@pytest.mark.parametrize("page", [1, 2, 3, 5, 8, -1])
def test_a_zeroed_page_of_the_main_file(
    original: tuple[Path, list[PlayedGame]], tmp_path: Path, page: int,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = case(original, tmp_path)
    data = bytearray(path.read_bytes())
    pages = len(data) // PAGE
    index = (page if page > 0 else pages) - 1
    data[index * PAGE:(index + 1) * PAGE] = bytes(PAGE)
    path.write_bytes(bytes(data))
    check(path, original[1], capsys)


@pytest.mark.parametrize("keep", [0.0, 0.1, 0.5, 0.9, 0.999])
def test_a_cut_wal(original: tuple[Path, list[PlayedGame]], tmp_path: Path, keep: float,
                   capsys: pytest.CaptureFixture[str]) -> None:
    path = case(original, tmp_path)
    wal = tmp_path / "j.sqlite3-wal"
    data = wal.read_bytes()
    wal.write_bytes(data[: int(len(data) * keep)])
    check(path, original[1], capsys, all_finished_kept=True)


@pytest.mark.parametrize("seed", range(6))
def test_a_flipped_wal(original: tuple[Path, list[PlayedGame]], tmp_path: Path, seed: int,
                       capsys: pytest.CaptureFixture[str]) -> None:
    path = case(original, tmp_path)
    wal = tmp_path / "j.sqlite3-wal"
    data = bytearray(wal.read_bytes())
    rng = random.Random(seed)
    data[rng.randrange(len(data)) if seed else 10] ^= 1 << rng.randrange(8)  # 0: its header
    wal.write_bytes(bytes(data))
    check(path, original[1], capsys, all_finished_kept=True)


def test_a_wal_lost_after_a_checkpoint_keeps_every_finished_game(
    original: tuple[Path, list[PlayedGame]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = case(original, tmp_path)
    (tmp_path / "j.sqlite3-wal").unlink()
    check(path, original[1], capsys, all_finished_kept=True)


def test_salvage_keeps_the_damaged_file_and_says_where(
    original: tuple[Path, list[PlayedGame]], tmp_path: Path
) -> None:
    path = case(original, tmp_path)
    db = sqlite3.connect(path)  # fold the log in first, so the damage is what SQLite reads
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = bytearray(path.read_bytes())
    data[-PAGE:] = bytes(PAGE)  # a leaf page: some games are lost, most are not
    path.write_bytes(bytes(data))
    with Journal.open(path, FakeClock(), salvage=True) as journal:
        first = journal.problems[0]
        kept = journal.finished_games()
    assert first.game_id is None and "moved aside as j.sqlite3.damaged-" in first.text
    assert 0 < len(kept) < len(original[1])
    assert [p.name for p in tmp_path.iterdir() if ".damaged-" in p.name]


# -- a torn write of the main file ------------------------------------------------------

BENCH = Path(__file__).parents[2] / "bench"


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("torn_journal_bench", BENCH / "torn_journal.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def torn() -> ModuleType:
    return bench()


@pytest.fixture(scope="module")
def moments(torn: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    found: dict[str, Path] = torn.moments(tmp_path_factory.mktemp("moments"))
    return found


@pytest.mark.parametrize("moment", ["mid_game", "ended"])
def test_every_page_boundary_cut_keeps_what_sqlite_reads_and_the_files_as_found(
        torn: ModuleType, moments: dict[str, Path], tmp_path: Path, moment: str) -> None:
    files = moments[moment]
    played = torn.original(files)
    tally = torn.Tally()
    for cut in torn.boundary_cuts(files.stat().st_size):
        torn.trial(files, played, cut, tmp_path / str(cut), tally)
    figures = tally.figures()
    assert figures["trials"] > 50
    assert (figures["kept_less"], figures["kept_wrong"], figures["not_as_found"],
            figures["raised"]) == (0, 0, 0, 0), figures
    assert figures["moved_aside"] > 30  # most cuts are damage SQLite sees
    assert figures["kept_actions"] >= figures["plain_actions"] > 0


def test_a_file_cut_before_its_header_keeps_its_log_and_the_games_in_it(
        torn: ModuleType, moments: dict[str, Path], tmp_path: Path) -> None:
    """SQLite takes a main file of a few bytes for a new database and deletes the log beside
    it as it opens it, even read-only: the daemon moves both aside first and reads the
    games from the log's pages."""
    files = moments["mid_game"]
    played = torn.original(files)
    for made in files.parent.iterdir():
        shutil.copyfile(made, tmp_path / made.name)
    path = tmp_path / torn.NAME
    path.write_bytes(b"")
    log = path.with_name(f"{torn.NAME}-wal").read_bytes()
    assert torn.plain(path, played) == {}  # a plain reader gets nothing
    with torn.Journal.open(path, torn.Clock(), salvage=True) as journal:
        first = str(journal.problems[0])
    assert "no whole header" in first and "moved aside" in first
    (aside,) = tmp_path.glob(f"{torn.NAME}.damaged-*-wal")
    assert aside.read_bytes() == log
    have, wrong = torn.kept(path, played)
    assert wrong == 0 and sum(have.values()) > 100


def test_export_of_a_damaged_file_leaves_it_as_found(
        torn: ModuleType, moments: dict[str, Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Export reads a damaged file without writing it: a connection that may write folds
    the log into the file when it closes, and the salvage afterwards would read that."""
    files = moments["mid_game"]
    for made in files.parent.iterdir():
        shutil.copyfile(made, tmp_path / made.name)
    path = tmp_path / torn.NAME
    with open(path, "r+b") as cut:
        cut.truncate(5630)
    before = {made.name: made.read_bytes() for made in tmp_path.iterdir()
              if made.name != f"{torn.NAME}-shm"}
    status = main(["export", "--all", "--journal", str(path)])
    err = capsys.readouterr().err
    assert status == 1 and "damaged" in err
    assert {made.name: made.read_bytes() for made in tmp_path.iterdir()
            if made.name in before} == before
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)  # still what it was
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 3
    db.close()


def test_a_second_salvage_in_the_same_second_keeps_the_first_files_as_found(
        original: tuple[Path, list[PlayedGame]], tmp_path: Path) -> None:
    path = case(original, tmp_path)
    def stopped() -> datetime:
        return datetime(2026, 11, 21, 23, 0, tzinfo=UTC)

    found = []
    for _ in range(2):
        path.write_bytes(b"not a journal, " * 400)
        found.append(path.read_bytes())
        with Journal.open(path, stopped, salvage=True) as journal:
            assert "moved aside" in str(journal.problems[0])
    kept = sorted(p for p in tmp_path.glob("j.sqlite3.damaged-*")
                  if not p.name.endswith(("-wal", "-shm")))
    assert [p.name for p in kept] == ["j.sqlite3.damaged-20261121T230000",
                                      "j.sqlite3.damaged-20261121T230000.2"]
    assert [p.read_bytes() for p in kept] == found


def test_a_game_whose_rows_the_new_journal_refuses_is_named_and_the_others_are_copied(
        tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    Journal.open(path, FakeClock()).close()  # the tables
    row = (1, '{"game": "highdie"}', "2026-11-21T20:00:00+01:00", None, None, "h", None, None)
    good = Saved(row, [(1, "roll 4", "2026-11-21T20:01:00+01:00", "a", None)], [])
    twice = Saved((2, *row[1:]), [(1, "roll 4", "t", "a", None), (1, "roll 5", "t", "b", None)],
                  [])
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    refused = restore(db, [twice, good])
    db.execute("COMMIT")
    assert [(p.game_id, "not recovered" in p.text) for p in refused] == [(2, True)]
    assert db.execute("SELECT id FROM games").fetchall() == [(1,)]
    assert db.execute("SELECT game_id, seq FROM actions").fetchall() == [(1, 1)]
    db.close()
