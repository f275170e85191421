"""How long ``table-companion games`` takes from the shell, as JSON.

The installed console script is run :data:`RUNS` times after the packages are compiled to
bytecode (the install compiles them); the figure is the wall time from starting the process
to its exit, median, with min and max, and bare ``python -c pass`` beside it for scale.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from daemon import compile_packages

RUNS = 15
GOAL_S = 0.12


def wall_times(command: list[str]) -> list[float]:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return times


def summary(times: list[float]) -> dict[str, float]:
    return {"min": round(min(times), 3), "median": round(statistics.median(times), 3),
            "max": round(max(times), 3)}


def main() -> None:
    compile_packages()
    script = Path(sys.executable).parent / "table-companion"
    games = summary(wall_times([str(script), "games"]))
    bare = summary(wall_times([sys.executable, "-c", "pass"]))
    print(json.dumps({"bench": "startup", "runs": RUNS, "games_command_s": games,
                      "python_bare_s": bare,
                      "goals": {"games_command_s": {"value": games["median"], "goal": GOAL_S,
                                                    "ok": games["median"] <= GOAL_S}}}))


if __name__ == "__main__":
    main()
