"""The league's pages: players by rating, a page per player, and the league's exports,
from a real store and server; every game arrives as a table sends it (the wire format)."""

from __future__ import annotations

import csv
import io
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from schema_helpers import check

from firmware_host.hub import league_pages
from firmware_host.hub.broadcast import Broadcast
from firmware_host.hub.league import league as league_module
from firmware_host.hub.league.league import build
from firmware_host.hub.league.roster import Person, Roster
from firmware_host.hub.server import NightServer
from firmware_host.hub.site import Site
from firmware_host.hub.store import Store, remove_games
from firmware_host.night import topics
from firmware_host.night.topics import Cleared, Game, Live

HOSTILE = '<img src=x onerror="alert(1)">'


def message(table: str, game_id: int, night: str, minute: int, title: str,
            players: list[tuple[str, int, int]], **extra: Any) -> Game:
    """A finished game as the hub parses it off the wire: (name, score, place) by seat."""
    payload = json.dumps({"v": 1, "name": table.title(), "id": game_id, "game": title,
                          "started": f"{night}T20:00:00+00:00",
                          "ended": f"{night}T20:{minute:02d}:00+00:00", "night": night,
                          "players": [{"seat": seat, "name": name, "score": score,
                                       "place": place}
                                      for seat, (name, score, place) in enumerate(players)],
                          **extra}).encode()
    parsed = topics.parse(topics.game_topic(table, game_id), payload)
    assert isinstance(parsed, Game)
    return parsed


GAMES = [
    message("t1", 1, "2026-11-20", 10, "Dalmatian", [("Ann", 31, 1), ("Ben", 20, 2)],
            luck=[{"seat": 0, "luck": 310, "decisions": 40},
                  {"seat": 1, "luck": -120, "decisions": 250}],
            throws=["0:button:1-2-3-4-6", "1:button:6-6-6-5-5", "0:button:6"]),
    message("t2", 1, "2026-11-20", 20, "Sequence Dice",
            [("ann", 1, 1), ("Cy", 0, 3), ("Di", 1, 1), (HOSTILE, 0, 3)]),
    message("t1", 2, "2026-11-21", 5, "Dalmatian", [("Ben", 25, 1), ("Annie", 24, 2)],
            luck=[{"seat": 0, "luck": 50, "decisions": 0},
                  {"seat": 1, "luck": 0, "decisions": 100}]),
]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Store]]:
    store = Store.open(tmp_path / "night.sqlite3")
    for game in GAMES:
        store.apply(game)
        store.apply(Live(game.table, game.name, "", (), "", "idle", (), (), "", 0, (game.id,),
                         game.ended))
    server = NightServer(("127.0.0.1", 0), Site(store, store.night, lambda: 0), Broadcast())
    server.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", store
    server.close()
    store.close()


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as reply:
        return str(reply.read().decode())


def test_the_players_page_ranks_by_rating_and_links_each_player(
        served: tuple[str, Store]) -> None:
    url, store = served
    text = get(url + "/players")
    league = build(store.every_game(), Roster())
    names = [p.name for p in league.ranked()]
    assert [text.index(f">{n}</a>") for n in names if "<" not in n] == sorted(
        text.index(f">{n}</a>") for n in names if "<" not in n)
    assert 'href="/players/ann"' in text and '<span class="prov">provisional</span>' in text
    assert "<img" not in text and "&lt;img src=x" in text  # escaped, never a tag


def test_a_players_page_has_games_wins_rating_luck_and_dice(served: tuple[str, Store]) -> None:
    url, _ = served
    ann = get(url + "/players/ann")
    assert "<h2>Games (2)</h2>" in ann  # "Ann" and "ann" are one player; "Annie" is not
    assert "<h1>ann</h1>" in ann and "Tables also wrote: Ann." in ann  # the latest spelling
    assert '<svg class="rating-chart"' in ann and "<polyline" in ann
    assert "+3.10 luck, -0.40 decisions" in ann  # her one game of Dalmatian
    assert '<svg class="histogram"' in ann and "6 dice: not enough to say anything" in ann
    assert 'href="/nights/2026-11-20/t1/1"' in ann and 'href="/nights/2026-11-20"' in ann
    record = json.loads(get(url + "/players/ann.json"))
    check("hubPlayer", record)
    assert record["dice"] == {"1": 1, "2": 1, "3": 1, "4": 1, "6": 2}
    assert [(g["game"], g["place"], g["luck"]) for g in record["games"]] == [
        ("Dalmatian", 1, 3.1), ("Sequence Dice", 1, None)]
    assert record["by_game"].keys() == {"Dalmatian", "Sequence Dice"}


