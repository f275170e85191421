"""The night's MQTT topics and payloads: the one contract between publishers and the hub.

Every topic sits under ``tc/<table id>/``, and a table logs in to the broker with its table
id as user name, so ACL patterns (``pattern readwrite tc/%u/live``, ...) let a table write
only these three topics of its own. All three are retained and sent with QoS 1:

- ``tc/<id>/status``: ``online`` (sent again every half keep-alive, so the hub hears from an
  idle table too), or the broker's last will ``offline``;
- ``tc/<id>/live``: the game at the table now (JSON, :func:`live_payload`), and the ids of the
  finished games the table has published, so the hub can drop one a table took back;
- ``tc/<id>/game/<game id>``: one finished game and its result (JSON, :func:`game_payload`);
  an empty retained message clears it.

And two topics no table may write (``_`` is in no table id): :data:`SEATING`, the next
round's seating (JSON, :func:`seating_payload`), sent by the host's ``table-companion seat
--publish`` as ``night_host``, read by the hub and by every table's publisher, empty when
the host clears it; and :data:`ROSTER`, the night's players with their ids (JSON,
:func:`roster_payload`), sent by the hub as ``night_hub`` whenever its roster file changes,
read by every table's publisher, so a table offers the night's names and a name picked
there carries its id back in the game's message.

Payloads are small JSON objects with a version number. :func:`parse` checks a message from
the wire and returns a typed value or raises :class:`BadMessage`, so the hub never trusts a
field it has not checked.
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass
from datetime import date, datetime
from hashlib import blake2b
from typing import Any
from urllib.parse import urlsplit

from firmware_host.players import ID as PLAYER_ID
from firmware_host.seating import table_label
from games.dalmatian_luck import line

ROOT = "tc"
VERSION = 1
MAX_PAYLOAD = 16_384  # a 4-player game's result is under 1 kB; anything near this is wrong
MAX_NAME = 64
MAX_ITEMS = 16  # players, dice or scores in a message
MAX_GAMES = 1000  # finished game ids a table lists in one night
MAX_THROWS = 1000  # a 6-player Dalmatian of 24 rounds throws at most about 450 times
MAX_GAME_ID = 10**9 - 1
MAX_LAST = 128  # the last action in a game's notation
SCORE_LIMIT = 10**6
MAX_DEPTH = 3  # a game: its object, the list of players, a player
MAX_CONTAINERS = 4 * MAX_ITEMS  # a game has 2 and one a player; a live state 5
MAX_DIGITS = 10  # the largest number in a message is a game id below 10**9
PHASES = ("idle", "roll", "move", "over")  # no game, or a game's Phase
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
SEATING = f"{ROOT}/_night/seating"
HOST_USER = "night_host"  # the only login the ACL lets write :data:`SEATING`
ROSTER = f"{ROOT}/_night/roster"
HUB_USER = "night_hub"  # the only login the ACL lets write :data:`ROSTER`
MAX_ROSTER = 400  # players in the roster message: its names cut to what fits MAX_PAYLOAD
# (about 300 players of typical names), as the broker takes no packet much larger
MAX_TABLES = 64  # tables in a seating
SHORT = "/g/"  # where a finished game's short address starts on the hub


def short_path(table: str, game_id: int) -> str:
    """A finished game's short address on the hub (``/g/`` and 8 letters or digits from a
    hash of its table id and game id), which the table shows as a QR code at the game's end:
    the same length whatever the table's name, so the code stays readable on 128x64. The
    hub finds the game by working out the same path for the games it holds."""
    digest = blake2b(f"{table}/{game_id}".encode(), digest_size=5).digest()
    return SHORT + base64.b32encode(digest).decode().lower()


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
    # where the game stands beyond whose turn: Dalmatian's "round 3 of 12 · target 7"
    detail: str = ""


@dataclass(frozen=True)
class Player:
    """A player of a finished game; ``id`` is the roster's id when the table chose the
    name from the night's roster ('' otherwise: the hub matches the name)."""

    seat: int
    name: str
    score: int
    place: int
    id: str = ""


