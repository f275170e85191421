"""Past nights are closed and every table's share is bounded, through real Mosquitto with
the shipped ACL and a real hub: a table's login that sends games dated back a year is
refused, counted and logged in one line, and the league and the night list do not change;
games that got in (a hub opened with ``--open-since``) are taken out by the host with
``table-companion league remove``, and the running hub logs it, drops them and rates the
rest again; a table at every bound leaves the other tables on the page, and one changing a
finished game 20 times a second costs every stream that game's line alone."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from night_parts import PHONE, ROOT, Broker, Hub, hang_up, mqtt_client, send, until

from firmware_host.hub.league.league import build
from firmware_host.hub.league.roster import Roster
from firmware_host.hub.league.shares import Bounds, closed_before
from firmware_host.hub.page import SHOWN_GAMES
from firmware_host.hub.store import stored_games
from firmware_host.journal import night_of
from firmware_host.night import topics

BACKDATED = 30


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as reply:
        text = reply.read().decode()
    return json.loads(text) if reply.headers["Content-Type"] == "application/json" else text


def game(table: str, name: str, game_id: int, started: datetime, ann_place: int
         ) -> topics.Game:
    ended = started + timedelta(minutes=20)
    return topics.Game(table, name, game_id, "Dalmatian", started.isoformat(),
                       ended.isoformat(), night_of(started).isoformat(),
                       (topics.Player(0, "Ann", 10 * (3 - ann_place), ann_place),
                        topics.Player(1, "Ben", 10 * ann_place, 3 - ann_place)))


def honest_night(broker: Broker, hub: Hub) -> None:
    """Table 1's three games of tonight, Ann winning each, shown on the page."""
    table = mqtt_client(broker, "table-1")
    now = datetime.now().astimezone().replace(microsecond=0)
    for game_id in (1, 2, 3):
        played = game("table-1", "Table 1", game_id, now - timedelta(minutes=90 - 25 * game_id),
                      1)
        send(table, topics.game_topic("table-1", game_id), topics.game_payload(played))
    send(table, topics.live_topic("table-1"), topics.live_payload(topics.Live(
        "table-1", "Table 1", "", (), "", "idle", (), (), "", 0, (1, 2, 3),
        now.isoformat())))
    hang_up(table)
    until(lambda: len(hub.night()["games"]) == 3, 10, "table 1's three games on the page")


def backdate(broker: Broker) -> None:
    """Table 3's login sends 30 games named "Table 1", a week apart back over a year, each
    a loss of Ann's."""
    forger = mqtt_client(broker, "table-3")
    now = datetime.now().astimezone().replace(microsecond=0)
    for week in range(1, BACKDATED + 1):
        forged = game("table-3", "Table 1", 100 + week, now - timedelta(weeks=week), 2)
        send(forger, topics.game_topic("table-3", forged.id), topics.game_payload(forged))
    hang_up(forger)


def league_state(hub: Hub) -> tuple[str, str, str, list[Any]]:
    return (get(hub.url + "players"), get(hub.url + "nights"),
            json.dumps(get(hub.url + "league.json")), hub.night()["games"])


def test_games_dated_back_a_year_are_refused_and_change_nothing(broker: Broker,
                                                                hub: Hub) -> None:
    honest_night(broker, hub)
    before = league_state(hub)
    backdate(broker)
    until(lambda: hub.night()["rejected"] == BACKDATED, 10, "30 backdated games refused")
    night = hub.night()
    assert night["refused"] == {"table-3": {"closed": BACKDATED}}
    assert "table-3" in night["trouble"]  # the banner tells the host
    assert league_state(hub) == before
    assert get(hub.url + "nights").count('href="/nights/') == 1
    ann = get(hub.url + "players/ann.json")
    assert [g["place"] for g in ann["games"]] == [1, 1, 1]
    assert hub.tool is not None
    lines = [line for line in hub.tool.output().splitlines() if "refused" in line]
    assert len(lines) == 1, lines  # one line a minute, not one a game
    assert "games of a closed night: 1 from table-3" in lines[0]  # the rest within a minute
    assert "an older night is read-only" in lines[0]

    hub.tool.stop()  # the broker's retained copies come again, and are refused again
    hub.start()
    until(lambda: hub.night()["rejected"] == BACKDATED, 10, "the copies refused again")
    assert league_state(hub) == before


def test_the_window_after_a_night_turns_is_six_hours() -> None:
    window = Bounds().window
    zone = datetime.now().astimezone().tzinfo
    at = datetime(2026, 11, 25, 11, 59, tzinfo=zone)  # the 24th turned at 06:00 on the 25th
    assert closed_before(at, window) == "2026-11-24"  # until noon it takes games
    assert closed_before(at + timedelta(minutes=1), window) == "2026-11-25"
    assert closed_before(at, window, "2026-11-01") == "2026-11-01"


