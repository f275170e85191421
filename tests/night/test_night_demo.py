"""``table-companion night --demo`` as a newcomer runs it: a page with three live tables,
until Ctrl-C, and one clear line when Mosquitto is missing."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from night_parts import MOSQUITTO, ROOT, SHIPPED, missing, until

from firmware_host.cli import main
from firmware_host.commands import night
from firmware_host.journal import Journal
from firmware_host.night import broker
from games.dalmatian import Dalmatian


def test_the_demo_shows_three_tables_playing_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    if MOSQUITTO is None:
        missing("mosquitto")
    demo = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "night", "--demo",
                             "--folder", str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        assert demo.stdout is not None
        first = demo.stdout.readline()
        found = re.search(r"open (http://127\.0\.0\.1:\d+/)", first)
        assert found is not None, first + demo.stdout.read()

        def night() -> dict[str, Any]:
            with urllib.request.urlopen(found.group(1) + "night.json", timeout=5) as reply:
                data: dict[str, Any] = json.load(reply)
                return data

        until(lambda: len(night()["tables"]) == 3 and len(night()["games"]) >= 3, 30,
              "three tables, each with a finished game, on the demo's page")
        assert {t["id"] for t in night()["tables"] if t["online"]} == {
            "table-1", "table-2", "table-3"}
        demo.send_signal(signal.SIGINT)
        assert demo.wait(timeout=20) == 0
        assert demo.stdout.read().strip().endswith("table-companion night: stopped")
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_the_demo_removes_its_temporary_folder_when_stopped(
        tmp_path: Path, stop: signal.Signals) -> None:
    if MOSQUITTO is None:
        missing("mosquitto")
    demo = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "night", "--demo"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env={**os.environ, "TMPDIR": str(tmp_path)})
    try:
        assert demo.stdout is not None
        said = demo.stdout.readline() + demo.stdout.readline()
        found = re.search(r"files and logs in (\S+) \(removed when it stops\)", said)
        assert found is not None, said
        folder = Path(found.group(1))
        assert folder.parent == tmp_path
        until(lambda: (folder / "table-1" / "journal.sqlite3").exists(), 30,
              "table 1 playing a game")
        demo.send_signal(stop)
        assert demo.wait(timeout=20) == 0
        assert list(tmp_path.iterdir()) == []
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()


def test_without_mosquitto_the_demo_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.setattr(broker, "SEARCH", str(tmp_path))
    with pytest.raises(SystemExit) as exited:
        main(["night", "--demo", "--folder", str(tmp_path)])
    assert exited.value.code == 2
    assert capsys.readouterr().err == ("table-companion night: error: mosquitto is not "
                                       "installed; sudo apt install mosquitto\n")


def test_the_demo_broker_keeps_the_shipped_acl() -> None:
    assert (SHIPPED / "table-companion.acl").read_text() == broker.ACL


def test_a_demo_game_is_short_and_paced_so_cards_show_live_turns_most_of_the_time(
        tmp_path: Path) -> None:
    waits = []
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        assert night.demo_game(journal, ("Ann", "Ben"), random.Random(1),
                               lambda: waits.append(night.STEP_S) is not None)
        [played] = journal.finished_games()
    playing = sum(waits)
    assert 8.0 <= playing <= 25.0  # a game finished well within the first half minute
    assert playing / (playing + night.PAUSE_S[1]) > 0.6  # live even after the longest pause
    assert {p.name for p in played.players} == {"Ann", "Ben"}
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        journal.start(Dalmatian.new(2, ["Ann", "Ben"], rounds=1))  # left unfinished...
        assert not night.demo_game(journal, ("Ann", "Ben"), random.Random(1), lambda: True)
        assert journal.resume() is not None  # ...and the stopped one is left as it stood
