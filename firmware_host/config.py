"""The daemon's settings: a TOML file read once at start into frozen dataclasses.

No file at the default path means the built-in defaults, so a fresh install runs. A file
that is wrong raises :class:`ConfigError` whose message names the file, the line, the key and
what is allowed, because the person fixing it has only that one line on the console.
Game variants are checked by the game's own option validation, so the rules stay the one
authority on what a variant may be.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.errors import UsageError
from firmware_host.night.credentials import read_secret
from firmware_host.night.topics import HUB_PORT, parse_broker, short_path, table_id
from games import game_class
from games.core import Setup
from games.errors import OptionError, UnknownGameError
from hardware.display.factory import CONTROLLERS, INTERFACES, OledConfig, OledConfigError
from hardware.errors import WiringError
from hardware.pins.factory import PIN_LIBRARIES
from hardware.tomlfile import TomlFileError, read_text
from hardware.tomlfile import parse as parse_toml
from hardware.tomlreader import TomlReader
from hardware.wiring.pinmap import DEFAULT_MAP, PinMap, load_pin_map

DEFAULT_PATH = Path("/etc/table-companion/config.toml")
SERVICE_JOURNAL = Path("/var/lib/table-companion/journal.sqlite3")  # StateDirectory= of the unit
JOURNAL_NAME = "journal.sqlite3"
SIM_JOURNAL_NAME = "sim-journal.sqlite3"


def state_folder(environ: Mapping[str, str], *, service: bool = True) -> Path:
    """Where journals live: the service's ``$STATE_DIRECTORY`` (systemd sets it from the
    unit's ``StateDirectory=``), else the user's own state folder (``$XDG_STATE_HOME`` or
    ``~/.local/state``), so ``run --mock`` and ``export`` work for anyone on a laptop.
    ``service=False`` skips the first: the simulator's journal is never the service's."""
    first = environ.get("STATE_DIRECTORY", "").split(":")[0]
    if service and os.path.isabs(first):
        return Path(first)
    state = environ.get("XDG_STATE_HOME", "")
    base = Path(state) if os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "table-companion"


def default_journal(environ: Mapping[str, str]) -> Path:
    """The journal ``run`` keeps when the config names none."""
    return state_folder(environ) / JOURNAL_NAME


def sim_journal(environ: Mapping[str, str]) -> Path:
    """The journal the interactive simulator keeps when not given ``--journal``."""
    return state_folder(environ, service=False) / SIM_JOURNAL_NAME
EMULATOR = "emulator"
DISPLAY_TYPES = (*CONTROLLERS, EMULATOR)
# [display] keys besides type and bus, named as OledConfig names them; the wiring of the
# panel (SPI chip select, DC and reset pins) comes from the pin map
PANEL_KEYS = ("i2c_bus", "i2c_address", "spi_port", "spi_speed_hz", "rotate")
BAUD_RANGE = (300, 4_000_000)  # what UARTs take; a USB CDC device ignores the rate


class ConfigError(UsageError, ValueError):
    """The configuration file cannot be used; the message says where and why."""


LONG_PRESS_ACTIONS = ("menu", "undo", "dice", "moves")
"""A long press on ROLL opens the menu, asks to undo the last action, types in dice, or has
the legal moves read out."""

SOUND_SETTINGS = ("on", "off")
"""The buzzer chirps, buzzes and plays (on), or stays quiet (off); the menu can change it."""


@dataclass(frozen=True)
class GameConfig:
    """The game the menu offers first, with its variants as the game names them."""

    name: str = "dalmatian"
    variants: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SerialConfig:
    """A TC1 device on a serial line and what it provides: the board's cells (which then
    replace the pin map's reed matrix as the board sensors), dice, or both."""

    port: str = "/dev/ttyACM0"  # a device path or a pyserial URL (loop://, rfc2217://...)
    baud: int = 115200
    board: bool = False
    dice: bool = True


DICE_SOURCES = ("button", "pixels")
"""Where throws come from besides typing them in: the dice button (and a [serial] roller),
or Pixels dice read over Bluetooth."""


MOST_DICE = 10  # in one throw, as a serial roller's DICE line may hold


@dataclass(frozen=True)
class DiceConfig:
    """The table's dice: the button's, or the Pixels dice named here by pixel id (eight hex
    digits, as the Pixels app shows it) or Bluetooth address; ``count`` is how many a throw
    takes until a game says (a game that holds dice asks for fewer)."""

    source: str = "button"
    pixels: tuple[str, ...] = ()
    count: int = 5


