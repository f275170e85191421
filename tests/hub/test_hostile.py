"""Hostile text in every text field of every message kind, through a real broker and hub,
looked at in a real headless Chromium: what the page shows stays text, nothing is added to
the page, nothing navigates or loads from elsewhere, and the CSV holds no formula.

Each round puts one hostile text in one field of each message (a live state per field, a
finished game per field) and checks three views: a page open since the start (updated by
server-sent events), a page loaded afresh, and one without JavaScript; no text may push the
page wider than the phone either.
"""

from __future__ import annotations

import csv
import io
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from night_parts import (
    HUB_USER,
    MOSQUITTO,
    PHONE,
    ROOT,
    Broker,
    Hub,
    hang_up,
    missing,
    mqtt_client,
    send,
    until,
)

from firmware_host.hub.results import FORMULA
from firmware_host.hub.server import RENDER_S
from firmware_host.night import topics
from firmware_host.night.topics import BadMessage, Game, Live, Player

SHOT = ROOT / "build" / "night" / "page-hostile-390x844.png"
ELSEWHERE = "http://127.0.0.2:9/"  # nothing listens there: a request to it is the failure
HOSTILE = [
    f'<meta http-equiv="refresh" content="0;url={ELSEWHERE}">',
    f'<a href="{ELSEWHERE}">win</a><form action="{ELSEWHERE}"><button>',
    f'"><img src="{ELSEWHERE}x.png" onerror="alert(1)">',
    "' onmouseover='alert(1)' x='",
    "</article></main><script>alert(1)</script>",
    '=HYPERLINK("http://127.0.0.2:9/","prize")',
    '+cmd|" /C calc"!A0',
    "@SUM(1+1)",
    "-2+3",
    "\tTab",
    "Ann\u200f مرحبا",  # a right-to-left mark: a name may have one
    "Ann\u202eredro",  # a right-to-left override turns what follows: refused
    "{main}{head}%s",  # template and format syntax stays text
    "&lt;b&gt; &amp;",
    "x" * 10_000,
]
LIVE_FIELDS = ("name", "game", "players", "phase", "last")
GAME_FIELDS = ("name", "game", "player", "night", "started", "ended")
TABLES = [f"table-{n}" for n in range(1, len(LIVE_FIELDS) + 2)]  # the last one plays games
GAMES_AT, MARKER = TABLES[-1], "table-99"
NOW = datetime.now(UTC).replace(microsecond=0).isoformat()
LIVE = Live("", "Table", "Dalmatian", ("Ann", "Ben"), "Ann", "roll", (3, 4), (1, 2),
            "roll 3-4", 3, (), NOW)
GAME = Game(GAMES_AT, "Games table", 1, "Dalmatian", NOW, NOW, NOW[:10],
            (Player(0, "Ann", 5, 1), Player(1, "Ben", 3, 2)))

# What may be on the page: its own few links and scripts (and the refresh inside <noscript>,
# an element only without JavaScript), nothing with an event handler,
# nothing that points anywhere but the hub
COUNT_TAGS = """() => {
  const counts = {};
  for (const tag of ["script", "meta", "a", "link", "form", "img", "iframe", "object",
                     "embed", "base", "style", "button", "input", "svg", "video", "audio"]) {
    counts[tag] = document.getElementsByTagName(tag).length;
  }
  counts.a -= document.querySelectorAll("#games li").length;  // each game links to its page
  counts.handlers = Array.from(document.querySelectorAll("*")).filter(
    element => Array.from(element.attributes).some(a => a.name.startsWith("on"))).length;
  return counts;
}"""
# the page's own elements; its one input is the Speak switch
CLEAN = {"script": 1, "meta": 2, "a": 4, "link": 1, "form": 0, "img": 0, "iframe": 0,
         "object": 0, "embed": 0, "base": 0, "style": 0, "button": 0, "input": 1, "svg": 0,
         "video": 0, "audio": 0, "handlers": 0}


def live_with(table: str, field: str, text: str) -> Live:
    live = replace(LIVE, table=table, name=f"Table {table[6:]}")
    if field == "players":
        return replace(live, players=(text, "Ben"), turn=text)
    return replace(live, **{field: text})


def game_with(game_id: int, field: str, text: str) -> Game:
    if field == "player":
        return replace(GAME, id=game_id, players=(Player(0, text, 5, 1), GAME.players[1]))
    return replace(GAME, id=game_id, **{field: text})


def accepted(topic: str, payload: bytes) -> bool:
    try:
        topics.parse(topic, payload)
    except BadMessage:
        return False
    return True


