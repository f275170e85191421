"""``table-companion wiring``: the pin table of a pin map, its diagram, or every document.

``--write-docs DIR`` regenerates the committed diagrams and the bill of materials (run it
as ``table-companion wiring --write-docs wiring`` after changing a map).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from firmware_host.commands import Subparsers, add_command, add_json_flag, output_folder
from firmware_host.errors import UsageError
from hardware.errors import WiringError
from hardware.wiring.bom import render_bom
from hardware.wiring.pinmap import DEFAULT_MAP, PinMap, load_pin_map, map_names
from hardware.wiring.svg import render_svg


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "wiring", description=(
        "Print the pin table of a pin map (the header pin, its signal, the part "
        "and its terminal for every wire)."))
    parser.add_argument("--map", default="default", metavar="NAME",
                        help=f"a shipped map (see --list) or a .toml file (default: "
                             f"{DEFAULT_MAP})")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--list", action="store_true", help="list the shipped maps")
    what.add_argument("--svg", action="store_true", help="print the map's wiring diagram (SVG)")
    what.add_argument("--write-docs", metavar="DIR", type=Path,
                      help="write every shipped map's diagram and BOM.md into DIR")
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        if args.list:
            return _list(args.json)
        if args.write_docs is not None:
            return _write_docs(args.write_docs)
        pin_map = load_pin_map(args.map)
    except WiringError as err:
        raise UsageError(str(err)) from err
    if args.svg:
        print(render_svg(pin_map), end="")
    elif args.json:
        print(json.dumps(_as_json(pin_map), indent=2))
    else:
        _print_table(pin_map)
    return 0


def _list(as_json: bool) -> int:
    maps = [load_pin_map(name) for name in map_names()]
    if as_json:
        print(json.dumps([{"name": m.name, "title": m.title} for m in maps], indent=2))
    else:
        for m in maps:
            default = "  (default)" if m.name == DEFAULT_MAP else ""
            print(f"{m.name:<14} {m.title}{default}")
    return 0


def _write_docs(folder: Path) -> int:
    output_folder(folder, "--write-docs")
    maps = [load_pin_map(name) for name in map_names()]
    for m in maps:
        (folder / f"{m.name}.svg").write_text(render_svg(m), encoding="utf-8")
    (folder / "BOM.md").write_text(render_bom(maps), encoding="utf-8")
    print(f"wrote {len(maps)} diagrams and BOM.md to {folder}")
    return 0


def _as_json(pin_map: PinMap) -> dict[str, object]:
    return {
        "name": pin_map.name,
        "title": pin_map.title,
        "wires": [{"pin": w.pin, "signal": w.signal, "part": w.part, "terminal": w.terminal}
                  for w in sorted(pin_map.wires(), key=lambda w: w.pin)],
        "taken_by_bus": {signal: gpio for signal, gpio in pin_map.display.claimed()},
    }


def _print_table(pin_map: PinMap) -> None:
    print(f"pin map {pin_map.name}: {pin_map.title}")
    print(f"{'pin':>4}  {'signal':<7} {'part':<18} terminal")
    for wire in sorted(pin_map.wires(), key=lambda w: w.pin):
        print(f"{wire.pin:>4}  {wire.signal:<7} {wire.part:<18} {wire.terminal}")
    claimed = pin_map.display.claimed()
    if claimed:
        taken = " and ".join(f"GPIO{gpio} ({signal})" for signal, gpio in claimed)
        print(f"SPI0 also takes {taken}: leave them unconnected.")
