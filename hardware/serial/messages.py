"""The TC1 messages a serial device sends, as typed values (spec: ``serial_protocol.md``).

:func:`parse_message` turns the words of a framed line into one of these or raises
:class:`~hardware.serial.framing.ProtocolError` (UNKNOWN for a verb the host does not take,
FORMAT for wrong arguments); the bridge turns the values into events.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from hardware.serial.framing import FORMAT, UNKNOWN, ProtocolError

MAX_DICE = 10
MAX_FACE = 99
MAX_SIDE = 16
"""Rows and columns of a serial board: 1 to 16 (a row travels as at most 4 hex digits)."""


@dataclass(frozen=True)
class Hello:
    """The device's answer to the host's HELLO: who it is."""

    name: str
    version: str


@dataclass(frozen=True)
class Dice:
    values: tuple[int, ...]


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    occupied: bool


@dataclass(frozen=True)
class Board:
    """A full snapshot: which cells of a ``rows`` x ``cols`` board are occupied."""

    rows: int
    cols: int
    occupied: frozenset[tuple[int, int]]


@dataclass(frozen=True)
class ErrorReply:
    """The device could not take a line the host sent."""

    code: str
    detail: str


Message = Hello | Dice | Cell | Board | ErrorReply


def parse_message(words: list[str]) -> Message:
    """One message from a line's words (the verb first); raises ``ProtocolError``."""
    verb, args = words[0], words[1:]
    match verb:
        case "HELLO":
            _arity(verb, args, 2, 2)
            return Hello(args[0], args[1])
        case "DICE":
            _arity(verb, args, 1, MAX_DICE)
            return Dice(tuple(_number(verb, arg, 1, MAX_FACE) for arg in args))
        case "CELL":
            _arity(verb, args, 3, 3)
            return Cell(_number(verb, args[0], 0, MAX_SIDE - 1),
                        _number(verb, args[1], 0, MAX_SIDE - 1),
                        bool(_number(verb, args[2], 0, 1)))
        case "BOARD":
            return _board(args)
        case "ERR":
            _arity(verb, args, 1, MAX_SIDE)
            return ErrorReply(args[0], " ".join(args[1:]))
    raise ProtocolError(UNKNOWN, f"no verb {verb!r} from a device")


def _board(args: list[str]) -> Board:
    if len(args) < 2:
        raise ProtocolError(FORMAT, "BOARD takes rows, cols and one hex word per row")
    rows = _number("BOARD", args[0], 1, MAX_SIDE)
    cols = _number("BOARD", args[1], 1, MAX_SIDE)
    _arity("BOARD", args, rows + 2, rows + 2)
    occupied: set[tuple[int, int]] = set()
    for row, word in enumerate(args[2:]):
        if not all(char in string.hexdigits for char in word):
            raise ProtocolError(FORMAT, f"BOARD row {row} {word!r} is not hex")
        mask = int(word, 16)
        if mask >= 1 << cols or len(word) > 4:
            raise ProtocolError(FORMAT, f"BOARD row {row} {word!r} has cells beyond {cols}")
        occupied.update((row, col) for col in range(cols) if mask >> col & 1)
    return Board(rows, cols, frozenset(occupied))


def _arity(verb: str, args: list[str], least: int, most: int) -> None:
    if not least <= len(args) <= most:
        wanted = str(least) if least == most else f"{least} to {most}"
        raise ProtocolError(FORMAT, f"{verb} takes {wanted} arguments, got {len(args)}")


def _number(verb: str, word: str, low: int, high: int) -> int:
    if not word.isdigit() or not low <= int(word) <= high:
        raise ProtocolError(FORMAT, f"{verb} argument {word!r} is not a number {low} to {high}")
    return int(word)
