"""``table-companion rules GAME``: a game's rules and the companion's rulings, for players.

The words are in ``games/rules/<game>.md``, written for the table; the options are listed
from the game's own option table, so they name exactly what the set-up screen and the
config take. One game is printed as plain text for the terminal; ``--all`` prints every
game in Markdown, which is ``docs/rules.md`` (a test keeps the two the same: after changing
a text, ``table-companion rules --all > docs/rules.md``).
"""

from __future__ import annotations

import argparse
import textwrap
from importlib import resources
from typing import Any

from firmware_host.commands import Subparsers, add_command
from games import REGISTRY, GameError, GameState, Option, game_class

WIDTH = 79  # the texts' lines fit an 80-column terminal

HEADER = """\
# The rules of the five games

How the companion referees each game: the rules in our own words, how it
decides what the rule sheets leave open, and the options a table may choose (on
the set-up screen, or for the first game in the config's `[game.variants]`).
`table-companion rules GAME` prints one game.
"""


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "rules", description=(
        "Print a game's rules, the companion's rulings and the game's options."))
    which = parser.add_mutually_exclusive_group()
    which.add_argument("game", metavar="GAME", nargs="?", type=game_argument,
                       help="the game, in any case: " + ", ".join(REGISTRY))
    which.add_argument("--all", action="store_true",
                       help="every game, as docs/rules.md has them")
    parser.set_defaults(handler=run)


def game_argument(text: str) -> type[GameState[Any]]:
    try:
        return game_class(text)
    except GameError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def run(args: argparse.Namespace) -> int:
    if args.all:
        print(HEADER + "\n" + "\n".join(rules(game_class(name)) for name in REGISTRY), end="")
    elif args.game is not None:
        print(plain(rules(args.game)), end="")
    else:
        for name in REGISTRY:
            print(f"{name:<12} {game_class(name).TITLE}")
        print("table-companion rules GAME prints a game's rules; --all prints every game's")
    return 0


def rules(cls: type[GameState[Any]]) -> str:
    """One game's section: title, player count, the text, then its options."""
    players = (f"{cls.MIN_PLAYERS}" if cls.MIN_PLAYERS == cls.MAX_PLAYERS
               else f"{cls.MIN_PLAYERS} to {cls.MAX_PLAYERS}")
    text = resources.files("games").joinpath("rules", f"{cls.NAME}.md").read_text("utf-8")
    options = "\n".join(
        textwrap.fill(f"- `{key}`: {option.help}; {values(option)}, default "
                      f"`{shown(option.default)}`", WIDTH, subsequent_indent="  ")
        for key, option in cls.OPTIONS.items())
    return (f"## {cls.TITLE} ({players} players)\n\n{text}\n**Options** "
            f"(`table-companion games` lists them too):\n\n{options}\n")


def plain(markdown: str) -> str:
    """A section as a terminal shows it best: the title underlined, no emphasis marks."""
    title, rest = markdown.removeprefix("## ").split("\n", 1)
    return f"{title}\n{'=' * len(title)}\n" + rest.replace("**", "").replace("`", "")


def values(option: Option) -> str:
    """What an option takes, as a player reads it."""
    if type(option.default) is bool:
        return "`true` or `false`"
    if option.choices is not None:
        return " or ".join(f"`{shown(choice)}`" for choice in option.choices)
    return "a name or a path" if isinstance(option.default, str) else "a number"


def shown(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
