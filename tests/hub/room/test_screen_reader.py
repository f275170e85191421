"""The night's page for a screen reader, in a real headless Chromium against a real hub:
landmarks and headings in order, tables with headers, dice as words, the turn said in words
as well as colour, and a polite live region that announces finished games and whose turn
it is at the player's own table (chosen on the page, remembered by the browser), read from
Chromium's accessibility tree; and axe-core (vendored in ``axe/`` beside this file) finds no
serious or critical violation on the page or the TV.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

from night_parts import PASSWORD, PHONE, ROOT, Broker, Hub, Table, private, until

from firmware_host.journal import Journal
from games.core import Phase
from games.dalmatian import Dalmatian

AXE = Path(__file__).parent / "axe" / "axe.min.js"
SHOT = ROOT / "build" / "night" / "page-news-390x844.png"
BEN_MID_TURN = ("roll 6-6-6-6-6", "roll 1-1-1-1-1", "roll 3-4", "roll 1-1-2-5-6")


def mid_turn(table: Table) -> None:
    """Table 1 in a Dalmatian game: Ben to move, his dice 1-1-2-4-4 after a reroll."""
    with Journal.open(table.journal) as journal:
        game = Dalmatian.new(2, ["Ann", "Ben"], rounds=1)
        journal.start(game)
        for action in BEN_MID_TURN:
            journal.apply(game, action)
        journal.apply(game, "reroll 5-6", "roll 4-4")


def play_out(table: Table) -> None:
    with Journal.open(table.journal) as journal:
        game = journal.resume()
        assert isinstance(game, Dalmatian)
        rng = random.Random(3)
        while not game.is_over:
            if game.phase is Phase.ROLL:
                dice = "-".join(str(rng.randint(1, 6)) for _ in range(game.dice_wanted))
                journal.apply(game, f"roll {dice}")
            else:
                journal.apply(game, "stop")


def news(page: Any) -> str:
    return str(page.locator("#news").aria_snapshot())


def test_the_live_region_announces_the_turn_at_my_table_and_a_finished_game(
        browser: Any, hub: Hub, tables: list[Table]) -> None:
    table = tables[0]
    mid_turn(table)
    table.publish()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(hub.url, wait_until="domcontentloaded")
    page.wait_for_selector("#mine option[value='table-1']", state="attached", timeout=10_000)
    live = page.locator("#news")
    assert live.get_attribute("aria-live") == "polite"
    assert news(page) == '- log "News"'  # nothing announced before anything happened
    page.select_option("#mine", "table-1")
    until(lambda: "Ben to move" in news(page), 5, "the turn at my table announced")
    assert news(page) == ('- log "News":\n'
                          '  - paragraph: "Table 1: Ben to move, dice one, one, two, four, four"')

    play_out(table)
    until(lambda: "Game over" in news(page), 10, "the finished game announced")
    said = news(page)
    assert re.search(r'paragraph: "Game over: Dalmatian · Table 1: 1\. (Ann|Ben) \d+, '
                     r'2\. (Ann|Ben) -?\d+"', said), said
    assert "Table 1: game over" in said  # the turn at my table: the game is over
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOT))

    page.reload(wait_until="domcontentloaded")
    page.wait_for_selector("#mine option[value='table-1']", state="attached", timeout=10_000)
    assert page.locator("#mine").input_value() == "table-1", "remembered by the browser"
    assert news(page) == '- log "News"', "old games are not news after a reload"
    context.close()


def test_landmarks_headings_tables_and_dice_read_in_order(
        browser: Any, hub: Hub, tables: list[Table]) -> None:
    tables[1].play()
    mid_turn(tables[0])
    for table in tables[:2]:
        table.publish()
    page = browser.new_page(viewport=PHONE)
    page.goto(hub.url, wait_until="domcontentloaded")
    page.wait_for_selector("#table-table-1 .dice", timeout=10_000)
    until(lambda: page.locator("#games li").count() >= 1, 10, "a finished game")
    tree = page.locator("body").aria_snapshot()
    landmarks = [line.strip() for line in tree.splitlines()
                 if re.match(r"\s*- (banner|main|contentinfo)\b", line)]
    assert [mark.split(":")[0] for mark in landmarks] == ["- banner", "- main",
                                                          "- contentinfo"]
    levels = [int(level) for level in re.findall(r"heading .*\[level=(\d)\]", tree)]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b <= a + 1 for a, b in pairwise(levels)), levels
    assert 'columnheader "Player"' in tree and 'columnheader "Won"' in tree
    card = page.locator("#table-table-1").aria_snapshot()
    assert "dice one, one, two, four, four" in card
    assert "⚀" not in card  # the faces are for the eye
    assert re.search(r"listitem: Ben ?, to play 0", card)  # the turn in words, not colour
    assert "online" in card
    page.close()


def violations(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
      const result = await axe.run(document, {resultTypes: ["violations"]});
      return result.violations.map(v => ({id: v.id, impact: v.impact,
                                          nodes: v.nodes.map(n => n.target.join(" "))}));
    }""")
    return [f"{v['id']} ({v['impact']}): {v['nodes'][:3]}" for v in found
            if v["impact"] in ("serious", "critical")]


