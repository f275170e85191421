"""The bill of materials for the pin maps, as a Markdown table with one column per map.

Quantities come from the maps (a reed switch and a diode per cell, one wire per header
connection), so the list changes when a map does. Parts every build needs whatever the map
(the Pi, its power supply) are listed once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hardware.wiring.pinmap import HOLDS, PinMap

TRACK_MAGNETS = 8  # one marker per player, up to 8 players on the Centennial track

Count = Callable[[PinMap], int]


def _cells(m: PinMap) -> int:
    return len(m.matrix.rows) * len(m.matrix.cols)


ITEMS: tuple[tuple[str, Count], ...] = (
    ("Raspberry Pi with the 40-pin header (Zero 2 W, 3, 4 or 5) with its power supply and a "
     "microSD card",
     lambda m: 1),
    ("Arcade push button, 30 mm, normally open (ROLL)", lambda m: 1),
    ("Rotary encoder with push switch, EC11 type, 20 detents, with a knob",
     lambda m: int(m.encoder is not None)),
    ("Push button, 12 mm, normally open, for the menu (BACK beside a knob; UP, DOWN, SELECT "
     "and BACK without one)",
     lambda m: len(m.loose_buttons())),
    ("Push button, 12 mm, normally open (Dalmatian holds 1-5)",
     lambda m: sum(control in m.buttons for control in HOLDS)),
    ("Reed switch, normally open, glass body about 14 mm (one per cell)", _cells),
    ("Diode 1N4148 (one per reed switch, against ghosting)", _cells),
    ("Neodymium disc magnet 6 x 2 mm (one under each piece)",
     lambda m: _cells(m) if m.matrix.layout == "grid" else TRACK_MAGNETS),
    ("OLED 128x64, SSD1306 or SH1106 controller, I2C (4 pins: GND VCC SCL SDA)",
     lambda m: int(m.display.bus == "i2c")),
    ("OLED 128x64, SSD1306 or SH1106 controller, SPI (7 pins: GND VCC D0 D1 RES DC CS)",
     lambda m: int(m.display.bus == "spi")),
    ("Piezo buzzer, passive, 3.3 V, about 12 mm (optional: chirps, refusals, a tune)",
     lambda m: int(m.buzzer is not None and m.buzzer_kind == "passive")),
    ("Buzzer, active, 3.3 V (optional: chirps, refusals, a tune at one pitch)",
     lambda m: int(m.buzzer is not None and m.buzzer_kind == "active")),
    ("Jumper wire, female to female, 20 cm (one per header connection)",
     lambda m: len(m.wires())),
    ("Stripboard, about 10 x 10 cm, and hook-up wire for the matrix", lambda m: 1),
)


def render_bom(maps: Sequence[PinMap]) -> str:
    """The bill of materials for ``maps`` as Markdown."""
    lines = [
        "# Bill of materials",
        "",
        "Generated from the pin maps by `table-companion wiring --write-docs wiring`;",
        "do not edit by hand. One column per map (`table-companion wiring --list`).",
        "",
        "| part | " + " | ".join(f"`{m.name}`" for m in maps) + " |",
        "|---|" + "---:|" * len(maps),
    ]
    for part, count in ITEMS:
        counts = [count(m) for m in maps]
        if any(counts):
            lines.append(f"| {part} | " + " | ".join(str(c) for c in counts) + " |")
    lines += ["", "What each map is:", ""]
    lines += [f"- `{m.name}`: {m.title}" for m in maps]
    return "\n".join(lines) + "\n"
