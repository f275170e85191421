"""The command line as a newcomer meets it: ./run.sh passes its arguments on, the command
with no arguments gives an overview, and a light command imports nothing heavy."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.cli import chosen_command, main
from firmware_host.commands import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("gpiozero", "luma", "PIL", "serial")


def test_no_arguments_print_an_overview_of_every_command(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    for name, command in COMMANDS.items():
        [line] = [line for line in out.splitlines() if line.split()[:1] == [name]]
        assert line.split(None, 1)[1] == command.summary  # one line each, not wrapped
    assert "COMMAND --help" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.startswith("table-companion 0.")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_has_its_help(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([name, "--help"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: table-companion {name} ")


def test_the_command_is_the_first_word_that_is_not_an_option() -> None:
    assert chosen_command(["--version"]) is None
    assert chosen_command(["score", "dalmatian"]) == "score"


@pytest.mark.parametrize("argv", [
    ["games"], ["games", "--json"], ["rules", "Dalmatian"],
    ["score", "dalmatian", "--total", "6", "--dice", "1", "2", "3", "4", "5"],
    ["advise", "dalmatian", "--total", "7", "--dice", "1", "3", "4", "6", "6", "--rerolls", "0"],
    ["--help"], [],
])
def test_light_commands_import_no_hardware_library(argv: list[str]) -> None:
    code = ("import contextlib, io, sys\n"
            "from firmware_host.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), "
            "contextlib.suppress(SystemExit):\n"
            f"    main({argv!r})\n"
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=30, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_a_heavy_command_still_loads_its_libraries() -> None:
    """The check above can fail: the simulator's module does bring Pillow in."""
    code = ("import sys\nfrom firmware_host.cli import build_parser\nbuild_parser('sim')\n"
            "print('PIL' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=30, check=True)
    assert done.stdout.strip() == "True"


@pytest.mark.parametrize(("argv", "expected"), [
    (["--help"], "usage: table-companion [-h] [--version] COMMAND"),
    (["games", "--json"], '[\n  {\n    "name": '),
    (["score", "dalmatian", "--total", "6", "--dice", "1", "2", "3", "4", "5"],
     "total 6, dice 1-2-3-4-5: score 4\n"),
])
def test_run_sh_passes_its_arguments_to_the_command(argv: list[str], expected: str) -> None:
    done = subprocess.run([str(ROOT / "run.sh"), *argv], capture_output=True, text=True,
                          timeout=60, cwd="/")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(expected)
    assert done.stderr == ""  # no set-up the second time, and no pip at all
    if argv[0] == "games":
        assert {game["name"] for game in json.loads(done.stdout)} >= {"dalmatian", "sequence"}


def test_an_option_of_any_type_says_what_is_allowed(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "rounds = 12  (a number is allowed)" in out
    assert "a int" not in out and "a str" not in out
    assert max(map(len, out.splitlines())) <= 80  # wrapped to an 80-column terminal


@pytest.mark.parametrize(("argv", "message"), [
    (["wiring", "--write-docs", "{file}/docs"],
     "wiring: error: --write-docs: cannot create the folder {file}/docs (Not a directory); "
     "name a folder you may write in"),
    (["selftest", "--mock", "--png", "{tmp}/gone/pattern.png"],
     "selftest: error: --png: the folder {tmp}/gone does not exist; create it or name a file "
     "in a folder that does"),
    (["selftest", "--mock", "--png", "{tmp}/pattern.jpg"],
     "selftest: error: --png: {tmp}/pattern.jpg does not end in .png; name a .png file"),
    (["sim", "--scenario", "demo", "--out", "{file}"],
     "sim: error: --out: {file} is a file, not a folder; name a folder"),
    (["sim", "--scenario", "demo", "--journal", "{file}/j.sqlite3", "--out", "{tmp}/out"],
     "sim: error: --journal: {file} is a file, not a folder; name a folder"),
])
def test_a_path_that_cannot_be_written_is_one_line_and_status_2(
        argv: list[str], message: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "file"
    file.write_text("")
    with pytest.raises(SystemExit) as exited:
        main([word.format(tmp=tmp_path, file=file) for word in argv])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err == "table-companion " + message.format(tmp=tmp_path, file=file) + "\n"
