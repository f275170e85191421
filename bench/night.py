"""A busy game night on loopback, as JSON: tables publishing live state, phones on the page.

A real Mosquitto (:class:`~firmware_host.night.broker.LocalBroker`) and a real
``table-companion hub`` process; ``--tables`` simulated tables (MQTT clients with the
tables' logins and the publisher's payloads) each send a live state ``--rate`` times a
second, and ``--clients`` server-sent-event streams read the page's updates, all in one
selector thread. Reported: publish-to-page latency (every update at every client), updates
lost, the hub's RSS and CPU, the broker's RSS. Targets: p99 <= 500 ms, hub RSS <= 40 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from firmware_host.night import topics
from firmware_host.night.broker import HUB_USER, LocalBroker, free_port

TARGET_P99_MS = 500
TARGET_HUB_RSS_MB = 40
MARK = re.compile(rb'"id":"(table-\d+)".*?Last: u(\d+)')


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], fraction: float) -> float:
    return values[min(len(values) - 1, int(fraction * len(values)))] if values else 0.0


class Readers:
    """``count`` SSE streams read by one thread; each card's mark is timed on arrival."""

    def __init__(self, port: int, count: int, sent: dict[tuple[str, int], float]) -> None:
        self.sent = sent
        self.latencies: list[float] = []
        self.received = 0
        self.selector = selectors.DefaultSelector()
        self.buffers: dict[socket.socket, bytes] = {}
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n")
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.buffers[sock] = b""
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stop.is_set():
            for key, _ in self.selector.select(timeout=0.2):
                sock: socket.socket = key.fileobj  # type: ignore[assignment]
                try:
                    data = sock.recv(65536)
                except BlockingIOError:
                    continue
                now = time.monotonic()
                buffer = self.buffers[sock] + data
                *events, rest = buffer.split(b"\n\n")
                self.buffers[sock] = rest
                for event in events:
                    found = MARK.search(event)
                    if found is not None and event.startswith(b"event: card"):
                        sent = self.sent.get((found.group(1).decode(), int(found.group(2))))
                        if sent is not None:
                            self.received += 1
                            self.latencies.append(now - sent)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        for sock in self.buffers:
            sock.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rate", type=float, default=5.0, help="live updates a second a table")
    parser.add_argument("--clients", type=int, default=100, help="SSE streams")
    args = parser.parse_args()
    ids = [f"table-{n}" for n in range(1, args.tables + 1)]
    with tempfile.TemporaryDirectory() as folder:
        broker = LocalBroker(Path(folder), [HUB_USER, *ids])
        broker.start()
        port = free_port()
        hub = subprocess.Popen(
            [sys.executable, "-m", "firmware_host.cli", "hub", "--broker", broker.url,
             "--password-file", str(broker.password_file(HUB_USER)), "--listen",
             f"127.0.0.1:{port}", "--db", f"{folder}/night.sqlite3"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            return run(args, ids, broker, hub, port)
        finally:
            hub.terminate()
            hub.wait(timeout=10)
            broker.stop()


def run(args: argparse.Namespace, ids: list[str], broker: LocalBroker,
        hub: subprocess.Popen[bytes], port: int) -> int:
    deadline = time.monotonic() + 10
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/night.json", timeout=2).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit("the hub did not start") from None
            time.sleep(0.1)
    clients = []
    for table in ids:
        client = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-{table}")
        client.username_pw_set(table, broker.password_file(table).read_text().strip())
        client.connect("127.0.0.1", broker.port)
        client.loop_start()
        clients.append(client)
    sent: dict[tuple[str, int], float] = {}
    readers = Readers(port, args.clients, sent)
    readers.thread.start()
    time.sleep(1.0)  # every stream has its first state
    rss_start, cpu_start, wall_start = rss_mb(hub.pid), cpu_s(hub.pid), time.monotonic()
    peak = rss_start
    period = 1.0 / args.rate
    count = 0
    start = time.monotonic()
    while time.monotonic() - start < args.seconds:
        tick = start + count * period
        time.sleep(max(0.0, tick - time.monotonic()))
        count += 1
        for offset, (table, client) in enumerate(zip(ids, clients, strict=True)):
            live = topics.Live(table, table.replace("-", " ").title(), "Dalmatian",
                               ("Ann", "Ben"), "Ann", "roll", (offset % 6 + 1, 3), (count, 0),
                               f"u{count}", count, (), "2026-11-24T20:00:00.000+00:00")
            sent[(table, count)] = time.monotonic()
            client.publish(topics.live_topic(table), topics.live_payload(live), qos=1,
                           retain=True)
        if count % int(args.rate) == 0:
            peak = max(peak, rss_mb(hub.pid))
    time.sleep(1.0)  # the last updates arrive
    cpu = (cpu_s(hub.pid) - cpu_start) / (time.monotonic() - wall_start) * 100
    readers.close()
    for client in clients:
        client.loop_stop()
        client.disconnect()
    assert broker.process is not None
    latencies = sorted(readers.latencies)
    expected = len(sent) * args.clients
    p99 = percentile(latencies, 0.99) * 1000
    hub_rss = max(peak, rss_mb(hub.pid))
    result: dict[str, Any] = {
        "bench": "night", "seconds": args.seconds, "tables": args.tables, "rate_hz": args.rate,
        "sse_clients": args.clients, "updates_published": len(sent),
        "updates_expected_at_clients": expected, "updates_seen_at_clients": readers.received,
        "latency_ms": {"p50": round(percentile(latencies, 0.5) * 1000, 1),
                       "p99": round(p99, 1),
                       "max": round(latencies[-1] * 1000, 1) if latencies else None},
        "hub": {"rss_mb_start": round(rss_start, 1), "rss_mb_peak": round(hub_rss, 1),
                "cpu_percent_of_one_core": round(cpu, 1)},
        "broker": {"rss_mb": round(rss_mb(broker.process.pid), 1)},
        "goals": {
            "publish_to_page_p99_ms": {"value": round(p99, 1), "goal": TARGET_P99_MS,
                                       "ok": p99 <= TARGET_P99_MS},
            "hub_rss_mb": {"value": round(hub_rss, 1), "goal": TARGET_HUB_RSS_MB,
                           "ok": hub_rss <= TARGET_HUB_RSS_MB},
        },
    }
    result["ok"] = all(goal["ok"] for goal in result["goals"].values())
    print(json.dumps(result, indent=2))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
