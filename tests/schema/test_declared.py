"""A record declared once (firmware_host/records.py): the encoder, the checks and the JSON
Schema all follow from its fields' rules, shown on a small record of its own."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from firmware_host import records
from firmware_host.records import Int, Items, Refused, Text, rule

HIDING = re.compile("[\x00-\x1f]")


@dataclass(frozen=True)
class Jar:
    SCHEMA: ClassVar[str] = "jar"

    colour: str = rule(Text(HIDING, 8, choices=("red", "blue")))
    beans: int = rule(Int(0, 99))


@dataclass(frozen=True)
class Shelf:
    ABOUT: ClassVar[str] = "A shelf of jars."
    CHECK_FIRST: ClassVar[tuple[str, ...]] = ("jars",)

    room: str = rule(Text(None, None), wire=False)
    label: str = rule(Text(HIDING, 8, empty=False))
    slots: int = rule(Int(1, 3))
    jars: tuple[Jar, ...] = rule(Items(Jar, 3))
    sizes: tuple[int, ...] = rule(Items(Int(1, 6), 3), ())
    note: str = rule(Text(HIDING, 20), "", optional=True)

    @staticmethod
    def checked(values: dict[str, Any], data: Any) -> dict[str, Any]:
        if len(values["jars"]) > values["slots"]:
            raise Refused("more jars than slots")
        return values


SHELF = Shelf("pantry", "top", 2, (Jar("red", 3), Jar("blue", 0)), (1, 2))


def test_a_record_travels_as_its_wire_fields_and_comes_back_whole() -> None:
    data = records.encode(SHELF)
    assert data == {"label": "top", "slots": 2, "jars": [{"colour": "red", "beans": 3},
                    {"colour": "blue", "beans": 0}], "sizes": [1, 2]}
    assert records.decode(Shelf, data, room="pantry") == SHELF
    noted = Shelf("pantry", "top", 1, (), note="dusty")
    assert records.encode(noted)["note"] == "dusty"
    assert records.decode(Shelf, records.encode(noted), room="pantry") == noted


@pytest.mark.parametrize(("change", "problem"), [
    ({"label": 7}, "label must be a str"),
    ({"label": ""}, "label must be a name of 1 to 8 printable characters at most"),
    ({"label": "a\tb"}, "label must be a name of 1 to 8 printable"),
    ({"slots": True}, "slots must be a number from 1 to 3"),
    ({"slots": 4}, "slots must be a number from 1 to 3"),
    ({"jars": [[]]}, "jars must be objects"),
    ({"jars": [{"colour": "green", "beans": 1}]}, "colour must be one of red, blue"),
    ({"jars": [{"colour": "red"}]}, "beans must be a number from 0 to 99"),
    ({"jars": [{"colour": "red", "beans": 1}] * 4}, "jars has more than 3 items"),
    ({"sizes": [1, 7]}, "sizes must be numbers from 1 to 6"),
    ({"sizes": None}, "sizes must be a list"),
    ({"note": 5}, "note must be a str"),
    ({"slots": 1}, "more jars than slots"),
])
def test_each_rule_words_its_own_refusal(change: dict[str, Any], problem: str) -> None:
    data = {**records.encode(SHELF), **change}
    with pytest.raises(Refused, match=f"^{re.escape(problem)}"):
        records.decode(Shelf, data, room="pantry")


def test_the_fields_a_record_names_first_are_checked_first() -> None:
    with pytest.raises(Refused, match=r"^jars must be a list$"):
        records.decode(Shelf, {}, room="pantry")


def test_the_schema_says_what_the_rules_say() -> None:
    assert records.schema(Shelf) == {
        "description": "A shelf of jars.", "type": "object",
        "properties": {
            "label": {"type": "string", "minLength": 1, "maxLength": 8},
            "slots": {"type": "integer", "minimum": 1, "maximum": 3},
            "jars": {"type": "array", "maxItems": 3, "items": {"$ref": "#/$defs/jar"}},
            "sizes": {"type": "array", "maxItems": 3,
                      "items": {"type": "integer", "minimum": 1, "maximum": 6}},
            "note": {"type": "string", "maxLength": 20}},
        "required": ["label", "slots", "jars", "sizes"], "additionalProperties": False}
    assert records.schema(Jar)["properties"]["colour"] == {"enum": ["red", "blue"]}
