"""The simulator's screen as terminal text: each view's glyphs, golden text of two screens in
every view, and the choice of view by the terminal's size.

The two screens are fixed copies of golden frames (``tests/sim/golden/*.png``), so a change
of look on the OLED does not move these. After a deliberate change of a view, regenerate
with ``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/sim/test_view.py`` and look at the
text.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from PIL import Image

from firmware_host.sim.terminal import LiveScreen
from firmware_host.sim.view import AUTO, PLAIN, REVERSE, VIEWS, choose

GOLDEN = Path(__file__).parent / "golden"
SCREENS = ("dalmatian_turn", "sequence_playing")


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("screen", SCREENS)
def test_view_text_matches_golden(view: str, screen: str) -> None:
    with Image.open(GOLDEN / f"{screen}.png") as image:
        text = "\n".join(VIEWS[view].lines(image)) + "\n"
    golden = GOLDEN / f"{screen}.{view}.txt"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
        return
    assert golden.exists(), f"no golden text {golden}: run with UPDATE_GOLDEN=1 to make it"
    assert text == golden.read_text(encoding="utf-8")
    lines = text.replace(REVERSE, "").replace(PLAIN, "").splitlines()
    assert len(lines) == VIEWS[view].rows
    assert {len(line) for line in lines} == {VIEWS[view].columns}
    assert (REVERSE in text) is VIEWS[view].reverse  # the band, at least


def test_braille_draws_a_lit_area_as_its_dark_dots_in_reverse_video() -> None:
    image = Image.new("1", (128, 64))
    image.paste(1, (0, 0, 128, 16))  # a lit band ...
    image.putpixel((0, 0), 0)  # ... with one dark pixel in its first cell
    lines = VIEWS["braille"].lines(image)
    assert lines[1] == f"│{REVERSE}⠁{' ' * 63}{PLAIN}│"  # dot 1 (top left), reversed
    assert lines[5] == f"│{' ' * 64}│"  # below the band: plain
    image.paste(1, (40, 40, 42, 44))  # one lit cell alone (a stroke of a letter): plain
    assert REVERSE not in VIEWS["braille"].lines(image)[11]
    assert VIEWS["blocks"].lines(image)[1].count(REVERSE) == 0


def test_each_view_draws_its_pixels_with_the_right_glyph() -> None:
    blocks, sextants, braille = VIEWS["blocks"], VIEWS["sextants"], VIEWS["braille"]
    assert [blocks.glyph(bits) for bits in range(4)] == [" ", "▀", "▄", "█"]
    assert sextants.glyph(0b000001) == "\U0001fb00"  # top left alone
    assert sextants.glyph(0b010101) == "▌" and sextants.glyph(0b101010) == "▐"
    assert sextants.glyph(0b111110) == "\U0001fb3b" and sextants.glyph(63) == "█"
    assert len({sextants.glyph(bits) for bits in range(64)}) == 64
    assert braille.glyph(0) == " " and braille.glyph(255) == "⣿"
    assert braille.glyph(0b01000000) == "⡀"  # bottom left: dot 7
    assert len({braille.glyph(bits) for bits in range(256)}) == 256


def test_a_lit_pixel_lands_in_its_cell() -> None:
    image = Image.new("1", (128, 64))
    image.putpixel((127, 63), 1)
    assert VIEWS["blocks"].lines(image)[32][-2] == "▄"
    assert VIEWS["braille"].lines(image)[16][-2] == "⢀"  # dot 8: bottom right
    assert VIEWS["sextants"].lines(image)[22][-2] == "\U0001fb01"  # row 64: top of 3


@pytest.mark.parametrize(("columns", "rows", "choice", "chosen"), [
    (140, 40, AUTO, "blocks"), (130, 37, AUTO, "blocks"), (129, 40, AUTO, "braille"),
    (130, 36, AUTO, "braille"), (80, 24, AUTO, "braille"), (100, 30, AUTO, "braille"),
    (66, 21, AUTO, "braille"), (100, 30, "sextants", "sextants"),
    (140, 40, "braille", "braille"),
])
def test_the_view_that_fits_is_chosen(columns: int, rows: int, choice: str,
                                      chosen: str) -> None:
    view = choose(choice, columns, rows)
    assert not isinstance(view, str) and view.name == chosen


@pytest.mark.parametrize(("columns", "rows", "choice", "message"), [
    (65, 30, AUTO, "Enlarge the terminal to 66x22 (it is 65x30); q quits"),
    (80, 20, AUTO, "Enlarge the terminal to 80x21 (it is 80x20); q quits"),
    (66, 21, AUTO, "Enlarge the terminal to 66x22 (it is 66x21); q quits"),
    (80, 24, "sextants", "Enlarge the terminal to 80x27 for --view sextants (it is 80x24); "
     "q quits"),
    (66, 27, "sextants", "Enlarge to 66x28; q quits"),  # the long line would not fit
    (120, 40, "blocks", "Enlarge the terminal to 130x37 for --view blocks (it is 120x40); "
     "q quits"),
])
def test_a_terminal_too_small_gets_one_line_with_a_size_that_fits(
        columns: int, rows: int, choice: str, message: str) -> None:
    """The key help takes one row from 80 columns on and wraps to two below: the size named
    is one where the view and the footer fit, at this width if it is wide enough."""
    def footer(width: int) -> int:
        return 2 if width >= 80 else 3

    assert choose(choice, columns, rows, footer) == message
    narrow = choose(choice, 40, 10, footer)
    assert isinstance(narrow, str) and narrow.startswith("Enlarge to ")
    for told in (message, narrow):
        across, down = map(int, re.findall(r"(\d+)x(\d+)", told)[0])
        assert not isinstance(choose(choice, across, down, footer), str), told


def test_the_footer_is_cut_to_the_width_and_the_frame_drawn_once() -> None:
    out = io.StringIO()  # no terminal: drawn as for 80x24
    status = "magnet put on B3 " * 8
    screen = LiveScreen(out, lambda: ["r roll  q quit", status])
    with Image.open(GOLDEN / "dalmatian_turn.png") as image:
        screen.show(image)
        drawn = out.getvalue()
        screen.show(image.copy())
    assert out.getvalue() == drawn  # the same frame again draws nothing
    assert screen.layout == VIEWS["braille"]
    assert f"{status[:78]}…" in drawn and status[:80] not in drawn
    assert drawn.startswith("\x1b[H\x1b[2J┌")
