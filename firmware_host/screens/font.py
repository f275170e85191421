"""Text on a one-bit frame from our own bitmap glyphs: a small face and a double-size one.

Small text is 5x7 (and a row of descender) in a 6x9 cell, 21 characters a line; big text
doubles every pixel (10x14 in a 12x18 cell) for what must read at arm's length: whose
turn, the dice, the total. Its descenders stay one row deep, so a big line is 15 rows and
a name like "Peggy" stays inside the 16-row band with a lit row under its capitals.
Besides ASCII it draws the letters of people's names: Latin-1 Supplement, Latin Extended-A,
Greek and Cyrillic (:mod:`letters`). A letter of another script prints as the nearest letter
it has, spelt in Latin letters (:func:`stand_in`), one cell for one character so every width
stays as counted; names are spelt whole in Latin letters before they get here
(:func:`firmware_host.screens.names.spelt`). Any other character it lacks prints as ``?``
rather than vanish.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache

from anyascii import anyascii

from firmware_host.players import normal
from firmware_host.screens.glyphs import GLYPHS, ROWS
from firmware_host.screens.letters import letter

GLYPH_W, GLYPH_H = 5, 7  # the cap height; descenders take one row more (ROWS)


@dataclass(frozen=True)
class Face:
    """A size of the font: pixels per glyph pixel and the cell a character takes."""

    scale: int

    @property
    def advance(self) -> int:
        return (GLYPH_W + 1) * self.scale

    @property
    def height(self) -> int:
        return GLYPH_H * self.scale

    def width(self, text: str) -> int:
        """Pixels ``text`` covers, without the gap after its last character."""
        chars = len(text if text.isascii() else spelt(text))
        return chars * self.advance - self.scale if chars else 0

    def chars_in(self, pixels: int) -> int:
        """How many characters fit in ``pixels``."""
        return max(0, (pixels + self.scale) // self.advance)


SMALL = Face(1)
BIG = Face(2)


def line_rows(scale: int) -> int:
    """Rows a line of text takes at ``scale``: its capitals scaled, its descender one row."""
    return GLYPH_H * scale + ROWS - GLYPH_H


@cache
def glyph(char: str, scale: int) -> tuple[int, ...]:
    """One character at ``scale`` as bitmap rows, each ``GLYPH_W * scale`` bits, left pixel
    in the top bit; every pixel repeated ``scale`` times across, and down but for the
    descender's row."""
    rows = GLYPHS.get(char) or letter(char) or GLYPHS[stand_in(char)]
    scaled = [int("".join(c * scale for c in row).replace("#", "1").replace(".", "0"), 2)
              for row in rows]
    return tuple(bits for r, bits in enumerate(scaled)
                 for _ in range(scale if r < GLYPH_H else 1))


def drawn(char: str) -> bool:
    """Whether the font has a glyph of its own for ``char``."""
    return char in GLYPHS or letter(char) is not None


@lru_cache(maxsize=1024)
def spelt(text: str) -> str:
    """``text`` as the font draws it, a cell a character: NFC, without direction marks
    (:func:`firmware_host.players.normal`), each letter the font lacks spelt in Latin
    letters with anyascii, a whole syllable for a CJK character ("山田" -> "ShanTian"), so a
    name of any script reads as one; a mark left over, or a letter anyascii spells as nothing
    (Arabic's alef), is dropped."""
    if text.isascii():
        return text
    return "".join(char if drawn(char) or unicodedata.category(char)[0] not in "LM"
                   else anyascii(char) for char in normal(text))


@cache
def stand_in(char: str) -> str:
    """The character drawn for ``char``, which the font lacks: a letter's first letter in
    Latin spelling, in its case ("ǅ" -> "D", "山" -> "S"), else ``?``."""
    spelt = anyascii(char)[:1] if char.isalpha() else ""
    spelt = spelt.upper() if char.isupper() else spelt.lower() if char.islower() else spelt
    return spelt if spelt in GLYPHS else "?"


@lru_cache(maxsize=1024)
def text_rows(text: str, scale: int) -> tuple[int, tuple[int, ...]]:
    """A whole line of text as one bitmap: (its width in pixels, its rows), kept for reuse,
    since a screen shows mostly the same words from frame to frame."""
    text = spelt(text)
    advance = (GLYPH_W + 1) * scale
    rows = [0] * line_rows(scale)
    for char in text:
        bitmap = glyph(char, scale)
        for r, bits in enumerate(bitmap):
            rows[r] = (rows[r] << advance) | (bits << scale)
    return len(text) * advance, tuple(rows)


def fit(text: str, face: Face, pixels: int) -> str:
    """``text`` cut to ``pixels`` wide, ending in ``…`` when something was cut."""
    text = spelt(text)
    room = face.chars_in(pixels)
    if len(text) <= room:
        return text
    return text[: room - 1] + "…" if room > 0 else ""


def wrap(text: str, face: Face, pixels: int) -> list[str]:
    """``text`` broken at spaces into lines ``pixels`` wide; over-long words are split. A
    number stays on the line of the word before it ("of 10", "Cy 1"), and so does a
    one-letter unit after a number ("10 s:")."""
    text = spelt(text)
    room = max(1, face.chars_in(pixels))
    lines: list[str] = []
    line = ""
    for word in _kept_together(text.split(), room):
        while len(word) > room:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:room])
            word = word[room:]
        candidate = f"{line} {word}" if line else word
        if len(candidate) <= room:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def _kept_together(words: list[str], room: int) -> list[str]:
    """``words`` with a number joined to the word before it, and a one-letter unit to the
    number before it, where the two fit a line."""
    joined: list[str] = []
    for word in words:
        bare = word.rstrip(":;,.")
        number = word[0].isdigit()
        unit = len(bare) == 1 and bare.isalpha() and bool(joined) and joined[-1][-1].isdigit()
        if joined and (number or unit) and len(joined[-1]) + 1 + len(word) <= room:
            joined[-1] += " " + word
        else:
            joined.append(word)
    return joined
