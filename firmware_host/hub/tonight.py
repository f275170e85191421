"""The hub owns the clock of the night: which night a game belongs to, and what is too new.

A table's clock and its time zone are its own, and a table may lie: a game dated
``9999-12-31`` would become "tonight" and hide every other table's games. So the hub puts
each finished game in a night by its own clock (the night turns at 06:00 in the hub's time
zone, as in the journal), and refuses a message stamped later than its own time by more
than :data:`TOLERANCE` (a live state from the future would also freeze its table's card,
since an older one is ignored). The host can still name the night to show (``--night``).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from firmware_host.journal import night_of
from firmware_host.night.topics import BadMessage, Game, Live, Message, moment

TOLERANCE = timedelta(minutes=5)  # clocks a few minutes apart are still one night


def dated(message: Message, now: datetime) -> Message:
    """``message`` with its night set by the hub (a game's); BadMessage if it is stamped
    after ``now`` (an aware time) by more than :data:`TOLERANCE`."""
    match message:
        case Live(at=at):
            _not_after(at, "at", now)
        case Game(started=started, ended=ended):
            _not_after(started, "started", now)
            _not_after(ended, "ended", now)
            local = moment(started).astimezone(now.tzinfo)
            return replace(message, night=night_of(local).isoformat())
    return message


def _not_after(stamp: str, key: str, now: datetime) -> None:
    ahead = moment(stamp) - now
    if ahead > TOLERANCE:
        raise BadMessage(f"{key} {stamp} is {ahead.total_seconds():.0f} s after the hub's "
                         "clock: check the table's clock (timedatectl)")


def local_now() -> datetime:
    """The hub's time, in its own time zone."""
    return datetime.now().astimezone()