def league_remove(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware_host.cli", "league", "remove",
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=30)


def test_the_host_removes_a_tables_games_and_the_league_rates_again(
        tmp_path: Path, broker: Broker) -> None:
    year_ago = (datetime.now() - timedelta(weeks=BACKDATED + 1)).date().isoformat()
    hub = Hub(tmp_path, broker, args=("--open-since", year_ago)).start()
    try:
        honest_night(broker, hub)
        backdate(broker)  # a hub opened to old nights takes them
        until(lambda: get(hub.url + "nights").count('href="/nights/') == BACKDATED + 1, 10,
              "31 nights listed")
        db = tmp_path / "night.sqlite3"
        nights = sorted({g.night for g in stored_games(db) if g.table == "table-3"})
        for night in nights[:-1]:
            done = league_remove("--db", str(db), "--night", night, "--table", "table-3")
            assert done.returncode == 0, done.stderr
            assert done.stdout.startswith("removed 1 game of table-3 from the night of ")
        last = [g for g in stored_games(db) if g.night == nights[-1] and g.table == "table-3"]
        done = league_remove("--db", str(db), "--night", nights[-1], "--table", "Table 3",
                             "--game", str(last[0].id))
        assert done.returncode == 0, done.stderr
        until(lambda: len(get(hub.url + "players/ann.json")["games"]) == 3, 10,
              "Ann's three games of tonight alone")
        assert get(hub.url + "nights").count('href="/nights/') == 1
        ann = get(hub.url + "players/ann.json")
        assert [g["place"] for g in ann["games"]] == [1, 1, 1]
        fresh = build(stored_games(db), Roster())
        assert ann["rating"]["mu"] == round(fresh.players["ann"].rating.mu, 3)
        assert hub.tool is not None
        tool = hub.tool
        said = until(lambda: [line for line in tool.output().splitlines()
                              if "the host removed" in line][BACKDATED - 1:] and [
            line for line in tool.output().splitlines() if "the host removed" in line], 5,
            "a line for each removal in the hub's log")
        assert len(said) == BACKDATED and "1 game of table-3 from the night of" in said[0]

        nothing = league_remove("--db", str(db), "--night", nights[0], "--table", "table-3")
        assert nothing.returncode == 2
        assert "table-3 has no game in the night of" in nothing.stderr
        wrong = league_remove("--db", str(tmp_path / "none.sqlite3"), "--night", nights[0],
                              "--table", "table-3")
        assert wrong.returncode == 2 and "no hub's file there" in wrong.stderr
    finally:
        if hub.tool is not None:
            hub.tool.stop()


