"""``table-companion games``: the games, their player counts and options."""

from __future__ import annotations

import argparse
import json
import shutil
import textwrap

from firmware_host.commands import Subparsers, add_command, add_json_flag
from games import REGISTRY, game_class


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "games")
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    classes = [game_class(name) for name in REGISTRY]
    if args.json:
        listing = [
            {
                "name": cls.NAME,
                "title": cls.TITLE,
                "players": [cls.MIN_PLAYERS, cls.MAX_PLAYERS],
                "options": {k: {"default": o.default, "choices": o.choices, "help": o.help}
                            for k, o in cls.OPTIONS.items()},
            }
            for cls in classes
        ]
        print(json.dumps(listing, indent=2))
        return 0
    width = min(shutil.get_terminal_size().columns, 100)  # 80 in a pipe
    for cls in classes:
        players = (f"{cls.MIN_PLAYERS}" if cls.MIN_PLAYERS == cls.MAX_PLAYERS
                   else f"{cls.MIN_PLAYERS}-{cls.MAX_PLAYERS}")
        print(textwrap.fill(f"{cls.NAME:<12} {cls.TITLE} ({players} players): {cls.SUMMARY}",
                            width, subsequent_indent=" " * 13))
        for key, option in cls.OPTIONS.items():
            default = str(option.default).lower() if isinstance(option.default, bool) \
                else option.default
            print(textwrap.fill(f"{key} = {default}  ({option.allowed()}) {option.help}", width,
                                initial_indent=" " * 4, subsequent_indent=" " * 8))
    return 0
