"""A finished game as a BG Stats link: one tap adds the play to the app players already use.

BG Stats documents a link for other apps ("Push plays to BG Stats from other apps or
websites"): ``https://app.bgstatsapp.com/createPlay.html?data=`` and the play as
URL-encoded JSON. Opening it on a phone with the app shows its import dialog, where the
game and the players are matched once to the app's own (it remembers the match by
``sourceGameId`` and ``sourcePlayerId``, so those stay the same from play to play).

The play is made from the hub's record of a finished game (:class:`finished.FinishedGame`):
``sourcePlayId`` is the table, the game's number and its start (a table whose journal
starts its numbers again makes new plays, not the app's duplicates of old ones);
``playDate`` is when the game started, in UTC, as ``YYYY-MM-DD HH:MM:SS``;
``durationMin`` is whole minutes, at least one; a player's ``sourcePlayerId`` is the
roster's id when the table chose the name from the night's roster (else the name, as the
table wrote it); a player's ``rank`` is their place and every player placed first is a
``winner`` (ties share the win); ``startPlayer``, which the app requires of every player, is
true for the seat that won the game's opening (false for all when the table could not
tell). In a game played in teams (Sequence Dice for four), team mates carry the same
``team``, "Team 1" for the side of the first seat. Every game here ranks the higher score
first, so ``highestWins`` is true.

``playDate`` is the start, as the app's own plays keep it: a play timed in BG Stats is dated
when its timer starts and carries its length in ``durationMin``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from firmware_host.hub.league.finished import FinishedGame
from games import UnknownGameError, game_class

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "table-companion"
PLAY_DATE = "%Y-%m-%d %H:%M:%S"


def play(game: FinishedGame) -> dict[str, Any]:
    """The play in BG Stats' format."""
    started, ended = datetime.fromisoformat(game.started), datetime.fromisoformat(game.ended)
    minutes = round((ended - started).total_seconds() / 60)
    utc = started.astimezone(UTC)
    teams = team_names(game)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"{game.table}/{game.id}/{utc:%Y%m%dT%H%M%SZ}",
        "playDate": utc.strftime(PLAY_DATE),
        "durationMin": max(1, minutes),
        "comments": f"{game.name}, game #{game.id}",
        "game": {
            "name": game.game,
            "sourceGameId": game.game.lower().replace(" ", "-"),
            "highestWins": True,
            "noPoints": False,
        },
        "players": [{
            "name": player.name,
            "sourcePlayerId": player.id or player.name,
            "score": player.score,
            "rank": player.place,
            "winner": player.place == 1,
            "startPlayer": player.seat == game.starter,
            **({"team": teams[player.seat]} if player.seat in teams else {}),
        } for player in game.players],
    }


def team_names(game: FinishedGame) -> dict[int, str]:
    """Each seat's team ("Team 1" for the first seat's side) when the game is played in
    teams, else nothing."""
    try:
        sides = game_class(game.game).seat_sides(len(game.players))
    except UnknownGameError:
        return {}
    if len(set(sides)) == len(sides):
        return {}
    order = list(dict.fromkeys(sides))  # the first seat's side is team 1
    return {seat: f"Team {order.index(side) + 1}" for seat, side in enumerate(sides)}


def create_play_link(game: FinishedGame) -> str:
    """The link that opens BG Stats with this game as a new play."""
    data = json.dumps(play(game), ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY}?data={quote(data, safe='')}"
