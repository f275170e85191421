"""Pin maps: which GPIO each part uses, read from the TOML files in ``wiring/``.

The same data builds the drivers, prints the pin table (``table-companion wiring``) and draws
the wiring diagrams, so the documents cannot drift from the code. A map may name a ``base``
map and replace whole sections of it; that is how the variants are written.

A map is checked as it is loaded: every GPIO number must be 0 to 27 (a 40-pin Pi 3, 4 or 5),
no pin may serve two parts, and the OLED's bus claims its pins (I2C1: GPIO2 and GPIO3; SPI0:
GPIO7 to GPIO11, both chip selects included, since enabling SPI0 takes them all). An error
names the map, the pin and both of its uses.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from hardware.board.matrix import DEBOUNCE_S, MAX_SIZE, cell_name, column_letter
from hardware.errors import WiringError
from hardware.events import Control
from hardware.tomlfile import TomlFileError
from hardware.tomlfile import load as load_toml
from hardware.tomlreader import Keys, TomlReader, within

DEFAULT_MAP = "pi40"
GPIO_RANGE = range(28)
TRACK_BOXES = 12
CONTROL_KEYS = {"up": Control.UP, "down": Control.DOWN, "select": Control.SELECT,
                "back": Control.BACK}
HOLDS = (Control.HOLD1, Control.HOLD2, Control.HOLD3, Control.HOLD4, Control.HOLD5)
LAYOUTS = ("grid", "track")
SETTLE_MS_RANGE = (10, 500)  # below 10 ms a reed bounce passes; above 0.5 s a move feels late
I2C1 = {"SDA": 2, "SCL": 3}
SPI0 = {"MOSI": 10, "MISO": 9, "SCLK": 11, "CE0": 8, "CE1": 7}

HEADER_40 = (
    "3V3", "5V", "GPIO2", "5V", "GPIO3", "GND", "GPIO4", "GPIO14", "GND", "GPIO15",
    "GPIO17", "GPIO18", "GPIO27", "GND", "GPIO22", "GPIO23", "3V3", "GPIO24", "GPIO10", "GND",
    "GPIO9", "GPIO25", "GPIO11", "GPIO8", "GND", "GPIO7", "GPIO0", "GPIO1", "GPIO5", "GND",
    "GPIO6", "GPIO12", "GPIO13", "GND", "GPIO19", "GPIO16", "GPIO26", "GPIO20", "GND", "GPIO21",
)
"""What each physical pin of the 40-pin header carries; index 0 is pin 1."""

POWER_PIN = 1  # 3V3 for the OLED
OLED_GROUND_PIN = 9
BUZZER_GROUND_PIN = 14
BUZZER_KINDS = ("passive", "active")  # a piezo disc played with tones, or a self-driven one
SWITCH_GROUND_PIN = 39  # the common of every button and of the encoder
T = TypeVar("T")


def physical_pin(gpio: int) -> int:
    """The header pin (1-40) that carries ``gpio``."""
    return HEADER_40.index(f"GPIO{gpio}") + 1


@dataclass(frozen=True)
class Wire:
    """One connection: a header pin to a terminal of a part."""

    pin: int  # physical, 1-40
    part: str
    terminal: str

    @property
    def signal(self) -> str:
        return HEADER_40[self.pin - 1]


@dataclass(frozen=True)
class MatrixPins:
    """The reed-switch matrix: row pins (driven) and column pins (read)."""

    rows: tuple[int, ...]
    cols: tuple[int, ...]
    layout: str = "grid"  # "grid": cells A1..; "track": boxes 1-12 in row order
    debounce: float = DEBOUNCE_S  # seconds a cell's reading must hold before it counts

    def label(self, row: int, col: int) -> str:
        """What the builder and the player call the cell: "B3", or "box 7" on a track."""
        if self.layout == "track":
            return f"box {row * len(self.cols) + col + 1}"
        return cell_name(row, col)


@dataclass(frozen=True)
class DisplayPins:
    """How the OLED is wired: I2C1, or SPI0 with its chip select, DC and reset pins."""

    bus: str = "i2c"
    chip_select: int = 0
    dc: int | None = None
    reset: int | None = None

    def signals(self) -> list[tuple[str, int]]:
        """(OLED terminal, GPIO) for each signal wired to the display."""
        if self.bus == "i2c":
            return list(I2C1.items())
        assert self.dc is not None and self.reset is not None
        return [("D1 (MOSI)", SPI0["MOSI"]), ("D0 (SCLK)", SPI0["SCLK"]),
                ("CS", SPI0[f"CE{self.chip_select}"]), ("DC", self.dc), ("RES", self.reset)]

    def claimed(self) -> list[tuple[str, int]]:
        """(SPI0 signal, GPIO) that enabling the bus takes although nothing is wired to it."""
        if self.bus == "i2c":
            return []
        return [(name, SPI0[name]) for name in ("MISO", f"CE{1 - self.chip_select}")]


@dataclass(frozen=True)
class PinMap:
    """Every part's pins; valid by construction (see the module docstring)."""

    name: str
    title: str
    dice: int
    buttons: Mapping[Control, int]
    encoder: tuple[int, int] | None
    matrix: MatrixPins
    display: DisplayPins = field(default_factory=DisplayPins)
    buzzer: int | None = None  # the optional piezo buzzer's GPIO
    buzzer_kind: str = "passive"  # one of BUZZER_KINDS

    def __post_init__(self) -> None:
        seen: dict[int, str] = {}
        for use, gpio in self.gpio_uses():
            if gpio not in GPIO_RANGE:
                raise WiringError(f"pin map {self.name}: {use} is on GPIO{gpio}, but a 40-pin "
                                  "Pi has GPIO0 to GPIO27")
            if gpio in seen:
                raise WiringError(
                    f"pin map {self.name}: GPIO{gpio} is used twice: {seen[gpio]} and {use}; "
                    f"move one of them to a free pin ({self._free_text()})")
            seen[gpio] = use

    def gpio_uses(self) -> list[tuple[str, int]]:
        """(what, GPIO) for every GPIO the map uses, display bus included, in part order."""
        uses = [("dice button", self.dice)]
        if self.encoder is not None:
            uses += [("encoder A", self.encoder[0]), ("encoder B", self.encoder[1])]
        uses += [(button_use(control), gpio) for control, gpio in self.buttons.items()]
        uses += [(f"matrix row {r + 1}", gpio) for r, gpio in enumerate(self.matrix.rows)]
        uses += [(f"matrix column {column_letter(c)}", gpio)
                 for c, gpio in enumerate(self.matrix.cols)]
        uses += [(f"OLED {terminal}", gpio) for terminal, gpio in self.display.signals()]
        uses += [(f"SPI0 {signal} (taken by the bus)", gpio)
                 for signal, gpio in self.display.claimed()]
        uses += [("buzzer", self.buzzer)] if self.buzzer is not None else []
        return uses

    def wires(self) -> list[Wire]:
        """Every wire from the header to a part, power and ground included, in part order."""
        wires = [Wire(physical_pin(self.dice), "dice button", "switch"),
                 Wire(SWITCH_GROUND_PIN, "dice button", "GND")]
        if self.encoder is not None:  # its push switch is SELECT
            wires += [Wire(physical_pin(self.encoder[0]), "rotary encoder", "A"),
                      Wire(physical_pin(self.encoder[1]), "rotary encoder", "B"),
                      Wire(physical_pin(self.buttons[Control.SELECT]), "rotary encoder",
                           "SW1 (SELECT)"),
                      Wire(SWITCH_GROUND_PIN, "rotary encoder", "C and SW2 (GND)")]
        for part, controls in (("buttons", self.loose_buttons()), ("hold buttons", HOLDS)):
            mine = [c for c in controls if c in self.buttons]
            wires += [Wire(physical_pin(self.buttons[c]), part, c.name) for c in mine]
            wires += [Wire(SWITCH_GROUND_PIN, part, "GND")] if mine else []
        wires += [Wire(physical_pin(gpio), "reed-switch board", f"row {r + 1}")
                  for r, gpio in enumerate(self.matrix.rows)]
        wires += [Wire(physical_pin(gpio), "reed-switch board", f"column {column_letter(c)}")
                  for c, gpio in enumerate(self.matrix.cols)]
        wires += [Wire(POWER_PIN, "OLED", "VCC"), Wire(OLED_GROUND_PIN, "OLED", "GND")]
        wires += [Wire(physical_pin(gpio), "OLED", terminal)
                  for terminal, gpio in self.display.signals()]
        if self.buzzer is not None:
            wires += [Wire(physical_pin(self.buzzer), "buzzer", "+"),
                      Wire(BUZZER_GROUND_PIN, "buzzer", "-")]
        return wires

    def loose_buttons(self) -> list[Control]:
        """The menu controls that are push buttons of their own (not the encoder's push)."""
        return [c for c in CONTROL_KEYS.values() if c in self.buttons
                and not (c is Control.SELECT and self.encoder is not None)]

    def _free_text(self) -> str:
        used = {gpio for _use, gpio in self.gpio_uses()}
        free = [f"GPIO{g}" for g in GPIO_RANGE if g not in used and g not in (0, 1)]
        return "free: " + ", ".join(free) if free else "no pin is free"


