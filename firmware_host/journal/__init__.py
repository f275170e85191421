"""The journal: every accepted action on disk before the table sees it, and the night's results.

:class:`Journal` (:mod:`~firmware_host.journal.journal`) is the open file; the values it gives
out are in :mod:`~firmware_host.journal.played`. Errors a person can meet are
:class:`JournalError`, with one line saying what to do.
"""

from __future__ import annotations

from firmware_host.journal.clock import system_clock
from firmware_host.journal.errors import JournalError
from firmware_host.journal.journal import Journal
from firmware_host.journal.played import (
    PlayedGame,
    PlayerResult,
    Standing,
    Throw,
    night_of,
    places,
    standings,
)
from firmware_host.journal.records import Problem
from firmware_host.journal.schema import APPLICATION_ID, SCHEMA_VERSION, SOURCES, UNKNOWN_SOURCE

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "SOURCES",
    "UNKNOWN_SOURCE",
    "Journal",
    "JournalError",
    "PlayedGame",
    "PlayerResult",
    "Problem",
    "Standing",
    "Throw",
    "night_of",
    "places",
    "standings",
    "system_clock",
]
