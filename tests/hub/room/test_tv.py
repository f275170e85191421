"""The TV view (/tv) in a real headless Chromium at 1920x1080 and 1280x720, against a real
broker and hub: readable from across the room (no text below 28 px at 1080p), nothing cut or
overflowing with 20 tables of eight players with 8-letter names, pages that turn by
themselves (with JavaScript and without), and a finished game shown live.

Screenshots are kept as ``build/night/tv-1920x1080.png`` and ``build/night/tv-1280x720.png``.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from night_parts import (
    HOST_USER,
    HUB_USER,
    Broker,
    Hub,
    Table,
    hang_up,
    keep,
    mqtt_client,
    send,
    until,
)

from firmware_host.commands.hub import page_address
from firmware_host.hub import tv
from firmware_host.hub.server import phone_page
from firmware_host.hub.store import Night
from firmware_host.journal import Standing
from firmware_host.night import topics
from firmware_host.night.topics import Game, Live, Player, SeatedTable, Seating

SIZES = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
TABLES = 20
MIN_PX_1080 = 28
NAMES = ("Adelaide", "Benedikt", "Clemence", "Dominika", "Evangela", "Fredrika", "Gwendoly",
         "Hildegar")

# every visible element that holds text itself (within the one ``within`` selects): its font
# size, and whether its text or boxes spill out of it, its tile, or the screen
MEASURE = """(within) => {
  const out = [];
  const screen = {w: innerWidth, h: innerHeight};
  for (const el of document.querySelector(within).querySelectorAll("*")) {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || style.visibility === "hidden") continue;
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    const pseudo = getComputedStyle(el, "::before").content;
    const text = own || (pseudo && pseudo !== "none" && pseudo !== "normal");
    const tile = el.closest(".card, #standings, #latest, .join");
    const edge = tile ? tile.getBoundingClientRect() : {left: 0, top: 0, right: screen.w,
                                                         bottom: screen.h};
    out.push({
      what: el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
            (el.className && typeof el.className === "string" ? "." + el.className : "") +
            " " + (el.textContent || "").trim().slice(0, 40) +
            ` (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight})`,
      text: !!text, size: parseFloat(style.fontSize),
      spills: el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0
              || el.scrollHeight > el.clientHeight + 1 && el.clientHeight > 0
                 && style.overflowY !== "visible",
      outside: box.left < edge.left - 1 || box.top < edge.top - 1 ||
               box.right > edge.right + 1 || box.bottom > edge.bottom + 1 ||
               box.right > screen.w || box.bottom > screen.h,
    });
  }
  return out;
}"""


def live(n: int, at: str) -> Live:
    """Table n with eight players, mid-game: five dice, scores in the hundreds."""
    return Live(f"table-{n}", f"Table {n}", "Centennial", NAMES, NAMES[n % 8], "move",
                (6, 5, 4, 3, 2), tuple(100 + 7 * k for k in range(8)), "roll 6-5-4-3-2",
                12, (1,), at)


def game(n: int, start: datetime) -> Game:
    return Game(f"table-{n}", f"Table {n}", 1, "Centennial",
                start.isoformat(timespec="seconds"),
                (start + timedelta(minutes=40 + n)).isoformat(timespec="seconds"),
                start.date().isoformat(),
                tuple(Player(k, name, 200 - 9 * k, k + 1) for k, name in enumerate(NAMES)))


@pytest.fixture
def crowded(tmp_path: Path) -> Iterator[Hub]:
    """A hub hearing 20 tables, each with eight players of 8-letter names and a finished
    game of eight, sent as each table's login would send them."""
    folder = tmp_path / "broker"
    folder.mkdir()
    broker = Broker(folder)
    broker.write_config([HUB_USER, HOST_USER, *(f"table-{n}" for n in range(1, TABLES + 1))])
    broker.start()
    hub = Hub(tmp_path, broker)
    try:
        hub.start()
        tell(broker, datetime.now().astimezone())
        until(lambda: len(hub.results()) == TABLES, 15, "every table's game at the hub")
        yield hub
    finally:
        if hub.tool is not None:
            hub.tool.stop()
        broker.stop()


