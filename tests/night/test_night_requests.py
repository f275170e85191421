"""No request writes a traceback, and none costs the event loop a QR code per new Host: the
hub's server over a store, asked with raw sockets as a hostile guest would."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from hub_helpers import serving

from firmware_host.night import tv
from firmware_host.night.server import TALLY_S, Tally
from firmware_host.night.store import Store


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    with serving(Store.open(tmp_path / "night.sqlite3")) as url:
        yield url


def ask(url: str, target: bytes, host: bytes = b"hub") -> bytes:
    """The raw reply to ``GET target`` with ``Host: host``."""
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: " + host +
                     b"\r\nConnection: close\r\n\r\n")
        reply = b""
        while chunk := conn.recv(65536):
            reply += chunk
    return reply


@pytest.mark.parametrize("query", [b"page=\xb2", b"page=\xd9\xa3", b"page=\xef\xbc\x91",
                                   b"page=99999999", b"page=-1", b"page"])
def test_any_page_number_is_an_answer_not_a_traceback(
        served: str, query: bytes, caplog: pytest.LogCaptureFixture) -> None:
    """A superscript two, an Arabic-Indic three and a full-width one are digits to
    str.isdigit(), not to int()."""
    with caplog.at_level(logging.DEBUG):
        reply = ask(served, b"/tv?" + query)
    assert reply.startswith(b"HTTP/1.1 200 OK") and b"</html>" in reply
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_page_numbers_are_ascii_digits() -> None:
    assert [tv.page_number(q) for q in ("page=2", "page=\u00b2", "page=\u0663", "x=1&page=3")] \
        == [2, 1, 1, 3]


def test_a_request_that_fails_is_counted_in_the_tally_never_a_traceback(
        served: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    counted: list[str] = []
    monkeypatch.setattr(Tally, "count", lambda self, what: counted.append(what))

    def broken(*args: object) -> str:
        raise KeyError("a bug")

    monkeypatch.setattr(tv, "tv", broken)
    with caplog.at_level(logging.DEBUG):
        for _ in range(50):
            assert ask(served, b"/tv") == b""  # the connection closes, the hub goes on
        assert ask(served, b"/app.css").startswith(b"HTTP/1.1 200 OK")
    assert counted == ["failed (KeyError: 'a bug')"] * 50
    assert not [r for r in caplog.records if r.exc_info]
    assert TALLY_S == 60.0  # the counts are logged in one line a minute


def test_a_new_host_each_request_draws_no_new_qr_code(served: str) -> None:
    tv.qr_svg.cache_clear()
    first = ask(served, b"/tv", b"hub.local:8080")
    for n in range(30):
        later = ask(served, b"/tv", f"host{n}.example:8080".encode())
        assert b"http://hub.local:8080/" in later and b"host" not in later.split(b"<body")[1]
    assert b"http://hub.local:8080/" in first
    assert tv.qr_svg.cache_info().misses == 1
