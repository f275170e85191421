"""What makes a frame hard to read, found from the text runs a canvas lists.

A 128x64 panel has no room to spare, and a misplaced line is easy to miss in a golden
image: a word run into a number ("10remove"), a name under a marker, a title past the edge.
:func:`layout_problems` checks every run of text on a drawn canvas:

- its ink lies inside the frame;
- its ink is whole: nothing drawn over it, nothing lit between its letters;
- a one-pixel ring around it is background (so nothing touches it), but for below a
  descender: a line's descenders may touch what lies under it, as in any 9-pixel row;
- a run beside another on the same rows keeps a gap wider than the gaps between its own
  letters (two pixels in small text, three beside big text), so the two never read as one.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from firmware_host.screens.canvas import Canvas, TextRun
from firmware_host.screens.font import GLYPH_H, text_rows
from hardware.display.protocol import HEIGHT, WIDTH

Ink = tuple[int, int, int, int]  # left, top, right, bottom: inclusive


@lru_cache(maxsize=1024)
def _ink(text: str, scale: int) -> tuple[Ink, tuple[int, ...], int] | None:
    """The lit box of ``text`` drawn at (0, 0), its rows and their width; None if blank."""
    width, rows = text_rows(text, scale)
    columns = 0
    for bits in rows:
        columns |= bits
    if not columns:
        return None
    lit_rows = [r for r, bits in enumerate(rows) if bits]
    left = width - columns.bit_length()
    right = width - 1 - (columns & -columns).bit_length() + 1
    return (left, lit_rows[0], right, lit_rows[-1]), rows, width


def ink_box(run: TextRun) -> Ink | None:
    """Where ``run``'s lit pixels lie on the frame (None for blank text)."""
    found = _ink(run.text, run.scale)
    if found is None:
        return None
    (left, top, right, bottom), _, _ = found
    return run.x + left, run.y + top, run.x + right, run.y + bottom


def _pixel(canvas: Canvas, x: int, y: int) -> bool:
    return bool(canvas.rows[y] >> (WIDTH - 1 - x) & 1)


def _run_problems(canvas: Canvas, run: TextRun) -> list[str]:
    found = _ink(run.text, run.scale)
    if found is None:
        return []
    _, rows, width = found
    left, top, right, bottom = box = ink_box(run)  # type: ignore[misc]
    name = repr(run.text)
    if left < 0 or top < 0 or right >= WIDTH or bottom >= HEIGHT:
        return [f"{name} leaves the frame: ink {box}"]
    for y in range(top, bottom + 1):
        bits = rows[y - run.y]
        for x in range(left, right + 1):
            lit = bool(bits >> (width - 1 - (x - run.x)) & 1)
            if _pixel(canvas, x, y) != (run.on if lit else not run.on):
                return [f"{name} is not whole at ({x}, {y}): something is drawn over it"]
    caps = min(bottom, run.y + GLYPH_H * run.scale - 1)  # a descender may touch below
    ring = [(x, y) for x in range(left - 1, right + 2) for y in (top - 1, caps + 1)]
    ring += [(x, y) for y in range(top, bottom + 1) for x in (left - 1, right + 1)]
    for x, y in ring:
        inside = left <= x <= right and top <= y <= bottom  # a descender's row
        if not inside and 0 <= x < WIDTH and 0 <= y < HEIGHT and _pixel(canvas, x, y) == run.on:
            return [f"{name} touches something at ({x}, {y})"]
    return []


def layout_problems(canvas: Canvas) -> list[str]:
    """Every way the text on ``canvas`` is hard to read; empty when it is all clear."""
    problems = [problem for run in canvas.texts for problem in _run_problems(canvas, run)]
    boxes = [(run, box) for run in canvas.texts if (box := ink_box(run)) is not None]
    for (a, (al, at, ar, ab)), (b, (bl, bt, br, bb)) in combinations(boxes, 2):
        if at > bb or bt > ab:
            continue  # not on the same rows
        gap = max(bl - ar, al - br) - 1
        if 0 <= gap <= max(a.scale, b.scale):
            problems.append(f"{a.text!r} and {b.text!r} are {gap} px apart: they read as one")
    return problems
