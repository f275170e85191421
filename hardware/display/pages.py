"""Frames as controller pages, and the smallest set of windows that carries a change.

SSD1306 and SH1106 memory is 8 pages of 8 pixel rows; each byte is one column of a page with
the top pixel in bit 0. Comparing packed pages finds what changed in a few byte compares,
and planning windows over those spans is what lets the driver send a one-line change in a
fraction of the 1,024 bytes luma sends for every frame.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from hardware.display.protocol import HEIGHT, WIDTH

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
    """The frame as :data:`PAGES` byte strings of :data:`WIDTH` columns each.

    Rotating a quarter turn clockwise makes each source column a row of 8 packed bytes, the
    bottom page first and the top pixel of each page in the least significant bit, which is
    the controller's layout; one C-level transpose instead of 8,192 Python steps.
    """
    packed = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return [packed[PAGES - 1 - page :: PAGES] for page in range(PAGES)]


def changed_span(old: bytes, new: bytes) -> tuple[int, int] | None:
    """First and last differing column of one page, or None when the page is unchanged."""
    if old == new:
        return None
    first = next(i for i in range(len(new)) if old[i] != new[i])
    last = next(i for i in range(len(new) - 1, -1, -1) if old[i] != new[i])
    return first, last


def plan_windows(
    old: list[bytes] | None, new: list[bytes], window_cost: int, multi_page: bool
) -> list[Window]:
    """Windows that cover every changed byte; ``old=None`` means the panel's content is unknown.

    ``window_cost`` is the command bytes one window costs. With ``multi_page`` (SSD1306
    window addressing) a changed page joins the window above it when one taller window
    sends no more bytes than two separate ones.
    """
    windows: list[Window] = []
    for page in range(PAGES):
        span = (0, WIDTH - 1) if old is None else changed_span(old[page], new[page])
        if span is None:
            continue
        alone = Window(page, page, *span)
        previous = windows[-1] if windows else None
        if multi_page and previous is not None and previous.last_page == page - 1:
            merged = Window(
                previous.first_page,
                page,
                min(previous.first_col, span[0]),
                max(previous.last_col, span[1]),
            )
            if merged.data_bytes <= previous.data_bytes + alone.data_bytes + window_cost:
                windows[-1] = merged
                continue
        windows.append(alone)
    return windows


def window_data(pages: list[bytes], window: Window) -> bytes:
    """The bytes a window takes, page by page, as horizontal addressing fills it."""
    return b"".join(
        pages[page][window.first_col : window.last_col + 1]
        for page in range(window.first_page, window.last_page + 1)
    )
