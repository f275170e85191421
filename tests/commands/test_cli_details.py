"""The command line as a user meets it, through the installed ``table-companion`` command:
one line for a mistake, game names in any case, what ``advise --json`` assumed, and errors
that name the file the user gave."""

from __future__ import annotations

import json
import select
import signal
import subprocess
from pathlib import Path

import pytest
from pty_helpers import COMMAND, Terminal

from firmware_host.journal import Journal


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COMMAND, *argv], capture_output=True, text=True, timeout=60,
                          check=False)


@pytest.mark.parametrize(("argv", "told"), [
    (["scor"], "argument COMMAND: invalid choice: 'scor'"),
    (["score", "dalmatian", "--total", "6"], "the following arguments are required: --dice"),
    (["export", "--format", "xls"], "argument --format: invalid choice: 'xls'"),
    (["sim", "--seed", "many"], "argument --seed: invalid int value: 'many'"),
    (["backup"], "the following arguments are required: PATH"),
])
def test_bad_arguments_are_one_line_pointing_at_the_help(argv: list[str], told: str) -> None:
    done = run(*argv)
    command = "table-companion" + ("" if argv == ["scor"] else f" {argv[0]}")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"{command}: error: {told}"), done.stderr
    assert done.stderr.endswith(f"; see {command} --help\n") and done.stderr.count("\n") == 1
    assert run(*command.split()[1:], "--help").stdout.startswith(f"usage: {command} ")


@pytest.mark.parametrize("game", ["Dalmatian", "DALMATIAN", " dalmatian "])
def test_game_names_are_taken_in_any_case(game: str) -> None:
    done = run("score", game, "--total", "6", "--dice", "1", "2", "3", "4", "5", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["game"] == "dalmatian"


def test_advise_json_gives_the_rerolls_it_assumed() -> None:
    hand = ["dalmatian", "--total", "7", "--dice", "1", "3", "4", "6", "6", "--json"]
    assumed = json.loads(run("advise", *hand).stdout)
    assert (assumed["rerolls"], assumed["budget"]) == (2, None)
    assert json.loads(run("advise", *hand, "--rerolls", "1").stdout)["rerolls"] == 1
    budget = json.loads(run("advise", *hand, "--budget", "3").stdout)
    assert (budget["rerolls"], budget["budget"]) == (None, 3)
    assert run("advise", *hand[:-1]).stdout == (  # the hint's words and label, in faces
        "total 7, dice 1-3-4-6-6, 2 rerolls left: scores 4 now\n"
        "keep 1-3-4, reroll 6-6: ≈4.026 pts expected\n")


@pytest.mark.parametrize(("target", "told"), [
    ("/proc/x", "table-companion backup: error: /proc/x: "),
    ("/dev/full", "table-companion backup: error: PATH: /dev/full is not a regular file; "
                  "name a file\n"),
])
def test_a_backup_destination_that_cannot_take_the_copy_is_named(
        tmp_path: Path, target: str, told: str) -> None:
    journal = tmp_path / "journal.sqlite3"
    Journal.open(journal).close()
    done = run("backup", target, "--journal", str(journal))
    assert done.returncode == 2 and done.stderr.startswith(told), done.stderr
    assert "journal" not in done.stderr and done.stderr.count("\n") == 1
    assert Path("/dev/full").is_char_device()  # never replaced by a file, even as root


def test_keys_typed_into_run_mock_do_not_echo(tmp_path: Path) -> None:
    """run --mock reads no keys: typed ones must not appear under the screen, nor be left
    for the shell once it stops."""
    config = tmp_path / "config.toml"
    config.write_text('[display]\ntype = "emulator"\n')
    with Terminal(80, 24, "run", "--mock", "--config", str(config), "--journal",
                  str(tmp_path / "journal.sqlite3")) as daemon:
        daemon.wait_for("Ctrl-C stops")
        daemon.type(b"hello\n")
        assert b"hello" not in daemon.read(1.5, b"hello")
        daemon.child.send_signal(signal.SIGTERM)
        assert daemon.wait() == 0
        assert not select.select([daemon.slave], [], [], 0.2)[0]  # nothing left for the shell
