"""The hub's web server: every night's page, exports, and live updates by server-sent events.

One asyncio event loop in its own thread serves every connection (asyncio streams, no
library): an open connection costs a few kilobytes and no thread, so the thousand phones and
TVs of a big night, and as many idle or slow connections again, fit in a Pi Zero 2 W. (A
thread per connection, the standard library's server, cost 69 MB for 1,000 streams of 50
tables, with a listen backlog of 5 and no timeouts.) The page is read-only (GET and HEAD
only) and sent with a strict Content-Security-Policy: scripts and styles only from the hub
itself, no inline code, no frames, nothing posted anywhere.

Every connection is bounded (:class:`Limits`): its request head must arrive whole within a
deadline (idle keep-alive and slow senders alike), replies must be taken within another,
past a total and a per-address number of connections the answer is a quick 503, and a
connection reset or timed out is counted, not logged: :class:`Tally` says the counts once a
minute. ``/events`` sends the whole night on connect (``state``), then the changes through
:class:`~firmware_host.hub.broadcast.Broadcast`.

A page that may read every night (:meth:`Site.heavy`: the league's, every night's dice) is
built in a :class:`Worker` thread, so the streams and the other
pages go on meanwhile; requests for the same address while it is built share its answer. A
page that fails to build is a 500 and one log line, never a traceback to the browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import re
import resource
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from http import HTTPStatus
from importlib import resources
from typing import Any, TypeVar

from firmware_host.hub import page, tv
from firmware_host.hub.broadcast import Broadcast, sse
from firmware_host.hub.site import HTML, Reply, Site
from firmware_host.hub.store import Night

log = logging.getLogger("table_companion.hub")

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
       "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
STATIC = {"/app.js": "text/javascript; charset=utf-8", "/app.css": "text/css; charset=utf-8",
          "/tv.css": "text/css; charset=utf-8",
          "/favicon.ico": "image/vnd.microsoft.icon"}  # a die's five, as browsers ask for it
SERVER = "table-companion-hub"
MAX_HEAD = 8192  # bytes of request line and headers; a browser sends under 1 kB
RENDER_S = 0.25  # a busy night's page is rendered at most this often for new visitors
TALLY_S = 60.0
TV_HOST_S = 60.0  # a TV asking by another name is drawn a new QR code at most this often
# While the worker builds a page, the event loop's thread waits up to Python's switch
# interval (5 ms by default) for the interpreter each time it comes back from the network,
# several times a request: / took 40 ms at the 99th percentile instead of 7 while the
# league's pages were built. A shorter interval hands the loop its turn sooner.
SWITCH_S = 0.0005
# The kernel's send buffer of an event stream (Linux doubles it), instead of up to 4 MB: what
# a phone on a weak link has not taken then waits in the hub, where it is coalesced, and not
# as seconds of old news in the kernel. (Below 64 kB, loopback's 64 kB segments would stall.)
STREAM_SNDBUF = 128 * 1024


@dataclass(frozen=True)
class Limits:
    """How much of the hub one crowd, or one address, may hold."""

    connections: int = 4096  # in all; lowered to fit the open-files limit (LimitNOFILE=)
    per_address: int = 64  # a phone opens up to six; a household behind one address more
    head_s: float = 10.0  # from opening (or the last reply) to a whole request head
    write_s: float = 30.0  # for a reply to be taken by a slow reader
    backlog: int = 1024  # connections waiting to be accepted (a crowd reconnecting at once)


@dataclass
class Tally:
    """Connections that ended badly, counted; :meth:`say` puts the counts in one log line
    (the server does every :data:`TALLY_S`), so a crowd of broken phones costs no log."""

    counts: Counter[str] = field(default_factory=Counter)
    since: float = field(default_factory=time.monotonic)

    def count(self, what: str) -> None:
        self.counts[what] += 1

    def say(self, now: float) -> None:
        """One line with the counts so far (if any), then start counting afresh."""
        if self.counts:
            log.info("the page's connections in the last %.0f s: %s", now - self.since,
                     ", ".join(f"{n} {what}" for what, n in sorted(self.counts.items())))
        self.counts.clear()
        self.since = now


def open_files_cap(wanted: int) -> int:
    """``wanted`` connections, or fewer if the open-files limit is lower (raising the soft
    limit to the hard one first): a full server refuses with 503 instead of failing to
    accept."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    spare = 64  # the night's database, the broker link, logging
    return max(16, min(wanted, soft - spare)) if soft != resource.RLIM_INFINITY else wanted


