"""The simulator's terminal: keys without Enter or echo, and the screen with lines under it.

:func:`keys_mode` gives the terminal back exactly as it was, however the simulator ends
(``q``, Ctrl-C, SIGTERM, an exception). Ctrl-C still raises SIGINT in this mode, which the
loop's signal handler turns into a clean stop.
"""

from __future__ import annotations

import codecs
import os
import select
import shutil
import termios
import textwrap
import tty
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from PIL import Image

from hardware.display.emulators import TerminalView

HIDE_CURSOR = "\x1b[?25l"
SHOW_CURSOR = "\x1b[?25h"


@contextmanager
def keys_mode(fd: int, out: TextIO) -> Iterator[None]:
    """Each key arrives as typed and is not echoed; the cursor is hidden meanwhile."""
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd, termios.TCSANOW)
        out.write(HIDE_CURSOR)
        out.flush()
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write(SHOW_CURSOR)
        out.flush()


def reader(fd: int) -> Callable[[], str | None]:
    """A function returning what was typed on ``fd`` so far, without waiting: "" for
    nothing yet, None once the input has closed."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def read() -> str | None:
        text = ""
        while select.select([fd], [], [], 0)[0]:
            try:
                data = os.read(fd, 1024)
            except OSError:  # a pty whose other side closed
                data = b""
            if not data:
                return text or None
            text += decoder.decode(data)
        return text

    return read


class LiveScreen:
    """The frame drawn in place, with ``footer()``'s lines under it (wrapped to the
    terminal's width), also redrawn alone by :meth:`redraw_footer` when only they changed.

    The cursor rests on the first footer line, just below the frame, which is where
    :class:`~hardware.display.emulators.TerminalView` expects it for drawing in place.
    """

    def __init__(self, out: TextIO, footer: Callable[[], list[str]]) -> None:
        self.out = out
        self.footer = footer
        self.view = TerminalView(out, in_place=True)
        self.drawn = False

    def show(self, image: Image.Image) -> None:
        self.view.show(image)
        self.drawn = True
        self.redraw_footer()

    def leave(self) -> None:
        """Keep the last frame and the first footer line; clear the rest and go below."""
        if self.drawn:
            self.out.write("\n\x1b[J")
            self.out.flush()

    def redraw_footer(self) -> None:
        if not self.drawn:
            return
        width = shutil.get_terminal_size().columns
        lines = [part for line in self.footer()
                 for part in textwrap.wrap(line, max(width - 1, 20)) or [""]]
        back = f"\x1b[{len(lines) - 1}F" if len(lines) > 1 else "\r"
        self.out.write("\x1b[J" + "\n".join(lines) + back)
        self.out.flush()
