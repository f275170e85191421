"""Run every benchmark in this folder, each in its own interpreter; one JSON line each."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def main() -> int:
    here = Path(__file__).resolve().parent
    failed = 0
    for script in sorted(here.glob("*.py")):
        if script.name == Path(__file__).name:
            continue
        print(f"running {script.name} ...", file=sys.stderr)
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
        if done.returncode != 0:
            failed += 1
            print(json.dumps({"bench": script.stem, "error": done.stderr.strip()[-500:]}))
        else:
            print(done.stdout.strip())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
