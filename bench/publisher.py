"""What a table's publisher pays for a night's luck and throws, as one JSON object.

At every action it rebuilds its snapshot of the journal; a finished game's luck (Dalmatian)
and throws (who threw, replayed) are worked out once and then taken from a cache. A night of
``GAMES`` finished 6-player, 12-round Dalmatian games (seeded random play) is journaled,
then:

- ``first_snapshot_ms``: the first snapshot, working every game out;
- ``snapshot_ms``: later snapshots (the cache's), median and max of :data:`RUNS`;
- ``snapshot_without_cache_ms``: the same with the cache emptied each time, median of
  :data:`UNCACHED_RUNS`;
- ``largest_game_message_bytes`` and ``throws_sent``: the biggest game message and whether
  its throws fitted (the hub takes 16 kB).
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from random_play import play_out  # noqa: E402
from smoke import sized  # noqa: E402

from firmware_host.journal import Journal  # noqa: E402
from firmware_host.night import follow, topics  # noqa: E402
from games.dalmatian import Dalmatian  # noqa: E402

GAMES = sized(20, 2)
SEED = 24
RUNS = sized(20, 2)
UNCACHED_RUNS = sized(5, 1)


def ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 1)


def main() -> None:
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal.open(Path(folder) / "journal.sqlite3")
        for _ in range(GAMES):
            journal.start(play_out(Dalmatian.new(6), rng))
        now = datetime.now().astimezone()
        worked = follow.WorkedOut()  # the publisher's
        start = time.perf_counter()
        snap = follow.snapshot(journal, "table-1", "Table 1", now, worked)
        first = ms(start)
        later = []
        for _ in range(RUNS):
            start = time.perf_counter()
            follow.snapshot(journal, "table-1", "Table 1", now, worked)
            later.append(ms(start))
        uncached = []
        for _ in range(UNCACHED_RUNS):
            start = time.perf_counter()
            follow.snapshot(journal, "table-1", "Table 1", now)
            uncached.append(ms(start))
        journal.close()
    largest = max(snap.games, key=lambda game: len(topics.game_payload(game)))
    print(json.dumps({
        "bench": "publisher",
        "games": len(snap.games),
        "first_snapshot_ms": first,
        "snapshot_ms": {"median": statistics.median(later), "max": max(later)},
        "snapshot_without_cache_ms": statistics.median(uncached),
        "largest_game_message_bytes": len(topics.game_payload(largest)),
        "throws_sent": len(largest.throws),
    }, indent=2))


if __name__ == "__main__":
    main()
