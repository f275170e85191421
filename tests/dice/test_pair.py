"""``table-companion dice pair``: the dice in range written into the config, its comments and
other tables kept; a config that would not read is left as it was."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_pixels_games import OURS, THEIRS

from firmware_host.commands.dice_pair import pair, with_dice
from firmware_host.config import DiceConfig, parse
from hardware.dice.mock import MockDice
from hardware.dice.pixels import RollState

ROOT = Path(__file__).parents[2]
FILE = Path("/etc/table-companion/config.toml")


def test_a_dice_table_is_added_to_a_config_without_one() -> None:
    shipped = (ROOT / "systemd" / "config.toml").read_text()
    written = with_dice(shipped, list(OURS[:3]), 3)
    assert written.startswith(shipped.rstrip("\n"))  # every comment and table kept
    assert parse(written, FILE).dice == DiceConfig("pixels", OURS[:3], 3)
    assert parse(with_dice("", ["C4:5A:00:00:00:01"], 1), FILE).dice.pixels == (
        "C4:5A:00:00:00:01",)


def test_a_dice_table_is_rewritten_in_place() -> None:
    text = ('players = ["Ann", "Ben"]\n\n[dice]  # the table\'s dice\n# ours\nsource = "button"\n'
            'pixels = ["0000FFFF"]\ncount = 1\n\n[game]\nname = "centennial"\n')
    written = with_dice(text, list(OURS), 5)
    assert written == ('players = ["Ann", "Ben"]\n\n[dice]  # the table\'s dice\n'
                       'source = "pixels"\npixels = ["0000A001", "0000A002", "0000A003", '
                       '"0000A004", "0000A005"]\ncount = 5\n# ours\n\n[game]\n'
                       'name = "centennial"\n')
    config = parse(written, FILE)
    assert config.dice.source == "pixels" and config.game.name == "centennial"


def test_pair_writes_the_dice_heard(air: MockDice, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config.toml"
    path.write_text('players = ["Ann", "Ben"]\n')

    def sleep(seconds: float) -> None:
        air.started.wait(2.0)
        for die in OURS[:2]:
            air.advertise(die, RollState.ON_FACE, 3)

    assert pair(air.scanner, path, 1.0, None, sleep=sleep) == 0
    assert parse(path.read_text(), path).dice == DiceConfig("pixels", OURS[:2], 2)
    out = capsys.readouterr().out
    assert "0000A001: 6 LEDs, battery 90%" in out and f"2 dice written into {path}" in out
    assert air.listening == []


def test_pair_without_dice_heard_leaves_the_config(air: MockDice, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config.toml"
    assert pair(air.scanner, path, 0.5, None, sleep=lambda s: None) == 1
    assert not path.exists()
    assert "no Pixels dice heard; wake them and try again" in capsys.readouterr().err


def test_a_config_that_would_not_read_is_left_as_it_was(
        air: MockDice, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config.toml"
    bad = '[dice]\npixels = [\n  "0000A001",\n]\n'  # an array over lines: not ours to edit
    path.write_text(bad)

    def sleep(seconds: float) -> None:
        air.started.wait(2.0)
        air.advertise(THEIRS[0], RollState.ON_FACE)

    assert pair(air.scanner, path, 0.2, None, sleep=sleep) == 1
    assert path.read_text() == bad
    assert f"{path}: not written: " in capsys.readouterr().err


@pytest.fixture
def air() -> MockDice:
    return MockDice()


def test_the_command_without_bleak_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.cli import main

    monkeypatch.setitem(sys.modules, "bleak", None)
    assert main(["dice", "pair"]) == 1
    assert capsys.readouterr().err.startswith(
        "table-companion dice pair: Pixels dice need bleak: pip install "
        "'table-companion[pixels]'")
    assert main(["dice", "pair", "--count", "0"]) == 2
