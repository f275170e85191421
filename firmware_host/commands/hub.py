"""``table-companion hub``: the game night's hub. Subscribes to every table at the broker,
keeps the night in SQLite and serves the live page players open on their phones.

Runs as its own service (``table-companion-hub.service``) on the Pi or machine beside the
broker. The page and its export are read-only; the broker account reads every table and
writes only the night's roster, for the tables to offer its names.
"""

from __future__ import annotations

import argparse
import logging
import os
import sqlite3
from datetime import date
from pathlib import Path
from urllib.parse import urlsplit

from firmware_host.commands import Subparsers, add_command
from firmware_host.errors import UsageError
from firmware_host.hub.broadcast import Broadcast
from firmware_host.hub.league.roster import RosterFile
from firmware_host.hub.league.shares import closed_before
from firmware_host.hub.listener import Listener
from firmware_host.hub.server import NightServer
from firmware_host.hub.site import Site
from firmware_host.hub.store import Store
from firmware_host.hub.tonight import local_now
from firmware_host.hub.watch import Watch
from firmware_host.night import topics
from firmware_host.night.credentials import read_secret
from firmware_host.night.mqtt import Link
from firmware_host.notify import Notifier
from firmware_host.signals import StopFlag

KEEPALIVE_S = 10
DB_NAME = "night.sqlite3"
ROSTER = Path("/etc/table-companion/roster.toml")
log = logging.getLogger("table_companion.hub")


def register(subparsers: Subparsers) -> None:
    parser = add_command(
        subparsers, "hub",
        description="Subscribe to every table at the broker, keep the night in SQLite and "
                    "serve the night's page (standings, a card per table, finished games, "
                    "CSV/JSON export) until stopped.")
    parser.add_argument("--broker", default="mqtt://localhost:1883", metavar="URL",
                        help="the broker (default: mqtt://localhost:1883)")
    parser.add_argument("--user", default="night_hub",
                        help="the hub's user at the broker (default: night_hub)")
    parser.add_argument("--password-file", type=Path, metavar="FILE",
                        default=Path("/etc/table-companion/hub-password"),
                        help="its password, alone on the first line of a file only this "
                             "user may read (default: /etc/table-companion/hub-password)")
    parser.add_argument("--listen", default=f"0.0.0.0:{topics.HUB_PORT}", metavar="HOST:PORT",
                        help=f"where to serve the page (default: 0.0.0.0:{topics.HUB_PORT})")
    parser.add_argument("--db", type=Path, metavar="PATH",
                        help=f"the night's file (default: $STATE_DIRECTORY/{DB_NAME}, or "
                             "the user's state folder)")
    parser.add_argument("--roster", type=Path, metavar="FILE", default=ROSTER,
                        help="the players' ids, names and aliases (TOML), read again when "
                             f"it changes; `table-companion roster` writes it (default: "
                             f"{ROSTER}; none: players are matched by name)")
    parser.add_argument("--night", type=night_date, metavar="YYYY-MM-DD",
                        help="show this night's games (default: the latest night by the "
                             "hub's clock; a night turns at 06:00)")
    parser.add_argument("--open-since", type=night_date, metavar="YYYY-MM-DD",
                        help="take finished games of nights since this one too (a table "
                             "that could not reach the hub those nights; default: an older "
                             "night takes games until noon the day after, then is closed)")
    parser.add_argument("--page", type=page_address, metavar="URL",
                        help="the night page's address as players' phones reach it, for "
                             "the QR code on /tv (default: the address the TV opened, "
                             "e.g. http://hub.local:8080/)")
    parser.add_argument("--keepalive", type=int, default=KEEPALIVE_S, metavar="S",
                        help="seconds between pings to the broker, as the tables' publishers "
                             "have it: a table not heard for this long shows when it was "
                             "last heard, and no word from any for twice this is the hub's "
                             f"trouble (default {KEEPALIVE_S})")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        broker = topics.parse_broker(args.broker)
    except ValueError as err:
        raise UsageError(f"--broker {args.broker}: {err}") from None
    host, port = listen_address(args.listen)
    password = read_secret(args.password_file, "--password-file")
    db = args.db or default_db()
    stop = StopFlag.on_signals()
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
        store = Store.open(db)
        store.tonight = args.night or ""
        store.first_open = lambda: closed_before(local_now(), store.bounds.window,
                                                 args.open_since or "")
    except (OSError, sqlite3.Error) as err:
        raise UsageError(f"{db}: cannot keep the night there ({err})") from None
    broadcast = Broadcast()
    roster = RosterFile(args.roster)
    link = Link(broker, args.user, password, keepalive=args.keepalive, log=log)
    listener = Listener(store, link, broadcast)
    listener.reread(roster)
    notifier = Notifier.from_environ()
    watch = Watch(listener, args.keepalive, notifier=notifier)
    site = Site(store, watch.night, lambda: listener.rejected, listener.refusals.as_json)
    server = NightServer((host, port), site, broadcast, page_url=args.page or "")
    try:
        server.start()
    except OSError as err:
        raise UsageError(f"--listen {args.listen}: cannot serve there "
                         f"({err.strerror or err})") from None
    shown = "localhost" if host in ("", "0.0.0.0") else host
    log.info("serving the night at http://%s:%d/ from %s, night kept in %s", shown,
             server.server_address[1], broker, db)
    link.start()
    notifier.ready()
    try:
        while not stop.wait(1.0):
            watch.tick()
            listener.reread(roster)
            listener.removals()
    finally:
        notifier.stopping()
        link.stop()
        server.close()
        store.close()
    return 0


def night_date(text: str) -> str:
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date like 2026-11-24") from None


def page_address(text: str) -> str:
    try:
        parts = urlsplit(text)
    except ValueError:
        parts = urlsplit("")
    if parts.scheme not in ("http", "https") or not parts.hostname or len(text) > 200 \
            or any(c.isspace() or not c.isprintable() for c in text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a web address; write e.g. http://hub.local:8080/")
    return text


def listen_address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise UsageError(f"--listen {text}: write HOST:PORT, e.g. 0.0.0.0:{topics.HUB_PORT}")
    return host.strip("[]"), int(port)


def default_db() -> Path:
    """$STATE_DIRECTORY (the service's), else $XDG_STATE_HOME or ~/.local/state."""
    service = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if service:
        return Path(service) / DB_NAME
    state = os.environ.get("XDG_STATE_HOME", "")
    base = Path(state) if os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "table-companion" / DB_NAME

