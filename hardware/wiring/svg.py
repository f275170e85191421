"""Draw a pin map as an SVG wiring diagram: the 40-pin header, the parts, and every wire.

The header is drawn as seen from above with pin 1 at the top left. Each wire leaves its pin
through the gap below the pin's row, runs in its own vertical lane, and ends at a labelled
terminal of its part; each terminal also names its header pin, so a crossing never leaves a
doubt. Pins an enabled bus takes without a wire (SPI0's MISO and spare chip select) are grey.

The output depends only on the map (no ids, dates or randomness), so the committed diagrams
in ``wiring/`` can be regenerated and compared byte for byte.
"""

from __future__ import annotations

from html import escape

from hardware.board.matrix import MAX_SIZE
from hardware.wiring.pinmap import HEADER_40, PinMap, Wire, physical_pin

PITCH = 24  # between header rows and columns
TOP = 80  # y of header row 1
ODD_X = 110  # x of the odd pins' column
EVEN_X = ODD_X + PITCH
LANE_X = EVEN_X + 80  # x of the first wire lane
LANE_GAP = 6
TERMINAL_GAP = 16
PART_WIDTH = 230
CELL = 20  # side of a board cell in the board sketch
COLORS = {
    "dice button": "#c0392b", "rotary encoder": "#2471a3", "buttons": "#1e8449",
    "hold buttons": "#7d3c98", "reed-switch board": "#a04000", "OLED": "#b7950b",
    "buzzer": "#117a65",
}
POWER_COLORS = {"3V3": "#e67e22", "5V": "#e74c3c", "GND": "#17202a"}
CLAIMED = "#d5d8dc"  # taken by the SPI bus, left unconnected


def _color(wire: Wire) -> str:
    return POWER_COLORS.get(wire.signal, COLORS[wire.part])


def _pin_xy(pin: int) -> tuple[int, int]:
    row = (pin - 1) // 2
    return (ODD_X if pin % 2 else EVEN_X), TOP + row * PITCH


def _text(x: int, y: int, text: str, *, size: int = 10, anchor: str = "start",
          weight: str = "normal", fill: str = "#17202a") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}">{escape(text)}</text>')


def _header_board() -> list[str]:
    last_y = TOP + 19 * PITCH
    return [f'<rect x="{ODD_X - 14}" y="{TOP - 14}" width="{PITCH + 28}" '
            f'height="{last_y - TOP + 28}" rx="4" fill="#f4f6f6" stroke="#566573"/>',
            _text(ODD_X + PITCH // 2, TOP - 22, "40-pin header", anchor="middle",
                  weight="bold")]


def _header_pins(used: dict[int, str]) -> list[str]:
    out = []
    for pin in range(1, 41):
        x, y = _pin_xy(pin)
        signal = HEADER_40[pin - 1]
        fill = used.get(pin, POWER_COLORS.get(signal, "#ffffff"))
        out.append(f'<circle cx="{x}" cy="{y}" r="8" fill="{fill}" stroke="#566573"/>')
        light = fill in ("#ffffff", CLAIMED)
        out.append(_text(x, y + 3, str(pin), size=8, anchor="middle",
                         fill="#17202a" if light else "#ffffff"))
        if pin % 2:
            out.append(_text(x - 14, y + 3, signal, size=9, anchor="end"))
        else:
            out.append(_text(x + 14, y + 3, signal, size=9))
    return out


def _wire_path(wire: Wire, lane: int, terminal_y: int, part_x: int) -> str:
    x, y = _pin_xy(wire.pin)
    exit_y = y + (10 if wire.pin % 2 else 14)
    lane_x = LANE_X + lane * LANE_GAP
    return (f'<path d="M{x},{y} V{exit_y} H{lane_x} V{terminal_y} H{part_x}" fill="none" '
            f'stroke="{_color(wire)}" stroke-width="2"/>')


def _board_sketch(pin_map: PinMap, x: int, y: int) -> list[str]:
    """The cells as the builder lays them out, labelled as the players call them."""
    rows, cols = len(pin_map.matrix.rows), len(pin_map.matrix.cols)
    out = []
    for r in range(rows):
        for c in range(cols):
            cx, cy = x + c * CELL, y + r * CELL
            out.append(f'<rect x="{cx}" y="{cy}" width="{CELL}" height="{CELL}" '
                       'fill="#fdf2e9" stroke="#a04000" stroke-width="0.5"/>')
            label = pin_map.matrix.label(r, c).removeprefix("box ")
            out.append(_text(cx + CELL // 2, cy + 13, label, size=7, anchor="middle"))
    return out


def render_svg(pin_map: PinMap) -> str:
    """The wiring diagram of ``pin_map`` as an SVG document."""
    wires = pin_map.wires()
    parts = list(dict.fromkeys(wire.part for wire in wires))
    part_x = LANE_X + len(wires) * LANE_GAP + 16
    body: list[str] = []
    terminal_y: dict[int, int] = {}
    y = TOP - 14
    for part in parts:
        mine = [i for i, wire in enumerate(wires) if wire.part == part]
        height = 24 + len(mine) * TERMINAL_GAP
        width = PART_WIDTH
        sketch: list[str] = []
        if part == "reed-switch board":
            rows, cols = len(pin_map.matrix.rows), len(pin_map.matrix.cols)
            sketch = _board_sketch(pin_map, part_x + PART_WIDTH, y + 28)
            height = max(height, 40 + rows * CELL)
            width += cols * CELL + 10
        body.append(f'<rect x="{part_x}" y="{y}" width="{width}" height="{height}" '
                    f'rx="6" fill="#ffffff" stroke="{COLORS[part]}" stroke-width="1.5"/>')
        body.append(_text(part_x + 10, y + 16, part, size=11, weight="bold",
                          fill=COLORS[part]))
        body.extend(sketch)
        for k, i in enumerate(mine):
            wire = wires[i]
            ty = y + 30 + k * TERMINAL_GAP
            terminal_y[i] = ty
            body.append(f'<circle cx="{part_x}" cy="{ty}" r="3" fill="{_color(wire)}"/>')
            body.append(_text(part_x + 10, ty + 3,
                              f"{wire.terminal}  (pin {wire.pin}, {wire.signal})", size=9))
        y += height + 14
    lanes = sorted(range(len(wires)), key=lambda i: (terminal_y[i], wires[i].pin))
    paths = [_wire_path(wires[i], lane, terminal_y[i], part_x) for lane, i in enumerate(lanes)]
    used = {physical_pin(gpio): CLAIMED for _signal, gpio in pin_map.display.claimed()}
    used.update({wire.pin: _color(wire) for wire in wires})
    width = part_x + PART_WIDTH + MAX_SIZE * CELL + 30
    height = max(y, TOP + 20 * PITCH) + 10
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        _text(20, 22, f"table-companion wiring: {pin_map.name}", size=14, weight="bold"),
        _text(20, 40, pin_map.title, size=11),
        *_header_board(), *paths, *_header_pins(used), *body, "</svg>", ""])
