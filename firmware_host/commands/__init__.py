"""Subcommands of ``table-companion``: each module has ``register(subparsers)``.

:data:`COMMANDS` names every subcommand, the module that registers it and its one-line
summary, so ``table-companion --help`` (and the overview printed with no arguments) is
written without importing any command module: a command imports what it needs (Pillow,
gpiozero, luma, pyserial) only when it is the one being run.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any, NamedTuple

from firmware_host.errors import UsageError

Subparsers = Any  # argparse's _SubParsersAction is private; this names what register() takes


class Command(NamedTuple):
    module: str  # in firmware_host.commands
    summary: str  # one line, shown by --help


COMMANDS: dict[str, Command] = {
    "sim": Command("sim", "play on simulated pins in this terminal, or a scenario"),
    "games": Command("games", "list the games with their player counts and options"),
    "rules": Command("rules", "print a game's rules, the rulings and its options"),
    "score": Command("dalmatian", "score five dice against a starting total (Dalmatian)"),
    "advise": Command("dalmatian", "which dice to hold, and the expected score (Dalmatian)"),
    "export": Command("export", "write a night's results as CSV or JSON"),
    "luck": Command("luck", "luck and decisions in a night's Dalmatian games"),
    "dice": Command("dice", "were a night's dice fair? faces and totals, tested"),
    "backup": Command("backup", "copy the journal safely, also while the service runs"),
    "run": Command("run", "run on the Pi's pins (what the systemd service runs)"),
    "selftest": Command("selftest", "check every button, the knob, the board and the screen"),
    "wiring": Command("wiring", "print which header pin goes to which part"),
    "publish": Command("publish", "publish this table's games to the game night's broker"),
    "hub": Command("hub", "keep the game night from the broker and serve its live page"),
    "night": Command("night", "try a game night on this machine: night --demo"),
    "seat": Command("seat", "propose the next round's seating at a game night"),
    "roster": Command("roster", "list the game night's players, or merge two names"),
    "league": Command("league", "remove a table's games from the hub's nights"),
}


def add_command(subparsers: Subparsers, name: str, description: str | None = None
                ) -> argparse.ArgumentParser:
    """The parser of command ``name``, with its summary from :data:`COMMANDS` as its help."""
    summary = COMMANDS[name].summary
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, help=summary, description=description or summary[:1].upper() + summary[1:] + ".")
    return parser


def add_journal_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--journal PATH`` and ``--config FILE``, for the commands that read a journal;
    :func:`journal_to_read` finds the file from them."""
    parser.add_argument("--journal", type=Path, metavar="PATH", help=(
        f"{what} (default: the one the config names, else the service's, else the "
        "simulator's: the first that exists)"))
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="config file naming the journal "
                             "(default: /etc/table-companion/config.toml if present)")


def journal_to_read(args: argparse.Namespace) -> Path:
    """``--journal``, else the journal the config names, else the service's, then the
    simulator's: the first that exists, so export and backup read the same file. A journal
    this user may not look at is a UsageError."""
    if args.journal is not None:
        return Path(args.journal)
    from firmware_host.config import SERVICE_JOURNAL, load, sim_journal  # gpiozero: lazily

    looked = list(dict.fromkeys([load(args.config).journal, SERVICE_JOURNAL,
                                 sim_journal(os.environ)]))
    for path in looked:
        try:
            if path.exists():
                return path
        except PermissionError:
            raise UsageError(not_yours(path, args.command)) from None
    shown = ", ".join(str(path) for path in looked)
    raise UsageError(f"no journal in {shown}; give its path with --journal PATH")


def not_yours(path: Path, command: str) -> str:
    """The one line for a journal this user may not read."""
    return (f"{path}: you may not read this journal; read it as its owner: "
            f"sudo -u table-companion table-companion {command} ...")


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")


def output_folder(folder: Path, option: str) -> Path:
    """``folder``, made if missing, once it is known to take new files; else a
    :class:`UsageError` naming it and what to do."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UsageError(f"{option}: {folder} is a file, not a folder; name a folder") from None
    except OSError as err:
        raise UsageError(f"{option}: cannot create the folder {folder} "
                         f"({err.strerror or err}); name a folder you may write in") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{option}: cannot write in {folder} (permission denied); name a "
                         "folder you may write in")
    return folder


def output_file(path: Path, option: str) -> Path:
    """``path`` once its folder exists and takes new files (the file itself is not made)."""
    if path.is_dir():
        raise UsageError(f"{option}: {path} is a folder; name a file in it")
    if path.exists() and not path.is_file():  # a device (/dev/full), a pipe: never replaced
        raise UsageError(f"{option}: {path} is not a regular file; name a file")
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"{option}: the folder {folder} does not exist; create it or name "
                         "a file in a folder that does")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists()
                                                    and not os.access(path, os.W_OK)):
        raise UsageError(f"{option}: cannot write {path} (permission denied); name a file "
                         "in a folder you may write in")
    return path
