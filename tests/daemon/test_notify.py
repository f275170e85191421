"""sd_notify through a real unix datagram socket, as systemd would receive it."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.notify import Notifier


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[socket.socket]:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    sock.settimeout(2)
    yield sock
    sock.close()


def received(sock: socket.socket) -> str:
    return sock.recv(4096).decode()


def test_each_state_is_one_datagram(manager: socket.socket) -> None:
    notifier = Notifier.from_environ({"NOTIFY_SOCKET": manager.getsockname()})
    notifier.ready("Dalmatian, round 3")
    notifier.watchdog()
    notifier.status("resumed game #4\nround 2")
    notifier.stopping()
    assert received(manager) == "READY=1\nSTATUS=Dalmatian, round 3"
    assert received(manager) == "WATCHDOG=1"
    assert received(manager) == "STATUS=resumed game #4 round 2"
    assert received(manager) == "STOPPING=1"


def test_an_abstract_socket_is_written_with_an_at_sign() -> None:
    name = f"table-companion-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        Notifier.from_environ({"NOTIFY_SOCKET": "@" + name}).ready()
        assert received(sock) == "READY=1"


def test_without_systemd_nothing_is_sent_and_nothing_fails() -> None:
    notifier = Notifier.from_environ({})
    assert notifier.address is None and notifier.watchdog_interval is None
    notifier.ready()
    notifier.watchdog()
    notifier.stopping()


def test_a_vanished_socket_is_logged_not_raised(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    Notifier.from_environ({"NOTIFY_SOCKET": str(tmp_path / "gone")}).watchdog()
    assert "could not notify the service manager at" in caplog.text


def test_the_watchdog_is_pinged_at_half_its_timeout() -> None:
    env = {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}
    assert Notifier.from_environ(env).watchdog_interval == 15.0
    assert Notifier.from_environ({"WATCHDOG_USEC": "4000000"}).watchdog_interval == 2.0


def test_a_watchdog_meant_for_another_process_is_ignored() -> None:
    env = {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid() + 1)}
    assert Notifier.from_environ(env).watchdog_interval is None
    assert Notifier.from_environ({"WATCHDOG_USEC": "soon"}).watchdog_interval is None
    assert Notifier.from_environ({"NOTIFY_SOCKET": "relative"}).address is None
