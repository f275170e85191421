"""``table-companion export``: the finished games and standings of a night, as CSV or JSON.

By default the latest night in the journal the config names; ``--night DATE`` picks another,
``--all`` takes every night. CSV has one row per player per game (for a spreadsheet), made
as the hub makes its ``/night.csv`` (:mod:`firmware_host.hub.results`), the table named as
the config's ``[night]`` names it; JSON has each night's games and its standings, as the
hub's ``/night.json`` has them. A damaged game is left out with one line on stderr naming it
and what is wrong (exit status 1); the good ones are exported.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Container, Mapping
from datetime import date
from itertools import groupby
from pathlib import Path
from typing import Any, NamedTuple

from firmware_host.commands import (
    Subparsers,
    add_command,
    add_journal_options,
    journal_to_read,
    not_yours,
)
from firmware_host.errors import UsageError
from firmware_host.hub.league.finished import FinishedGame
from firmware_host.hub.results import csv_text, night_record
from firmware_host.hub.store import finished
from firmware_host.journal import Journal, PlayedGame, Throw, standings
from firmware_host.night.follow import as_game, worked_out
from games import REGISTRY


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "export", description=(
        "Write the finished games (and, in JSON, the standings) of the latest "
        "night, of --night DATE or of --all nights to standard output."))
    parser.add_argument("--format", choices=("csv", "json"), default="csv",
                        help="csv (one row per player per game, the default) or json")
    add_journal_options(parser, "the journal file")
    add_night_options(parser)
    parser.set_defaults(handler=run)


def night_argument(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date; write YYYY-MM-DD") from None


def run(args: argparse.Namespace) -> int:
    path = journal_to_read(args)
    games, problems, earlier, actions, thrown = read_games(path, replay=REGISTRY, throws=True)
    print(f"table-companion export: reading {path}", file=sys.stderr)
    for line in problems + earlier:  # one line each, and the good games still go out
        print(f"table-companion export: {path}: {line}", file=sys.stderr)
    games = of_night(games, args, path)
    from firmware_host.config import load  # gpiozero: only once the journal was read

    night = load(args.config).night
    table = ("", "") if night is None else (night.table_id, night.table)
    if args.format == "csv":
        sys.stdout.write(csv_text(finished(as_game(*table, game)) for game in games))
    else:
        made = {game.id: finished(as_game(table[0], table[1], game,
                                          *worked_out(game, actions[game.id], thrown[game.id])))
                for game in games}
        json.dump(as_json(games, made), sys.stdout, indent=2)
        sys.stdout.write("\n")
    return 1 if problems else 0


def of_night(games: list[PlayedGame], args: argparse.Namespace, path: Path) -> list[PlayedGame]:
    """The games of ``--night``, of the latest night, or of ``--all``; what is missing is
    one line on stderr."""
    nights = sorted({game.night for game in games})
    if not nights:
        print(f"table-companion {args.command}: no finished game in {path} yet",
              file=sys.stderr)
    elif not args.all:
        night = args.night if args.night is not None else nights[-1]
        if night not in nights:
            shown = ", ".join(str(n) for n in nights)
            print(f"table-companion {args.command}: no finished game on the night of {night}; "
                  f"nights: {shown}", file=sys.stderr)
        games = [game for game in games if game.night == night]
    return games


def add_night_options(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--night", type=night_argument, metavar="DATE",
                       help="the night that began on DATE (YYYY-MM-DD; it runs to 06:00)")
    which.add_argument("--all", action="store_true", help="every night in the journal")


class Reading(NamedTuple):
    games: list[PlayedGame]
    problems: list[str]  # found now
    earlier: list[str]  # games set aside before
    actions: dict[int, list[str]]  # game id -> actions, for the games asked to replay
    throws: dict[int, list[Throw]]  # game id -> throws with their source, when asked


def read_games(path: Path, command: str = "export", replay: Container[str] = (),
               throws: bool = False) -> Reading:
    """The finished games, the problems found now and the games set aside before, the
    actions of each finished game of the games named in ``replay`` (registry names), and
    each game's throws if asked."""
    try:
        readable = not path.exists() or os.access(path, os.R_OK)
    except PermissionError:  # a folder this user may not look into (/var/lib/...: 0750)
        readable = False
    if not readable:
        raise UsageError(not_yours(path, command))
    try:
        with Journal.open_existing(path) as journal:
            games = journal.finished_games()
            actions = {game.id: journal.actions(game) for game in games if game.game in replay}
            thrown = {game.id: journal.throws(game) for game in games} if throws else {}
            problems = [str(problem) for problem in journal.problems]
            earlier = [f"game #{game_id} was set aside ({reason})"
                       for game_id, reason in journal.set_aside()]
    except UsageError:  # SQLite's log needs the folder of a journal that is there writable
        if path.exists() and not os.access(path.parent, os.W_OK):
            raise UsageError(not_yours(path, command)) from None
        raise
    return Reading(games, problems, earlier, actions, thrown)


def as_json(games: list[PlayedGame], made: Mapping[int, FinishedGame]) -> dict[str, Any]:
    """Each night as the hub's ``/night.json`` gives one (its date, games and standings,
    made by the same code from ``made``, each game's message by its id), a game with the
    options it was played with added: the journal keeps them, the hub is not sent them.
    The hub's live part (tables, messages refused) is not in a journal."""
    nights = []
    in_order = sorted(games, key=lambda game: (game.night, game.id))
    for night, group in groupby(in_order, key=lambda game: game.night):
        played = list(group)
        record = night_record(str(night), (made[game.id] for game in played),
                              standings(played))
        for game, shown in zip(played, record["games"], strict=True):
            shown["options"] = game.options
        nights.append(record)
    return {"nights": nights}
