"""kill -9 at many points of a scripted game: the journal resumes with every committed action.

A child process plays a scripted game through the journal and prints how many actions are
committed after each commit; the test kills it with SIGKILL after a random number of those
lines (while it is somewhere in the next action), reopens the file, and checks that the
game resumes as exactly the committed prefix of the script and that SQLite finds nothing
wrong. Then a new child resumes and goes on, until the game is over.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from journal_helpers import register_highdie
from test_core import HighDie

from firmware_host.journal import Journal

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
