"""The next round's seat at this table, from the publisher (online) to the referee (offline).

The publisher hears the host's seating at the broker and writes this table's line ("Next
round: table 3 with Ann, Bob, Cy") to a small file beside the journal, the folder both
services share; the referee, which has no network, reads it between games and shows it
once when it changes. The file is written whole (a rename) and read as untrusted text:
bounded and printable only. Over a notice (a game's end, with the QR code of its page) the
line is shown in turn with the notice, so nobody has to press to read where they sit next.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from firmware_host.views import NoticeView

LOOK_S = 2.0  # how often the referee looks between games
MAX_CHARS = 300  # eight names of 32 characters and the words around them
TITLE = "Next round"


def beside(journal: Path) -> Path:
    """The file for the journal at ``journal``."""
    return journal.with_name(journal.name + ".next-round")


def write(path: Path, line: str) -> None:
    """``line`` in ``path`` whole, or no file when ``line`` is ''."""
    if not line:
        path.unlink(missing_ok=True)
        return
    part = path.with_name(path.name + ".part")
    part.write_text(line + "\n", encoding="utf-8")
    os.replace(part, path)


def read(path: Path) -> str:
    """The line in ``path`` ('' when there is none), without anything unprintable."""
    try:
        with path.open("rb") as file:
            data = file.read(4 * MAX_CHARS)
    except OSError:
        return ""
    text = data.decode("utf-8", errors="replace").split("\n", 1)[0]
    return "".join(c for c in text if c.isprintable())[:MAX_CHARS].strip()


def notice(line: str) -> NoticeView:
    """``line`` as a screen of its own: "Next round" big in the band, the table and
    "with" on a line, the names wrapped below it, across the whole width (the QR code is on
    the notice it turns with). A line of another shape is shown whole under the title."""
    rest = line.removeprefix(TITLE + ": ")
    where, found, names = rest.partition(" with ")
    if rest == line or not found:
        return NoticeView(TITLE, (rest,))
    return NoticeView(TITLE, (f"{where} with", names))


@dataclass
class NextRound:
    """The referee's look at the file: :meth:`look` gives a line to show once, when it
    has changed, at most every :data:`LOOK_S`."""

    path: Path
    shown: str = ""
    due: float = 0.0

    def look(self, now: float) -> str:
        if now < self.due:
            return ""
        self.due = now + LOOK_S
        text = read(self.path)
        if text == self.shown:
            return ""
        self.shown = text
        return text