def test_the_roster_joins_players_on_the_pages(served: tuple[str, Store]) -> None:
    url, store = served
    store.use(Roster.of([Person("ann", "Ann", ("Annie",))]))
    ann = json.loads(get(url + "/players/ann.json"))
    assert len(ann["games"]) == 3 and ann["rating"]["games"] == 3
    assert ann["rating"] == json.loads(get(url + "/league.json"))["players"][
        [p["id"] for p in json.loads(get(url + "/league.json"))["players"]].index("ann")][
        "rating"]
    with pytest.raises(urllib.error.HTTPError):
        get(url + "/players/annie")  # no longer a player of her own


def test_the_leagues_exports(served: tuple[str, Store]) -> None:
    url, store = served
    league = json.loads(get(url + "/league.json"))
    check("hubLeague", league)
    fresh = build(store.every_game(), Roster())
    assert {p["id"]: p["rating"]["mu"] for p in league["players"]} == {
        p.id: round(p.rating.mu, 3) for p in fresh.players.values()}
    rows = list(csv.reader(io.StringIO(get(url + "/league.csv"))))
    assert rows[0][-3:] == ["player_id", "rating_after", "provisional"]
    assert len(rows) == 1 + 2 + 4 + 2
    assert {(r[7], r[10]) for r in rows[1:]} >= {("Ann", "ann"), ("ann", "ann"),
                                                  ("Annie", "annie")}


@pytest.mark.parametrize("path", ["/players/nobody", "/players/", "/players/ann/x",
                                  "/players/%ff", "/players/ann.csv", "/players/..%2Fnight.json"])
def test_what_is_not_a_player_is_not_found(served: tuple[str, Store], path: str) -> None:
    url, _ = served
    with pytest.raises(urllib.error.HTTPError) as err:
        get(url + path)
    assert err.value.code == 404


def test_a_game_tonight_reads_no_older_night_again_and_the_league_stays_exact(
        tmp_path: Path) -> None:
    """The league after each change equals one built from scratch, and of the games in the
    file it reads again only an older night that took a game in since."""
    store = Store.open(tmp_path / "night.sqlite3")
    site = Site(store, store.night, lambda: 0)

    def tell(game: Game, *listed: int) -> None:
        store.apply(game)
        store.apply(Live(game.table, game.name, "", (), "", "idle", (), (), "", 0,
                         listed or (game.id,), game.ended))

    for game in GAMES:
        tell(game)
    tonight = message("t2", 7, "2026-11-22", 10, "Dalmatian", [("Cy", 9, 1), ("Ben", 3, 2)],
                      throws=["0:button:5-5"])
    tell(tonight)
    said: list[str] = []  # to SQLite, its values in place

    def read() -> list[str]:
        """The nights whose games were read from the file since last asked."""
        nights = [re.sub(r".*night = '([-\d]+)'$", r"\1", sql) for sql in said
                  if "payload" in sql]
        said.clear()
        return nights

    store.db.set_trace_callback(said.append)
    assert site.league().dice.players.faces["Cy"][5] == 2
    assert read() == ["2026-11-20", "2026-11-21"]  # tonight's games are in memory
    scanned = site.get(topics.short_path("t1", 1))  # a table's QR code
    assert scanned is not None and scanned.extra["Location"] == "/nights/2026-11-20/t1/1"
    assert read() == []
    tell(message("t1", 3, "2026-11-22", 30, "Dalmatian", [("Ann", 8, 2), ("Cy", 12, 1)],
                 throws=["1:button:5"]))
    league = site.league()
    assert read() == []
    assert league.dice.players.faces["Cy"][5] == 3 and league.dice.players.faces["Ann"][6] == 2
    late = message("t2", 2, "2026-11-21", 50, "Dalmatian", [("Di", 5, 1), ("Ann", 4, 2)])
    tell(late, 1, 2)  # from a table that was offline: an older night takes it in
    read()  # the store's own: it counts that table's games and names of that night
    league = site.league()
    assert read() == ["2026-11-21"]
    store.apply(Cleared("t2", 7))
    store.apply(Cleared("t1", 3))  # tonight's games taken back: the night before is the latest
    tell(message("t1", 4, "2026-11-21", 55, "Dalmatian", [("Ben", 1, 2), ("Di", 2, 1)]))
    tell(message("t2", 8, "2026-11-22", 45, "Dalmatian", [("Cy", 3, 1), ("Ann", 2, 2)]))
    read()  # the store's own: it loads the latest night's games when the latest changes
    league = site.league()
    assert read() == ["2026-11-21"]  # changed while it was the latest
    store.db.set_trace_callback(None)
    fresh = build(store.every_game(), Roster())
    assert 4 in [g.id for g in fresh.games]
    assert [g.id for g in league.games] == [g.id for g in fresh.games]
    assert {p.id: p.rating for p in league.players.values()} == {
        p.id: p.rating for p in fresh.players.values()}
    store.close()


