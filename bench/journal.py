"""Journal commit latency per action (WAL, synchronous=FULL), and resume time, as JSON.

Plays seeded random Centennial games through :meth:`Journal.apply`, which applies the action
and commits it (one fsync'd transaction) before returning: the wait between a button press
being accepted and the screen showing it. The file is made in ``$TMPDIR`` (or ``--dir``);
put it on the disk the journal will live on, since the figure is mostly that disk's fsync.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from firmware_host.journal import Journal
from games.centennial import Centennial
from games.core import Phase, Roll

ACTIONS = 400
SEED = 2024


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=None, help="where to make the journal")
    parser.add_argument("--actions", type=int, default=ACTIONS)
    args = parser.parse_args()
    rng = random.Random(SEED)
    latencies: list[float] = []
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        path = Path(folder) / "journal.sqlite3"
        with Journal.open(path) as journal:
            game = Centennial.new(4)
            journal.start(game)
            games = 1
            while len(latencies) < args.actions:
                if game.is_over:
                    game = Centennial.new(4)
                    journal.start(game)
                    games += 1
                if game.phase is Phase.ROLL:
                    action: object = Roll(tuple(rng.randint(1, 6) for _ in range(game.dice_wanted)))
                else:
                    action = rng.choice(game.legal_actions())
                started = time.perf_counter()
                journal.apply(game, action)
                latencies.append((time.perf_counter() - started) * 1000)
            unfinished = len(game.history)
        started = time.perf_counter()
        with Journal.open(path) as journal:
            journal.resume()
        resume_ms = (time.perf_counter() - started) * 1000
        size = path.stat().st_size
    ordered = sorted(latencies)
    print(json.dumps({
        "bench": "journal",
        "synchronous": "FULL",
        "actions": len(latencies),
        "games": games,
        "commit_ms_p50": round(percentile(ordered, 0.50), 3),
        "commit_ms_p99": round(percentile(ordered, 0.99), 3),
        "commit_ms_mean": round(statistics.fmean(ordered), 3),
        "commit_ms_max": round(ordered[-1], 3),
        "open_and_resume_ms": round(resume_ms, 3),
        "resumed_actions": unfinished,
        "journal_bytes": size,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
