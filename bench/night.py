"""A busy game night on loopback, as JSON: tables publishing live state, phones on the page.

A real Mosquitto (:class:`~firmware_host.night.broker.LocalBroker`) and a real
``table-companion hub`` process confined to one core (``taskset``, as a Pi Zero 2 W's hub
is busy on one); ``--tables`` simulated tables (MQTT clients with the tables' logins and the
publisher's payloads) each send a live state ``--rate`` times a second, and ``--clients``
server-sent-event streams read the page's updates, in one selector thread of a process of
their own on the other core. A stream may be sent only the newest of several changes of a
table (the hub coalesces): reported are the latency of every update a stream saw (publish
to arrival), how many it saw, whether every stream ended with every table's last update,
the waits between a stream's updates, and the hub's RSS and CPU and the broker's RSS.
Targets: p99 <= 500 ms, every table's last update at every stream, hub RSS <= 60 MB.

``--nights N`` measures twice: with a fresh store, then with a store that holds N earlier
nights (:func:`past_nights`: a busy league's games, each with its luck and throws), where the
hub's p99 and RSS may grow by at most :data:`MOST_GROWTH`; after the second run the league's
pages are asked for once (every player rated), then a player's page and the game's QR code
after each of a few games a table finishes tonight (what players open as the night goes on),
and the RSS after that. With ``--heavy`` the first ``/players`` and a ``/dice`` (every game of
every night read) are asked for at once halfway through that second run instead, so its
latencies are those of the streams while the hub builds them; their own times are reported.

``--league`` measures a season instead (:func:`league_case`): 50 nights of 60 games at 8
tables in the hub's file, the first ``/players``, a player's page and ``/dice`` at a first
start and after a restart, and ``/``'s p99 alone and while they are built. Targets: the
first ``/players`` after a restart <= 1 s, a player's page <= 0.3 s, hub RSS <= 60 MB,
``/``'s p99 while they are built within 20% (and 20 ms) of it alone.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import random
import re
import resource
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from multiprocessing import connection
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from smoke import SMOKE, sized

from firmware_host.hub.store import Store
from firmware_host.night import topics
from firmware_host.night.broker import HUB_USER, LocalBroker, free_port

TARGET_P99_MS = 500
TARGET_HUB_RSS_MB = 60
MARK = re.compile(rb'"id":"table-(\d+)".*?Last: u(\d+)t(\d+)')
BUCKET_MS = 10_000  # latencies are counted per millisecond up to this
SETTLE_S = 5.0  # after the last update, for every stream to have every table's
PRIORITY = -10  # as root: the hub's and the streams' reader's, over other work on the machine
RAISED = os.geteuid() == 0 and not SMOKE  # a smoke run leaves the test suite's priority be
MOST_GROWTH = 0.20  # of p99 and RSS, from a fresh store to one with --nights earlier nights
PAST_TABLES, PAST_GAMES, PAST_PLAYERS = 10, 6, 12  # a past night: its tables, games a table
TONIGHT_GAMES = 3  # finished tonight after the league's pages were first asked for
LEAGUE_NIGHTS, LEAGUE_TABLES, LEAGUE_GAMES = 50, 8, 60  # --league: a season, games a night
TARGET_PLAYERS_S, TARGET_PLAYER_S = 1.0, 0.3  # the first /players, a player's page


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def waited_s(pid: int) -> float:
    """Seconds the process's threads were ready to run but waited for a core (other
    processes had it): what a shared machine adds to the latencies."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


def percentile(counts: list[int], fraction: float) -> float | None:
    """The latency in ms below which ``fraction`` of the counted ones fall."""
    total = sum(counts)
    if not total:
        return None
    rank = fraction * total
    running = 0
    for ms, count in enumerate(counts):
        running += count
        if running >= rank:
            return float(ms)
    return float(len(counts))


