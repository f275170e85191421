"""Run every benchmark in this folder, each in its own interpreter; one JSON line each.

Each line is the benchmark's own JSON with a ``pi_zero_2w`` object added: every time in it
(a key ending in ``_ms``, ``_s`` or ``_us``, or a figure inside such a key) multiplied by
``--factor`` (default 10, an assumption: a Cortex-A53 at 1 GHz runs CPython about ten times
slower than this machine; ``bench/pi_factor.py`` measures it on a real Pi), rates divided by
it. A last line gathers every benchmark's ``goals`` (figure, goal, ok). Byte counts and I2C
wire times do not scale with the CPU; for the daemon the projected
update also gets its wire time added, at 100 and 400 kHz. The projection is labelled as such:
it is this machine's figure times a factor, not a measurement on a Pi.

``--smoke`` passes ``--smoke`` to each benchmark: small sizes, seconds each, to see them all
run to their end (``tests/test_benches.py`` runs it); its figures are no measurement.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SKIP = {"run_all.py", "pi_factor.py", "random_play.py", "smoke.py", "failing_cells.py"}  # this
# script, the one to run on the Pi itself, two helpers the benchmarks share, a part of chatter.py
UNITS = ("_ms", "_s", "_us")
NOT_TIMES = {"n", "ok", "goal", "bench", "runs", "repeats"}


def is_time(key: str) -> bool:
    return key.endswith(UNITS) or key in ("ms", "us") or key.startswith("wire_")


def project(value: Any, factor: float, timed: bool = False) -> Any:
    """The times in ``value`` multiplied by ``factor``; everything else left out."""
    if isinstance(value, dict):
        found = {}
        for key, inner in value.items():
            if key in NOT_TIMES or "target" in key or key.startswith(("goal", "wire_")):
                continue
            per_second = key.endswith("_per_s")
            sub = project(inner, 1 / factor if per_second else factor,
                          timed or per_second or is_time(key))
            if sub not in (None, {}, []):
                found[key] = sub
        return found
    if isinstance(value, list):
        return [project(item, factor, timed) for item in value] if timed else None
    if timed and isinstance(value, int | float) and not isinstance(value, bool):
        return round(value * factor, 3)
    return None


def update_on_pi(night: dict[str, Any], factor: float) -> dict[str, Any]:
    """The daemon's edge-to-bus update on a Pi: CPU time projected, plus the wire time."""
    cpu = night["ms"]["p50"] * factor
    return {f"p50_ms_{bus}": round(cpu + wire["p50"], 1)
            for bus, wire in night["wire_ms_per_update"].items()} | {"cpu_p50_ms": round(cpu, 1)}


def annotate(result: dict[str, Any], factor: float, source: str) -> dict[str, Any]:
    pi: dict[str, Any] = {"factor": factor, "factor_source": source,
                          "label": "projected: this machine's time x factor, not measured on a Pi"}
    pi["times"] = project(result, factor)
    if result.get("bench") == "daemon":
        pi["update"] = update_on_pi(result["edge_to_bus"], factor)
        pi["wire_ms_per_update"] = result["edge_to_bus"]["wire_ms_per_update"]
    return result | {"pi_zero_2w": pi}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--factor", type=float, default=None,
                        help="how many times slower a Pi Zero 2 W is (bench/pi_factor.py "
                             "prints it on a Pi); default 10, assumed")
    parser.add_argument("--smoke", action="store_true",
                        help="each benchmark in its smoke mode: seconds, figures not to quote")
    parser.add_argument("names", nargs="*", help="only these benchmarks (e.g. screens daemon)")
    args = parser.parse_args()
    factor = 10.0 if args.factor is None else args.factor
    source = "assumed" if args.factor is None else "given (--factor)"
    here = Path(__file__).resolve().parent
    failed = 0
    goals: dict[str, Any] = {}
    for script in sorted(here.glob("*.py")):
        if script.name in SKIP or (args.names and script.stem not in args.names):
            continue
        print(f"running {script.name} ...", file=sys.stderr)
        done = subprocess.run([sys.executable, str(script), *["--smoke"] * args.smoke],
                              capture_output=True, text=True)
        if done.returncode != 0:
            failed += 1
            print(json.dumps({"bench": script.stem, "error": done.stderr.strip()[-500:]}))
        else:
            result = json.loads(done.stdout)
            print(json.dumps(annotate(result, factor, source)))
            goals |= {f"{script.stem}.{name}": goal
                      for name, goal in result.get("goals", {}).items()}
    print(json.dumps({"bench": "goals", "all_ok": all(g["ok"] for g in goals.values()),
                      "smoke": args.smoke, "goals": goals}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
