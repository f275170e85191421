"""Pages that read every night (the league's, every night's dice) are built off the hub's
event loop: the live page's stream goes on meanwhile, requests for one page share its
build, a failed build is a 500 and a log line, and a stopping hub does not wait for it.
Served for real on loopback over a real store; the league's reading of a night is made slow
(busy on the CPU, as parsing a big night is) until the test lets it finish, so nothing
depends on how fast this machine is."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.hub import league_pages
from firmware_host.hub.broadcast import Broadcast, sse
from firmware_host.hub.league.league import League
from firmware_host.hub.server import Limits, NightServer
from firmware_host.hub.site import Read, Reply, Site
from firmware_host.hub.store import Store
from firmware_host.night import topics
from firmware_host.night.topics import Game, Live

LIMITS = Limits()
SPIN_CAP_S = 2 * LIMITS.head_s  # a slowed reading ends by then even if never let finish


class SlowSite(Site):
    """The hub's site, its reading of a night busy until :attr:`released` (or
    :data:`SPIN_CAP_S`); counts what it was asked."""

    def __init__(self, store: Store) -> None:
        super().__init__(store, store.night, lambda: 0)
        self.building = threading.Event()
        self.released = threading.Event()
        self.spinning = False
        self.asked: Counter[str] = Counter()

    def get(self, path: str) -> Reply | None:
        self.asked[path] += 1
        return super().get(path)

    def _read(self, night: str, changes: int) -> Read:
        self.spinning = True
        self.building.set()
        cap = time.monotonic() + SPIN_CAP_S
        while not self.released.is_set() and time.monotonic() < cap:
            sum(range(10_000))  # holds the interpreter as parsing does, not a sleep
        self.spinning = False
        return super()._read(night, changes)


class BrokenSite(Site):
    def league(self) -> League:
        raise RuntimeError("the night's file went away")


def game(night: str, table: str, game_id: int) -> Game:
    payload = json.dumps({
        "v": 1, "name": table.title(), "id": game_id, "game": "Dalmatian",
        "started": f"{night}T20:00:00+00:00", "ended": f"{night}T20:{game_id:02d}:00+00:00",
        "night": night, "players": [{"seat": 0, "name": "Ann", "score": 9, "place": 1},
                                    {"seat": 1, "name": "Ben", "score": 3, "place": 2}],
        "throws": ["0:button:5-6", "1:manual:1"]}).encode()
    parsed = topics.parse(topics.game_topic(table, game_id), payload)
    assert isinstance(parsed, Game)
    return parsed


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store.open(tmp_path / "night.sqlite3")
    for night in ("2026-11-20", "2026-11-21"):
        for game_id in (1, 2):
            played = game(night, "t1", game_id)
            store.apply(played)
            store.apply(Live("t1", "T1", "", (), "", "idle", (), (), "", 0, (1, game_id),
                             played.ended))
    yield store
    store.close()


def serve(site: Site, broadcast: Broadcast) -> NightServer:
    server = NightServer(("127.0.0.1", 0), site, broadcast, LIMITS)
    server.start()
    return server


def fetch(port: int, path: str, into: dict[str, object]) -> None:
    """GET ``path``: its status and body (or the error) in ``into``."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}",
                                    timeout=2 * SPIN_CAP_S) as reply:
            into[path + f"#{threading.get_ident()}"] = (reply.status, reply.read())
    except (urllib.error.URLError, OSError) as err:
        into[path + f"#{threading.get_ident()}"] = err


