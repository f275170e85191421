"""``table-companion backup PATH``: a consistent copy of the journal, safe while the service runs.

``cp`` of the ``.sqlite3`` file alone misses what is still in its write-ahead log (``-wal``)
and can catch a page half-written; SQLite's backup API copies a consistent state of both.
The copy is a single file (no ``-wal`` beside it), checked, and put in place only when whole.
"""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path

from firmware_host.commands import (
    Subparsers,
    add_command,
    add_journal_options,
    journal_to_read,
    output_file,
)
from firmware_host.errors import UsageError
from firmware_host.journal import Journal


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "backup", description=(
        "Copy the journal to PATH (a file, or a folder to put a dated copy in) with SQLite's "
        "backup API; safe while the companion runs. Use this, not cp."))
    parser.add_argument("path", type=Path, metavar="PATH",
                        help="the copy to write, or a folder for journal-DATE-TIME.sqlite3")
    add_journal_options(parser, "the journal to copy")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    source = journal_to_read(args)
    target: Path = args.path
    if target.is_dir():
        target = target / f"journal-{datetime.now():%Y%m%d-%H%M%S}.sqlite3"
    output_file(target, "PATH")
    if target.exists() and target.resolve() == source.resolve():
        raise UsageError(f"PATH: {target} is the journal itself; name another file")
    with Journal.open_existing(source) as journal:
        journal.backup(target)
    print(f"copied {source} to {target}")
    return 0
