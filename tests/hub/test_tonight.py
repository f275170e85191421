"""The hub's clock decides the night: a game goes in the night of its start by the hub's
time zone, and a stamp from the future is refused, whatever a table's clock says."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from firmware_host.hub.tonight import TOLERANCE, dated
from firmware_host.night.topics import BadMessage, Game, Live, Player, Status

PARIS = timezone(timedelta(hours=1))
NOW = datetime(2026, 11, 24, 23, 30, tzinfo=PARIS)
GAME = Game("table-2", "Table 2", 7, "Dalmatian", "2026-11-24T22:00:00+01:00",
            "2026-11-24T23:00:00+01:00", "2026-11-24", (Player(0, "Ann", 48, 1),))
LIVE = Live("table-2", "Table 2", "Dalmatian", ("Ann",), "Ann", "roll", (), (1,), "", 1, (),
            "2026-11-24T23:30:00+01:00")


def test_a_game_is_in_the_night_of_its_start_by_the_hubs_clock() -> None:
    assert dated(GAME, NOW) == GAME
    # the same moments written by a table in UTC+14, where it is already the 25th
    far = replace(GAME, started="2026-11-25T11:00:00+14:00", ended="2026-11-25T12:00:00+14:00",
                  night="2026-11-25")
    assert dated(far, NOW).night == "2026-11-24"
    # a game past midnight is still the evening's; one after 06:00 is the next night's
    assert dated(replace(GAME, started="2026-11-25T01:00:00+01:00",
                         ended="2026-11-25T01:10:00+01:00"), NOW.replace(day=25, hour=2)
                 ).night == "2026-11-24"
    assert dated(replace(GAME, started="2026-11-25T06:30:00+01:00",
                         ended="2026-11-25T07:00:00+01:00"), NOW.replace(day=25, hour=8)
                 ).night == "2026-11-25"


@pytest.mark.parametrize("message", [
    replace(GAME, night="9999-12-31", started="9999-12-31T20:00:00+00:00",
            ended="9999-12-31T21:00:00+00:00"),
    replace(GAME, ended=(NOW + TOLERANCE + timedelta(seconds=1)).isoformat()),
    replace(LIVE, at="2099-01-01T00:00:00+00:00"),
    replace(LIVE, at=(NOW + TOLERANCE + timedelta(seconds=1)).isoformat()),
])
def test_stamps_from_the_future_are_refused(message: Game | Live) -> None:
    with pytest.raises(BadMessage, match="after the hub's clock: check the table's clock"):
        dated(message, NOW)


def test_clocks_a_little_apart_and_messages_without_time_pass() -> None:
    ahead = replace(LIVE, at=(NOW + TOLERANCE).isoformat())
    assert dated(ahead, NOW) == ahead
    assert dated(Status("table-2", True), NOW) == Status("table-2", True)
