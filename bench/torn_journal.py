"""A journal's main file cut short by a torn write, at every byte: what the daemon keeps
against what a plain SQLite reader reads of the same files, as JSON.

A journal of three seeded Centennial games for three is played through
:meth:`Journal.apply`, waiting for the journal's checkpoints after each commit as a table's
pauses let them run, on a clock that moves a second a reading: the files come out the same
on every run. They are copied as a power cut leaves them at two moments: ``mid_game``, the
third game half played (two finished games checkpointed into the main file, the third's
actions in the ``-wal`` alone), and ``ended``, the third game finished and checkpointed
(the ``-wal`` still holds its frames until the next game's first write).

Each trial cuts the main file at one byte count (the end of the file never reached the
card) and keeps the ``-wal`` and the rest whole, then counts, game by game:

- ``plain``: what SQLite reads of a copy of those files, opened as a plain ``sqlite3``
  shell opens them: each game whose row reads, with its actions read until the first that
  cannot be (by the game's rows and by a scan of the whole table, both counted);
- ``kept``: what the daemon's open (``Journal.open(salvage=True)``) leaves in its journal.

Only actions as they were played count (a row read from a page the cut left half zeroed
may differ). A trial ``kept_less`` when any game keeps fewer actions than the plain reader
read of it (goal: none); ``kept_wrong`` when a game the journal then trusts (a finished
game that checks out, the game it resumes) holds an action not as played (goal: none);
``not_as_found`` when the files as found (main file, ``-wal``, ``-shm``) are not kept byte
for byte under the damaged name when the daemon moved them aside (goal: none); ``raised``
when the open raised. ``--every N`` tries every Nth cut (1, the default: all of them);
``--smoke`` the cuts around each page boundary only (:func:`boundary_cuts`), as the test
suite does.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from firmware_host.journal import Journal
from games.centennial import Centennial
from games.core import Phase, Roll

NAME = "journal.sqlite3"
SEED = 30
MID_GAME = 60  # actions of the third game played at the mid_game moment
PAGE = 4096


class Clock:
    """A second further on at each reading, from a fixed evening."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 20, 0, tzinfo=timezone(timedelta(hours=1)))

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def snapshot(folder: Path, into: Path) -> Path:
    """The journal's files as they are now (a pulled plug), copied into ``into``."""
    into.mkdir()
    for made in folder.glob(f"{NAME}*"):
        shutil.copyfile(made, into / made.name)
    return into / NAME


def moments(folder: Path) -> dict[str, Path]:
    """Play the three games; the journal's files at each moment, by name."""
    rng = random.Random(SEED)
    live = folder / "live"
    live.mkdir()
    found = {}
    with Journal.open(live / NAME, Clock()) as journal:
        for number in range(3):
            game = Centennial.new(3)
            journal.start(game)
            played = 0
            while not game.is_over:
                if number == 2 and played == MID_GAME:
                    found["mid_game"] = snapshot(live, folder / "mid_game")
                if game.phase is Phase.ROLL:
                    action: object = Roll(tuple(rng.randint(1, 6)
                                                for _ in range(game.dice_wanted)))
                else:
                    action = rng.choice(game.legal_actions())
                journal.apply(game, action)
                played += 1
                assert journal.wait_quiet()
        found["ended"] = snapshot(live, folder / "ended")
    return found


