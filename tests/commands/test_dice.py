"""``table-companion dice``: a journal's throws tested through the real CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from journal_helpers import FakeClock

from firmware_host.cli import main
from firmware_host.journal import Journal
from games.dalmatian import Dalmatian


def journal_of(path: Path, six: float, source: str | None = "button",
               typed: float = 0.0) -> Path:
    """One long Dalmatian game (6 players, 24 rounds) thrown with a die showing six with
    chance ``six`` from ``source``, the advisor choosing; a share ``typed`` of the throws
    are fair dice typed in."""
    rng = random.Random(11)
    weights = [(1 - six) / 5] * 5 + [six]
    with Journal.open(path, FakeClock()) as journal:
        game = Dalmatian.new(6, rounds=24)
        journal.start(game)
        while not game.is_over:
            advice = game.advice()
            if advice is None:
                if rng.random() < typed:
                    dice, came = rng.choices(range(1, 7), k=game.dice_wanted), "manual"
                else:
                    dice = rng.choices(range(1, 7), weights=weights, k=game.dice_wanted)
                    came = source
                journal.apply(game, "roll " + "-".join(map(str, dice)), source=came)
            elif advice.stops:
                journal.apply(game, "stop")
            else:
                journal.apply(game, "reroll " + "-".join(map(str, advice.reroll)))
    return path


def dice_json(path: Path, capsys: pytest.CaptureFixture[str],
              *more: Path) -> dict[str, Any]:
    assert main(["dice", "--journal", str(path), *map(str, more), "--json"]) == 0
    found: dict[str, object] = json.loads(capsys.readouterr().out)
    return found


def test_a_fair_die_reads_as_nothing_unusual(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = journal_of(tmp_path / "fair.sqlite3", 1 / 6)
    assert main(["dice", "--journal", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Dice of 2026-11-21: 1 game, ")
    assert out[1].startswith("fair, the button roller: ")  # the journal's file names the table
    assert out[2].startswith("  faces: ") and "dice: nothing unusual (p = " in out[2]
    assert out[3].split()[::2] == ["1:", "2:", "3:", "4:", "5:", "6:"]
    assert out[4].startswith("    With ") and out[4].endswith(
        " dice, dice that all show one face twice as often as each other face would be "
        "flagged almost always; one such die among five, about 3 times in 10.")
    assert out[5].startswith("  totals of 2 dice: ")
    assert out[5].endswith(" throws: not enough to say anything (the test needs 180)")
    assert out[-1] == ("Nothing unusual in the one test on this page; a page of fair dice is "
                       "flagged at most one time in twenty.")


def test_a_die_showing_six_a_third_of_the_time_is_unusual(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = dice_json(journal_of(tmp_path / "loaded.sqlite3", 1 / 3), capsys)
    [group] = found["groups"]  # type: ignore[misc]
    assert (group["table"], group["source"]) == ("loaded", "button")
    faces = group["faces"]
    assert isinstance(faces, dict)
    assert faces["unusual"] is True and faces["p"] < 0.001
    assert "unusual" in faces["says"] and "loaded" not in faces["says"]
    counts = faces["counts"]
    assert counts["6"] > 2 * counts["1"]
    assert sum(counts.values()) == faces["throws"]


def test_each_source_and_each_table_is_tested_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A loaded roller among fair typed-in dice is found, and the typed-in dice are not
    blamed; another table's journal, and throws journaled without a source, are groups of
    their own."""
    mixed = journal_of(tmp_path / "table1.sqlite3", 1 / 3, "serial", typed=0.4)
    older = journal_of(tmp_path / "table2.sqlite3", 1 / 6, None)
    found = dice_json(mixed, capsys, older)
    groups = {(g["table"], g["source"]): g for g in found["groups"]}  # type: ignore[attr-defined]
    assert list(groups) == [("table1", "manual"), ("table1", "serial"), ("table2", "unknown")]
    assert groups[("table1", "serial")]["faces"]["unusual"] is True
    assert groups[("table1", "manual")]["faces"]["unusual"] is False
    assert groups[("table2", "unknown")]["faces"]["unusual"] is False
    assert found["throws"] == sum(g["throws"] for g in groups.values())
    assert main(["dice", str(mixed)]) == 0
    heads = [line for line in capsys.readouterr().out.splitlines() if line[0] != " "]
    assert [head.split(":")[0] for head in heads[1:-1]] == [
        "table1, dice typed in", "table1, the serial roller"]
    assert heads[-1].startswith("Unusual once all 2 tests on this page are counted: "
                                "table1, the serial roller: faces.")


def test_a_throw_keeps_its_source_and_other_actions_have_none(tmp_path: Path) -> None:
    """Sources in turn: typed in, the button, none (unknown), the serial roller; a reroll
    and its throw are journaled together, the source on the throw alone."""
    rng = random.Random(3)
    sources = ("manual", "button", None, "serial")
    with Journal.open(tmp_path / "j.sqlite3", FakeClock()) as journal:
        game = Dalmatian.new(2, rounds=2)
        journal.start(game)
        with pytest.raises(ValueError, match="not 'dice app'"):
            journal.apply(game, "roll 1-1-1-1-1", source="dice app")
        expected = []
        while not game.is_over:
            source = sources[len(expected) % 4]
            dice = "-".join(str(rng.randint(1, 6)) for _ in range(game.dice_wanted))
            advice = game.advice()
            if advice is None:
                journal.apply(game, "roll " + dice, source=source)
            elif advice.stops:
                journal.apply(game, "stop")
                continue
            else:
                dice = "-".join(str(rng.randint(1, 6)) for _ in advice.reroll)
                journal.apply(game, "reroll " + "-".join(map(str, advice.reroll)),
                              "roll " + dice, source=source)
            expected.append((tuple(map(int, dice.split("-"))), source or "unknown"))
        [played] = journal.finished_games()
        assert [(t.dice, t.source) for t in journal.throws(played)] == expected
        assert any(action.startswith("reroll") for action in journal.actions(played))
