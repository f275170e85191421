"""Security at a game night, against the real broker with the shipped ACL and a real hub:
who may write where, a wrong password, a refused certificate, messages that break the
contract, a read-only page; and the hub's server over a store, asked with raw sockets as a
hostile guest would: no request writes a traceback, and none costs the event loop a QR code
per new Host.
"""

from __future__ import annotations

import logging
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hub_helpers import serving
from night_parts import (
    HUB_USER,
    NIGHT_CERTS,
    PASSWORD,
    ROOT,
    Broker,
    Hub,
    Table,
    hang_up,
    mqtt_client,
    send,
    until,
)

from firmware_host.hub import tv
from firmware_host.hub.server import TALLY_S, Tally
from firmware_host.hub.store import Store
from firmware_host.journal import night_of
from firmware_host.night import topics

LIVE = topics.Live("table-2", "Table 2", "Dalmatian", ("Mallory", "Eve"), "Mallory", "roll",
                   (6, 6), (999, 0), "roll 6-6", 3, (), "2026-11-24T20:00:00+00:00")


def test_a_table_writes_only_its_own_topics_and_the_hub_only_reads(
        broker: Broker, hub: Hub) -> None:
    table1 = mqtt_client(broker, "table-1")
    send(table1, topics.live_topic("table-2"), topics.live_payload(LIVE))  # not its own
    send(table1, topics.status_topic("table-2"), b"online")
    hub_user = mqtt_client(broker, HUB_USER)  # the hub's login, so the hub is put off a while
    send(hub_user, topics.status_topic("table-3"), b"online")  # the hub may not write
    hang_up(hub_user)
    send(table1, topics.live_topic("table-1"),  # its own: taken
         topics.live_payload(replace(LIVE, table="table-1", name="Table 1")))
    until(lambda: hub.table("table-1"), 5, "table 1's own live state at the hub")
    assert hub.table("table-2") is None and hub.table("table-3") is None
    assert "Denied PUBLISH from table-1" in broker.log  # a login's client id is its user
    assert "Denied PUBLISH from night_hub" in broker.log
    hang_up(table1)


def test_a_wrong_password_is_refused_and_the_table_says_so(
        broker: Broker, hub: Hub, tables: list[Table]) -> None:
    assert mqtt_client(broker, "table-1", "guess").refused == "Not authorized"
    tables[0].password = "guess"
    publisher = tables[0].write().publish()  # stopped by the fixture
    until(lambda: "refused table-1: Not authorized" in publisher.output(), 10,
          "the publisher logging its refusal")
    time.sleep(2)  # a retry or two
    assert publisher.output().count("refused table-1") == 1  # once, not at every retry
    assert hub.table("table-1") is None


def other_authority(tmp_path: Path) -> Path:
    """The certificate of a night's authority that did not make the broker's."""
    subprocess.run([NIGHT_CERTS, str(tmp_path / "other"), "localhost", "127.0.0.1"],
                   check=True, capture_output=True)
    return tmp_path / "other" / "night-ca.crt"


def by_address_only(broker: Broker) -> str:
    """The broker's certificate made again for 127.0.0.1 alone; its URL by another name."""
    subprocess.run([NIGHT_CERTS, str(broker.ca.parent), "127.0.0.1"], check=True,
                   capture_output=True)
    broker.stop()
    broker.start()
    return f"mqtts://localhost:{broker.tls_port}"


@pytest.mark.parametrize("wrong, check", [
    ("ca", "check the CA file ({ca}): it must be the night's night-ca.crt"),
    ("host", "check the host name in the broker URL (localhost) against the names"),
    ("away", "cannot reach the broker mqtts://127.0.0.1:{port}; trying again")])
