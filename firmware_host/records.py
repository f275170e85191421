"""Records declared once: a frozen dataclass whose fields carry their rules, from which the
encoder, the validator and the JSON Schema are derived.

A field's rule (:func:`rule` puts it in the field's metadata) says what its value may be
(a text's length and characters, a number's range, a list's bounds, a nested record) and how
a refusal is worded; the same rule writes the value to JSON (:func:`encode`), checks it
coming back from a stranger (:func:`decode`, which raises only :class:`Refused`), and says it
in JSON Schema (:func:`schema`). What a single field cannot say (a turn is one of the
players, a game ends after it starts) a record checks in its own ``checked(values, data)``
hook, which may also turn the checked values into the record's own (and ``wired(data)``
back, as a seating's teams travel as each seat's team number).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

MISSING: Any = dataclasses.MISSING


class Refused(ValueError):
    """A value that breaks its record's rules; the text says which field and why."""


class Record(Protocol):
    """A dataclass whose fields carry rules (each record class of the wire)."""

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]


R = TypeVar("R", bound=Record)


class Rule:
    """What one value may be: checked from JSON, written to JSON, said in JSON Schema."""

    ref: str = ""  # the schema's name for this kind of value, when it has one

    def check(self, value: Any, key: str) -> Any:
        raise NotImplementedError

    def encode(self, value: Any) -> Any:
        return value

    def schema(self) -> dict[str, Any]:
        """The schema of a value, as a reference to its named kind when it has one."""
        return {"$ref": f"#/$defs/{self.ref}"} if self.ref else self.definition()

    def definition(self) -> dict[str, Any]:
        raise NotImplementedError


@dataclass(frozen=True)
class Text(Rule):
    """A text a person could have typed: at most ``most`` characters (None: any number),
    none of ``hiding``; ``then`` (a test and the problem it words) checks it further, as a
    time or a date."""

    hiding: re.Pattern[str] | None
    most: int | None
    empty: bool = True
    choices: tuple[str, ...] = ()
    then: tuple[Callable[[str], bool], str] | None = None
    ref: str = ""
    extra: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def check(self, value: Any, key: str) -> str:
        if type(value) is not str:
            raise Refused(f"{key} must be a str")
        if (self.most is not None and len(value) > self.most) or (not self.empty and not value) \
                or (self.hiding is not None and self.hiding.search(value)):
            raise Refused(f"{key} must be a name of {'' if self.empty else '1 to '}"
                          f"{self.most} printable characters at most")
        if self.choices and value not in self.choices:
            raise Refused(f"{key} must be one of {', '.join(self.choices)}")
        if self.then is not None and not self.then[0](value):
            raise Refused(self.then[1].format(key=key))
        return value

    def schema(self) -> dict[str, Any]:
        if self.choices:
            return {"enum": list(self.choices)}
        return {**super().schema(), **self.extra}

    def definition(self) -> dict[str, Any]:
        least = {} if self.empty else {"minLength": 1}
        most = {} if self.most is None else {"maxLength": self.most}
        return {"type": "string", **least, **most, **self.extra}


@dataclass(frozen=True)
class Pattern(Rule):
    """A text that matches ``pattern`` whole (or is empty, when ``empty``); ``why`` is the
    one problem said for anything else."""

    pattern: re.Pattern[str]
    why: str
    empty: bool = False
    ref: str = ""

    def check(self, value: Any, key: str) -> str:
        if type(value) is not str or not (self.pattern.fullmatch(value)
                                          or (self.empty and not value)):
            raise Refused(self.why.format(key=key))
        return value

    def schema(self) -> dict[str, Any]:
        if self.empty:
            return {"anyOf": [super().schema(), {"const": ""}]}
        return super().schema()

    def definition(self) -> dict[str, Any]:
        return {"type": "string", "pattern": f"^{self.pattern.pattern}$"}


@dataclass(frozen=True)
class Int(Rule):
    """A whole number from ``low`` to ``high`` (None: no bound above)."""

    low: int
    high: int | None = None
    ref: str = ""

    def check(self, value: Any, key: str) -> int:
        if not self.fits(value):
            raise Refused(f"{key} must be a number from {self.low} to {self.high}"
                          if self.high is not None else
                          f"{key} must be a whole number of at least {self.low}")
        return int(value)

    def fits(self, value: Any) -> bool:
        return type(value) is int and self.low <= value \
            and (self.high is None or value <= self.high)

    def definition(self) -> dict[str, Any]:
        high = {} if self.high is None else {"maximum": self.high}
        return {"type": "integer", "minimum": self.low, **high}


@dataclass(frozen=True)
class Number(Rule):
    """A finite number, whole or not, from ``low`` to ``high``."""

    low: float
    high: float

    def check(self, value: Any, key: str) -> float:
        if type(value) not in (int, float) or not self.low <= value <= self.high:
            raise Refused(f"{key} must be a number from {self.low:g} to {self.high:g}")
        return float(value)

    def definition(self) -> dict[str, Any]:
        return {"type": "number", "minimum": self.low, "maximum": self.high}


