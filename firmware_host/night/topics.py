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

Payloads are small JSON objects with a version number. Each record is declared once, as a
dataclass whose fields carry their limits (:mod:`firmware_host.records`); its encoder, its
check and its JSON Schema (``docs/schema/``, made by :mod:`firmware_host.night.schema`) all
come from that declaration. :func:`parse` checks a message from the wire and returns a typed value
or raises :class:`BadMessage`, so the hub never trusts a field it has not checked.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime
from hashlib import blake2b
from typing import Any, ClassVar
from urllib.parse import urlsplit

from firmware_host import records
from firmware_host.players import HIDDEN, HIDING, MAX_NAME
from firmware_host.players import ID as PLAYER_ID
from firmware_host.records import Int, Items, Pattern, R, Refused, Rule, Text, rule
from firmware_host.seating import table_label
from games.dalmatian_luck import line

ROOT = "tc"
VERSION = 1
MAX_PAYLOAD = 16_384  # a 4-player game's result is under 1 kB; anything near this is wrong
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


PRINTABLE = f"^[^{HIDDEN}]*$"  # the schema's pattern of a text none of players.HIDDEN hides


def _is_time(text: str) -> bool:
    """Whether ``text`` is an ISO 8601 time with its UTC offset."""
    try:
        return datetime.fromisoformat(text).tzinfo is not None
    except ValueError:
        return False


def _is_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


TEXT = Text(HIDING, MAX_NAME, ref="text")
NAME = Text(HIDING, MAX_NAME, empty=False, ref="name")
TIME = Text(HIDING, 40, then=(_is_time, "{key} must be a time with its UTC offset"),
            ref="time")
DATE = Text(HIDING, MAX_NAME, then=(_is_date, "{key} must be a date"), ref="date")
TABLE_ID = Pattern(_ID, "{key} must be a table's id", ref="tableId")
ROSTER_ID = Pattern(PLAYER_ID, "a player's id is 1 to 40 lower-case letters, digits and '-' "
                    "inside", ref="playerId")
GAME_ID = Int(1, MAX_GAME_ID, ref="gameId")
SCORE = Int(-SCORE_LIMIT, SCORE_LIMIT, ref="score")
SEAT = Int(0, MAX_ITEMS)
PLACE = Int(1, MAX_ITEMS)


