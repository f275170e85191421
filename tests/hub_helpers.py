"""The hub's pages served for real over a store a test filled: a server on a free loopback
port, and pages fetched from it."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

from firmware_host.hub.broadcast import Broadcast
from firmware_host.hub.server import NightServer
from firmware_host.hub.site import Site
from firmware_host.hub.store import Store


@contextmanager
def serving(store: Store) -> Iterator[str]:
    """The hub's server over ``store``; its address. Both are closed afterwards."""
    server = NightServer(("127.0.0.1", 0), Site(store, store.night, lambda: 0), Broadcast())
    server.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.close()
        store.close()


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as reply:
        text: str = reply.read().decode()
        return text
