"""A power cut at every point of a scripted night on a board with sensors, as JSON.

The night is a seeded game of Sequence Dice for two, played to its end by the simulator
(``table-companion sim --scenario``) on the default wiring: dice typed in, each chip put
on or lifted from its cell, a replacement made as the screen says (lift their chip, put
yours on, SELECT). For each point, the daemon playing the night is killed with SIGKILL
once the journal holds that many actions (it goes on a little meanwhile, so the kill lands
anywhere after), and started again with the rest of the night: the steps of every action
not yet in the journal, from the first step of the first of them, as the players would
redo a move the table had not taken. The board keeps its chips over the cut, as a real
one does.

Counted over the points: ``not_prefix``, a journal after the restart that is not the
night's beginning (goal: none); ``lost_committed``, one that lost an action the journal
held at the cut (goal: none); ``named_dead``, sensors the restart blamed though healthy
(goal: none); ``caught_up``, restarts that played the night on to the very same end;
``stalled``, restarts that kept the journal right but did not catch up (the scripted hands
are blind: a press the table took differently leaves them out of step). ``--every N`` tries
every Nth point (1, the default: all); ``--smoke`` every 16th, its restart playing 12
actions on, as the test suite does.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path
from typing import Any

from random_play import play_out

from games.sequence import SequenceDice

SEED = 3  # a night with 16 replacements among its 128 actions
CONFIG = 'pin_map = "pi40"\nplayers = ["Ann", "Ben"]\n[game]\nname = "sequence"\n'
DEADLINE_S = 60.0
SMOKE_EVERY = 16
SMOKE_THEN = 12  # actions a smoke restart plays on: past the move the cut fell in


def night(seed: int = SEED) -> list[str]:
    """The night's actions as the journal holds them."""
    return [str(action) for action in play_out(SequenceDice.new(2), random.Random(seed)).history]


def steps_of(action: str) -> list[str]:
    """What the hands do for one action, as scenario steps."""
    verb, what = action.split(" ", 1)
    if verb == "roll":
        return [f"[[step]]\ndice = [{what.replace('-', ', ')}]\nafter = 0.4\n"]
    if verb == "place":
        return [f'[[step]]\nplace = "{what}"\nafter = 0.8\n']
    if verb == "remove":
        return [f'[[step]]\nlift = "{what}"\nafter = 0.8\n']
    return [f'[[step]]\nlift = "{what}"\nafter = 0.4\n',  # a replacement
            f'[[step]]\nplace = "{what}"\nafter = 0.4\n',
            '[[step]]\nclick = "select"\nafter = 0.8\n']


def scenario(actions: list[str], done: int, started: bool, then: int | None = None) -> str:
    """The night from its ``done``-th action on (the start menus first, if no game is),
    ``then`` actions of it (None: to its end)."""
    steps = [] if started else ['[[step]]\nclick = "select"\n'] * 3
    for action in actions[done:None if then is None else done + then]:
        steps += steps_of(action)
    return "settle = 0.5\n\n" + "\n".join(steps)


def journaled(path: Path) -> tuple[int, list[str]]:
    """Games, and the actions in order, as another process reads the journal now."""
    try:
        with closing(sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True,
                                     timeout=1.0)) as db:
            games = db.execute("SELECT count(*) FROM games").fetchone()[0]
            actions = [a for (a,) in db.execute("SELECT action FROM actions "
                                                 "ORDER BY game_id, seq")]
    except sqlite3.OperationalError:
        return 0, []
    return games, actions


def cut_at(point: int, actions: list[str], folder: Path,
           then: int | None = None) -> dict[str, Any]:
    """Kill the night once the journal holds ``point`` actions, start it again for
    ``then`` more actions (None: to the end); what the restart left."""
    folder.mkdir()
    journal, config = folder / "j.sqlite3", folder / "config.toml"
    config.write_text(CONFIG)
    env = {**os.environ, "XDG_STATE_HOME": str(folder / "state")}
    found: dict[str, Any] = {"point": point}
    for run, kill in enumerate((point, None)):
        games, done = journaled(journal)
        steps = folder / f"run{run}.toml"
        steps.write_text(scenario(actions, len(done), games > 0, None if kill else then))
        child = subprocess.Popen(
            [sys.executable, "-m", "firmware_host.cli", "sim", "--scenario", str(steps),
             "--config", str(config), "--journal", str(journal), "--out", str(folder / "out")],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, cwd=folder, env=env)
        deadline = time.monotonic() + DEADLINE_S
        while kill is not None and child.poll() is None and time.monotonic() < deadline:
            games, done = journaled(journal)
            if games and len(done) >= kill:
                child.send_signal(signal.SIGKILL)
                break
            time.sleep(0.002)  # waiting on the child, not timing it
        _said, errors = child.communicate(timeout=DEADLINE_S)
        _games, done = journaled(journal)
        if run == 0:
            found["killed_at"] = len(done)
            found["killed"] = child.returncode == -signal.SIGKILL
        else:
            found["kept"] = len(done)
            found["prefix"] = done == actions[:len(done)]
            found["caught_up"] = done == actions[:None if then is None
                                                 else found["killed_at"] + then]
            found["named_dead"] = errors.count("seems dead")
            found["traceback"] = "Traceback" in errors
    return found


def campaign(points: list[int], then: int | None = None, seed: int = SEED) -> dict[str, Any]:
    """Each of ``points`` cut in turn, the restart playing ``then`` actions on."""
    actions = night(seed)
    trials = []
    with tempfile.TemporaryDirectory() as folder:
        for point in points:
            trials.append(cut_at(point, actions, Path(folder) / str(point), then))
    return {"actions": len(actions),
            "replacements": sum(action.startswith("replace") for action in actions),
            "points": len(trials),
            "killed_mid_night": sum(t["killed"] and t["killed_at"] < len(actions)
                                    for t in trials),
            "not_prefix": [t["point"] for t in trials if not t["prefix"]],
            "lost_committed": [t["point"] for t in trials if t["kept"] < t["killed_at"]],
            "named_dead": sum(t["named_dead"] for t in trials),
            "caught_up": sum(t["caught_up"] for t in trials),
            "stalled": [t["point"] for t in trials if t["prefix"] and not t["caught_up"]],
            "tracebacks": sum(t["traceback"] for t in trials)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=1, help="try every Nth point (1: all)")
    parser.add_argument("--smoke", action="store_true", help=f"every {SMOKE_EVERY}th point")
    args = parser.parse_args()
    every = SMOKE_EVERY if args.smoke else args.every
    found = campaign(list(range(0, len(night()), every)), SMOKE_THEN if args.smoke else None)
    counts = {name: len(found[name]) for name in ("not_prefix", "lost_committed")}
    counts["named_dead"] = found["named_dead"]
    goals = {name: {"value": value, "goal": 0, "ok": value == 0}
             for name, value in counts.items()}
    print(json.dumps({"bench": "power_cut", "every": every, **found, "goals": goals}))


if __name__ == "__main__":
    main()
