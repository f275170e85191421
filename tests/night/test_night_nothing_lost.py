"""Nothing lost, nothing doubled: three tables play whole nights through the real simulator
while their publishers are killed, the broker restarts (with and without its saved state),
the hub is killed and a table is cut off; the hub ends with exactly the tables' journals.
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Callable

from night_parts import OFFLINE_WITHIN_S, Broker, Hub, Table, until

ROUNDS = 4


def play_round(tables: list[Table], during: Callable[[], None] = lambda: None) -> None:
    """Every table plays one whole game at once, while ``during`` does its mischief."""
    players = [threading.Thread(target=table.play, args=("dalmatian", n))
               for n, table in enumerate(tables, start=1)]
    for thread in players:
        thread.start()
    during()
    for thread in players:
        thread.join(timeout=60)
        assert not thread.is_alive(), "a simulated game did not end within 60 s"


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
