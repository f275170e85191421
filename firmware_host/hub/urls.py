"""Where things are on the hub's pages: one place that writes a night's or a game's address.

A night's address is its date (``/nights/2026-11-24``), with ``.json`` or ``.csv`` after it
for its export; a finished game's is its night's, its table id and its game id
(``/nights/2026-11-24/table-2/7``): a table's game ids are its journal's, unique for the
table, and the night keeps two journals of one table name apart. A player's page is
``/players/<id>`` (:func:`firmware_host.hub.league.roster.player_id`), ``.json`` after it for
their record; ``/players`` ranks them, ``/league.json`` and ``/league.csv`` export it all.
"""

from __future__ import annotations

import re

from firmware_host.night.topics import SHORT

NIGHTS = "/nights"
PLAYERS = "/players"
LEAGUE_JSON, LEAGUE_CSV = "/league.json", "/league.csv"
_DATE = r"\d{4}-\d{2}-\d{2}"
NIGHT_PATH = re.compile(rf"/nights/({_DATE})(\.json|\.csv)?")
NIGHT_DICE_PATH = re.compile(rf"/nights/({_DATE})/dice")
DICE = "/dice"  # every night's dice
GAME_PATH = re.compile(rf"/nights/({_DATE})/([a-z0-9-]{{1,32}})/([1-9]\d{{0,8}})")
# a game's short address, which its table shows as a QR code (topics.short_path)
SHORT_PATH = re.compile(re.escape(SHORT) + "[a-z2-7]{8}")


def night(date: str) -> str:
    return f"{NIGHTS}/{date}"


def game(date: str, table: str, game_id: int) -> str:
    return f"{NIGHTS}/{date}/{table}/{game_id}"


def night_dice(date: str) -> str:
    return f"{NIGHTS}/{date}/dice"


def player(player_id: str) -> str:
    """A player's page; ``player_id`` as it goes in a path (percent-encoded if need be)."""
    return f"{PLAYERS}/{player_id}"
