"""Frames as controller pages, and the smallest set of windows that carries a change.

SSD1306 and SH1106 memory is 8 pages of 8 pixel rows; each byte is one column of a page with
the top pixel in bit 0. Comparing packed pages finds what changed in a few byte compares,
and planning windows over those spans is what lets the driver send a one-line change in a
fraction of the 1,024 bytes luma sends for every frame.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from PIL import Image

from hardware.display.protocol import HEIGHT, ROW_BYTES, WIDTH

PAGES = HEIGHT // 8


@dataclass(frozen=True)
class Window:
    """Pages ``first_page..last_page`` and columns ``first_col..last_col``, inclusive."""

    first_page: int
    last_page: int
    first_col: int
    last_col: int

    @property
    def width(self) -> int:
        return self.last_col - self.first_col + 1

    @property
    def data_bytes(self) -> int:
        return self.width * (self.last_page - self.first_page + 1)


def pack_pages(image: Image.Image) -> list[bytes]:
    """The frame as :data:`PAGES` byte strings of :data:`WIDTH` columns each."""
    return pack_rows(image.tobytes())


def pack_rows(rows: bytes, before: tuple[bytes, list[bytes]] | None = None) -> list[bytes]:
    """The frame with pixel ``rows`` (Pillow's mode ``"1"`` layout) as pages; a page whose
    eight rows are as in ``before`` (another frame's rows and pages) keeps its packed bytes,
    so an update packs only the pages it changes."""
    band = 8 * ROW_BYTES
    pages = []
    for page in range(PAGES):
        start = page * band
        page_rows = rows[start : start + band]
        if before is not None and before[0][start : start + band] == page_rows:
            pages.append(before[1][page])
        else:
            pages.append(_pack_page(page_rows))
    return pages


def _pack_page(band: bytes) -> bytes:
    """Eight pixel rows as one page: each byte a column, its top pixel in the lowest bit.

    The page is sixteen 8x8 bit blocks, one for each byte of a row. Laid out as one integer,
    each block's eight bytes being the rows bottom to top, all sixteen blocks are transposed
    at once by three exchanges of bit groups (Hacker's Delight, 7-3), which leaves each byte
    a column with its top pixel in the lowest bit: a few dozen operations on a 1,024-bit
    integer instead of 1,024 column steps."""
    x = int.from_bytes(b"".join([band[block] for block in _BLOCKS]), "big")
    t = (x ^ (x >> 7)) & _SWAP_1
    x ^= t ^ (t << 7)
    t = (x ^ (x >> 14)) & _SWAP_2
    x ^= t ^ (t << 14)
    t = (x ^ (x >> 28)) & _SWAP_4
    x ^= t ^ (t << 28)
    return x.to_bytes(WIDTH, "big")


_BLOCKS = tuple(slice(7 * ROW_BYTES + block, None, -ROW_BYTES) for block in range(ROW_BYTES))
"""Each block's bytes in a page's rows: one byte of every row, the bottom row first."""


def _each_block(mask: int) -> int:
    """A 64-bit mask repeated over the sixteen blocks of a page."""
    return int.from_bytes(mask.to_bytes(8, "big") * ROW_BYTES, "big")


_SWAP_1 = _each_block(0x00AA00AA00AA00AA)  # single bits across the diagonal
_SWAP_2 = _each_block(0x0000CCCC0000CCCC)  # pairs
_SWAP_4 = _each_block(0x00000000F0F0F0F0)  # nibbles


def changed_runs(old: bytes, new: bytes, gap: int) -> list[tuple[int, int]]:
    """First and last column of each run of differing columns in one page, runs less than
    ``gap`` unchanged columns apart taken as one; empty when the page is unchanged.

    Done in C rather than column by column: the pages XORed as integers, each byte marked
    changed (1) or not (0), and the runs found by a regular expression over the marks. The
    frame's bytes wait for the diff."""
    if old == new:
        return []
    size = len(old)
    differ = (int.from_bytes(old, "little") ^ int.from_bytes(new, "little")).to_bytes(
        size, "little").translate(_CHANGED)
    return [(run.start(), run.end() - 1) for run in _runs(gap).finditer(differ)]


_CHANGED = bytes(1) + bytes([1]) * 255
"""Maps a byte of XORed columns to 1 when they differ."""


@functools.cache
def _runs(gap: int) -> re.Pattern[bytes]:
    """Changed marks with at most ``gap`` unchanged ones between any two: one run."""
    return re.compile(rb"\x01(?:\x00{0,%d}\x01)*" % gap)


def plan_windows(
    old: list[bytes] | None, new: list[bytes], window_cost: int, multi_page: bool
) -> list[Window]:
    """Windows that cover every changed byte; ``old=None`` means the panel's content is unknown.

    ``window_cost`` is the command bytes one window costs, so two changes in a page further
    apart than that go as two windows (a banner's new name at the left and new dice at the
    right do not resend the columns between). With ``multi_page`` (SSD1306 window
    addressing) a change joins a window ending on the page above when one taller window
    sends no more bytes than two separate ones.
    """
    spans: list[list[int]] = []  # first page, last page, first column, last column
    for page in range(PAGES):
        if old is not None and old[page] is new[page]:
            continue  # the page the panel has, kept by the packer: unchanged
        runs = [(0, WIDTH - 1)] if old is None else changed_runs(old[page], new[page], window_cost)
        if not runs:
            continue
        above = [span for span in spans if span[1] == page - 1] if multi_page else []
        for first, last in runs:
            best: list[int] | None = None
            best_saving = -1
            for span in above:  # the first of the largest savings, as the windows were made
                first_col, last_col = min(span[2], first), max(span[3], last)
                merged = (last_col - first_col + 1) * (page - span[0] + 1)
                saving = ((span[3] - span[2] + 1) * (span[1] - span[0] + 1)
                          + (last - first + 1) + window_cost - merged)
                if saving > best_saving:
                    best, best_saving = span, saving
            if best is None:
                spans.append([page, page, first, last])
            else:
                best[1:] = [page, min(best[2], first), max(best[3], last)]
                above.remove(best)
    return [Window(*span) for span in spans]


def window_data(pages: list[bytes], window: Window) -> bytes:
    """The bytes a window takes, page by page, as horizontal addressing fills it."""
    return b"".join(
        pages[page][window.first_col : window.last_col + 1]
        for page in range(window.first_page, window.last_page + 1)
    )