VOICE_ENGINES = ("none", "espeak-ng")
"""What speaks at the table: nothing (the default), or espeak-ng through ALSA."""


@dataclass(frozen=True)
class VoiceConfig:
    """The table's own voice: its engine, the ALSA device that plays it (``aplay -D``), the
    volume (espeak-ng's amplitude, 0 to 200), the rate in words a minute and the language."""

    engine: str = "none"  # one of VOICE_ENGINES
    device: str = "default"
    volume: int = 100
    rate: int = 160
    language: str = "en"

    @property
    def on(self) -> bool:
        return self.engine != "none"


@dataclass(frozen=True)
class NightConfig:
    """This table at a game night: its name, the broker it publishes to and the password
    file (its user name is the table's id, ``Table 2`` -> ``table-2``)."""

    table: str
    broker: str = "mqtts://hub.local:8883"  # the TLS listener install.sh --hub sets up
    credentials: Path = Path("/etc/table-companion/mqtt-password")
    page: str = ""  # the hub page's address for the QR code ('' = http://<broker host>:8080/)
    # the night's certificate authority, which an mqtts:// broker's certificate must come from
    ca: Path = Path("/etc/table-companion/night-ca.crt")
    # "FILE, line N: night.credentials", for a problem found when the file is read
    credentials_key: str = field(default="night.credentials", compare=False)

    @property
    def table_id(self) -> str:
        return table_id(self.table)

    @property
    def page_url(self) -> str:
        return self.page or f"http://{parse_broker(self.broker).host}:{HUB_PORT}/"

    def game_url(self, game_id: int) -> str:
        """The short address of this table's finished game ``game_id`` on the hub's page."""
        return self.page_url.rstrip("/") + short_path(self.table_id, game_id)

    def password(self) -> str:
        """The broker password from :attr:`credentials` (checked as :func:`read_secret`)."""
        return read_secret(self.credentials, self.credentials_key)


@dataclass(frozen=True)
class Config:
    """Everything the daemon reads from its file; the defaults are a working setup."""

    pin_map: str = DEFAULT_MAP  # a map shipped in wiring/, or the path of a map file
    players: tuple[str, ...] = ("P1", "P2")
    display: OledConfig | None = field(default_factory=OledConfig)  # None: emulated screen
    game: GameConfig = GameConfig()
    journal: Path = field(default_factory=lambda: default_journal(os.environ))
    hint: bool = True
    long_press: str = "menu"  # what holding ROLL does: one of LONG_PRESS_ACTIONS
    sound: str = "on"  # the buzzer (when the pin map has one): one of SOUND_SETTINGS
    serial: SerialConfig | None = None  # None: no serial device, the GPIO pins alone
    dice: DiceConfig = DiceConfig()
    night: NightConfig | None = None  # None: this table publishes to no game night
    pin_library: str = "auto"  # gpiozero's pin factory: one of PIN_LIBRARIES
    voice: VoiceConfig = VoiceConfig()  # the table's own speaker, off unless asked for

    def pins(self) -> PinMap:
        """The pin map named by :attr:`pin_map` (checked when the file was read)."""
        return load_pin_map(self.pin_map)

    def names_for(self, count: int) -> tuple[str, ...]:
        """``count`` player names: the configured ones first, then P<seat> for the rest."""
        names = list(self.players[:count])
        number = len(names)
        while len(names) < count:
            number += 1
            if f"P{number}" not in names:
                names.append(f"P{number}")
        return tuple(names)

    def setup(self, game: str | None = None, players: int | None = None) -> Setup:
        """A validated Setup for ``game`` (default: the configured one) with named players.

        The configured variants apply to the configured game only; without a player count,
        as many configured players as the game allows take part.
        """
        cls = game_class(game or self.game.name)
        variants = self.game.variants if cls is game_class(self.game.name) else {}
        count = players if players is not None else _clamp(
            len(self.players), cls.MIN_PLAYERS, cls.MAX_PLAYERS
        )
        return cls.make_setup(count, self.names_for(count), variants)


def load(path: Path | None = None) -> Config:
    """The config at ``path``, or at :data:`DEFAULT_PATH` (defaults when that is absent)."""
    if path is None:
        if not DEFAULT_PATH.exists():
            return Config()
        path = DEFAULT_PATH
    try:
        text = read_text(path)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file; give an existing --config file") from None
    except TomlFileError as err:
        raise ConfigError(err.message(path)) from None
    return parse(text, path)


