"""The journal's costs as JSON: commit latency, apply at 100 and 50,000 actions, resume, undo.

- ``commit``: seeded random Centennial games through :meth:`Journal.apply`, which applies the
  action and commits it (one fsync'd transaction, WAL, ``synchronous=FULL``) before
  returning. The file is made in ``$TMPDIR`` (or ``--dir``); put it on the disk the journal
  will live on, since the figure is mostly that disk's fsync.
- ``growth``: :meth:`Journal.apply` in a game that already holds 100 and 50,000 actions, in
  CPU time (``process_time``: the fsync wait is not CPU) and wall time. The game is
  :class:`Tally` (one die a turn, never over), so that what is timed is the journal's work,
  not a rule module's. The goal: at 50,000 within 1.3x of the cost at 100.
- ``resume``: open and resume the longest of a few seeded CenterPoint games for four (the
  longest game the rules make, about 1,000 actions), a Tally game of 2,500 actions, and one
  of 50,000; each with the chain check and the replay. Goal: 2,500 actions <= 50 ms.
- ``undo``: :meth:`Journal.undo` at 50,000 actions (from the nearest snapshot) beside the
  rules' own undo (a replay of the whole game).
- ``open``: the daemon's open (``Journal.open(salvage=True)``) of a journal closed cleanly
  (no ``-wal``) and of one as a power cut leaves it (its ``-wal`` of :data:`CUT_AFTER`
  actions of a Tally game not yet checkpointed, and the ``-shm``, copied while the journal
  was open), median of :data:`OPENS` CPU ms and wall ms each; beside it ``log_read_ms``, the
  hand reading of that ``-wal`` (:func:`firmware_host.journal.wal.inspect`) alone, which
  the open does only when SQLite did not replay the whole log.
- ``stamp``: an action's time stamp by the journal's clock (the local offset looked up once a
  minute) beside ``datetime.now().astimezone()``, which looks it up every time; µs each.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from random_play import play_out
from smoke import sized

import games
from firmware_host.journal import Journal, system_clock
from firmware_host.journal.wal import inspect
from games.centennial import Centennial
from games.centerpoint import CenterPoint
from games.core import GameState, Phase, Result, Roll

ACTIONS = sized(400, 10)
SEED = 2024
SIZES = sized((100, 50_000), (100, 1_000))
TIMED = sized(300, 5)  # applies timed at each size
GROWTH_GOAL = 1.3
RESUME_GOAL_MS = 50.0
RESUME_ACTIONS = sized(2_500, 200)
RESUMES = sized(5, 1)  # opened and resumed, each journal
CENTERPOINT_SEEDS = sized(6, 1)
STAMPS = sized(20_000, 100)
OPENS = sized(20, 2)
CUT_AFTER = 60  # commits in the log when the power is cut (a checkpoint every 64)


class Tally(GameState[str]):
    """A die a turn for ever: the smallest game, so the journal's own cost shows."""

    NAME = "tally"
    TITLE = "Tally"
    SUMMARY = "throw a die, again and again"
    MIN_PLAYERS = 1
    MAX_PLAYERS = 1
    OPTIONS: ClassVar[dict[str, Any]] = {}

    def _start(self) -> None:
        self.total = 0

    @property
    def phase(self) -> Phase:
        return Phase.ROLL

    @property
    def current_player(self) -> int:
        return 0

    @property
    def dice_wanted(self) -> int:
        return 1

    def legal_actions(self) -> list[str]:
        return []

    def parse_action(self, text: str) -> str:
        raise games.errors.NotationError(f"{text!r}: Tally has only rolls")

    def _apply(self, action: str | Roll) -> None:
        assert isinstance(action, Roll)
        self.total += action.dice[0]

    def scores(self) -> tuple[int, ...]:
        return (self.total,)

    def result(self) -> Result | None:
        return None


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU milliseconds of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def commit_latency(folder: Path, actions: int) -> dict[str, Any]:
    rng = random.Random(SEED)
    latencies: list[float] = []
    with Journal.open(folder / "commit.sqlite3") as journal:
        game = Centennial.new(4)
        journal.start(game)
        while len(latencies) < actions:
            if game.is_over:
                game = Centennial.new(4)
                journal.start(game)
            if game.phase is Phase.ROLL:
                action: object = Roll(tuple(rng.randint(1, 6) for _ in range(game.dice_wanted)))
            else:
                action = rng.choice(game.legal_actions())
            latencies.append(timed(partial(journal.apply, game, action))[0])
    ordered = sorted(latencies)
    return {"synchronous": "FULL", "actions": len(latencies),
            "p50_ms": round(percentile(ordered, 0.50), 3),
            "p99_ms": round(percentile(ordered, 0.99), 3),
            "mean_ms": round(statistics.fmean(ordered), 3), "max_ms": round(ordered[-1], 3)}


