"""How often the night's dice page cries wolf, and how often it catches a loaded die, as JSON.

A simulated night has four tables, each with a button roller throwing as a night of
Dalmatian does (five dice a throw, and the opening's and the total's throws of two and
three), so its page shows a faces test and two totals tests per table. Over many nights of
fair dice, the share of pages that flag anything is the page's false alarm: judged one
test at a time (as the page did) it is about one in five; judged together
(:func:`firmware_host.hub.league.fairness.judge_page`) it must stay within one in twenty. The
same nights with one table's dice showing six twice as often as each other face (every die,
or one die in five) say how often that table is caught, beside what the page says it could
have seen (:func:`firmware_host.hub.league.fairness.could_see`).

    python bench/dice_alarms.py              # 1,000 nights
    python bench/dice_alarms.py --smoke      # 40 nights, seconds: the test suite runs this
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from typing import Any

from firmware_host.hub.league.fairness import (
    LEVEL,
    counted,
    judge_page,
    loaded,
    power,
    tested,
)

TABLES = 4
THROWS = {5: 150, 2: 40, 3: 15}  # a table's throws in a night, by number of dice
SHARES = {"every_die": 1.0, "one_die_in_five": 1 / 5}  # of the first table's dice, loaded


def night(rng: random.Random, share: float = 0.0
          ) -> dict[int, tuple[Counter[int], dict[int, Counter[int]]]]:
    """Each table's faces and totals; ``share`` of the first table's dice show six twice
    as often as each other face."""
    found = {}
    for table in range(TABLES):
        chances = loaded(share) if table == 0 and share else None
        thrown = [tuple(rng.choices(range(1, 7), weights=chances, k=size))
                  for size, many in THROWS.items() for _ in range(many)]
        found[table] = counted(thrown)
    return found


def measured(nights: int, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    alone = together = 0
    caught = dict.fromkeys(SHARES, 0)
    started = time.perf_counter()
    for _ in range(nights):
        groups = night(rng)
        alone += any(v.unusual for seen, sums in groups.values()
                     for v, _ in tested(seen, sums).values())
        together += any(v.unusual for found in judge_page(groups).values()
                        for v, _ in found.values())
        for name, share in SHARES.items():
            caught[name] += judge_page(night(rng, share))[0]["faces"][0].unusual
    tests = sum(v.p is not None for found in judge_page(night(rng)).values()
                for v, _ in found.values())
    dice = sum(size * many for size, many in THROWS.items())
    rate = together / nights
    allowed = LEVEL + 3 * math.sqrt(LEVEL * (1 - LEVEL) / nights)  # within sampling error
    return {
        "bench": "dice_alarms", "nights": nights, "tables": TABLES, "tests_per_page": tests,
        "dice_per_table": dice,
        "fair_pages_flagged_one_test_at_a_time": round(alone / nights, 4),
        "fair_pages_flagged_judged_together": round(rate, 4),
        "loaded_table_caught": {name: round(n / nights, 4) for name, n in caught.items()},
        # what the page says it could see: at its strictest level, a lower bound
        "loaded_table_caught_as_the_page_says": {
            name: round(power(dice, loaded(share), LEVEL / tests), 4)
            for name, share in SHARES.items()},
        "run_s": round(time.perf_counter() - started, 2),
        "goals": {"fair_page_false_alarm": {"value": round(rate, 4), "goal": LEVEL,
                                            "ok": rate <= allowed}},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=1000, help="nights to simulate")
    parser.add_argument("--smoke", action="store_true", help="40 nights, for the test suite")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(measured(40 if args.smoke else args.nights, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