@dataclass(frozen=True)
class Items(Rule):
    """A list of at most ``most`` values of ``of``: a rule, or a record class (objects)."""

    of: Rule | type[Any]
    most: int
    least: int = 0
    few: str = ""  # the problem of fewer than ``least`` items

    def check(self, value: Any, key: str) -> tuple[Any, ...]:
        if type(value) is not list:
            raise Refused(f"{key} must be a list")
        if len(value) > self.most:
            raise Refused(f"{key} has more than {self.most} items")
        if len(value) < self.least:
            raise Refused(self.few)
        if isinstance(self.of, Int):
            if not all(self.of.fits(item) for item in value):
                raise Refused(f"{key} must be numbers from {self.of.low} to {self.of.high}")
            return tuple(value)
        if isinstance(self.of, Rule):
            return tuple(self.of.check(item, key) for item in value)
        if not all(isinstance(item, dict) for item in value):
            raise Refused(f"{key} must be objects")
        return tuple(decode(self.of, item) for item in value)

    def encode(self, value: Any) -> Any:
        if isinstance(self.of, Rule):
            return [self.of.encode(item) for item in value]
        return [encode(item) for item in value]

    def definition(self) -> dict[str, Any]:
        items = self.of.schema() if isinstance(self.of, Rule) else reference(self.of)
        least = {"minItems": self.least} if self.least else {}
        return {"type": "array", **least, "maxItems": self.most, "items": items}


@dataclass(frozen=True)
class Rules:
    """A field's rule and its place on the wire: ``wire=False`` for a field the message
    does not carry (the table, from the topic); ``optional`` for one left out when it holds
    its default, and read as the default when absent."""

    rule: Rule
    wire: bool = True
    optional: bool = False


def rule(check: Rule, default: Any = MISSING, *, wire: bool = True,
         optional: bool = False) -> Any:
    """A dataclass field with its rule."""
    meta = {"rules": Rules(check, wire, optional)}
    if default is MISSING:
        return dataclasses.field(metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


Wired = tuple[tuple[dataclasses.Field[Any], Rules], ...]


_WIRED: dict[type, tuple[Wired, Wired]] = {}


def on_wire(cls: type[Any]) -> Wired:
    """The fields of record class ``cls`` that its message carries, in order."""
    return _wired(cls)[0]


def checking_order(cls: type[Any]) -> Wired:
    """:func:`on_wire`, the fields the class names in ``CHECK_FIRST`` first: those whose
    problems a message is told first."""
    return _wired(cls)[1]


def _wired(cls: type[Any]) -> tuple[Wired, Wired]:
    if cls not in _WIRED:
        fields = tuple((field, field.metadata["rules"]) for field in dataclasses.fields(cls)
                       if "rules" in field.metadata and field.metadata["rules"].wire)
        first = getattr(cls, "CHECK_FIRST", ())
        _WIRED[cls] = fields, tuple(sorted(fields, key=lambda pair: pair[0].name not in first))
    return _WIRED[cls]


def encode(record: Any) -> dict[str, Any]:
    """``record`` as a JSON object, its fields in order and optional ones left out when they
    hold their default."""
    data = {}
    for field, rules in on_wire(type(record)):
        value = getattr(record, field.name)
        if not (rules.optional and value == field.default):
            data[field.name] = rules.rule.encode(value)
    wired = getattr(record, "wired", None)
    return data if wired is None else dict(wired(data))


def decode(cls: type[R], data: Mapping[str, Any], **given: Any) -> R:
    """The record of class ``cls`` that the JSON object ``data`` holds, every field checked
    by its rule (those the class names in ``CHECK_FIRST`` first) and then the whole by the
    class's ``checked`` hook when it has one; the fields not on the wire are ``given``.
    Raises only :class:`Refused`."""
    values = dict(given)
    for field, rules in checking_order(cls):
        if rules.optional and field.name not in data:
            values[field.name] = field.default
        else:
            values[field.name] = rules.rule.check(data.get(field.name), field.name)
    hook = getattr(cls, "checked", None)
    if hook is not None:
        values = hook(values, data)
    return cls(**values)


def reference(cls: type[Any]) -> dict[str, Any]:
    """The schema's reference to record class ``cls`` by its ``SCHEMA`` name, or its whole
    schema when it has none."""
    name = getattr(cls, "SCHEMA", "")
    return {"$ref": f"#/$defs/{name}"} if name else schema(cls)


def schema(cls: type[Any], *, closed: bool = True) -> dict[str, Any]:
    """The JSON Schema of record class ``cls``: its ``ABOUT`` text, each wire field's
    schema, the fields that must be there and, when ``closed``, no others."""
    properties = {field.name: rules.rule.schema() for field, rules in on_wire(cls)}
    required = [field.name for field, rules in on_wire(cls) if not rules.optional]
    about = {"description": cls.ABOUT} if getattr(cls, "ABOUT", "") else {}
    rest = {"additionalProperties": False} if closed else {}
    return {**about, "type": "object", "properties": properties, "required": required,
            **rest}
