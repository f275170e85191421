"""``table-companion night --demo`` as a newcomer runs it: a page with five live tables, one
for each game, until Ctrl-C; ``--listen`` for a phone, with its warning; and one clear line
when Mosquitto is missing."""

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
from firmware_host.commands import night as night_command
from firmware_host.journal import Journal
from firmware_host.night import broker
from games import game_class
from games.dalmatian import Dalmatian

TITLES = {"Centennial", "Sequence Dice", "Center Point", "Dalmatian", "Multi-Gam"}


def games_shown(night: dict[str, Any]) -> set[str]:
    """The games on the page's cards, live or just ended, and in its finished games."""
    return ({t["live"]["game"] for t in night["tables"] if t["live"] and t["live"]["game"]}
            | {g["game"] for g in night["games"]})


@pytest.mark.parametrize("listen", ["", "0.0.0.0"])
def test_the_demo_shows_every_game_playing_and_stops_on_ctrl_c(tmp_path: Path,
                                                                  listen: str) -> None:
    if MOSQUITTO is None:
        missing("mosquitto")
    where = ["--listen", listen] if listen else []
    demo = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "night", "--demo",
                             "--folder", str(tmp_path), *where], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert demo.stdout is not None and demo.stderr is not None
        first = demo.stdout.readline()
        found = re.search(r"open (http://([^:/]+):\d+/)", first)
        assert found is not None, first + demo.stdout.read() + demo.stderr.read()
        if listen:
            warned = demo.stderr.readline()
            assert warned.startswith("Warning: the demo's page is served on 0.0.0.0: anyone "
                                     "on this network can open it")
            assert found.group(2) != "127.0.0.1"  # an address a phone can open
        else:
            assert found.group(2) == "127.0.0.1"

        def night() -> dict[str, Any]:
            with urllib.request.urlopen(found.group(1) + "night.json", timeout=5) as reply:
                data: dict[str, Any] = json.load(reply)
                return data

        until(lambda: games_shown(night()) == TITLES and night()["games"], 60,
              "every game on the demo's page, and a finished one")
        assert {t["id"] for t in night()["tables"] if t["online"]} == {
            f"table-{n}" for n in range(1, len(night_command.GAMES) + 1)}
        with urllib.request.urlopen(found.group(1) + "tv", timeout=5) as reply:
            assert found.group(1) in reply.read().decode()  # the TV's QR code: this address
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


@pytest.mark.parametrize("plays", night_command.GAMES, ids=lambda g: g.game)
def test_a_demo_game_is_short_and_paced_so_cards_show_live_turns_most_of_the_time(
        tmp_path: Path, plays: night_command.DemoGame) -> None:
    waits = []
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        assert night_command.demo_game(journal, plays.game, plays.players, random.Random(1),
                                       lambda: waits.append(plays.step_s) is not None)
        [played] = journal.finished_games()
    playing = sum(waits)
    assert 8.0 <= playing <= 60.0  # a game finished within the first minute
    assert playing / (playing + night_command.PAUSE_S[1]) > 0.6  # live after the longest pause
    assert {p.name for p in played.players} == set(plays.players)
    assert played.game == plays.game


def test_the_demo_plays_every_game() -> None:
    assert {game_class(g.game).TITLE for g in night_command.GAMES} == TITLES


def test_a_stopped_demo_game_is_left_as_it_stood(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        journal.start(Dalmatian.new(2, ["Ann", "Ben"], rounds=1))  # left unfinished...
        assert not night_command.demo_game(journal, "dalmatian", ("Ann", "Ben"),
                                           random.Random(1), lambda: True)
        assert journal.resume() is not None  # ...and the stopped one is left as it stood


@pytest.mark.parametrize(("listen", "port", "said"), [
    ("0.0.0.0:80800", 0, "--listen 0.0.0.0:80800: write HOST:PORT"),
    ("0.0.0.0:8080", 9090, "name two ports"),
    ("a b", 0, "--listen a b: write HOST or HOST:PORT"),
])
def test_a_bad_listen_is_one_line(capsys: pytest.CaptureFixture[str], listen: str, port: int,
                                  said: str) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["night", "--demo", "--listen", listen, "--port", str(port)])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1


def test_a_page_for_every_address_is_this_machines_address() -> None:
    assert night_command.page_url("192.168.1.5", 8080) == "http://192.168.1.5:8080/"
    assert night_command.page_url("::1", 8080) == "http://[::1]:8080/"
    assert not night_command.page_url("0.0.0.0", 8080).startswith("http://0.0.0.0")