@dataclass(frozen=True)
class Luck:
    """A player's luck and decisions in a finished game of Dalmatian, in hundredths of a
    point (the wire carries whole numbers): ``luck`` is the score less what the player's
    choices were worth on average, ``decisions`` the expected points those choices gave away
    against the best ones (:mod:`games.dalmatian_luck`)."""

    seat: int
    luck: int
    decisions: int

    def line(self, name: str) -> str:
        """``Ann: +3.10 luck, -0.40 decisions``, as ``table-companion luck`` says it."""
        return line(name, self.luck / 100, self.decisions / 100)


@dataclass(frozen=True)
class Thrown:
    """One throw in a finished game: the seat that threw, where the dice came from (the
    journal's source: button, manual, serial or unknown) and the dice. On the wire a text,
    ``0:button:1-2-3-4-5``, so a game of hundreds of throws is one list."""

    seat: int
    source: str
    dice: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.seat}:{self.source}:{'-'.join(map(str, self.dice))}"


@dataclass(frozen=True)
class Game:
    """A finished game; ``table`` + ``id`` identify it across the night. ``luck`` is one
    per player for a game of Dalmatian (the table works it out from the game's actions,
    which the hub does not get), none otherwise; ``throws`` are every throw of the game in
    order (none from a table that sends none, or when they would not fit a message)."""

    table: str
    name: str
    id: int
    game: str
    started: str
    ended: str
    night: str
    players: tuple[Player, ...]
    luck: tuple[Luck, ...] = ()
    throws: tuple[Thrown, ...] = ()
    starter: int | None = None  # the seat that started (won the opening), when known


@dataclass(frozen=True)
class Cleared:
    """An empty retained game message: the table took that game back."""

    table: str
    id: int


@dataclass(frozen=True)
class SeatedTable:
    """One table of the next round: its name as the host wrote it ("3"), its game's title,
    the players in seat order and, in a team game, the teams."""

    name: str
    game: str
    players: tuple[str, ...]
    teams: tuple[tuple[str, ...], ...] = ()

    def is_table(self, wanted: str) -> bool:
        """Whether this is the table whose id is ``wanted``: by its name ("Table 3") or its
        number ("3" for ``table-3``)."""
        return wanted in (table_id(self.name), table_id(f"Table {self.name}"))

    @property
    def label(self) -> str:
        """``Table 3`` (for a table named "3" or "Table 3")."""
        return table_label(self.name)

    def line(self) -> str:
        """``Next round: table 3 with Ann, Bob, Cy``, for the table's own screen."""
        where = self.label[0].lower() + self.label[1:]
        return f"Next round: {where} with {', '.join(self.players)}"


@dataclass(frozen=True)
class Seating:
    """The next round's seating (no tables: the host cleared it)."""

    tables: tuple[SeatedTable, ...]
    at: str = ""  # when the host proposed it

    def at_table(self, wanted: str) -> SeatedTable | None:
        """The table whose id is ``wanted``, if anyone sits there next round."""
        return next((t for t in self.tables if t.players and t.is_table(wanted)), None)


NO_SEATING = Seating(())


@dataclass(frozen=True)
class Listed:
    """A player of the night's roster: the id the hub knows them by, the name it shows."""

    id: str
    name: str


@dataclass(frozen=True)
class NightRoster:
    """The night's roster as the hub publishes it (no players: it has none)."""

    players: tuple[Listed, ...]


Message = Status | Live | Game | Cleared | Seating | NightRoster


def encode(value: dict[str, Any]) -> bytes:
    return json.dumps({"v": VERSION, **value}, separators=(",", ":"),
                      ensure_ascii=False).encode()


def live_payload(live: Live) -> bytes:
    return encode({
        "name": live.name, "game": live.game, "players": list(live.players),
        "turn": live.turn, "phase": live.phase, "dice": list(live.dice),
        "scores": list(live.scores), "last": live.last, "moves": live.moves,
        "finished": list(live.finished), "at": live.at,
        **({"detail": live.detail} if live.detail else {}),
    })


