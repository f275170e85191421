"""The BG Stats link, decoded and checked field by field against BG Stats' documented format
(bgstatsapp.com, "Push plays to BG Stats from other apps or websites")."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from firmware_host.hub.league.bgstats import create_play_link, play
from firmware_host.night.topics import Game, Player

GAME = Game("table-2", "Table 2", 17, "Dalmatian", "2026-11-20T21:05:30+01:00",
            "2026-11-20T21:48:10+01:00", "2026-11-20",
            (Player(0, "Ann", 31, 2), Player(1, "Björn & Co", 35, 1), Player(2, "Chris", 35, 1),
             Player(3, "=Dee", 12, 4)))

# The documented elements and their JSON types; the first three are required.
TOP = {"sourceName": str, "sourcePlayId": str, "playDate": str, "durationMin": int,
       "comments": str, "game": dict, "players": list}
GAME_KEYS = {"name": str, "sourceGameId": str, "highestWins": bool, "noPoints": bool}
PLAYER_KEYS = {"name": str, "sourcePlayerId": str, "score": int, "rank": int, "winner": bool,
               "startPlayer": bool}  # the app refuses a play without it


def decoded(link: str) -> dict[str, Any]:
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com",
                                                        "/createPlay.html")
    query = parse_qs(parts.query, strict_parsing=True)
    assert list(query) == ["data"] and len(query["data"]) == 1
    data: dict[str, Any] = json.loads(query["data"][0])
    return data


def test_the_link_carries_the_play_in_the_documented_format() -> None:
    data = decoded(create_play_link(GAME))
    assert {k: type(v) for k, v in data.items()} == TOP
    assert {k: type(v) for k, v in data["game"].items()} == GAME_KEYS
    for player in data["players"]:
        assert {k: type(v) for k, v in player.items()} == PLAYER_KEYS
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", data["playDate"])


def test_every_field_comes_from_the_record() -> None:
    data = decoded(create_play_link(GAME))
    assert data == play(GAME)
    assert data["sourceName"] == "table-companion"
    assert data["sourcePlayId"] == "table-2/17/20261120T200530Z"
    assert data["playDate"] == "2026-11-20 20:05:30"  # the start, in UTC
    assert data["durationMin"] == 43  # 42 min 40 s
    assert data["comments"] == "Table 2, game #17"
    assert data["game"] == {"name": "Dalmatian", "sourceGameId": "dalmatian",
                            "highestWins": True, "noPoints": False}
    assert [(p["name"], p["sourcePlayerId"], p["score"], p["rank"], p["winner"])
            for p in data["players"]] == [
        ("Ann", "Ann", 31, 2, False), ("Björn & Co", "Björn & Co", 35, 1, True),
        ("Chris", "Chris", 35, 1, True), ("=Dee", "=Dee", 12, 4, False)]
    assert not any(p["startPlayer"] for p in data["players"])  # the table did not tell


def test_the_player_who_won_the_opening_is_the_start_player() -> None:
    data = play(replace(GAME, starter=2))
    assert [p["startPlayer"] for p in data["players"]] == [False, False, True, False]


def test_a_journal_that_numbers_its_games_again_makes_new_plays() -> None:
    """The app de-duplicates on sourcePlayId: game #17 of a fresh journal is another play."""
    again = replace(GAME, started="2026-12-04T20:00:00+01:00", ended="2026-12-04T20:30:00+01:00")
    assert play(again)["sourcePlayId"] != play(GAME)["sourcePlayId"]


def test_the_data_is_one_encoded_parameter() -> None:
    link = create_play_link(GAME)
    query = urlsplit(link).query
    assert query.startswith("data=%7B%22sourceName%22")
    assert re.fullmatch(r"data=[A-Za-z0-9%_.~-]+", query), "every reserved character encoded"
    assert len(link) < 1200  # four players: about 1 kB, so the page links it, no QR code


@pytest.mark.parametrize(("started", "ended", "play_date", "minutes"), [
    ("2026-11-20T23:59:50-05:00", "2026-11-21T00:00:05-05:00", "2026-11-21 04:59:50", 1),
    ("2026-11-20T20:00:00+00:00", "2026-11-20T22:30:29+00:00", "2026-11-20 20:00:00", 150),
])
def test_dates_in_utc_and_whole_minutes(started: str, ended: str, play_date: str,
                                        minutes: int) -> None:
    """The first game lasts 15 s: a play lasts at least a minute."""
    game = Game(GAME.table, GAME.name, GAME.id, "Sequence Dice", started, ended, GAME.night,
                GAME.players)
    data = play(game)
    assert (data["playDate"], data["durationMin"]) == (play_date, minutes)
    assert data["game"]["sourceGameId"] == "sequence-dice"


def test_partners_of_a_team_game_carry_one_team() -> None:
    """Sequence Dice for four is two teams, seats 1 and 3 against 2 and 4."""
    four = replace(GAME, game="Sequence Dice", players=(
        Player(0, "Ann", 1, 1), Player(1, "Ben", 0, 3), Player(2, "Cy", 1, 1),
        Player(3, "Di", 0, 3)))
    data = decoded(create_play_link(four))
    assert [(p["name"], p["team"]) for p in data["players"]] == [
        ("Ann", "Team 1"), ("Ben", "Team 2"), ("Cy", "Team 1"), ("Di", "Team 2")]
    for player in data["players"]:
        assert {k: type(v) for k, v in player.items()} == {**PLAYER_KEYS, "team": str}


@pytest.mark.parametrize(("game", "players"), [("Sequence Dice", 3), ("Dalmatian", 4),
                                               ("No Such Game", 4)])
def test_a_game_without_teams_names_none(game: str, players: int) -> None:
    seated = replace(GAME, game=game, players=GAME.players[:players])
    assert not any("team" in p for p in play(seated)["players"])
