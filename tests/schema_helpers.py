"""The records' schema (docs/schema/) for tests: every record the project produces is checked
against the definition of its kind."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

SCHEMA_FILE = Path(__file__).parents[1] / "docs" / "schema" / "records-1.schema.json"


@cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA_FILE.read_text())
    return loaded


@cache
def validator(kind: str) -> Draft202012Validator:
    """A validator of the records of ``kind`` (a name in the schema's $defs)."""
    whole = schema()
    if kind not in whole["$defs"]:
        raise AssertionError(f"the schema defines no record {kind!r}")
    registry: Registry[Any] = Registry().with_resource(whole["$id"],
                                                       Resource.from_contents(whole))
    return Draft202012Validator({"$ref": f"{whole['$id']}#/$defs/{kind}"}, registry=registry,
                                format_checker=Draft202012Validator.FORMAT_CHECKER)


def problems(kind: str, record: Any) -> list[str]:
    """What breaks ``kind``'s definition in ``record``, one line each."""
    return [f"{'/'.join(map(str, error.absolute_path)) or '(the record)'}: {error.message}"
            for error in validator(kind).iter_errors(record)]


def check(kind: str, record: Any) -> None:
    found = problems(kind, record)
    assert not found, f"a {kind} record breaks the schema: " + "; ".join(found)


def check_message(topic: str, payload: bytes) -> str:
    """Check an MQTT message by its topic (tc/<table>/status, /live, /game/<id>, the host's
    tc/_night/seating or the hub's tc/_night/roster); its kind."""
    kind = topic.split("/")[2]
    if kind == "status":
        check("mqttStatus", payload.decode())
        return "mqttStatus"
    if kind in ("game", "seating", "roster") and not payload:
        return "cleared"  # a game taken back, the seating taken down: an empty retained message
    name = {"live": "mqttLive", "game": "mqttGame", "seating": "mqttSeating",
            "roster": "mqttRoster"}[kind]
    check(name, json.loads(payload))
    return name
