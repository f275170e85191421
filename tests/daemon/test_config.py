"""The config file: defaults without one, and every mistake located by file, line and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host import config as config_module
from firmware_host.config import (
    Config,
    ConfigError,
    DiceConfig,
    GameConfig,
    SerialConfig,
    VoiceConfig,
    find_line,
    load,
    parse,
)
from hardware.display.factory import OledConfig

ROOT = Path(__file__).parents[2]
FILE = Path("/etc/table-companion/config.toml")


def error_of(text: str) -> str:
    with pytest.raises(ConfigError) as err:
        parse(text, FILE)
    return str(err.value)


def test_no_file_at_the_default_path_means_the_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(config_module, "DEFAULT_PATH", tmp_path / "absent.toml")
    assert load() == Config()
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    assert Config().journal == Path.home() / ".local/state/table-companion/journal.sqlite3"
    assert Config().display == OledConfig(controller="ssd1306", interface="i2c", i2c_bus=1,
                                          i2c_address=0x3C)


def test_the_shipped_example_states_the_defaults() -> None:
    pytest.importorskip("games.dalmatian", reason="the example names Dalmatian, not built yet")
    assert load(ROOT / "systemd" / "config.toml") == Config()


def test_an_empty_file_is_the_defaults_too() -> None:
    assert parse("", FILE) == Config()


def test_a_full_file_is_read_into_typed_values(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        'pin_map = "pi40-spi"\n'
        'players = ["Ann", " Ben "]\n'
        'journal = "state/journal.sqlite3"\n'
        "hint = false\n"
        "[display]\n"
        'type = "sh1106"\n'
        'bus = "spi"\n'
        "rotate = 2\n"
        "[game]\n"
        'name = "Centennial"\n'
        "[game.variants]\n"
        'mode = "declare"\n'
        'dice_reuse = "false"\n'
    )
    assert load(path) == Config(
        pin_map="pi40-spi",
        players=("Ann", "Ben"),
        journal=tmp_path / "state" / "journal.sqlite3",
        hint=False,
        display=OledConfig(controller="sh1106", interface="spi", rotate=2, spi_device=0,
                           dc_pin=24, reset_pin=25),
        game=GameConfig("centennial", {"mode": "declare", "dice_reuse": False}),
    )


def test_the_emulator_needs_no_panel_settings() -> None:
    assert parse('[display]\ntype = "emulator"\n', FILE).display is None


def test_a_syntax_error_names_line_and_column() -> None:
    assert error_of('hint = true\n[display]\ntype = ssd1306\n') == (
        f"{FILE}, line 3, column 8: not valid TOML: Invalid value"
    )


def test_a_bad_choice_names_the_line_the_key_and_what_is_allowed() -> None:
    text = '# screen\n\n[display]\nbus = "i2c"\ntype = "ssd1307"\n'
    assert error_of(text) == (
        f'{FILE}, line 5: display.type: "ssd1307" is not allowed: '
        "allowed ssd1306 | sh1106 | emulator"
    )


def test_a_value_of_the_wrong_type_says_what_to_write() -> None:
    assert error_of('[display]\ni2c_bus = "one"\n') == (
        f'{FILE}, line 2: display.i2c_bus: "one" is not an integer; write e.g. 1'
    )
    assert error_of('hint = "yes"\n') == (
        f'{FILE}, line 1: hint: "yes" is not true or false; write e.g. true'
    )


def test_the_panels_own_limits_are_reported_at_their_key() -> None:
    assert error_of("[display]\n\ni2c_address = 0x90\n") == (
        f"{FILE}, line 3: display.i2c_address: 0x90 is not supported; "
        "use 0x03 to 0x77 (usually 0x3C)"
    )
    assert error_of("display.rotate = 1\n") == (
        f"{FILE}, line 1: display.rotate: 1 is not supported; use 0 or 2"
    )


def test_an_unknown_key_lists_the_known_ones() -> None:
    assert error_of('pins = "x"\n') == (
        f"{FILE}, line 1: pins: unknown key; allowed keys: "
        "pin_map, players, journal, hint, long_press, sound, display, game, serial, night, "
        "pin_library, dice, voice"
    )
    assert error_of("[display]\nwidth = 128\n").startswith(
        f"{FILE}, line 2: display.width: unknown key; allowed keys: type, bus, i2c_bus,"
    )


def test_an_unknown_game_lists_the_games() -> None:
    assert error_of('[game]\nname = "chess"\n') == (
        f"{FILE}, line 2: game.name: no game 'chess'; "
        "games: centennial, sequence, centerpoint, dalmatian, multigam"
    )


def test_the_game_is_named_in_any_case_or_by_its_title() -> None:
    for name in ("Sequence Dice", "SEQUENCE", "sequence-dice"):
        assert parse(f'[game]\nname = "{name}"\n', FILE).game.name == "sequence"


def test_variants_are_checked_by_the_games_own_options() -> None:
    head = '[game]\nname = "centennial"\n[game.variants]\n'
    assert error_of(head + 'mode = "fast"\n') == (
        f"{FILE}, line 4: game.variants.mode: option 'mode' cannot be 'fast': "
        "allowed auto | declare"
    )
    assert error_of(head + "dice_reuse = true\nspeed = 2\n") == (
        f"{FILE}, line 5: game.variants.speed: Centennial has no such variant; variants: "
        "mode, dice_reuse, claim_chain, claim_mode, roll_again"
    )
    inline = '[game]\nname = "centennial"\nvariants = { mode = "slow" }\n'
    assert error_of(inline).startswith(f"{FILE}, line 3: game.variants.mode: option 'mode'")
    # a refusal of the whole setup names the option it refuses, and so its line
    dalmatian = '[game]\nname = "dalmatian"\n[game.variants]\nround_winner_only = true\n'
    dalmatian += "rounds = 99\n"
    assert error_of(dalmatian) == (
        f"{FILE}, line 5: game.variants.rounds: option 'rounds' cannot be 99: "
        "1 to 24 allowed"
    )


def test_player_names_must_be_distinct_and_present() -> None:
    assert error_of('players = ["Ann", "Ann"]\n') == (
        f'{FILE}, line 1: players: ["Ann", "Ann"] is not allowed: names must differ'
    )
    assert error_of('players = ["Ann", " "]\n').startswith(
        f'{FILE}, line 1: players: ["Ann", " "] is not allowed: a list of non-empty names'
    )
    assert error_of("players = []\n").startswith(f"{FILE}, line 1: players: [] is not allowed")


def test_the_pin_map_must_exist_and_agree_with_the_display_bus(tmp_path: Path) -> None:
    assert error_of('pin_map = "hat"\n') == (
        f"{FILE}, line 1: pin_map: no pin map 'hat'; the maps are pi40, pi40-buttons, "
        "pi40-spi, pi40-track (or give the path of a .toml file)"
    )
    assert error_of('pin_map = "pi40"\n[display]\nbus = "spi"\n') == (
        f'{FILE}, line 3: display.bus: "spi" is not allowed: pin map pi40 wires the OLED to '
        'i2c; write bus = "i2c" or choose a pin map with an spi OLED'
    )


def test_a_pin_map_file_is_found_beside_the_config(tmp_path: Path) -> None:
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "mine.toml").write_text('base = "pi40-spi"\ntitle = "mine"\n')
    config = parse('pin_map = "maps/mine.toml"\n', tmp_path / "config.toml")
    assert config.pin_map == str(tmp_path / "maps" / "mine.toml")
    assert config.display is not None and config.display.interface == "spi"


def test_a_missing_or_unreadable_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"absent.toml: no such file; give an existing"):
        load(tmp_path / "absent.toml")
    with pytest.raises(ConfigError, match=r": not a regular file \(a folder, a FIFO or a device\)"):
        load(tmp_path)  # a folder


def test_the_setup_takes_as_many_configured_players_as_the_game_allows() -> None:
    config = Config(players=("Ann",), game=GameConfig("centennial", {"mode": "declare"}))
    setup = config.setup()
    assert setup.names == ("Ann", "P2")
    assert setup.options["mode"] == "declare"
    assert config.setup(players=3).names == ("Ann", "P2", "P3")
    assert Config(players=("P2",)).names_for(3) == ("P2", "P3", "P4")
    other = Config(players=tuple("ABCDEF"), game=GameConfig("centennial", {"mode": "declare"}))
    assert other.setup("sequence").names == ("A", "B", "C", "D")
    assert other.setup("sequence").options["sequence_length"] == 5  # variants stay with their game


def test_find_line_knows_tables_dotted_and_quoted_keys() -> None:
    text = (
        'hint = true\n'
        '[display]\n'
        '  "type" = "sh1106"  # quoted\n'
        '[game]\n'
        'variants.mode = "auto"\n'
        '[game.variants]\n'
        "claim_mode = 'turn_order'\n"
    )
    assert find_line(text, ("display", "type")) == 3
    assert find_line(text, ("game", "variants", "mode")) == 5
    assert find_line(text, ("game", "variants", "claim_mode")) == 7
    assert find_line(text, ("game", "name")) == 4  # absent: its table
    assert find_line(text, ("pin_map",)) is None


def test_a_section_given_as_a_value_is_refused() -> None:
    assert error_of('display = "oled"\n') == (
        f'{FILE}, line 1: display: "oled" is not a table; write a [display] section'
    )
    assert error_of('[game]\nname = "centennial"\nvariants = 3\n') == (
        f"{FILE}, line 3: game.variants: 3 is not a table; write a [game.variants] section"
    )


def test_a_serial_section_names_the_device_and_what_it_provides() -> None:
    assert Config().serial is None
    assert parse("[serial]\n", FILE).serial == SerialConfig(
        port="/dev/ttyACM0", baud=115200, board=False, dice=True)
    text = '[serial]\nport = "loop://"\nbaud = 9600\nboard = true\ndice = false\n'
    assert parse(text, FILE).serial == SerialConfig("loop://", 9600, board=True, dice=False)


def test_the_shipped_serial_example_reads_when_uncommented() -> None:
    text = (ROOT / "systemd" / "config.toml").read_text()
    head, _, tail = text.partition("# [serial]")
    lines = ["[serial]", *(line[2:] if line[2:].split(" ")[0] in
                           ("port", "baud", "board", "dice") else line
                           for line in tail.splitlines())]
    assert parse(head + "\n".join(lines), FILE).serial == SerialConfig()


def test_a_voice_section_asks_for_a_speaker_and_says_how_it_speaks() -> None:
    assert Config().voice == VoiceConfig() and not Config().voice.on
    text = ('[voice]\nengine = "espeak-ng"\ndevice = "plughw:1,0"\nvolume = 150\n'
            'rate = 200\nlanguage = "en-us"\n')
    assert parse(text, FILE).voice == VoiceConfig("espeak-ng", "plughw:1,0", 150, 200, "en-us")
    head, _, tail = (ROOT / "systemd" / "config.toml").read_text().partition("# [voice]")
    lines = ["[voice]", *(line[2:] if line[2:].split(" ")[0] in
                          ("engine", "device", "volume", "rate", "language") else line
                          for line in tail.splitlines())]
    assert parse(head + "\n".join(lines), FILE).voice == VoiceConfig(engine="espeak-ng")
    assert error_of('[voice]\nengine = "piper"\n') == (
        f'{FILE}, line 2: voice.engine: "piper" is not allowed: allowed none | espeak-ng')
    assert error_of("[voice]\nvolume = 300\n") == (
        f"{FILE}, line 2: voice.volume: 300 is not allowed: from 0 to 200")
    assert error_of("[voice]\nspeed = 1\n") == (
        f"{FILE}, line 2: voice.speed: unknown key; allowed keys: engine, device, volume, "
        "rate, language")


def test_serial_mistakes_name_the_key_and_what_is_allowed() -> None:
    assert error_of("[serial]\nbaud = 5\n") == (
        f"{FILE}, line 2: serial.baud: 5 is not allowed: a baud rate from 300 to 4000000, "
        "e.g. 115200")
    assert error_of('[serial]\nport = ""\n').startswith(
        f'{FILE}, line 2: serial.port: "" is not allowed: a serial port, e.g. "/dev/ttyACM0"')
    assert error_of("[serial]\nboard = false\ndice = false\n") == (
        f"{FILE}, line 3: serial.dice: false is not allowed: the device must provide the "
        "board or the dice; set board = true or dice = true (or both)")
    assert error_of("[serial]\nspeed = 1\n") == (
        f"{FILE}, line 2: serial.speed: unknown key; allowed keys: port, baud, board, dice")
    assert error_of('serial = "/dev/ttyACM0"\n') == (
        f'{FILE}, line 1: serial: "/dev/ttyACM0" is not a table; write a [serial] section')


def test_the_long_press_takes_one_of_its_actions() -> None:
    assert error_of('long_press = "reboot"\n') == (
        f'{FILE}, line 1: long_press: "reboot" is not allowed: allowed menu | undo | dice | moves')


def test_a_dice_section_names_the_pixels_dice_and_the_count() -> None:
    assert Config().dice == DiceConfig("button", (), 5)
    text = '[dice]\nsource = "pixels"\npixels = ["1a2b3c4d", "C4:5A:11:22:33:44", "00000001"]\n'
    assert parse(text, FILE).dice == DiceConfig(
        "pixels", ("1A2B3C4D", "C4:5A:11:22:33:44", "00000001"), 3)
    assert parse(text + "count = 2\n", FILE).dice.count == 2


def test_the_shipped_dice_example_reads_when_uncommented() -> None:
    text = (ROOT / "systemd" / "config.toml").read_text()
    head, _, tail = text.partition("# [dice]")
    body, _, rest = tail.partition("\n\n")
    lines = ["[dice]", *(line[2:] if line[2:].split(" ")[0] in ("source", "pixels", "count")
                         else line for line in body.splitlines())]
    dice = parse(head + "\n".join(lines) + "\n\n" + rest, FILE).dice
    assert dice.source == "pixels" and len(dice.pixels) == dice.count == 5


def test_dice_mistakes_name_the_key_and_what_is_allowed() -> None:
    assert error_of('[dice]\nsource = "godice"\n') == (
        f'{FILE}, line 2: dice.source: "godice" is not allowed: allowed button | pixels')
    assert error_of('[dice]\nsource = "pixels"\n').startswith(
        f'{FILE}, line 2: dice.source: "pixels" needs the dice named; write e.g. pixels = [')
    assert error_of('[dice]\npixels = ["1A2B3C4"]\n') == (
        f'{FILE}, line 2: dice.pixels: ["1A2B3C4"] is not allowed: pixel ids of eight hex '
        'digits or Bluetooth addresses, e.g. ["1A2B3C4D", "C4:5A:11:22:33:44"]')
    assert error_of('[dice]\npixels = ["1A2B3C4D", "1a2b3c4d"]\n').endswith(
        "is not allowed: each die once")
    assert error_of('[dice]\npixels = ["1A2B3C4D"]\ncount = 2\n') == (
        f"{FILE}, line 3: dice.count: 2 is not allowed: from 1 to 1, the dice named")
    assert error_of("[dice]\ncount = 0\n") == (
        f"{FILE}, line 2: dice.count: 0 is not allowed: from 1 to 10")
    assert error_of("[dice]\nport = 1\n") == (
        f"{FILE}, line 2: dice.port: unknown key; allowed keys: source, pixels, count")
