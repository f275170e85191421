"""The night's numbers as a guest reads them at a glance, on a phone (390x844) and the TV
(1920x1080) in headless Chromium, over the hub's own pages serving a night the test filled:
every column has its legend, players level on every column are tied ("=3"), no rating is
below zero, the finished games are bounded with a link to the rest, a game of Dalmatian
shows its round and target, and at the night's end the TV names the winner of the night.

The phone's picture is kept as ``build/night/game-night-390x844.png`` (the README's
``docs/game-night.png``), the TV's winner as ``build/night/tv-winner-1920x1080.png``.
"""

from __future__ import annotations

import logging
import random
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hub_helpers import serving
from night_parts import PHONE, keep

from firmware_host.hub import page, server, urls
from firmware_host.hub.broadcast import Broadcast
from firmware_host.hub.listener import Listener
from firmware_host.hub.store import HeardTable, Store
from firmware_host.hub.watch import Watch
from firmware_host.night import topics
from firmware_host.night.follow import detail, live_game
from firmware_host.night.mqtt import Link
from firmware_host.night.topics import Game, Live, Player, SeatedTable, Seating, Status
from games.core import Phase, Roll
from games.dalmatian import Dalmatian, Stop

NIGHT = "2026-11-24"
TV = {"width": 1920, "height": 1080}
GAMES = 47  # a long night: the page used to list every one (3,769 px on a phone)
# Eve beats Fay 22 to 21; Ann and Ben each beat one player twice: level on every column
PLACES = ["1", "2", "=3", "=3", "=5", "=5"]
DALMATIAN = "round 3 of 12 · target 3"
T = TypeVar("T")


@dataclass
class Clock:
    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


def at(minute: int) -> str:
    return f"{NIGHT}T{18 + minute // 60:02d}:{minute % 60:02d}:00+00:00"


def two(table: int, game_id: int, minute: int, winner: str, loser: str) -> Game:
    return Game(f"table-{table}", f"Table {table}", game_id, "Centennial", at(minute),
                at(minute + 1), NIGHT, (Player(0, winner, 9, 1), Player(1, loser, 4, 2)))


def dalmatian_mid_round() -> Dalmatian:
    """Three players at round 3, its starting total thrown (the dice are seeded)."""
    rng = random.Random(3)
    game = Dalmatian.new(3, ["Ann", "Ben", "Cat"])
    while not (game.round_number == 3 and game.total is not None and game.phase is Phase.MOVE):
        if game.phase is Phase.ROLL:
            action: object = Roll(tuple(rng.randint(1, 6) for _ in range(game.dice_wanted)))
        elif (game.turn_score or 0) >= 2 or not game.rerolls_left:
            action = Stop()
        else:
            action = rng.choice([a for a in game.legal_actions() if not isinstance(a, Stop)])
        game.apply(action)
    return game


def idle(table: int, finished: tuple[int, ...], players: tuple[str, ...] = ("Ann", "Ben"),
         when: str = at(200)) -> Live:
    """Table ``table`` between games, its last game's players and scores on its card."""
    return Live(f"table-{table}", f"Table {table}", "Centennial", players, "", "over", (),
                (9, 4)[:len(players)], "", 0, finished, when)


def fill(store: Store) -> None:
    """Three tables: Dalmatian in play at table 1; 43 games of Eve and Fay at table 2; Ann,
    Ben, Cat and Dan's four at table 3."""
    eve = [two(2, n, n, *(("Eve", "Fay") if n % 2 else ("Fay", "Eve"))) for n in range(1, 44)]
    pairs = [two(3, n, 50 + n, *pair) for n, pair in enumerate(
        [("Ann", "Cat"), ("Ben", "Dan"), ("Ann", "Cat"), ("Ben", "Dan")], start=1)]
    for table in (1, 2, 3):
        store.apply(Status(f"table-{table}", True))
    for game in [*eve, *pairs]:
        store.apply(game)
    store.apply(idle(2, tuple(g.id for g in eve), ("Fay", "Eve")))
    store.apply(idle(3, tuple(g.id for g in pairs), ("Ben", "Dan")))
    store.apply(live_game("table-1", "Table 1", dalmatian_mid_round(), (), at(200)))


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[tuple[str, Store, Clock]]:
    clock = Clock()
    store = Store.open(tmp_path / "night.sqlite3")
    store.clock = clock
    store.played_at = clock()
    fill(store)
    # started and closed in a thread of its own: Playwright's loop runs in this one
    hub = serving(store)
    url = in_thread(hub.__enter__)
    try:
        yield url, store, clock
    finally:
        in_thread(lambda: hub.__exit__(None, None, None))


def in_thread(call: Callable[[], T]) -> T:
    done: list[T] = []
    thread = threading.Thread(target=lambda: done.append(call()))
    thread.start()
    thread.join(timeout=30)
    [result] = done
    return result


