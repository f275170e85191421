"""``table-companion dice``: a journal's throws tested through the real CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from journal_helpers import FakeClock

from firmware_host.cli import main
from firmware_host.commands.dice import throws
from firmware_host.journal import Journal
from games.dalmatian import Dalmatian


def journal_of(path: Path, six: float) -> Path:
    """One long Dalmatian game (6 players, 24 rounds) thrown with a die showing six with
    chance ``six``, the advisor choosing."""
    rng = random.Random(11)
    weights = [(1 - six) / 5] * 5 + [six]
    with Journal.open(path, FakeClock()) as journal:
        game = Dalmatian.new(6, rounds=24)
        journal.start(game)
        while not game.is_over:
            advice = game.advice()
            if advice is None:
                dice = rng.choices(range(1, 7), weights=weights, k=game.dice_wanted)
                journal.apply(game, "roll " + "-".join(map(str, dice)))
            elif advice.stops:
                journal.apply(game, "stop")
            else:
                journal.apply(game, "reroll " + "-".join(map(str, advice.reroll)))
    return path


def dice_json(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["dice", "--journal", str(path), "--json"]) == 0
    found: dict[str, object] = json.loads(capsys.readouterr().out)
    return found


def test_a_fair_die_reads_as_nothing_unusual(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = journal_of(tmp_path / "fair.sqlite3", 1 / 6)
    assert main(["dice", "--journal", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Dice of 2026-11-21: 1 game, ")
    assert out[1].startswith("  faces: ") and "dice: nothing unusual (p = " in out[1]
    assert out[2].split()[::2] == ["1:", "2:", "3:", "4:", "5:", "6:"]
    assert out[3].startswith("  totals of 2 dice: ")
    assert out[3].endswith(" throws: not enough to say anything (the test needs 180)")


def test_a_die_showing_six_a_third_of_the_time_is_unusual(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = dice_json(journal_of(tmp_path / "loaded.sqlite3", 1 / 3), capsys)
    faces = found["faces"]
    assert isinstance(faces, dict)
    assert faces["unusual"] is True and faces["p"] < 0.001
    assert "unusual" in faces["says"] and "loaded" not in faces["says"]
    counts = faces["counts"]
    assert counts["6"] > 2 * counts["1"]
    assert sum(counts.values()) == faces["throws"]


def test_only_rolls_are_throws() -> None:
    assert throws(["roll 6-6-6-6-6", "reroll 6-6", "roll 1-2", "stop", "roll 3-4"]) == [
        (6, 6, 6, 6, 6), (1, 2), (3, 4)]
