"""The night's MQTT topics and payloads: the one contract between publishers and the hub.

Every topic sits under ``tc/<table id>/``, and a table logs in to the broker with its table
id as user name, so one ACL pattern (``pattern write tc/%u/#``) lets a table write only its
own topics. All three are retained and sent with QoS 1:

- ``tc/<id>/status``: ``online``, or the broker's last will ``offline``;
- ``tc/<id>/live``: the game at the table now (JSON, :func:`live_payload`), and the ids of the
  finished games the table has published, so the hub can drop one a table took back;
- ``tc/<id>/game/<game id>``: one finished game and its result (JSON, :func:`game_payload`);
  an empty retained message clears it.

Payloads are small JSON objects with a version number. :func:`parse` checks a message from
the wire and returns a typed value or raises :class:`BadMessage`, so the hub never trusts a
field it has not checked.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from urllib.parse import urlsplit

ROOT = "tc"
VERSION = 1
MAX_PAYLOAD = 16_384  # a 4-player game's result is under 1 kB; anything near this is wrong
MAX_NAME = 64
MAX_ITEMS = 16  # players, dice or scores in a message
MAX_GAMES = 1000  # finished game ids a table lists in one night
ONLINE, OFFLINE = "online", "offline"
DEFAULT_PORT = {"mqtt": 1883, "mqtts": 8883}
HUB_PORT = 8080  # where ``table-companion hub`` serves the night's page by default
_ID = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?")


class BadMessage(ValueError):
    """A message that breaks the contract; the text says which part."""


def table_id(name: str) -> str:
    """The topic and user name of a table: ``Table 2`` -> ``table-2``; '' when none fits."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.strip().lower()).strip("-")
    return slug if _ID.fullmatch(slug) else ""


