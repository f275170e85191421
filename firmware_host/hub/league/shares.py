"""Every table's share of the hub, bounded: what one table's login may add to the night.

A table's login can only write its own topics, but it can write anything there: games
dated a year back, thousands of games or player names, a finished game changed many times
a second. The hub takes from each table what a real night never exceeds (:class:`Bounds`)
and refuses the rest with :class:`OverBound`. Refusals are counted by table and kind
(:class:`Refusals`): ``/night.json`` lists them, the page's banner names the tables, and
the log says them in one line a minute, however many there are.

An older night is closed: a finished game goes into a night only until
:attr:`Bounds.window` after the night has turned (at 06:00, :func:`~firmware_host.journal.
night_of`), so a game begun at 05:50 and sent at 06:10, or by a table that reconnects in the
morning, is still that night's; after that the night is read-only (``hub --open-since
DATE`` opens older ones for a table that could not reach the hub that night).
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from firmware_host.journal import night_of

log = logging.getLogger("table_companion.hub")
SAY_S = 60.0  # refusals are logged in one line at most this often


@dataclass(frozen=True)
class Bounds:
    """What one table may add to one night. A long night at one table is about 60 games of
    2 to 6 players, so each bound is several times what the busiest real night reaches and
    small enough that a table at every bound costs the hub and its pages little."""

    games: int = 200  # finished games a night: 60 is a long night, one every 6 minutes
    names: int = 60  # player names in its games of a night: a table seats 2 to 6 a game
    changes: int = 100  # changes to its finished games a night (an undone last move: a few)
    rate: float = 20.0  # messages a second, on average: a table sends a few a second at most
    burst: int = 400  # and at once: a publisher that reconnects sends its night again
    window: timedelta = timedelta(hours=6)  # a night takes games until noon the next day


KINDS = {  # a kind of refusal: what the log, the banner and /night.json call it
    "closed": "games of a closed night",
    "games": "games past the night's bound",
    "names": "player names past the night's bound",
    "changes": "changes to finished games past the night's bound",
    "rate": "messages past the rate bound",
}


class OverBound(ValueError):
    """A message that would take ``table`` past a bound (a key of :data:`KINDS`): a
    well-formed message refused and counted, not a malformed one (``topics.BadMessage``)."""

    def __init__(self, table: str, kind: str, why: str) -> None:
        super().__init__(why)
        self.table = table
        self.kind = kind


def closed_before(now: datetime, window: timedelta, open_since: str = "") -> str:
    """The first night (ISO date) that still takes games at ``now`` (the hub's time):
    tonight's, and the night before until ``window`` after it turned; ``open_since``, if
    earlier, opens older ones."""
    first = night_of(now - window).isoformat()
    return min(first, open_since) if open_since else first


def closed_words(night: str, first_open: str) -> str:
    turned = date.fromisoformat(night) + timedelta(days=1)
    return (f"the night of {night} is closed (it turned at 06:00 on {turned}, and takes no "
            f"game older than {first_open}'s): an older night is read-only")


@dataclass
class Rate:
    """A table's messages, as a bucket of :attr:`Bounds.burst` that fills at
    :attr:`Bounds.rate` a second: a message takes one, and none is left past the bound."""

    bounds: Bounds
    clock: Callable[[], float] = time.monotonic
    _left: dict[str, tuple[float, float]] = field(default_factory=dict)  # table: (left, when)

    def take(self, table: str) -> None:
        """One message of ``table``; OverBound past the rate."""
        now = self.clock()
        left, when = self._left.get(table, (float(self.bounds.burst), now))
        left = min(float(self.bounds.burst), left + (now - when) * self.bounds.rate)
        if left < 1:
            self._left[table] = (left, now)
            raise OverBound(table, "rate", f"more than {self.bounds.burst} messages at once "
                            f"or {self.bounds.rate:g} a second")
        self._left[table] = (left - 1, now)


@dataclass
class Refusals:
    """Messages refused past a bound, by table and kind since the hub started; logged in
    one line a minute (:meth:`say`)."""

    clock: Callable[[], float] = time.monotonic
    counts: dict[str, Counter[str]] = field(default_factory=dict)  # table: kind: count
    _unsaid: Counter[tuple[str, str]] = field(default_factory=Counter)
    _said_at: float | None = None
    _first_why: str = ""  # the first refusal's words since the last line

    def count(self, refused: OverBound) -> None:
        self.counts.setdefault(refused.table, Counter())[refused.kind] += 1
        if not self._unsaid:
            self._first_why = str(refused)
        self._unsaid[(refused.table, refused.kind)] += 1
        self.say()

    def say(self) -> None:
        """Log what was refused since the last line, if a minute has passed since it (the
        hub calls this every second, so a refusal is logged within a minute)."""
        now = self.clock()
        if not self._unsaid or (self._said_at is not None and now - self._said_at < SAY_S):
            return
        parts = ", ".join(f"{KINDS[kind]}: {n} from {table}"
                          for (table, kind), n in sorted(self._unsaid.items()))
        log.warning("refused past the tables' bounds: %s (%s)", parts, self._first_why[:200])
        self._unsaid.clear()
        self._said_at = now

    def as_json(self) -> dict[str, dict[str, int]]:
        """For ``/night.json``: by table id, the count of each kind refused."""
        return {table: dict(sorted(kinds.items())) for table, kinds in sorted(
            self.counts.items())}

    def note(self) -> str:
        """A line for the page's banner, for the host: which tables sent more than the hub
        takes ('' when none has)."""
        if not self.counts:
            return ""
        tables = sorted(self.counts)
        return (f"The hub refuses part of what {', '.join(tables[:5])}"
                f"{' and others' if len(tables) > 5 else ''} sent: past a bound no real "
                "night reaches (/night.json counts it, the hub's log says what).")
