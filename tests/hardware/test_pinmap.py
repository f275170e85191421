"""Pin maps: loading, variants, validation messages, and the documents generated from them."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_host.cli import main
from hardware.errors import WiringError
from hardware.events import Control
from hardware.wiring.bom import render_bom
from hardware.wiring.pinmap import HEADER_40, load_pin_map, map_names, parse_pin_map
from hardware.wiring.svg import render_svg

WIRING = Path(__file__).resolve().parents[2] / "wiring"
BASE = {
    "title": "test map",
    "dice": {"button": 17},
    "controls": {"encoder": [5, 6], "select": 13, "back": 19},
    "holds": {"pins": [4, 16, 18, 26, 27]},
    "matrix": {"rows": [7, 8, 9, 10, 11, 12], "columns": [20, 21, 22, 23, 24, 25]},
    "display": {"bus": "i2c"},
}


def with_(**sections: object) -> dict[str, object]:
    return {**BASE, **sections}


def test_the_shipped_maps() -> None:
    assert map_names() == ["pi40", "pi40-buttons", "pi40-spi", "pi40-track"]
    default = load_pin_map("default")
    assert default.name == "pi40"
    assert default.dice == 17
    assert default.encoder == (5, 6)
    assert default.buttons == {Control.SELECT: 13, Control.BACK: 19, Control.HOLD1: 4,
                               Control.HOLD2: 16, Control.HOLD3: 18, Control.HOLD4: 26,
                               Control.HOLD5: 27}
    assert default.matrix.rows == (7, 8, 9, 10, 11, 12)
    assert default.matrix.cols == (20, 21, 22, 23, 24, 25)
    assert len(default.gpio_uses()) == 24  # 22 GPIOs of ours, and the I2C pair


def test_variants_replace_whole_sections_of_their_base() -> None:
    buttons = load_pin_map("pi40-buttons")
    assert buttons.encoder is None
    assert {c: buttons.buttons[c] for c in (Control.UP, Control.DOWN, Control.SELECT,
                                            Control.BACK)} == {
        Control.UP: 5, Control.DOWN: 6, Control.SELECT: 13, Control.BACK: 19}
    assert buttons.matrix == load_pin_map("pi40").matrix
    track = load_pin_map("pi40-track")
    assert (track.matrix.layout, len(track.matrix.rows), len(track.matrix.cols)) == \
        ("track", 3, 4)
    assert Control.HOLD1 not in track.buttons
    assert [track.matrix.label(0, 0), track.matrix.label(1, 0), track.matrix.label(2, 3)] == \
        ["box 1", "box 5", "box 12"]
    spi = load_pin_map("pi40-spi")  # based on pi40-buttons, itself based on pi40
    assert spi.encoder is None
    assert (spi.display.bus, spi.display.dc, spi.display.reset) == ("spi", 24, 25)
    assert spi.display.claimed() == [("MISO", 9), ("CE1", 7)]


def test_the_header_table_agrees_with_gpiozero() -> None:
    header = MockFactory().board_info.headers["J8"]
    for number, signal in enumerate(HEADER_40, start=1):
        names = header.pins[number].names
        assert signal in names or (signal == "GND" and "GND" in names), (number, names)


def test_a_pin_used_twice_names_both_uses() -> None:
    with pytest.raises(WiringError) as caught:
        parse_pin_map(with_(dice={"button": 20}), "mine")
    assert str(caught.value) == (
        "pin map mine: GPIO20 is used twice: dice button and matrix column A; move one of "
        "them to a free pin (free: GPIO14, GPIO15, GPIO17)")


def test_an_i2c_pin_reused_names_the_oled() -> None:
    holds = {"pins": [4, 16, 18, 26, 2]}
    with pytest.raises(WiringError, match=r"^pin map mine: GPIO2 is used twice: hold button 5 "
                                          r"and OLED SDA; "):
        parse_pin_map(with_(holds=holds), "mine")


def test_an_spi_pin_reused_names_the_bus() -> None:
    with pytest.raises(WiringError, match=r"^pin map mine: GPIO10 is used twice: matrix row 4 "
                                          r"and OLED D1 \(MOSI\); "):
        parse_pin_map(with_(display={"bus": "spi", "dc": 2, "reset": 3}), "mine")
    one_row = {"rows": [7], "columns": [20, 21, 22, 23, 24, 25]}
    with pytest.raises(WiringError, match=r"^pin map mine: GPIO7 is used twice: matrix row 1 "
                                          r"and SPI0 CE1 \(taken by the bus\); "):
        parse_pin_map(with_(display={"bus": "spi", "dc": 2, "reset": 3}, matrix=one_row),
                      "mine")
    with pytest.raises(WiringError, match=r"^pin map mine: GPIO17 is used twice: dice button "
                                          r"and OLED RES; "):
        parse_pin_map(with_(display={"bus": "spi", "dc": 2, "reset": 17}, matrix=one_row),
                      "mine")


def test_a_gpio_out_of_range_is_named() -> None:
    with pytest.raises(WiringError) as caught:
        parse_pin_map(with_(dice={"button": 28}), "mine")
    assert str(caught.value) == ("pin map mine: dice button is on GPIO28, but a 40-pin Pi has "
                                 "GPIO0 to GPIO27")


@pytest.mark.parametrize(("change", "message"), [
    ({"dice": {"button": "17"}},
     "pin map mine: dice.button must be a GPIO (BCM) number such as 17, not '17'"),
    ({"dice": {"pin": 17}}, "pin map mine: [dice] has no key 'pin'; allowed: button"),
    ({"colour": "red"}, "pin map mine: has no key 'colour'; allowed: base, controls, dice, "
                        "display, holds, matrix, sound, title"),
    ({"sound": {"buzzer": 18, "kind": "loud"}},
     "pin map mine: sound.kind cannot be 'loud'; allowed: 'passive' | 'active'"),
    ({"controls": {"select": 13}},
     "pin map mine: [controls] needs select, and either encoder = [A, B] or both up and down"),
    ({"controls": {"encoder": [5], "select": 13}},
     "pin map mine: controls.encoder needs 2 pins, not 1"),
    ({"holds": {"pins": [4, 16, 18, 26, 27, 14]}}, "pin map mine: holds.pins needs 0 to 5 "
                                                   "pins, not 6"),
    ({"matrix": {"rows": list(range(2, 11)), "columns": [20]}},
     "pin map mine: matrix.rows needs 1 to 8 pins, not 9"),
    ({"matrix": {"layout": "track", "rows": [7, 8], "columns": [20, 21, 22, 23]}},
     "pin map mine: a track has 12 boxes, so rows x columns must be 12 (e.g. 3 x 4), not 2 x 4"),
    ({"matrix": {"layout": "ring", "rows": [7], "columns": [20]}},
     "pin map mine: matrix.layout cannot be 'ring'; allowed: 'grid' | 'track'"),
    ({"display": {"bus": "i2c", "dc": 24}},
     "pin map mine: chip_select, dc and reset are for bus = \"spi\"; an I2C display uses "
     "GPIO2 and GPIO3 only"),
    ({"display": {"bus": "spi", "reset": 24}},
     "pin map mine: display.dc must be a GPIO (BCM) number such as 17, not None"),
    ({"title": ""}, "pin map mine: title must be a short description, not ''"),
])
def test_bad_maps_say_what_is_wrong(change: dict[str, object], message: str) -> None:
    with pytest.raises(WiringError) as caught:
        parse_pin_map(with_(**change), "mine")
    assert str(caught.value) == message


def test_a_buzzer_is_optional_and_takes_one_pin_of_its_own() -> None:
    assert load_pin_map("pi40").buzzer is None
    track = load_pin_map("pi40-track")
    assert (track.buzzer, track.buzzer_kind) == (18, "passive")
    assert ("buzzer", 18) in track.gpio_uses()
    assert [(w.pin, w.terminal, w.signal) for w in track.wires() if w.part == "buzzer"] == [
        (12, "+", "GPIO18"), (14, "-", "GND")]
    with pytest.raises(WiringError, match="GPIO4 is used twice: hold button 1 and buzzer"):
        parse_pin_map(with_(sound={"buzzer": 4}), "mine")
    assert "buzzer" in render_svg(track) and "Piezo buzzer" in render_bom([track])


def test_a_map_file_may_extend_a_shipped_map(tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text('base = "pi40"\ntitle = "mine"\n[dice]\nbutton = 14\n')
    pin_map = load_pin_map(str(mine))
    assert (pin_map.name, pin_map.title, pin_map.dice) == ("mine", "mine", 14)
    loop = tmp_path / "loop.toml"
    loop.write_text('base = "loop.toml"\ntitle = "loop"\n')
    with pytest.raises(WiringError, match="its bases loop: loop -> loop"):
        load_pin_map(str(loop))
    with pytest.raises(WiringError, match=r"^no pin map 'pi50'; the maps are pi40, "):
        load_pin_map("pi50")
    broken = tmp_path / "broken.toml"
    broken.write_text("title = \n")
    with pytest.raises(WiringError, match=r"^pin map \S+broken.toml, line 1, column 9: not valid "
                                          "TOML: Invalid value$"):
        load_pin_map(str(broken))


def test_every_wire_lands_on_the_right_header_pin() -> None:
    wires = {(w.part, w.terminal): (w.pin, w.signal) for w in load_pin_map("pi40").wires()}
    assert wires[("dice button", "switch")] == (11, "GPIO17")
    assert wires[("rotary encoder", "SW1 (SELECT)")] == (33, "GPIO13")
    assert wires[("reed-switch board", "row 1")] == (26, "GPIO7")
    assert wires[("OLED", "SDA")] == (3, "GPIO2")
    assert wires[("OLED", "VCC")] == (1, "3V3")
    assert wires[("hold buttons", "GND")] == (39, "GND")


@pytest.mark.parametrize("name", ["pi40", "pi40-buttons", "pi40-spi", "pi40-track"])
def test_the_committed_diagrams_regenerate_identically(name: str) -> None:
    assert render_svg(load_pin_map(name)) == (WIRING / f"{name}.svg").read_text()


def test_the_committed_bill_of_materials_regenerates_identically() -> None:
    maps = [load_pin_map(name) for name in map_names()]
    assert render_bom(maps) == (WIRING / "BOM.md").read_text()
    bom = (WIRING / "BOM.md").read_text()
    assert "| Reed switch, normally open, glass body about 14 mm (one per cell) " \
           "| 36 | 36 | 12 | 12 |" in bom


def test_wiring_prints_the_pin_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wiring", "--map", "pi40-spi"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "pin map pi40-spi: four buttons, 12-box track, SPI OLED"
    assert lines[1] == " pin  signal  part               terminal"
    assert "  19  GPIO10  OLED               D1 (MOSI)" in lines
    assert "  11  GPIO17  dice button        switch" in lines
    assert lines[-1] == "SPI0 also takes GPIO9 (MISO) and GPIO7 (CE1): leave them unconnected."


def test_wiring_lists_maps_and_refuses_unknown_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wiring", "--list"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "pi40           rotary encoder, hold buttons, 6x6 board, I2C OLED  (default)")
    with pytest.raises(SystemExit) as exited:
        main(["wiring", "--map", "pi50"])
    assert exited.value.code == 2
    assert capsys.readouterr().err.startswith("table-companion wiring: error: no pin map 'pi50'")


def test_wiring_writes_the_documents(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wiring", "--write-docs", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "BOM.md", "pi40-buttons.svg", "pi40-spi.svg", "pi40-track.svg", "pi40.svg"]
    assert (tmp_path / "pi40.svg").read_text() == (WIRING / "pi40.svg").read_text()
    assert main(["wiring", "--json"]) == 0
