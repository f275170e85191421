"""``table-companion run``: readiness, watchdog, a clean stop on SIGTERM, and its exit statuses."""

from __future__ import annotations

import io
import logging
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

import games
from firmware_host.cli import main
from firmware_host.commands.run import (
    EXIT_CONFIG,
    EXIT_HARDWARE,
    EXIT_JOURNAL,
    MOCK_HELP,
    log_handler,
    terminal_screen,
    to_journald,
)
from firmware_host.journal import Journal
from hardware.events import Event, InputEdge
from hardware.pins.factory import NO_CHIP

ROOT = Path(__file__).parents[2]


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[socket.socket]:
    """A stand-in for systemd's notify socket."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    sock.settimeout(15)
    yield sock
    sock.close()


def write_config(tmp_path: Path, text: str = "") -> Path:
    path = tmp_path / "config.toml"
    path.write_text('journal = "journal.sqlite3"\n' + text)
    return path


@pytest.mark.parametrize("journald", [False, True], ids=["terminal", "journald"])
def test_the_daemon_reports_ready_pings_and_stops_cleanly_on_sigterm(
    tmp_path: Path, manager: socket.socket, journald: bool
) -> None:
    config = write_config(tmp_path, '[display]\ntype = "emulator"\n')
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        game = games.new_game("centennial", names=["Ann", "Ben"])
        journal.start(game)
        journal.apply(game, "roll 3")
    env = {**os.environ, "NOTIFY_SOCKET": manager.getsockname(), "WATCHDOG_USEC": "100000"}
    env.pop("WATCHDOG_PID", None)
    stderr = (tmp_path / "stderr").open("w+")
    if journald:  # as systemd starts the unit: stderr is the stream JOURNAL_STREAM names
        env["JOURNAL_STREAM"] = journal_stream(stderr)
    daemon = subprocess.Popen(
        [sys.executable, "-m", "firmware_host.cli", "run", "--mock", "--config", str(config)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=stderr, text=True)
    try:
        messages = [manager.recv(4096).decode() for _ in range(4)]
        assert messages[:2] == ["STATUS=resumed Centennial after 1 move", "READY=1"]
        assert messages[2:] == ["WATCHDOG=1", "WATCHDOG=1"]
        daemon.send_signal(signal.SIGTERM)
        while (message := manager.recv(4096).decode()) == "WATCHDOG=1":
            pass
        assert message == "STOPPING=1"
        out, _ = daemon.communicate(timeout=15)
    finally:
        daemon.kill()
    err = (tmp_path / "stderr").read_text()
    assert daemon.returncode == 0, err
    prefix = "<6>" if journald else ""
    assert err.splitlines()[-1] == f"{prefix}INFO table_companion: stopped after 0 events"
    assert all(line.startswith("<6>") for line in err.splitlines()) == journald
    assert "Traceback" not in err
    assert "Centennial: 1 moves" not in out  # the screen is pixels, drawn in half-blocks
    assert "▀" in out or "▄" in out
    assert not (tmp_path / "journal.sqlite3-wal").exists(), "the journal was not closed"


def test_a_bad_config_exits_with_the_status_systemd_will_not_restart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, "[display]\nbus = 'usb'\n")
    assert main(["run", "--config", str(config)]) == EXIT_CONFIG == 78
    assert capsys.readouterr().err == (
        f'table-companion run: error: {config}, line 3: display.bus: "usb" is not allowed: '
        "allowed i2c | spi\n"
    )


def journal_stream(file: IO[str]) -> str:
    """JOURNAL_STREAM's value for ``file``: its device and inode, as systemd writes them."""
    status = os.fstat(file.fileno())
    return f"{status.st_dev}:{status.st_ino}"