def parse(text: str, path: Path) -> Config:
    """A Config from TOML ``text``; ``path`` names the file in errors and anchors paths."""
    reader = _Reader(text, path)
    try:
        data = parse_toml(text)
    except TomlFileError as err:
        if err.keys:
            raise reader.fail(err.keys, str(err)) from None
        raise ConfigError(err.message(path)) from None
    return reader.config(data)


class _Reader(TomlReader):
    """Reads the parsed tables key by key; a problem names the file, its line and the key."""

    def __init__(self, text: str, path: Path) -> None:
        self.text = text
        self.path = path

    def fail(self, keys: tuple[str, ...], problem: str) -> ConfigError:
        line = find_line(self.text, keys)
        where = f"{self.path}, line {line}" if line is not None else str(self.path)
        return ConfigError(f"{where}: {'.'.join(keys)}: {problem}")

    def unknown(self, keys: tuple[str, ...], key: str, allowed: Collection[str]) -> str:
        return f"unknown key; allowed keys: {', '.join(allowed)}"

    def config(self, data: Mapping[str, Any]) -> Config:
        top = self.known(data, (), ("pin_map", "players", "journal", "hint", "long_press",
                                    "sound", "display", "game", "serial", "night",
                                    "pin_library", "dice", "voice"))
        base = Config()
        players = self.players(top)
        pin_map, pins = self.pin_map(top)
        journal = self.value(top, ("journal",), str, str(base.journal), _not_empty)
        return Config(
            pin_map=pin_map,
            players=players,
            display=self.display(self.table(top, ("display",)), pins),
            game=self.game(self.table(top, ("game",)), players) if "game" in top
            else GameConfig(),
            journal=self.relative(("journal",), journal, self.path.parent),
            hint=self.value(top, ("hint",), bool, base.hint),
            long_press=self.value(top, ("long_press",), str, base.long_press,
                                  _one_of(LONG_PRESS_ACTIONS)),
            sound=self.value(top, ("sound",), str, base.sound, _one_of(SOUND_SETTINGS)),
            serial=self.serial(self.table(top, ("serial",))) if "serial" in top else None,
            dice=self.dice(self.table(top, ("dice",))),
            night=self.night(self.table(top, ("night",))) if "night" in top else None,
            pin_library=self.value(top, ("pin_library",), str, base.pin_library,
                                   _one_of(PIN_LIBRARIES)),
            voice=self.voice(self.table(top, ("voice",))),
        )

    def players(self, top: Mapping[str, Any]) -> tuple[str, ...]:
        names = self.value(top, ("players",), list, list(Config().players), _names)
        return tuple(n.strip() for n in names)

    def pin_map(self, top: Mapping[str, Any]) -> tuple[str, PinMap]:
        """The pin map's name (a file's path, from this file's folder) and the map itself."""
        name = self.value(top, ("pin_map",), str, Config().pin_map)
        if name.endswith(".toml") or "/" in name:
            name = str(self.relative(("pin_map",), name, self.path.parent))
        try:
            return name, load_pin_map(name)
        except WiringError as err:
            raise self.fail(("pin_map",), str(err)) from None

    def display(self, table: Mapping[str, Any], pins: PinMap) -> OledConfig | None:
        """The panel's settings, checked by the OLED driver's own config; None to emulate.

        How the panel is wired (bus, SPI chip select, DC and reset pins) is the pin map's to
        say; ``bus`` may be repeated here, and then it must agree.
        """
        self.known(table, ("display",), ("type", "bus", *PANEL_KEYS))
        base = OledConfig()
        kind = self.value(table, ("display", "type"), str, base.controller, _one_of(DISPLAY_TYPES))
        wired = pins.display
        bus = self.value(table, ("display", "bus"), str, wired.bus, _one_of(INTERFACES))
        if bus != wired.bus:
            raise self.fail(("display", "bus"), f'"{bus}" is not allowed: pin map {pins.name} '
                            f"wires the OLED to {wired.bus}; write bus = \"{wired.bus}\" or "
                            f"choose a pin map with an {bus} OLED")
        values: dict[str, Any] = {
            "controller": base.controller if kind == EMULATOR else kind,
            "interface": bus,
            "spi_device": wired.chip_select,
            "dc_pin": base.dc_pin if wired.dc is None else wired.dc,
            "reset_pin": base.reset_pin if wired.reset is None else wired.reset,
        }
        for key in PANEL_KEYS:
            values[key] = self.value(table, ("display", key), int, getattr(base, key))
        try:
            oled = OledConfig(**values)
        except OledConfigError as err:
            key = err.key if err.key in PANEL_KEYS else "type"
            raise self.fail(("display", key), err.problem) from None
        return None if kind == EMULATOR else oled

    def serial(self, table: Mapping[str, Any]) -> SerialConfig:
        """The [serial] table; the device must provide something, or it is a mistake."""
        self.known(table, ("serial",), ("port", "baud", "board", "dice"))
        base = SerialConfig()
        serial = SerialConfig(
            port=self.value(table, ("serial", "port"), str, base.port, _no_blank),
            baud=self.value(table, ("serial", "baud"), int, base.baud, _baud),
            board=self.value(table, ("serial", "board"), bool, base.board),
            dice=self.value(table, ("serial", "dice"), bool, base.dice),
        )
        if not (serial.board or serial.dice):
            key = "dice" if "dice" in table else "board"
            raise self.fail(("serial", key), "false is not allowed: the device must provide "
                            "the board or the dice; set board = true or dice = true (or both)")
        return serial

    def dice(self, table: Mapping[str, Any]) -> DiceConfig:
        """The [dice] table: Pixels dice must be named, each once, and a throw take no more
        of them than are named."""
        self.known(table, ("dice",), ("source", "pixels", "count"))
        source = self.value(table, ("dice", "source"), str, "button", _one_of(DICE_SOURCES))
        named = self.value(table, ("dice", "pixels"), list, [], _dice_ids)
        ids = tuple(die.strip().upper() for die in named)
        if source == "pixels" and not ids:
            raise self.fail(("dice", "source"), '"pixels" needs the dice named; write e.g. '
                            'pixels = ["1A2B3C4D", "5E6F7A8B"] (their pixel ids, as the '
                            "Pixels app shows them, or `table-companion dice pair` finds them)")
        most = len(ids) or MOST_DICE
        count = self.value(table, ("dice", "count"), int, min(len(ids) or 5, 5),
                           lambda n: None if 1 <= n <= most
                           else f"from 1 to {most}, the dice named" if ids
                           else f"from 1 to {most}")
        return DiceConfig(source, ids, count)

    def voice(self, table: Mapping[str, Any]) -> VoiceConfig:
        """The [voice] table; absent, the table is silent but for its buzzer."""
        self.known(table, ("voice",), ("engine", "device", "volume", "rate", "language"))
        base = VoiceConfig()
        return VoiceConfig(
            engine=self.value(table, ("voice", "engine"), str, base.engine,
                              _one_of(VOICE_ENGINES)),
            device=self.value(table, ("voice", "device"), str, base.device,
                              lambda v: None if v.strip() else 'an ALSA device, e.g. "default" '
                              'or "plughw:1,0" (aplay -L lists them)'),
            volume=self.value(table, ("voice", "volume"), int, base.volume,
                              lambda v: None if 0 <= v <= 200 else "from 0 to 200"),
            rate=self.value(table, ("voice", "rate"), int, base.rate,
                            lambda v: None if 80 <= v <= 450 else "from 80 to 450 words a minute"),
            language=self.value(table, ("voice", "language"), str, base.language,
                                lambda v: None if re.fullmatch(r"[a-z]{2,3}(-[a-z0-9]+)*", v)
                                else 'a language espeak-ng knows, e.g. "en" or "en-us"'),
        )

    def night(self, table: Mapping[str, Any]) -> NightConfig:
        """The [night] table: the table's name must make an id, the broker a URL."""
        self.known(table, ("night",), ("table", "broker", "credentials", "page", "ca"))
        if "table" not in table:
            raise self.fail(("night",), 'the table needs a name; write e.g. table = "Table 2"')
        name = self.value(table, ("night", "table"), str, "Table 2", _table_name)
        base = NightConfig(name)
        credentials = self.value(table, ("night", "credentials"), str, str(base.credentials),
                                 _not_empty)
        ca = self.value(table, ("night", "ca"), str, str(base.ca), _not_empty)
        line = find_line(self.text, ("night", "credentials"))
        where = f"{self.path}, line {line}" if line is not None else str(self.path)
        return NightConfig(
            table=name.strip(),
            broker=self.value(table, ("night", "broker"), str, base.broker, _broker).strip(),
            credentials=self.relative(("night", "credentials"), credentials, self.path.parent),
            page=self.value(table, ("night", "page"), str, base.page, _web_address).strip(),
            ca=self.relative(("night", "ca"), ca, self.path.parent),
            credentials_key=f"{where}: night.credentials",
        )

    def game(self, table: Mapping[str, Any], players: tuple[str, ...]) -> GameConfig:
        """The [game] table checked by the game's own rules (the default needs no check)."""
        self.known(table, ("game",), ("name", "variants"))
        name = self.value(table, ("game", "name"), str, GameConfig().name)
        try:
            cls = game_class(name)
        except UnknownGameError as err:
            raise self.fail(("game", "name"), str(err)) from None
        variants = dict(self.table(table, ("game", "variants")))
        for key, value in variants.items():
            if key not in cls.OPTIONS:
                known = ", ".join(cls.OPTIONS) or "none"
                raise self.fail(("game", "variants", key),
                                f"{cls.TITLE} has no such variant; variants: {known}")
            try:
                variants[key] = cls.OPTIONS[key].validate(key, value)
            except OptionError as err:
                raise self.fail(("game", "variants", key), str(err)) from None
        config = Config(players=players, game=GameConfig(cls.NAME, variants))
        try:
            config.setup()
        except OptionError as err:
            # the rules name the option they refuse: point at its line, not at [game]
            keys = ("game", "variants", err.option) if err.option else ("game",)
            raise self.fail(keys, str(err)) from None
        return config.game


