"""What a table's publisher pays per action as its journal grows, as one JSON object.

At every commit the publisher takes a snapshot of the journal (the live game and the night's
finished games, :func:`firmware_host.night.follow.snapshot`). Its cost should not grow with
the nights a journal keeps nor with the games of the night: each finished game is checked
and worked out (luck, throws) once, and kept beside the journal for a restart.

For each point (``--nights N`` nights of ``--games G`` finished 6-player, 12-round Dalmatian
games, seeded random play; the nights are swept at the first game count, the game counts at
the first night count), a game in progress tonight is played on action by action, and:

- ``per_action_ms``: the publisher's snapshot after each action (the least of :data:`TRIES`),
  median and max of :data:`ACTIONS` (CPU time, ``process_time``, as the machine is shared;
  ``wall`` beside);
- ``first_snapshot_ms``: a publisher's first snapshot with no record beside the journal
  (the night read whole once);
- ``restart_snapshot_ms``: a restarted publisher's first, with its record;
- ``ratio``: each point's median per action over the first point's; the goal is that 40
  nights and 200 games stay within :data:`GOAL` of 1 night of 5 games.

Also ``largest_game_message_bytes`` and ``throws_sent``: the biggest game message and whether
its throws fitted (the hub takes 16 kB).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from random_play import play_out  # noqa: E402
from smoke import sized  # noqa: E402

from firmware_host.journal import Journal  # noqa: E402
from firmware_host.night import follow, topics  # noqa: E402
from firmware_host.night.published import record_beside  # noqa: E402
from games.dalmatian import Dalmatian  # noqa: E402

NIGHTS = sized("1,10,40", "1,2")
GAMES = sized("5,200", "2,3")
SEED = 24
POOL = sized(8, 2)  # games played once, then journaled again and again
ACTIONS = sized(60, 3)  # actions of tonight's game in progress, a snapshot timed after each
TRIES = sized(3, 1)  # snapshots after each action: the least is its cost (others share the CPU)
PLAYED_BEFORE = 30  # actions of the game in progress before the first timed one
GOAL = 1.2
FIRST_NIGHT = datetime.fromisoformat("2026-01-02T19:00:00+01:00")
TABLE, NAME = "table-1", "Table 1"


class Clock:
    """The referee's clock: a minute on per reading, from 19:00 of the night it is set to."""

    def __init__(self) -> None:
        self.now = FIRST_NIGHT

    def night(self, number: int) -> None:
        self.now = FIRST_NIGHT + timedelta(days=number)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


def timed(work: Callable[[], Any], tries: int = 1) -> tuple[float, float]:
    """CPU and wall ms of ``work()``, the least of ``tries``."""
    spent = []
    for _ in range(tries):
        cpu, wall = time.process_time(), time.perf_counter()
        work()
        spent.append((time.process_time() - cpu, time.perf_counter() - wall))
    return (round(min(cpu for cpu, _ in spent) * 1000, 2),
            round(min(wall for _, wall in spent) * 1000, 2))


def point(folder: Path, nights: int, games: int, pool: list[Dalmatian],
          going: Dalmatian) -> dict[str, Any]:
    """The publisher's costs over a journal of ``nights`` nights of ``games`` games."""
    path = folder / f"journal-{nights}x{games}.sqlite3"
    clock = Clock()
    writer = Journal.open(path, clock)
    for night in range(nights):
        clock.night(night)
        for number in range(games):
            writer.start(pool[(night * games + number) % len(pool)])
    state = Dalmatian.new(6)
    writer.start(state)
    actions = list(going.history)
    for action in actions[:PLAYED_BEFORE]:
        writer.apply(state, action)
    reader = Journal.open_reader(path)
    tonight = follow.Tonight(record_beside(path))

    def publish(keeping: follow.Tonight) -> follow.Snapshot:
        return follow.snapshot(reader, TABLE, NAME, clock.now, keeping)

    first = timed(lambda: publish(tonight))
    cpu, wall = [], []
    for action in actions[PLAYED_BEFORE:PLAYED_BEFORE + ACTIONS]:
        writer.apply(state, action)
        spent = timed(lambda: publish(tonight), TRIES)
        cpu.append(spent[0])
        wall.append(spent[1])
    restarted = timed(lambda: publish(follow.Tonight(record_beside(path))))
    snap = publish(tonight)
    reader.close()
    writer.close()
    assert len(snap.games) == games, (len(snap.games), games)
    return {"nights": nights, "games": games,
            "per_action_ms": {"median": round(statistics.median(cpu), 2), "max": max(cpu),
                              "wall_median": round(statistics.median(wall), 2)},
            "first_snapshot_ms": first[0], "restart_snapshot_ms": restarted[0],
            "largest_game_message_bytes": max(map(len, snap.payloads)),
            "throws_sent": max(len(game.throws) for game in snap.games)}


def numbers(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=numbers, default=numbers(NIGHTS),
                        help="nights kept in the journal, swept at the first game count")
    parser.add_argument("--games", type=numbers, default=numbers(GAMES),
                        help="finished games a night, swept at the first night count")
    parser.add_argument("--dir", type=Path, default=None, help="where to make the journals")
    parser.add_argument("--smoke", action="store_true", help="small sizes, for the test suite")
    args = parser.parse_args()
    rng = random.Random(SEED)
    pool = [play_out(Dalmatian.new(6), rng) for _ in range(POOL)]
    going = play_out(Dalmatian.new(6), rng)
    if len(going.history) < PLAYED_BEFORE + ACTIONS:
        parser.error("the game in progress is shorter than the actions timed")
    points = ([(nights, args.games[0]) for nights in args.nights]
              + [(args.nights[0], games) for games in args.games[1:]])
    with tempfile.TemporaryDirectory(dir=args.dir) as name:
        found = [point(Path(name), nights, games, pool, going) for nights, games in points]
    base = found[0]["per_action_ms"]["median"]
    for each in found:
        each["ratio"] = round(each["per_action_ms"]["median"] / base, 2) if base else None
    largest = max(found, key=lambda each: each["largest_game_message_bytes"])
    print(json.dumps({
        "bench": "publisher",
        "load_average_1min": round(os.getloadavg()[0], 2),  # others' work slows every figure
        "points": [{key: value for key, value in each.items()
                    if key not in ("largest_game_message_bytes", "throws_sent")}
                   for each in found],
        "goal": {"ratio": GOAL, "ok": all(each["ratio"] is not None and each["ratio"] <= GOAL
                                          for each in found)},
        "largest_game_message_bytes": largest["largest_game_message_bytes"],
        "throws_sent": largest["throws_sent"],
        "message_limit_bytes": topics.MAX_PAYLOAD,
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