def tally(actions: int, rng: random.Random) -> Tally:
    game = Tally.new(1)
    for _ in range(actions):
        game.roll(rng.randint(1, 6))
    return game


def growth(folder: Path) -> dict[str, Any]:
    """apply at each of SIZES: a journal holding a game of that many actions (written in one
    transaction by :meth:`Journal.start`), then TIMED applies, median CPU and wall."""
    rng = random.Random(SEED)
    found: dict[str, Any] = {}
    for size in SIZES:
        with Journal.open(folder / f"growth-{size}.sqlite3") as journal:
            game = tally(size, rng)
            journal.start(game)
            throws = [Roll((rng.randint(1, 6),)) for _ in range(TIMED)]
            walls, cpus = zip(*(timed(partial(journal.apply, game, throw)) for throw in throws),
                              strict=True)
        found[str(size)] = {"cpu_ms_p50": round(statistics.median(cpus), 4),
                            "wall_ms_p50": round(statistics.median(walls), 3)}
    small, large = (found[str(size)]["cpu_ms_p50"] for size in SIZES)
    found["cpu_ratio"] = round(large / small, 2)
    return found


def longest_centerpoint(seeds: int = CENTERPOINT_SEEDS) -> CenterPoint:
    best: CenterPoint | None = None
    for seed in range(seeds):
        game = play_out(CenterPoint.new(4), random.Random(seed))
        if best is None or len(game.history) > len(best.history):
            best = game
    assert best is not None
    game = CenterPoint.new(4)
    for action in best.history[:-1]:  # unfinished: one action short of its end
        game.apply(action)
    return game


def open_and_resume(path: Path, into: list[GameState[Any] | None]) -> None:
    with Journal.open(path) as journal:
        into.append(journal.resume())


def resume(folder: Path) -> dict[str, Any]:
    found: dict[str, Any] = {}
    rng = random.Random(SEED)
    for name, game in (("centerpoint", longest_centerpoint()),
                       (f"tally_{RESUME_ACTIONS}", tally(RESUME_ACTIONS, rng)),
                       (f"tally_{SIZES[-1]}", tally(SIZES[-1], rng))):
        path = folder / f"resume-{name}.sqlite3"
        with Journal.open(path) as journal:
            journal.start(game)
        runs = []
        for _ in range(RESUMES):
            resumed: list[GameState[Any] | None] = []
            runs.append(timed(partial(open_and_resume, path, resumed))[0])
            assert resumed[0] is not None and len(resumed[0].history) == len(game.history)
        found[name] = {"actions": len(game.history),
                       "open_and_resume_ms_p50": round(statistics.median(runs), 2)}
    return found


def undo(folder: Path) -> dict[str, Any]:
    rng = random.Random(SEED)
    with Journal.open(folder / "undo.sqlite3") as journal:
        game = tally(SIZES[-1], rng)
        journal.start(game)
        for _ in range(100):  # played here, so the journal holds its snapshots
            journal.apply(game, Roll((rng.randint(1, 6),)))
        journal_undo = statistics.median(timed(lambda: journal.undo(game))[0] for _ in range(5))
        replay_undo = statistics.median(timed(game.undo)[0] for _ in range(3))
    return {"actions": SIZES[-1] + 100, "journal_undo_ms_p50": round(journal_undo, 3),
            "rules_undo_by_replay_ms_p50": round(replay_undo, 3)}


