"""Every game of a night, one tap from BG Stats: through real publishers, Mosquitto and a hub
process, the short address each table would show as a QR code leads to the game's page, and
its "Add to BG Stats" link decodes to the game's record as the table's journal holds it; a
game of Dalmatian's page says each player's luck as worked out anew from the journal. The
page is looked at in headless Chromium at phone size."""

from __future__ import annotations

import html
import json
import urllib.request
from datetime import UTC
from typing import Any
from urllib.parse import parse_qs, urlsplit

from night_parts import PHONE, ROOT, Hub, Table, until

from firmware_host.config import NightConfig
from firmware_host.journal import Journal, PlayedGame
from firmware_host.league.bgstats import CREATE_PLAY
from games.dalmatian import Dalmatian
from games.dalmatian_luck import by_player, turns

SHOT = ROOT / "build" / "night" / "game-page-390x844.png"


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
                assert linked_play(page) == record(table, game)
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


def record(table: Table, game: PlayedGame) -> dict[str, Any]:
    """The play BG Stats should get for ``game``, from the journal's record and BG Stats'
    documented fields."""
    minutes = round((game.ended - game.started).total_seconds() / 60)
    return {
        "sourceName": "table-companion",
        "sourcePlayId": f"{table.id}/{game.id}",
        "playDate": game.started.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": max(1, minutes),
        "comments": f"{table.name}, game #{game.id}",
        "game": {"name": "Dalmatian", "sourceGameId": "dalmatian", "highestWins": True,
                 "noPoints": False},
        "players": [{"name": p.name, "sourcePlayerId": p.name, "score": p.score,
                     "rank": p.place, "winner": p.place == 1} for p in game.players],
    }


def luck_lines(game: PlayedGame, actions: list[str]) -> list[str]:
    setup = Dalmatian.make_setup(None, [p.name for p in game.players], game.options)
    return [str(player) for player in by_player(setup, turns(setup, actions))]
