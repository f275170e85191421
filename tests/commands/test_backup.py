"""``table-companion backup``: a consistent single-file copy, also of a journal in use."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from journal_helpers import FakeClock, new_game, play, register_highdie

from firmware_host.cli import main
from firmware_host.journal import Journal


@pytest.fixture(autouse=True)
def _highdie_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    register_highdie(monkeypatch)


def test_a_copy_of_a_journal_in_use_holds_what_its_log_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.sqlite3"
    copy = tmp_path / "copies" / "copy.sqlite3"
    copy.parent.mkdir()
    with Journal.open(path, FakeClock()) as journal:  # the service, still running
        game = new_game()
        journal.start(game)
        play(journal, game, "roll 2", "bank", "roll 6", "bank")
        game = new_game()
        journal.start(game)
        play(journal, game, "roll 3", "pass")
        assert (tmp_path / "j.sqlite3-wal").stat().st_size > 0
        assert main(["backup", str(copy), "--journal", str(path)]) == 0
        assert capsys.readouterr().out == f"copied {path} to {copy}\n"
    assert sorted(p.name for p in copy.parent.iterdir()) == ["copy.sqlite3"]
    assert sqlite3.connect(copy).execute("PRAGMA journal_mode").fetchone() == ("delete",)
    with Journal.open(copy) as restored:
        assert [g.id for g in restored.finished_games()] == [1]
        resumed = restored.resume()
        assert resumed is not None and [str(a) for a in resumed.history] == ["roll 3", "pass"]


def test_a_folder_gets_a_dated_copy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.sqlite3"
    Journal.open(path).close()
    folder = tmp_path / "backups"
    folder.mkdir()
    assert main(["backup", str(folder), "--journal", str(path)]) == 0
    [made] = folder.iterdir()
    assert made.name.startswith("journal-") and made.suffix == ".sqlite3"


@pytest.mark.parametrize(("target", "message"), [
    ("nowhere/copy.sqlite3", "PATH: the folder {tmp}/nowhere does not exist"),
    ("j.sqlite3", "PATH: {tmp}/j.sqlite3 is the journal itself; name another file"),
])
def test_mistakes_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               target: str, message: str) -> None:
    path = tmp_path / "j.sqlite3"
    Journal.open(path).close()
    with pytest.raises(SystemExit) as exit_info:
        main(["backup", str(tmp_path / target), "--journal", str(path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("table-companion backup: error: " + message.format(tmp=tmp_path))
    assert err.count("\n") == 1
