"""The simulator's terminal: keys without Enter or echo, and the screen with lines under it,
in whatever size of terminal it is given.

:func:`keys_mode` gives the terminal back exactly as it was, however the simulator ends
(``q``, Ctrl-C, SIGTERM, an exception). Ctrl-C still raises SIGINT in this mode, which the
loop's signal handler turns into a clean stop.
"""

from __future__ import annotations

import codecs
import os
import select
import signal
import termios
import textwrap
import tty
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import TextIO

from PIL import Image

from firmware_host.sim.view import AUTO, View, choose

HIDE_CURSOR = "\x1b[?25l"
SHOW_CURSOR = "\x1b[?25h"


@contextmanager
def keys_mode(fd: int, out: TextIO) -> Iterator[None]:
    """Each key arrives as typed and is not echoed; the cursor is hidden meanwhile. Keys
    not read by the end are dropped, not left for the shell to run."""
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd, termios.TCSANOW)
        out.write(HIDE_CURSOR)
        out.flush()
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSAFLUSH, saved)
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
    """The frame drawn from the terminal's top left in the view that fits (see
    :func:`firmware_host.sim.view.choose`), with ``footer()``'s lines under it: the key help
    (wrapped to the width) and the status (cut to it). :meth:`redraw_footer` redraws them
    alone; after :meth:`resized` (a SIGWINCH) the next :meth:`poll` draws everything anew in
    the view the new size allows, or a line saying the size needed.
    """

    def __init__(self, out: TextIO, footer: Callable[[], list[str]], view: str = AUTO) -> None:
        self.out = out
        self.footer = footer
        self.choice = view
        self.image: Image.Image | None = None
        self.layout: View | str | None = None  # the view in use, or the too-small line
        self._resized = True
        self._pixels: bytes | None = None
        self._wake: Callable[[], None] | None = None

    def show(self, image: Image.Image) -> None:
        pixels = image.tobytes()
        if pixels == self._pixels and not self._resized:
            return
        self.image, self._pixels = image, pixels
        self.draw()

    def resized(self, signum: int = 0, frame: object = None) -> None:
        """The terminal's size changed: a signal handler, so it only takes note (and wakes
        the loop, when :meth:`follow_resizes` was given a ``wake``)."""
        self._resized = True
        if self._wake is not None:
            self._wake()

    def follow_resizes(self, resources: ExitStack, wake: Callable[[], None] | None = None
                       ) -> None:
        """Take SIGWINCH (:meth:`resized`) until ``resources`` close, then hand it back.
        ``wake`` (safe in a signal handler) brings the loop to :meth:`poll` at once, for a
        loop that otherwise sleeps until the next event."""
        self._wake = wake
        previous = signal.signal(signal.SIGWINCH, self.resized)
        resources.callback(signal.signal, signal.SIGWINCH, previous)

    def poll(self, now: float) -> None:
        """One of the loop's pollers: draw anew once the terminal has been resized; called
        again only when the loop is woken (it asks for no time)."""
        if self._resized and self.image is not None:
            self.draw()

    def size(self) -> tuple[int, int]:
        """Columns and rows of the terminal drawn on (80x24 when it says 0x0)."""
        try:
            columns, rows = os.get_terminal_size(self.out.fileno())
        except (OSError, ValueError):
            columns = rows = 0
        return columns or 80, rows or 24

    def _footer_lines(self, width: int) -> list[str]:
        *helps, status = self.footer()
        lines = [part for line in helps for part in textwrap.wrap(line, width) or [""]]
        return [*lines, status if len(status) <= width else status[:width - 1] + "…"]

    def draw(self) -> None:
        if self.image is None:
            return
        columns, rows = self.size()
        width = max(columns - 1, 1)
        footer = self._footer_lines(width)
        self.layout = choose(self.choice, columns, rows,
                             lambda across: len(self._footer_lines(max(across - 1, 1))))
        text = ["\x1b[H"]
        if self._resized:
            text.append("\x1b[2J")
            self._resized = False
        if isinstance(self.layout, str):
            text.append(self.layout + "\x1b[J")
        else:
            lines = self.layout.lines(self.image)
            text.append("".join(line + "\x1b[K\r\n" for line in lines))
            text.append(self._footer_text(footer))
        self.out.write("".join(text))
        self.out.flush()

    def _footer_text(self, footer: list[str]) -> str:
        assert isinstance(self.layout, View)
        below = f"\x1b[{self.layout.rows + 1};1H"
        return below + "\x1b[K\r\n".join(footer) + "\x1b[J" + below

    def redraw_footer(self) -> None:
        if isinstance(self.layout, View) and not self._resized:
            self.out.write(self._footer_text(self._footer_lines(max(self.size()[0] - 1, 1))))
            self.out.flush()

    def leave(self) -> None:
        """Keep the last frame and the key help; clear the rest and go below them."""
        if isinstance(self.layout, View):
            self.out.write(f"\x1b[{self.layout.rows + 2};1H\x1b[J")
        elif self.layout is not None:
            self.out.write("\r\n")
        self.out.flush()
