"""The one TOML reader behind the config, the pin maps and the scenarios: its checks, and
the words each of the three files keeps for them."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host import config
from hardware.tomlreader import Keys, TomlReader, is_kind, within


class Reader(TomlReader):
    def fail(self, keys: Keys, problem: str) -> ValueError:
        return ValueError(f"{'.'.join(keys)}: {problem}")


@pytest.mark.parametrize(("value", "kind", "ok"), [
    (1, int, True), (True, int, False), (1.0, int, False), ("1", int, False),
    (1, float, True), (1.5, float, True), (float("inf"), float, False),
    (float("nan"), float, False), (False, float, False), (True, bool, True), (1, bool, False),
    ([], list, True), ({}, list, False),
])
def test_a_value_is_exactly_of_its_kind(value: object, kind: type, ok: bool) -> None:
    assert is_kind(value, kind) is ok


def test_a_value_is_its_default_when_absent_and_refused_as_written_otherwise() -> None:
    reader = Reader()
    baud = within(300, 4_000_000, "a baud rate")
    assert reader.value({}, ("serial", "baud"), int, 9600, baud) == 9600
    assert reader.value({"baud": 300}, ("serial", "baud"), int, 9600, baud) == 300
    with pytest.raises(ValueError, match=r"^serial.baud: 299 is not allowed: a baud rate$"):
        reader.value({"baud": 299}, ("serial", "baud"), int, 9600, baud)
    with pytest.raises(ValueError, match=r'^serial.baud: "fast" is not an integer; write e.g. '
                                         r"9600$"):
        reader.value({"baud": "fast"}, ("serial", "baud"), int, 9600, baud)
    with pytest.raises(ValueError, match=r"^a: true is not a number; write e.g. 0.5$"):
        reader.value({"a": True}, ("a",), float, 0.5)
    assert reader.value({"a": 2}, ("a",), float, 0.5) == 2.0


def test_a_required_value_is_refused_as_none_and_one_read_words_its_own_problem() -> None:
    with pytest.raises(ValueError, match=r"^dice.button: a GPIO, not None$"):
        Reader().value({}, ("dice", "button"), int, 0, required=True,
                       say=lambda value: f"a GPIO, not {value!r}")


def test_unknown_keys_are_named_as_written_or_alphabetically() -> None:
    table = {"zeta": 1, "port": 2, "alpha": 3}
    with pytest.raises(ValueError, match=r"^serial.zeta: unknown key; allowed: port$"):
        Reader().known(table, ("serial",), ("port",))

    class Sorted(Reader):
        sort_unknown = True

    with pytest.raises(ValueError, match=r"^serial.alpha: unknown key"):
        Sorted().known(table, ("serial",), ("port",))


def test_a_table_is_empty_when_absent_unless_required() -> None:
    reader = Reader()
    assert reader.table({}, ("sound",)) == {}
    with pytest.raises(ValueError, match=r"^sound: None is not a table; write a \[sound\] "):
        reader.table({}, ("sound",), required=True)
    with pytest.raises(ValueError, match=r'^sound: "loud" is not a table'):
        reader.table({"sound": "loud"}, ("sound",))


def test_a_path_of_an_unknown_home_is_a_message_in_every_path_key(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    for key in ("journal", "pin_map"):
        text = f'{key} = "~nosuchuser/x.toml"\n'
        with pytest.raises(config.ConfigError, match=rf"line 1: {key}: '~nosuchuser/x.toml' "
                                                     "starts with ~ but no user 'nosuchuser'"):
            config.parse(text, path)
    for key in ("credentials", "ca"):
        text = f'[night]\ntable = "Table 2"\n{key} = "~nosuchuser/x"\n'
        with pytest.raises(config.ConfigError,
                           match=rf"line 3: night.{key}: '~nosuchuser/x' starts with ~ but no "
                                 "user 'nosuchuser' on this machine; write the full path"):
            config.parse(text, path)