def test_a_refused_handshake_is_one_line_a_streak_saying_what_to_check(
        tmp_path: Path, broker: Broker, hub: Hub, tables: list[Table], wrong: str,
        check: str) -> None:
    table = tables[0]
    table.broker_url = broker.tls_url
    if wrong == "host":
        table.broker_url = by_address_only(broker)
    table.write()
    ca = broker.ca
    if wrong == "ca":
        ca = other_authority(tmp_path)
        table.config.write_text(table.config.read_text().replace(str(broker.ca), str(ca)))
    if wrong == "away":
        broker.stop()
    table.play()
    publisher = table.publish()
    line = check.format(ca=ca, port=broker.tls_port)
    until(lambda: line in publisher.output(), 10, "the publisher saying what to check")
    time.sleep(4)  # retries after 1, 2 and 4 s
    said = [said for said in publisher.output().splitlines() if "the broker" in said]
    assert len(said) == 1, said  # once, not at every retry
    if wrong == "away":
        broker.start()
        until(lambda: "connected to" in publisher.output(), 15, "connected once it is back")
    else:
        assert "certificate was refused" in said[0]
        assert hub.table("table-1") is None


def seat_clear(tmp_path: Path, url: str, *ca: str) -> subprocess.CompletedProcess[str]:
    secret = tmp_path / "host-password"
    secret.write_text(PASSWORD + "\n")
    secret.chmod(0o600)
    return subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "seat", "--clear", "--broker", url,
         "--password-file", str(secret), *ca], cwd=ROOT, capture_output=True, text=True,
        timeout=60)


def test_seat_trusts_the_nights_authority_with_ca_and_says_a_refusal_in_one_line(
        tmp_path: Path, broker: Broker) -> None:
    done = seat_clear(tmp_path, broker.tls_url, "--ca", str(broker.ca))
    assert done.returncode == 0, done.stderr
    assert "cleared" in done.stderr
    for ca, check in ((None, "only the system's authorities were trusted: give the night's"),
                      (other_authority(tmp_path), "check the CA file"),
                      (tmp_path / "none.crt", "No such file or directory")):
        done = seat_clear(tmp_path, broker.tls_url, *(["--ca", str(ca)] if ca else []))
        assert done.returncode == 2 and check in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    done = seat_clear(tmp_path, by_address_only(broker), "--ca", str(broker.ca))
    assert done.returncode == 2 and "host name in the broker URL (localhost)" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_missing_or_open_password_file_is_one_line_naming_the_config_key(
        tables: list[Table]) -> None:
    table = tables[0]
    (table.folder / "password").chmod(0o644)
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "publish", "--config",
                           str(table.config)], cwd=ROOT, capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"table-companion publish: error: {table.config}, line 6: night.credentials: "
        f"{table.folder / 'password'} may be read by others (mode 644); "
        f"chmod 600 {table.folder / 'password'}"]


def test_malformed_and_oversized_messages_are_counted_logged_and_survived(
        broker: Broker, hub: Hub) -> None:
    at_the_door = mqtt_client(broker, "table-1")  # the broker stops these before the hub
    send(at_the_door, "tc/table-1/other", b"{}")  # no topic of the contract
    send(at_the_door, topics.game_topic("table-1", 1), b"{" + b" " * 20_000 + b"}")  # too big
    hang_up(at_the_door)
    table1 = mqtt_client(broker, "table-1")
    good = topics.live_payload(replace(LIVE, table="table-1", name="Table 1"))
    bad = [
        (topics.live_topic("table-1"), b"not json"),
        (topics.live_topic("table-1"), good.replace(b'"dice":[6,6]', b'"dice":[7]')),
        (topics.game_topic("table-1", 2), b"{" + b" " * 16_000 + b"}"),  # no game in it
        (topics.status_topic("table-1"), b"maybe"),
    ]
    for topic, payload in bad:
        send(table1, topic, payload)
    send(table1, topics.live_topic("table-1"), good)
    until(lambda: hub.table("table-1"), 5, "the good message after the bad ones")
    # the count is read from the hub's page, which may still be the one drawn a moment before
    until(lambda: hub.night()["rejected"] == len(bad), 5, f"{len(bad)} refusals counted")
    assert hub.tool is not None and hub.tool.process is not None
    assert hub.tool.process.poll() is None
    until(lambda: hub.tool.output().count("refused message") == len(bad), 5,
          f"{len(bad)} refusals logged")
    assert hub.night()["rejected"] == len(bad)
    hang_up(table1)


