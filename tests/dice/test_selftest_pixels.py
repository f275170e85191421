"""selftest with Pixels dice: each named die heard and its battery said, a silent one failed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.selftest import check_pixels
from hardware.dice.mock import MockDice
from hardware.dice.reader import PixelsReader

NAMED = ("0000A001", "C4:5A:11:22:33:44")


def test_each_die_is_said_with_its_battery_and_a_silent_one_fails() -> None:
    dice = MockDice((*NAMED, "0000B001"), battery=12)
    out = io.StringIO()
    assert check_pixels(PixelsReader(dice.scanner, NAMED), NAMED, 5.0, out,
                        dice.wait)
    assert out.getvalue().splitlines()[1:] == [
        "  die 1 (0000A001): ok, battery 12%: charge it soon",
        "  die 2 (C4:5A:11:22:33:44): ok, battery 12%: charge it soon"]
    dice = MockDice(NAMED)
    dice.silent.add(NAMED[1])
    out = io.StringIO()
    assert not check_pixels(PixelsReader(dice.scanner, NAMED), NAMED, 1.0, out,
                            dice.wait)
    assert out.getvalue().splitlines()[1:] == [
        "  die 1 (0000A001): ok, battery 90%",
        "  die 2 (C4:5A:11:22:33:44): NOT HEARD: is it awake and near? (a phone connected to "
        "it keeps it silent)"]


def test_selftest_mock_listens_for_the_configs_dice(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[dice]\nsource = "pixels"\npixels = ["0000A001", "0000A002"]\n')
    assert main(["selftest", "--mock", "--config", str(config), "--timeout", "5"]) == 0
    out = capsys.readouterr().out
    assert "Pixels dice: listening up to 5 s for the 2 named" in out
    assert "die 2 (0000A002): ok, battery 90%" in out
