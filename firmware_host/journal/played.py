"""The night's results as the journal gives them out: finished games, their players and
throws, and the evening's standings. Values only; :class:`~firmware_host.journal.Journal`
reads them from the file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from firmware_host.players import clean_id
from firmware_host.records import Int, Number, Text, rule
from games.core import GameState, Result

NIGHT_TURNS_AT = timedelta(hours=6)  # a game started at 01:30 belongs to the evening before


def night_of(moment: datetime) -> date:
    """The evening a moment belongs to: the night turns at 06:00, not at midnight."""
    return (moment - NIGHT_TURNS_AT).date()


@dataclass(frozen=True)
class PlayerResult:
    seat: int
    name: str
    score: int
    place: int
    id: str = ""  # the night's roster id of the player, '' when the table had none


@dataclass(frozen=True)
class PlayedGame:
    """A finished game as the export and the standings see it."""

    id: int
    game: str
    options: dict[str, Any]
    started: datetime
    ended: datetime
    players: tuple[PlayerResult, ...]

    @property
    def night(self) -> date:
        return night_of(self.started)


@dataclass(frozen=True)
class Throw:
    """One throw of a game: its dice, and where they came from (:data:`SOURCES`, or
    :data:`UNKNOWN_SOURCE`)."""

    dice: tuple[int, ...]
    source: str


@dataclass(frozen=True)
class Standing:
    """One player's evening: games played, games won (shared wins count), and the share of
    the other players they finished ahead of, on average over their games (1.0 always
    first, 0.0 always last): a 4-player win counts once, and playing more adds nothing."""

    SCHEMA: ClassVar[str] = "standing"
    ABOUT: ClassVar[str] = (
        "A player's night: games played, games won (shared wins count), and the share of the "
        "other players finished ahead of, averaged over the games (1 always first, 0 always "
        "last).")

    name: str = rule(Text(None, None, empty=False))
    played: int = rule(Int(0))
    wins: int = rule(Int(0))
    ahead: float = rule(Number(0, 1))


def standings(games: Sequence[PlayedGame]) -> list[Standing]:
    """Players across ``games`` by wins, then the share they finished ahead of, then name.

    Games differ in what a point is worth, so only places are compared across games. (The
    count of opponents beaten, summed, rewarded whoever played more and counted a 4-player
    win three times.)
    """
    tally: dict[str, list[float]] = {}
    for game in games:
        others = len(game.players) - 1
        for player in game.players:
            behind = sum(1 for other in game.players if other.place > player.place)
            counts = tally.setdefault(player.name, [0, 0, 0.0])
            counts[0] += 1
            counts[1] += player.place == 1
            counts[2] += behind / others if others else 1.0
    rows = [Standing(name, int(played), int(wins), ahead / played)
            for name, (played, wins, ahead) in tally.items()]
    return sorted(rows, key=lambda s: (-s.wins, -s.ahead, s.name))


def places(result: Result) -> dict[int, int]:
    """Seat -> place in competition style: two tied winners are both 1st, the next is 3rd."""
    placed: dict[int, int] = {}
    for group in result.ranking:
        place = len(placed) + 1
        placed.update(dict.fromkeys(group, place))
    return placed


def result_rows(state: GameState[Any]) -> list[tuple[int, int, int]] | None:
    """A finished game's (seat, score, place) rows, as the results table holds them."""
    result = state.result()
    if result is None:
        return None
    placed = places(result)
    return [(seat, score, placed[seat]) for seat, score in enumerate(result.scores)]



def player_ids(setup: Mapping[str, Any]) -> list[str]:
    """A stored setup's roster ids seat by seat ('' for none, and for every seat of a game
    journaled before ids were, or whose ids are not readable)."""
    names, ids = setup.get("names"), setup.get("ids")
    count = len(names) if isinstance(names, list) else 0
    if not isinstance(ids, list) or len(ids) != count:
        return [""] * count
    return [clean_id(player_id) for player_id in ids]