def test_axe_finds_no_serious_violation(browser: Any, hub: Hub, tables: list[Table]) -> None:
    tables[1].play()
    mid_turn(tables[0])
    for table in tables[:2]:
        table.publish()
    # axe is injected as a script, which the page's own policy would refuse
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.goto(hub.url, wait_until="domcontentloaded")
    page.wait_for_selector("#table-table-1 .dice", timeout=10_000)
    until(lambda: page.locator("#games li").count() >= 1, 10, "a finished game")
    page.select_option("#mine", "table-1")
    assert violations(page) == []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert violations(page) == [], scheme
    page.evaluate("""() => { const img = document.createElement("img");
                             img.src = "/app.css"; document.body.append(img); }""")
    assert any(v.startswith("image-alt (critical)") for v in violations(page)), \
        "axe runs: an image without words is found"
    tv = context.new_page()
    tv.set_viewport_size({"width": 1920, "height": 1080})
    tv.goto(hub.url + "tv", wait_until="domcontentloaded")
    tv.wait_for_selector("#table-table-1 .dice", timeout=10_000)
    assert violations(tv) == []
    context.close()


SPEECH = """
window.spoken = [];
Object.defineProperty(window, "speechSynthesis", {configurable: true, value: {
  speak: function (u) { window.spoken.push(u.lang + ": " + u.text); },
  cancel: function () {}
}});
"""


def test_with_speak_on_the_phone_says_the_news_of_my_table_and_no_other(
        browser: Any, hub: Hub, tables: list[Table]) -> None:
    """Speech goes through the browser's speechSynthesis (recorded here): nothing before
    the player's tap, then every news line of their own table, never another table's."""
    mine, other = tables[0], tables[1]
    for table in (mine, other):
        mid_turn(table)
        table.publish()
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(SPEECH)
    page = context.new_page()
    page.goto(hub.url, wait_until="domcontentloaded")
    page.wait_for_selector("#mine option[value='table-2']", state="attached", timeout=10_000)
    page.select_option("#mine", "table-1")
    until(lambda: "Ben to move" in news(page), 5, "the turn at my table announced")
    assert page.evaluate("window.spoken") == [], "nothing spoken before Speak is tapped"
    page.click("#speak")
    assert page.is_checked("#speak")
    play_out(other)
    until(lambda: "Table 2" in news(page), 10, "the other table's game announced")
    play_out(mine)

    def said() -> list[str]:
        return list(page.evaluate("window.spoken"))

    # the card and the list, in either order (and any turn the table published on the way)
    until(lambda: "en: Table 1: game over" in said() and any(
        line.startswith("en: Game over: Dalmatian · Table 1: 1. ") for line in said()), 10,
        "my table's news spoken")
    assert all(line.startswith(("en: Table 1: ", "en: Game over: Dalmatian · Table 1: "))
               for line in said()), said()

    page.reload(wait_until="domcontentloaded")
    page.wait_for_selector("#mine option[value='table-1']", state="attached", timeout=10_000)
    assert page.is_checked("#speak"), "Speak is remembered by the browser"
    context.close()


NIGHT = """\
players = ["Ann", "Ben", "Cat", "Dan"]
[[tables]]
name = "1"
game = "sequence"
[[tables]]
name = "2"
game = "dalmatian"
"""


def test_the_tv_asked_to_speak_says_a_game_s_end_and_the_next_round(
        tmp_path: Path, browser: Any, broker: Broker, hub: Hub, tables: list[Table]) -> None:
    """The TV at /tv?speak=1 says the night's big moments through speechSynthesis
    (recorded here, the browser letting the page speak): each finished game, then the next
    round's seating; /tv alone says nothing."""
    table = tables[0]
    mid_turn(table)
    table.publish()
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.add_init_script(SPEECH)
    loud, quiet = context.new_page(), context.new_page()
    loud.goto(hub.url + "tv?speak=1", wait_until="domcontentloaded")
    quiet.goto(hub.url + "tv", wait_until="domcontentloaded")
    for tv in (loud, quiet):
        tv.wait_for_selector("#table-table-1 .dice", timeout=10_000)

    def said(tv: Any) -> list[str]:
        return list(tv.evaluate("window.spoken"))

    assert said(loud) == [], "what the TV shows when it opens is not news"
    play_out(table)
    until(lambda: said(loud), 10, "the finished game said")
    assert len(said(loud)) == 1, said(loud)
    assert re.fullmatch(r"en: Game over: Dalmatian at Table 1: 1\. (Ann|Ben) \d+, "
                        r"2\. (Ann|Ben) -?\d+", said(loud)[0]), said(loud)

    night = tmp_path / "night.toml"
    night.write_text(NIGHT)
    secret = private(tmp_path / "host-password", PASSWORD)
    done = subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "seat", str(night), "--publish",
         "--broker", broker.url, "--password-file", str(secret)],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    until(lambda: len(said(loud)) == 2, 10, "the next round said")
    assert re.fullmatch(r"en: Next round\. Table 1, Sequence Dice: [A-D][a-z]{2}, [A-D][a-z]{2}\. "
                        r"Table 2, Dalmatian: [A-D][a-z]{2}, [A-D][a-z]{2}\.", said(loud)[1]), \
        said(loud)
    assert said(quiet) == [], "a TV not asked to speak says nothing"
    loud.reload(wait_until="domcontentloaded")
    loud.wait_for_selector("#next-round article", state="attached", timeout=10_000)
    assert said(loud) == [], "after a reload the night so far is not news"
    context.close()