def _one_of(choices: tuple[str, ...]) -> Callable[[str], str | None]:
    return lambda value: None if value in choices else "allowed " + " | ".join(choices)


def _names(value: list[Any]) -> str | None:
    if not value or not all(isinstance(n, str) and n.strip() for n in value):
        return 'a list of non-empty names, e.g. ["Ann", "Ben"]'
    stripped = [n.strip() for n in value]
    return "names must differ" if len(set(stripped)) != len(stripped) else None


PIXEL_ID = re.compile(r"[0-9A-F]{8}|([0-9A-F]{2}:){5}[0-9A-F]{2}")


def _dice_ids(value: list[Any]) -> str | None:
    ids = [die.strip().upper() if isinstance(die, str) else None for die in value]
    if not all(die is not None and PIXEL_ID.fullmatch(die) for die in ids):
        return ('pixel ids of eight hex digits or Bluetooth addresses, e.g. ["1A2B3C4D", '
                '"C4:5A:11:22:33:44"]')
    return "each die once" if len(set(ids)) != len(ids) else None


def _not_empty(value: str) -> str | None:
    return None if value.strip() else "a file path is needed"


def _no_blank(value: str) -> str | None:
    blank = not value.strip() or value != value.strip()
    return 'a serial port, e.g. "/dev/ttyACM0" or "/dev/serial/by-id/..."' if blank else None