def button_use(control: Control) -> str:
    if control in HOLDS:
        return f"hold button {HOLDS.index(control) + 1}"
    return f"{control.name} button"


def map_names() -> list[str]:
    """The pin maps shipped in ``wiring/``, by name."""
    return sorted(p.name.removesuffix(".toml") for p in resources.files("wiring").iterdir()
                  if p.name.endswith(".toml"))


def load_pin_map(name_or_path: str) -> PinMap:
    """A shipped map by name ("default" is :data:`DEFAULT_MAP`) or a map in a TOML file."""
    name = DEFAULT_MAP if name_or_path == "default" else name_or_path
    data = _read_with_bases(name, [])
    return parse_pin_map(data, Path(name).stem)


def parse_pin_map(data: Mapping[str, Any], name: str) -> PinMap:
    """Check and type one map's TOML data (its base already merged in)."""
    reader = _Reader(name)
    reader.known(data, (), {"base", "title", "dice", "controls", "holds", "matrix", "display",
                            "sound"})
    dice = reader.table(data, ("dice",), {"button"}, required=True)
    controls = reader.table(data, ("controls",), {"encoder", *CONTROL_KEYS}, required=True)
    holds = reader.table(data, ("holds",), {"pins"})
    matrix = reader.table(data, ("matrix",), {"layout", "rows", "columns", "settle_ms"},
                          required=True)
    display = reader.table(data, ("display",), {"bus", "chip_select", "dc", "reset"},
                           required=True)
    sound = reader.table(data, ("sound",), {"buzzer", "kind"})
    encoder = reader.pins(controls, ("controls", "encoder"), 2, 2) if "encoder" in controls \
        else None
    buttons = {control: reader.pin(controls, ("controls", key))
               for key, control in CONTROL_KEYS.items() if key in controls}
    steering = encoder or {Control.UP, Control.DOWN} <= buttons.keys()
    if Control.SELECT not in buttons or not steering:
        raise WiringError(f"pin map {name}: [controls] needs select, and either encoder = "
                          "[A, B] or both up and down")
    hold_pins = reader.pins(holds, ("holds", "pins"), 0, len(HOLDS)) if "pins" in holds else ()
    buttons.update(zip(HOLDS, hold_pins, strict=False))
    layout = reader.choice(matrix, ("matrix", "layout"), LAYOUTS, "grid")
    rows = reader.pins(matrix, ("matrix", "rows"), 1, MAX_SIZE)
    cols = reader.pins(matrix, ("matrix", "columns"), 1, MAX_SIZE)
    if layout == "track" and len(rows) * len(cols) != TRACK_BOXES:
        raise WiringError(f"pin map {name}: a track has {TRACK_BOXES} boxes, so rows x columns "
                          f"must be {TRACK_BOXES} (e.g. 3 x 4), not {len(rows)} x {len(cols)}")
    low, high = SETTLE_MS_RANGE
    settle_ms = reader.value(
        matrix, ("matrix", "settle_ms"), int, round(DEBOUNCE_S * 1000), within(low, high, ""),
        say=lambda value: "matrix.settle_ms is how long a reed switch must read the same "
        f"before it counts: a whole number of milliseconds from {low} to {high}, not {value!r}")
    bus = reader.choice(display, ("display", "bus"), ("i2c", "spi"), "i2c")
    if bus == "spi":
        wiring = DisplayPins("spi", reader.choice(display, ("display", "chip_select"), (0, 1), 0),
                             reader.pin(display, ("display", "dc")),
                             reader.pin(display, ("display", "reset")))
    elif display.keys() - {"bus"}:
        raise WiringError(f"pin map {name}: chip_select, dc and reset are for bus = \"spi\"; "
                          "an I2C display uses GPIO2 and GPIO3 only")
    else:
        wiring = DisplayPins()
    buzzer = reader.pin(sound, ("sound", "buzzer")) if "buzzer" in sound else None
    kind = reader.choice(sound, ("sound", "kind"), BUZZER_KINDS, "passive")
    title = reader.value(data, ("title",), str, "", lambda text: None if text.strip() else "",
                         required=True, say=lambda value: "title must be a short description, "
                         f"not {value!r}")
    return PinMap(name, title, reader.pin(dice, ("dice", "button")), buttons,
                  None if encoder is None else (encoder[0], encoder[1]),
                  MatrixPins(rows, cols, layout, settle_ms / 1000), wiring, buzzer, kind)


