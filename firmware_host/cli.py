"""The ``table-companion`` command: one subcommand per module in ``firmware_host.commands``.

Only the module of the command being run is imported (see
:data:`firmware_host.commands.COMMANDS`): ``table-companion games`` starts without Pillow,
gpiozero or luma. A command module provides ``register(subparsers)`` which adds its parser
and sets ``handler(args) -> int``. Errors a user can fix (a bad die, an unknown game, a bad
config, a folder that cannot be written) are :class:`~games.errors.GameError`,
:class:`firmware_host.errors.UsageError` or an :class:`OSError` naming a file: they become a
one-line message and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import Any, NoReturn

from firmware_host.commands import COMMANDS
from firmware_host.errors import UsageError
from games.errors import GameError

PROG = "table-companion"


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version(PROG)
        except PackageNotFoundError:
            number = "(not installed)"
        print(f"{PROG} {number}")
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """Bad arguments are one line, what was wrong and where the help is; argparse's usage
    block shows with ``--help`` only. Subcommands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}; see {self.prog} --help\n")


class _Formatter(argparse.HelpFormatter):
    """Lists the commands without argparse's line naming their metavar above them."""

    def _format_action(self, action: argparse.Action) -> str:
        text = super()._format_action(action)
        if action.nargs == argparse.PARSER:
            text = text.split("\n", 1)[1]
        return text


def chosen_command(argv: Sequence[str]) -> str | None:
    """The subcommand named in ``argv``: its first word that is not an option."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command``, only that command's module is imported and the others
    are there by name and summary (enough for --help and for argparse's choices)."""
    parser = _Parser(
        prog=PROG, description="Referee and scorekeeper for tabletop dice games.",
        formatter_class=_Formatter,
        epilog=f"'{PROG} COMMAND --help' shows a command's options. "
               "./run.sh with no arguments starts the simulator (the service on a Pi).")
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    wanted = COMMANDS[command].module if command in COMMANDS else None
    for name, entry in COMMANDS.items():
        if name in subparsers.choices:
            continue  # registered by an earlier command's module (score and advise)
        if command is None or entry.module == wanted:
            import_module(f"firmware_host.commands.{entry.module}").register(subparsers)
        else:
            subparsers.add_parser(name, help=entry.summary)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = chosen_command(argv)
    parser = build_parser(command if command in COMMANDS else "")
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        status: int = args.handler(args)
    except (GameError, UsageError) as err:
        parser.exit(2, f"{PROG} {args.command}: error: {err}\n")
    except BrokenPipeError:  # `table-companion export | head`: the reader has had enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as err:
        if err.filename is None:
            raise
        parser.exit(2, f"{PROG} {args.command}: error: {err.filename}: "
                       f"{err.strerror or err}; check that the folder exists and that you "
                       "may use it\n")
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
