"""How long ``import games`` takes in a fresh interpreter (median of several runs), as JSON."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys

from smoke import sized

RUNS = sized(15, 2)
PROBE = "import time; t = time.perf_counter(); import games; print(time.perf_counter() - t)"


def main() -> None:
    times = [
        float(subprocess.run([sys.executable, "-c", PROBE],
                             check=True, capture_output=True, text=True).stdout)
        for _ in range(RUNS)
    ]
    print(json.dumps({
        "bench": "import_games",
        "runs": RUNS,
        "median_ms": round(statistics.median(times) * 1000, 2),
        "max_ms": round(max(times) * 1000, 2),
        "target_ms": 50,
    }))


if __name__ == "__main__":
    main()