def _read_with_bases(name: str, chain: list[str]) -> dict[str, Any]:
    path = _locate(name, chain)
    if str(path) in chain:
        raise WiringError(f"pin map {Path(name).stem}: its bases loop: "
                          + " -> ".join(Path(p).stem for p in [*chain, str(path)]))
    try:
        data = load_toml(path, missing="no such file")
    except TomlFileError as exc:
        raise WiringError(f"pin map {exc.message(path)}") from None
    base = data.get("base")
    if base is None:
        return data
    if not isinstance(base, str):
        raise WiringError(f"pin map {path.stem}: base must be a map name, not {base!r}")
    merged = _read_with_bases(base, [*chain, str(path)])
    merged.update(data)
    return merged


def _locate(name: str, chain: list[str]) -> Path:
    if name.endswith(".toml") or "/" in name:
        relative_to = Path(chain[-1]).parent if chain else Path.cwd()
        path = relative_to / name
        if not path.is_file():
            raise WiringError(f"pin map {name}: no such file")
        return path
    shipped = resources.files("wiring").joinpath(f"{name}.toml")
    if not shipped.is_file():
        raise WiringError(f"no pin map {name!r}; the maps are {', '.join(map_names())} "
                          "(or give the path of a .toml file)")
    return Path(str(shipped))


