"""``table-companion export``: a night's results as CSV or JSON, through the real CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from journal_helpers import CET, FakeClock, new_game, play, register_highdie

from firmware_host import config
from firmware_host.cli import main
from firmware_host.hub import page
from firmware_host.hub.store import Store
from firmware_host.journal import Journal
from firmware_host.night.follow import snapshot


@pytest.fixture(autouse=True)
def _highdie(monkeypatch: pytest.MonkeyPatch) -> None:
    register_highdie(monkeypatch)  # its title, "High Die", names it in the CSV


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    """Two games on the night of the 21st (one after midnight), one on the 22nd."""
    path = tmp_path / "journal.sqlite3"
    clock = FakeClock(datetime(2026, 11, 21, 23, 50, tzinfo=CET))
    with Journal.open(path, clock) as journal:
        game = new_game(names=("Ann", "Ben"))
        journal.start(game)
        play(journal, game, "roll 5", "bank")
        clock.now = datetime(2026, 11, 22, 0, 30, tzinfo=CET)
        game = new_game(names=("Ann", "Ben", "Cy"))
        journal.start(game)
        play(journal, game, "roll 2", "bank", "roll 6", "bank")
        clock.now = datetime(2026, 11, 22, 20, 0, tzinfo=CET)
        game = new_game(names=("Cy", "Ann"))
        journal.start(game)
        play(journal, game, "roll 1", "pass", "roll 5", "bank")
        journal.start(new_game())  # unfinished: not exported
    return path


def export(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["export", *args]) == 0
    return capsys.readouterr().out


def test_csv_of_the_latest_night_by_default(
    journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert export(capsys, "--journal", str(journal_path)) == (
        "night,table,game_id,game,started,ended,seat,player,score,place\n"
        "2026-11-22,,3,High Die,2026-11-22T20:01:00+01:00,2026-11-22T20:05:00+01:00,P1,Cy,0,2\n"
        "2026-11-22,,3,High Die,2026-11-22T20:01:00+01:00,2026-11-22T20:05:00+01:00,P2,Ann,5,1\n"
    )


def test_the_csv_is_the_hubs_csv_of_the_same_games(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the publisher sends the hub becomes, at the hub, the very file export writes."""
    table = tmp_path / "config.toml"
    table.write_text(f'journal = "{journal_path.name}"\n[night]\ntable = "Table 2"\n')
    exported = export(capsys, "--config", str(table))
    with Journal.open_existing(journal_path) as journal:
        sent = snapshot(journal, "table-2", "Table 2", datetime.now(CET))
    store = Store.open(tmp_path / "night.sqlite3")
    for message in (sent.live, *sent.games):
        store.apply(message)
    assert page.as_csv(store.night()) == exported
    assert exported.splitlines()[1].split(",")[1:4] == ["Table 2", "3", "High Die"]


