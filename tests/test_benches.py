"""Every benchmark under bench/ runs to its end in its smoke mode and prints its JSON.

``python bench/NAME.py --smoke`` runs the bench's own code on small sizes, in seconds
(``bench/smoke.py``), so a change that breaks a bench fails here rather than on the day its
figures are wanted; a new bench without a smoke mode fails here too.
``bench/run_all.py --smoke`` is run once for itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.night.broker import NoMosquitto, find

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
NOT_BENCHES = {  # modules in bench/ that are no benchmark of their own, and why
    "random_play": "random play to a game's end, which several benches time",
    "smoke": "the smoke mode's switch, which every bench imports",
    "failing_cells": "a part of chatter.py's run, which imports it",
    "run_all": "runs the others; run once below",
}
BENCHES = sorted(script.stem for script in BENCH.glob("*.py") if script.stem not in NOT_BENCHES)
TIMEOUT_S = 180


def smoke(*command: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run([sys.executable, *command], cwd=ROOT, capture_output=True,
                              text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{' '.join(command)} did not end within {TIMEOUT_S} s")


def needs_mosquitto() -> None:
    """Skip on a laptop without mosquitto; in CI (.ci/run installs it) fail."""
    try:
        find("mosquitto")
    except NoMosquitto as missing:
        if os.environ.get("TABLE_COMPANION_CI"):
            pytest.fail(str(missing))
        pytest.skip(str(missing))


def printed(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_modules_set_aside_are_there_and_the_benches_are_found() -> None:
    assert set(NOT_BENCHES) <= {script.stem for script in BENCH.glob("*.py")}
    assert len(BENCHES) >= 20


@pytest.mark.parametrize("name", BENCHES)
def test_the_bench_runs_to_its_end_in_its_smoke_mode(name: str) -> None:
    source = (BENCH / f"{name}.py").read_text()
    assert "from smoke import" in source or "--smoke" in source, \
        f"bench/{name}.py has no smoke mode: see bench/smoke.py"
    if name == "night":
        needs_mosquitto()
    found = json.loads(printed(smoke(f"bench/{name}.py", "--smoke")))
    assert found["bench"] == name


def test_run_all_runs_the_benches_it_is_given_in_their_smoke_mode() -> None:
    done = smoke("bench/run_all.py", "--smoke", "screens", "typing_names")
    lines = [json.loads(line) for line in printed(done).splitlines()]
    assert [line["bench"] for line in lines] == ["screens", "typing_names", "goals"]
    assert lines[0]["repeats"] < 10 and lines[1]["names"] == 2  # their smoke sizes
    assert lines[0]["pi_zero_2w"]["times"]["render_median_ms"] > 0
    assert lines[-1]["smoke"] is True
    assert set(lines[-1]["goals"]) == {"screens.render_median_ms", "typing_names.person_s_max"}



def test_the_night_benchs_league_case_runs_in_its_smoke_mode() -> None:
    needs_mosquitto()
    found = json.loads(printed(smoke("bench/night.py", "--league", "--smoke")))
    assert found["bench"] == "night-league" and found["stored_games"] == 180
    assert set(found["goals"]) == {"players_first_s", "player_page_s", "hub_rss_mb",
                                   "root_p99_ms_while_built"}
    assert found["restarted"]["players_first_s"] > 0