class _Reader(TomlReader):
    """Typed reads from a map's TOML data; each problem names the map and the key."""

    sort_unknown = True

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, keys: Keys, problem: str) -> WiringError:
        return WiringError(f"pin map {self.name}: {problem}")

    def unknown(self, keys: Keys, key: str, allowed: Collection[str]) -> str:
        place = f"[{'.'.join(keys)}] " if keys else ""
        return f"{place}has no key {key!r}; allowed: " + ", ".join(sorted(allowed))

    def not_table(self, keys: Keys, value: Any) -> str:
        key = ".".join(keys)
        return f"a [{key}] table is needed" if value is None \
            else f"{key} must be a table, not {value!r}"

    def pin(self, table: Mapping[str, Any], keys: Keys) -> int:
        return self.value(table, keys, int, 0, required=True, say=lambda value: (
            f"{'.'.join(keys)} must be a GPIO (BCM) number such as 17, not {value!r}"))

    def pins(self, table: Mapping[str, Any], keys: Keys, least: int, most: int) \
            -> tuple[int, ...]:
        dotted = ".".join(keys)
        value = self.value(table, keys, list, [], required=True, say=lambda value: (
            f"{dotted} must be a list of GPIO numbers, not {value!r}"))
        if not least <= len(value) <= most:
            count = f"{least}" if least == most else f"{least} to {most}"
            raise self.fail(keys, f"{dotted} needs {count} pins, not {len(value)}")
        return tuple(self.pin({keys[-1]: item}, keys) for item in value)

    def choice(self, table: Mapping[str, Any], keys: Keys, allowed: tuple[T, ...],
               default: T) -> T:
        return self.value(table, keys, type(default), default,
                          lambda value: None if value in allowed else "",
                          say=lambda value: f"{'.'.join(keys)} cannot be {value!r}; allowed: "
                          + " | ".join(repr(a) for a in allowed))
