"""The ``table-companion`` command: one subcommand per module in ``firmware_host.commands``.

A command module provides ``register(subparsers)`` which adds its parser and sets
``handler(args) -> int``. Errors a user can fix (a bad die, an unknown game, a bad config)
are :class:`~games.errors.GameError` or :class:`firmware_host.errors.UsageError`: they
become a one-line message and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

from firmware_host.errors import UsageError
from games.errors import GameError

COMMANDS = ["games", "run", "sim", "export", "dalmatian", "wiring", "selftest"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="table-companion",
        description="Referee and scorekeeper for tabletop dice games.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        import_module(f"firmware_host.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
    except (GameError, UsageError) as err:
        parser.exit(2, f"{parser.prog} {args.command}: error: {err}\n")
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