def boundary_cuts(size: int, page: int = PAGE) -> list[int]:
    """Cuts around each page boundary and inside each page: a byte either side of the
    boundary, past the database header of page 1 and past a b-tree page's header, and the
    middle and the end of the page."""
    cuts = {size}
    for start in range(0, size, page):
        cuts.update(start + offset for offset in (-1, 0, 1, 8, 100, 108, page // 2, page - 1)
                    if 0 <= start + offset <= size)
    return sorted(cuts)


def as_read(rows: Iterator[Any]) -> tuple[list[Any], bool]:
    """The rows until the first that cannot be read; whether all were."""
    read = []
    try:
        for row in rows:
            read.append(row)
    except sqlite3.DatabaseError:
        return read, False
    return read, True


def game_ids(db: sqlite3.Connection) -> list[int]:
    ids, whole = as_read(db.execute("SELECT id FROM games ORDER BY id"))
    if whole:
        return [game_id for (game_id,) in ids]
    found = []
    for game_id in range(1, 10):
        try:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
                found.append(game_id)
        except sqlite3.DatabaseError:
            continue
    return found


Rows = dict[int, set[tuple[Any, ...]]]  # game -> its (seq, action, at, hash) rows


def rows(db: sqlite3.Connection) -> Rows:
    """Every game's action rows in a readable journal."""
    found: Rows = {}
    for (game_id,) in db.execute("SELECT id FROM games"):
        found[game_id] = set(db.execute("SELECT seq, action, at, hash FROM actions "
                                        "WHERE game_id = ?", (game_id,)))
    return found


def original(files: Path) -> Rows:
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / NAME
        for suffix in ("", "-wal"):
            shutil.copyfile(files.with_name(NAME + suffix), copy.with_name(NAME + suffix))
        db = sqlite3.connect(copy)
        try:
            return rows(db)
        finally:
            db.close()


def plain(path: Path, played: Rows) -> dict[int, int]:
    """Game -> actions as played that a plain SQLite reader gets from a copy of the files
    at ``path`` (rows read with bytes changed by the cut are not counted)."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / NAME
        for suffix in ("", "-wal"):
            if (found := path.with_name(NAME + suffix)).exists():
                shutil.copyfile(found, copy.with_name(NAME + suffix))
        try:
            db = sqlite3.connect(copy)
        except sqlite3.Error:
            return {}
        try:
            ids = game_ids(db)
        except sqlite3.DatabaseError:
            ids = []
        try:
            scanned, _whole = as_read(db.execute("SELECT game_id, seq, action, at, hash "
                                                 "FROM actions"))
        except sqlite3.DatabaseError:
            scanned = []
        read = {}
        for game_id in ids:
            try:
                by_game, _whole = as_read(db.execute(
                    "SELECT seq, action, at, hash FROM actions WHERE game_id = ?",
                    (game_id,)))
            except sqlite3.DatabaseError:
                by_game = []
            got = {tuple(row) for row in by_game} | {
                tuple(row[1:]) for row in scanned if row[0] == game_id}
            read[game_id] = len(got & played.get(game_id, set()))
        db.close()
        return read


def kept(path: Path, played: Rows) -> tuple[dict[int, int], int]:
    """Game -> actions as played in the journal the daemon left at ``path``; and the
    actions not as played in the games the journal trusts: those that check out as
    finished, and the game it resumes."""
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        have = rows(db)
    finally:
        db.close()
    wrong = 0
    with Journal.open(path, Clock()) as journal:
        trusted = [(game.id, journal.actions(game)) for game in journal.finished_games()]
        resumed = journal.resume()
        if resumed is not None and journal.game_id is not None:
            trusted.append((journal.game_id, [str(action) for action in resumed.history]))
    for game_id, actions in trusted:
        as_played = [action for _seq, action, _at, _hash in sorted(played.get(game_id, ()))]
        wrong += sum(action != want for action, want in zip(actions, as_played, strict=False))
        wrong += max(0, len(actions) - len(as_played))
    return {game_id: len(found & played.get(game_id, set()))
            for game_id, found in have.items()}, wrong


@dataclass
class Tally:
    trials: int = 0
    plain_actions: int = 0
    kept_actions: int = 0
    moved_aside: int = 0
    kept_less: list[int] = field(default_factory=list)
    kept_wrong: list[int] = field(default_factory=list)
    not_as_found: list[int] = field(default_factory=list)
    raised: list[int] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        return {"trials": self.trials, "plain_actions": self.plain_actions,
                "kept_actions": self.kept_actions, "moved_aside": self.moved_aside,
                "kept_less": len(self.kept_less), "kept_less_cuts": self.kept_less[:10],
                "kept_wrong": len(self.kept_wrong), "kept_wrong_cuts": self.kept_wrong[:10],
                "not_as_found": len(self.not_as_found),
                "not_as_found_cuts": self.not_as_found[:10], "raised": len(self.raised),
                "raised_cuts": self.raised[:10]}


def trial(files: Path, played: Rows, cut: int, folder: Path, tally: Tally) -> None:
    """Cut the main file of a copy of ``files`` at ``cut`` bytes, open it as the daemon
    does, and count."""
    folder.mkdir()
    for made in files.parent.iterdir():
        shutil.copyfile(made, folder / made.name)
    path = folder / NAME
    with open(path, "r+b") as main:
        main.truncate(cut)
    found = {made.name: made.read_bytes() for made in folder.iterdir()}
    read = plain(path, played)
    tally.trials += 1
    try:
        with Journal.open(path, Clock(), salvage=True):
            pass
    except Exception:  # counted: the daemon's open must not raise
        tally.raised.append(cut)
        shutil.rmtree(folder)
        return
    aside = sorted(folder.glob(f"{NAME}.damaged-*"))
    if aside:  # before anything else opens the journal
        tally.moved_aside += 1
        base = aside[0].name.removesuffix("-wal").removesuffix("-shm")
        now = {made.name.replace(base, NAME): made.read_bytes() for made in aside}
        if any(now.get(name) != data for name, data in found.items()
               if name in (NAME, f"{NAME}-wal", f"{NAME}-shm")):
            tally.not_as_found.append(cut)
    have, wrong = kept(path, played)
    if wrong:
        tally.kept_wrong.append(cut)
    tally.plain_actions += sum(read.values())
    tally.kept_actions += sum(have.values())
    if any(have.get(game, 0) < count for game, count in read.items()):
        tally.kept_less.append(cut)
    shutil.rmtree(folder)


def campaign(cuts_of: Iterable[str] | None = None, every: int = 1,
             smoke: bool = False) -> dict[str, Any]:
    """Every ``every``-th cut (or the boundary cuts, ``smoke``) of each moment's main file."""
    found: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        made = moments(Path(folder))
        for name, files in made.items():
            if cuts_of is not None and name not in cuts_of:
                continue
            size = files.stat().st_size
            cuts = boundary_cuts(size) if smoke else range(0, size + 1, every)
            tally = Tally()
            played = original(files)
            start = time.perf_counter()
            for cut in cuts:
                trial(files, played, cut, Path(folder) / f"{name}-{cut}", tally)
            found[name] = {"main_file_bytes": size,
                           "wal_bytes": files.with_name(f"{NAME}-wal").stat().st_size,
                           **tally.figures(),
                           "ms_per_trial": round((time.perf_counter() - start) * 1000
                                                 / max(1, tally.trials), 1)}
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=1, help="try every Nth cut (1: all)")
    parser.add_argument("--smoke", action="store_true",
                        help="the cuts around each page boundary only")
    args = parser.parse_args()
    found = campaign(every=args.every, smoke=args.smoke)
    goals = {f"{name}_{what}": {"value": figures[what], "goal": 0, "ok": figures[what] == 0}
             for name, figures in found.items()
             for what in ("kept_less", "kept_wrong", "not_as_found", "raised")}
    print(json.dumps({"bench": "torn_journal", "every": args.every, "smoke": args.smoke,
                      **found, "goals": goals}))


if __name__ == "__main__":
    main()