def stream(port: int) -> socket.socket:
    """The live page's stream, its first state read."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=LIMITS.head_s)
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: hub\r\n\r\n")
    read_until(sock, b"event: state")
    return sock


def read_until(sock: socket.socket, marker: bytes) -> None:
    seen = b""
    while marker not in seen:
        data = sock.recv(65536)
        assert data, f"the stream ended before {marker!r}"
        seen = seen[-len(marker):] + data


def test_the_stream_goes_on_while_the_first_players_page_is_built(store: Store) -> None:
    site, broadcast = SlowSite(store), Broadcast()
    server = serve(site, broadcast)
    port = server.server_address[1]
    sock = stream(port)
    got: dict[str, object] = {}
    try:
        first = threading.Thread(target=fetch, args=(port, "/players", got))
        first.start()
        assert site.building.wait(LIMITS.head_s), "the league was not being built"
        second = threading.Thread(target=fetch, args=(port, "/players", got))
        second.start()  # while the first is built: it shares that build
        broadcast.send("card t1", sse("card", {"id": "t1", "html": "still live"}))
        # The hub sends its streams every flush_s; a stream stalled by the build would get
        # it only once the build ended, and the build goes on until this test lets it
        try:
            read_until(sock, b"still live")
        except TimeoutError:
            pytest.fail(f"no update within {LIMITS.head_s} s while the page was built")
        assert site.spinning and not site.released.is_set(), "the update came after the build"
        site.released.set()
        first.join(2 * SPIN_CAP_S)
        second.join(2 * SPIN_CAP_S)
    finally:
        site.released.set()
        sock.close()
        server.close()
    replies = list(got.values())
    assert len(replies) == 2 and all(isinstance(r, tuple) and r[0] == 200 for r in replies)
    assert replies[0] == replies[1] and b"Ann" in replies[0][1]  # type: ignore[index]
    assert site.asked["/players"] == 1, "two requests built the page twice"


def test_a_page_that_fails_to_build_is_a_500_and_a_log_line(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    server = serve(BrokenSite(store, store.night, lambda: 0), Broadcast())
    port = server.server_address[1]
    try:
        for path in ("/players", "/dice", "/players"):  # a failed build is not kept
            with pytest.raises(urllib.error.HTTPError) as err:
                urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=LIMITS.head_s)
            body = err.value.read().decode()
            assert err.value.code == 500
            assert "could not build this page" in body and "Traceback" not in body
            assert "went away" not in body  # what went wrong is for the log, not the browser
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/night.json",
                                    timeout=LIMITS.head_s) as reply:
            assert reply.status == 200  # and the hub goes on
    finally:
        server.close()
    said = [r.getMessage() for r in caplog.records if "could not be built" in r.getMessage()]
    assert len(said) == 3
    assert "'/players'" in said[0] and "RuntimeError: the night's file went away" in said[0]
    assert all(not r.exc_info for r in caplog.records  # one line, no traceback
               if r.name.startswith("table_companion"))


def test_a_hub_stopping_does_not_wait_for_a_page_being_built(store: Store) -> None:
    site = SlowSite(store)
    server = serve(site, Broadcast())
    port = server.server_address[1]
    got: dict[str, object] = {}
    asking = threading.Thread(target=fetch, args=(port, "/dice", got))
    asking.start()
    try:
        assert site.building.wait(LIMITS.head_s), "every night's dice were not being built"
        server.close()
        assert site.spinning, "the hub waited for the page to be built"
        assert not server._thread.is_alive()  # its event loop ended
        asking.join(LIMITS.head_s)
        assert not asking.is_alive()
        assert isinstance(next(iter(got.values())), Exception)  # its connection ended
    finally:
        site.released.set()


def test_an_older_nights_pages_and_the_night_list_are_built_off_the_loop(store: Store) -> None:
    site = Site(store, store.night, lambda: 0)
    assert store.latest == "2026-11-21"
    for path in ("/nights/2026-11-20", "/nights/2026-11-20.json", "/nights/2026-11-20.csv",
                 "/nights/2026-11-20/dice", "/nights", "/players", "/dice", "/league.csv"):
        assert site.heavy(path), path
    for path in ("/nights/2026-11-21", "/nights/2026-11-21.json", "/nights/2026-11-21/dice",
                 "/night.json", "/nights/2026-11-20/t1/1"):  # tonight's rows, or one game
        assert not site.heavy(path), path


def test_the_players_page_is_rendered_once_a_version_and_bounded(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    site = Site(store, store.night, lambda: 0)
    rendered: list[int] = []
    real = league_pages.players_page
    monkeypatch.setattr(league_pages, "players_page",
                        lambda league: rendered.append(1) or real(league))
    first = site.get("/players")
    again = site.get("/players")
    assert first is not None and again is not None and again.data is first.data
    assert len(rendered) == 1
    later = game("2026-11-21", "t2", 3)
    store.apply(replace(later, players=(*later.players[:1], topics.Player(1, "Cy", 1, 2))))
    store.apply(Live("t2", "T2", "", (), "", "idle", (), (), "", 0, (3,), later.ended))
    changed = site.get("/players")
    assert changed is not None and b"Cy" in changed.data and len(rendered) == 2
    few = real(site.league(), most=2)
    assert "The first 2 of 3 players" in few and few.count("<tr><td>") == 2
