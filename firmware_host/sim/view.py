"""The 128x64 frame as terminal text, in one of three cell sizes, and the choice among them.

A terminal character is about twice as tall as it is wide. ``blocks`` (half blocks, 1x2
pixels a character) keeps the pixels square but needs 130x34 characters for the framed
screen; ``braille`` (2x4 dots a character) fits the same screen in 66x18, an 80x24 terminal
included, and every usual monospace font has its glyphs (a mostly lit cell is drawn in
reverse video, so inverted text keeps its shape); ``sextants`` (2x3, Unicode 13's "Symbols
for Legacy Computing") are solid like blocks but many fonts still lack them, so they are
only used when asked for with ``--view sextants``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from PIL import Image

from hardware.display.protocol import HEIGHT, WIDTH, check_frame

AUTO = "auto"
FOOTER_ROWS = 2  # the key help and the status line, at 80 columns and more
SPARE_ROWS = 1  # the line the cursor rests on below the footer: nothing scrolls


def _block(bits: int) -> str:
    return " ▀▄█"[bits]


def _sextant(bits: int) -> str:
    """Bit ``row * 2 + column`` lit; Unicode leaves out the four patterns that exist as
    older characters (blank, full, left and right half)."""
    older = {0: " ", 21: "▌", 42: "▐", 63: "█"}
    if bits in older:
        return older[bits]
    return chr(0x1FB00 + bits - 1 - (bits > 21) - (bits > 42))


_BRAILLE_DOTS = (0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80)
"""The Braille dot bit of pixel ``row * 2 + column`` in a 2x4 cell."""


def _braille(bits: int) -> str:
    if not bits:
        return " "  # rather than the blank Braille cell, so that empty space copies as such
    return chr(0x2800 + sum(dot for n, dot in enumerate(_BRAILLE_DOTS) if bits >> n & 1))


REVERSE, PLAIN = "\x1b[7m", "\x1b[27m"
"""Reverse video on and off: a Braille cell in a lit area is drawn as its dark dots on a lit
cell, so inverted text (a highlighted row, the band) reads as letters, not as holes in a
field of dots."""


@dataclass(frozen=True)
class View:
    """A way to draw pixels as characters: ``width`` x ``height`` pixels a character;
    ``reverse``: cells in a lit area are drawn in reverse video, their dark pixels as dots."""

    name: str
    width: int
    height: int
    reverse: bool = False

    @property
    def columns(self) -> int:
        """Characters across the framed screen (the border included)."""
        return -(-WIDTH // self.width) + 2

    @property
    def rows(self) -> int:
        """Lines of the framed screen (the border included)."""
        return -(-HEIGHT // self.height) + 2

    def glyph(self, bits: int) -> str:
        return _glyphs(self.name)[bits]

    def lines(self, image: Image.Image) -> list[str]:
        """The frame in a box drawn with line characters."""
        check_frame(image)
        lit = image.convert("L").tobytes()
        glyphs = _glyphs(self.name)
        across = self.columns - 2
        text = [f"┌{'─' * across}┐"]
        full = (1 << self.width * self.height) - 1
        for top in range(0, HEIGHT, self.height):
            rows = [lit[y * WIDTH:(y + 1) * WIDTH] if y < HEIGHT else bytes(WIDTH)
                    for y in range(top, top + self.height)]
            cells = []
            for left in range(0, WIDTH, self.width):
                bits = 0
                for dy, row in enumerate(rows):
                    for dx in range(self.width):
                        if row[left + dx]:
                            bits |= 1 << (dy * self.width + dx)
                cells.append(bits)
            chars, reversed_ = [], False
            for index, bits in enumerate(cells):
                dense = self.reverse and _lit_around(cells, index) > 0.6
                if dense != reversed_:
                    chars.append(REVERSE if dense else PLAIN)
                    reversed_ = dense
                chars.append(glyphs[full & ~bits if dense else bits])
            if reversed_:
                chars.append(PLAIN)
            text.append(f"│{''.join(chars)}│")
        text.append(f"└{'─' * across}┘")
        return text


def _lit_around(cells: list[int], index: int) -> float:
    """The share of lit pixels in a cell and its neighbours on the line: a lit band or row
    is lit all along, a stroke of a letter only here and there."""
    near = cells[max(index - 1, 0): index + 2]
    return sum(bits.bit_count() for bits in near) / (8 * len(near))


VIEWS = {view.name: view for view in (View("blocks", 1, 2), View("sextants", 2, 3),
                                      View("braille", 2, 4, reverse=True))}
AUTO_ORDER = ("blocks", "braille")  # the first that fits is chosen without --view


@cache
def _glyphs(name: str) -> tuple[str, ...]:
    draw = {"blocks": _block, "sextants": _sextant, "braille": _braille}[name]
    view = VIEWS[name]
    return tuple(draw(bits) for bits in range(1 << (view.width * view.height)))


def rows_needed(view: View, footer_rows: int = FOOTER_ROWS) -> int:
    return view.rows + footer_rows + SPARE_ROWS


def choose(choice: str, columns: int, rows: int,
           footer_rows: Callable[[int], int] = lambda columns: FOOTER_ROWS) -> View | str:
    """The view for a terminal of ``columns`` x ``rows``: ``choice`` itself, or with
    :data:`AUTO` the largest that fits; when none fits, one line (shorter than the
    terminal is wide, if it can be) saying the size needed. ``footer_rows`` is the rows the
    footer takes at a width (the key help wraps below 80 columns), so the size named is
    one the view fits in: this width with more rows, or the view's width if wider."""
    candidates = AUTO_ORDER if choice == AUTO else (choice,)
    for name in candidates:
        view = VIEWS[name]
        if columns >= view.columns and rows >= rows_needed(view, footer_rows(columns)):
            return view
    smallest = VIEWS[candidates[-1]]
    width = max(columns, smallest.columns)
    needed = f"{width}x{rows_needed(smallest, footer_rows(width))}"
    chosen = "" if choice == AUTO else f" for --view {choice}"
    line = f"Enlarge the terminal to {needed}{chosen} (it is {columns}x{rows}); q quits"
    return line if len(line) < columns else f"Enlarge to {needed}; q quits"
