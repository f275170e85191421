"""The luck report's cost, as one JSON object: what a hub pays to analyse a Dalmatian game.

- ``game_cold_ms``: one 6-player, 12-round game (seeded random dice and choices) analysed in
  a fresh interpreter, the advisor's tables for its totals built on the way; the median of
  three interpreters, since a shared machine's scheduler adds stray pauses.
- ``game_warm_ms``: the same game again once the tables are built: median and max of 20.
- ``turns``: the game's turns, ``decisions``: the choices it values.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from random_play import play_out  # noqa: E402
from smoke import sized  # noqa: E402

from games.core import Phase  # noqa: E402
from games.dalmatian import Dalmatian  # noqa: E402
from games.dalmatian_luck import turns  # noqa: E402

SEED = 24
WARM_RUNS = sized(20, 1)
FRESH_RUNS = sized(3, 1)

COLD = """
import random, sys, time
sys.path.insert(0, "bench")
from random_play import play_out
from games.dalmatian import Dalmatian
game = play_out(Dalmatian.new(6), random.Random({seed}))
actions = [str(a) for a in game.history]
start = time.perf_counter()
from games.dalmatian_luck import turns
turns(game.setup, actions)
print(time.perf_counter() - start)
"""


def main() -> None:
    game = play_out(Dalmatian.new(6), random.Random(SEED))
    actions = [str(a) for a in game.history]
    decisions = count_decisions(actions)
    cold = [float(subprocess.run([sys.executable, "-c", COLD.format(seed=SEED)], cwd=ROOT,
                                 check=True, capture_output=True, text=True).stdout)
            for _ in range(FRESH_RUNS)]
    turns(game.setup, actions)
    warm = []
    for _ in range(WARM_RUNS):
        start = time.perf_counter()
        found = turns(game.setup, actions)
        warm.append(time.perf_counter() - start)
    print(json.dumps({
        "bench": "luck",
        "turns": len(found),
        "decisions": decisions,
        "game_cold_ms": round(statistics.median(cold) * 1000, 1),
        "game_warm_ms": {"p50": round(statistics.median(warm) * 1000, 2),
                         "max": round(max(warm) * 1000, 2)},
    }))


def count_decisions(actions: list[str]) -> int:
    """The actions taken with a choice due (stop or reroll)."""
    game = Dalmatian.new(6)
    counted = 0
    for action in actions:
        counted += game.phase is Phase.MOVE
        game.apply(action)
    return counted


if __name__ == "__main__":
    main()
