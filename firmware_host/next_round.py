"""The next round's seat at this table, from the publisher (online) to the referee (offline).

The publisher hears the host's seating at the broker and writes this table's line ("Next
round: table 3 with Ann, Bob, Cy") to a small file beside the journal, the folder both
services share; the referee, which has no network, reads it between games and shows it
once when it changes. The file is written whole (a rename) and read as untrusted text:
bounded and printable only. Over a notice (a game's end, with the QR code of its page) the
line is shown in turn with the notice, so nobody has to press to read where they sit next.

Under the line the file holds the seat itself as one line of JSON (:class:`Seat`: the
game the seating names and the players in seat order, with their roster ids), so the
referee's next new game offers it first and one press starts it. A file of the line alone
(an older publisher's) is shown and offers nothing.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from firmware_host.players import Player, clean, clean_id
from firmware_host.views import NoticeView

LOOK_S = 2.0  # how often the referee looks between games
MAX_CHARS = 300  # eight names of 32 characters and the words around them
TITLE = "Next round"


def beside(journal: Path) -> Path:
    """The file for the journal at ``journal``."""
    return journal.with_name(journal.name + ".next-round")


MAX_SEATED = 16  # players at one table, as the night's messages carry them


@dataclass(frozen=True)
class Seat:
    """The next round at this table: the game as the seating names it (its title) and the
    players in seat order."""

    game: str
    players: tuple[Player, ...]

    def json(self) -> str:
        return json.dumps({"game": self.game, "players": [
            {"name": p.name, "id": p.id} for p in self.players]}, ensure_ascii=False)


def write(path: Path, line: str, seat: Seat | None = None) -> None:
    """``line`` (and ``seat`` under it) in ``path`` whole, or no file when ``line`` is ''."""
    if not line:
        path.unlink(missing_ok=True)
        return
    part = path.with_name(path.name + ".part")
    part.write_text(line + "\n" + (seat.json() + "\n" if seat is not None else ""),
                    encoding="utf-8")
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


def read_seat(path: Path) -> Seat | None:
    """The seat under the line in ``path``, checked as untrusted: None when there is none,
    or when any of it is not a game's title and players' names (and ids)."""
    try:
        with path.open("rb") as file:
            data = file.read(4 * MAX_CHARS + MAX_SEATED * 4 * 120)
    except OSError:
        return None
    lines = data.decode("utf-8", errors="replace").split("\n")
    try:
        item = json.loads(lines[1]) if len(lines) > 1 and lines[1] else None
    except (ValueError, RecursionError):
        return None
    if not isinstance(item, dict) or not isinstance(item.get("players"), list):
        return None
    game, seated = clean(item.get("game")), item["players"]
    if game is None or not 0 < len(seated) <= MAX_SEATED:
        return None
    players = []
    for entry in seated:
        name = clean(entry.get("name")) if isinstance(entry, dict) else None
        if name is None:
            return None
        players.append(Player(name, clean_id(entry.get("id"))))
    return Seat(game, tuple(players))


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
    has changed, at most every :data:`LOOK_S`; :attr:`seat` is the seat the file holds
    as of the last look."""

    path: Path
    shown: str = ""
    due: float = 0.0
    seat: Seat | None = field(default=None)

    def look(self, now: float) -> str:
        if now < self.due:
            return ""
        self.due = now + LOOK_S
        text = read(self.path)
        self.seat = read_seat(self.path) if text else None
        if text == self.shown:
            return ""
        self.shown = text
        return text