T = TypeVar("T")


class Worker:
    """Runs calls in a daemon thread of its own, one at a time in the order given
    (:meth:`run`), until :meth:`stop`: for the work of a page that must not hold the event
    loop. A stopping hub does not wait for a page nobody will read (a standard thread
    pool's threads are joined at exit)."""

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self.thread.start()

    def run(self, call: Callable[[], T]) -> asyncio.Future[T]:
        """``call()`` in the worker's thread; its result (or exception) on the running
        event loop."""
        future: Future[T] = Future()

        def job() -> None:
            if future.set_running_or_notify_cancel():  # not if its request went meanwhile
                try:
                    future.set_result(call())
                except Exception as err:  # raised where it is awaited
                    future.set_exception(err)

        self._jobs.put(job)
        return asyncio.wrap_future(future)

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None and not self._stopped.is_set():
            job()

    def stop(self) -> None:
        """End the thread once the call it is in (if any) returns; calls waiting are
        dropped."""
        self._stopped.set()
        self._jobs.put(None)


class Busy(Exception):
    """Too many connections in all or from one address."""


class NightServer:
    """Serves ``night()`` at ``address`` from its own thread: :meth:`start`, :meth:`close`.
    ``page_url`` is the address the TV shows for phones ('': the one the TV itself used)."""

    def __init__(self, address: tuple[str, int], site: Site, broadcast: Broadcast,
                 limits: Limits = Limits(), tally: Tally | None = None,
                 page_url: str = "") -> None:
        self.address = address
        self.page_url = page_url  # the phone page's address for the TV's QR code
        self.site = site
        self.night = site.night
        self.broadcast = broadcast
        self.limits = limits
        self.cap = open_files_cap(limits.connections)
        self.tally = tally or Tally()
        self.static = {path: resources.files("firmware_host.hub").joinpath(
            "static" + path).read_bytes() for path in STATIC}
        self.open = 0
        self.by_address: Counter[str] = Counter()
        self.server_address: tuple[str, int] = address
        self._rendered: dict[str, tuple[float, int, str]] = {}  # when, change number, html
        self._worker: Worker | None = None
        self._building: dict[str, asyncio.Future[Reply | None]] = {}  # by path, until built
        self._tv_host = ("", 0.0)  # the TV's link to the phone page, and since when
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="http",
                                        daemon=True)
        self._server: asyncio.Server | None = None

    def start(self) -> None:
        """Listen (OSError if the address cannot be had), then serve in the background."""
        self._server = self._loop.run_until_complete(asyncio.start_server(
            self._connection, *self.address, backlog=self.limits.backlog, limit=MAX_HEAD))
        self.server_address = self._server.sockets[0].getsockname()[:2]
        self._loop.set_exception_handler(self._loop_error)
        self._worker = Worker("pages")
        sys.setswitchinterval(SWITCH_S)
        self._tasks = [self._loop.create_task(self.broadcast.run()),
                       self._loop.create_task(self._say_tally())]
        self._thread.start()

    async def _say_tally(self) -> None:
        while True:
            await asyncio.sleep(TALLY_S)
            self.tally.say(time.monotonic())

    def close(self) -> None:
        """Stop listening and end every connection."""
        if not self._thread.is_alive():
            return

        async def stop() -> None:
            assert self._server is not None
            self._server.close()
            tasks = asyncio.all_tasks() - {asyncio.current_task()}
            for task in tasks:
                task.cancel()
            if tasks:  # let them end, or the loop stops with them pending ("Task was destroyed")
                await asyncio.wait(tasks, timeout=2)

        assert self._worker is not None
        self._worker.stop()  # a page it is building is not waited for
        asyncio.run_coroutine_threadsafe(stop(), self._loop).result(timeout=5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if isinstance(error, OSError):  # a socket the other side broke: counted, not logged
            self.tally.count("broken")
        else:
            loop.default_exception_handler(context)

    # --- one connection --------------------------------------------------------------------

    async def _connection(self, reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        try:
            self._admit(address)
        except Busy as busy:
            await self._refuse(writer, str(busy))
            return
        clean = False
        try:
            while await self._request(reader, writer):
                pass
            clean = True
        except TimeoutError:
            self.tally.count("timed out")
        except (asyncio.IncompleteReadError, ConnectionError):
            self.tally.count("reset")
        except asyncio.LimitOverrunError:
            self.tally.count("too long a request")
            await self._reply(writer, HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                              b"the request's head is too long\n", "text/plain", close=True)
            clean = True
        except OSError:
            self.tally.count("broken")
        except Exception as err:  # a bug answering one request: counted, never a traceback
            self.tally.count(f"failed ({type(err).__name__}: {str(err)[:80]})")
        finally:
            await self._close(writer, clean)
            self.open -= 1
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]

    async def _close(self, writer: asyncio.StreamWriter, clean: bool) -> None:
        """After a last reply, closed once it is sent (within the write deadline); at once
        after a timeout or a reset."""
        if clean:
            writer.close()
            with contextlib.suppress(TimeoutError, OSError):
                await asyncio.wait_for(writer.wait_closed(), self.limits.write_s)
        writer.transport.abort()

    def _admit(self, address: str) -> None:
        if self.open >= self.cap:
            self.tally.count("refused: the hub was full")
            raise Busy(f"the hub has {self.open} connections open")
        if self.by_address[address] >= self.limits.per_address:
            self.tally.count("refused: too many from one address")
            raise Busy(f"{address} has {self.by_address[address]} connections open")
        self.open += 1
        self.by_address[address] += 1

    async def _refuse(self, writer: asyncio.StreamWriter, why: str) -> None:
        """A quick 503 before the request is read, and closed at once: a crowd past the cap
        costs no more than it takes to say so."""
        body = f"the hub is busy ({why}); try again in a few seconds\n".encode()
        writer.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
                     b"Retry-After: 5\r\nConnection: close\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        writer.close()

    async def _request(self, reader: asyncio.StreamReader,
                       writer: asyncio.StreamWriter) -> bool:
        """Answer one request; whether the connection stays open for another."""
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self.limits.head_s)
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            self.tally.count("not HTTP")
            await self._reply(writer, HTTPStatus.BAD_REQUEST, b"not an HTTP/1 request\n",
                              "text/plain", close=True)
            return False
        method, target, version = parts
        headers = {name.strip().lower(): value.strip() for name, _, value in
                   (line.partition(":") for line in lines[1:] if line)}
        body = method != "HEAD"
        close = (version == "HTTP/1.0" or headers.get("connection", "").lower() == "close"
                 or headers.get("content-length", "0") != "0"
                 or "transfer-encoding" in headers)  # a body not read: end after the reply
        if method not in ("GET", "HEAD"):
            await self._reply(writer, HTTPStatus.METHOD_NOT_ALLOWED,
                              b"this page is read-only\n", "text/plain", close=True,
                              extra={"Allow": "GET, HEAD"})
            return False
        path, _, query = target.partition("?")
        if path == "/events" and body:
            await self._events(reader, writer, tv_view=query == "view=tv")
            return False
        if path == "/":
            reply: Reply | None = Reply(self._rendered_now("page", page.page)[1].encode(),
                                        HTML)
        elif path == "/tv":
            reply = Reply(tv.tv(self.night(), tv.page_number(query),
                                self._tv_link(headers.get("host", ""))).encode(), HTML)
        elif path in STATIC:
            reply = Reply(self.static[path], STATIC[path])
        else:
            reply = await self._site_reply(path)
        if reply is None:
            await self._reply(writer, HTTPStatus.NOT_FOUND, b"not found\n", "text/plain",
                              close=close, body=body)
            return not close
        await self._reply(writer, reply.status, reply.data, reply.kind, close=close,
                          body=body, extra=reply.extra)
        return not close

    def _tv_link(self, host: str) -> str:
        """The phone page's address for the TV's QR code: the hub's ``page_url``, else the
        one the TV asked for. A QR code costs tens of milliseconds in the event loop, so
        a Host other than the last one is taken at most every :data:`TV_HOST_S`: requests
        with a new Host each draw no new code."""
        if self.page_url:
            return self.page_url
        now, (link, since) = time.monotonic(), self._tv_host
        wanted = phone_page(host)
        if wanted and wanted != link and (not link or now - since >= TV_HOST_S):
            self._tv_host = (wanted, now)
            return wanted
        return link

    async def _site_reply(self, path: str) -> Reply | None:
        """The site's answer to ``path``: a heavy one from the worker (one build shared by
        every request for it meanwhile), a 500 if building it failed."""
        try:
            if not self.site.heavy(path):
                return self.site.get(path)
            building = self._building.get(path)
            if building is None:
                assert self._worker is not None
                building = self._building[path] = self._worker.run(lambda: self.site.get(path))
                building.add_done_callback(lambda _: self._building.pop(path, None))
            return await asyncio.shield(building)  # built on, should this browser go
        except Exception as err:
            log.error("the page %.100r could not be built: %s: %.300s", path,
                      type(err).__name__, err)
            return Reply(b"the hub could not build this page; its log says why\n",
                         "text/plain; charset=utf-8",
                         status=HTTPStatus.INTERNAL_SERVER_ERROR)

    async def _reply(self, writer: asyncio.StreamWriter, status: HTTPStatus, data: bytes,
                     kind: str, *, close: bool, body: bool = True,
                     extra: dict[str, str] | None = None) -> None:
        head = {"Content-Type": kind, "Content-Length": str(len(data)), **HEADERS,
                **(extra or {}), **({"Connection": "close"} if close else {})}
        writer.write(_head(status, head) + (data if body else b""))
        await asyncio.wait_for(writer.drain(), self.limits.write_s)

    async def _events(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                      tv_view: bool) -> None:
        """The whole night (as the phone page or the TV shows it), then its changes until
        the browser goes (its next bytes, or their end, say so: a stream's browser sends
        nothing more)."""
        seen, main = (self._rendered_now("tv", tv.tv_main) if tv_view
                      else self._rendered_now("main", page.main))
        head = {"Content-Type": "text/event-stream", **HEADERS}
        writer.write(_head(HTTPStatus.OK, head) + b"retry: 2000\n\n"
                     + sse("state", {"html": main}))
        await asyncio.wait_for(writer.drain(), self.limits.write_s)
        assert isinstance(writer.transport, asyncio.WriteTransport)
        sock = writer.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, STREAM_SNDBUF)
        stream = self.broadcast.join(writer.transport, seen)
        try:
            await reader.read(1)
        finally:
            self.broadcast.leave(stream)

    def _rendered_now(self, name: str, render: Callable[[Night], str]) -> tuple[int, str]:
        """``render(night)`` and the change it shows, rendered again at most every
        :data:`RENDER_S` (a crowd arriving at once shares one)."""
        when, seen, html = self._rendered.get(name, (0.0, -1, ""))
        now = time.monotonic()
        if now - when >= RENDER_S:
            seen = self.broadcast.seq  # before the night is read: a change after is sent
            html = render(self.night())
            self._rendered[name] = (now, seen, html)
        return seen, html


_HOST = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])"
                   r"(?::[0-9]{1,5})?")


def phone_page(host: str) -> str:
    """The phone page at the address a browser asked for (its Host header), if that is a
    plain host name or address and port; '' for anything else."""
    return f"http://{host}/" if _HOST.fullmatch(host) else ""


def _head(status: HTTPStatus, headers: dict[str, str]) -> bytes:
    lines = [f"HTTP/1.1 {status.value} {status.phrase}", f"Server: {SERVER}",
             *(f"{name}: {value}" for name, value in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
