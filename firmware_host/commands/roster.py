"""``table-companion roster``: who the game night's players are, and joining two names.

    $ table-companion roster
    chris     Christopher (also Chris, Kit)       12 games, 3 nights
    ann       Ann                                  9 games, 3 nights
    $ table-companion roster merge Christopher "Chris P"

``list`` (the default) shows the roster file's players and every player of the hub's
nights (``--db``, when the file is there), with the names the tables wrote; ``merge`` makes
the other names aliases of the first and rewrites the roster file, which a running hub
reads again within a second (its standings and ratings follow).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import stat
import tempfile
from collections import defaultdict
from pathlib import Path

from firmware_host.commands import Subparsers, add_command, output_file
from firmware_host.commands.hub import ROSTER, default_db
from firmware_host.errors import UsageError
from firmware_host.hub.league.finished import FinishedGame
from firmware_host.hub.league.roster import Roster, RosterError, read
from firmware_host.hub.store import stored_games


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "roster", description=(
        "List the game night's players (the roster file's and the hub's), or merge names "
        "that are one person. Names are matched after case, spaces, accents and punctuation "
        "are set aside, so 'José' and 'jose ' are one player without a roster."))
    parser.add_argument("action", nargs="?", choices=("list", "merge"), default="list",
                        help="list (default) or merge")
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="merge: the name to keep, then the names that are the same person")
    parser.add_argument("--roster", type=Path, default=ROSTER, metavar="FILE",
                        help=f"the roster file (default: {ROSTER})")
    parser.add_argument("--db", type=Path, metavar="PATH",
                        help="the hub's nights, to list who played (default: the hub's own "
                             "file, if this user may read it)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        roster = read(args.roster)
    except RosterError as err:
        raise UsageError(f"{err}; mend it and try again") from None
    if args.action == "merge":
        if len(args.names) < 2:
            raise UsageError("merge takes the name to keep and at least one other, e.g. "
                             "roster merge Christopher Chris")
        try:
            merged = roster.merge(*args.names)
        except RosterError as err:
            raise UsageError(str(err)) from None
        write(merged, args.roster)
        person = merged.person(merged.id_of(args.names[0]))
        assert person is not None
        print(f"{person.id}: {person.name}, also {', '.join(person.aliases)} "
              f"(written to {args.roster})")
        return 0
    if args.names:
        raise UsageError("list takes no names; did you mean roster merge?")
    print(listing(roster, games(args.db)), end="")
    return 0


def games(db: Path | None) -> list[FinishedGame]:
    path = db or default_db()
    if db is None and not os.access(path, os.R_OK):
        return []
    try:
        return stored_games(path)
    except sqlite3.Error as err:
        raise UsageError(f"--db {path}: not a hub's nights ({err})") from None


def listing(roster: Roster, played: list[FinishedGame]) -> str:
    """A line per player: id, name, other names, games and nights."""
    written: dict[str, dict[str, None]] = defaultdict(dict)
    nights: dict[str, set[str]] = defaultdict(set)
    count: dict[str, int] = defaultdict(int)
    for game in played:
        for player in game.players:
            player_id = roster.id_of(player.name)
            written[player_id][player.name] = None
            nights[player_id].add(game.night)
            count[player_id] += 1
    for person in roster.people:
        written.setdefault(person.id, {})
    if not written:
        return "No player yet: no roster file, and no game on the hub.\n"
    shown = roster.shown_as(name for game in played for name in (p.name for p in game.players))
    lines = []
    for player_id in sorted(written, key=lambda i: (-count[i], i)):
        listed = roster.person(player_id)
        name = listed.name if listed else shown[next(iter(written[player_id]))]
        others = [n for n in [*(listed.aliases if listed else ()), *written[player_id]]
                  if n != name]
        also = f" (also {', '.join(dict.fromkeys(others))})" if others else ""
        lines.append(f"{player_id:<12} {name + also:<40} {count[player_id]:>4} games, "
                     f"{len(nights[player_id])} nights")
    return "\n".join(lines) + "\n"


def write(roster: Roster, path: Path) -> None:
    """``roster`` into ``path`` whole or not at all (a hub reading it never sees half). A
    file that was there keeps its group and mode (install.sh --hub makes it readable by the
    hub's group alone); a new one is readable by all, the hub's service among them."""
    output_file(path, "--roster")
    temporary = None
    try:
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent,
                                         prefix=".roster-", delete=False) as out:
            temporary = Path(out.name)
            out.write(roster.toml())
        keep(temporary, path)
        temporary.replace(path)
    except OSError as err:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        raise UsageError(f"--roster {path}: cannot write it ({err.strerror or err})") from None


def keep(new: Path, old: Path) -> None:
    """``new`` with ``old``'s group and mode, or readable by all when there is no ``old``."""
    try:
        was = old.stat()
    except FileNotFoundError:
        new.chmod(0o644)
        return
    if was.st_gid != new.stat().st_gid:
        os.chown(new, -1, was.st_gid)  # root's (sudo), or a group this user is in
    new.chmod(stat.S_IMODE(was.st_mode))
