"""kill -9 at many points of a scripted game: the journal resumes with every committed action.
And kill -9 while a throw waits for another program's lock on the journal: the next start
plays it, or says it was lost.

A child process plays a scripted game through the journal and prints how many actions are
committed after each commit; the test kills it with SIGKILL after a random number of those
lines (while it is somewhere in the next action), reopens the file, and checks that the
game resumes as exactly the committed prefix of the script and that SQLite finds nothing
wrong. Then a new child resumes and goes on, until the game is over.
"""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest
from journal_helpers import register_highdie
from test_core import HighDie

from firmware_host.config import Config, GameConfig
from firmware_host.daemon import assemble, open_journal
from firmware_host.journal import Journal
from games import new_game
from hardware.events import DeviceStatus, Event
from hardware.pins.factory import mock_factory

TESTS = Path(__file__).parents[1]
ROOT = TESTS.parent

CHILD = """
import json, sys
import games
from firmware_host.journal import Journal
from test_core import HighDie

games.REGISTRY["highdie"] = "test_core:HighDie"
path, script_file = sys.argv[1], sys.argv[2]
script = json.loads(open(script_file).read())
with Journal.open(__import__("pathlib").Path(path)) as journal:
    game = journal.resume()
    if game is None:
        game = HighDie.new(names=["Ann", "Ben", "Cy"], target=10)
        journal.start(game)
    print(len(game.history), flush=True)
    for action in script[len(game.history):]:
        journal.apply(game, action)
        print(len(game.history), flush=True)
"""


def scripted_game(seed: int) -> list[str]:
    """A whole game of High Die for three, passing more often than banking, so it runs long."""
    rng = random.Random(seed)
    game = HighDie.new(names=["Ann", "Ben", "Cy"], target=10)
    while not game.is_over:
        game.apply(f"roll {rng.randint(1, 6)}")
        game.apply(rng.choice(["bank", "pass", "pass"]))
    return [str(action) for action in game.history]


@pytest.mark.parametrize("seed", [2])
def test_kill_9_anywhere_loses_no_committed_action(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    register_highdie(monkeypatch)
    script = scripted_game(seed)
    script_file = tmp_path / "script.json"
    script_file.write_text(json.dumps(script))
    child_file = tmp_path / "child.py"
    child_file.write_text(CHILD)
    path = tmp_path / "journal.sqlite3"
    paths = [str(TESTS), str(TESTS / "games"), str(ROOT)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    rng = random.Random(seed)
    kills = 0
    finished = False
    while not finished:
        child = subprocess.Popen([sys.executable, str(child_file), str(path), str(script_file)],
                                 stdout=subprocess.PIPE, text=True, env=env)
        assert child.stdout is not None
        committed = 0  # nothing acknowledged yet: the child may die before opening the file
        for _ in range(rng.choice([0, 1, 3, 5, 7])):
            line = child.stdout.readline()
            if not line:
                break
            committed = int(line)
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        kills += child.returncode == -signal.SIGKILL

        assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        with Journal.open(path) as journal:
            resumed = journal.resume()
            done = journal.finished_games()
        if resumed is None and done:
            played = script  # the game ended: its last action was committed with the result
            finished = True
        else:
            played = [str(a) for a in resumed.history] if resumed is not None else []
        assert played == script[: len(played)], "the resumed game is not the script's prefix"
        assert len(played) >= committed, f"{committed} actions were acknowledged, lost some"
    print(f"{kills} kills over {len(script)} actions")
    assert kills >= 10, f"only {kills} children were killed: the game is too short to test"
    assert [p.score for p in done[0].players] == list(HighDie.replay(
        HighDie.make_setup(None, ["Ann", "Ben", "Cy"], {"target": 10}), script).scores())


HOLDER = """
import sys, time
from pathlib import Path
from firmware_host.config import Config, GameConfig
from firmware_host.journal import Journal
from firmware_host.referee import Referee
from hardware.events import DiceRolled

journal = Journal.open(Path(sys.argv[1]), salvage=True)
config = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian"))
referee = Referee(config, journal, game=journal.resume(), render=lambda view: None)
print("ready", flush=True)
sys.stdin.readline()  # another program holds the journal now
referee.handle(DiceRolled((6, 6, 6, 6, 5), "button"))
print(referee.view().message, flush=True)
time.sleep(60)
"""


class Frames:
    def show(self, image: object) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.mark.parametrize("then", ["played on", "game abandoned"])
def test_a_throw_held_for_the_journal_s_lock_survives_a_kill_9_or_is_named(
        tmp_path: Path, then: str) -> None:
    """A throw made while another program holds the journal waits on the screen; the
    table is killed before the lock goes. The next start plays it on the game it follows,
    and says so; when the game it followed is gone, it says the throw was not saved."""
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        journal.start(new_game("dalmatian", 2))
    child_file = tmp_path / "holder.py"
    child_file.write_text(HOLDER)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, str(child_file), str(path)], env=env, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    assert child.stdout.readline() == "ready\n"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    child.stdin.write("\n")
    child.stdin.flush()
    assert "roll 6-6-6-6-5 will be written once it is closed" in child.stdout.readline()
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdin.close()
    child.stdout.close()
    other.execute("ROLLBACK")
    if then == "game abandoned":  # another program ended the game meanwhile
        other.execute("UPDATE games SET ended_at = started_at, outcome = 'abandoned'")
    other.close()

    factory = mock_factory()
    events: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
    with ExitStack() as resources:
        resources.callback(factory.close)
        journal = open_journal(path, resources)
        assemble(Config(players=("Ann", "Ben"), game=GameConfig("dalmatian")), journal,
                 factory, Frames(), resources, events=events)
        told = [event.message for event in (events.get_nowait() for _ in range(events.qsize()))
                if isinstance(event, DeviceStatus)]
        resumed = journal.resume()
    if then == "played on":
        assert "the roll 6-6-6-6-5 made while the journal was locked is saved now" in told
        assert resumed is not None and [str(a) for a in resumed.history] == ["roll 6-6-6-6-5"]
    else:
        assert ("the roll 6-6-6-6-5 made while the journal was locked was not saved: "
                "throw again") in told
        assert resumed is None
    assert not path.with_name("j.sqlite3-held").exists()  # told once
