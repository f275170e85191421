"""The hub's ear on the broker: every message checked, stored, and passed on to the page.

A message that breaks the contract (malformed, oversized, on a topic no table owns) is
counted and logged, and the hub goes on; the count is in ``/night.json``. So is anything
else a message makes go wrong on its way in: it runs in paho's network thread, and an
exception there would end the thread and leave the hub deaf. At most :data:`LOG_LINES`
refusals a minute are logged; the next line says how many more were only counted. A
message past a table's share (:mod:`~firmware_host.hub.league.shares`: a closed night, too many
games, names, changes or messages) is counted by table and kind, and logged in one line a
minute.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from typing import Any

import paho.mqtt.client as paho

from firmware_host.hub import page
from firmware_host.hub.broadcast import Broadcast, Parts, sse
from firmware_host.hub.league.roster import RosterFile
from firmware_host.hub.league.shares import OverBound, Rate, Refusals
from firmware_host.hub.store import Store
from firmware_host.hub.tonight import dated, local_now
from firmware_host.night import topics
from firmware_host.night.mqtt import Link
from firmware_host.night.topics import BadMessage

log = logging.getLogger("table_companion.hub")
LOG_LINES = 10


class Listener:
    """Feeds ``store`` from ``link``'s subscription and tells ``broadcast`` what changed."""

    def __init__(self, store: Store, link: Link, broadcast: Broadcast,
                 clock: Callable[[], datetime] = local_now) -> None:
        self.store = store
        self.clock = clock
        self.link = link
        self.broadcast = broadcast
        self.parts = Parts(broadcast)
        self.rejected = 0
        self.refusals = Refusals()  # the part of rejected past a table's share
        self.rate = Rate(store.bounds)
        self.heard_at = time.monotonic()  # when the last message came, whatever it held
        self._minute = -1.0
        self._logged = self._unlogged = 0
        link.connected = self._subscribe
        link.client.on_message = self._on_message

    def _subscribe(self) -> None:
        """On every connection: the broker's retained status says afresh who is online (a
        broker that lost its state knows only the tables that reconnect)."""
        self.heard_at = time.monotonic()  # silence counts from here, not from the outage
        were = set(self.store.all_offline())
        self.cards(were)
        self.link.client.subscribe(topics.SUBSCRIPTION, qos=1)
        self.publish_roster()

    def publish_roster(self) -> None:
        """The roster's players and ids to the tables, retained (again at every connection:
        a broker that lost its state gets it back). The hub's own login alone may."""
        people = self.store.roster.people
        roster = topics.fit_roster(topics.NightRoster(
            tuple(topics.Listed(p.id, p.name) for p in people)))
        if len(roster.players) < len(people):
            log.warning("the tables get the roster's first %d players of %d: a message "
                        "holds no more", len(roster.players), len(people))
        self.link.publish(topics.ROSTER, topics.roster_payload(roster))

    def cards(self, table_ids: set[str]) -> None:
        for table_id in table_ids:
            table = self.store.table(table_id)
            if table is not None:
                self.broadcast.send(f"card {table.id}",
                                    sse("card", {"id": table.id, "html": page.card(table)}))

    def _on_message(self, client: paho.Client, userdata: Any,
                    message: paho.MQTTMessage) -> None:
        self.heard_at = time.monotonic()
        topic = "(not UTF-8)"  # paho decodes the topic when asked, and that may fail too
        try:
            topic = message.topic
            parsed = topics.parse(topic, bytes(message.payload))
            if topic not in (topics.ROSTER, topics.SEATING):  # a table's, by the ACL
                self.rate.take(topic.split("/")[1])
            self.take(dated(parsed, self.clock()))
        except OverBound as refused:
            self.rejected += 1
            self.refusals.count(refused)
        except BadMessage as err:
            self.reject(topic, str(err))
        except Exception as err:  # a bug, but one message must not silence the night
            self.reject(topic, f"it broke the hub: {type(err).__name__}: {err}")

    def take(self, message: topics.Message) -> None:
        """Store a checked message and send the page what it changed."""
        change = self.store.apply(message)
        if change.card:
            self.cards({change.card})
        if change.results:
            self.send_results()
        if change.seating:
            self.broadcast.send("seating", sse("seating", page.seating_parts(
                self.store.night())))

    def reread(self, roster: RosterFile) -> None:
        """The host's roster file again, if it changed: players named by it from now on. A
        bad file is logged once, and the hub goes on with the roster it had."""
        was, was_missing = roster.problem, roster.missing
        if roster.reload():
            self.store.use(roster.roster)
            log.info("players named by %s (%d listed)", roster.path, len(roster.roster.people))
            self.publish_roster()
            self.send_results()
        if roster.problem and roster.problem != was:
            log.warning("roster not read: %s; players are named as before", roster.problem)
        if roster.missing and not was_missing:
            log.info("no roster at %s: players are matched by their names alone "
                     "(table-companion roster merge writes one)", roster.path)

    def removals(self) -> None:
        """The games the host removed from the hub's file (``table-companion league
        remove``), logged and taken off the page."""
        removed = self.store.removed()
        counted = Counter((night, table) for night, table, _ in removed)
        for (night, table), count in sorted(counted.items()):
            log.info("the host removed %d game%s of %s from the night of %s", count,
                     "" if count == 1 else "s", table, night)
        if removed:
            self.send_results()

    def send_results(self) -> None:
        """The night's results to the streams: only the parts that changed, and of the list
        of games only the games that changed, if it lists the same ones."""
        night = self.store.night()
        shown = night.games[::-1][:page.SHOWN_GAMES]
        self.parts.send(page.results(night), "games", {
            f"{g.table}/{g.id}": page.game_item(g) for g in shown}, len(night.games))

    def reject(self, topic: str, reason: str) -> None:
        self.rejected += 1
        now = time.monotonic()
        if now - self._minute >= 60:
            self._minute, self._logged = now, 0
        if self._logged >= LOG_LINES:
            self._unlogged += 1
            return
        self._logged += 1
        more = f" ({self._unlogged} more refused before it, only counted)" if self._unlogged else ""
        self._unlogged = 0
        log.warning("refused message #%d on %.80r: %.200s%s", self.rejected, topic, reason, more)