@dataclass(frozen=True)
class Broker:
    """Where the broker listens: ``mqtt://host:port`` or ``mqtts://`` for TLS."""

    host: str
    port: int
    tls: bool = False

    def __str__(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse_broker(url: str) -> Broker:
    """A Broker from its URL; ValueError says what is wrong with it."""
    parts = urlsplit(url.strip())
    if parts.scheme not in DEFAULT_PORT:
        raise ValueError('write mqtt://HOST[:PORT] or mqtts://HOST[:PORT], '
                         'e.g. "mqtt://hub.local:1883"')
    try:
        port = parts.port or DEFAULT_PORT[parts.scheme]
    except ValueError:
        raise ValueError("the port must be a number from 1 to 65535") from None
    if not parts.hostname or parts.path not in ("", "/") or parts.query or parts.username:
        raise ValueError("give a host and at most a port, e.g. \"mqtt://hub.local:1883\"")
    return Broker(parts.hostname, port, tls=parts.scheme == "mqtts")


def status_topic(table: str) -> str:
    return f"{ROOT}/{table}/status"


def live_topic(table: str) -> str:
    return f"{ROOT}/{table}/live"


def game_topic(table: str, game_id: int) -> str:
    return f"{ROOT}/{table}/game/{game_id}"


SUBSCRIPTION = f"{ROOT}/#"


@dataclass(frozen=True)
class Status:
    table: str
    online: bool


@dataclass(frozen=True)
class Live:
    """The game at a table now; ``game`` is '' when none is being played."""

    table: str
    name: str  # the table's own name, "Table 2"
    game: str
    players: tuple[str, ...]
    turn: str  # whose turn, '' when over or idle
    phase: str
    dice: tuple[int, ...]
    scores: tuple[int, ...]
    last: str  # the last action in the game's notation
    moves: int
    finished: tuple[int, ...]  # every game id this table has published as finished
    at: str  # when the table committed the state (ISO 8601 with offset)


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    score: int
    place: int


@dataclass(frozen=True)
class Game:
    """A finished game; ``table`` + ``id`` identify it across the night."""

    table: str
    name: str
    id: int
    game: str
    started: str
    ended: str
    night: str
    players: tuple[Player, ...]


@dataclass(frozen=True)
class Cleared:
    """An empty retained game message: the table took that game back."""

    table: str
    id: int


Message = Status | Live | Game | Cleared


def encode(value: dict[str, Any]) -> bytes:
    return json.dumps({"v": VERSION, **value}, separators=(",", ":"),
                      ensure_ascii=False).encode()


def live_payload(live: Live) -> bytes:
    return encode({
        "name": live.name, "game": live.game, "players": list(live.players),
        "turn": live.turn, "phase": live.phase, "dice": list(live.dice),
        "scores": list(live.scores), "last": live.last, "moves": live.moves,
        "finished": list(live.finished), "at": live.at,
    })


def game_payload(game: Game) -> bytes:
    return encode({
        "name": game.name, "id": game.id, "game": game.game, "started": game.started,
        "ended": game.ended, "night": game.night,
        "players": [{"seat": p.seat, "name": p.name, "score": p.score, "place": p.place}
                    for p in game.players],
    })


def parse(topic: str, payload: bytes) -> Message:
    """The checked message on ``topic``; BadMessage names what breaks the contract."""
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(f"{len(payload)} bytes, more than {MAX_PAYLOAD}")
    parts = topic.split("/")
    if len(parts) < 3 or parts[0] != ROOT or not _ID.fullmatch(parts[1]):
        raise BadMessage("not a table's topic")
    table, kind = parts[1], parts[2:]
    if kind == ["status"]:
        text = payload.decode("utf-8", "replace")
        if text not in (ONLINE, OFFLINE):
            raise BadMessage(f"status must be {ONLINE} or {OFFLINE}")
        return Status(table, text == ONLINE)
    if len(kind) == 2 and kind[0] == "game" and re.fullmatch(r"[1-9]\d{0,8}", kind[1]):
        if not payload:
            return Cleared(table, int(kind[1]))
        game = _game(table, _object(payload))
        if game.id != int(kind[1]):
            raise BadMessage("the game's id differs from its topic's")
        return game
    if kind == ["live"]:
        return _live(table, _object(payload))
    raise BadMessage("unknown topic")


def _object(payload: bytes) -> dict[str, Any]:
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise BadMessage("not UTF-8 JSON") from None
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise BadMessage(f"not a version {VERSION} object")
    return data


def _get(data: dict[str, Any], key: str, kind: type, most: int = MAX_ITEMS) -> Any:
    value = data.get(key)
    if type(value) is not kind:
        raise BadMessage(f"{key} must be a {kind.__name__}")
    if isinstance(value, str) and len(value) > MAX_NAME * 4:
        raise BadMessage(f"{key} is too long")
    if isinstance(value, list) and len(value) > most:
        raise BadMessage(f"{key} has too many items")
    return value


def _name(data: dict[str, Any], key: str) -> str:
    value: str = _get(data, key, str)
    if len(value) > MAX_NAME or any(ord(c) < 32 for c in value):
        raise BadMessage(f"{key} must be a name of at most {MAX_NAME} printable characters")
    return value


def _ints(data: dict[str, Any], key: str, low: int, high: int,
          most: int = MAX_ITEMS) -> tuple[int, ...]:
    values = _get(data, key, list, most)
    if not all(type(v) is int and low <= v <= high for v in values):
        raise BadMessage(f"{key} must be numbers from {low} to {high}")
    return tuple(values)


def _live(table: str, data: dict[str, Any]) -> Live:
    players = _get(data, "players", list)
    if not all(isinstance(p, str) and 0 < len(p) <= MAX_NAME for p in players):
        raise BadMessage("players must be names")
    return Live(table, _name(data, "name"), _name(data, "game"), tuple(players),
                _name(data, "turn"), _name(data, "phase"), _ints(data, "dice", 1, 6),
                _ints(data, "scores", -10**6, 10**6), _get(data, "last", str),
                _count(data, "moves"), _ints(data, "finished", 1, 10**9, MAX_GAMES),
                _time(data, "at"))


def _count(data: dict[str, Any], key: str) -> int:
    value = _get(data, key, int)
    if not 0 <= value <= 10**6:
        raise BadMessage(f"{key} must be a count")
    return int(value)


def _game(table: str, data: dict[str, Any]) -> Game:
    players = []
    for item in _get(data, "players", list):
        if not isinstance(item, dict):
            raise BadMessage("players must be objects")
        seat, score, place = (_count(item, "seat"), _get(item, "score", int),
                              _count(item, "place"))
        players.append(Player(seat, _name(item, "name"), score, place))
    if not players:
        raise BadMessage("a finished game has players")
    night = _name(data, "night")
    try:
        date.fromisoformat(night)
    except ValueError:
        raise BadMessage("night must be a date") from None
    return Game(table, _name(data, "name"), _get(data, "id", int), _name(data, "game"),
                _time(data, "started"), _time(data, "ended"), night, tuple(players))


def _time(data: dict[str, Any], key: str) -> str:
    """An ISO 8601 time with its UTC offset, kept as text (the hub compares them)."""
    text = _name(data, key)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise BadMessage(f"{key} must be a time with its UTC offset")
    return text


def moment(text: str) -> datetime:
    """A time :func:`parse` has checked, for comparing."""
    return datetime.fromisoformat(text)
