"""The night's changes for the open ``/events`` streams: coalesced, never queued per client.

The broker's thread hands in each change under a key (a table's card, a part of the results,
one finished game: :class:`Parts`); only the
newest event of a key is kept, so what is held is one event per table however busy the night.
Every :data:`FLUSH_S` the changes since the last flush go to every stream as one shared write.
A stream whose socket has not taken its earlier writes (a phone on a weak signal, a browser
in the background) is skipped, not queued for: once its socket drains it is sent the newest
event of every key changed since it last got one, so it ends up with every table's latest
state whatever it missed, and a stream stuck for :data:`STUCK_S` is closed (its browser
reconnects and starts afresh). Memory is bounded by the keys and the sockets' buffers.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

FLUSH_S = 0.2  # changes gathered before a write: a table at 5 Hz has one or two, sent as one
PING_S = 15.0  # a quiet stream gets a comment this often, so proxies and phones keep it
FULL = 1  # unsent bytes at which a stream is skipped: each write waits for the one before
STUCK_S = 30.0


class Parts:
    """The night's results for :class:`Broadcast`, sent as little as tells the change: each
    part of the page (the standings, the list of games, ...) under a key of its own and
    only when it changed, and when the list holds the same games as before, only its items
    that changed (event ``game``, by the item's key): a table changing one finished game
    many times a second sends every stream that game's line, not the night's results."""

    def __init__(self, broadcast: Broadcast) -> None:
        self.broadcast = broadcast
        self._lock = threading.Lock()
        self._sent: dict[str, str] = {}  # a part's id: the html last sent
        self._items: dict[str, str] = {}  # an item's key: the html last sent
        self._frame: object = None

    def send(self, parts: Mapping[str, str], listed: str, items: Mapping[str, str],
             frame: object) -> None:
        """``parts`` by id; the part ``listed`` is made of ``items`` (by key, in order) and
        of what ``frame`` stands for (a count the list's heading shows, say)."""
        with self._lock:
            same = list(items) == list(self._items) and frame == self._frame
            for key, html in items.items():
                if same and self._items[key] != html:
                    self.broadcast.send(f"game {key}", sse("game", {"id": key, "html": html}))
            self._items, self._frame = dict(items), frame
            for part, html in parts.items():
                if self._sent.get(part) != html:
                    self._sent[part] = html
                    if not (same and part == listed):  # its items went above
                        self.broadcast.send(f"results {part}", sse("results", {part: html}))


def sse(event: str, data: dict[str, Any]) -> bytes:
    """One server-sent event; JSON keeps it on one ``data:`` line."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


@dataclass(eq=False)
class Stream:
    """One open ``/events`` stream: its socket and the last change it was sent."""

    transport: asyncio.WriteTransport
    seen: int
    full_since: float = 0.0  # when its socket was first found full, 0 while it takes writes


class Broadcast:
    """Changes in from any thread (:meth:`send`); out to the streams from the event loop."""

    def __init__(self, flush_s: float = FLUSH_S, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.flush_s = flush_s
        self.clock = clock
        self._lock = threading.Lock()
        self._latest: dict[str, tuple[int, bytes]] = {}  # key -> (its change number, event)
        self._seq = 0  # the number of the latest change
        self._flushed = 0  # the changes every up-to-date stream has been sent
        self._streams: set[Stream] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._dirty: asyncio.Event | None = None
        self._woken = False

    def send(self, key: str, event: bytes) -> None:
        """``event`` for every stream, in place of any not yet sent under ``key``."""
        with self._lock:
            self._seq += 1
            self._latest.pop(key, None)  # the dict stays in the order of the changes
            self._latest[key] = (self._seq, event)
            wake, self._woken = not self._woken, True
        if wake and self._loop is not None and self._dirty is not None:
            self._loop.call_soon_threadsafe(self._dirty.set)

    @property
    def seq(self) -> int:
        with self._lock:
            return self._seq

    def since(self, seen: int) -> bytes:
        """The newest event of every key changed after change number ``seen``."""
        with self._lock:
            return self._since(seen)

    def _since(self, seen: int) -> bytes:
        newest = []
        for seq, event in reversed(self._latest.values()):  # in the order of the changes
            if seq <= seen:
                break
            newest.append(event)
        return b"".join(reversed(newest))

    def join(self, transport: asyncio.WriteTransport, seen: int) -> Stream:
        """A stream that already shows the night as of change ``seen``."""
        stream = Stream(transport, seen)
        self._streams.add(stream)
        return stream

    def leave(self, stream: Stream) -> None:
        self._streams.discard(stream)

    def __len__(self) -> int:
        return len(self._streams)

    async def run(self) -> None:
        """Flush changes to the streams until cancelled (in the server's event loop)."""
        self._loop = asyncio.get_running_loop()
        self._dirty = asyncio.Event()
        last_write = self.clock()
        while True:
            try:
                await asyncio.wait_for(self._dirty.wait(), timeout=min(PING_S, 1.0))
                await asyncio.sleep(self.flush_s)  # let changes gather
            except TimeoutError:
                pass
            self._dirty.clear()
            with self._lock:
                self._woken = False
            now = self.clock()
            if self.flush(now):
                last_write = now
            elif now - last_write >= PING_S:
                self._write_all(b": ping\n\n")
                last_write = now

    def flush(self, now: float) -> bool:
        """Send what changed since the last flush; True if anything was written."""
        with self._lock:
            after, upto = self._flushed, self._seq
            shared = self._since(after)
            self._flushed = upto
        wrote = False
        for stream in list(self._streams):
            transport = stream.transport
            if transport.is_closing():
                self.leave(stream)
                continue
            if transport.get_write_buffer_size() >= FULL:
                stream.full_since = stream.full_since or now
                if now - stream.full_since >= STUCK_S:
                    self.leave(stream)
                    transport.abort()
                continue
            stream.full_since = 0.0
            if stream.seen >= upto:
                continue
            # a stream that missed flushes (or joined between them) gets what it lacks
            data = shared if stream.seen == after else self.since(stream.seen)
            stream.seen = upto
            if data:
                transport.write(data)
                wrote = True
        return wrote

    def _write_all(self, data: bytes) -> None:
        for stream in self._streams:
            if not stream.transport.is_closing():
                stream.transport.write(data)
