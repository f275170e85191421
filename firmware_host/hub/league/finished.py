"""A finished game as the hub keeps it and the league reads it: the league's own record.

The wire's message (:class:`firmware_host.night.topics.Game`) is what a table sends; the
store reads each one into a :class:`FinishedGame` once, where it comes in
(:func:`firmware_host.hub.store.finished`), and the league, the pages and the exports read
only this. Its fields are the message's, in the same order (the hub's JSON is made from
them: ``hubGame`` in ``docs/schema/``), so nothing a player sees changes; a new version of
the wire changes that one reading, not the league.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.dalmatian_luck import line


@dataclass(frozen=True)
class Seat:
    """A player of a finished game at their seat (0 for P1); ``id`` is the roster's id when
    the table chose the name from the night's roster ('' otherwise: the hub matches the
    name)."""

    seat: int
    name: str
    score: int
    place: int
    id: str = ""


@dataclass(frozen=True)
class Luck:
    """A player's luck and decisions in a game of Dalmatian, in hundredths of a point."""

    seat: int
    luck: int
    decisions: int

    def line(self, name: str) -> str:
        """``Ann: +3.10 luck, -0.40 decisions``, as ``table-companion luck`` says it."""
        return line(name, self.luck / 100, self.decisions / 100)


@dataclass(frozen=True)
class Throw:
    """One throw of a finished game: the seat that threw, where the dice came from (button,
    manual, serial or unknown) and the dice."""

    seat: int
    source: str
    dice: tuple[int, ...]

    def __str__(self) -> str:
        """``0:button:1-2-3``, as the wire and the hub's file write it."""
        return f"{self.seat}:{self.source}:{'-'.join(map(str, self.dice))}"


@dataclass(frozen=True)
class FinishedGame:
    """A finished game of a night; ``table`` + ``id`` identify it across the night. Times
    are ISO 8601 with their offset, as the table stamped them; ``night`` is the hub's."""

    table: str
    name: str
    id: int
    game: str
    started: str
    ended: str
    night: str
    players: tuple[Seat, ...]
    luck: tuple[Luck, ...] = ()
    throws: tuple[Throw, ...] = ()
    starter: int | None = None  # the seat that started (won the opening), when known
