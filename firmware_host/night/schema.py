"""The records' JSON Schema, made from their declarations::

    python -m firmware_host.night.schema > docs/schema/records-1.schema.json

The wire's records (:mod:`firmware_host.night.topics`) give their own definitions, derived
from their fields' rules by :func:`firmware_host.records.schema`, as do the words of the
wire (a name, a time, a game's id). The hub's JSON, its /events data and export's JSON have
no record classes yet: they are declared here, once, as the schema's data. A test checks
that the file is byte for byte what this prints.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Collection
from typing import Any

from firmware_host import records
from firmware_host.journal.played import Standing
from firmware_host.night import topics
from firmware_host.night.topics import (
    GAME_ID,
    PRINTABLE,
    ROSTER_ID,
    SCORE,
    TABLE_ID,
    TIME,
    VERSION,
    Game,
    Live,
    NightRoster,
    Seating,
    ThrowText,
)
from firmware_host.players import MAX_NAME

WIDTH = 100
"""The file's lines: a list or an object stays on one line when it fits."""

ABOUT = (
    "Every record table-companion writes for other programs: the game night's MQTT messages "
    "(a table's publisher to the hub), the hub's JSON (/night.json and the data of its "
    "/events stream) and `table-companion export --format json`. Each kind is one entry of "
    f'$defs; validate a record against "urn:table-companion:records:{VERSION}#/$defs/KIND". '
    f"Version {VERSION} is the `v` field of the MQTT messages. A record never carries a field "
    "its definition does not name.")
TIME_PATTERN = ("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,6})?"
                "([+-][0-9]{2}:[0-9]{2}|Z)$")


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def closed(about: str, properties: dict[str, Any], optional: Collection[str] = ()
           ) -> dict[str, Any]:
    """An object of ``properties`` and no others, all of them there but the ``optional``."""
    return {**({"description": about} if about else {}), "type": "object",
            "properties": properties, "required": [k for k in properties if k not in optional],
            "additionalProperties": False}


def message(cls: type[Any], about: str) -> dict[str, Any]:
    """The JSON Schema of a whole MQTT message of record class ``cls``: its fields and the
    version."""
    whole = records.schema(cls)
    return {"description": about, "type": "object",
            "properties": {"v": {"const": VERSION}, **whole["properties"]},
            "required": ["v", *whole["required"]], "additionalProperties": False}