def test_a_closed_night_is_read_once_then_kept_without_its_throws(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A restarted hub reads a closed night's games as the league needs them, with their
    dice already counted and their ratings: no payload of that night is read again, none of
    its games is rated again, and the league equals one from scratch; a removal from it
    reads the night afresh and rates on from the removed game."""
    path = tmp_path / "night.sqlite3"

    def opened() -> tuple[Store, Site]:
        store = Store.open(path)
        store.first_open = lambda: "2026-11-22"  # the 20th and the 21st are closed
        return store, Site(store, store.night, lambda: 0)

    store, site = opened()
    store.first_open = str  # every night open while the games come
    for game in [*GAMES, message("t2", 7, "2026-11-22", 10, "Dalmatian",
                                 [("Cy", 9, 1), ("Ben", 3, 2)])]:
        store.apply(game)
        store.apply(Live(game.table, game.name, "", (), "", "idle", (), (), "", 0,
                         (game.id,), game.ended))
    store.first_open = lambda: "2026-11-22"
    first = site.league()
    store.close()
    store, site = opened()
    said: list[str] = []
    store.db.set_trace_callback(said.append)
    rated: list[int] = []
    real = league_module.rate
    monkeypatch.setattr(league_module, "rate", lambda *a: rated.append(1) or real(*a))
    again = site.league()
    store.db.set_trace_callback(None)
    assert not [sql for sql in said if "payload FROM played" in sql]
    assert len(rated) == 2  # tonight's one game, overall and in its game
    assert again.dice.players.faces == first.dice.players.faces
    assert again.dice.tables.totals == first.dice.tables.totals
    assert again.players == first.players == build(store.every_game(), Roster()).players
    assert remove_games(path, "2026-11-20", "t1") == [1]
    assert store.removed() == [("2026-11-20", "t1", 1)]
    rated.clear()
    after = site.league()
    assert len(rated) == 2 * 3  # the games after the removed one (the first of all)
    assert "Ann" not in after.dice.players.faces  # the removed game's throws
    assert after.players == build(store.every_game(), Roster()).players
    store.close()


def test_a_players_page_lists_their_latest_games_and_counts_every_night_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store.open(tmp_path / "night.sqlite3")
    for game in GAMES:
        store.apply(game)
        store.apply(Live(game.table, game.name, "", (), "", "idle", (), (), "", 0,
                         (game.id,), game.ended))
    monkeypatch.setattr(league_pages, "MOST_GAMES", 1)
    site = Site(store, store.night, lambda: 0)
    reply = site.get("/players/ben")
    assert reply is not None
    html = reply.data.decode()
    listed = html.split('<section id="games">')[1]
    assert listed.count("<li>") == 1 and "/nights/2026-11-21/t1/2" in listed  # the latest
    assert 'The latest 1; <a href="/players/ben.json">the JSON</a> lists every one' in html
    by_night = html.split('<section id="nights">')[1].split("</section>")[0]
    assert re.findall(r">(2026-11-2\d)</a></td><td>(\d)</td><td>(\d)<", by_night) == [
        ("2026-11-21", "1", "1"), ("2026-11-20", "0", "1")]
    store.close()
