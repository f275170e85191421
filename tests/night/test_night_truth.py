"""The page tells the truth: a banner when the hub has lost the broker, "last heard ... ago"
on a table gone quiet, and systemd told (READY, WATCHDOG) while the hub hears or waits for
an absent broker, never while it is connected yet deaf; with a
real broker that is killed or frozen, real publishers and a real hub, and the page in
headless Chromium.
"""

from __future__ import annotations

import contextlib
import html
import itertools
import logging
import re
import signal
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from night_parts import (
    HUB_USER,
    KEEPALIVE_S,
    PASSWORD,
    PHONE,
    ROOT,
    SHIPPED,
    Broker,
    Hub,
    Table,
    hang_up,
    mqtt_client,
    send,
    until,
)

from firmware_host.hub.listener import Listener
from firmware_host.hub.server import Broadcast
from firmware_host.hub.store import Store
from firmware_host.hub.watch import Watch
from firmware_host.night import topics
from firmware_host.night.broker import free_port
from firmware_host.night.mqtt import Link

BANNER_WITHIN_S = 10.0
# The unit's WatchdogSec=30 against its 10 s keep-alive, at the tests' keep-alive; a broker
# away three times as long
WATCHDOG_S = 30 / 10 * KEEPALIVE_S
OUTAGE_S = 3 * WATCHDOG_S
SHOT = ROOT / "build" / "night" / "page-lost-broker-390x844.png"


class Notified:
    """A socket standing in for systemd's ``$NOTIFY_SOCKET``, and what was said to it."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "notify"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.sock.settimeout(0.2)
        self.said: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                self.said.append((time.monotonic(), self.sock.recv(4096).decode()))

    def since(self, moment: float, what: str) -> int:
        return sum(1 for at, said in self.said if at >= moment and said == what)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


@pytest.fixture
def notified(tmp_path: Path) -> Iterator[Notified]:
    made = Notified(tmp_path)
    yield made
    made.close()


def test_the_page_shows_a_quiet_table_and_the_brokers_loss_within_10_s(
        browser: Any, broker: Broker, hub: Hub, tables: list[Table]) -> None:
    tables[0].play()  # a journal to follow
    publisher = tables[0].publish()
    until(lambda: (hub.table("table-1") or {}).get("online"), 10, "table 1 online")
    page = browser.new_page(viewport=PHONE)
    page.goto(hub.url, wait_until="domcontentloaded")
    page.wait_for_selector("#link:text-is('live')", timeout=10_000)
    assert page.locator("#banner").is_hidden()
    time.sleep(2 * KEEPALIVE_S)  # a table that plays nothing is still heard: its status
    assert page.locator("#table-table-1 .heard").count() == 0

    publisher.send(signal.SIGSTOP)  # its Wi-Fi gone: the card says since when
    page.wait_for_selector("#table-table-1 .heard", timeout=(KEEPALIVE_S + 3) * 1000)
    assert page.locator("#table-table-1 .heard").inner_text().startswith("last heard ")
    page.wait_for_selector("#table-table-1.offline", timeout=10_000)  # then its will
    publisher.send(signal.SIGCONT)
    page.wait_for_selector("#table-table-1.online", timeout=15_000)
    page.wait_for_selector("#table-table-1 .heard", state="detached", timeout=5_000)

    lost = time.monotonic()
    broker.stop(signal.SIGKILL)
    page.wait_for_selector("#banner:not([hidden])", timeout=BANNER_WITHIN_S * 1000)
    shown_after = time.monotonic() - lost
    assert shown_after <= BANNER_WITHIN_S
    assert "lost the broker" in page.locator("#banner").inner_text()
    assert "lost the broker" in hub.night()["trouble"]
    page.wait_for_selector("#table-table-1 .heard", timeout=(KEEPALIVE_S + 3) * 1000)
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOT))
    reloaded = browser.new_page(viewport=PHONE)  # a phone that opens the page now sees it too
    reloaded.goto(hub.url, wait_until="domcontentloaded")
    assert "lost the broker" in reloaded.locator("#banner").inner_text()
    reloaded.close()

    broker.start()
    page.wait_for_selector("#banner", state="hidden", timeout=20_000)
    assert hub.night()["trouble"] == ""
    print(f"banner shown {shown_after:.2f} s after the broker was killed")
    page.close()


def gaps(said: list[tuple[float, str]], what: str, start: float, end: float) -> float:
    """The longest time between ``start``, each ``what`` said, and ``end``."""
    moments = [start, *(at for at, line in said if line == what and start < at < end), end]
    return max(later - earlier for earlier, later in itertools.pairwise(moments))


class Probe:
    """A phone asking for ``url`` every quarter second, in a thread: what each answer's
    banner said (None: no answer, an error or slower than a second)."""

    BANNER = re.compile(r'<div id="banner" class="banner" role="alert">([^<]*)</div>')

    def __init__(self, url: str) -> None:
        self.url = url
        self.answers: list[str | None] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            try:
                with urllib.request.urlopen(self.url, timeout=1.0) as reply:
                    found = self.BANNER.search(reply.read().decode())
                    self.answers.append(html.unescape(found[1]) if found else "")
            except OSError:
                self.answers.append(None)

    def stop(self) -> list[str | None]:
        self._stop.set()
        self._thread.join()
        return self.answers


class Stream:
    """A phone's event stream, read in a thread until the hub ends it."""

    def __init__(self, url: str) -> None:
        self.reply = urllib.request.urlopen(url + "events", timeout=60)
        self.events: list[str] = []
        self.ended = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in self.reply:
                if line.startswith(b"event: "):
                    self.events.append(line[7:].decode().strip())
        self.ended.set()


