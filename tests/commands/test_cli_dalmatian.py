"""``table-companion score`` and ``advise`` for Dalmatian, through the real entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as done:
        status = int(done.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_score_prints_the_score_and_the_groups(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "score", "dalmatian", "--total", "6", "--dice", "1", "2", "3",
                         "4", "5")
    assert status == 0
    assert out.splitlines() == ["total 6, dice 1-2-3-4-5: score 4", "groups: 1+5  2+4"]


def test_score_json_under_variation_1(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "score", "dalmatian", "--total", "7", "--dice", "6", "1", "6",
                         "6", "6", "--several-groups", "--json")
    data = json.loads(out)
    assert status == 0 and data["score"] == 5 and data["groups"] == [[1, 6]] * 4
    status, out, _ = run(capsys, "score", "dalmatian", "--total", "7", "--dice", "6", "1", "6",
                         "6", "6", "--json")
    assert json.loads(out)["score"] == 2 and json.loads(out)["groups"] == [[1, 6]]


def test_advise_names_the_hold_and_the_expectation(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "advise", "dalmatian", "--total", "6", "--dice", "6", "6", "1",
                         "6", "6", "--rerolls", "1")
    assert status == 0
    assert out.splitlines() == ["total 6, dice 6-6-1-6-6, 1 reroll left: scores 4 now",
                                "keep 6-6-6-6, reroll 1: ≈4.167 pts expected"]
    status, out, _ = run(capsys, "advise", "dalmatian", "--total", "6", "--dice", "6", "6", "6",
                         "6", "6", "--budget", "8")
    assert out.splitlines()[-1] == "stop: keep all five, scores 5"


def test_advise_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "advise", "dalmatian", "--total", "6", "--dice", "1", "6", "6",
                         "6", "6", "--rerolls", "1", "--json")
    data = json.loads(out)
    assert status == 0 and data["hold"] == [6, 6, 6, 6] and data["reroll"] == [1]
    assert data["expected"] == pytest.approx(4 + 1 / 6)
    status, out, _ = run(capsys, "advise", "dalmatian", "--total", "7", "--dice", "1", "3", "4",
                         "6", "6", "--budget", "0", "--json")
    data = json.loads(out)
    assert data["hold"] == [1, 3, 4, 6, 6] and data["expected"] == 4.0 and data["stop"] is True


# The project's own messages in full; argparse's (whose wording changes between Python
# versions: 3.13 dropped the quotes around the choices) by what they must name.
@pytest.mark.parametrize(("argv", "said"), [
    (["score", "sequence", "--total", "6", "--dice", "1", "2", "3", "4", "5"],
     ["argument GAME: Sequence Dice is not scored by dice alone; only Dalmatian is"]),
    (["score", "chess", "--total", "6", "--dice", "1", "2", "3", "4", "5"],
     ["argument GAME: no game 'chess'; games: centennial, sequence, centerpoint, dalmatian, "
      "multigam"]),
    (["score", "dalmatian", "--total", "13", "--dice", "1", "2", "3", "4", "5"],
     ["argument --total: the starting total is 2 to 12, not '13'"]),
    (["advise", "dalmatian", "--total", "1", "--dice", "1", "2", "3", "4", "5"],
     ["the starting total is 2 to 12, not '1'"]),
    (["score", "dalmatian", "--total", "6", "--dice", "1", "2", "3", "4", "7"],
     ["argument --dice: a die is 1 to 6, not '7'"]),
    (["score", "dalmatian", "--total", "6", "--dice", "1", "2", "3", "4"],
     ["argument --dice", "5"]),
    (["advise", "dalmatian", "--total", "6", "--dice", "1", "2", "3", "4", "5", "--rerolls", "3"],
     ["argument --rerolls: rerolls left is 0 to 2, not '3'"]),
    (["advise", "dalmatian", "--total", "6", "--dice", "1", "2", "3", "4", "5", "--budget", "9"],
     ["argument --budget: a reroll budget left is 0 to 8, not '9'"]),
    (["advise", "dalmatian", "--total", "6", "--dice", "1", "2", "3", "4", "5", "--rerolls", "1",
      "--budget", "2"], ["argument --budget", "--rerolls"]),
])
def test_bad_arguments_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: list[str]
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith(f"table-companion {argv[0]}: error: ")
    assert err.endswith(f"; see table-companion {argv[0]} --help\n") and err.count("\n") == 1
    assert all(part in err for part in said), err


def test_the_installed_command_runs() -> None:
    command = Path(sys.executable).with_name("table-companion")
    done = subprocess.run(
        [str(command), "score", "dalmatian", "--total", "12", "--dice", "6", "6", "6", "1", "1",
         "--json"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score"] == 2
    done = subprocess.run([str(command), "advise", "dalmatian", "--total", "2", "--dice", "7"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("table-companion advise: error: argument --dice: expected 5 "
                           "arguments; see table-companion advise --help\n")
