"""The hub's dice report: every throw the tables sent, by table and by source of dice, as a
histogram and the fairness test's words; a fair seeded roller reads as nothing unusual and a
die showing six a third of the time is flagged. Messages go through the wire format into
the hub's own store; the pages come from a real server."""

from __future__ import annotations

import random
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from hub_helpers import get, serving

from firmware_host.hub import urls
from firmware_host.hub.store import Store
from firmware_host.night import topics
from firmware_host.night.topics import Game, Live, Player, Thrown

NIGHT = "2026-11-21"
LOADED = [1 / 6 * 4 / 5] * 5 + [1 / 3]  # a six a third of the time


def throws(rng: random.Random, count: int, weights: list[float] | None = None,
           source: str = "button") -> tuple[Thrown, ...]:
    return tuple(Thrown(n % 2, source, tuple(rng.choices(range(1, 7), weights, k=5)))
                 for n in range(count))


def send(store: Store, table: str, name: str, games: list[tuple[Thrown, ...]]) -> None:
    """``games`` finished at ``table``, each with its throws, as its publisher sends them."""
    for game_id, thrown in enumerate(games, start=1):
        game = Game(table, name, game_id, "Dalmatian", f"{NIGHT}T20:{game_id:02d}:00+01:00",
                    f"{NIGHT}T20:{game_id:02d}:30+01:00", NIGHT,
                    (Player(0, "Ann", 10, 1), Player(1, "Ben", 5, 2)), (), thrown)
        store.apply(topics.parse(topics.game_topic(table, game_id), topics.game_payload(game)))
    live = Live(table, name, "", (), "", "idle", (), (), "", 0, tuple(range(1, len(games) + 1)),
                f"{NIGHT}T23:00:00+01:00")
    store.apply(topics.parse(topics.live_topic(table), topics.live_payload(live)))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    rng = random.Random(24)
    store = Store.open(tmp_path / "night.sqlite3")
    send(store, "table-1", "Fair table", [throws(rng, 60) + throws(rng, 8, source="manual")
                                          for _ in range(4)])  # 1,200 dice by the button
    send(store, "table-2", "<b>Loaded</b>", [throws(rng, 60, LOADED) for _ in range(4)])
    with serving(store) as url:
        yield url


def sections(html: str) -> dict[str, str]:
    """Each report's heading and its words."""
    return {heading: body for heading, body in re.findall(
        r'<section class="dice-report"><h2>(.*?)</h2>(.*?)</section>', html, re.S)}


def test_a_fair_roller_is_not_flagged_and_a_loaded_one_is(served: str) -> None:
    html = get(served + urls.night_dice(NIGHT))
    found = sections(html)
    assert list(found) == ["&lt;b&gt;Loaded&lt;/b&gt;, the button roller",
                           "Fair table, the button roller", "Fair table, dice typed in"]
    loaded, fair, typed = found.values()
    assert "<li>faces: 1200 dice: unusual: fair dice throw this unevenly less than 0.1%" in loaded
    assert "<li>faces: 1200 dice: nothing unusual (p = " in fair
    assert "<li>faces: 160 dice: nothing unusual (p = " in typed
    bars = [int(h) for h in re.findall(r'<rect class="bar" x="\d+" y="\d+" width="30" '
                                       r'height="(\d+)"/>', loaded)]
    assert len(bars) == 6 and bars[5] > 1.5 * max(bars[:5])  # the six stands out
    assert "<b>" not in html and "<script" not in html
    assert sections(get(served + urls.DICE)) == found  # one night is every night here


def test_the_night_page_links_to_its_dice(served: str) -> None:
    assert f'href="{urls.night_dice(NIGHT)}"' in get(served + urls.night(NIGHT))
    assert f'href="{urls.DICE}"' in get(served + urls.NIGHTS)


def test_a_night_without_games_has_no_dice_page(served: str) -> None:
    with pytest.raises(urllib.error.HTTPError) as error:
        get(served + urls.night_dice("2026-11-22"))
    assert error.value.code == 404


def test_dice_counted_from_their_texts_are_counted_throw_by_throw() -> None:
    """The store's file gives the league a game's throws as texts (a seat may be written
    05), counted in bulk: the counts are those of each throw counted in turn, in the same
    order (the pages and the kept counts follow it)."""
    from collections import Counter
    from dataclasses import replace

    from firmware_host.hub.league.league import Dice
    from firmware_host.hub.store import finished

    rng = random.Random(5)
    games = [replace(finished(Game(
        "t-1", f"Table {game_id % 2}", game_id, "Dalmatian", "2026-11-24T20:00:00+01:00",
        "2026-11-24T20:30:00+01:00", "2026-11-24", (Player(0, "Ann", 3, 1),
                                                    Player(5, "Ben", 2, 2)))), throws=tuple(
        replace(t, seat=rng.choice((0, 5))) for t in throws(rng, 40, source="manual")
        + throws(rng, 20, [1, 1, 1, 1, 1, 3]))) for game_id in range(1, 6)]
    faces: dict[object, Counter[int]] = {}
    totals: dict[object, dict[int, Counter[int]]] = {}
    for game in games:
        for throw in game.throws:
            name = "Ann" if throw.seat == 0 else "Ben"
            for key in (name, (game.name, throw.source)):
                faces.setdefault(key, Counter()).update(throw.dice)
                totals.setdefault(key, {}).setdefault(len(throw.dice), Counter()).update(
                    [sum(throw.dice)])
    dice = Dice()
    dice.count([(replace(g, throws=()), [f"{t.seat:02d}:{t.source}:"
                                         + "-".join(map(str, t.dice)) for t in g.throws])
                for g in games])
    for counts in (dice.players, dice.tables):
        for key, counted in counts.faces.items():
            assert list(counted.items()) == list(faces[key].items())
            assert [(size, list(c.items())) for size, c in counts.totals[key].items()] == [
                (size, list(c.items())) for size, c in totals[key].items()]
    assert {*dice.players.faces, *dice.tables.faces} == set(faces)
    assert dice.as_json() == Dice.counted(games).as_json()