class Readers:
    """``count`` SSE streams read by one thread of their own process (the publishing
    process's hundred MQTT threads would hold its GIL). Each card's update carries the
    moment it was published (``Last: u<update>t<monotonic µs>``; the monotonic clock is the
    machine's). Every ``sample``-th stream times each update it sees (counted per
    millisecond) until the last second of publishing; from then on every stream looks for
    each table's last update, and none is timed (parsing them all slows the reading: the
    last two seconds' latencies grew from 0.3 to 1.4 s). The others read every byte but look
    at none before then: parsing 500 cards a second for each of 1,000 streams would take
    more than the bench's core, and the streams are sent the same bytes."""

    def __init__(self, port: int, count: int, tables: int, sample: int = 10) -> None:
        self.latencies = [0] * (BUCKET_MS + 1)
        self.gaps = [0] * (BUCKET_MS + 1)  # between a timed stream's updates, per ms
        self.seen_at: dict[socket.socket, int] = {}  # a timed stream's last update, in µs
        self.received = 0
        self.bytes = 0
        self.selector = selectors.DefaultSelector()
        self.buffers: dict[socket.socket, bytes] = {}
        self.last: dict[socket.socket, list[int]] = {}
        self.timed: set[socket.socket] = set()
        for n in range(count):
            # one loopback address per 50 streams, as phones each have their own address
            sock = socket.create_connection(
                ("127.0.0.1", port), source_address=(f"127.0.9.{1 + n // 50}", 0))
            sock.sendall(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n")
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.buffers[sock] = b""
            self.last[sock] = [0] * (tables + 1)
            if n % sample == 0:
                self.timed.add(sock)

    def read(self, until: float, ending: bool) -> None:
        latencies, timed = self.latencies, self.timed
        scratch = bytearray(262144)
        while time.monotonic() < until:
            for key, _ in self.selector.select(timeout=0.1):
                sock: socket.socket = key.fileobj  # type: ignore[assignment]
                try:
                    size = sock.recv_into(scratch)
                except BlockingIOError:
                    continue
                self.bytes += size
                if sock not in timed and not ending:
                    continue
                data = bytes(scratch[:size])
                now = time.monotonic_ns() // 1000
                buffer = self.buffers[sock] + data
                end = buffer.rfind(b"\n\n") + 2
                self.buffers[sock] = buffer[end:]
                last = self.last[sock]
                if sock in timed and not ending and MARK.search(buffer, 0, end):
                    if sock in self.seen_at:
                        self.gaps[min(BUCKET_MS, (now - self.seen_at[sock]) // 1000)] += 1
                    self.seen_at[sock] = now
                for found in MARK.finditer(buffer, 0, end):
                    table, mark = int(found.group(1)), int(found.group(2))
                    last[table] = max(last[table], mark)
                    if sock in timed and not ending:  # (the ending's parsing is slower)
                        self.received += 1
                        latencies[min(BUCKET_MS, (now - int(found.group(3))) // 1000)] += 1

    @staticmethod
    def serve(port: int, count: int, tables: int, cores: set[int],
              pipe: connection.Connection) -> None:
        """In the readers' process: connect, say so, read until told the publishing is
        ending, then the last update's number and a deadline; then send back the figures."""
        os.sched_setaffinity(0, cores)
        if RAISED:
            os.nice(PRIORITY)  # the streams' reader, like the phones, is not the bench's limit
        readers = Readers(port, count, tables)
        pipe.send("connected")
        while not pipe.poll():
            readers.read(time.monotonic() + 0.05, ending=False)
        pipe.recv()  # the last second of publishing: from now on every stream is looked at
        while not pipe.poll():
            readers.read(time.monotonic() + 0.05, ending=True)
        final, settle_s = pipe.recv()
        deadline = time.monotonic() + settle_s
        while time.monotonic() < deadline and not all(
                min(last[1:]) >= final for last in readers.last.values()):
            readers.read(time.monotonic() + 0.2, ending=True)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        pipe.send({"cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
                   "latencies": readers.latencies, "gaps": readers.gaps,
                   "received": readers.received,
                   "bytes": readers.bytes, "timed": len(readers.timed),
                   "complete": sum(min(last[1:]) >= final for last in readers.last.values())})


def cores() -> tuple[list[str], set[int]]:
    """The hub's command prefix pinning it to one core, and the cores left for the rest
    (all of them, and no prefix, without taskset or a second core). As root the hub also
    runs at a higher priority (nice -10): on a shared machine other work would otherwise
    take most of its core (the JSON says how long it still waited for it)."""
    available = sorted(os.sched_getaffinity(0))
    first = []
    if RAISED:
        first = ["nice", "-n", str(PRIORITY)]
        # Linux shares the cores between sessions (autogroups) before nice counts: the
        # bench's session (hub, streams, tables) gets the same priority over the others
        with contextlib.suppress(OSError):
            Path("/proc/self/autogroup").write_text(str(PRIORITY))
    if len(available) < 2 or shutil.which("taskset") is None:
        return first, set(available)
    return [*first, "taskset", "-c", str(available[0])], set(available[1:])


def past_nights(path: Path, nights: int, tables: int = PAST_TABLES,
                games: int = PAST_TABLES * PAST_GAMES) -> int:
    """``nights`` evenings before today into the hub's file at ``path``, as a hub would have
    kept them: ``games`` games of Dalmatian a night (by default :data:`PAST_GAMES` at each
    of :data:`PAST_TABLES` tables) shared among ``tables`` tables, each among four of
    :data:`PAST_PLAYERS` regulars, with its luck and 60 throws. The number of games."""
    rng = random.Random(nights)
    store = Store.open(path)
    count = 0
    for back in range(nights, 0, -1):
        night = (datetime.now(UTC) - timedelta(days=back)).date().isoformat()
        for table in range(1, tables + 1):
            table_id = f"past-{table}"
            ids = []
            for number in range((games - table) // tables + 1):
                game_id = count + 1
                at = 17 * 60 + number * 360 // -(-games // tables)  # 17:00 to 23:00
                store.apply(topics.parse(topics.game_topic(table_id, game_id), league_game(
                    rng, f"Past {table}", game_id, f"{night}T{at // 60:02d}:{at % 60:02d}"
                                                   ":00+00:00")))
                ids.append(game_id)
                count += 1
            store.apply(topics.Live(table_id, f"Past {table}", "", (), "", "idle", (), (), "",
                                    0, tuple(ids), f"{night}T23:59:00+00:00"))
    store.close()
    return count


def league_game(rng: random.Random, table: str, game_id: int, started: str) -> bytes:
    """A 40-minute game of Dalmatian among four of the :data:`PAST_PLAYERS` regulars at
    ``table``, with its luck and 60 throws, as a table sends it."""
    names = [f"Player {n}" for n in range(1, PAST_PLAYERS + 1)]
    players = rng.sample(names, 4)
    scores = [rng.randint(10, 40) for _ in players]
    begun = datetime.fromisoformat(started)
    return json.dumps({
        "v": 1, "name": table, "id": game_id, "game": "Dalmatian", "started": started,
        "ended": (begun + timedelta(minutes=40)).isoformat(), "night": begun.date().isoformat(),
        "players": [{"seat": seat, "name": name, "score": score,
                     "place": 1 + sum(other > score for other in scores)}
                    for seat, (name, score) in enumerate(zip(players, scores, strict=True))],
        "luck": [{"seat": seat, "luck": rng.randint(-500, 500),
                  "decisions": rng.randint(0, 300)} for seat in range(4)],
        "throws": [f"{n % 4}:button:" + "-".join(
            str(rng.randint(1, 6)) for _ in range(rng.randint(1, 5)))
            for n in range(60)]}).encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=sized(30.0, 3.0))
    parser.add_argument("--tables", type=int, default=sized(100, 3))
    parser.add_argument("--rate", type=float, default=5.0, help="live updates a second a table")
    parser.add_argument("--clients", type=int, default=sized(1000, 20), help="SSE streams")
    parser.add_argument("--nights", type=int, default=0,
                        help="measure again with this many earlier nights in the store")
    parser.add_argument("--heavy", action="store_true",
                        help="with --nights: ask for /players and /dice halfway through")
    parser.add_argument("--league", action="store_true",
                        help="instead: a season in the hub's file (--nights, default "
                             f"{LEAGUE_NIGHTS}), the league's pages timed at two starts")
    parser.add_argument("--smoke", action="store_true",
                        help="3 s, 3 tables, 20 streams unless given; exits 0 whatever the "
                             "figures (the test suite runs it to see it run)")
    args = parser.parse_args()
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per stream
    if args.league:
        season = league_case(args)
        print(json.dumps(season, indent=2))
        return 0 if season["ok"] or args.smoke else 1
    fresh = once(args, 0)
    if not args.nights:
        print(json.dumps(fresh, indent=2))
        return 0 if fresh["ok"] or args.smoke else 1
    kept = once(args, args.nights)
    growth = {
        "p99": kept["latency_ms"]["p99"] / max(1.0, fresh["latency_ms"]["p99"] or 1.0) - 1,
        "rss": kept["hub"]["rss_mb_peak"] / fresh["hub"]["rss_mb_peak"] - 1}
    result = {"bench": "night-store", "nights": args.nights, "fresh": fresh, "kept": kept,
              "growth": {key: round(value, 3) for key, value in growth.items()},
              "goal_growth": MOST_GROWTH,
              "ok": fresh["ok"] and kept["ok"] and all(v <= MOST_GROWTH for v in growth.values())}
    print(json.dumps(result, indent=2))
    return 0 if result["ok"] or args.smoke else 1


def once(args: argparse.Namespace, nights: int) -> dict[str, Any]:
    """One measurement, with ``nights`` earlier nights in the hub's store."""
    ids = [f"table-{n}" for n in range(1, args.tables + 1)]
    every_core = os.sched_getaffinity(0)
    pin, rest = cores()
    with tempfile.TemporaryDirectory() as folder:
        stored = past_nights(Path(folder) / "night.sqlite3", nights) if nights else 0
        broker = LocalBroker(Path(folder), [HUB_USER, *ids])
        broker.start()
        port = free_port()
        hub = subprocess.Popen(
            [*pin, sys.executable, "-m", "firmware_host.cli", "hub", "--broker", broker.url,
             "--password-file", str(broker.password_file(HUB_USER)), "--listen",
             f"127.0.0.1:{port}", "--db", f"{folder}/night.sqlite3"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.sched_setaffinity(0, rest)  # the tables and the phones stay off the hub's core
        try:
            result = run(args, ids, broker, hub, port, pin="taskset" in pin, rest=rest,
                         heavy=args.heavy and nights > 0)
            result["stored_games"] = stored
            if nights:
                result["hub"].update(league_pages(port, hub.pid, broker, ids[0]))
            return result
        finally:
            hub.terminate()
            hub.wait(timeout=10)
            broker.stop()
            os.sched_setaffinity(0, every_core)  # the next run's hub is pinned again


def run(args: argparse.Namespace, ids: list[str], broker: LocalBroker,
        hub: subprocess.Popen[bytes], port: int, pin: bool, rest: set[int],
        heavy: bool = False) -> dict[str, Any]:
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
    here, there = multiprocessing.Pipe()
    reading = multiprocessing.get_context("fork").Process(
        target=Readers.serve, args=(port, args.clients, args.tables, rest, there))
    reading.start()
    if not here.poll(60):
        raise SystemExit("the streams did not connect within 60 s")
    here.recv()
    time.sleep(1.0)  # every stream has its first state
    rss_start, cpu_start, wall_start = rss_mb(hub.pid), cpu_s(hub.pid), time.monotonic()
    waited_start = waited_s(hub.pid)
    peak = rss_start
    period = 1.0 / args.rate
    count = 0
    start = time.monotonic()
    ending = False
    pages: dict[str, float] = {}
    askers = [threading.Thread(target=timed_read, args=(port, path, args.seconds / 2, pages))
              for path in ("/players", "/dice")] if heavy else []
    for asker in askers:
        asker.start()
    while time.monotonic() - start < args.seconds:
        if not ending and time.monotonic() - start >= args.seconds - 1.0:
            here.send("ending")
            ending = True
        tick = start + count * period
        time.sleep(max(0.0, tick - time.monotonic()))
        count += 1
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        for number, (table, client) in enumerate(zip(ids, clients, strict=True), start=1):
            live = topics.Live(table, table.replace("-", " ").title(), "Dalmatian",
                               ("Ann", "Ben"), "Ann", "roll", (number % 6 + 1, 3), (count, 0),
                               f"u{count}t{time.monotonic_ns() // 1000}", count, (), at)
            client.publish(topics.live_topic(table), topics.live_payload(live), qos=1,
                           retain=True)
        if count % int(args.rate) == 0:
            peak = max(peak, rss_mb(hub.pid))
    for asker in askers:
        asker.join()
    # the last updates arrive (a stream that fell behind is sent them once it drains)
    here.send((count, SETTLE_S))
    figures = here.recv()
    reading.join(timeout=10)
    wall = time.monotonic() - wall_start
    cpu = (cpu_s(hub.pid) - cpu_start) / wall * 100
    waited = (waited_s(hub.pid) - waited_start) / wall * 100
    for client in clients:
        client.disconnect()
        client.loop_stop()
    assert broker.process is not None
    complete = figures["complete"]
    p99 = percentile(figures["latencies"], 0.99)
    p50 = percentile(figures["latencies"], 0.5)
    worst = max((ms for ms, n in enumerate(figures["latencies"]) if n), default=None)
    hub_rss = max(peak, rss_mb(hub.pid))
    result: dict[str, Any] = {
        "bench": "night", "seconds": args.seconds, "tables": args.tables, "rate_hz": args.rate,
        "sse_clients": args.clients, "hub_on_one_core": pin,
        "hub_and_readers_nice": PRIORITY if RAISED else 0,
        "updates_published": count * args.tables,
        "timed_clients": figures["timed"],
        "updates_seen_at_timed_clients": figures["received"],
        "updates_seen_per_timed_client_and_table_per_s": round(
            figures["received"] / max(1, figures["timed"] * args.tables) / (args.seconds - 1), 2),
        "mb_read_by_clients": round(figures["bytes"] / 1e6, 1),
        "clients_cpu_s": figures["cpu_s"],
        "clients_with_every_table_latest": complete,
        "latency_ms": {"p50": p50, "p99": p99, "max": worst},
        # a stall shows here, not in the latencies: a stream is then sent only each
        # table's newest update, published just before the hub could send again
        "gap_between_a_streams_updates_ms": {
            "p99": percentile(figures["gaps"], 0.99),
            "max": max((ms for ms, n in enumerate(figures["gaps"]) if n), default=None)},
        "hub": {"rss_mb_start": round(rss_start, 1), "rss_mb_peak": round(hub_rss, 1),
                "cpu_percent_of_one_core": round(cpu, 1),
                "ready_but_waiting_for_a_core_percent": round(waited, 1)},
        "broker": {"rss_mb": round(rss_mb(broker.process.pid), 1)},
        **({"heavy_pages_asked_at_s": round(args.seconds / 2, 1),
            "heavy_pages_s": pages} if heavy else {}),
        "load_average_1min_at_end": round(os.getloadavg()[0], 2),
        "goals": {
            "publish_to_page_p99_ms": {"value": p99, "goal": TARGET_P99_MS,
                                       "ok": p99 is not None and p99 <= TARGET_P99_MS},
            "every_table_latest_at_every_client": {
                "value": complete, "goal": args.clients, "ok": complete == args.clients},
            "hub_rss_mb": {"value": round(hub_rss, 1), "goal": TARGET_HUB_RSS_MB,
                           "ok": hub_rss <= TARGET_HUB_RSS_MB},
        },
    }
    result["ok"] = all(goal["ok"] for goal in result["goals"].values())
    return result


def league_pages(port: int, pid: int, broker: LocalBroker, table: str) -> dict[str, Any]:
    """The league's pages asked for once (every game of every night rated), a player's
    page, the player's page again after each of :data:`TONIGHT_GAMES` games ``table``
    finishes tonight (every night's games read again for it, or only tonight's), then the
    game's short address as its QR code holds it, and the hub's RSS after."""
    started = time.monotonic()
    read(port, "/players", 120)
    first = time.monotonic() - started
    started = time.monotonic()
    read(port, "/players/player-1", 60)
    page_s = time.monotonic() - started
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-{table}-tonight")
    client.username_pw_set(table, broker.password_file(table).read_text().strip())
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    rng = random.Random(0)
    after, scans = [], []
    for game_id in range(1, TONIGHT_GAMES + 1):
        now = datetime.now(UTC)
        game = topics.parse(topics.game_topic(table, game_id), league_game(
            rng, table, game_id, (now - timedelta(minutes=40)).isoformat(timespec="seconds")))
        live = topics.Live(table, table, "", (), "", "idle", (), (), "", 0,
                           tuple(range(1, game_id + 1)), now.isoformat(timespec="milliseconds"))
        for topic, payload in ((topics.game_topic(table, game_id), topics.game_payload(game)),
                               (topics.live_topic(table), topics.live_payload(live))):
            client.publish(topic, payload, qos=1, retain=True).wait_for_publish(10)
        deadline = time.monotonic() + 30
        while (table, game_id) not in {(g["table"], g["id"]) for g in json.loads(
                read(port, "/night.json", 10))["games"]}:
            if time.monotonic() > deadline:
                raise SystemExit(f"tonight's game {game_id} not at the hub within 30 s")
            time.sleep(0.05)
        started = time.monotonic()
        read(port, "/players/player-1", 60)
        after.append(round(time.monotonic() - started, 3))
        started = time.monotonic()
        read(port, topics.short_path(table, game_id), 60)  # and on to the game's page
        scans.append(round(time.monotonic() - started, 3))
    client.disconnect()
    client.loop_stop()
    return {"league_first_s": round(first, 2), "player_page_s": round(page_s, 3),
            "player_page_after_a_game_tonight_s": after,
            "qr_code_to_game_page_after_it_s": scans,
            "rss_mb_after_league": round(rss_mb(pid), 1)}


def league_case(args: argparse.Namespace) -> dict[str, Any]:
    """A season in the hub's file (``--nights``, default :data:`LEAGUE_NIGHTS`, of
    :data:`LEAGUE_GAMES` games at :data:`LEAGUE_TABLES` tables), the hub on one core,
    started twice (the second start finds the closed nights kept): at each start ``/`` is
    asked 20 times a second, first alone, then while the league's pages are asked for once
    each (the first ``/players``, a player's page, ``/dice``); their times, ``/``'s p99
    alone and meanwhile, and the hub's RSS after."""
    nights = args.nights or sized(LEAGUE_NIGHTS, 3)
    every_core = os.sched_getaffinity(0)
    pin, rest = cores()
    starts = {}
    with tempfile.TemporaryDirectory() as folder:
        stored = past_nights(Path(folder) / "night.sqlite3", nights, LEAGUE_TABLES,
                             LEAGUE_GAMES)
        broker = LocalBroker(Path(folder), [HUB_USER])
        broker.start()
        try:
            for start in ("first_start", "restarted"):
                port = free_port()
                hub = subprocess.Popen(
                    [*pin, sys.executable, "-m", "firmware_host.cli", "hub", "--broker",
                     broker.url, "--password-file", str(broker.password_file(HUB_USER)),
                     "--listen", f"127.0.0.1:{port}", "--db", f"{folder}/night.sqlite3"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                os.sched_setaffinity(0, rest)
                try:
                    starts[start] = league_start(port, hub.pid)
                finally:
                    hub.terminate()
                    hub.wait(timeout=10)
                    os.sched_setaffinity(0, every_core)
        finally:
            broker.stop()
    kept = starts["restarted"]
    goals = {
        "players_first_s": (kept["players_first_s"], TARGET_PLAYERS_S),
        "player_page_s": (kept["player_page_s"], TARGET_PLAYER_S),
        "hub_rss_mb": (max(s["hub_rss_mb"] for s in starts.values()), TARGET_HUB_RSS_MB),
        "root_p99_ms_while_built": (kept["root_p99_ms"]["while_built"],
                                    kept["root_p99_ms"]["alone"] * 1.2 + 20),
    }
    return {"bench": "night-league", "nights": nights, "stored_games": stored,
            "tables": LEAGUE_TABLES, "hub_on_one_core": "taskset" in pin, **starts,
            "goals": {name: {"value": value, "goal": round(goal, 1), "ok": value <= goal}
                      for name, (value, goal) in goals.items()},
            "ok": all(value <= goal for value, goal in goals.values())}


def league_start(port: int, pid: int) -> dict[str, Any]:
    """One start of the league case: ``/`` alone, then while the league's pages are built."""
    deadline = time.monotonic() + 30
    while True:
        try:
            read(port, "/night.json", 2)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit("the hub did not start") from None
            time.sleep(0.1)
    alone = probe(port, lambda: time.sleep(sized(5.0, 1.0)))
    times: dict[str, float] = {}

    def pages() -> None:
        for name, path in (("players_first_s", "/players"),
                           ("player_page_s", "/players/player-1"),
                           ("players_again_s", "/players"), ("dice_s", "/dice")):
            started = time.monotonic()
            read(port, path, 120)
            times[name] = round(time.monotonic() - started, 3)
        time.sleep(0.5)

    meanwhile = probe(port, pages)
    return {**times, "root_p99_ms": {"alone": alone, "while_built": meanwhile},
            "hub_rss_mb": round(rss_mb(pid), 1)}


def probe(port: int, during: Callable[[], None]) -> float:
    """``/``'s p99 in ms, asked 20 times a second while ``during()`` runs."""
    taken: list[float] = []
    done = threading.Event()

    def ask() -> None:
        while not done.is_set():
            started = time.monotonic()
            read(port, "/", 10)
            taken.append((time.monotonic() - started) * 1000)
            done.wait(max(0.0, 0.05 - (time.monotonic() - started)))

    asker = threading.Thread(target=ask)
    asker.start()
    try:
        during()
    finally:
        done.set()
        asker.join()
    taken.sort()
    return round(taken[min(len(taken) - 1, int(0.99 * len(taken)))], 1)


def timed_read(port: int, path: str, after: float, times: dict[str, float]) -> None:
    """Ask for ``path`` ``after`` seconds from now; how long its answer took in ``times``."""
    time.sleep(after)
    started = time.monotonic()
    read(port, path, 120)
    times[path] = round(time.monotonic() - started, 3)


def read(port: int, path: str, timeout: float) -> bytes:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as reply:
        data: bytes = reply.read()
        return data


if __name__ == "__main__":
    sys.exit(main())
