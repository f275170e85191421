"""``table-companion publish``: this table's games to the game night's broker.

Runs beside the referee as its own service (``table-companion-publish.service``, the one
with network access), reading the journal the config names and the ``[night]`` section.
Stops on SIGTERM or Ctrl-C after telling the broker the table is offline; a table that
vanishes without a word is marked offline by the broker's last will.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from firmware_host.commands import Subparsers, add_command
from firmware_host.config import ConfigError, load
from firmware_host.journal import Journal, JournalError, system_clock
from firmware_host.night import topics
from firmware_host.night.mqtt import Link
from firmware_host.night.publisher import Publisher
from firmware_host.signals import StopFlag, Stopping

KEEPALIVE_S = 10
log = logging.getLogger("table_companion.publish")


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "publish",
        description="Follow the journal and publish the table's live game and finished "
                    "games to the broker in the config's [night] section, until stopped.")
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="config file (default: /etc/table-companion/config.toml)")
    parser.add_argument("--journal", type=Path, metavar="PATH",
                        help="the journal to follow (default: the one the config names)")
    parser.add_argument("--keepalive", type=int, default=KEEPALIVE_S, metavar="S",
                        help="seconds between pings; the broker marks the table offline "
                             "after 1.5 times this without a word, and the table's status "
                             f"goes to the hub every half of it (default {KEEPALIVE_S})")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    config = load(args.config)
    night = config.night
    if night is None:
        where = args.config or "the config"
        raise ConfigError(f"{where} has no [night] section: give the table a name and the "
                          'broker, e.g. [night] table = "Table 2"')
    stop = StopFlag.on_signals()
    path = args.journal or config.journal
    status = topics.status_topic(night.table_id)
    broker = topics.parse_broker(night.broker)
    try:
        link = Link(broker, night.table_id, night.password(), keepalive=args.keepalive,
                    log=log, will=(status, topics.OFFLINE.encode()),
                    ca=night.ca if broker.tls else None)
    except OSError as err:  # the CA file: missing, unreadable, or not a certificate
        raise ConfigError(f"night.ca: {night.ca} cannot be used ({err.strerror or err}); "
                          "copy the night's night-ca.crt from the hub there") from None
    log.info("publishing %s (%s) from %s to %s", night.table, night.table_id, path,
             night.broker)
    link.start()  # a wrong password is said at once, even before the first game
    try:
        journal = wait_for(path, stop)
        if journal is not None:
            with journal:
                Publisher(journal, link, night.table, system_clock).run(stop)
    finally:
        link.stop(last=(status, topics.OFFLINE.encode()))
    if not stop.is_set():  # the link's thread ended: systemd starts a new publisher
        log.error("stopping: the link to the broker has ended (see above)")
        return 1
    return 0


def wait_for(path: Path, stop: Stopping) -> Journal | None:
    """The journal opened to read, once the referee has made it (on a fresh install it has
    not yet); None if stopped first."""
    waiting = ""
    while True:
        try:
            return Journal.open_reader(path)
        except JournalError as err:
            if str(err) != waiting:
                waiting = str(err)
                log.info("waiting for the journal: %s", err)
        if stop.wait(0.5):
            return None