def seating_payload(seating: Seating) -> bytes:
    """The seating as JSON; a team game's teams as each seat's team number."""
    return encode({"at": seating.at, "tables": [
        {"name": t.name, "game": t.game, "players": list(t.players),
         "teams": [next(n for n, team in enumerate(t.teams) if p in team) for p in t.players]
         if t.teams else []}
        for t in seating.tables]})


def roster_payload(roster: NightRoster) -> bytes:
    return encode({"players": [{"id": p.id, "name": p.name} for p in roster.players]})


def fit_roster(roster: NightRoster) -> NightRoster:
    """``roster`` cut to the players that fit a message, in its order."""
    players = roster.players[:MAX_ROSTER]
    while len(roster_payload(NightRoster(players))) > MAX_PAYLOAD:
        players = players[:len(players) * 9 // 10]
    return NightRoster(players)


def game_payload(game: Game) -> bytes:
    return encode({
        "name": game.name, "id": game.id, "game": game.game, "started": game.started,
        "ended": game.ended, "night": game.night,
        "players": [{"seat": p.seat, "name": p.name, "score": p.score, "place": p.place,
                     **({"id": p.id} if p.id else {})}
                    for p in game.players],
        **({"luck": [{"seat": x.seat, "luck": x.luck, "decisions": x.decisions}
                     for x in game.luck]} if game.luck else {}),
        **({"throws": [str(throw) for throw in game.throws]} if game.throws else {}),
        **({"starter": game.starter} if game.starter is not None else {}),
    })


def parse(topic: str, payload: bytes) -> Message:
    """The checked message on ``topic``; BadMessage names what breaks the contract.

    Nothing else is raised, whatever ``payload`` holds: its size, nesting and numbers are
    bounded before the JSON parser sees it, and every field is checked for its type, length,
    characters and range before it reaches a typed message.
    """
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(f"{len(payload)} bytes, more than {MAX_PAYLOAD}")
    if topic == ROSTER:
        return _roster(_object(payload, 3, 2 + MAX_ROSTER)) if payload else NightRoster(())
    if topic == SEATING:
        return _seating(_object(payload, 4, 2 + 3 * MAX_TABLES)) if payload else NO_SEATING
    parts = topic.split("/")
    if len(parts) < 3 or parts[0] != ROOT or not _ID.fullmatch(parts[1]):
        raise BadMessage("not a table's topic")
    table, kind = parts[1], parts[2:]
    if kind == ["status"]:
        if payload not in (ONLINE.encode(), OFFLINE.encode()):
            raise BadMessage(f"status must be {ONLINE} or {OFFLINE}")
        return Status(table, payload == ONLINE.encode())
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


_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")
# Characters no name needs that can hide or disguise text: controls, lone surrogates (they
# cannot be written back as UTF-8), line breaks of Unicode, and the bidirectional embeddings,
# overrides and isolates that turn the text after them around
_HIDING = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e"
                     "\u2066-\u2069]")


def _object(payload: bytes, depth: int = MAX_DEPTH,
            containers: int = MAX_CONTAINERS) -> dict[str, Any]:
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError:
        raise BadMessage("not UTF-8 JSON") from None
    bare = _STRINGS.sub('""', text)  # what the parser makes of it, outside strings
    if bare.count("[") + bare.count("{") > containers:
        raise BadMessage(f"more than {containers} lists and objects")
    if _depth(bare) > depth:
        raise BadMessage(f"nested more than {depth} deep")
    if _LONG_NUMBER.search(bare):  # int() of thousands of digits is slow; past 4,300 raises
        raise BadMessage(f"a number of more than {MAX_DIGITS} digits")
    try:
        data = json.loads(text, parse_float=_no_fraction, parse_constant=_no_fraction)
    except json.JSONDecodeError:
        raise BadMessage("not UTF-8 JSON") from None
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise BadMessage(f"not a version {VERSION} object")
    return data


def _depth(bare: str) -> int:
    """How deep the brackets of ``bare`` (JSON without its strings) nest: the standard
    library's parser recurses once a level and fails past about a thousand."""
    depth = deepest = 0
    for bracket in _NOT_BRACKETS.sub("", bare):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _no_fraction(text: str) -> Any:
    raise BadMessage(f"numbers must be whole, not {text[:20]}")


