"""The hub's ear on the broker: every message checked, stored, and passed on to the page.

A message that breaks the contract (malformed, oversized, on a topic no table owns) is
counted and logged, and the hub goes on; the count is in ``/night.json``. Logging stops
repeating after :data:`LOGGED` refusals, then says so every :data:`LOG_EVERY`.
"""

from __future__ import annotations

import logging
from typing import Any

import paho.mqtt.client as paho

from firmware_host.night import page, topics
from firmware_host.night.mqtt import Link
from firmware_host.night.server import Broadcast, sse
from firmware_host.night.store import Store
from firmware_host.night.topics import BadMessage

log = logging.getLogger("table_companion.hub")
LOGGED = 20
LOG_EVERY = 1000


class Listener:
    """Feeds ``store`` from ``link``'s subscription and tells ``broadcast`` what changed."""

    def __init__(self, store: Store, link: Link, broadcast: Broadcast) -> None:
        self.store = store
        self.link = link
        self.broadcast = broadcast
        self.rejected = 0
        link.connected = self._subscribe
        link.client.on_message = self._on_message

    def _subscribe(self) -> None:
        """On every connection: the broker's retained status says afresh who is online (a
        broker that lost its state knows only the tables that reconnect)."""
        were = set(self.store.all_offline())
        self._cards(were)
        self.link.client.subscribe(topics.SUBSCRIPTION, qos=1)

    def _cards(self, table_ids: set[str]) -> None:
        for table_id in table_ids:
            table = self.store.table(table_id)
            if table is not None:
                self.broadcast.send(f"card {table.id}",
                                    sse("card", {"id": table.id, "html": page.card(table)}))

    def _on_message(self, client: paho.Client, userdata: Any,
                    message: paho.MQTTMessage) -> None:
        try:
            parsed = topics.parse(message.topic, bytes(message.payload))
        except BadMessage as err:
            self.reject(message.topic, str(err))
            return
        change = self.store.apply(parsed)
        if not (change.card or change.results):
            return
        self._cards({change.card})
        if change.results:
            self.broadcast.send("results", sse("results", page.results(self.store.night())))

    def reject(self, topic: str, reason: str) -> None:
        self.rejected += 1
        if self.rejected <= LOGGED or self.rejected % LOG_EVERY == 0:
            more = " (further refusals are only counted)" if self.rejected == LOGGED else ""
            log.warning("refused message #%d on %.80r: %s%s", self.rejected, topic, reason,
                        more)

