"""Who met whom on a night, and everyone's rating: what ``seat --hub`` reads of the hub.

Read from the hub's own file (the games it keeps; the league worked out from them, named by
the roster file), or over HTTP from a running hub: its night (``/night.json``, or
``/nights/DATE.json``) and its league (``/league.json``). Both give the same thing, keyed
by player id (:func:`roster.player_id`), so "ann" at one table and "Ann" in the host's
file are one player: each finished game of the night as a group of ids, and each rated
player's rating as the league shows it. Over HTTP the answers are untrusted: their size is
bounded and every field used is checked, and a wrong one is one :class:`HubError` line.
"""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from firmware_host.hub import urls
from firmware_host.hub.league.league import build
from firmware_host.hub.league.ratings import Rating
from firmware_host.hub.league.roster import Roster, player_id
from firmware_host.hub.store import stored_games
from firmware_host.players import ID

MAX_REPLY = 64 * 1024 * 1024  # /league.json holds every game of every player
TIMEOUT_S = 30.0


class HubError(ValueError):
    """A hub that could not be read, or answered with something that is not a night."""


@dataclass(frozen=True)
class Met:
    """A night at the hub: its date ('' when the hub has no game yet), each finished game's
    players (ids), every rated player's shown rating (by id), and how the hub names ids."""

    night: str
    games: tuple[tuple[str, ...], ...]
    ratings: Mapping[str, int]
    claims: Mapping[str, str] = field(default_factory=dict)  # a name's player_id: its id

    def id_of(self, name: str) -> str:
        """The hub's id of the player the host calls ``name``."""
        key = player_id(name)
        return self.claims.get(key, key)

    def rounds(self, names: list[str]) -> tuple[tuple[tuple[str, ...], ...], ...]:
        """The night's games as past rounds of one group each, a player the host names in
        ``names`` by that name (the others by id: they are not here, and meet nobody)."""
        host = {self.id_of(name): name for name in names}
        return tuple(((*(host.get(i, i) for i in game),),) for game in self.games)

    def rating(self, name: str) -> int:
        """``name``'s rating as the league shows it; a newcomer's if they have none."""
        return self.ratings.get(self.id_of(name), Rating().shown)


def from_file(path: Path, roster: Roster, night: str = "") -> Met:
    """The night ``night`` (by default the latest) in the hub's file at ``path``."""
    try:
        games = stored_games(path)
    except sqlite3.Error as err:
        raise HubError(f"{path}: not a hub's nights ({err})") from None
    shown = night or max((g.night for g in games), default="")
    league = build(games, roster)
    return Met(shown, tuple(tuple(roster.id_of(p.name, p.id) for p in g.players)
                            for g in games if g.night == shown),
               {i: p.rating.shown for i, p in league.players.items() if p.rating.games},
               {key: value for key, value in roster.claims.items()})


def from_url(base: str, night: str = "") -> Met:
    """The night ``night`` (by default the hub's tonight) of the hub at ``base``."""
    base = base.rstrip("/")
    tonight = _get(base + (urls.night(night) + ".json" if night else "/night.json"))
    league = _get(base + urls.LEAGUE_JSON)
    try:
        return _met(tonight, league)
    except (KeyError, TypeError, ValueError) as err:
        raise HubError(f"{base}: the hub's answer is not a night and a league as this "
                       f"version reads them ({type(err).__name__}: {err}); is the hub of "
                       "this version?") from None


def _get(url: str) -> Any:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as reply:
            data = reply.read(MAX_REPLY + 1)
    except urllib.error.HTTPError as err:
        raise HubError(f"{url}: the hub answered {err.code} {err.reason}"
                       + ("; no such night there" if err.code == 404 else "")) from None
    except (OSError, ValueError) as err:
        raise HubError(f"{url}: cannot read it ({getattr(err, 'reason', None) or err}); "
                       "is the hub running there?") from None
    if len(data) > MAX_REPLY:
        raise HubError(f"{url}: more than {MAX_REPLY // 2**20} MB; is it the hub?")
    try:
        return json.loads(data)
    except (ValueError, RecursionError):  # RecursionError: nested beyond the parser
        raise HubError(f"{url}: not JSON; is it the hub?") from None


def _met(tonight: Any, league: Any) -> Met:
    """The night and the league as the hub serves them, checked field by field."""
    claims: dict[str, str] = {}
    ratings: dict[str, int] = {}
    for player in _list(league["players"]):
        pid = _text(player["id"])
        for name in [player["name"], *(g["name"] for g in _list(player["games"]))]:
            claims.setdefault(player_id(_text(name)), pid)
        shown = player["rating"]["shown"]
        if type(shown) is not int or shown < 0:
            raise ValueError("a rating is not a whole number of 0 or more")
        if player["rating"]["games"]:
            ratings[pid] = shown
    night = _text(tonight["night"])
    if night:
        date.fromisoformat(night)
    games = tuple(tuple(_id(p, claims) for p in _list(g["players"]))
                  for g in _list(tonight["games"]))
    return Met(night, games, ratings, claims)


def _id(player: Any, claims: Mapping[str, str]) -> str:
    """A game's player's id: the roster's the table carried, else the one the name leads to."""
    carried = player.get("id", "")
    if isinstance(carried, str) and ID.fullmatch(carried):
        return carried
    key = player_id(_text(player["name"]))
    return claims.get(key, key)


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError("a list expected")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise TypeError("a name expected")
    return value