def tell(broker: Broker, now: datetime) -> None:
    """Each table's status, finished game and live game, sent as its own login."""
    at = now.isoformat(timespec="seconds")
    for n in range(1, TABLES + 1):
        client = mqtt_client(broker, f"table-{n}")
        send(client, topics.status_topic(f"table-{n}"), b"online")
        send(client, topics.game_topic(f"table-{n}", 1),
             topics.game_payload(game(n, now - timedelta(hours=2))))
        send(client, topics.live_topic(f"table-{n}"), topics.live_payload(live(n, at)))
        hang_up(client)


def shown_tables(page: Any) -> list[str]:
    return page.eval_on_selector_all("#cards .card:not([hidden])", "cards => cards.map(c => c.id)")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_twenty_tables_fit_in_large_type_a_page_at_a_time(
        browser: Any, crowded: Hub, size: dict[str, int]) -> None:
    page = browser.new_page(viewport=size)
    page.clock.install()
    page.goto(crowded.url + "tv", wait_until="domcontentloaded")
    page.wait_for_selector("#link.up", timeout=10_000)  # live (a selector: the CSP forbids eval)
    shot = f"tv-{size['width']}x{size['height']}.png"
    keep(page, shot, docs=shot)
    first = shown_tables(page)
    assert first == [f"table-table-{n}" for n in (1, 2, 3, 4)]  # as people count
    assert page.locator("#tables .range").inner_text() == "1-4 of 20"
    seen = set(first)
    for _ in range(TABLES // tv.TILES):
        page.clock.run_for(tv.CYCLE_S * 1000)
        seen |= set(shown_tables(page))
        check_readable(page, size)
    assert len(seen) == TABLES, "every table comes round"
    assert page.locator("#tables .range").inner_text() == "1-4 of 20", "and round again"
    assert page.locator(".join svg.qr").is_visible()
    assert crowded.url in page.locator(".join").inner_text()
    assert page.locator("#latest li").count() == 3
    assert page.locator("#standings tbody tr:visible").count() == 8
    assert page.locator("#standings h2 .range").count() == 0, "all 8 players shown"
    page.close()


def check_readable(page: Any, size: dict[str, int], within: str = "body") -> None:
    found = page.evaluate(MEASURE, within)
    assert any(f["text"] for f in found)
    if size["height"] == 1080:
        small = [f"{f['what']}: {f['size']} px" for f in found
                 if f["text"] and f["size"] < MIN_PX_1080]
        assert small == [], "text below 28 px at 1080p"
    spilled = [f["what"] for f in found if f["spills"]]
    assert spilled == [], f"text cut or overflowing its box: {spilled}"
    outside = [f["what"] for f in found if f["outside"]]
    assert outside == [], "boxes outside their tile or the screen"
    join = page.locator(".join").bounding_box()
    standings = page.locator("#standings tbody tr:visible").last.bounding_box()
    assert standings["y"] + standings["height"] <= join["y"], "the QR code covers no leader"
    legend = page.locator("#standings .legend").bounding_box()
    assert legend["y"] + legend["height"] <= join["y"], "nor the legend under them"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_a_seating_of_twenty_tables_of_eight_comes_round_and_fits(
        browser: Any, crowded: Hub, size: dict[str, int]) -> None:
    seating = Seating(tuple(
        SeatedTable(str(n), "Centennial", tuple(f"{NAMES[k][:6]}{n:02d}" for k in range(8)))
        for n in range(1, TABLES + 1)), datetime.now().astimezone().isoformat())
    host = mqtt_client(crowded.broker, HOST_USER)
    send(host, topics.SEATING, topics.seating_payload(seating))
    hang_up(host)
    until(lambda: crowded.night()["seating"]["tables"], 10, "the seating at the hub")
    page = browser.new_page(viewport=size)
    page.clock.install()
    page.goto(crowded.url + "tv", wait_until="domcontentloaded")
    page.wait_for_selector("#link.up", timeout=10_000)  # live (a selector: the CSP forbids eval)
    seen: set[str] = set()
    for _ in range(2 * TABLES // tv.TILES):
        page.clock.run_for(tv.CYCLE_S * 1000)
        if page.locator("#next-round").is_visible():
            assert not page.locator("#tables").is_visible()
            seen |= set(page.eval_on_selector_all("#next-round article:not([hidden])",
                                                  "tiles => tiles.map(t => t.id)"))
            check_readable(page, size)
            if len(seen) == tv.TILES:
                keep(page, f"tv-next-round-{size['width']}x{size['height']}.png")
    assert len(seen) == TABLES, "every table of the next round comes round"
    page.close()


# three games of a night, 23 players, of whom the first three of each lead the night
LEAGUE = (("Marie-Christine Delacroix", "Bartholomew", "Konstantinos Papadopoulos", "Ann",
           "Bob", "Cy", "Dee", "Eve"),
          ("Maximiliane", "Christopher Montgomery", "Wilhelmina", "Fay", "Gus", "Hal", "Ivy",
           "Jo"),
          ("Anneliese Rosenthal", "Fitzgerald", "Evangeline", "Kit", "Lu", "Mo", "Ned"))
# each leader and the lines their name takes (nine in all: the legend is under them)
LEADERS = {"Anneliese Rosenthal": 2, "Marie-Christine Delacroix": 3, "Maximiliane": 1,
           "Bartholomew": 1, "Christopher Montgomery": 2}


def test_the_standings_say_how_many_there_are_and_show_long_names_whole(
        browser: Any, broker: Broker, hub: Hub) -> None:
    """The TV shows the top of the night's 23 players and says how many in all; a name
    takes the width the standings have, and one longer than that goes on to a second line,
    whole (three of them leave five leaders above the legend and the QR code); the three
    first, level on every column, are "=1"."""
    start = datetime.now().astimezone() - timedelta(minutes=2)  # tonight, by the hub
    for n, names in enumerate(LEAGUE, start=1):
        client = mqtt_client(broker, f"table-{n}")
        send(client, topics.status_topic(f"table-{n}"), b"online")
        send(client, topics.game_topic(f"table-{n}", 1), topics.game_payload(Game(
            f"table-{n}", f"Table {n}", 1, "Centennial", start.isoformat(timespec="seconds"),
            (start + timedelta(minutes=1)).isoformat(timespec="seconds"),
            start.date().isoformat(),
            tuple(Player(k, name, 200 - 9 * k, k + 1) for k, name in enumerate(names)))))
        now = datetime.now().astimezone().isoformat(timespec="seconds")
        send(client, topics.live_topic(f"table-{n}"), topics.live_payload(Live(
            f"table-{n}", f"Table {n}", "Dalmatian", ("Ann", "Ben"), "Ann", "roll", (), (0, 0),
            "", 0, (1,), now)))
        hang_up(client)
    until(lambda: len(hub.results()) == len(LEAGUE), 10, "the three games at the hub")
    for size in SIZES:
        page = browser.new_page(viewport=size)
        page.goto(hub.url + "tv", wait_until="domcontentloaded")
        page.wait_for_selector("#link.up", timeout=10_000)  # live (a selector: CSP: no eval)
        shot = f"tv-standings-{size['width']}x{size['height']}.png"
        keep(page, shot, docs=shot if size["height"] == 1080 else "")
        assert page.locator("#standings h2 .range").inner_text() == "top 5 of 23"
        names = page.locator("#standings tbody td:nth-child(2)")
        assert names.all_inner_texts() == list(LEADERS)
        assert page.locator("#standings tbody td:first-child").all_inner_texts() == [
            "=1", "=1", "=1", "=4", "=4"]
        one = min(box["height"] for box in (names.nth(k).bounding_box()
                                            for k in range(len(LEADERS))))
        for k, name in enumerate(LEADERS):
            lines = names.nth(k).bounding_box()["height"] / one
            assert round(lines) == LEADERS[name], (name, lines)
        # the latest games and the tiles keep a line a name, cut short: their own check
        check_readable(page, size, within="#standings")
        page.close()


def test_long_names_leave_fewer_leaders_rather_than_reach_under_the_qr_code() -> None:
    def night(*names: str) -> Night:
        return Night("2026-11-26", (), (), tuple(Standing(n, 1, 0, 0.5) for n in names))

    others = [f"P{k}" for k in range(23)]
    two = "Christopher Montgomery"  # two lines of the standings
    assert tv.leaders(night(*others)) == tv.LEADERS == 8
    assert tv.leaders(night(*others[:5])) == 5
    assert tv.leaders(night(*[two] * 4, *others)) == 5  # nine lines: as in the browser
    assert tv.leaders(night(*[two] * 5, *others)) == 4  # a tenth would reach the legend
    assert tv.leaders(night("Wolfeschlegelsteinhausenbergerdorff" * 2, *others)) == 5  # 5 lines
    assert tv.leaders(night(*["x" * 64] * 3)) == 1


def test_without_javascript_the_pages_turn_by_reloading(browser: Any, crowded: Hub) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=SIZES[0])
    page = context.new_page()
    page.goto(crowded.url + "tv?page=5", wait_until="domcontentloaded")
    assert shown_tables(page) == [f"table-table-{n}" for n in (17, 18, 19, 20)]
    assert page.locator("#tables .range").inner_text() == "17-20 of 20"
    refresh = page.locator("noscript").first.inner_html()
    assert f'content="{tv.CYCLE_S};url=/tv?page=1"' in refresh
    page.goto(crowded.url + "tv?page=x<b>", wait_until="domcontentloaded")
    assert page.locator("#tables .range").inner_text() == "1-4 of 20"
    check_readable(page, SIZES[0])
    context.close()


def test_a_finished_game_reaches_the_tv_live(browser: Any, hub: Hub,
                                             tables: list[Table]) -> None:
    tables[0].publish()
    page = browser.new_page(viewport=SIZES[1])
    page.goto(hub.url + "tv", wait_until="domcontentloaded")
    page.wait_for_selector("#link.up", timeout=10_000)  # live (a selector: the CSP forbids eval)
    assert page.locator("#latest .empty").is_visible()
    tables[0].play()
    until(lambda: page.locator("#latest li").count() == 1, 10, "the game on the TV")
    latest = page.locator("#latest li").inner_text()
    assert "Dalmatian at Table 1" in latest and "1. " in latest
    assert "Ann" in page.locator("#standings").inner_text()
    assert page.locator("#tables .range").inner_text() == ""  # one page: no range
    page.close()


def test_the_qr_code_names_only_a_plain_address() -> None:
    """The address in the QR code comes from the hub's --page, or else from the Host header
    the TV sent, which is taken only if it is a plain host and port."""
    assert phone_page("hub.local:8080") == "http://hub.local:8080/"
    assert phone_page("[fe80::1]:8080") == "http://[fe80::1]:8080/"
    for hostile in ('x"><script>alert(1)</script>', "a b", "", "hub.local:8080/evil",
                    "user@hub.local", "-hub", "hub.local:123456"):
        assert phone_page(hostile) == "", hostile
    assert page_address("http://hub.local:8080/") == "http://hub.local:8080/"
    for bad in ("hub.local:8080", "ftp://hub/", "http://", "http://[::1", "http://a b/"):
        with pytest.raises(argparse.ArgumentTypeError, match="not a web address"):
            page_address(bad)
    svg = tv.qr_svg('http://x/"<&')
    assert "<script" not in svg and 'aria-label="QR code of http://x/&quot;&lt;&amp;"' in svg
