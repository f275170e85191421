"""``table-companion league remove``: take a table's games out of the hub's nights.

    $ sudo table-companion league remove --night 2025-11-29 --table table-3
    removed 30 games of table-3 from the night of 2025-11-29: 1, 2, 3, ...

Run on the hub's machine, on its file of nights (``--db``; the hub's own by default): it
needs no network and nobody on the night's network can reach it. A running hub sees the
removal within a second, logs it, and the league rates its games again; the file keeps a
note of every removal (its ``removed`` table). A game of a night still open (tonight, or
last night until noon) comes back if its table sends it again: stop that table first.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
from pathlib import Path

from firmware_host.commands import Subparsers, add_command
from firmware_host.commands.hub import default_db, night_date
from firmware_host.errors import UsageError
from firmware_host.hub.store import remove_games
from firmware_host.night.topics import table_id

INSTALLED_DB = Path("/var/lib/table-companion-hub/night.sqlite3")  # install.sh --hub's


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "league", description=(
        "Remove a game, or a whole night's games, of one table from the hub's nights; the "
        "league rates the games left again. On the hub's machine only, on its file."))
    actions = parser.add_subparsers(dest="action", required=True, metavar="remove")
    remove = actions.add_parser("remove", help="remove a table's games of one night",
                                description="Remove a table's game, or all its games, of "
                                            "one night from the hub's file.")
    remove.add_argument("--night", type=night_date, required=True, metavar="YYYY-MM-DD",
                        help="the night (as /nights lists it)")
    remove.add_argument("--table", required=True, metavar="ID",
                        help="the table's id, as in the game's address (e.g. table-3)")
    remove.add_argument("--game", type=game_number, metavar="N",
                        help="only this game (default: every game of the table that night)")
    remove.add_argument("--db", type=Path, metavar="PATH",
                        help=f"the hub's file (default: {INSTALLED_DB} if it is there, else "
                             "the one `table-companion hub` keeps for this user)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    table = table_id(args.table)
    if not table:
        raise UsageError(f"--table {args.table!r}: not a table's id; write it as in the "
                         "game's address, e.g. table-3")
    path = args.db or (INSTALLED_DB if INSTALLED_DB.exists() else default_db())
    if not path.is_file():
        if args.db is None and os.path.lexists(INSTALLED_DB.parent) and not os.access(
                INSTALLED_DB.parent, os.R_OK | os.X_OK):
            raise UsageError(f"{INSTALLED_DB}: this user may not reach it; run it with sudo")
        raise UsageError(f"{path}: no hub's file there; name it with --db PATH")
    try:
        removed = remove_games(path, args.night, table, args.game)
    except sqlite3.Error as err:
        raise UsageError(f"{path}: cannot remove games there ({err}); is it the hub's "
                         "file, and may you write it (sudo)?") from None
    which = f"game {args.game}" if args.game is not None else "any game"
    if not removed:
        raise UsageError(f"{table} has no {which.removeprefix('any ')} in the night of "
                         f"{args.night} in {path}; /nights on the hub's page lists them")
    print(f"removed {len(removed)} game{'s' if len(removed) != 1 else ''} of {table} from "
          f"the night of {args.night}: {', '.join(map(str, removed))}")
    return 0


def game_number(text: str) -> int:
    if not text.isascii() or not text.isdigit() or not 0 < int(text) < 10**9:
        raise argparse.ArgumentTypeError(f"{text!r} is not a game's number, e.g. 7")
    return int(text)
