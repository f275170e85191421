"""``table-companion dice pair``: find the Pixels dice in range and write them into the
config's ``[dice]``, so a table is set up without a laptop.

Nothing is paired in Bluetooth's sense (the dice are only listened to); "pair" is the word
players know. The config is edited as text, its comments and other sections kept: the
``[dice]`` table's ``source``, ``pixels`` and ``count`` are replaced (or the table added at
the end), and the result must read as a config before it is written over the old one.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from firmware_host.config import DEFAULT_PATH, ConfigError, parse
from hardware.dice.pixels import Advertisement
from hardware.dice.reader import PixelsReader, ScannerFactory, listen
from hardware.errors import HardwareError

SCAN_S = 10.0
HEADER = re.compile(r"^\s*\[\s*dice\s*\]\s*(#.*)?$")
ANY_HEADER = re.compile(r"^\s*\[")
OURS = re.compile(r"^\s*(source|pixels|count)\s*=")


def found(die: str, advert: Advertisement) -> None:
    print(f"  {die}: {advert.leds} LEDs, battery {advert.battery}%"
          f"{', charging' if advert.charging else ''}")


def with_dice(text: str, dice: list[str], count: int) -> str:
    """``text`` (a config file's) with its ``[dice]`` table saying these ``dice``."""
    ours = ['source = "pixels"', "pixels = [" + ", ".join(f'"{d}"' for d in dice) + "]",
            f"count = {count}"]
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if HEADER.match(line)), None)
    if start is None:
        body = text.rstrip("\n")
        return (body + "\n\n" if body else "") + "\n".join(["[dice]", *ours]) + "\n"
    end = next((i for i in range(start + 1, len(lines)) if ANY_HEADER.match(lines[i])),
               len(lines))
    kept = [line for line in lines[start + 1:end] if not OURS.match(line)]
    return "\n".join([*lines[:start + 1], *ours, *kept, *lines[end:]]) + "\n"


def write_config(path: Path, dice: list[str], count: int) -> None:
    """Write ``dice`` into the config at ``path`` (made if absent); raises ConfigError when
    the result would not read, leaving the file as it was."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    new = with_dice(text, dice, count)
    parse(new, path)  # what run will read: refused here, not at the next start
    temporary = path.with_name(path.name + ".new")
    temporary.write_text(new, encoding="utf-8")
    os.replace(temporary, path)


def pair(scanners: ScannerFactory, config: Path | None, seconds: float, count: int | None, *,
         sleep: Callable[[float], None] = time.sleep) -> int:
    """The command: scan, say what was found, write it. Exit status 0, or 1 with a reason."""
    path = config or DEFAULT_PATH
    print(f"Looking for Pixels dice for {seconds:.0f} s: pick each die up to wake it (a die a "
          "phone is connected to stays silent)")
    heard = listen(PixelsReader(scanners, None), seconds, sleep, heard=found,
                   problem=lambda text: print(f"  {text}"))
    if not heard:
        print("table-companion dice pair: no Pixels dice heard; wake them and try again",
              file=sys.stderr)
        return 1
    dice = list(heard)
    wanted = min(count or 5, len(dice))
    try:
        write_config(path, dice, wanted)
    except (ConfigError, OSError) as err:
        print(f"table-companion dice pair: {path}: not written: {err}", file=sys.stderr)
        return 1
    print(f"{len(dice)} dice written into {path} ([dice], {wanted} a throw); restart the "
          "table to use them (sudo systemctl restart table-companion)")
    return 0


def run_pair(config: Path | None, seconds: float, count: int | None) -> int:
    """``dice pair`` with bleak's scanners."""
    from hardware.dice.reader import bleak_scanners

    try:
        scanners = bleak_scanners()
    except HardwareError as err:
        print(f"table-companion dice pair: {err}", file=sys.stderr)
        return 1
    return pair(scanners, config, seconds, count)