def test_json_of_a_chosen_night_with_its_standings(
    journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(export(capsys, "--journal", str(journal_path), "--format", "json",
                             "--night", "2026-11-21"))
    [night] = data["nights"]
    assert night["night"] == "2026-11-21"
    assert night["standings"] == [
        {"name": "Ann", "played": 2, "wins": 1, "ahead": 0.75},
        {"name": "Ben", "played": 2, "wins": 1, "ahead": 0.5},
        {"name": "Cy", "played": 1, "wins": 0, "ahead": 0.0},
    ]
    assert [game["id"] for game in night["games"]] == [1, 2]
    assert night["games"][1] == {
        "table": "", "name": "", "id": 2, "game": "High Die", "options": {"target": 5},
        "started": "2026-11-22T00:31:00+01:00", "ended": "2026-11-22T00:35:00+01:00",
        "night": "2026-11-21",
        "players": [{"seat": 0, "name": "Ann", "score": 2, "place": 2, "id": ""},
                    {"seat": 1, "name": "Ben", "score": 6, "place": 1, "id": ""},
                    {"seat": 2, "name": "Cy", "score": 0, "place": 3, "id": ""}],
        "luck": [], "throws": [{"seat": 0, "source": "unknown", "dice": [2]},
                               {"seat": 1, "source": "unknown", "dice": [6]}],
        "starter": None,  # High Die has no opening
    }


def test_the_json_is_the_hubs_json_of_the_same_games(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hub's ``/night.json`` and export's JSON say a night in one shape; export adds
    the options each game was played with (the hub is not sent them), the hub what is live
    and the next round."""
    table = tmp_path / "config.toml"
    table.write_text(f'journal = "{journal_path.name}"\n[night]\ntable = "Table 2"\n')
    [exported] = json.loads(export(capsys, "--config", str(table), "--format", "json"))["nights"]
    with Journal.open_existing(journal_path) as journal:
        sent = snapshot(journal, "table-2", "Table 2", datetime.now(CET))
    store = Store.open(tmp_path / "night.sqlite3")
    for message in (sent.live, *sent.games):
        store.apply(message)
    served = json.loads(json.dumps(page.as_json(store.night(), rejected=0)))  # as sent
    for game in exported["games"]:
        assert game.pop("options") == {"target": 5}
    assert {key: served[key] for key in exported} == exported
    assert set(served) - set(exported) == {"tables", "rejected", "trouble", "seating"}
    first = exported["games"][0]
    assert (first["table"], first["name"], first["game"]) == ("table-2", "Table 2", "High Die")
    assert [p["seat"] for p in first["players"]] == [0, 1]  # P1, P2 (the schema's seats)


def test_all_nights(journal_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = export(capsys, "--journal", str(journal_path), "--all").splitlines()
    assert [row.split(",")[:3] for row in rows[1:]] == [
        ["2026-11-21", "", "1"], ["2026-11-21", "", "1"],
        ["2026-11-21", "", "2"], ["2026-11-21", "", "2"], ["2026-11-21", "", "2"],
        ["2026-11-22", "", "3"], ["2026-11-22", "", "3"],
    ]
    data = json.loads(export(capsys, "--journal", str(journal_path), "--all", "--format", "json"))
    assert [night["night"] for night in data["nights"]] == ["2026-11-21", "2026-11-22"]


def test_the_journal_named_by_the_config(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'journal = "{journal_path.name}"\n')
    assert export(capsys, "--config", str(config)).count("\n") == 3


def exit_message(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(["export", *args])
    assert exit_info.value.code == 2
    return capsys.readouterr().err


def test_mistakes_are_one_line_with_status_2(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.sqlite3"
    assert exit_message(capsys, "--journal", str(missing)).startswith(
        f"table-companion export: error: {missing}: no journal there; give the right --journal"
    )
    assert not missing.exists()
    elsewhere = tmp_path / "no-such-folder" / "x.sqlite3"  # not "you may not read this"
    assert exit_message(capsys, "--journal", str(elsewhere)).startswith(
        f"table-companion export: error: {elsewhere}: no journal there; give the right --journal")
    assert "'21.11.2026' is not a date; write YYYY-MM-DD" in exit_message(
        capsys, "--journal", str(journal_path), "--night", "21.11.2026")
    refused = exit_message(capsys, "--night", "2026-11-21", "--all")
    assert "argument --all" in refused and "--night" in refused


def test_an_empty_night_exports_the_header_alone(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "--journal", str(journal_path), "--night", "2026-11-30"]) == 0
    said = capsys.readouterr()
    assert said.out == "night,table,game_id,game,started,ended,seat,player,score,place\n"
    assert said.err.endswith("no finished game on the night of 2026-11-30; "
                             "nights: 2026-11-21, 2026-11-22\n")
    empty = tmp_path / "j.sqlite3"
    Journal.open(empty).close()
    assert main(["export", "--journal", str(empty), "--format", "json"]) == 0
    said = capsys.readouterr()
    assert json.loads(said.out) == {"nights": []}
    assert said.err == (f"table-companion export: reading {empty}\n"
                        f"table-companion export: no finished game in {empty} yet\n")


def test_without_a_service_journal_the_simulators_is_read(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setattr(config, "SERVICE_JOURNAL", tmp_path / "no-service.sqlite3")
    monkeypatch.setattr(config, "DEFAULT_PATH", tmp_path / "no-config.toml")
    assert "no journal in " in exit_message(capsys)
    (state / "table-companion").mkdir(parents=True)
    sim = state / "table-companion" / "sim-journal.sqlite3"
    journal_path.rename(sim)
    assert main(["export"]) == 0
    said = capsys.readouterr()
    assert said.err == f"table-companion export: reading {sim}\n"
    assert said.out.count("\n") == 3
    copy = tmp_path / "copy.sqlite3"
    assert main(["backup", str(copy)]) == 0  # the same journal, whichever command reads it
    assert capsys.readouterr().out == f"copied {sim} to {copy}\n"


def test_a_journal_the_user_may_not_read_suggests_its_owner(
    journal_path: Path, tmp_path: Path
) -> None:
    """The journal in a folder the user may not enter. Root may read anything, so as root
    the command runs as nobody, the folder 0750 as the service's /var/lib/table-companion
    is; any other user is shut out of a folder of its own (mode 0)."""
    if os.geteuid() == 0:
        tmp_path.chmod(0o750)
        as_another = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    else:
        tmp_path.chmod(0)
        as_another = []
    try:
        done = subprocess.run(
            [*as_another, sys.executable, "-m", "firmware_host.cli", "export", "--journal",
             str(journal_path)], capture_output=True, text=True, timeout=30, cwd="/")
    finally:
        tmp_path.chmod(0o750)
    assert done.returncode == 2, done.stderr
    assert done.stderr.endswith(
        f"error: {journal_path}: you may not read this journal; read it as its owner: "
        "sudo -u table-companion table-companion export ...\n")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_damaged_games_are_one_line_each_and_the_good_ones_are_exported(
    journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3
    db = sqlite3.connect(journal_path)
    db.execute("UPDATE games SET setup = '{\"game\": ' WHERE id = 1")
    db.execute("UPDATE results SET seat = 9 WHERE game_id = 2 AND seat = 2")
    db.commit()
    db.close()
    assert main(["export", "--all", "--journal", str(journal_path)]) == 1
    out, err = capsys.readouterr()
    assert [line.split(",")[2] for line in out.splitlines()[1:]] == ["3", "3"]
    assert err.splitlines() == [
        f"table-companion export: reading {journal_path}",
        f"table-companion export: {journal_path}: game #1: its setup is not readable (bad "
        "JSON); left out of the results",
        f"table-companion export: {journal_path}: game #2: its results name seats [0, 1, 9], "
        "not one per player of 3; left out of the results",
    ]