@pytest.fixture
def night(tmp_path: Path) -> Iterator[Hub]:
    if MOSQUITTO is None:
        missing("mosquitto")
    folder = tmp_path / "broker"
    folder.mkdir()
    broker = Broker(folder)
    broker.write_config([HUB_USER, *TABLES, MARKER])
    broker.start()
    hub = Hub(tmp_path, broker).start()
    yield hub
    assert hub.tool is not None
    hub.tool.stop()
    broker.stop()


class Watched:
    """A page and everything it asked for, navigated to or said in a dialog."""

    def __init__(self, browser: Any, url: str, javascript: bool = True) -> None:
        self.context = browser.new_context(java_script_enabled=javascript, viewport=PHONE)
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.navigations: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("framenavigated", lambda frame: self.navigations.append(frame.url))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.goto(url, wait_until="domcontentloaded")
        self.url = url
        self.clean = dict(CLEAN, meta=CLEAN["meta"] + (not javascript))

    def check(self, what: str) -> None:
        assert self.page.evaluate(COUNT_TAGS) == self.clean, f"{what}: an element was injected"
        assert self.navigations == [self.url], f"{what}: the page navigated"
        assert self.page.url == self.url
        assert self.dialogs == [], f"{what}: a script ran"
        foreign = [url for url in self.requests if not url.startswith(self.url)]
        assert foreign == [], f"{what}: the page asked another origin"
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{what}: a text pushes the page {width} px wide"

    def updated(self, round_: int) -> bool:
        """Whether the marker's card shows ``round_`` (after checking nothing navigated)."""
        assert self.navigations == [self.url], "the page navigated"
        last = self.page.locator(f"#table-{MARKER} .last")
        return bool(last.count()) and last.inner_text() == f"Last: round {round_}"

    def text(self, selector: str) -> str:
        return str(self.page.locator(selector).inner_text())


def test_hostile_text_in_any_field_stays_text_on_every_phone(browser: Any, night: Hub) -> None:
    clients = {table: mqtt_client(night.broker, table) for table in [*TABLES, MARKER]}
    open_page = Watched(browser, night.url)
    open_page.page.wait_for_selector("#link:text-is('live')", timeout=30_000)
    shown = 0
    for round_, text in enumerate(HOSTILE, start=1):
        sent = []
        for table, field in zip(TABLES, LIVE_FIELDS, strict=False):
            sent.append((topics.live_topic(table),
                         topics.live_payload(live_with(table, field, text))))
        ids = [round_ * 10 + n for n in range(len(GAME_FIELDS))]
        for game_id, field in zip(ids, GAME_FIELDS, strict=True):
            sent.append((topics.game_topic(GAMES_AT, game_id),
                         topics.game_payload(game_with(game_id, field, text))))
        sent.append((topics.live_topic(GAMES_AT), topics.live_payload(
            replace(LIVE, table=GAMES_AT, name="Games table", finished=tuple(ids)))))
        for topic, payload in sent:
            send(clients[topic.split("/")[1]], topic, payload)
            shown += accepted(topic, payload) and text in payload.decode()
        send(clients[MARKER], topics.live_topic(MARKER), topics.live_payload(
            replace(LIVE, table=MARKER, name="Marker", moves=round_, last=f"round {round_}")))
        until(lambda n=round_: ((night.table(MARKER) or {}).get("live") or {}).get("moves") == n,
              10, f"round {round_} through the hub")

        time.sleep(RENDER_S)  # a page rendered for the last visitors is not shown again
        fresh = Watched(browser, night.url)
        no_script = Watched(browser, night.url, javascript=False)
        assert no_script.updated(round_)
        until(lambda n=round_: open_page.updated(n), 15, f"round {round_} on the open page")
        for view, what in ((open_page, "the open page"), (fresh, "a fresh page"),
                           (no_script, "without JavaScript")):
            view.check(f"{what}, {text[:40]!r}")
            cards, games = view.text("#cards"), view.text("#games")
            if len(text) <= topics.MAX_NAME and "\u202e" not in text and "\t" not in text:
                assert text in cards, f"{what}: {text!r} is not shown as it is"
                assert text in games, f"{what}: {text!r} is not shown in the games"
        if round_ == 1:  # to look at: the first text shown in every field it fits
            SHOT.parent.mkdir(parents=True, exist_ok=True)
            fresh.page.screenshot(path=str(SHOT), full_page=True)
        fresh.context.close()
        no_script.context.close()

        with urllib.request.urlopen(night.url + "night.csv", timeout=5) as reply:
            cells = [cell for row in csv.reader(io.StringIO(reply.read().decode()))
                     for cell in row]
        assert not [cell for cell in cells if cell.startswith(FORMULA)]
    assert shown > 0
    open_page.check("the open page at the end")
    assert night.tool is not None and night.tool.process is not None
    assert night.tool.process.poll() is None and "Traceback" not in night.tool.output()
    open_page.context.close()
    for client in clients.values():
        hang_up(client)
