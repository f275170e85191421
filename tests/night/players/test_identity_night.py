"""Who played, end to end: the hub's roster and the host's seating reach two tables through
a real Mosquitto with the shipped ACL; each table's next new game offers the seated names
first, one press starts it, and the finished games come back to the hub under the roster's
ids, so the player pages, the league and the BG Stats links name the seated people. The
tables' config names some other people: none of them may show anywhere.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from night_parts import ROOT, Broker, Hub, Table, hang_up, mqtt_client, private, send, until

from firmware_host import next_round
from firmware_host.journal import Journal
from firmware_host.night import topics
from firmware_host.night.broker import ACL
from firmware_host.players import Player, read_roster, roster_beside

ROSTER = """\
[players.ann-lee]
name = "Ann Lee"
aliases = ["Annie"]
[players.bob]
name = "Bob"
[players.cy]
name = "Cy"
[players.dee]
name = "Dee"
"""
NIGHT = """\
players = ["Ann Lee", "Bob", "Cy", "Dee"]
[[tables]]
name = "1"
game = "dalmatian"
[[tables]]
name = "2"
game = "Dalmatian"
"""
CONFIG_NAMES = {"table-1": ("Config Uno", "Config Dos"),
                "table-2": ("Config Tres", "Config Cuatro")}
IDS = {"Ann Lee": "ann-lee", "Bob": "bob", "Cy": "cy", "Dee": "dee"}
SCENARIO = ROOT / "firmware_host" / "sim" / "scenarios" / "dalmatian.toml"


def one_press_game(folder: Path) -> Path:
    """The shipped whole game of Dalmatian, started with one press on the next round
    (after the referee's first look beside the journal) instead of three on the menus."""
    text = SCENARIO.read_text()
    start = text.index("[[step]]")
    opening = text.index("# The opening")
    path = folder / "next-round-dalmatian.toml"
    path.write_text(text[:start] + '[[step]]\nwait = 0.5\n\n[[step]]\nclick = "select"'
                    '     # Next round: ...\n\n' + text[opening:])
    return path


def fetched(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return str(reply.read().decode())


def test_the_seated_names_start_the_next_game_and_reach_the_league_by_the_rosters_ids(
        tmp_path: Path, broker: Broker) -> None:
    roster = tmp_path / "roster.toml"
    roster.write_text(ROSTER)
    hub = Hub(tmp_path, broker, args=("--roster", str(roster))).start()
    tables = [Table(tmp_path / f"table{n}", f"Table {n}", CONFIG_NAMES[f"table-{n}"],
                    broker).write() for n in (1, 2)]
    try:
        for table in tables:
            Journal.open(table.journal).close()  # as the referee makes it when it starts
            table.publish()
        for table in tables:  # the roster comes from the hub, through the broker
            until(lambda t=table: read_roster(roster_beside(t.journal)), 15,
                  f"the roster beside {table.name}'s journal")
            assert Player("Ann Lee", "ann-lee") in read_roster(roster_beside(table.journal))

        night = tmp_path / "night.toml"
        night.write_text(NIGHT)
        secret = private(tmp_path / "host-password", "night-pass")
        done = subprocess.run(
            [sys.executable, "-m", "firmware_host.cli", "seat", str(night), "--json",
             "--publish", "--broker", broker.url, "--password-file", str(secret)],
            cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        seated = {f"table-{t['name']}": tuple(t["players"])
                  for t in json.loads(done.stdout)["tables"]}
        assert sorted(p for names in seated.values() for p in names) == sorted(IDS)

        scenario = one_press_game(tmp_path)
        for table in tables:
            here = next_round.beside(table.journal)
            seat = until(lambda h=here: next_round.read_seat(h), 15,
                         f"{table.name}'s next round beside its journal")
            assert seat.players == tuple(Player(n, IDS[n]) for n in seated[table.id])
            table.play(str(scenario))
            [(_, _, played)] = table.finished()
            assert tuple(name for name, _, _ in played) == seated[table.id]

        games = until(lambda: len(hub.night()["games"]) == 2 and hub.night()["games"], 20,
                      "both tables' games at the hub")
        for game in games:
            assert [(p["name"], p["id"]) for p in game["players"]] == [
                (name, IDS[name]) for name in seated[game["table"]]]
            link = re.search(r'id="bgstats"[^>]*href="([^"]+)"', fetched(
                hub.url.rstrip("/") + topics.short_path(game["table"], game["id"])))
            assert link is not None
            play = json.loads(parse_qs(urlsplit(html.unescape(link[1])).query)["data"][0])
            assert [(p["name"], p["sourcePlayerId"]) for p in play["players"]] == [
                (name, IDS[name]) for name in seated[game["table"]]]

        league = json.loads(fetched(hub.url + "league.json"))
        assert sorted((p["id"], p["name"]) for p in league["players"]) == sorted(
            (player_id, name) for name, player_id in IDS.items())
        for name, player_id in IDS.items():
            page: dict[str, Any] = json.loads(fetched(f"{hub.url}players/{player_id}.json"))
            assert (page["name"], len(page["games"])) == (name, 1)
            assert name in fetched(f"{hub.url}players/{player_id}")
        everything = fetched(hub.url) + fetched(hub.url + "players") + json.dumps(league)
        for names in CONFIG_NAMES.values():
            for name in names:
                assert name not in everything, f"the config's {name} shows at the hub"
    finally:
        for table in tables:
            if table.publisher is not None:
                table.publisher.stop()
        if hub.tool is not None:
            hub.tool.stop()


def test_only_the_hub_may_publish_the_roster() -> None:
    """The shipped ACL (and the demo's copy): the hub's login writes the roster, the tables
    read it, and no table nor the host may write it."""
    lines = ACL.splitlines()
    hub_block = lines[lines.index("user night_hub"):lines.index("user night_host")]
    host_block = lines[lines.index("user night_host"):]
    assert "topic write tc/_night/roster" in hub_block
    assert "topic write tc/_night/roster" not in host_block
    assert "pattern read tc/_night/roster" in lines
    assert not any(line.startswith("pattern write") or "readwrite tc/_night" in line
                   for line in lines)


def test_no_table_nor_the_host_can_put_a_roster_on_the_tables(
        tmp_path: Path, broker: Broker, tables: list[Table]) -> None:
    """Through the real broker with the shipped ACL: a roster forged by a table's login or
    the host's is refused, so the retained roster a table's publisher hears when it comes
    is still the hub's."""
    roster = tmp_path / "roster.toml"
    roster.write_text(ROSTER)
    hub = Hub(tmp_path, broker, args=("--roster", str(roster))).start()
    try:
        until(lambda: "Ann Lee" in broker.log or "tc/_night/roster" in broker.log, 10,
              "the hub's roster at the broker")
        forged = topics.roster_payload(topics.NightRoster((topics.Listed("mal", "Mallory"),)))
        for login in ("table-2", "night_host"):
            client = mqtt_client(broker, login)
            send(client, topics.ROSTER, forged)
            hang_up(client)
        assert "Denied PUBLISH from table-2" in broker.log
        assert "Denied PUBLISH from night_host" in broker.log
        table = tables[0]
        Journal.open(table.journal).close()
        table.publish()
        kept = until(lambda: read_roster(roster_beside(table.journal)), 15,
                     "the retained roster beside the table's journal")
        assert [p.id for p in kept] == ["ann-lee", "bob", "cy", "dee"]
    finally:
        if hub.tool is not None:
            hub.tool.stop()