def test_a_table_at_its_bounds_leaves_the_others_on_the_page(broker: Broker, hub: Hub) -> None:
    """Table 3 sends 250 games of tonight and changes one 120 times, then floods live
    states; table 4 brings 4 new names a game: each is refused past its bound, and table
    1's games and players stay on the page, with /players under a second."""
    honest_night(broker, hub)
    bounds = Bounds()
    now = datetime.now().astimezone().replace(microsecond=0)
    started = now - timedelta(minutes=30)
    flood = mqtt_client(broker, "table-3")
    for game_id in range(1, bounds.games + 51):
        send(flood, topics.game_topic("table-3", game_id), topics.game_payload(
            game("table-3", "Table 3", game_id, started, 2)))
    first = game("table-3", "Table 3", 1, started, 2)
    for score in range(bounds.changes + 20):
        changed = replace(first, players=(topics.Player(0, "Ann", score, 2),
                                          topics.Player(1, "Ben", 99, 1)))
        send(flood, topics.game_topic("table-3", 1), topics.game_payload(changed))
    live = topics.Live("table-3", "Table 3", "", (), "", "idle", (), (), "", 0,
                       tuple(range(1, bounds.games + 1)), now.isoformat())
    send(flood, topics.live_topic("table-3"), topics.live_payload(live))
    names = mqtt_client(broker, "table-4")
    for game_id in range(1, 31):
        many = topics.Game("table-4", "Table 4", game_id, "Dalmatian", started.isoformat(),
                           now.isoformat(), night_of(started).isoformat(), tuple(
                               topics.Player(seat, f"Guest {game_id}-{seat}", seat, seat + 1)
                               for seat in range(4)))
        send(names, topics.game_topic("table-4", game_id), topics.game_payload(many))
    send(names, topics.live_topic("table-4"), topics.live_payload(topics.Live(
        "table-4", "Table 4", "", (), "", "idle", (), (), "", 0, tuple(range(1, 31)),
        now.isoformat())))
    hang_up(names)
    for moves in range(2000):  # a flood of live states, as fast as the broker takes them
        flood.publish(topics.live_topic("table-3"), topics.live_payload(
            replace(live, moves=moves, phase="roll")))
    until(lambda: hub.night()["refused"].get("table-3", {}).get("rate", 0) > 0, 10,
          "table 3's flood refused")
    hang_up(flood)
    refused = hub.night()["refused"]
    assert refused["table-3"]["games"] == 50 and refused["table-3"]["changes"] == 20
    assert refused["table-4"] == {"names": 30 - bounds.names // 4}
    night = hub.night()
    by_table = {t: sum(g["table"] == t for g in night["games"]) for t in
                ("table-1", "table-3", "table-4")}
    assert by_table == {"table-1": 3, "table-3": bounds.games, "table-4": bounds.names // 4}
    assert "table-3, table-4" in night["trouble"]
    begun = time.monotonic()
    players = get(hub.url + "players")
    took = time.monotonic() - begun
    print(f"/players with a table at each bound: {took:.2f} s, {len(players)} bytes")
    assert took < 1.0
    assert 'href="/players/ann"' in players and 'href="/players/guest-1-0"' in players


def stream_bytes(hub: Hub, seconds: float, during: Callable[[], None]) -> int:
    """The bytes an ``/events`` stream opened before ``during()`` gets while it runs and
    ``seconds`` after it began."""
    with socket.create_connection(("127.0.0.1", hub.port), timeout=5) as stream:
        stream.sendall(b"GET /events HTTP/1.1\r\nHost: hub\r\n\r\n")
        head = b""
        while b"event: state" not in head or not head.endswith(b"\n\n"):
            head += stream.recv(65536)
        got = [0]

        def count() -> None:
            stream.settimeout(0.2)
            until_s = time.monotonic() + seconds
            while time.monotonic() < until_s:
                with contextlib.suppress(TimeoutError):
                    got[0] += len(stream.recv(65536))

        counter = threading.Thread(target=count)
        counter.start()
        during()
        counter.join()
    return got[0]


def test_a_finished_game_changed_20_times_a_second_sends_only_its_line(
        broker: Broker, hub: Hub, browser: Any) -> None:
    honest_night(broker, hub)
    busy = mqtt_client(broker, "table-2")  # a busy night: 12 more games among 16 players
    now = datetime.now().astimezone().replace(microsecond=0)
    for game_id in range(1, 13):
        started = now - timedelta(minutes=100 - 5 * game_id)
        send(busy, topics.game_topic("table-2", game_id), topics.game_payload(topics.Game(
            "table-2", "Table 2", game_id, "Dalmatian", started.isoformat(),
            (started + timedelta(minutes=4)).isoformat(), night_of(started).isoformat(),
            tuple(topics.Player(seat, f"Player {(game_id + 5 * seat) % 16}", 10 * seat,
                                4 - seat) for seat in range(4)))))
    send(busy, topics.live_topic("table-2"), topics.live_payload(topics.Live(
        "table-2", "Table 2", "", (), "", "idle", (), (), "", 0, tuple(range(1, 13)),
        now.isoformat())))
    hang_up(busy)
    changer = mqtt_client(broker, "table-3")
    now = datetime.now().astimezone().replace(microsecond=0)
    first = game("table-3", "Table 3", 1, now - timedelta(minutes=30), 2)
    send(changer, topics.game_topic("table-3", 1), topics.game_payload(first))
    send(changer, topics.live_topic("table-3"), topics.live_payload(topics.Live(
        "table-3", "Table 3", "", (), "", "idle", (), (), "", 0, (1,), now.isoformat())))
    until(lambda: len(hub.night()["games"]) == 16, 10, "16 games on the page")
    page = browser.new_page(viewport=PHONE)
    page.goto(hub.url, wait_until="domcontentloaded")
    page.wait_for_selector("#link.up")
    changes = Bounds().changes

    def change() -> None:
        for score in range(1, changes + 1):
            changed = replace(first, players=(topics.Player(0, "Ann", 1000 + score, 2),
                                              topics.Player(1, "Ben", 2000, 1)))
            changer.publish(topics.game_topic("table-3", 1), topics.game_payload(changed),
                            qos=1, retain=True)
            time.sleep(1 / 20)

    seconds = changes / 20 + 1
    got = stream_bytes(hub, seconds, change)
    print(f"a stream got {got} bytes in {seconds:.0f} s of 20 changes a second "
          f"({got / seconds / 1000:.1f} kB/s)")
    assert got / seconds < 10_000
    line = page.locator('#games li[data-game="table-3/1"]')
    until(lambda: "Ann 1100" in line.inner_text(), 5, "the page's line of the last change")
    assert page.locator("#games li").count() == SHOWN_GAMES
    assert "Ann" in page.locator("#standings").inner_text()
    page.close()
    hang_up(changer)
