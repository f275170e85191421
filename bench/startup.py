"""How long ``table-companion games`` takes from the shell, as JSON.

The installed console script is run :data:`RUNS` times after the packages are compiled to
bytecode (the install compiles them); the figure is the wall time from starting the process
to its exit, median, with min and max, and bare ``python -c pass`` beside it for scale; the
``_cpu_s`` figures are the children's own CPU time (user + system), which a busy machine does
not inflate as it does the wall time.
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from daemon import compile_packages
from smoke import sized

RUNS = sized(15, 2)
GOAL_S = 0.12


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_runs(command: list[str]) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of each of :data:`RUNS` runs."""
    wall, cpu = [], []
    for _ in range(RUNS):
        start, start_cpu = time.perf_counter(), children_cpu()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        wall.append(time.perf_counter() - start)
        cpu.append(children_cpu() - start_cpu)
    return wall, cpu


def summary(times: list[float]) -> dict[str, float]:
    return {"min": round(min(times), 3), "median": round(statistics.median(times), 3),
            "max": round(max(times), 3)}


def main() -> None:
    compile_packages()
    script = Path(sys.executable).parent / "table-companion"
    games_wall, games_cpu = timed_runs([str(script), "games"])
    bare_wall, bare_cpu = timed_runs([sys.executable, "-c", "pass"])
    games = summary(games_wall)
    print(json.dumps({"bench": "startup", "runs": RUNS, "games_command_s": games,
                      "games_command_cpu_s": summary(games_cpu),
                      "python_bare_s": summary(bare_wall), "python_bare_cpu_s": summary(bare_cpu),
                      "goals": {"games_command_s": {"value": games["median"], "goal": GOAL_S,
                                                    "ok": games["median"] <= GOAL_S}}}))


if __name__ == "__main__":
    main()