def carrying(name: str, about: str, extra: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """Definition ``name``'s fields and the ``extra`` ones, and no others."""
    return {"description": about, "$ref": f"#/$defs/{name}", "properties": extra,
            "required": required, "unevaluatedProperties": False}


def wire() -> dict[str, dict[str, Any]]:
    """The wire's records and words, each from its declaration."""
    throws = {"throws": {"items": ref(ThrowText.ref)}}
    return {
        "mqttStatus": {
            "description": (
                "tc/<table id>/status, retained, QoS 1: the bare text `online` (sent again "
                "every half keep-alive) or the broker's last will `offline`. Not JSON: "
                "validate the payload decoded as UTF-8 text."),
            "type": "string", "enum": [topics.ONLINE, topics.OFFLINE]},
        "mqttLive": carrying(Live.SCHEMA, (
            "tc/<table id>/live, retained, QoS 1: the game at the table now, and the ids of "
            "the finished games the table has published (a game it took back is no longer "
            "listed)."), {"v": {"const": VERSION}}, ["v"]),
        "mqttGame": carrying(Game.SCHEMA, (
            "tc/<table id>/game/<game id>, retained, QoS 1: one finished game and its result. "
            "An empty retained message on the topic clears it (the table took the game "
            "back)."), {"v": {"const": VERSION}, **throws}, ["v"]),
        "mqttSeating": message(Seating, (
            "tc/_night/seating, retained, QoS 1, which only the host's login may write "
            "(table-companion seat --publish): the next round, a table at a time: its name as "
            'the host wrote it ("3" or "Table 3"), its game\'s title, the players in seat '
            "order and, in a team game, each seat's team number (else []). No tables: the "
            "host took it down (seat --clear); an empty payload means the same.")),
        "mqttRoster": message(NightRoster, (
            "tc/_night/roster, retained, QoS 1, which only the hub's login may write: the "
            "night's roster as the hub knows it (its roster file), each player's id and the "
            "name the pages show, for the tables to offer when players choose their names. "
            "No players (or an empty payload): the hub has no roster.")),
        "playerId": {"description": ("A player's id in the night's roster: 1 to 40 lower-case "
                                     "letters, digits and '-' inside."),
                     **ROSTER_ID.definition()},
    }


HUB: dict[str, dict[str, Any]] = {
    "hubNight": closed((
        "The hub's GET /night.json: the night it shows (the latest, or the host's choice), "
        "every table, that night's finished games in the order they ended, the standings, how "
        "many messages it refused, what is wrong with its link to the broker ('' when nothing "
        "is), and the next round's seating the host published (tonight's only)."), {
        "night": {"anyOf": [ref("date"), {"const": ""}]},
        "tables": {"type": "array", "items": ref("hubTable")},
        "games": {"type": "array", "items": ref("hubGame")},
        "standings": {"type": "array", "items": ref("standing")},
        "rejected": {"type": "integer", "minimum": 0},
        "trouble": {"type": "string"},
        "seating": ref("seating"),
        "refused": {
            "description": (
                "Tonight's page only: of the messages refused, those past a table's share "
                "since the hub started, by table id and kind (closed: games of a closed "
                "night; games, names, changes: past the night's bound of games, player names, "
                "changes to finished games; rate: messages past the rate bound)."),
            "type": "object",
            "propertyNames": ref("tableId"),
            "additionalProperties": {
                "type": "object",
                "propertyNames": {"enum": ["closed", "games", "names", "changes", "rate"]},
                "additionalProperties": {"type": "integer", "minimum": 1},
            },
        },
    }, optional=["refused"]),
    "hubLeague": closed((
        "The hub's GET /league.json: every player of every night, ranked by rating "
        "(provisional ones after the others), and the games left out of the ratings with why "
        "(a player named twice in one)."), {
        "players": {"type": "array", "items": ref("hubPlayer")},
        "unrated": {
            "type": "array",
            "items": closed("", {
                "night": ref("date"),
                "table": ref("tableId"),
                "id": ref("gameId"),
                "why": {"type": "string"},
            }),
        },
    }),
    "hubPlayer": closed((
        "The hub's GET /players/<id>.json (and each of /league.json's players): a player's id "
        "(their name with case, spaces, accents and punctuation set aside, or the roster's "
        "id), the name the pages show, their rating overall and per game (openskill "
        "Plackett-Luce; shown is mu - 3 sigma), every game they played in the order the games "
        "ended (their name as the table wrote it, place, score, rating after it, null when "
        "the game was not rated; luck and decisions in points for Dalmatian, else null), and "
        "the faces of the dice they threw."), {
        "id": {"type": "string", "minLength": 1, "maxLength": 48},
        "name": ref("name"),
        "rating": ref("rating"),
        "by_game": {"type": "object", "additionalProperties": ref("rating")},
        "games": {
            "type": "array",
            "items": closed("", {
                "night": ref("date"),
                "table": ref("tableId"),
                "id": ref("gameId"),
                "game": ref("name"),
                "ended": ref("time"),
                "name": ref("name"),
                "place": {"type": "integer", "minimum": 1, "maximum": 16},
                "players": {"type": "integer", "minimum": 1, "maximum": 16},
                "score": ref("score"),
                "rating": {"anyOf": [ref("rating"), {"type": "null"}]},
                "luck": {"type": ["number", "null"]},
                "decisions": {"type": ["number", "null"], "minimum": 0},
            }),
        },
        "dice": {
            "type": "object",
            "propertyNames": {"enum": ["1", "2", "3", "4", "5", "6"]},
            "additionalProperties": {"type": "integer", "minimum": 1},
        },
    }),
    "rating": closed((
        "A rating: shown = openskill's ordinal(alpha=2, target=100), 2 (mu - 3 sigma) + 100 "
        "rounded and never below 0 (100 at the start), provisional below 5 rated games."), {
        "shown": {"type": "integer", "minimum": 0},
        "mu": {"type": "number"},
        "sigma": {"type": "number", "exclusiveMinimum": 0},
        "games": {"type": "integer", "minimum": 0},
        "provisional": {"type": "boolean"},
    }),
    "hubTable": closed((
        "A table as the hub knows it; quiet_s is the seconds since the hub last heard from "
        "it, once longer than a keep-alive (else null)."), {
        "id": ref("tableId"),
        "online": {"type": "boolean"},
        "quiet_s": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
        "live": {"anyOf": [ref("hubLive"), {"type": "null"}]},
    }),
    "seating": closed((
        "The next round as the hub shows it: a table at a time, the players in seat order "
        "and, in a team game, the teams (else []); no tables when there is none."), {
        "at": {"anyOf": [ref("time"), {"const": ""}]},
        "tables": {
            "type": "array",
            "maxItems": 64,
            "items": closed("", {
                "name": ref("name"),
                "game": ref("name"),
                "players": {"type": "array", "maxItems": 16, "items": ref("name")},
                "teams": {
                    "type": "array",
                    "maxItems": 16,
                    "items": {"type": "array", "maxItems": 16, "items": ref("name")},
                },
            }),
        },
    }),
    "eventState": closed((
        "The hub's /events stream, event `state`: the page's main part as HTML, sent on "
        "connecting."), {
        "html": {"type": "string"},
    }),
    "eventCard": closed("/events, event `card`: one table's card as HTML.", {
        "id": ref("tableId"),
        "html": {"type": "string"},
    }),
    "eventResults": closed((
        "/events, event `results`: the standings and the list of finished games as HTML (and "
        "the TV's latest games and its winner of the night, hidden before the night's end), "
        "after a game ended or was taken back, or the night ended or opened again."), {
        "standings": {"type": "string"},
        "games": {"type": "string"},
        "latest": {"type": "string"},
        "spotlight": {"type": "string"},
    }),
    "eventBanner": closed((
        "/events, event `banner`: what is wrong with the hub's link to the broker, as HTML (a "
        "hidden banner when nothing is)."), {
        "html": {"type": "string"},
    }),
    "eventSeating": closed((
        "/events, event `seating`: the next round as HTML, for the phone page (seating) and "
        "the TV (next-round), after the host published or took it down."), {
        "seating": {"type": "string"},
        "next-round": {"type": "string"},
    }),
    "export": closed((
        "`table-companion export --format json`: a table's journal, night by night (the "
        "latest night, --night DATE or --all), each night with the fields of the hub's "
        "/night.json that a journal holds (its games, made by the same code, and its "
        "standings); a game adds the options it was played with."), {
        "nights": {
            "type": "array",
            "items": closed("", {
                "night": ref("date"),
                "standings": {"type": "array", "items": ref("standing")},
                "games": {"type": "array", "items": ref("exportGame")},
            }),
        },
    }),
    "exportGame": closed((
        "A finished game as export writes it: the hub's game (hubGame), its table's id and "
        "name empty when the config names no [night] table, and the options it was played "
        "with, which the hub is not sent."), {
        "table": {"anyOf": [ref("tableId"), {"const": ""}]},
        "name": ref("text"),
        "id": ref("gameId"),
        "game": ref("name"),
        "options": {"type": "object"},
        "started": ref("time"),
        "ended": ref("time"),
        "night": ref("date"),
        "players": {"type": "array", "minItems": 1, "maxItems": 16, "items": ref("result")},
        "luck": {"type": "array", "maxItems": 16, "items": ref("luck")},
        "throws": {"type": "array", "maxItems": 1000, "items": ref("throw")},
        "starter": {"type": ["integer", "null"], "minimum": 0, "maximum": 16},
    }, optional=["luck", "throws", "starter"]),
    "result": closed((
        "A player's result in a finished game: seat 0 is the first player (P1); place 1 is "
        "the winner, tied players share a place."), {
        "seat": {"type": "integer", "minimum": 0, "maximum": 16},
        "name": {"type": "string", "minLength": 1},
        "score": ref("score"),
        "place": {"type": "integer", "minimum": 1, "maximum": 16},
        "id": {
            "description": (
                "The night's roster id of the player when the table chose the name from the "
                "roster; absent from an MQTT message, and empty elsewhere, when it did not "
                "(the hub then matches the name)."),
            "anyOf": [ref("playerId"), {"const": ""}],
        },
    }, optional=["id"]),
}


def shared() -> dict[str, dict[str, Any]]:
    """The wire's records the hub serves too, and the words of every record."""
    game = records.schema(Game, closed=False)
    del game["properties"]["throws"]["items"]  # texts on the wire, objects at the hub
    return {
        "hubLive": carrying(Live.SCHEMA, (
            "A table's live state as the hub serves it: the MQTT message's fields with the "
            "table's id instead of the version."), {"table": TABLE_ID.schema()}, ["table"]),
        "hubGame": carrying(Game.SCHEMA, (
            "A finished game as the hub serves it: the MQTT message's fields with the table's "
            "id instead of the version; night is the hub's own dating of the game."),
            {"table": TABLE_ID.schema(), "throws": {"items": ref("throw")}}, ["table"]),
        Live.SCHEMA: records.schema(Live, closed=False),
        Game.SCHEMA: game,
        ThrowText.ref: {"description": (
            "One throw of a finished game in an MQTT message, in order, as seat:source:dice "
            "(see throw). The list is absent when the table sent none, or when it would have "
            "made the message too long."), **ThrowText().definition()},
        topics.Thrown.SCHEMA: records.schema(topics.Thrown),
        topics.Luck.SCHEMA: records.schema(topics.Luck),
        Standing.SCHEMA: records.schema(Standing),
        "text": {"description": ("Text a person could have typed: no control characters, line "
                                 "breaks or bidirectional overrides."),
                 "type": "string", "maxLength": MAX_NAME, "pattern": PRINTABLE},
        "name": {**ref("text"), "minLength": 1},
        "tableId": {"description": ("A table's id, made from its name (`Table 2` -> "
                                    "`table-2`): its MQTT user name and topic."),
                    **TABLE_ID.definition()},
        "gameId": GAME_ID.definition(),
        "score": SCORE.definition(),
        "time": {"description": ("ISO 8601 date and time with its UTC offset, e.g. "
                                 "2026-11-21T20:01:00.000+01:00."),
                 "type": "string", "format": "date-time", "maxLength": TIME.most,
                 "pattern": TIME_PATTERN},
        "date": {"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
    }


def document() -> dict[str, Any]:
    """The whole schema: every record's definition by its name."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:table-companion:records:{VERSION}",
        "title": f"table-companion records, version {VERSION}",
        "description": ABOUT,
        "$defs": {**wire(), **HUB, **shared()},
    }


def written(value: Any, indent: str = "", room: int = WIDTH) -> str:
    """``value`` as JSON the way people indent it: a list or an object on one line when it
    fits in ``room`` (the line's comma included), else one item a line."""
    flat = json.dumps(value)
    if len(flat) < room or not isinstance(value, dict | list) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, dict):
        heads = [f"{inner}{json.dumps(key)}: " for key in value]
        items = [head + written(item, inner, WIDTH - len(head))
                 for head, item in zip(heads, value.values(), strict=True)]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    items = [inner + written(item, inner, WIDTH - len(inner)) for item in value]
    return "[\n" + ",\n".join(items) + "\n" + indent + "]"


def text() -> str:
    """The schema file's text."""
    return written(document()) + "\n"


if __name__ == "__main__":
    sys.stdout.write(text())
