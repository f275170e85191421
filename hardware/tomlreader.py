"""Checking a parsed TOML table key by key: the one reader behind the config, the pin maps
and the simulator's scenarios.

The checks are written here once: keys nobody reads, sub-tables, exact types (``true`` is no
number, ``1.5`` no whole number, a string no list), ranges and choices, and paths written
relative to the file. Each file keeps its own way of saying where a problem is (the config:
file, line and dotted key; a pin map: its name; a scenario: the step) and its own words,
which its readers and tests know: a subclass says how an error looks (:meth:`fail`) and
rewords what differs, and a single read may word its own problem (``say``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any, TypeVar, cast

from hardware.tomlfile import TomlFileError, expand_home

Keys = tuple[str, ...]
"""Where a value is: its table's keys, then its own (``("serial", "baud")``)."""
Check = Callable[[Any], "str | None"]
"""A value's further check: the problem with it, or None when it is fine."""
T = TypeVar("T")

KIND_NAMES: dict[type, str] = {
    str: "a string", int: "an integer", float: "a number", bool: "true or false",
    list: "a list", dict: "a table",
}


def is_kind(value: Any, kind: type) -> bool:
    """Whether ``value`` is exactly of ``kind``: ``true`` is no integer; a float may be
    written as an integer (``settle = 1``) but must be finite."""
    if kind is float:
        return type(value) in (int, float) and math.isfinite(value)
    return type(value) is kind


def within(low: float, high: float, problem: str) -> Check:
    """A check that ``low <= value <= high``; ``problem`` says what is allowed."""
    return lambda value: None if low <= value <= high else problem


def toml_text(value: Any) -> str:
    """A value written the way a TOML file would write it, for messages."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_text(v)}" for k, v in value.items()) + "}"
    return str(value)


class TomlReader:
    """Typed reads from parsed TOML, each problem raised as ``self.fail(keys, problem)``."""

    sort_unknown = False
    """Name the alphabetically first unknown key of a table, not the first written."""

    def fail(self, keys: Keys, problem: str) -> Exception:
        """The error to raise for ``problem`` with the value at ``keys``."""
        raise NotImplementedError

    def unknown(self, keys: Keys, key: str, allowed: Collection[str]) -> str:
        """The problem of ``key`` in the table at ``keys``, which reads only ``allowed``."""
        return f"unknown key; allowed: {', '.join(allowed)}"

    def not_table(self, keys: Keys, value: Any) -> str:
        """The problem of ``value`` at ``keys`` where a table belongs (None: it is missing)."""
        return f"{toml_text(value)} is not a table; write a [{'.'.join(keys)}] section"

    def wrong_kind(self, value: Any, kind: type, default: Any) -> str:
        """The problem of a ``value`` that is not of ``kind``."""
        return f"{toml_text(value)} is not {KIND_NAMES[kind]}; write e.g. {toml_text(default)}"

    def refused(self, value: Any, problem: str) -> str:
        """The problem of a ``value`` of the right kind that its check refused."""
        return f"{toml_text(value)} is not allowed: {problem}"

    def known(self, table: Mapping[str, Any], keys: Keys, allowed: Collection[str],
              say: str | None = None) -> Mapping[str, Any]:
        """``table`` (at ``keys``) once every key in it is one of ``allowed``."""
        for key in sorted(table) if self.sort_unknown else table:
            if key not in allowed:
                raise self.fail((*keys, key), say or self.unknown(keys, key, allowed))
        return table

    def table(self, parent: Mapping[str, Any], keys: Keys,
              allowed: Collection[str] | None = None, *,
              required: bool = False) -> Mapping[str, Any]:
        """The table at ``keys`` in ``parent`` (empty when absent, unless ``required``), its
        keys checked against ``allowed`` when given."""
        value = parent.get(keys[-1], None if required else {})
        if not isinstance(value, dict):
            raise self.fail(keys, self.not_table(keys, value))
        return value if allowed is None else self.known(value, keys, allowed)

    def value(self, table: Mapping[str, Any], keys: Keys, kind: type[T], default: T,
              check: Check | None = None, *, required: bool = False,
              say: Callable[[Any], str] | None = None) -> T:
        """The value at ``keys`` in ``table``: ``default`` when absent (unless ``required``:
        then the missing value is refused as None is), else exactly of ``kind`` and passed by
        ``check``. ``say`` words both problems for this one read."""
        key = keys[-1]
        if key not in table and not required:
            return default
        value: Any = table.get(key)
        if not is_kind(value, kind):
            raise self.fail(keys, say(value) if say else self.wrong_kind(value, kind, default))
        problem = None if check is None else check(value)
        if problem is not None:
            raise self.fail(keys, say(value) if say else self.refused(value, problem))
        return cast(T, float(value) if kind is float else value)

    def relative(self, keys: Keys, written: str, folder: Path) -> Path:
        """A path as the file wrote it: ``~`` expanded, relative to ``folder``."""
        try:
            return folder / expand_home(written)
        except TomlFileError as err:
            raise self.fail(keys, str(err)) from None