@dataclass(frozen=True)
class Live:
    """The game at a table now; ``game`` is '' when none is being played."""

    SCHEMA: ClassVar[str] = "liveState"
    ABOUT: ClassVar[str] = (
        "The fields of a table's live state. phase: idle (no game), roll (dice are due), "
        "move, over (between games the card shows how the last one ended). dice: the throw "
        "of the player whose turn it is, while it is still theirs to play. last: the last "
        "action in the game's notation. detail (optional, from version 1 publishers that send "
        "it): where the game stands beyond whose turn, e.g. Dalmatian's round and starting "
        "total.")

    CHECK_FIRST: ClassVar[tuple[str, ...]] = ("players", "turn", "phase")

    table: str = rule(TABLE_ID, wire=False)
    name: str = rule(NAME)  # the table's own name, "Table 2"
    game: str = rule(TEXT)
    players: tuple[str, ...] = rule(Items(NAME, MAX_ITEMS))
    turn: str = rule(TEXT)  # whose turn, '' when over or idle
    phase: str = rule(Text(HIDING, MAX_NAME, choices=PHASES))
    dice: tuple[int, ...] = rule(Items(Int(1, 6), MAX_ITEMS))
    scores: tuple[int, ...] = rule(Items(SCORE, MAX_ITEMS))
    last: str = rule(Text(HIDING, MAX_LAST, extra={"pattern": PRINTABLE}))
    moves: int = rule(Int(0, 10**6))
    finished: tuple[int, ...] = rule(Items(GAME_ID, MAX_GAMES))  # every game id published
    at: str = rule(TIME)  # when the table committed the state (ISO 8601 with offset)
    # where the game stands beyond whose turn: Dalmatian's "round 3 of 12 · target 7"
    detail: str = rule(TEXT, "", optional=True)

    @staticmethod
    def checked(values: dict[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
        if values["turn"] and values["turn"] not in values["players"]:
            raise Refused("turn must be one of the players, or empty")
        return values


@dataclass(frozen=True)
class Player:
    """A player of a finished game; ``id`` is the roster's id when the table chose the
    name from the night's roster ('' otherwise: the hub matches the name)."""

    seat: int = rule(SEAT)
    name: str = rule(NAME)
    score: int = rule(SCORE)
    place: int = rule(PLACE)
    id: str = rule(replace(ROSTER_ID, empty=True), "", optional=True)


@dataclass(frozen=True)
class Luck:
    """A player's luck and decisions in a finished game of Dalmatian, in hundredths of a
    point (the wire carries whole numbers): ``luck`` is the score less what the player's
    choices were worth on average, ``decisions`` the expected points those choices gave away
    against the best ones (:mod:`games.dalmatian_luck`)."""

    SCHEMA: ClassVar[str] = "luck"
    ABOUT: ClassVar[str] = (
        "A player's luck and decisions in a finished game of Dalmatian (one per player; "
        "absent from an MQTT message, empty at the hub, for other games), in hundredths of a "
        "point: luck is the score less what the player's choices were worth on average, "
        "decisions the expected points those choices gave away against the best ones.")

    seat: int = rule(SEAT)
    luck: int = rule(Int(-SCORE_LIMIT, SCORE_LIMIT))
    decisions: int = rule(Int(0, SCORE_LIMIT))

    def line(self, name: str) -> str:
        """``Ann: +3.10 luck, -0.40 decisions``, as ``table-companion luck`` says it."""
        return line(name, self.luck / 100, self.decisions / 100)


THROW_SOURCES = ("button", "manual", "serial", "pixels", "unknown")  # the journal's, and unknown


@dataclass(frozen=True)
class Thrown:
    """One throw in a finished game: the seat that threw, where the dice came from (the
    journal's source: button, manual, serial, pixels or unknown) and the dice. On the wire a text,
    ``0:button:1-2-3-4-5`` (:class:`ThrowText`), so a game of hundreds of throws is one
    list; the hub serves it as an object of these fields."""

    SCHEMA: ClassVar[str] = "throw"
    ABOUT: ClassVar[str] = (
        "One throw of a finished game, in order: the seat that threw (0 is P1), where the dice "
        "came from (the button roller, dice typed in with the controls, a serial roller, Pixels "
        "dice read over Bluetooth, or unknown for a throw journaled before sources were) and "
        "the dice.")

    seat: int = rule(SEAT)
    source: str = rule(Text(HIDING, MAX_NAME, choices=THROW_SOURCES))
    dice: tuple[int, ...] = rule(Items(Int(1, 6), MAX_ITEMS, least=1))

    def __str__(self) -> str:
        return f"{self.seat}:{self.source}:{'-'.join(map(str, self.dice))}"

_THROW = re.compile(rf"([0-9]{{1,2}}):({'|'.join(THROW_SOURCES)}):([1-6](?:-[1-6]){{0,15}})")
THROWS_WHY = ("throws must be texts 'seat:source:dice' of the game's seats, sources "
              f"{', '.join(THROW_SOURCES)} and dice 1 to 6")


@dataclass(frozen=True)
class ThrowText(Rule):
    """A :class:`Thrown` as its text on the wire."""

    ref: str = "throwText"

    def check(self, value: Any, key: str) -> Thrown:
        match = _THROW.fullmatch(value) if type(value) is str else None
        if match is None:
            raise Refused(THROWS_WHY)
        return Thrown(int(match[1]), match[2], tuple(map(int, match[3].split("-"))))

    def encode(self, value: Any) -> str:
        return str(value)

    def definition(self) -> dict[str, Any]:
        return {"type": "string", "pattern": f"^{_THROW.pattern}$"}


@dataclass(frozen=True)
class Game:
    """A finished game; ``table`` + ``id`` identify it across the night. ``luck`` is one
    per player for a game of Dalmatian (the table works it out from the game's actions,
    which the hub does not get), none otherwise; ``throws`` are every throw of the game in
    order (none from a table that sends none, or when they would not fit a message)."""

    SCHEMA: ClassVar[str] = "gameResult"
    ABOUT: ClassVar[str] = (
        "The fields of a finished game; the table's id and the game's id identify it. night: "
        "the evening the game belongs to (it turns at 06:00). starter: the seat that started "
        "the game (won its opening), absent when the table could not tell.")

    CHECK_FIRST: ClassVar[tuple[str, ...]] = ("players", "night", "started", "ended")

    table: str = rule(TABLE_ID, wire=False)
    name: str = rule(NAME)
    id: int = rule(GAME_ID)
    game: str = rule(NAME)
    started: str = rule(TIME)
    ended: str = rule(TIME)
    night: str = rule(DATE)
    players: tuple[Player, ...] = rule(Items(Player, MAX_ITEMS, least=1,
                                             few="a finished game has players"))
    luck: tuple[Luck, ...] = rule(Items(Luck, MAX_ITEMS), (), optional=True)
    throws: tuple[Thrown, ...] = rule(Items(ThrowText(), MAX_THROWS), (), optional=True)
    # the seat that started (won the opening), when known
    starter: int | None = rule(SEAT, None, optional=True)

    @staticmethod
    def checked(values: dict[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
        if moment(values["ended"]) < moment(values["started"]):
            raise Refused("a game ends after it starts")
        seats = sorted(player.seat for player in values["players"])
        if "luck" in data and sorted(x.seat for x in values["luck"]) != seats:
            raise Refused("luck must have one entry for each player's seat")
        if any(throw.seat not in seats for throw in values["throws"]):
            raise Refused(THROWS_WHY)
        if values["starter"] is not None and values["starter"] not in seats:
            raise Refused("starter must be one of the game's seats")
        return values


@dataclass(frozen=True)
class Cleared:
    """An empty retained game message: the table took that game back."""

    table: str
    id: int


@dataclass(frozen=True)
class SeatedTable:
    """One table of the next round: its name as the host wrote it ("3"), its game's title,
    the players in seat order and, in a team game, the teams (on the wire each seat's team
    number, [] for no teams)."""

    CHECK_FIRST: ClassVar[tuple[str, ...]] = ("name", "players", "teams")

    name: str = rule(NAME)
    game: str = rule(NAME)
    players: tuple[str, ...] = rule(Items(NAME, MAX_ITEMS))
    teams: tuple[tuple[str, ...], ...] = rule(Items(Int(0, MAX_ITEMS), MAX_ITEMS), ())

    @staticmethod
    def checked(values: dict[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
        players, sides = values["players"], values["teams"]
        twice = next((p for i, p in enumerate(players) if p in players[:i]), None)
        if twice is not None:
            raise Refused(f"the seating names {twice} twice at table {values['name']}")
        if sides and len(sides) != len(players):
            raise Refused("teams must give each player's team, or be empty")
        teams = tuple(tuple(p for p, s in zip(players, sides, strict=True) if s == side)
                      for side in sorted(set(sides)))
        return {**values, "teams": teams}

    def wired(self, data: dict[str, Any]) -> dict[str, Any]:
        """The message's teams: each seat's team number."""
        sides = [next(n for n, team in enumerate(self.teams) if p in team)
                 for p in self.players] if self.teams else []
        return {**data, "teams": sides}

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

    tables: tuple[SeatedTable, ...] = rule(Items(SeatedTable, MAX_TABLES))
    at: str = rule(TIME, "")  # when the host proposed it

    @staticmethod
    def checked(values: dict[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
        seated = [p for t in values["tables"] for p in t.players]
        if len(set(seated)) != len(seated):
            raise Refused("a player sits at two tables")
        return values

    def at_table(self, wanted: str) -> SeatedTable | None:
        """The table whose id is ``wanted``, if anyone sits there next round."""
        return next((t for t in self.tables if t.players and t.is_table(wanted)), None)


NO_SEATING = Seating(())


@dataclass(frozen=True)
class Listed:
    """A player of the night's roster: the id the hub knows them by, the name it shows."""

    id: str = rule(ROSTER_ID)
    name: str = rule(NAME)


@dataclass(frozen=True)
class NightRoster:
    """The night's roster as the hub publishes it (no players: it has none)."""

    players: tuple[Listed, ...] = rule(Items(Listed, MAX_ROSTER))

    @staticmethod
    def checked(values: dict[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
        ids: set[str] = set()
        names: set[str] = set()
        for player in values["players"]:
            if player.id in ids or player.name.casefold() in names:
                raise Refused(f"the roster names {player.name} ({player.id}) twice")
            ids.add(player.id)
            names.add(player.name.casefold())
        return values


Message = Status | Live | Game | Cleared | Seating | NightRoster


def encode(value: dict[str, Any]) -> bytes:
    return json.dumps({"v": VERSION, **value}, separators=(",", ":"),
                      ensure_ascii=False).encode()


def live_payload(live: Live) -> bytes:
    return encode(records.encode(live))


def seating_payload(seating: Seating) -> bytes:
    """The seating as JSON; a team game's teams as each seat's team number."""
    return encode(records.encode(seating))


def roster_payload(roster: NightRoster) -> bytes:
    return encode(records.encode(roster))


def fit_roster(roster: NightRoster) -> NightRoster:
    """``roster`` cut to the players that fit a message, in its order."""
    players = roster.players[:MAX_ROSTER]
    while len(roster_payload(NightRoster(players))) > MAX_PAYLOAD:
        players = players[:len(players) * 9 // 10]
    return NightRoster(players)


def game_payload(game: Game) -> bytes:
    return encode(records.encode(game))


def parse(topic: str, payload: bytes) -> Message:
    """The checked message on ``topic``; BadMessage names what breaks the contract.

    Nothing else is raised, whatever ``payload`` holds: its size, nesting and numbers are
    bounded before the JSON parser sees it, and every field is checked by its record's rules
    (:mod:`firmware_host.records`) for its type, length, characters and range before it
    reaches a typed message.
    """
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(f"{len(payload)} bytes, more than {MAX_PAYLOAD}")
    if topic == ROSTER:
        return _decode(NightRoster, _object(payload, 3, 2 + MAX_ROSTER)) if payload \
            else NightRoster(())
    if topic == SEATING:
        return _decode(Seating, _object(payload, 4, 2 + 3 * MAX_TABLES)) if payload \
            else NO_SEATING
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
        return _game(table, int(kind[1]), _object(payload))
    if kind == ["live"]:
        return _decode(Live, _object(payload), table=table)
    raise BadMessage("unknown topic")


def parse_counted(topic: str, payload: bytes) -> tuple[Message, list[str]]:
    """:func:`parse`, but a game's throws are given back as their texts (``0:button:1-2-3``)
    beside a game without them: checked as a whole list by one pattern of the game's own
    seats rather than read into a record each, for a reader that only counts them (a
    league's first page reads hundreds of thousands). The same payloads pass and fail."""
    match = _GAME_TOPIC.fullmatch(topic)
    if match is None or not payload or len(payload) > MAX_PAYLOAD:
        return parse(topic, payload), []
    data = _object(payload)
    throws = data.pop("throws", [])
    game = _game(match[1], int(match[2]), data)
    if type(throws) is not list or len(throws) > MAX_THROWS:
        raise BadMessage(f"throws must be a list of at most {MAX_THROWS} items")
    seats = "|".join(f"0?{p.seat}" if p.seat < 10 else str(p.seat) for p in game.players)
    thrown = re.compile(_THROW.pattern.replace("[0-9]{1,2}", seats, 1))
    try:
        if all(map(thrown.fullmatch, throws)):
            return game, throws
    except TypeError:  # not a text
        pass
    raise BadMessage(THROWS_WHY)


_GAME_TOPIC = re.compile(rf"{ROOT}/({_ID.pattern})/game/([1-9]\d{{0,8}})")


def _game(table: str, game_id: int, data: dict[str, Any]) -> Game:
    game = _decode(Game, data, table=table)
    if game.id != game_id:
        raise BadMessage("the game's id differs from its topic's")
    return game


def _decode(cls: type[R], data: dict[str, Any], **given: Any) -> R:
    try:
        return records.decode(cls, data, **given)
    except Refused as err:
        raise BadMessage(str(err)) from None


_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


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
    if not isinstance(data, dict) or type(data.get("v")) is not int or data["v"] != VERSION:
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


def moment(text: str) -> datetime:
    """A time :func:`parse` has checked, for comparing."""
    return datetime.fromisoformat(text)