def test_errors_and_warnings_reach_journald_with_their_priority(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with (tmp_path / "stderr").open("w+") as stream:
        monkeypatch.setenv("JOURNAL_STREAM", journal_stream(stream))
        logger = logging.getLogger("table_companion.test")
        logger.addHandler(log_handler(stream))
        logger.setLevel(logging.INFO)
        try:
            logger.error("no screen")
            logger.warning("GPIO: using rpigpio\nsecond line")
            logger.info("running")
        finally:
            logger.handlers.clear()
            logger.setLevel(logging.NOTSET)
        monkeypatch.setattr(sys, "stderr", stream)
        assert main(["run", "--config", str(tmp_path / "none.toml")]) == EXIT_CONFIG
        stream.seek(0)
        lines = stream.read().splitlines()
    assert lines[:4] == ["<3>ERROR table_companion.test: no screen",
                         "<4>WARNING table_companion.test: GPIO: using rpigpio",
                         "<4>second line", "<6>INFO table_companion.test: running"]
    assert lines[4].startswith("<3>table-companion run: error: ")


def test_a_stream_that_is_not_the_journals_gets_no_prefixes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with (tmp_path / "a").open("w") as journal, (tmp_path / "b").open("w+") as other:
        monkeypatch.setenv("JOURNAL_STREAM", journal_stream(journal))
        assert not to_journald(other) and to_journald(journal)
        record = logging.LogRecord("table_companion", logging.ERROR, "", 0, "x", None, None)
        assert log_handler(other).format(record) == "ERROR table_companion: x"


def test_an_unusable_journal_exits_with_its_own_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "journal.sqlite3"
    folder.mkdir()  # a damaged file would be moved aside: not this
    assert main(["run", "--mock", "--config", str(write_config(tmp_path))]) == EXIT_JOURNAL
    assert (f"{folder} is a folder; the journal is a file: give one in it, such as "
            f"{folder / 'journal.sqlite3'}") in capsys.readouterr().err


def test_a_journal_given_on_the_command_line_whose_folder_cannot_be_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("")
    journal = tmp_path / "file" / "state" / "j.sqlite3"
    assert main(["run", "--mock", "--config", str(write_config(tmp_path)), "--journal",
                 str(journal)]) == EXIT_JOURNAL
    err = capsys.readouterr().err
    assert err.endswith(f"journal: cannot create the folder {journal.parent} (Not a directory); "
                        "name a folder you may write in\n")
    assert err.count("\n") == 1


def test_without_gpio_the_error_names_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_gpio: None
) -> None:
    assert main(["run", "--config", str(write_config(tmp_path))]) == EXIT_HARDWARE
    err = capsys.readouterr().err
    assert err == f"table-companion run: error: {NO_CHIP}\n"


def test_the_pin_maps_inputs_reach_the_queue_and_are_released(tmp_path: Path) -> None:
    from contextlib import ExitStack

    from gpiozero.pins.mock import MockFactory

    from firmware_host.daemon import open_inputs
    from hardware.events import DiceRolled
    from hardware.pins.clock import ManualClock
    from hardware.wiring.pinmap import load_pin_map

    pins = load_pin_map("pi40")
    factory = MockFactory()
    clock = ManualClock()
    seen: list[object] = []
    with ExitStack() as resources:
        inputs = open_inputs(pins, factory, seen.append, resources, clock=clock)
        for drive in (factory.pin(pins.dice).drive_low, factory.pin(pins.dice).drive_high):
            drive()  # a click: the button debounces over several polls, then a release
            for _ in range(20):
                clock.advance(0.005)
                inputs.poll()
    rolled = [e for e in seen if isinstance(e, DiceRolled)]
    assert len(rolled) == 1 and rolled[0].source == "button"
    with ExitStack() as resources:  # closed means released: the same pins can be claimed again
        open_inputs(pins, factory, seen.append, resources)


class Terminal(io.StringIO):
    """An 80x24 terminal (the size the screen falls back to when it cannot ask)."""

    def isatty(self) -> bool:
        return True


def test_run_mock_draws_the_screen_to_fit_an_80_column_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from contextlib import ExitStack

    from firmware_host.screens import render
    from firmware_host.screens.samples import SAMPLES

    out = Terminal()
    monkeypatch.setattr(sys, "stdout", out)
    with ExitStack() as resources:
        screen, _ = terminal_screen(resources, MOCK_HELP, lambda event: None)
        screen.show(render(SAMPLES["dalmatian_turn"]()))
    drawn = out.getvalue()
    text = drawn.replace("\x1b[K", "").replace("\x1b[J", "")
    lines = [line.split("\x1b[")[0] for line in text.split("\r\n")]
    assert max(len(line) for line in lines) <= 80
    assert "\u28ff" in drawn and MOCK_HELP in drawn  # braille: the view that fits 80x24
    monkeypatch.setattr(sys, "stdout", io.StringIO())  # a log: a frame under the last
    with ExitStack() as resources:
        assert not isinstance(terminal_screen(resources, MOCK_HELP, lambda event: None)[0],
                              type(screen))


def test_run_mock_draws_the_screen_anew_as_soon_as_the_terminal_is_resized(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop sleeps until the next event; a resize wakes it (an InputEdge, which runs the
    pollers), and the screen's poller draws the frame anew for the new size at once."""
    from contextlib import ExitStack

    from firmware_host.screens import render
    from firmware_host.screens.samples import SAMPLES

    out = Terminal()
    monkeypatch.setattr(sys, "stdout", out)
    woken: list[Event] = []
    with ExitStack() as resources:
        screen, pollers = terminal_screen(resources, MOCK_HELP, woken.append)
        screen.show(render(SAMPLES["dalmatian_turn"]()))
        for poll in pollers:
            poll(0.0)
        drawn = out.getvalue()
        assert woken == []
        os.kill(os.getpid(), signal.SIGWINCH)
        assert woken == [InputEdge()]
        assert out.getvalue() == drawn  # the handler only takes note
        for poll in pollers:
            poll(0.0)
        again = out.getvalue()[len(drawn):]
        assert again.startswith("\x1b[H\x1b[2J") and MOCK_HELP in again
    assert signal.getsignal(signal.SIGWINCH) is not screen.resized  # handed back