@pytest.fixture
def watched_hub(tmp_path: Path, broker: Broker, notified: Notified) -> Iterator[Hub]:
    """The hub under a stand-in for systemd, with a table online."""
    hub = Hub(tmp_path, broker, env={"NOTIFY_SOCKET": str(notified.path)}).start()
    yield hub
    if broker.process is not None:
        broker.process.send_signal(signal.SIGCONT)
    assert hub.tool is not None
    hub.tool.stop()
    assert notified.since(0, "STOPPING=1") == 1


def online(hub: Hub, notified: Notified, tables: list[Table]) -> None:
    until(lambda: notified.since(0, "READY=1"), 5, "READY=1")
    tables[0].play()  # a journal to follow
    tables[0].publish()
    until(lambda: (hub.table("table-1") or {}).get("online"), 10, "table 1 online")
    start = time.monotonic()
    until(lambda: notified.since(start, "WATCHDOG=1") >= 2, 5, "watchdog pings")


def test_a_broker_away_longer_than_the_watchdog_restarts_nothing_and_the_banner_says_since(
        broker: Broker, tables: list[Table], notified: Notified, watched_hub: Hub) -> None:
    """The outage the night saw (150 s, WatchdogSec=30 with a 10 s keep-alive), scaled to
    the tests' keep-alive: systemd would have restarted a hub that stopped pinging."""
    hub = watched_hub
    online(hub, notified, tables)
    stream = Stream(hub.url)
    probe = Probe(hub.url)
    assert broker.process is not None
    gone = datetime.now()
    lost = time.monotonic()
    broker.stop(signal.SIGKILL)
    time.sleep(OUTAGE_S)
    back = time.monotonic()
    broker.start()
    until(lambda: hub.night()["trouble"] == "", 20, "the banner gone once the broker is back")
    time.sleep(1.0)
    answers = probe.stop()

    assert gaps(notified.said, "WATCHDOG=1", lost, back) < WATCHDOG_S
    assert notified.since(0, "READY=1") == 1, "the hub started again"
    assert hub.tool is not None and hub.tool.process is not None
    assert hub.tool.process.poll() is None
    assert None not in answers, f"{answers.count(None)} of {len(answers)} probes failed"
    banners = [banner for banner in answers if banner]
    assert len(banners) >= OUTAGE_S * 2, answers  # every probe of the outage, but the first
    at = {f"{gone:%H:%M}", f"{gone + timedelta(seconds=BANNER_WITHIN_S):%H:%M}"}
    assert len(set(banners)) == 1 and any(f"lost the broker at {t}:" in banners[0] for t in at)
    assert answers[-1] == ""
    assert not stream.ended.is_set(), "the event stream was dropped"
    assert stream.events.count("banner") == 2  # shown, then taken down
    stream.reply.close()


def test_a_frozen_broker_is_an_outage_too(
        broker: Broker, tables: list[Table], notified: Notified, watched_hub: Hub) -> None:
    """A broker that answers nothing (stopped, not gone): the hub's keep-alive gives up on
    it and tries again; it is away, not the hub's fault."""
    hub = watched_hub
    online(hub, notified, tables)
    assert broker.process is not None
    frozen = time.monotonic()
    broker.process.send_signal(signal.SIGSTOP)
    until(lambda: any(said.startswith("STATUS=The hub") for at, said in notified.said
                      if at > frozen), 4 * KEEPALIVE_S + 2, "the hub telling systemd its trouble")
    time.sleep(2 * WATCHDOG_S)
    assert "lost the broker" in hub.night()["trouble"]
    back = time.monotonic()
    broker.process.send_signal(signal.SIGCONT)
    until(lambda: hub.night()["trouble"] == "", 20, "the banner gone once the broker answers")
    assert gaps(notified.said, "WATCHDOG=1", frozen, back) < WATCHDOG_S
    assert notified.since(0, "READY=1") == 1


