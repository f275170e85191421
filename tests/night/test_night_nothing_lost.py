"""Nothing lost, nothing doubled: three tables play whole nights through the real simulator
while their publishers are killed, the broker restarts (with and without its saved state),
the hub is killed and a table is cut off; the hub ends with exactly the tables' journals.
A publisher told to stop while its broker is gone stops at once, its files as they were.
"""

from __future__ import annotations

import logging
import random
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from night_parts import (
    HOST_USER,
    HUB_USER,
    KEEPALIVE_S,
    OFFLINE_WITHIN_S,
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

from firmware_host import next_round
from firmware_host.night import topics
from firmware_host.night.mqtt import Link

ROUNDS = 4
STOPS_WITHIN_S = 3.0


def play_round(tables: list[Table], during: Callable[[], None] = lambda: None) -> None:
    """Every table plays one whole game at once, while ``during`` does its mischief."""
    failures: list[BaseException] = []

    def play(table: Table, seed: int) -> None:
        try:
            table.play("dalmatian", seed)
        except BaseException as err:  # a thread's failure is the test's
            failures.append(err)

    players = [threading.Thread(target=play, args=(table, n))
               for n, table in enumerate(tables, start=1)]
    for thread in players:
        thread.start()
    during()
    for thread in players:
        thread.join(timeout=60)
        assert not thread.is_alive(), "a simulated game did not end within 60 s"
    assert not failures, failures


def test_three_tables_lose_nothing_and_double_nothing_through_every_failure(
        broker: Broker, hub: Hub, tables: list[Table]) -> None:
    chance = random.Random(12)
    for table in tables:
        table.publish()

    def kill_a_publisher(table: Table) -> Callable[[], None]:
        def kill() -> None:
            time.sleep(chance.uniform(0.0, 0.8))  # somewhere in the middle of a game
            assert table.publisher is not None
            table.publisher.stop(signal.SIGKILL)
            table.publish()
        return kill

    def kill_the_hub() -> None:
        time.sleep(chance.uniform(0.0, 0.8))
        assert hub.tool is not None
        hub.tool.stop(signal.SIGKILL)  # and it stays down while the broker loses its state

    def cut_off_table_3() -> None:
        publisher = tables[2].publisher
        assert publisher is not None
        until(lambda: hub.table("table-3") and hub.table("table-3")["online"], 15,
              "table 3 back online after the broker lost everything")
        publisher.send(signal.SIGSTOP)  # no word from it: the broker's keep-alive notices
        cut = time.monotonic()
        until(lambda: hub.table("table-3") and not hub.table("table-3")["online"],
              OFFLINE_WITHIN_S, "table 3 shown offline after its keep-alive ran out")
        assert time.monotonic() - cut <= OFFLINE_WITHIN_S
        publisher.send(signal.SIGCONT)
        kill_a_publisher(tables[1])()

    play_round(tables, kill_a_publisher(tables[0]))
    broker.stop()  # SIGTERM: the broker saves its retained messages ...
    broker.start()  # ... and has them again
    play_round(tables, kill_the_hub)
    broker.stop(signal.SIGKILL)
    broker.forget()  # a broker that lost everything: the publishers send the night again,
    broker.start()  # or this round's games, finished while the hub was down, are lost
    hub.start()
    play_round(tables, cut_off_table_3)
    play_round(tables)

    journals = set().union(*(table.finished() for table in tables))
    assert len(journals) == ROUNDS * len(tables)
    try:
        until(lambda: set(hub.results()) == journals, 20, "the hub holding every game")
    finally:
        held = hub.results()
        print("lost:", sorted(journals - set(held)), "extra:", sorted(set(held) - journals))
    assert len(held) == len(set(held)), "a game is held twice"
    assert set(held) == journals
    until(lambda: all(t["online"] for t in hub.night()["tables"]), 10, "every table online")
    assert hub.night()["rejected"] == 0


def test_a_publisher_whose_broker_is_gone_stops_on_sigterm_within_seconds(
        broker: Broker, tables: list[Table]) -> None:
    """Stopped while its broker is gone, a publisher ends at once (systemd would otherwise
    kill it) and leaves the journal and the next round's line as they were."""
    table = tables[0]
    table.play()
    publisher = table.publish()
    host = mqtt_client(broker, HOST_USER)
    send(host, topics.SEATING, topics.seating_payload(topics.Seating(
        (topics.SeatedTable("1", "Dalmatian", ("Ann", "Ben")),), "2026-11-24T22:00:00+01:00")))
    hang_up(host)
    line = next_round.beside(table.journal)
    until(line.exists, 10, "the table's line beside its journal")
    games = table.finished()
    broker.stop(signal.SIGKILL)
    until(lambda: "lost the broker" in publisher.output(), 10, "the publisher losing it")
    time.sleep(1.5)  # retrying by now
    assert publisher.process is not None
    asked = time.monotonic()
    publisher.send(signal.SIGTERM)
    assert publisher.process.wait(timeout=20) == 0
    assert time.monotonic() - asked < STOPS_WITHIN_S, publisher.output()
    table.publisher = None
    assert next_round.read(line) == "Next round: table 1 with Ann, Ben"
    assert table.finished() == games and len(games) == 1


STOP_ROUNDS = 30
SIGNALLED = f"""
from firmware_host.signals import StopFlag
for n in range({STOP_ROUNDS}):
    stop = StopFlag.on_signals()
    print(n, flush=True)
    while not stop.wait(0):  # the waiter's lock held as often as it can be
        pass
"""


def test_a_stop_signal_is_taken_wherever_it_finds_the_waiter() -> None:
    """A signal may come while the waiter holds its lock; a handler that took that lock
    (threading.Event.set) waited for ever about every other time here."""
    waiter = subprocess.Popen([sys.executable, "-c", SIGNALLED], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    assert waiter.stdout is not None
    try:
        for n in range(STOP_ROUNDS):
            ready, _, _ = select.select([waiter.stdout], [], [], STOPS_WITHIN_S)
            assert ready, f"stop {n} not taken within {STOPS_WITHIN_S} s"
            assert waiter.stdout.readline() == f"{n}\n"
            time.sleep(random.uniform(0.0, 0.01))
            waiter.send_signal(signal.SIGTERM)
        assert waiter.wait(timeout=STOPS_WITHIN_S) == 0
    finally:
        waiter.kill()
        waiter.wait()


def test_a_link_stopped_while_it_opens_its_connection_stops_at_once(broker: Broker) -> None:
    """Told to stop between paho's choice to connect and its socket (where a slow lookup of
    hub.local keeps it), the link still ends: paho forgets a disconnect asked then."""
    link = Link(topics.parse_broker(broker.url), HUB_USER, PASSWORD, keepalive=KEEPALIVE_S,
                log=logging.getLogger("test"))
    opening = threading.Event()

    def slow_lookup(client: Any, userdata: Any) -> None:
        opening.set()
        time.sleep(0.5)

    link.client.on_pre_connect = slow_lookup
    link.start()
    assert opening.wait(5)
    asked = time.monotonic()
    link.stop()
    assert not link.alive() and time.monotonic() - asked < STOPS_WITHIN_S