def _get(data: dict[str, Any], key: str, kind: type, most: int = MAX_ITEMS) -> Any:
    value = data.get(key)
    if type(value) is not kind:
        raise BadMessage(f"{key} must be a {kind.__name__}")
    if isinstance(value, list) and len(value) > most:
        raise BadMessage(f"{key} has more than {most} items")
    return value


def _text(value: Any, key: str, most: int = MAX_NAME, empty: bool = True) -> str:
    """``value`` if it is a text a person could have typed, of at most ``most`` characters."""
    if type(value) is not str:
        raise BadMessage(f"{key} must be a str")
    if len(value) > most or (not empty and not value) or _HIDING.search(value):
        raise BadMessage(f"{key} must be a name of {'' if empty else '1 to '}{most} "
                         "printable characters at most")
    return value


def _name(data: dict[str, Any], key: str, most: int = MAX_NAME) -> str:
    return _text(data.get(key), key, most)


def _ints(data: dict[str, Any], key: str, low: int, high: int,
          most: int = MAX_ITEMS) -> tuple[int, ...]:
    values = _get(data, key, list, most)
    if not all(type(v) is int and low <= v <= high for v in values):
        raise BadMessage(f"{key} must be numbers from {low} to {high}")
    return tuple(values)


def _int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if type(value) is not int or not low <= value <= high:
        raise BadMessage(f"{key} must be a number from {low} to {high}")
    return value


def _live(table: str, data: dict[str, Any]) -> Live:
    players = tuple(_text(p, "players", empty=False) for p in _get(data, "players", list))
    turn = _name(data, "turn")
    if turn and turn not in players:
        raise BadMessage("turn must be one of the players, or empty")
    phase = _name(data, "phase")
    if phase not in PHASES:
        raise BadMessage(f"phase must be one of {', '.join(PHASES)}")
    return Live(table, _text(data.get("name"), "name", empty=False), _name(data, "game"),
                players, turn, phase, _ints(data, "dice", 1, 6),
                _ints(data, "scores", -SCORE_LIMIT, SCORE_LIMIT), _name(data, "last", MAX_LAST),
                _int(data, "moves", 0, 10**6), _ints(data, "finished", 1, MAX_GAME_ID, MAX_GAMES),
                _time(data, "at"), _name(data, "detail") if "detail" in data else "")


def _game(table: str, data: dict[str, Any]) -> Game:
    players = []
    for item in _get(data, "players", list):
        if not isinstance(item, dict):
            raise BadMessage("players must be objects")
        players.append(Player(_int(item, "seat", 0, MAX_ITEMS),
                              _text(item.get("name"), "name", empty=False),
                              _int(item, "score", -SCORE_LIMIT, SCORE_LIMIT),
                              _int(item, "place", 1, MAX_ITEMS),
                              _player_id(item.get("id", ""), empty=True)))
    if not players:
        raise BadMessage("a finished game has players")
    night = _name(data, "night")
    try:
        date.fromisoformat(night)
    except ValueError:
        raise BadMessage("night must be a date") from None
    started, ended = _time(data, "started"), _time(data, "ended")
    if moment(ended) < moment(started):
        raise BadMessage("a game ends after it starts")
    return Game(table, _text(data.get("name"), "name", empty=False),
                _int(data, "id", 1, MAX_GAME_ID), _text(data.get("game"), "game", empty=False),
                started, ended, night, tuple(players), _luck(data, players),
                _throws(data, players), _starter(data, players))


def _starter(data: dict[str, Any], players: list[Player]) -> int | None:
    """The optional ``starter``: the seat of the player who started, one of the game's."""
    if "starter" not in data:
        return None
    seat = _int(data, "starter", 0, MAX_ITEMS)
    if seat not in {player.seat for player in players}:
        raise BadMessage("starter must be one of the game's seats")
    return seat


THROW_SOURCES = ("button", "manual", "serial", "unknown")  # the journal's, and unknown
_THROW = re.compile(rf"(\d{{1,2}}):({'|'.join(THROW_SOURCES)}):([1-6](?:-[1-6]){{0,15}})")


