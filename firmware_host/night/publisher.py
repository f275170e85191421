"""The table's side of a game night: follow the journal and keep the broker's copy equal.

The referee never goes online; this separate process opens the same journal, asks SQLite a
few times a second whether anything was committed (``PRAGMA data_version``), and publishes
what differs from what it last sent. On every (re)connection it forgets what it sent and
sends the whole night again: every message is retained and the hub stores by table and game
id, so sending twice is harmless and a broker that lost its state is filled again. Its
status goes again every half keep-alive, so the hub hears from a table that is idle too and
can tell how long ago it last did.

It also listens for the host's seating of the next round and writes this table's line and
seat to a file beside the journal (:mod:`firmware_host.next_round`), which the offline
referee shows and offers first between games, and for the hub's roster of the night's
players, kept in another (:func:`firmware_host.players.roster_beside`), which the referee
offers when players choose their names: the table hears the night only through this link.
A seated name the roster lists (its name, in any case) goes to the seat with its id.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

import paho.mqtt.client as paho

from firmware_host import next_round
from firmware_host.journal import Journal
from firmware_host.night import topics
from firmware_host.night.follow import Snapshot, Tonight, snapshot
from firmware_host.night.mqtt import Link
from firmware_host.night.published import record_beside
from firmware_host.players import Player, read_roster, roster_beside, write_roster
from firmware_host.signals import Stopping

log = logging.getLogger("table_companion.publish")


class Publisher:
    """Publishes the table ``table`` (shown as ``name``) from ``journal`` through ``link``.

    ``sent`` maps each topic to what was last sent there (the live state without its
    timestamp, so an unchanged game is not sent again).
    """

    def __init__(self, journal: Journal, link: Link, name: str,
                 clock: Callable[[], datetime]) -> None:
        self.journal = journal
        self.link = link
        self.table = link.user
        self.name = name
        self.clock = clock
        self.sent: dict[str, bytes] = {}
        # the night's finished games, read once and kept beside the journal for a restart
        self.tonight = Tonight(record_beside(journal.path))
        self._resend = threading.Event()
        self._resend.set()  # the link may have connected before there was a journal
        self.next_round = next_round.beside(journal.path)
        self.roster = roster_beside(journal.path)
        link.client.on_message = self._on_message
        link.connected = self._connected
        if link.is_connected():  # it connected while the journal was awaited (twice is harmless)
            self._connected()

    def _connected(self) -> None:
        """On every connection: send everything again, and hear the seating (the broker's
        retained copy comes at once)."""
        self._resend.set()
        self.link.client.subscribe([(topics.SEATING, 1), (topics.ROSTER, 1)])

    def _on_message(self, client: paho.Client, userdata: Any,
                    message: paho.MQTTMessage) -> None:
        """The host's seating (this table's line and seat, or none) or the hub's roster,
        beside the journal. A seating the table cannot use is said on its screen, in one
        line."""
        try:
            heard = topics.parse(message.topic, bytes(message.payload))
            if isinstance(heard, topics.NightRoster):
                write_roster(self.roster, [Player(p.name, p.id) for p in heard.players])
                return
            if not isinstance(heard, topics.Seating):
                raise topics.BadMessage("neither the seating nor the roster")
            here = heard.at_table(self.table)
            next_round.write(self.next_round, here.line() if here is not None else "",
                             self._seat(here) if here is not None else None)
        except (topics.BadMessage, UnicodeDecodeError) as err:
            log.warning("ignored a message on the night's topic %.40r: %s",
                        getattr(message, "topic", ""), err)
            if message.topic == topics.SEATING:
                self._tell(f"{next_round.TITLE}: the host's seating was refused ({err})")
        except OSError as err:
            log.error("could not write beside %s: %s", self.journal.path, err)

    def _seat(self, here: topics.SeatedTable) -> next_round.Seat:
        """The seat at this table, each player with the roster's id if it lists them."""
        listed = {p.name.casefold(): p for p in read_roster(self.roster)}
        return next_round.Seat(here.game, tuple(
            listed.get(name.casefold(), Player(name)) for name in here.players))

    def _tell(self, line: str) -> None:
        try:
            next_round.write(self.next_round, line[:next_round.MAX_CHARS])
        except OSError as err:
            log.error("could not write %s: %s", self.next_round, err)

    def run(self, stop: Stopping, interval: float = 0.2) -> None:
        """Follow the journal until ``stop`` is set (or the link has ended), looking every
        ``interval`` seconds."""
        version: int | None = None
        beat = time.monotonic()
        while not stop.is_set() and self.link.alive():
            if self._resend.is_set():
                self._resend.clear()
                self.sent.clear()
                version = None
            if self.link.is_connected():
                now = self.journal.data_version()
                if now != version:
                    version = now
                    if not self.publish(snapshot(self.journal, self.table, self.name,
                                                 self.clock(), self.tonight)):
                        version = None  # not everything went out: look again next time
                if time.monotonic() - beat >= self.link.keepalive / 2:
                    beat = time.monotonic()
                    self.link.publish(topics.status_topic(self.table), topics.ONLINE.encode())
            stop.wait(interval)

    def publish(self, snap: Snapshot) -> bool:
        """Send what changed: the status (online), new or changed games, then the live state
        that lists them, then clear games taken back (an undone last move). False if any
        send failed."""
        online = topics.ONLINE.encode()
        ok = self._send(topics.status_topic(self.table), online, online)
        current = {topics.game_topic(self.table, game.id): payload
                   for game, payload in zip(snap.games, snap.payloads, strict=True)}
        for topic, payload in current.items():
            ok &= self._send(topic, payload, payload)
        live = topics.live_payload(snap.live)
        ok &= self._send(topics.live_topic(self.table), live,
                         topics.live_payload(replace(snap.live, at="")))
        for topic in [t for t in self.sent if "/game/" in t and t not in current]:
            if self.link.publish(topic, b""):
                del self.sent[topic]
            else:
                ok = False
        return ok

    def _send(self, topic: str, payload: bytes, key: bytes) -> bool:
        if self.sent.get(topic) == key:
            return True
        if not self.link.publish(topic, payload):
            return False
        self.sent[topic] = key
        return True
