"""Hostile files get one line each, never a hang, a traceback or unbounded memory: configs,
pin maps and scenarios that are binary, endless, FIFOs, nested thousands deep, or name
``~nosuchuser``; bad TOML in any file read, named by its line and column; and the numbers in
a scenario that would run for ever."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_host.commands.seat import read_night
from firmware_host.config import ConfigError, load
from firmware_host.errors import UsageError
from firmware_host.hub.league.roster import Roster
from firmware_host.hub.league.roster import read as read_roster
from firmware_host.sim import scenario as scenarios
from firmware_host.sim.scenario import ScenarioError
from hardware.tomlfile import MAX_BYTES, TomlFileError, read_text
from hardware.wiring.pinmap import load_pin_map

DEEP = "players = " + "[" * 600 + "]" * 600 + "\n"


def config_error(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "config.toml"
    if isinstance(text, str):
        path.write_text(text)
    else:
        path.write_bytes(text)
    with pytest.raises(ConfigError) as refused:
        load(path)
    message = str(refused.value)
    assert "\n" not in message
    return message.removeprefix(f"{tmp_path}/")


def test_a_pin_map_that_is_not_utf8_names_the_map_and_the_line(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_bytes(b"title = 'ok'\n\xff\xfe\n")
    assert config_error(tmp_path, 'pin_map = "bad.toml"\n') == (
        f"config.toml, line 1: pin_map: pin map {tmp_path}/bad.toml, line 2: not UTF-8 text "
        "(byte 0xff); save it as UTF-8")


def test_a_config_that_is_not_utf8_names_its_line(tmp_path: Path) -> None:
    assert config_error(tmp_path, b"hint = true\nplayers = ['\xe9']\n") == (
        "config.toml, line 2: not UTF-8 text (byte 0xe9); save it as UTF-8")


@pytest.mark.parametrize("key", ["journal", "pin_map"])
def test_a_path_of_an_unknown_users_home_is_refused_at_its_key(tmp_path: Path, key: str) -> None:
    assert config_error(tmp_path, f'hint = true\n{key} = "~nosuchuser/x.toml"\n') == (
        f"config.toml, line 2: {key}: '~nosuchuser/x.toml' starts with ~ but no user "
        "'nosuchuser' on this machine; write the full path")


def test_values_nested_past_what_python_can_read_name_their_line(tmp_path: Path) -> None:
    assert config_error(tmp_path, "hint = true\n" + DEEP) == (
        "config.toml, line 2: tables or arrays nested deeper than 16 levels")
    nested = "[game]\nname = 'dalmatian'\nvariants = " + "{a = " * 40 + "1" + "}" * 40 + "\n"
    assert config_error(tmp_path, nested).startswith(
        "config.toml, line 3: game.variants.a.a.a.a")


def test_a_number_python_refuses_to_read_is_one_line(tmp_path: Path) -> None:
    assert config_error(tmp_path, "hint = " + "9" * 5000 + "\n") == (
        "config.toml: a number too long to read; numbers here are small")


def test_a_variants_range_error_names_the_variants_line(tmp_path: Path) -> None:
    # the rules check the rounds' range in the setup, after the option's own check
    text = '[game]\nname = "dalmatian"\n\n[game.variants]\nround_winner_only = true\nrounds = 99\n'
    assert config_error(tmp_path, text) == (
        "config.toml, line 6: game.variants.rounds: option 'rounds' cannot be 99: 1 to 24 "
        "allowed")
    dotted = 'hint = true\ngame.name = "dalmatian"\ngame.variants.rounds = 0\n'
    assert config_error(tmp_path, dotted).startswith("config.toml, line 3: game.variants.rounds")


def test_fifos_devices_and_huge_files_are_refused_without_reading_them(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero"), tmp_path):
        with pytest.raises(TomlFileError, match="not a regular file"):
            read_text(path)
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"# " + b"x" * MAX_BYTES + b"\n")
    with pytest.raises(TomlFileError, match="larger than 1,000,000 bytes"):
        read_text(huge)
    with pytest.raises(ConfigError, match=r"fifo.toml: not a regular file \(a folder, a FIFO"):
        load(fifo)


@pytest.mark.parametrize("read", [
    load, read_night, read_roster, lambda path: scenarios.load(str(path), "pi40"),
    lambda path: load_pin_map(str(path)),
], ids=["config", "night", "roster", "scenario", "pin map"])
@pytest.mark.parametrize(("text", "place", "reason"), [
    ("a = 1\n[[b]\n", "line 2, column 4", "Expected ']]' at the end of an array declaration"),
    ("a = 1\nb = [\n", "line 3, column 1", "Invalid value at the end of the file"),
])
def test_every_file_names_the_line_and_column_of_bad_toml(
        tmp_path: Path, read: Callable[[Path], object], text: str, place: str,
        reason: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises((UsageError, ValueError)) as refused:  # each reader's own error
        read(path)
    assert str(refused.value).removeprefix("pin map ") == (
        f"{path}, {place}: not valid TOML: {reason}")


def test_a_missing_file_is_named_and_a_missing_roster_is_an_empty_one(tmp_path: Path) -> None:
    gone = tmp_path / "gone.toml"
    with pytest.raises(UsageError) as refused:
        read_night(gone)
    assert str(refused.value) == f"{gone}: no such file; give the night's TOML file"
    with pytest.raises(ScenarioError) as refused:
        scenarios.load(str(gone), "pi40")
    assert str(refused.value) == f"{gone}: no such scenario file"
    assert read_roster(gone) == Roster()


def scenario_error(tmp_path: Path, text: str) -> str:
    path = tmp_path / "s.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as refused:
        scenarios.load(str(path), "pi40")
    message = str(refused.value)
    assert "\n" not in message
    return message.removeprefix(f"{tmp_path}/")


@pytest.mark.parametrize(("text", "message"), [
    ("[[step]]\nturn = 1000000000\n", "s.toml: step 1: turn: 1000000000 is not a number of "
     "detents from -100 to 100"),
    ("[[step]]\nwait = inf\n", "s.toml: step 1: wait: inf is not a number of seconds more "
     "than 0 and at most 600"),
    ("[[step]]\nwait = nan\n", "s.toml: step 1: wait: nan is not a number"),
    ("settle = 1e300\n[[step]]\nwait = 1\n", "s.toml: settle: 1e+300 is not a number of "
     "seconds at least 0 and at most 600"),
    ("[[step]]\nclick = 'roll'\nseconds = inf\n", "s.toml: step 1: seconds: inf is not"),
    ("[[step]]\nrepeat = 1000\n[[step.step]]\nwait = 20\n", "s.toml: step 1.1: wait: the "
     "steps up to here take more than 4 hours of table time; shorten them"),
    ("[[step]]\nrepeat = 2\n" + "".join(f"[[{'.'.join(['step'] * depth)}]]\nrepeat = 2\n"
                                         for depth in range(2, 6)) + "[[step.step]]\nwait = 1\n",
     "s.toml: step 1.1.1.1.1: repeat: repeats nested more than 4 deep; flatten the inner ones"),
    ("[[step]]\nrepeat = 2\n" + "".join(f"[[{'.'.join(['step'] * depth)}]]\nrepeat = 2\n"
                                         for depth in range(2, 400)),
     "s.toml: step.step.step.step.step.step.step.step.step: nested deeper than 16 levels"),
    ("title = " + "[" * 900 + "]" * 900 + "\n[[step]]\nwait = 1\n",
     "s.toml, line 1: tables or arrays nested deeper than 16 levels"),
    ("pin_map = '~nosuchuser/m.toml'\n[[step]]\nwait = 1\n", "s.toml: pin_map: "
     "'~nosuchuser/m.toml' starts with ~ but no user 'nosuchuser'"),
])
def test_scenario_numbers_depths_and_paths_have_limits(
        tmp_path: Path, text: str, message: str) -> None:
    assert scenario_error(tmp_path, text).startswith(message)


def test_scenarios_from_dev_zero_a_fifo_or_binary_are_one_line(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        with pytest.raises(ScenarioError, match=r": not a regular file \(a folder, a FIFO"):
            scenarios.load(path, "pi40")
    (tmp_path / "bin.toml").write_bytes(b"[[step]]\nwait = 1\n\x00\xff")
    with pytest.raises(ScenarioError, match=r"bin.toml, line 3: not UTF-8 text \(byte 0xff\)"):
        scenarios.load(str(tmp_path / "bin.toml"), "pi40")


def test_the_simulator_refuses_a_fifo_at_once_with_status_2(tmp_path: Path) -> None:
    """As a user meets it: without the check, opening the FIFO blocks until the timeout."""
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "sim", "--scenario",
                           str(fifo), "--journal", str(tmp_path / "j.sqlite3")],
                          capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert done.stderr == (f"table-companion sim: error: {fifo}: not a regular file (a folder, "
                           "a FIFO or a device); give a .toml file\n")