def test_a_hub_connected_yet_deaf_stops_pinging_the_watchdog(
        broker: Broker, tables: list[Table], notified: Notified, watched_hub: Hub) -> None:
    """Connected, but the broker passes it nothing (here: the ACL no longer lets it read):
    a restart is systemd's to try, so the pings stop; they start again once it hears."""
    hub = watched_hub
    online(hub, notified, tables)
    config = broker.folder / "mosquitto.conf"
    shipped = config.read_text()
    acl = broker.folder / "deaf.acl"
    acl.write_text((SHIPPED / "table-companion.acl").read_text().replace(
        "topic read tc/#", ""))
    config.write_text(re.sub(r"(?m)^acl_file .*$", f"acl_file {acl}", shipped))
    assert broker.process is not None
    broker.process.send_signal(signal.SIGHUP)
    deaf = time.monotonic()
    until(lambda: any(said.startswith("STATUS=The hub has heard nothing") for at, said
                      in notified.said if at > deaf), 4 * KEEPALIVE_S + 2, "the hub deaf")
    quiet_from = time.monotonic() + 1.5
    time.sleep(WATCHDOG_S)
    assert notified.since(quiet_from, "WATCHDOG=1") == 0, "pinged while deaf"
    assert "heard nothing" in hub.night()["trouble"]

    back = time.monotonic()
    config.write_text(shipped)
    broker.process.send_signal(signal.SIGHUP)
    until(lambda: notified.since(back, "WATCHDOG=1") >= 2, 20, "pings again once heard")
    assert notified.since(back, "STATUS=hearing the tables") == 1
    assert hub.night()["trouble"] == ""


def test_a_link_whose_thread_ends_is_seen_dead_and_the_watchdog_is_not_pinged(
        tmp_path: Path, broker: Broker, notified: Notified, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """paho's thread ended by an exception the hub did not catch (none is known now: this
    stands for the next one)."""
    monkeypatch.setenv("NOTIFY_SOCKET", str(notified.path))
    log = logging.getLogger("test.link")
    link = Link(topics.parse_broker(broker.url), HUB_USER, PASSWORD, keepalive=KEEPALIVE_S,
                log=log)
    store = Store.open(tmp_path / "night.sqlite3")
    listener = Listener(store, link, Broadcast())
    watch = Watch(listener, KEEPALIVE_S)

    def broken(*args: Any) -> None:
        raise RuntimeError("a bug in a callback")

    link.start()
    until(link.is_connected, 5, "the link connected")
    watch.tick()
    assert watch.trouble == ""
    until(lambda: notified.since(0, "WATCHDOG=1") == 1, 2, "a ping while the link lives")
    link.client.on_message = broken
    table = mqtt_client(broker, "table-1")
    send(table, topics.status_topic("table-1"), b"online")
    until(lambda: not link.alive(), 5, "the link's thread ended")
    assert "the link to the broker" in caplog.text and "RuntimeError" in caplog.text
    pinged = time.monotonic()
    watch.tick()
    assert watch.trouble.startswith("The hub stopped listening")
    time.sleep(0.3)
    assert notified.since(pinged, "WATCHDOG=1") == 0
    hang_up(table)
    link.stop()
    store.close()


def test_a_link_trying_to_reach_an_absent_broker_is_doing_its_job_until_it_stalls(
        ) -> None:
    link = Link(topics.parse_broker(f"mqtt://127.0.0.1:{free_port()}"), HUB_USER, PASSWORD,
                keepalive=KEEPALIVE_S, log=logging.getLogger("test.link"))
    assert not link.trying(), "not started"
    link.start()
    try:
        started = time.monotonic()
        until(lambda: link.attempted_at > started, 20, "an attempt to connect")  # a busy machine
        assert link.trying() and not link.is_connected()
        assert link.patience() == 10 + KEEPALIVE_S + 8 + 4
        # no attempt begun for longer than a working thread ever waits: stuck
        assert not link.trying(link.attempted_at + link.patience() + 0.1)
    finally:
        link.stop()
    assert not link.alive() and not link.trying()


def test_refusals_are_all_counted_and_logged_at_most_ten_lines_a_minute(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    link = Link(topics.parse_broker("mqtt://127.0.0.1:1"), HUB_USER, PASSWORD,
                keepalive=KEEPALIVE_S, log=logging.getLogger("test.link"))
    store = Store.open(tmp_path / "night.sqlite3")
    listener = Listener(store, link, Broadcast())
    now = [1000.0]
    monkeypatch.setattr("firmware_host.hub.listener.time.monotonic", lambda: now[0])
    with caplog.at_level(logging.WARNING, "table_companion.hub"):
        for n in range(500):
            listener.reject("tc/table-1/live", f"bad {n}")
        assert listener.rejected == 500 and len(caplog.records) == 10
        now[0] += 61
        listener.reject("tc/table-1/live", "bad again")
    assert len(caplog.records) == 11
    assert caplog.records[-1].getMessage() == (
        "refused message #501 on 'tc/table-1/live': bad again (490 more refused before it, "
        "only counted)")
    store.close()
