"""A finished game's own page on the hub: its result, each player's luck in a game of
Dalmatian, the "Add to BG Stats" link, and the short address a table's QR code holds; served
by a real server over the hub's own store."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from test_nights import finish, game

from firmware_host.league.bgstats import CREATE_PLAY, play
from firmware_host.night import topics, urls
from firmware_host.night.broadcast import Broadcast
from firmware_host.night.server import NightServer
from firmware_host.night.site import Site
from firmware_host.night.store import Store
from firmware_host.night.topics import Luck

HOSTILE = '<script>alert("x")</script>&'
LUCKY = replace(game("table-2", 7, "2026-11-21", "Ann", HOSTILE),
                luck=(Luck(0, 310, 40), Luck(1, -125, 0)))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    store = Store.open(tmp_path / "night.sqlite3")
    finish(store, game("table-2", 7, "2026-11-20", "Cy", "Di"), (7,))  # a journal started
    finish(store, LUCKY, (7,))  # again: the same table and game id, the night after
    finish(store, game("table-1", 1, "2026-11-21", "Eve", "Fay", hour=21), (1,))
    server = NightServer(("127.0.0.1", 0), Site(store, store.night, lambda: 0), Broadcast())
    server.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.close()
    store.close()


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as reply:
        text: str = reply.read().decode()
        return text


def bgstats_play(html: str) -> dict[str, object]:
    """The play the page's "Add to BG Stats" link carries."""
    start = html.index('id="bgstats"')
    href = html[html.index('href="', start) + 6:]
    href = href[:href.index('"')].replace("&amp;", "&")
    parts = urlsplit(href)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == CREATE_PLAY
    [data] = parse_qs(parts.query, strict_parsing=True)["data"]
    found: dict[str, object] = json.loads(data)
    return found


def test_a_games_page_shows_its_result_luck_and_bg_stats_link(served: str) -> None:
    html = get(served + urls.game("2026-11-21", "table-2", 7))
    assert "<title>Dalmatian at Table 2</title>" in html
    assert "Game #7, night of" in html and "20:00 to 20:30 (30 min)" in html
    assert "<li>Ann: +3.1 luck, -0.4 decisions</li>" in html
    assert "<li>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;: -1.2 luck, -0.0 " \
           "decisions</li>" in html
    assert HOSTILE not in html
    assert bgstats_play(html) == play(LUCKY)
    other = get(served + urls.game("2026-11-21", "table-1", 1))
    assert 'id="luck"' not in other and bgstats_play(other)["sourcePlayId"] == "table-1/1"


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
    assert "Ann: +3.1 luck" in get(served + topics.short_path("table-2", 7))  # followed


@pytest.mark.parametrize("path", [
    topics.short_path("table-2", 8), topics.short_path("table-9", 7), "/g/ABCDEFGH",
    "/g/abcdefg", "/g/abcdefgh1", urls.game("2026-11-21", "table-2", 8),
    urls.game("2026-11-22", "table-2", 7), "/nights/2026-11-21/table-2/07",
    "/nights/2026-11-21/Table-2/7", "/nights/2026-11-21/table-2/7/"])
def test_what_names_no_game_is_not_found(served: str, path: str) -> None:
    with pytest.raises(urllib.error.HTTPError) as error:
        get(served + path)
    assert error.value.code == 404