def _table_name(value: str) -> str | None:
    if table_id(value) and len(value.strip()) <= MAX_TABLE_NAME:
        return None
    return (f"a name of at most {MAX_TABLE_NAME} characters with a letter or digit, "
            'e.g. "Table 2"')


MAX_TABLE_NAME = 32


def _broker(value: str) -> str | None:
    try:
        parse_broker(value)
    except ValueError as err:
        return str(err)
    return None


def _web_address(value: str) -> str | None:
    ok = re.fullmatch(r"https?://[^\s/]+(/\S*)?", value.strip()) is not None
    return None if ok else 'the hub page\'s address, e.g. "http://hub.local:8080/"'


def _baud(value: int) -> str | None:
    low, high = BAUD_RANGE
    return None if low <= value <= high else f"a baud rate from {low} to {high}, e.g. 115200"


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def find_line(text: str, keys: tuple[str, ...]) -> int | None:
    """The 1-based line where ``keys`` (a dotted key path) is set or its table begins.

    The exact key wins; otherwise the line of the nearest enclosing key or table (an inline
    table, an array, or a ``[table]`` header), so a message always points somewhere useful.
    """
    best: tuple[int, int] | None = None  # (matched depth, line)
    table: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        header = re.fullmatch(r"\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?", stripped)
        if header:
            table = _split_key(header.group(1))
            found = table
        else:
            assignment = re.match(r"((?:[A-Za-z0-9_\-\s.]|\"[^\"]*\"|'[^']*')+?)\s*=", stripped)
            if assignment is None or stripped.startswith("#"):
                continue
            found = (*table, *_split_key(assignment.group(1)))
        if found == keys[: len(found)] and (best is None or len(found) > best[0]):
            best = (len(found), number)
            if len(found) == len(keys):
                return number
    return best[1] if best is not None and best[0] > 0 else None


def _split_key(dotted: str) -> tuple[str, ...]:
    parts = re.findall(r"\"([^\"]*)\"|'([^']*)'|([^.\s]+)", dotted)
    return tuple(next((p for p in part if p), "") for part in parts)
