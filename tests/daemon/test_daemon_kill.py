"""kill -9 of the whole daemon (``table-companion sim`` playing a scenario) mid-game.

The game is Dalmatian driven by typed-in dice alone, so from any committed point the rest of
it is a scenario of the dice still to come. Each run is killed once the journal, read by
this test through a read-only connection, holds a chosen number of actions (the daemon goes
on a little meanwhile, so the kill lands anywhere after that). What must hold wherever it
lands: SQLite finds the file intact, the journal opens and resumes, the game it resumes is
exactly the replay of the actions committed (the scripted game's prefix, at least as long
as was seen), and the next run continues from there to the very same finished game.
"""

from __future__ import annotations

import importlib.util
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_e2e import journaled, replayed

from firmware_host.journal import Journal
from games.core import Phase
from games.dalmatian import Dalmatian

BENCH = Path(__file__).parents[2] / "bench"
ROUNDS = 4
KILL_AFTER = (0, 7, 17, 28)  # actions seen committed before each kill; 0: the game started
DEADLINE_S = 30.0  # no run may take longer, however loaded the machine
CONFIG = f"""
players = ["Ann", "Ben"]
[game]
name = "dalmatian"
[game.variants]
rounds = {ROUNDS}
"""


@dataclass(frozen=True)
class Throw:
    """One ``dice`` step and the actions it makes: a roll, or a reroll of all five and the
    roll of the new dice (two commits, so a kill may fall between them)."""

    dice: tuple[int, ...]
    actions: tuple[str, ...]


def scripted_game(seed: int) -> list[Throw]:
    """A whole game of Dalmatian thrown at random; each turn rerolls until it ends by
    itself (five scoring dice, or both rerolls used)."""
    rng = random.Random(seed)
    game = Dalmatian.new(2, ["Ann", "Ben"], rounds=ROUNDS)
    throws = []
    while not game.is_over:
        count = game.dice_wanted or len(game.dice)
        dice = tuple(rng.randint(1, 6) for _ in range(count))
        before = len(game.history)
        if game.phase is Phase.MOVE:
            game.apply("reroll " + "-".join(map(str, game.dice)))
        game.roll(*dice)
        throws.append(Throw(dice, tuple(str(a) for a in game.history[before:])))
    return throws


def scenario(throws: list[Throw], committed: int, started: bool) -> str:
    """The steps still to do once ``committed`` actions are in the journal: the menus when
    no game was started, then the throws not yet wholly committed."""
    steps = ['[[step]]\nclick = "select"\n'] * 3 if not started else []
    done = 0
    for throw in throws:
        done += len(throw.actions)
        if done > committed:  # a reroll without its roll leaves five dice due: the same step
            steps.append(f"[[step]]\ndice = {list(throw.dice)}\n")
    return "settle = 0.5\n\n" + "\n".join(steps)


def committed(path: Path) -> tuple[int, int]:
    """Games and actions in the journal as another process sees them now ((0, 0) before
    the daemon has made the file and its tables)."""
    try:
        with closing(sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True,
                                     timeout=1.0)) as db:
            games = db.execute("SELECT count(*) FROM games").fetchone()[0]
            actions = db.execute("SELECT count(*) FROM actions").fetchone()[0]
    except sqlite3.OperationalError:
        return 0, 0
    return games, actions


def test_kill_9_of_the_daemon_loses_no_committed_action(tmp_path: Path) -> None:
    throws = scripted_game(seed=4)
    script = [action for throw in throws for action in throw.actions]
    assert len(script) > max(KILL_AFTER) + 8, "the game is too short for the kills"
    journal, out, config = tmp_path / "j.sqlite3", tmp_path / "out", tmp_path / "config.toml"
    config.write_text(CONFIG)
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    plays = [*KILL_AFTER, None]  # the last run is left to finish the game
    seen = 0
    kills_mid_game = 0
    outcome = None
    for number, kill_after in enumerate(plays):
        if outcome == "finished":  # a run finished the game before its kill
            break
        games, held = committed(journal)
        steps = tmp_path / f"run{number}.toml"
        steps.write_text(scenario(throws, held, started=games > 0))
        child = subprocess.Popen(
            [sys.executable, "-m", "firmware_host.cli", "sim", "--scenario", str(steps),
             "--config", str(config), "--journal", str(journal), "--out", str(out)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, cwd=tmp_path, env=env)
        deadline = time.monotonic() + DEADLINE_S
        if kill_after is not None:
            while child.poll() is None and time.monotonic() < deadline:
                games, seen = committed(journal)
                if games and seen >= kill_after:
                    child.send_signal(signal.SIGKILL)
                    break
                time.sleep(0.005)  # waiting on the child, not timing it
        said, errors = child.communicate(timeout=max(1.0, deadline - time.monotonic()))
        assert "Traceback" not in errors, errors

        with closing(sqlite3.connect(journal)) as db:
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        [(setup, actions, outcome)] = journaled(journal)
        assert actions == script[: len(actions)], "the journal is not the game's prefix"
        assert len(actions) >= seen, f"{seen} actions were seen committed, {len(actions)} kept"
        with Journal.open(journal) as opened:
            resumed = opened.resume()
        if outcome is None:
            assert resumed is not None
            assert [str(a) for a in resumed.history] == actions
            assert resumed.scores() == replayed(setup, actions).scores()
            kills_mid_game += child.returncode == -signal.SIGKILL
        else:
            assert resumed is None and outcome == "finished"
        seen = len(actions)
        if kill_after is None:
            assert child.returncode == 0, errors
            assert "journal: no game in progress" in said
    assert actions == script and outcome == "finished"
    final = replayed(setup, actions)
    with Journal.open(journal) as opened:
        [game] = opened.finished_games()
    assert [p.score for p in game.players] == list(final.scores())
    assert kills_mid_game >= 2, "the kills all missed the game: nothing was tested"


def test_a_power_cut_anywhere_in_a_night_on_a_sensed_board_keeps_the_journal_the_night_s(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """bench/power_cut.py on a few points (it tries every one): a night of Sequence Dice
    played with the chips, killed with SIGKILL as a replacement is due and elsewhere, and
    started again with the chips where they were. After each restart the journal is the
    night's beginning and holds every action it held at the cut, no healthy sensor is
    named dead, and the restart plays the night on (its first SELECT takes the replacement
    offered, not the "resumed after N moves" shown over it)."""
    monkeypatch.syspath_prepend(str(BENCH))
    spec = importlib.util.spec_from_file_location("power_cut_bench", BENCH / "power_cut.py")
    assert spec is not None and spec.loader is not None
    power_cut = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(power_cut)
    actions = power_cut.night()
    replacements = [seq for seq, action in enumerate(actions) if action.startswith("replace")]
    points = [0, 9, *replacements[1:5:3], 110]  # the cut as the replacement is being made
    found = power_cut.campaign(points, then=power_cut.SMOKE_THEN)
    assert found["killed_mid_night"] >= len(points) - 1, found
    assert (found["not_prefix"], found["lost_committed"], found["named_dead"],
            found["tracebacks"]) == ([], [], 0, 0), found
    assert found["caught_up"] == len(points), found