def power_cut_copy(folder: Path) -> Path:
    """A journal as a power cut leaves it: a game's last :data:`CUT_AFTER` commits in the
    ``-wal`` alone (no checkpoint since), copied with the ``-shm`` while it is open."""
    rng = random.Random(SEED)
    source, cut = folder / "cut-source.sqlite3", folder / "cut.sqlite3"
    with Journal.open(source, idle_checkpoint=3600) as journal:
        game = tally(200, rng)
        journal.start(game)
        journal.wait_checkpointed()
        for _ in range(CUT_AFTER):
            journal.apply(game, Roll((rng.randint(1, 6),)))
        for suffix in ("", "-wal", "-shm"):
            shutil.copyfile(f"{source}{suffix}", f"{cut}{suffix}")
    return cut


def daemon_open(path: Path, into: list[Journal]) -> None:
    into.append(Journal.open(path, salvage=True))


def opening(folder: Path) -> dict[str, Any]:
    """The daemon's open, of a journal closed cleanly and of one cut by a power cut."""
    cut = power_cut_copy(folder)
    clean = folder / "clean.sqlite3"
    shutil.copyfile(cut, clean)
    with Journal.open(clean):
        pass  # folds the log in and removes it, as a clean stop does
    found: dict[str, Any] = {"log_bytes": (folder / "cut.sqlite3-wal").stat().st_size}
    for name, source in (("clean", clean), ("after_power_cut", cut)):
        walls, cpus = [], []
        for run in range(OPENS):
            path = folder / f"open-{name}-{run}.sqlite3"
            for suffix in ("", "-wal", "-shm"):
                if Path(f"{source}{suffix}").exists():
                    shutil.copyfile(f"{source}{suffix}", f"{path}{suffix}")
            opened: list[Journal] = []
            wall, cpu = timed(partial(daemon_open, path, opened))
            assert not opened[0].problems, opened[0].problems
            opened[0].close()
            walls.append(wall)
            cpus.append(cpu)
        found[name] = {"cpu_ms_p50": round(statistics.median(cpus), 2),
                       "wall_ms_p50": round(statistics.median(walls), 2)}
    reads = [timed(lambda: inspect(cut, lambda: "never"))[1] for _ in range(OPENS)]
    found["log_read_ms"] = round(statistics.median(reads), 2)
    return found


def stamp(runs: int = STAMPS) -> dict[str, float]:
    def each(make: Callable[[], datetime]) -> float:
        started = time.perf_counter()
        for _ in range(runs):
            make().isoformat(timespec="milliseconds")
        return round((time.perf_counter() - started) / runs * 1e6, 2)

    return {"journal_clock_us": each(system_clock),
            "offset_looked_up_each_time_us": each(lambda: datetime.now().astimezone())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=None, help="where to make the journals")
    parser.add_argument("--actions", type=int, default=ACTIONS)
    parser.add_argument("--smoke", action="store_true", help="small sizes, for the test suite")
    args = parser.parse_args()
    games.REGISTRY["tally"] = f"{__name__}:Tally"  # resume finds games by name
    with tempfile.TemporaryDirectory(dir=args.dir) as name:
        folder = Path(name)
        commit = commit_latency(folder, args.actions)
        grown = growth(folder)
        resumed = resume(folder)
        undone = undo(folder)
        opened = opening(folder)
    stamped = stamp()
    resume_ms = resumed[f"tally_{RESUME_ACTIONS}"]["open_and_resume_ms_p50"]
    print(json.dumps({
        "bench": "journal",
        "load_average_1min": round(os.getloadavg()[0], 2),  # others' work slows every figure
        "commit": commit,
        "apply_growth": grown,
        "resume": resumed,
        "undo": undone,
        "open": opened,
        "stamp": stamped,
        "goals": {
            f"apply_cpu_ratio_{SIZES[-1]}_to_{SIZES[0]}": {
                "value": grown["cpu_ratio"], "goal": GROWTH_GOAL,
                "ok": grown["cpu_ratio"] <= GROWTH_GOAL},
            f"resume_{RESUME_ACTIONS}_actions_ms": {"value": resume_ms, "goal": RESUME_GOAL_MS,
                                                   "ok": resume_ms <= RESUME_GOAL_MS},
        },
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