def test_the_page_is_read_only_escaped_and_sent_with_a_strict_policy(
        broker: Broker, hub: Hub) -> None:
    table1 = mqtt_client(broker, "table-1")
    name = "<script>alert(1)</script>"
    send(table1, topics.live_topic("table-1"), topics.live_payload(
        replace(LIVE, table="table-1", name="Table 1", players=(name, "Eve"), turn=name)))
    until(lambda: hub.table("table-1"), 5, "table 1 at the hub")
    with urllib.request.urlopen(hub.url, timeout=5) as reply:
        html = reply.read().decode()
        policy = reply.headers["Content-Security-Policy"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and name not in html
    assert "default-src 'none'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    request = urllib.request.Request(hub.url + "night.json", data=b"{}", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    assert refused.value.code == 405
    hang_up(table1)


# Payloads that deafened the hub for good (paho's thread ended on what the parser or the
# store raised), each on a topic of its own so that all of them stay retained at once
POISON = {
    topics.live_topic("table-2"): b'{"v":1,"players":' + b"[" * 8000 + b"]" * 8000 + b"}",
    topics.game_topic("table-2", 1): b"[" * 16_000,
    topics.game_topic("table-2", 2): b'{"v":1,"id":' + b"9" * 5000 + b"}",
    topics.game_topic("table-2", 3): b'{"v":1,"players":[{"score":1e999}]}',
    topics.live_topic("table-3"): topics.live_payload(LIVE).replace(b"Mallory", b"\\ud800"),
}


def test_no_message_deafens_the_hub_live_retained_or_after_a_restart(
        broker: Broker, hub: Hub) -> None:
    table1, table2, table3 = (mqtt_client(broker, f"table-{n}") for n in (1, 2, 3))
    for topic, payload in POISON.items():
        send(table2 if "table-2" in topic else table3, topic, payload)

    def heard(moves: int) -> bool:
        """Table 1's live state with ``moves`` moves reaches the page: the hub still hears."""
        send(table1, topics.live_topic("table-1"), topics.live_payload(
            replace(LIVE, table="table-1", name="Table 1", moves=moves)))
        until(lambda: ((hub.table("table-1") or {}).get("live") or {}).get("moves") == moves, 5,
              f"table 1's state with {moves} moves at the hub")
        return True

    assert heard(1)
    assert hub.night()["rejected"] == len(POISON)
    assert hub.table("table-2") is None and hub.table("table-3") is None
    assert hub.tool is not None
    for restart in range(2):  # every retained poison comes again to each new hub
        hub.tool.stop()
        hub.start()
        assert heard(2 + restart)
        assert hub.night()["rejected"] == len(POISON)
        assert "Traceback" not in hub.tool.output()
    for client in (table1, table2, table3):
        hang_up(client)


def test_a_forged_date_hides_no_table(broker: Broker, hub: Hub, tables: list[Table]) -> None:
    for table in tables[:2]:
        table.publish()
        table.play()
    journals = tables[0].finished() | tables[1].finished()
    until(lambda: set(hub.results()) == journals, 10, "both tables' games at the hub")
    tonight = hub.night()["night"]
    assert tonight == night_of(datetime.now().astimezone()).isoformat()

    forger = mqtt_client(broker, "table-3")
    now = datetime.now(UTC)
    far = "9999-12-31T21:00:00+00:00"
    game = topics.Game("table-3", "Table 3", 1, "Dalmatian", far, far, "9999-12-31",
                       (topics.Player(0, "Mallory", 99, 1),))
    ahead = replace(game, id=2, started=now.isoformat(), ended=now.isoformat())  # dated only
    send(forger, topics.game_topic("table-3", 1), topics.game_payload(game))
    send(forger, topics.game_topic("table-3", 2), topics.game_payload(ahead))
    live = replace(LIVE, table="table-3", name="Table 3", players=("Mallory",),
                   turn="Mallory", finished=(1, 2), at="2099-01-01T00:00:00+00:00")
    send(forger, topics.live_topic("table-3"), topics.live_payload(live))  # would freeze
    send(forger, topics.live_topic("table-3"), topics.live_payload(
        replace(live, moves=4, at=now.isoformat())))
    until(lambda: len(hub.results()) == len(journals) + 1, 5, "the forger's one game shown")
    night = hub.night()
    assert night["night"] == tonight
    assert set(hub.results()) == journals | {("table-3", 2, (("Mallory", 99, 1),))}
    assert {row["name"] for row in night["standings"]} >= {"Ann", "Cat", "Mallory"}
    assert (hub.table("table-3") or {})["live"]["moves"] == 4  # not frozen by 2099
    assert night["rejected"] == 2  # 9999-12-31 and 2099
    hang_up(forger)


def test_nothing_a_message_holds_raises_past_the_handler(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In the hub's process, with what paho hands it: a topic that is not UTF-8, a store
    that fails; each is counted, and the next good message is taken."""
    import paho.mqtt.client as paho

    from firmware_host.hub.listener import Listener
    from firmware_host.hub.server import Broadcast
    from firmware_host.hub.store import Store
    from firmware_host.night.mqtt import Link

    link = Link(topics.parse_broker("mqtt://127.0.0.1:1"), HUB_USER, "x", keepalive=2,
                log=logging.getLogger("test.link"))
    store = Store.open(tmp_path / "night.sqlite3")
    listener = Listener(store, link, Broadcast())

    def message(topic: bytes, payload: bytes) -> paho.MQTTMessage:
        made = paho.MQTTMessage(topic=topic)
        made.payload = payload
        return made

    live = topics.live_payload(replace(LIVE, table="table-1", name="Table 1",
                                       at=datetime.now(UTC).isoformat()))
    assert link.client.on_message is not None
    link.client.on_message(link.client, None, message(b"tc/\xff/live", live))
    with monkeypatch.context() as patched:
        patched.setattr(store, "apply", lambda message: 1 / 0)
        link.client.on_message(link.client, None, message(b"tc/table-1/live", live))
    assert listener.rejected == 2 and store.table("table-1") is None
    link.client.on_message(link.client, None, message(b"tc/table-1/live", live))
    assert store.table("table-1") is not None
    store.close()


def broker_rss_kb(broker: Broker) -> int:
    assert broker.process is not None
    status = Path(f"/proc/{broker.process.pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines()
                    if line.startswith("VmRSS:")))


def test_the_broker_keeps_nothing_a_table_sends_beside_its_three_topics(
        broker: Broker, readers: tuple[str, ...]) -> None:
    """Junk under a table's own id, and messages larger than the hub takes, are refused at
    the broker: nothing is retained, and its memory does not grow with the attempts."""
    before = broker_rss_kb(broker)
    table3 = mqtt_client(broker, "table-3")
    for n in range(300):
        table3.publish(f"tc/table-3/junk/{n}", b"x" * 1000, qos=0, retain=True)
    send(table3, topics.status_topic("table-3"), b"online")  # its own topic: still taken
    hang_up(table3)
    for n in range(40):  # each too large for the hub: the broker drops the connection
        client = mqtt_client(broker, "table-3")
        client.publish(topics.game_topic("table-3", n + 1), b"x" * 60_000, qos=0, retain=True)
        hang_up(client)
    seen: list[str] = []
    observer = mqtt_client(broker, readers[0])
    observer.on_message = lambda client, userdata, message: seen.append(message.topic)
    observer.subscribe("tc/#", qos=1)
    until(lambda: "tc/table-3/status" in seen, 5, "the table's own retained status")
    time.sleep(0.5)  # anything else retained arrives with it
    hang_up(observer)
    assert seen == ["tc/table-3/status"]
    assert "Denied PUBLISH from table-3" in broker.log
    assert broker_rss_kb(broker) - before < 10_000  # kB: nothing kept of 12 MB sent


@pytest.fixture
def readers() -> tuple[str, ...]:
    return ("observer",)


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


def test_the_browsers_icon_is_there(served: str) -> None:
    reply = ask(served, b"/favicon.ico")
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK") and b"image/vnd.microsoft.icon" in head
    assert body.startswith(b"\x00\x00\x01\x00")  # an ICO file
