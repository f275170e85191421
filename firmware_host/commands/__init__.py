"""Subcommands of ``table-companion``; each module has ``register(subparsers)``."""

from __future__ import annotations

import argparse
from typing import Any

Subparsers = Any  # argparse's _SubParsersAction is private; this names what register() takes


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
