"""``table-companion dice``: were the night's dice fair? Every throw of the finished games of
the latest night (``--night DATE``, ``--all``) against a fair die, with
:mod:`firmware_host.league.fairness`'s chi-square test and its careful words.

    Dice of 2026-11-21: 3 games, 212 throws, 731 dice
      faces: 731 dice: nothing unusual (p = 0.62)
        1: 118  2: 131  3: 120  4: 125  5: 119  6: 118
      totals of 2 dice: 96 throws: not enough to say anything (the test needs 180)

Faces count every die thrown; the totals of throws of two and of three dice are tested too
(more dice need far more throws than a night has).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable
from typing import Any

from firmware_host.commands import Subparsers, add_command, add_journal_options, journal_to_read
from firmware_host.commands.export import add_night_options, of_night, read_games
from firmware_host.league.fairness import Verdict, check, faces, totals
from games import REGISTRY
from games.core import DIE_FACES, Roll
from games.words import count

TOTALS_OF = (2, 3)  # dice in a throw whose totals a night can test


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "dice", description=(
        "Every die thrown in the finished games of the latest night (or --night DATE, "
        "--all) against a fair die: faces, and totals of throws of two and three dice."))
    add_journal_options(parser, "the journal file")
    add_night_options(parser)
    parser.add_argument("--json", action="store_true", help="print the counts and tests as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    path = journal_to_read(args)
    reading = read_games(path, "dice", replay=REGISTRY)
    for line in reading.problems + reading.earlier:
        print(f"table-companion dice: {path}: {line}", file=sys.stderr)
    games = of_night(reading.games, args, path)
    thrown = throws(text for game in games for text in reading.actions[game.id])
    found = tests(thrown)
    if args.json:
        json.dump({"games": len(games), "throws": len(thrown),
                   **{name: as_json(verdict, counts) for name, (verdict, counts) in found.items()}},
                  sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        nights = sorted({str(game.night) for game in games})
        print(f"Dice of {', '.join(nights) or 'no night'}: {count(len(games), 'game')}, "
              f"{count(len(thrown), 'throw')}, {count(sum(map(len, thrown)), 'die')}")
        for name, (verdict, counts) in found.items():
            print(f"  {name}: {verdict}")
            if name == "faces" and counts:
                print("    " + "  ".join(f"{face}: {counts[face]}" for face in DIE_FACES))
    return 1 if reading.problems else 0


def throws(actions: Iterable[str]) -> list[tuple[int, ...]]:
    """The dice of every throw among ``actions`` (rolls; moves are not throws)."""
    return [roll.dice for text in actions if (roll := Roll.parse(text)) is not None]


def tests(thrown: list[tuple[int, ...]]) -> dict[str, tuple[Verdict, Counter[int]]]:
    """The faces test, and a totals test for each size of throw in :data:`TOTALS_OF`."""
    seen = [die for dice in thrown for die in dice]
    found = {"faces": (check(seen, faces(), "dice"), Counter(seen))}
    for size in TOTALS_OF:
        sums = [sum(dice) for dice in thrown if len(dice) == size]
        if sums:
            found[f"totals of {size} dice"] = (check(sums, totals(size)), Counter(sums))
    return found


def as_json(verdict: Verdict, counts: Counter[int]) -> dict[str, Any]:
    return {"counts": {str(value): counts[value] for value in sorted(counts)},
            "throws": verdict.throws, "needed": verdict.needed, "statistic": verdict.statistic,
            "df": verdict.df, "p": verdict.p, "unusual": verdict.unusual, "says": str(verdict)}
