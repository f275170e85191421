"""``table-companion score`` and ``advise``: Dalmatian's scorer and advisor at the command line.

    table-companion score dalmatian --total 6 --dice 1 2 3 4 5 [--several-groups] [--json]
    table-companion advise dalmatian --total 7 --dice 1 3 4 6 6 [--rerolls 2 | --budget N]

Only Dalmatian is scored by dice alone, so the game word has one choice, typed as any game
name is (``Dalmatian``, ``dalmatian``); it is there so that the command reads the same once
other games can be scored.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence

from firmware_host.commands import Subparsers, add_command, add_json_flag
from games import game_class
from games.dalmatian_advice import BUDGET, REROLLS, advise
from games.dalmatian_score import TOTALS, best_split, score
from games.dice_multisets import HAND_SIZE
from games.errors import GameError

SCOREABLE = ["dalmatian"]


def register(subparsers: Subparsers) -> None:
    scorer = add_command(subparsers, "score", description=(
        "The score of five dice and the groups that make it."))
    _add_hand(scorer)
    scorer.set_defaults(handler=run_score)

    advisor = add_command(subparsers, "advise", description=(
        "The hold with the highest expected final score under best play."))
    _add_hand(advisor)
    rule = advisor.add_mutually_exclusive_group()
    rule.add_argument("--rerolls", type=_whole_number("rerolls left", 0, REROLLS),
                      help=f"rerolls left, 0 to {REROLLS} (default {REROLLS})")
    rule.add_argument("--budget", type=_whole_number("a reroll budget left", 0, BUDGET),
                      help=f"dice that may still be rerolled under the reroll_budget variation, "
                           f"0 to {BUDGET}")
    advisor.set_defaults(handler=run_advise)


def _add_hand(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", type=_scoreable,
                        help="the game: " + ", ".join(SCOREABLE))
    parser.add_argument("--total", required=True,
                        type=_whole_number("the starting total", TOTALS.start, TOTALS.stop - 1),
                        help="the starting total of the round, 2 to 12")
    parser.add_argument("--dice", required=True, nargs=HAND_SIZE, metavar="DIE",
                        type=_whole_number("a die", 1, 6), help="the five dice showing")
    parser.add_argument("--several-groups", action="store_true",
                        help="variation 1: a die may count in several groups")
    add_json_flag(parser)


def _scoreable(text: str) -> str:
    """An argparse type: the registry name of a game scored by dice alone, in any case."""
    try:
        name = game_class(text).NAME
    except GameError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    if name not in SCOREABLE:
        raise argparse.ArgumentTypeError(
            f"{game_class(name).TITLE} is not scored by dice alone; only "
            + ", ".join(game_class(n).TITLE for n in SCOREABLE) + " is")
    return name


def _whole_number(what: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number in ``low..high``, or a message naming ``what``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} is {low} to {high}, not {text!r}")
        return value

    return parse


def _dashed(dice: Sequence[int]) -> str:
    return "-".join(map(str, dice)) or "nothing"


def run_score(args: argparse.Namespace) -> int:
    points = score(args.dice, args.total, args.several_groups)
    groups = best_split(args.dice, args.total, args.several_groups)
    if args.json:
        print(json.dumps({
            "game": args.game, "total": args.total, "dice": args.dice,
            "several_groups": args.several_groups,
            "score": points, "groups": [list(g) for g in groups],
        }))
        return 0
    print(f"total {args.total}, dice {_dashed(args.dice)}: score {points}")
    shown = "  ".join("+".join(map(str, g)) for g in groups) or "none"
    print(f"groups: {shown}" + ("  (a die may count in several)" if args.several_groups else ""))
    return 0


def run_advise(args: argparse.Namespace) -> int:
    advice = advise(args.dice, args.total, rerolls=args.rerolls, budget=args.budget,
                    several_groups=args.several_groups)
    now = score(args.dice, args.total, args.several_groups)
    rerolls = None if args.budget is not None else REROLLS if args.rerolls is None \
        else args.rerolls  # what the advice assumed: the rule's two unless told
    if args.json:
        print(json.dumps({
            "game": args.game, "total": args.total, "dice": args.dice,
            "rerolls": rerolls, "budget": args.budget,
            "several_groups": args.several_groups, "score_now": now,
            "hold": list(advice.hold), "reroll": list(advice.reroll),
            "expected": advice.expected, "stop": advice.stops,
        }))
        return 0
    if rerolls is None:
        left = f"{args.budget} {'die' if args.budget == 1 else 'dice'} of reroll budget left"
    else:
        left = f"{rerolls} reroll{'' if rerolls == 1 else 's'} left"
    print(f"total {args.total}, dice {_dashed(args.dice)}, {left}: scores {now} now")
    if advice.stops:
        print(f"stop: keep all five, scores {now}")
    else:  # the words and the label of the screen's hint ("keep 1-3 ≈4.0 pts")
        kept = f"keep {_dashed(advice.hold)}, " if advice.hold else ""
        print(f"{kept}reroll {_dashed(advice.reroll)}: ≈{advice.expected:.3f} pts expected")
    return 0
