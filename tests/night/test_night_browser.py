"""The night's page in a real headless Chromium at a phone's size (390x844), driven by
Playwright, with three simulated tables playing through real publishers and a real broker.

The screenshot is kept as ``build/night/page-390x844.png``.
"""

from __future__ import annotations

import ast
import signal
import threading
import time
from typing import Any

from night_parts import OFFLINE_WITHIN_S, PHONE, ROOT, Hub, Table, until

from firmware_host.journal import Journal
from games.dalmatian import Dalmatian

LIVE_WITHIN_S = 2.0  # a finished game on an open page, after the table committed it
SHOT = ROOT / "build" / "night" / "page-390x844.png"


def ended_at(table: Table) -> dict[str, float]:
    """Each finished game's data-game key and when the table committed its end."""
    with Journal.open_existing(table.journal) as journal:
        return {f"{table.id}/{g.id}": g.ended.timestamp() for g in journal.finished_games()}


def test_a_phone_sees_the_night_change_live_and_names_stay_text(
        browser: Any, hub: Hub, tables: list[Table]) -> None:
    for table in tables:
        table.publish()
    tables[0].play()
    until(lambda: hub.results(), 10, "a first result at the hub")
    page = browser.new_page(viewport=PHONE)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(hub.url, wait_until="domcontentloaded")
    page.wait_for_selector("#link:text-is('live')", timeout=10_000)
    assert page.locator("#standings table").inner_text().count("Ann") == 1
    assert page.locator("#table-table-1").is_visible()

    seen: dict[str, float] = {}
    players = [threading.Thread(target=t.play, args=("dalmatian", n))
               for n, t in enumerate(tables, start=2)]
    for thread in players:
        thread.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(seen) < 4:
        shown = page.eval_on_selector_all("#games li", "items => items.map(i => i.dataset.game)")
        for key in shown:
            seen.setdefault(key, time.time())
        time.sleep(0.02)
    for thread in players:
        thread.join(timeout=60)
    ended: dict[str, float] = {}
    for table in tables:
        ended.update(ended_at(table))
    assert set(seen) == set(ended), "the page shows exactly the games the tables finished"
    late = {key: round(seen[key] - ended[key], 3) for key in ended
            if seen[key] - ended[key] > LIVE_WITHIN_S}
    assert not late, f"finished games shown later than {LIVE_WITHIN_S} s: {late}"

    standings = page.locator("#standings table").inner_text()
    assert "Cat" in standings and "Eve" in standings
    card = page.locator("#table-table-2").inner_text()
    assert "<script>alert(1)</script>" in card  # shown as text ...
    assert page.locator("#main script").count() == 0  # ... never made an element
    assert dialogs == []

    assert tables[2].publisher is not None
    tables[2].publisher.stop(signal.SIGKILL)
    page.wait_for_selector("#table-table-3.offline", timeout=OFFLINE_WITHIN_S * 1000)
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOT), full_page=False)
    page.close()


def test_without_javascript_the_page_is_all_there_and_reloads_itself(
        browser: Any, hub: Hub, tables: list[Table]) -> None:
    tables[0].publish()
    tables[0].play()
    until(lambda: hub.results(), 10, "a result at the hub")
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = context.new_page()
    page.goto(hub.url, wait_until="domcontentloaded")
    assert "Ann" in page.locator("#standings table").inner_text()
    assert "Dalmatian" in page.locator("#table-table-1").inner_text()
    assert page.locator("#link").inner_text() == "updated when you reload"
    refresh = page.locator("noscript").first.inner_html()
    assert 'http-equiv="refresh"' in refresh
    context.close()


def test_a_card_shows_the_dice_of_the_player_it_names(
        browser: Any, hub: Hub, tables: list[Table]) -> None:
    """Mid-turn, after a reroll of two dice, the card names Ben and shows his whole hand;
    once his turn is over it names Ann and shows no dice of Ben's."""
    table = tables[0]
    with Journal.open(table.journal) as journal:
        game = Dalmatian.new(2, ["Ann", "Ben"], rounds=2)
        journal.start(game)
        for action in ("roll 6-6-6-6-6", "roll 1-1-1-1-1", "roll 3-4", "roll 1-1-2-5-6"):
            journal.apply(game, action)  # Ann starts; her total is 7; Ben plays first
        journal.apply(game, "reroll 5-6", "roll 4-4")
    table.publish()
    page = browser.new_page(viewport=PHONE)
    page.goto(hub.url, wait_until="domcontentloaded")
    card = "#table-table-1"
    page.wait_for_selector(f"{card} .dice", timeout=10_000)
    assert page.locator(f"{card} span.turn").inner_text() == "Ben to move"
    assert page.locator(f"{card} .dice").get_attribute("title") == "dice 1-1-2-4-4"
    with Journal.open(table.journal) as journal:
        game = journal.resume()
        assert isinstance(game, Dalmatian)
        journal.apply(game, "stop")
    until(lambda: page.locator(f"{card} span.turn").inner_text().startswith("Ann"), 10,
          "Ann named on the card once Ben stopped")
    assert page.locator(f"{card} .dice").count() == 0
    page.close()


def test_no_night_test_waits_on_a_script_the_page_refuses() -> None:
    """The hub's pages forbid eval (CSP), and Playwright's wait_for_function evaluates its
    predicate in the page: it passes only when already true at the first look (made by
    the browser's tools, which the CSP leaves alone) and raises EvalError as soon as it
    has to wait. Selectors and locators wait outside the page's scripts."""
    calls = [f"{path.relative_to(ROOT)}:{node.lineno}"
             for path in sorted((ROOT / "tests" / "night").rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Attribute) and node.attr == "wait_for_function"]
    assert calls == []
