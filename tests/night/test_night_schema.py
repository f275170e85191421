"""Every record of a night validates against docs/schema/ as it really travels: each MQTT
message the real publishers send through Mosquitto (heard by an observer the ACL lets read
everything), the hub's JSON, every JSON the hub's pages link to, and its /events data."""

from __future__ import annotations

import http.client
import json
import re
import urllib.request
from collections import Counter
from typing import Any

import pytest
from night_parts import (
    Broker,
    Hub,
    Table,
    hang_up,
    mqtt_client,
    until,
)
from schema_helpers import check, check_message

from firmware_host.journal import Journal
from games.dalmatian import Dalmatian

OBSERVER = "observer"
# every JSON the hub's pages link to, by the schema's kind of record it is
JSON_KINDS = {r"/night\.json": "hubNight", r"/nights/\d{4}-\d{2}-\d{2}\.json": "hubNight",
              r"/league\.json": "hubLeague", r"/players/[^/]+\.json": "hubPlayer"}
MOST_PAGES = 60


@pytest.fixture
def readers() -> tuple[str, ...]:
    """The broker lets the observer read every table's topics."""
    return (OBSERVER,)


def test_every_record_of_a_night_validates(broker: Broker, hub: Hub,
                                           tables: list[Table]) -> None:
    heard: list[tuple[str, bytes]] = []
    observer = mqtt_client(broker, OBSERVER)
    observer.on_message = lambda client, data, message: heard.append(
        (message.topic, bytes(message.payload)))
    observer.subscribe("tc/#", qos=1)
    for table in tables:
        table.publish()
    tables[0].play("dalmatian", seed=1)
    tables[1].play("dalmatian", seed=2)
    with Journal.open(tables[2].journal) as journal:  # a game in play, dice typed in
        game = Dalmatian.new(2, ["Eve", "Fay"], rounds=1)
        journal.start(game)
        journal.apply(game, "roll 6-6-6-6-6", source="manual")
    expected = tables[0].finished() | tables[1].finished()
    until(lambda: set(hub.results()) == expected, 30, "every finished game at the hub")
    until(lambda: any(t.endswith("table-3/live") and b'"Eve"' in p for t, p in heard), 10,
          "table 3's game heard")
    hang_up(observer)

    kinds = Counter(check_message(topic, payload) for topic, payload in heard)
    assert kinds["mqttStatus"] >= 3 and kinds["mqttLive"] >= 3
    assert kinds["mqttGame"] >= len(expected)

    check("hubNight", hub.night())
    found = json_links(hub)
    assert {"/night.json", "/nights/" + hub.night()["night"] + ".json"} <= set(found)
    for link, kind in found.items():
        with urllib.request.urlopen(hub.url.rstrip("/") + link, timeout=5) as reply:
            check(kind, json.load(reply))
    event, data = first_event(hub)
    assert event == "state"
    check("eventState", data)


def json_links(hub: Hub) -> dict[str, str]:
    """Every JSON the hub's pages link to, found page by page from "/", with the schema's
    kind for each: a JSON without one fails (a new one needs its entry in docs/schema/)."""
    seen, queue, found = {"/"}, ["/"], {}
    while queue and len(seen) < MOST_PAGES:
        with urllib.request.urlopen(hub.url.rstrip("/") + queue.pop(0), timeout=5) as reply:
            html = reply.read().decode()
        for link in re.findall(r'href="(/[^"#?]*)"', html):
            if link.endswith(".json"):
                kinds = [k for pattern, k in JSON_KINDS.items() if re.fullmatch(pattern, link)]
                assert kinds, f"{link}: no kind of record for it in docs/schema/ (JSON_KINDS)"
                found[link] = kinds[0]
            elif not link.endswith((".csv", ".css", ".js")) and link not in seen:
                seen.add(link)
                queue.append(link)
    return found


def first_event(hub: Hub) -> tuple[str, Any]:
    """The first event of the hub's /events stream: its name and its data."""
    connection = http.client.HTTPConnection("127.0.0.1", hub.port, timeout=5)
    try:
        connection.request("GET", "/events")
        reply = connection.getresponse()
        event = ""
        while True:
            line = reply.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
            elif line.startswith("data: ") and event:
                return event, json.loads(line.removeprefix("data: "))
    finally:
        connection.close()
