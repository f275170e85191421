"""Every night kept: the hub's store across nights, the night list and each night's page.

Messages are built as a publisher sends them (typed, through the wire format and back), and
the store is the hub's own on a real SQLite file; the pages are fetched from a real server.
"""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from firmware_host.hub import urls
from firmware_host.hub.broadcast import Broadcast
from firmware_host.hub.league.finished import FinishedGame
from firmware_host.hub.server import NightServer
from firmware_host.hub.site import Site
from firmware_host.hub.store import Change, Store, finished
from firmware_host.night import topics
from firmware_host.night.topics import Cleared, Game, Live, Luck, Player, Thrown


def game(table: str, game_id: int, night: str, winner: str = "Ann", loser: str = "Ben",
         hour: int = 20) -> Game:
    started = f"{night}T{hour:02d}:00:00+01:00"
    return Game(table, table.replace("-", " ").title(), game_id, "Dalmatian", started,
                f"{night}T{hour:02d}:30:00+01:00", night,
                (Player(0, winner, 30, 1), Player(1, loser, 20, 2)))


def live(table: str, finished: tuple[int, ...], at: str) -> Live:
    return Live(table, table.replace("-", " ").title(), "", (), "", "idle", (), (), "", 0,
                finished, at)


def wire(message: topics.Message) -> topics.Message:
    """``message`` as the hub gets it: encoded, sent and checked again."""
    if isinstance(message, Game):
        return topics.parse(topics.game_topic(message.table, message.id),
                            topics.game_payload(message))
    assert isinstance(message, Live)
    return topics.parse(topics.live_topic(message.table), topics.live_payload(message))


def finish(store: Store, played: Game, listed: tuple[int, ...]) -> Change:
    """A table's finished game, then its live state listing ``listed``, as a publisher sends."""
    store.apply(wire(played))
    return store.apply(wire(live(played.table, listed, played.ended)))


def three_nights(store: Store) -> None:
    finish(store, game("table-1", 1, "2026-11-20"), (1,))
    finish(store, game("table-1", 2, "2026-11-20", "Ben", "Ann", hour=21), (1, 2))
    finish(store, game("table-2", 1, "2026-11-20", "Cy", "Di"), (1,))
    finish(store, game("table-1", 3, "2026-11-21"), (3,))
    finish(store, game("table-2", 2, "2026-11-22", "Di", "Cy"), (2,))


def test_a_game_is_read_once_into_the_hubs_record_and_kept_as_its_table_sent_it(
        tmp_path: Path) -> None:
    """The store holds the league's record of a finished game (every field of the message:
    ids, luck, throws and the starter too), and its file keeps the message byte for byte,
    so a hub started again reads the same record."""
    sent = replace(game("table-1", 1, "2026-11-20"),
                   players=(Player(0, "Ann", 30, 1, "ann"), Player(1, "Ben", 20, 2)),
                   luck=(Luck(0, 310, 40), Luck(1, -310, 0)), starter=1,
                   throws=(Thrown(0, "button", (1, 2, 3, 4, 5)), Thrown(1, "manual", (6, 6))))
    path = tmp_path / "night.sqlite3"
    store = Store.open(path)
    finish(store, sent, (1,))
    held = store.game("2026-11-20", "table-1", 1)
    assert isinstance(held, FinishedGame) and held == finished(sent)
    assert asdict(held) == asdict(sent)  # the same fields: the pages and exports unchanged
    assert store.db.execute("SELECT payload FROM played").fetchall() == [
        (topics.game_payload(sent),)]
    store.close()
    again = Store.open(path)
    assert again.game("2026-11-20", "table-1", 1) == held
    again.close()


def test_every_night_is_kept_and_today_is_the_latest(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "night.sqlite3")
    three_nights(store)
    assert [(n.night, n.games, n.tables) for n in store.nights()] == [
        ("2026-11-22", 1, 1), ("2026-11-21", 1, 1), ("2026-11-20", 3, 2)]
    assert [(g.table, g.id) for g in store.night().games] == [("table-2", 2)]
    first = store.night("2026-11-20")
    assert [(g.table, g.id) for g in first.games] == [("table-1", 1), ("table-2", 1),
                                                      ("table-1", 2)]
    assert first.tables == ()  # the tables' cards are today's only
    # one win each; Cy won the only game she played, Ann and Ben one of two
    assert [(s.name, s.wins) for s in first.standings] == [("Cy", 1), ("Ann", 1), ("Ben", 1),
                                                            ("Di", 0)]
    assert store.game("2026-11-20", "table-1", 2) == finished(
        game("table-1", 2, "2026-11-20", "Ben", "Ann", hour=21))
    assert store.game("2026-11-22", "table-2", 2) is not None
    assert store.game("2026-11-21", "table-2", 2) is None
    assert [g.night for g in store.every_game()] == ["2026-11-20"] * 3 + ["2026-11-21",
                                                                           "2026-11-22"]
    store.close()
    again = Store.open(tmp_path / "night.sqlite3")  # a restarted hub has every night
    assert again.nights() == Store.open(tmp_path / "night.sqlite3").nights()
    assert [g.id for g in again.night("2026-11-20").games] == [1, 1, 2]
    assert again.latest == "2026-11-22"