def legends(page_: Any, within: str) -> tuple[list[str], list[str]]:
    """The visible column heads of ``within``'s table, and the visible terms of its legend."""
    heads = page_.locator(f"{within} thead th:visible").all_inner_texts()
    terms = page_.locator(f"{within} .legend dt:visible").all_inner_texts()
    return heads, terms


def one_line_each(page_: Any, within: str) -> None:
    for item in page_.locator(f"{within} .legend div:visible").all():
        height = item.bounding_box()["height"]
        line = float(item.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
        assert height < 1.5 * line, f"{item.inner_text()!r} takes {height} px"


def test_the_phone_page_reads_at_a_glance(browser: Any, hub: tuple[str, Store, Clock]
                                         ) -> None:
    url, _, _ = hub
    phone = browser.new_page(viewport=PHONE)
    phone.goto(url, wait_until="domcontentloaded")
    heads, terms = legends(phone, "#standings")
    assert heads == terms == ["#", "Player", "Won", "Games", "Ahead"]
    one_line_each(phone, "#standings")
    rows = [r.split("\t") for r in phone.locator("#standings tbody tr").all_inner_texts()]
    assert [r[0] for r in rows] == PLACES
    for tied in ("=3", "=5"):
        level = {tuple(r[2:]) for r in rows if r[0] == tied}
        assert len(level) == 1, f"{tied}: level on every column"
    assert phone.locator("#games li").count() == page.SHOWN_GAMES
    assert phone.locator("#games ol").get_attribute("start") == str(GAMES)  # 47 down to 40
    assert phone.locator("#games h2").inner_text() == f"Finished games ({GAMES})"
    more = phone.locator("#games .more a")
    assert more.get_attribute("href") == urls.night(NIGHT)
    assert phone.locator("#table-table-1 .detail").inner_text() == DALMATIAN
    height = phone.evaluate("document.documentElement.scrollHeight")
    assert height < 2000, f"the page is {height} px long"
    keep(phone, "game-night-390x844.png", docs="game-night.png", full_page=True)

    more.click()
    phone.wait_for_url("**" + urls.night(NIGHT))
    assert phone.locator("#games li").count() == GAMES  # the night's own page has them all

    phone.goto(url + urls.PLAYERS, wait_until="domcontentloaded")
    heads, terms = legends(phone, "#league")
    assert heads == terms == ["#", "Player", "Rating", "Won", "Games"]
    one_line_each(phone, "#league")
    ratings = [r.split("\t")[2] for r in phone.locator("#league tbody tr").all_inner_texts()]
    values = [int(r.split()[0]) for r in ratings]
    assert values and min(values) >= 0, ratings
    assert "provisional" in ratings[-1] and "sigma" not in phone.locator("main").inner_text()
    assert "Provisional: fewer than 5 games" in phone.locator("#league").inner_text()
    keep(phone, "players-390x844.png", full_page=True)
    places = [r.split("\t")[0] for r in phone.locator("#league tbody tr").all_inner_texts()]
    assert "=" in "".join(places), "Cat and Dan, rated alike, are tied"  # two lost games each
    phone.close()


def test_the_tv_reads_at_a_glance_and_names_the_winner_at_the_nights_end(
        browser: Any, hub: tuple[str, Store, Clock]) -> None:
    url, store, clock = hub
    screen = browser.new_page(viewport=TV)
    screen.goto(url + "/tv", wait_until="domcontentloaded")
    screen.wait_for_selector("#link.up", timeout=10_000)  # the stream's state is in place
    heads, terms = legends(screen, "#standings")
    assert heads == terms == ["#", "Player", "Won", "Ahead"]  # Games is left out on the TV
    assert [c for c in screen.locator("#standings tbody td:first-child").all_inner_texts()
            ] == PLACES
    assert screen.locator("#table-table-1 .detail").inner_text() == DALMATIAN
    assert screen.locator("#table-table-1 .detail").is_visible()
    assert not screen.locator("#spotlight").is_visible()  # Dalmatian is on at table 1
    keep(screen, "tv-glance-1920x1080.png")

    store.apply(idle(1, (), ("Ann", "Ben", "Cat")))  # table 1 ends its game
    reload(screen)
    assert not screen.locator("#spotlight").is_visible(), "a pause between rounds"
    clock.now += store.ended_after
    reload(screen)
    spotlight = screen.locator("#spotlight")
    assert spotlight.is_visible()
    assert spotlight.locator("h2").inner_text() == "Winner of the night"
    assert spotlight.locator(".winner").all_inner_texts() == ["Eve"]
    box = spotlight.bounding_box()
    assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= TV["width"]
    assert box["y"] + box["height"] <= TV["height"]
    keep(screen, "tv-winner-1920x1080.png", docs="tv-winner-1920x1080.png")
    screen.close()


def reload(screen: Any) -> None:
    """The TV afresh, and its stream's state in place: rendered anew, not the one the
    server keeps for :data:`server.RENDER_S` for a crowd arriving at once."""
    time.sleep(server.RENDER_S + 0.05)
    screen.reload(wait_until="domcontentloaded")
    screen.wait_for_selector("#link.up", timeout=10_000)


def test_the_nights_end_is_no_game_in_play_for_a_while_and_no_next_round(
        tmp_path: Path) -> None:
    clock = Clock()
    store = Store.open(tmp_path / "night.sqlite3")
    store.clock = clock
    store.played_at = clock()
    clock.now += store.ended_after
    assert not store.over(), "no game yet"
    fill(store)
    clock.now += store.ended_after
    assert not store.over(), "table 1 plays"
    store.apply(idle(1, ()))
    assert not store.over(), "its game ended a moment ago"
    clock.now += store.ended_after - 1
    assert not store.over()
    clock.now += 1
    assert store.over() and store.night().over
    assert [s.name for s in page.winners(store.night())] == ["Eve"]
    store.apply(Seating((SeatedTable("1", "Centennial", ("Ann", "Ben")),), at(300)))
    assert not store.over(), "a next round is published"
    store.apply(Seating((), at(301)))
    assert store.over()
    store.apply(live_game("table-1", "Table 1", dalmatian_mid_round(), (), at(302)))
    assert not store.over(), "a new game opens it again"
    store.apply(Status("table-1", False))
    assert not store.over(), "a table gone in the middle of a game: counted from then"
    clock.now += store.ended_after
    assert store.over()
    store.close()


def test_the_tv_hears_the_night_end_and_open_again(tmp_path: Path) -> None:
    clock = Clock()
    store = Store.open(tmp_path / "night.sqlite3")
    store.clock = clock
    store.played_at = clock()
    fill(store)
    store.apply(idle(1, ()))
    link = Link(topics.parse_broker("mqtt://127.0.0.1:1"), "night_hub", "x", keepalive=2,
                log=logging.getLogger("test.link"))
    listener = Listener(store, link, Broadcast())
    sent: list[bytes] = []
    listener.broadcast.send = lambda key, event: sent.append(event)  # type: ignore[method-assign]
    watch = Watch(listener, 2)
    watch.tick()
    assert not any(b"spotlight" in event for event in sent)
    clock.now += store.ended_after
    watch.tick()
    [over] = [event for event in sent if b"Winner of the night" in event]
    assert over.startswith(b"event: results")
    sent.clear()
    watch.tick()
    assert not any(b"spotlight" in event for event in sent), "said once"
    store.apply(live_game("table-1", "Table 1", dalmatian_mid_round(), (), at(330)))
    watch.tick()
    assert any(b'id=\\"spotlight\\" class=\\"spotlight\\" hidden' in event for event in sent)
    store.close()


def test_places_are_shared_by_equal_keys() -> None:
    assert page.ranks([]) == []
    assert page.ranks([3, 2, 2, 1]) == ["1", "=2", "=2", "4"]
    assert page.ranks([5, 5]) == ["=1", "=1"]
    assert page.ranks([(1, 50), (1, 49), (0, 50)]) == ["1", "2", "3"]


def test_the_live_page_lists_the_latest_games_and_the_nights_page_every_one(
        tmp_path: Path) -> None:
    store = Store.open(tmp_path / "night.sqlite3")
    fill(store)
    night = store.night()
    live = str(page.games(night))
    assert live.count("<li ") == page.SHOWN_GAMES and f"The latest 8 of {GAMES}" in live
    assert str(page.games(night, None)).count("<li ") == GAMES
    assert str(page.night_page(night, True)).count("<li data-game") == GAMES
    store.close()


def test_a_dalmatian_card_says_its_round_and_target_and_others_say_nothing_more() -> None:
    game = dalmatian_mid_round()
    assert detail(game) == DALMATIAN
    assert detail(Dalmatian.new(2, ["Ann", "Ben"])) == ""  # who starts is not thrown yet
    live = live_game("table-1", "Table 1", game, (), at(0))
    assert live.detail == DALMATIAN
    sent = topics.parse(topics.live_topic("table-1"), topics.live_payload(live))
    assert sent == live
    older = topics.live_payload(live).replace(b',"detail":"' + DALMATIAN.encode() + b'"', b"")
    assert b"detail" not in older
    assert topics.parse(topics.live_topic("table-1"), older) == Live(
        **{**live.__dict__, "detail": ""})  # a publisher of before: no detail, no harm
    with pytest.raises(topics.BadMessage, match="detail"):
        topics.parse(topics.live_topic("table-1"), older.replace(
            b'"v":1', b'"v":1,"detail":"' + b"x" * 100 + b'"'))
    assert 'class="detail"' not in str(page.card(HeardTable("table-2", True, idle(2, ()))))


def test_the_hub_serves_the_night_it_was_given(hub: tuple[str, Store, Clock]) -> None:
    url, _, _ = hub
    with urllib.request.urlopen(url + "/night.json", timeout=5) as reply:
        assert b'"detail": "round 3 of 12' in reply.read()
