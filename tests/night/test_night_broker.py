"""The broker as the shipped config sets it up, attacked as a guest on the night's Wi-Fi
would: logins that try to take over another's connection, a recorder between a table and
the broker, and a hub restarted late in a big night that must get the whole of it again.
"""

from __future__ import annotations

import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from night_parts import (
    HUB_USER,
    MOSQUITTO,
    PASSWORD,
    ROOT,
    Broker,
    Hub,
    Table,
    hang_up,
    missing,
    mqtt_client,
    send,
    until,
)

from firmware_host.night import topics


@contextmanager
def relay(port: int) -> Iterator[tuple[int, bytearray]]:
    """A loopback relay to ``port`` recording every byte both ways: the listening port and
    the bytes, as a guest watching the Wi-Fi would see them."""
    recorded = bytearray()
    server = socket.create_server(("127.0.0.1", 0))
    done = threading.Event()

    def pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                recorded.extend(data)
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (src, dst):
                with suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def accept() -> None:
        server.settimeout(0.2)
        while not done.is_set():
            try:
                near, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:  # closed: the test is over
                return
            far = socket.create_connection(("127.0.0.1", port))
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=pipe, args=(a, b), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield server.getsockname()[1], recorded
    finally:
        done.set()
        server.close()


def test_a_login_cannot_take_over_another_s_connection(
        broker: Broker, hub: Hub, tables: list[Table]) -> None:
    table1 = tables[0]
    table1.publish()
    table1.play()
    until(lambda: (hub.table("table-1") or {}).get("online"), 10, "table 1 online")
    attempts = []
    for round_ in range(3):
        for client_id in ("tc-table-1", "tc-night_hub", "table-1", HUB_USER):
            for tls in (False, True):
                attacker = mqtt_client(broker, "table-2", client_id=client_id, tls=tls)
                attempts.append(attacker.refused)
                time.sleep(0.05)
                hang_up(attacker)
        assert (hub.table("table-1") or {}).get("online"), f"table 1 offline in round {round_}"
    assert attempts == [None] * 24  # table-2 logged in every time, as itself
    time.sleep(1.5)  # a kicked client would have noticed and logged it by now
    assert hub.tool is not None and table1.publisher is not None
    for log in (hub.tool.output(), table1.publisher.output()):
        assert "lost the broker" not in log
    assert "as table-1 " not in broker.log.split("New client connected from")[-1]
    assert broker.log.count("as table-2 (") == 24


def test_no_password_crosses_the_network_in_clear(
        broker: Broker, hub: Hub, tables: list[Table]) -> None:
    with relay(broker.port) as (port, recorded):  # the plain listener shows what a guest sees
        client = mqtt_client(broker, "table-3", port=port)
        hang_up(client)
        until(lambda: PASSWORD.encode() in recorded, 5, "the password read off plain TCP")
    with relay(broker.tls_port) as (port, recorded):
        table = tables[0]
        table.broker_url = f"mqtts://127.0.0.1:{port}"
        table.write().publish()
        table.play()
        until(lambda: ((hub.table("table-1") or {}).get("live") or {}).get("game"), 15,
              "table 1's game at the hub, sent through the recorder over TLS")
        assert len(recorded) > 1000
        assert PASSWORD.encode() not in recorded
        assert b"table-1" not in recorded and b"MQTT" not in recorded  # nothing readable


def test_a_table_trusts_only_the_night_s_authority(broker: Broker) -> None:
    """A stranger's broker (a certificate from another authority) is refused: the table
    never sends its password there."""
    other = broker.folder / "other"
    mine = broker.folder / "certs"
    for name in ("night-ca.crt", "night-ca.key", "broker.crt", "broker.key"):
        other.mkdir(exist_ok=True)
        (other / name).write_bytes((mine / name).read_bytes())
    context = ssl.create_default_context()  # what paho's tls_set() without ca_certs trusts
    with socket.create_connection(("127.0.0.1", broker.tls_port)) as raw, \
            pytest.raises(ssl.SSLCertVerificationError):
        context.wrap_socket(raw, server_hostname="127.0.0.1")
    trusting = ssl.create_default_context(cafile=str(broker.ca))
    with socket.create_connection(("127.0.0.1", broker.tls_port)) as raw, \
            trusting.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
        assert tls.version() in ("TLSv1.2", "TLSv1.3")


GAMES_PER_TABLE = 50
TABLES = 20


def test_a_hub_restarted_after_a_1000_game_night_shows_every_table(tmp_path: Path) -> None:
    if MOSQUITTO is None:
        missing("mosquitto")
    folder = tmp_path / "big-broker"
    folder.mkdir()
    ids = [f"table-{n}" for n in range(1, TABLES + 1)]
    broker = Broker(folder)
    broker.write_config([HUB_USER, *ids])
    broker.start()
    hub = None
    try:
        for table in ids:  # every game retained, then the live state listing them, then online
            client = mqtt_client(broker, table)
            for game_id in range(1, GAMES_PER_TABLE + 1):
                game = topics.Game(table, table.title(), game_id, "Dalmatian",
                                   "2026-11-24T20:00:00+00:00", "2026-11-24T20:10:00+00:00",
                                   "2026-11-24", (topics.Player(1, "Ann", game_id, 1),
                                                  topics.Player(2, "Ben", 0, 2)))
                client.publish(topics.game_topic(table, game_id), topics.game_payload(game),
                               qos=1, retain=True)
            live = topics.Live(table, table.title(), "", (), "", "idle", (), (), "", 0,
                               tuple(range(1, GAMES_PER_TABLE + 1)),
                               "2026-11-24T23:00:00+00:00")
            send(client, topics.live_topic(table), topics.live_payload(live))
            send(client, topics.status_topic(table), b"online")
            hang_up(client)
        hub = Hub(tmp_path, broker, args=("--open-since", "2026-11-24")).start()
        for start in ("first", "restarted"):
            started = time.monotonic()
            until(lambda: len(hub.night()["games"]) == TABLES * GAMES_PER_TABLE
                  and sum(t["online"] for t in hub.night()["tables"]) == TABLES, 30,
                  f"the {start} hub showing 20/20 tables online and 1,000 games")
            print(f"{start} hub: the whole night in {time.monotonic() - started:.1f} s")
            assert hub.tool is not None
            hub.tool.stop()
            hub.start()
    finally:
        if hub is not None and hub.tool is not None:
            hub.tool.stop()
        broker.stop()


def test_a_missing_authority_is_one_line_naming_the_config_key(tables: list[Table]) -> None:
    table = tables[0]
    table.broker_url = table.broker.tls_url
    table.write()
    table.broker.ca.rename(table.broker.ca.with_suffix(".gone"))
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "publish", "--config",
                           str(table.config)], cwd=ROOT, capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"table-companion publish: error: night.ca: {table.broker.ca} cannot be used (No "
        "such file or directory); copy the night's night-ca.crt from the hub there"]