def test_an_older_night_is_read_only(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "night.sqlite3")
    three_nights(store)
    before = store.night("2026-11-20")
    # a table lists only its latest night's games: not being listed drops nothing older
    assert store.apply(wire(live("table-1", (), "2026-11-22T23:00:00+01:00"))) == Change(
        "table-1", False)
    assert store.apply(Cleared("table-1", 1)) == Change()
    changed = replace(game("table-1", 1, "2026-11-20"), players=(
        Player(0, "Ann", 0, 2), Player(1, "Ben", 99, 1)))
    assert store.apply(wire(changed)) == Change()
    assert store.night("2026-11-20") == before
    # a game it did not hold yet (one that ended after the next night began) is taken
    late = game("table-3", 9, "2026-11-20", "Eve", "Fay", hour=23)
    assert store.apply(wire(late)) == Change("", True)
    assert store.game("2026-11-20", "table-3", 9) == finished(late)
    assert store.apply(wire(late)) == Change()


def test_the_latest_night_taken_back_whole_makes_the_one_before_the_latest(
        tmp_path: Path) -> None:
    store = Store.open(tmp_path / "night.sqlite3")
    three_nights(store)
    assert store.apply(Cleared("table-2", 2)) == Change("", True)
    assert store.latest == "2026-11-21"
    assert [(g.table, g.id) for g in store.night().games] == [("table-1", 3)]
    # and that night is open again: its table's live state drops a game it took back
    assert store.apply(wire(live("table-1", (), "2026-11-22T23:30:00+01:00"))).results
    assert store.latest == "2026-11-20"


def test_a_hub_that_kept_one_night_keeps_it_as_the_first(tmp_path: Path) -> None:
    path = tmp_path / "night.sqlite3"
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE games (table_id TEXT NOT NULL, game_id INTEGER NOT NULL, "
                "payload BLOB NOT NULL, PRIMARY KEY (table_id, game_id)) WITHOUT ROWID")
    kept = game("table-1", 4, "2026-11-19")
    old.execute("INSERT INTO games VALUES (?, ?, ?)", ("table-1", 4, topics.game_payload(kept)))
    old.commit()
    old.close()
    store = Store.open(path)
    assert store.game("2026-11-19", "table-1", 4) is None  # its table has not listed it yet
    store.apply(wire(live("table-1", (4,), "2026-11-19T23:00:00+01:00")))
    assert store.game("2026-11-19", "table-1", 4) == finished(kept)
    assert [n.night for n in store.nights()] == ["2026-11-19"]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    store = Store.open(tmp_path / "night.sqlite3")
    three_nights(store)
    hostile = replace(game("table-9", 5, "2026-11-21", "<script>alert(1)</script>", "=cmd"),
                      name="<b>Nine</b>")
    finish(store, hostile, (5,))  # into an older night: taken, never a tag on the page
    server = NightServer(("127.0.0.1", 0), Site(store, store.night, lambda: 0), Broadcast())
    server.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.close()
    store.close()


def get(url: str) -> tuple[str, str]:
    with urllib.request.urlopen(url, timeout=5) as reply:
        return reply.headers["Content-Type"], reply.read().decode()


def test_the_night_list_and_each_nights_page_and_export(served: str) -> None:
    kind, listing = get(served + urls.NIGHTS)
    assert kind.startswith("text/html")
    assert listing.index("2026-11-22") < listing.index("2026-11-21") < listing.index(
        "2026-11-20")
    assert 'href="/nights/2026-11-20">2026-11-20</a>: 3 games at 2 tables' in listing
    _, old = get(served + urls.night("2026-11-20"))
    assert "Game night of 2026-11-20" in old and "app.js" not in old  # nothing live
    assert 'href="/"' not in old  # only the latest night links to the live page
    _, newest = get(served + urls.night("2026-11-22"))
    assert 'href="/">Live page' in newest
    _, text = get(served + "/nights/2026-11-21.json")
    night = json.loads(text)
    assert [(g["table"], g["id"]) for g in night["games"]] == [("table-1", 3), ("table-9", 5)]
    assert night["tables"] == []
    kind, csv = get(served + "/nights/2026-11-21.csv")
    assert kind.startswith("text/csv") and "'=cmd" in csv
    _, hostile = get(served + urls.night("2026-11-21"))
    assert "<script>alert" not in hostile and "&lt;script&gt;alert(1)&lt;/script&gt;" in hostile
    assert "<b>Nine" not in hostile
    _, today = get(served + "/")
    assert 'href="/nights"' in today and "2026-11-22" in today


@pytest.mark.parametrize("path", ["/nights/2026-11-23", "/nights/2026-11-2", "/nights/x",
                                  "/nights/2026-11-20.xml", "/nights/2026-11-20/",
                                  "/nights/../night.json", "/nights/2026-11-20%2Ejson"])
def test_what_is_not_a_night_is_not_found(served: str, path: str) -> None:
    with pytest.raises(urllib.error.HTTPError) as err:
        get(served + path)
    assert err.value.code == 404
