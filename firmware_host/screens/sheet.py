"""A contact sheet of sample screens: each drawn 3x, on a grey ground, with its name.

For reviewing a change of look at a glance (the golden images are 128x64 and one-bit):

    .venv/bin/python -m firmware_host.screens.sheet OUT.png [NAME ...]

draws the named samples of :mod:`firmware_host.screens.samples` (all of them without
names), two to a row. The screens changed by the latest look work are :data:`CHANGED`
(``--changed``); the screens showing names from around the world are ``names_*``
(``--world``).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from firmware_host.screens import render
from firmware_host.screens.samples import SAMPLES

SCALE = 3
COLUMNS = 2
MARGIN = 6
LABEL = 14  # pixels above each screen for its name

CHANGED = ("centennial_playing", "centerpoint_playing", "centerpoint_tumbling",
           "dalmatian_opening_six", "dalmatian_opening_tie", "dalmatian_rerolled",
           "dalmatian_turn", "menu_game_greyed", "menu_options", "menu_options_centennial",
           "menu_options_multigam", "notice", "sequence_choosing", "sequence_over",
           "sequence_playing", "standings_qr")
"""The sample screens new or changed when every text was made to read clearly: greyed rows
whole behind a cross, colours named beside their chip patterns, names cut plainly and never
alike, words clear of numbers and edges, set-up labels that need no scrolling."""


def contact_sheet(names: Sequence[str]) -> Image.Image:
    """The named samples, enlarged, labelled, ``COLUMNS`` to a row."""
    cell_w, cell_h = 128 * SCALE + 2 * MARGIN, 64 * SCALE + LABEL + 2 * MARGIN
    rows = -(-len(names) // COLUMNS)
    sheet = Image.new("L", (cell_w * COLUMNS, cell_h * rows), 110)
    draw = ImageDraw.Draw(sheet)
    for index, name in enumerate(names):
        x, y = (index % COLUMNS) * cell_w + MARGIN, (index // COLUMNS) * cell_h + MARGIN
        draw.text((x, y), name, fill=255)
        frame = render(SAMPLES[name]()).convert("L")
        sheet.paste(frame.resize((128 * SCALE, 64 * SCALE), Image.Resampling.NEAREST),
                    (x, y + LABEL))
    return sheet


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_host.screens.sheet",
                                     description="Draw sample screens on one PNG.")
    parser.add_argument("out", type=Path, help="the PNG to write")
    parser.add_argument("names", nargs="*", help="sample names (default: all)")
    parser.add_argument("--changed", action="store_true",
                        help="the screens changed by the latest work on what the players see")
    parser.add_argument("--world", action="store_true",
                        help="the screens showing names from around the world")
    args = parser.parse_args(argv)
    world = [name for name in SAMPLES if name.startswith("names_")]
    names = list(CHANGED) if args.changed else world if args.world else args.names or list(SAMPLES)
    unknown = [n for n in names if n not in SAMPLES]
    if unknown:
        parser.error(f"no sample {', '.join(unknown)}; known: {', '.join(SAMPLES)}")
    try:
        contact_sheet(names).save(args.out)
    except OSError as err:
        parser.exit(2, f"cannot write {args.out}: {err.strerror or err}; choose a folder "
                       "that exists and may be written\n")
    print(f"wrote {len(names)} screens to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
