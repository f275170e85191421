"""A finished game's own page on the hub: its result, each player's luck in a game of
Dalmatian, the "Add to BG Stats" link, and the short address a table's QR code holds; first
served by a real server over the hub's own store, then through real publishers, Mosquitto
and a hub process: every game's short address leads to its page, whose BG Stats link decodes
to the game's record as the table's journal holds it and whose luck lines equal a
recomputation from the journal. The page is looked at in headless Chromium at phone size."""

from __future__ import annotations

import html
import http.client
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from hub_helpers import get, serving
from night_parts import PHONE, ROOT, Hub, Table, until
from test_nights import finish, game

from firmware_host.config import NightConfig
from firmware_host.hub import urls
from firmware_host.hub.league.bgstats import CREATE_PLAY, play
from firmware_host.hub.store import Store
from firmware_host.journal import Journal, PlayedGame
from firmware_host.night import topics
from firmware_host.night.topics import Luck
from games.dalmatian import Dalmatian
from games.dalmatian_luck import by_player, turns

SHOT = ROOT / "build" / "night" / "game-page-390x844.png"


HOSTILE = '<script>alert("x")</script>&'
LUCKY = replace(game("table-2", 7, "2026-11-21", "Ann", HOSTILE),
                luck=(Luck(0, 310, 40), Luck(1, -125, 0)))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    store = Store.open(tmp_path / "night.sqlite3")
    finish(store, game("table-2", 7, "2026-11-20", "Cy", "Di"), (7,))  # a journal started
    finish(store, LUCKY, (7,))  # again: the same table and game id, the night after
    finish(store, game("table-1", 1, "2026-11-21", "Eve", "Fay", hour=21), (1,))
    with serving(store) as url:
        yield url


def test_a_games_page_shows_its_result_luck_and_bg_stats_link(served: str) -> None:
    html = get(served + urls.game("2026-11-21", "table-2", 7))
    assert "<title>Dalmatian at Table 2</title>" in html
    assert "Game #7, night of" in html and "20:00 to 20:30 (30 min)" in html
    assert "<li>Ann: +3.10 luck, -0.40 decisions</li>" in html
    assert "<li>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;: -1.25 luck, 0.00 " \
           "decisions</li>" in html
    assert HOSTILE not in html
    assert linked_play(html) == play(LUCKY)
    other = get(served + urls.game("2026-11-21", "table-1", 1))
    assert 'id="luck"' not in other
    assert linked_play(other)["sourcePlayId"] == "table-1/1/20261121T200000Z"


def test_each_game_of_a_night_links_to_its_page(served: str) -> None:
    night = get(served + urls.night("2026-11-21"))
    assert f'href="{urls.game("2026-11-21", "table-2", 7)}"' in night
    assert f'href="{urls.game("2026-11-21", "table-1", 1)}"' in night
    assert f'href="{urls.game("2026-11-21", "table-1", 1)}"' in get(served + "/")


def test_the_short_address_leads_to_the_latest_game_of_that_table_and_id(served: str) -> None:
    host = urlsplit(served)
    connection = http.client.HTTPConnection(host.hostname or "", host.port, timeout=5)
    connection.request("GET", topics.short_path("table-2", 7))
    reply = connection.getresponse()
    reply.read()
    connection.close()
    assert reply.status == 303
    assert reply.getheader("Location") == urls.game("2026-11-21", "table-2", 7)
    assert "Ann: +3.10 luck" in get(served + topics.short_path("table-2", 7))  # followed


@pytest.mark.parametrize("path", [
    topics.short_path("table-2", 8), topics.short_path("table-9", 7), "/g/ABCDEFGH",
    "/g/abcdefg", "/g/abcdefgh1", urls.game("2026-11-21", "table-2", 8),
    urls.game("2026-11-22", "table-2", 7), "/nights/2026-11-21/table-2/07",
    "/nights/2026-11-21/Table-2/7", "/nights/2026-11-21/table-2/7/"])
def test_what_names_no_game_is_not_found(served: str, path: str) -> None:
    with pytest.raises(urllib.error.HTTPError) as error:
        get(served + path)
    assert error.value.code == 404


def test_every_bg_stats_link_decodes_to_the_games_record(browser: Any, hub: Hub,
                                                          tables: list[Table]) -> None:
    for table in tables[:2]:
        table.publish()
        table.play("dalmatian", seed=len(table.name))
    expected = tables[0].finished() | tables[1].finished()
    until(lambda: set(hub.results()) == expected, 30, "every finished game at the hub")
    checked = 0
    for table in tables[:2]:
        night = NightConfig(table.name, page=hub.url)  # as the table's [night] would say
        with Journal.open_existing(table.journal) as journal:
            for game in journal.finished_games():
                with urllib.request.urlopen(night.game_url(game.id), timeout=5) as reply:
                    page = reply.read().decode()
                assert linked_play(page) == record(table, game, journal.actions(game))
                for line in luck_lines(game, journal.actions(game)):
                    assert f"<li>{html.escape(line)}</li>" in page
                checked += 1
    assert checked == len(expected) >= 2

    phone = browser.new_page(viewport=PHONE)
    dialogs: list[str] = []
    phone.on("dialog", lambda dialog: dialogs.append(dialog.message))
    with Journal.open_existing(tables[1].journal) as journal:  # its Ben is a <script>
        game_id = journal.finished_games()[-1].id
    phone.goto(NightConfig(tables[1].name, page=hub.url).game_url(game_id),
               wait_until="domcontentloaded")
    assert phone.locator("#bgstats").is_visible()
    assert "<script>alert(1)</script>" in phone.locator("#luck").inner_text()
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SHOT), full_page=True)
    assert dialogs == []
    phone.close()


def linked_play(page: str) -> Any:
    """The play the page's "Add to BG Stats" link carries, decoded."""
    anchor = page[page.index('id="bgstats"'):]
    href = html.unescape(anchor[anchor.index('href="') + 6:].split('"', 1)[0])
    parts = urlsplit(href)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == CREATE_PLAY
    [data] = parse_qs(parts.query, strict_parsing=True)["data"]
    return json.loads(data)


def record(table: Table, game: PlayedGame, actions: list[str]) -> dict[str, Any]:
    """The play BG Stats should get for ``game``, from the journal's record and BG Stats'
    documented fields; the start player is who won the opening, as the rules say."""
    minutes = round((game.ended - game.started).total_seconds() / 60)
    names = [p.name for p in sorted(game.players, key=lambda p: p.seat)]
    opening = Dalmatian.replay(Dalmatian.make_setup(None, names, game.options), actions).opening
    return {
        "sourceName": "table-companion",
        "sourcePlayId": f"{table.id}/{game.id}/{game.started.astimezone(UTC):%Y%m%dT%H%M%SZ}",
        "playDate": game.started.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": max(1, minutes),
        "comments": f"{table.name}, game #{game.id}",
        "game": {"name": "Dalmatian", "sourceGameId": "dalmatian", "highestWins": True,
                 "noPoints": False},
        "players": [{"name": p.name, "sourcePlayerId": p.name, "score": p.score,
                     "rank": p.place, "winner": p.place == 1,
                     "startPlayer": p.seat == opening.winner} for p in game.players],
    }


def luck_lines(game: PlayedGame, actions: list[str]) -> list[str]:
    setup = Dalmatian.make_setup(None, [p.name for p in game.players], game.options)
    return [str(player) for player in by_player(setup, turns(setup, actions))]
