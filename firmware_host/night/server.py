"""The hub's web server: the night's page, its export, and live updates by server-sent events.

The standard library's threaded HTTP server: a thread per connection is what a few dozen
phones on a game night need, and it keeps the hub small on a Pi Zero 2 W. The page is
read-only (GET and HEAD only) and sent with a strict Content-Security-Policy: scripts and
styles only from the hub itself, no inline code, no frames, nothing posted anywhere.

``/events`` sends the whole night on connect (``state``), then a ``card`` whenever a
table's game or status changes and ``results`` when games finish. A client that falls
behind by :data:`BACKLOG` flushes is dropped; its browser reconnects and starts afresh.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

from firmware_host.night import page
from firmware_host.night.store import Night

log = logging.getLogger("table_companion.hub")

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
       "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
STATIC = {"/app.js": "text/javascript; charset=utf-8", "/app.css": "text/css; charset=utf-8"}
BACKLOG = 200  # flushes a stream may fall behind by (10 s) before it is dropped
PING_S = 15.0
FLUSH_S = 0.05


def sse(event: str, data: dict[str, Any]) -> bytes:
    """One server-sent event; JSON keeps it on one ``data:`` line."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


class Broadcast:
    """The open ``/events`` streams, each with its own bounded queue.

    Events are gathered for :data:`FLUSH_S` and sent to every stream as one write; of
    several events with one key (a table's card) only the newest goes. A busy night (twenty
    tables, five updates a second each) then costs each stream a write every 50 ms, not
    one per update.
    """

    def __init__(self, flush_s: float = FLUSH_S) -> None:
        self.flush_s = flush_s
        self._lock = threading.Lock()
        self._clients: set[queue.Queue[bytes | None]] = set()
        self._pending: dict[str, bytes] = {}
        self._wake = threading.Event()
        self._closed = False
        threading.Thread(target=self._run, name="broadcast", daemon=True).start()

    def join(self) -> queue.Queue[bytes | None]:
        client: queue.Queue[bytes | None] = queue.Queue(BACKLOG)
        with self._lock:
            self._clients.add(client)
        return client

    def leave(self, client: queue.Queue[bytes | None]) -> None:
        with self._lock:
            self._clients.discard(client)

    def send(self, key: str, event: bytes) -> None:
        """Queue ``event`` for every stream, in place of one still queued with ``key``."""
        with self._lock:
            self._pending.pop(key, None)
            self._pending[key] = event
        self._wake.set()

    def _run(self) -> None:
        while self._wake.wait() and not self._closed:
            time.sleep(self.flush_s)
            with self._lock:
                self._wake.clear()
                pending, self._pending = self._pending, {}
                clients = list(self._clients)
            blob = b"".join(pending.values())
            for client in clients:
                try:
                    client.put_nowait(blob)
                except queue.Full:  # too slow: end its stream, its browser reconnects
                    self.leave(client)
                    client.get_nowait()
                    client.put_nowait(None)

    def close(self) -> None:
        with self._lock:
            clients, self._clients = self._clients, set()
            self._closed = True
        self._wake.set()
        for client in clients:
            client.put(None)

    def __len__(self) -> int:
        return len(self._clients)


def _waiting(client: queue.Queue[bytes | None]) -> bytes | None:
    """Every event queued for ``client`` as one write (a busy night sends fewer, larger
    writes), a ping after :data:`PING_S` of quiet, None once the stream is to end."""
    try:
        events = [client.get(timeout=PING_S)]
    except queue.Empty:
        return b": ping\n\n"
    while events[-1] is not None:
        try:
            events.append(client.get_nowait())
        except queue.Empty:
            break
    if events[-1] is None:
        return None
    return b"".join(event for event in events if event is not None)


class NightServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, address: tuple[str, int], night: Callable[[], Night],
                 rejected: Callable[[], int], broadcast: Broadcast) -> None:
        super().__init__(address, Handler)
        self.night = night
        self.rejected = rejected
        self.broadcast = broadcast
        self.static = {path: resources.files("firmware_host.night").joinpath(
            "static" + path).read_bytes() for path in STATIC}


class Handler(BaseHTTPRequestHandler):
    server: NightServer
    protocol_version = "HTTP/1.1"
    server_version = "table-companion-hub"
    sys_version = ""

    def do_HEAD(self) -> None:
        self.do_GET(body=False)

    def do_GET(self, body: bool = True) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/events":
            self.events()
            return
        if path == "/":
            self.reply(page.page(self.server.night()).encode(), "text/html; charset=utf-8",
                       body)
        elif path == "/night.json":
            data = page.as_json(self.server.night(), self.server.rejected())
            self.reply(json.dumps(data, indent=1).encode(), "application/json", body)
        elif path == "/night.csv":
            self.reply(page.as_csv(self.server.night()).encode(), "text/csv; charset=utf-8",
                       body, attachment="night.csv")
        elif path in STATIC:
            self.reply(self.server.static[path], STATIC[path], body)
        else:
            self.reply(b"not found\n", "text/plain", body, HTTPStatus.NOT_FOUND)

    def refuse(self) -> None:
        self.reply(b"this page is read-only\n", "text/plain", True,
                   HTTPStatus.METHOD_NOT_ALLOWED, allow="GET, HEAD")

    do_POST = do_PUT = do_DELETE = do_PATCH = refuse

    def reply(self, data: bytes, kind: str, body: bool, status: HTTPStatus = HTTPStatus.OK,
              attachment: str = "", allow: str = "") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        for name, value in HEADERS.items():
            self.send_header(name, value)
        if attachment:
            self.send_header("Content-Disposition", f'attachment; filename="{attachment}"')
        if allow:
            self.send_header("Allow", allow)
        self.end_headers()
        if body:
            self.wfile.write(data)

    def events(self) -> None:
        client = self.server.broadcast.join()
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            for name, value in HEADERS.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(b"retry: 2000\n\n")
            self.wfile.write(sse("state", {"html": page.main(self.server.night())}))
            self.wfile.flush()
            while (events := _waiting(client)) is not None:
                self.wfile.write(events)
                self.wfile.flush()
        except OSError:
            pass  # the browser went away
        finally:
            self.server.broadcast.leave(client)
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)