def _throws(data: dict[str, Any], players: list[Player]) -> tuple[Thrown, ...]:
    """The optional ``throws`` list: ``seat:source:dice`` texts, each seat one of the
    game's."""
    if "throws" not in data:
        return ()
    seats = {player.seat for player in players}
    found = []
    for text in _get(data, "throws", list, MAX_THROWS):
        match = _THROW.fullmatch(text) if type(text) is str else None
        if match is None or int(match[1]) not in seats:
            raise BadMessage("throws must be texts 'seat:source:dice' of the game's seats, "
                             f"sources {', '.join(THROW_SOURCES)} and dice 1 to 6")
        found.append(Thrown(int(match[1]), match[2], tuple(map(int, match[3].split("-")))))
    return tuple(found)


def _luck(data: dict[str, Any], players: list[Player]) -> tuple[Luck, ...]:
    """The optional ``luck`` list: one object per player, each seat one of the game's."""
    if "luck" not in data:
        return ()
    found = []
    for item in _get(data, "luck", list):
        if not isinstance(item, dict):
            raise BadMessage("luck must be objects")
        found.append(Luck(_int(item, "seat", 0, MAX_ITEMS),
                          _int(item, "luck", -SCORE_LIMIT, SCORE_LIMIT),
                          _int(item, "decisions", 0, SCORE_LIMIT)))
    if sorted(x.seat for x in found) != sorted(p.seat for p in players):
        raise BadMessage("luck must have one entry for each player's seat")
    return tuple(found)


def _player_id(value: Any, empty: bool = False) -> str:
    """A roster id: 1 to 40 lower-case letters, digits and '-' inside ('' if ``empty``)."""
    if type(value) is not str or not (PLAYER_ID.fullmatch(value) or (empty and not value)):
        raise BadMessage("a player's id is 1 to 40 lower-case letters, digits and '-' inside")
    return value


def _roster(data: dict[str, Any]) -> NightRoster:
    players = []
    for item in _get(data, "players", list, MAX_ROSTER):
        if not isinstance(item, dict):
            raise BadMessage("players must be objects")
        players.append(Listed(_player_id(item.get("id")),
                              _text(item.get("name"), "name", empty=False)))
    ids: set[str] = set()
    names: set[str] = set()
    for player in players:
        if player.id in ids or player.name.casefold() in names:
            raise BadMessage(f"the roster names {player.name} ({player.id}) twice")
        ids.add(player.id)
        names.add(player.name.casefold())
    return NightRoster(tuple(players))


def _seating(data: dict[str, Any]) -> Seating:
    tables = []
    for item in _get(data, "tables", list, MAX_TABLES):
        if not isinstance(item, dict):
            raise BadMessage("tables must be objects")
        name = _text(item.get("name"), "name", empty=False)
        players = tuple(_text(p, "players", empty=False) for p in _get(item, "players", list))
        twice = next((p for i, p in enumerate(players) if p in players[:i]), None)
        if twice is not None:
            raise BadMessage(f"the seating names {twice} twice at table {name}")
        sides = _ints(item, "teams", 0, MAX_ITEMS)
        if sides and len(sides) != len(players):
            raise BadMessage("teams must give each player's team, or be empty")
        teams = tuple(tuple(p for p, s in zip(players, sides, strict=True) if s == side)
                      for side in sorted(set(sides)))
        tables.append(SeatedTable(name, _text(item.get("game"), "game", empty=False), players,
                                  teams))
    seated = [p for t in tables for p in t.players]
    if len(set(seated)) != len(seated):
        raise BadMessage("a player sits at two tables")
    return Seating(tuple(tables), _time(data, "at"))


def _time(data: dict[str, Any], key: str) -> str:
    """An ISO 8601 time with its UTC offset, kept as text (the hub compares them)."""
    text = _name(data, key, 40)
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise BadMessage(f"{key} must be a time with its UTC offset")
    return text


def moment(text: str) -> datetime:
    """A time :func:`parse` has checked, for comparing."""
    return datetime.fromisoformat(text)
