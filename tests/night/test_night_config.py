"""The [night] section: the table's name, broker and password file, every mistake located."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from firmware_host.config import ConfigError, NightConfig, parse
from firmware_host.night.credentials import CredentialsError, read_secret

FILE = Path("/etc/table-companion/config.toml")


def error_of(text: str) -> str:
    with pytest.raises(ConfigError) as err:
        parse(text, FILE)
    return str(err.value)


def test_a_night_section_is_read_with_defaults_for_what_it_leaves_out() -> None:
    night = parse('[night]\ntable = " Table 2 "\n', FILE).night
    assert night == NightConfig("Table 2")
    assert night.table_id == "table-2"
    assert night.broker == "mqtts://hub.local:8883"
    assert night.page_url == "http://hub.local:8080/"
    assert parse("", FILE).night is None


def test_every_key_is_read() -> None:
    night = parse('[night]\ntable = "Green Room"\nbroker = "mqtts://10.0.0.5:8884"\n'
                  'credentials = "secret/mqtt"\npage = "https://night.example/"\n'
                  'ca = "night/ca.crt"\n', FILE).night
    assert night == NightConfig("Green Room", "mqtts://10.0.0.5:8884",
                                Path("/etc/table-companion/secret/mqtt"),
                                "https://night.example/", Path("/etc/table-companion/night/ca.crt"))
    assert night.page_url == "https://night.example/"


@pytest.mark.parametrize(("text", "expected"), [
    ("[night]\n", "config.toml, line 1: night: the table needs a name"),
    ('[night]\ntable = "!!"\n', 'line 2: night.table: "!!" is not allowed: a name of at most'),
    ("[night]\ntable = 2\n", "line 2: night.table: 2 is not a string"),
    ('[night]\ntable = "T"\nbroker = "http://hub"\n',
     "line 3: night.broker: \"http://hub\" is not allowed: write mqtt://HOST[:PORT]"),
    ('[night]\ntable = "T"\nbroker = "mqtt://hub:99999"\n',
     "line 3: night.broker: \"mqtt://hub:99999\" is not allowed: the port must be"),
    ('[night]\ntable = "T"\npage = "hub.local"\n', "line 3: night.page:"),
    ('[night]\ntable = "T"\npassword = "x"\n', "line 3: night.password: unknown key"),
])
def test_mistakes_name_the_file_line_and_key(text: str, expected: str) -> None:
    assert expected in error_of(text)


def test_the_password_file_must_exist_be_private_and_hold_a_password(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    secret = tmp_path / "mqtt"
    text = '[night]\ntable = "T"\n\ncredentials = "mqtt"\n'
    night = parse(text, config).night
    assert night is not None
    where = f"{config}, line 4: night.credentials: {secret}"
    with pytest.raises(CredentialsError, match=f"^{where} does not exist"):
        night.password()
    secret.write_text("s3cret\n")
    os.chmod(secret, 0o644)
    with pytest.raises(CredentialsError, match=r"may be read by others \(mode 644\); chmod 600"):
        night.password()
    os.chmod(secret, 0o600)
    assert night.password() == "s3cret"
    secret.write_text("\n")
    with pytest.raises(CredentialsError, match="is empty"):
        read_secret(secret, "--password-file")


def test_the_shipped_night_example_reads_when_uncommented() -> None:
    text = (Path(__file__).parents[2] / "systemd" / "config.toml").read_text()
    head, _, tail = text.partition("# [night]")
    keys = ("table", "broker", "credentials", "page", "ca")
    lines = ["[night]", *(line[2:] if line[2:].split(" ")[0] in keys else line
                          for line in tail.splitlines())]
    night = parse(head + "\n".join(lines), FILE).night
    assert night == NightConfig("Table 2", "mqtts://hub.local:8883",
                                page="http://hub.local:8080/")
