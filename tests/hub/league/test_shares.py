"""Every table's share of the hub, bounded, in the store and the listener's parts: a bound
refuses only what is past it, a copy of what is held costs nothing, and refusals are logged
in one line a minute."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.hub.league.shares import Bounds, OverBound, Rate, Refusals
from firmware_host.hub.store import Store
from firmware_host.night import topics

NIGHT = "2026-11-24"
SMALL = Bounds(games=3, names=5, changes=2, rate=2.0, burst=3)


def game(table: str, game_id: int, *names: str, night: str = NIGHT) -> topics.Game:
    return topics.Game(table, table.title(), game_id, "Dalmatian", f"{night}T20:{game_id:02d}:00",
                       f"{night}T21:{game_id:02d}:00", night,
                       tuple(topics.Player(seat, name, 10 - seat, seat + 1)
                             for seat, name in enumerate(names or ("Ann", "Ben"))))


@pytest.fixture
def store(tmp_path: Path) -> Store:
    made = Store.open(tmp_path / "night.sqlite3")
    made.bounds = SMALL
    return made


def refused(store: Store, message: topics.Message) -> str:
    with pytest.raises(OverBound) as raised:
        store.apply(message)
    return raised.value.kind


def test_a_table_past_its_games_names_and_changes_is_refused_and_others_are_not(
        store: Store) -> None:
    for game_id in (1, 2, 3):
        store.apply(game("table-3", game_id))
    assert refused(store, game("table-3", 4)) == "games"
    store.apply(game("table-3", 3))  # a copy of a game held: nothing, not refused
    store.apply(game("table-1", 1))  # another table's share is its own
    store.apply(game("table-1", 2, "Cy", "Di", "Eve"))
    assert refused(store, game("table-1", 3, "Fay", "Gus")) == "names"  # 6 names
    store.apply(game("table-1", 3, "Ben", "Eve"))  # names it has
    for score in (1, 2):
        store.apply(replace(game("table-3", 1), players=(topics.Player(0, "Ann", score, 1),)))
    assert refused(store, replace(game("table-3", 1), players=(
        topics.Player(0, "Ann", 9, 1),))) == "changes"
    store.apply(game("table-3", 1, night="2026-11-25"))  # the next night: a share afresh


def test_a_closed_night_takes_nothing_even_as_the_latest(store: Store) -> None:
    store.apply(game("table-1", 1))
    store.first_open = lambda: "2026-11-30"
    store.apply(game("table-1", 1))  # held as it is: a retained copy, not refused
    assert refused(store, game("table-1", 2)) == "closed"
    assert refused(store, replace(game("table-1", 1), name="Changed")) == "closed"
    assert refused(store, game("table-2", 1, night="2025-11-24")) == "closed"
    store.apply(topics.Live("table-1", "Table 1", "", (), "", "idle", (), (), "", 0, (),
                            "2026-11-30T20:00:00+00:00"))  # lists nothing: drops nothing
    store.apply(topics.Cleared("table-1", 1))
    assert [g.id for g in store.night().games] == [1]


def test_a_tables_rate_is_a_bucket() -> None:
    now = [0.0]
    rate = Rate(SMALL, lambda: now[0])
    for _ in range(3):
        rate.take("table-3")
    with pytest.raises(OverBound):
        rate.take("table-3")
    rate.take("table-1")  # its own bucket
    now[0] += 0.5  # one more a half second at 2 a second
    rate.take("table-3")
    with pytest.raises(OverBound):
        rate.take("table-3")


def test_refusals_are_logged_in_one_line_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    now = [1000.0]
    refusals = Refusals(lambda: now[0])
    with caplog.at_level(logging.WARNING, "table_companion.hub"):
        for _ in range(30):
            refusals.count(OverBound("table-3", "closed", "the night of 2025-11-24 is closed"))
        refusals.count(OverBound("table-4", "rate", "too fast"))
        now[0] += 59
        refusals.say()
        assert len(caplog.records) == 1
        now[0] += 1
        refusals.say()
        refusals.say()
    assert [r.getMessage() for r in caplog.records] == [
        "refused past the tables' bounds: games of a closed night: 1 from table-3 (the night "
        "of 2025-11-24 is closed)",
        "refused past the tables' bounds: games of a closed night: 29 from table-3, messages "
        "past the rate bound: 1 from table-4 (the night of 2025-11-24 is closed)"]
    assert refusals.as_json() == {"table-3": {"closed": 30}, "table-4": {"rate": 1}}
    assert "table-3, table-4" in refusals.note()
