"""``table-companion dice``: were the night's dice fair? Every throw of the finished games of
the latest night (``--night DATE``, ``--all``) against a fair die, with
:mod:`firmware_host.hub.league.fairness`'s chi-square test and its careful words, one table
(journal) and one source of dice at a time: a loaded physical die typed in must not hide
behind the button roller's fair ones, nor one table's behind another's.

    Dice of 2026-11-21: 3 games, 212 throws, 731 dice
    Table 2, the button roller: 150 throws, 600 dice
      faces: 600 dice: nothing unusual (p = 0.62)
        1: 98  2: 101  3: 100  4: 95  5: 104  6: 102
      totals of 2 dice: 96 throws: not enough to say anything (the test needs 180)
    Table 2, dice typed in: 62 throws, 131 dice
      ...

Faces count every die thrown; the totals of throws of two and of three dice are tested too
(more dice need far more throws than a night has). Throws journaled before the journal
noted their source are counted under "source unknown".
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from firmware_host.commands import Subparsers, add_command, add_journal_options, journal_to_read
from firmware_host.commands.dice_pair import SCAN_S, run_pair
from firmware_host.commands.export import add_night_options, of_night, read_games
from firmware_host.hub.league.fairness import (
    SOURCE_WORDS,
    Verdict,
    could_see,
    counted,
    group_label,
    judge_page,
    page_verdict,
)
from firmware_host.journal import SOURCES, UNKNOWN_SOURCE, Throw
from games.core import DIE_FACES
from games.words import count

ORDER = (*SOURCES, UNKNOWN_SOURCE)


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "dice", description=(
        "Every die thrown in the finished games of the latest night (or --night DATE, "
        "--all) against a fair die, by table and by where the dice came from (the button "
        "roller, dice typed in, a serial roller, Pixels dice): faces, and totals of throws of "
        "two and three dice. `table-companion dice pair` instead listens for the Pixels dice "
        "in range and writes them into the config's [dice] (source, pixels, count)."))
    add_journal_options(parser, "the journal file")
    parser.add_argument("tables", nargs="*", type=Path, metavar="JOURNAL", help=(
        "other tables' journals (copies made with backup), each reported as a table of its "
        "own, named by its file"))
    add_night_options(parser)
    parser.add_argument("--json", action="store_true", help="print the counts and tests as JSON")
    parser.add_argument("--seconds", type=float, default=SCAN_S, metavar="S", help=(
        f"dice pair: how long to listen (default {SCAN_S:.0f})"))
    parser.add_argument("--count", type=int, metavar="N", help=(
        "dice pair: how many dice a throw takes until a game says (default 5, or as many as "
        "were found)"))
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.tables[:1] == [Path("pair")]:
        if args.count is not None and args.count < 1:
            print("table-companion dice pair: --count must be 1 or more", file=sys.stderr)
            return 2
        return run_pair(args.config, args.seconds, args.count)
    journals = [(table_name(args), journal_to_read(args))] if (
        args.journal is not None or args.config is not None or not args.tables) else []
    journals += [(path.stem, path) for path in args.tables]
    groups: dict[tuple[str, str], list[tuple[int, ...]]] = {}
    games = 0
    nights: set[str] = set()
    failed = False
    for table, path in journals:
        reading = read_games(path, "dice", throws=True)
        for line in reading.problems + reading.earlier:
            print(f"table-companion dice: {path}: {line}", file=sys.stderr)
        failed |= bool(reading.problems)
        played = of_night(reading.games, args, path)
        games += len(played)
        nights |= {str(game.night) for game in played}
        thrown = [throw for game in played for throw in reading.throws[game.id]]
        for source, dice in by_source(thrown).items():
            groups[(table, source)] = dice
    every = [throw for thrown in groups.values() for throw in thrown]
    found = judge_page({key: counted(dice) for key, dice in groups.items()})
    verdict = page_verdict(found, group_label)
    if args.json:
        json.dump({"games": games, "throws": len(every), "verdict": verdict, "groups": [
            {"table": table, "source": source, "throws": len(dice),
             **{name: as_json(v, counts) for name, (v, counts) in found[table, source].items()}}
            for (table, source), dice in groups.items()]}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(f"Dice of {', '.join(sorted(nights)) or 'no night'}: {count(games, 'game')}, "
              f"{count(len(every), 'throw')}, {count(sum(map(len, every)), 'die')}")
        for (table, source), dice in groups.items():
            print(f"{table}, {SOURCE_WORDS[source]}: {count(len(dice), 'throw')}, "
                  f"{count(sum(map(len, dice)), 'die')}")
            for name, (v, counts) in found[table, source].items():
                print(f"  {name}: {v}")
                if name == "faces" and counts:
                    print("    " + "  ".join(f"{face}: {counts[face]}" for face in DIE_FACES))
                    seen = could_see(v.throws, v.family)
                    if seen:
                        print(f"    {seen}")
        print(verdict)
    return 1 if failed else 0


def table_name(args: argparse.Namespace) -> str:
    """The table as its config's ``[night]`` names it, else its journal's file name."""
    if args.journal is None:
        from firmware_host.config import load  # gpiozero: only when the config is read

        night = load(args.config).night
        if night is not None:
            return night.table
    return journal_to_read(args).stem


def by_source(thrown: Iterable[Throw]) -> dict[str, list[tuple[int, ...]]]:
    """The dice of ``thrown`` by where they came from, in :data:`ORDER`."""
    found: dict[str, list[tuple[int, ...]]] = {}
    for throw in thrown:
        found.setdefault(throw.source, []).append(throw.dice)
    return {source: found[source] for source in ORDER if source in found}


def as_json(verdict: Verdict, counts: Counter[int]) -> dict[str, Any]:
    return {"counts": {str(value): counts[value] for value in sorted(counts)},
            "throws": verdict.throws, "needed": verdict.needed, "statistic": verdict.statistic,
            "df": verdict.df, "p": verdict.p, "tests": verdict.family,
            "adjusted_p": verdict.judged, "unusual": verdict.unusual, "says": str(verdict)}
