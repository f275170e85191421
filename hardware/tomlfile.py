"""Reading the small TOML files people write by hand: the config, pin maps, scenarios.

Such a file may be anything a path can name: a FIFO (opening it blocks until a writer comes),
``/dev/zero`` (it never ends), a binary file, a file nested thousands of levels deep (Python's
TOML reader recurses and dies), bad TOML, or a path starting ``~nosuchuser``. Each becomes a
:class:`TomlFileError` with one reason and, when known, its line and column, so every caller
shows the same one line (``path, line 3, column 8: not valid TOML: Invalid value``); nothing
here hangs, grows without bound or raises a traceback.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

MAX_BYTES = 1_000_000
"""The largest file read: a config or a scenario of a thousand steps is a few tens of KB."""
MAX_DEPTH = 16
"""Tables and arrays nested deeper than this are a mistake in a hand-written file."""


class TomlFileError(ValueError):
    """A file that cannot be used as TOML; ``keys`` names the offending value, ``line`` and
    ``column`` its place, when known."""

    def __init__(self, reason: str, keys: tuple[str, ...] = (), line: int | None = None,
                 column: int | None = None) -> None:
        super().__init__(reason)
        self.keys = keys
        self.line = line
        self.column = column

    def message(self, path: object) -> str:
        """The one line: ``path, line 3, column 8: key.name: reason`` (line, column and key
        when known)."""
        where = str(path)
        if self.line is not None:
            where += f", line {self.line}"
            if self.column is not None:
                where += f", column {self.column}"
        keys = f" {'.'.join(self.keys)}:" if self.keys else ""
        return f"{where}:{keys} {self}"


def load(path: Path, missing: str | None = None) -> dict[str, Any]:
    """The table in the TOML file ``path``: :func:`read_text` then :func:`parse`.

    Every problem is a :class:`TomlFileError`, its ``message(path)`` the line to show; no
    file at all is one whose reason is ``missing``, or ``FileNotFoundError`` as it is when
    ``missing`` is None (a file that may be absent)."""
    try:
        return parse(read_text(path))
    except FileNotFoundError:
        if missing is None:
            raise
        raise TomlFileError(missing) from None


def read_text(path: Path, limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of the regular file ``path``, at most ``limit`` bytes.

    Raises ``FileNotFoundError`` as it is (callers say "no such file" their own way) and
    :class:`TomlFileError` for everything else."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise
    except OSError as err:
        raise TomlFileError(f"cannot be read ({err.strerror or err})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise TomlFileError("not a regular file (a folder, a FIFO or a device); "
                                "give a .toml file")
        data = os.read(fd, limit + 1)
    except OSError as err:
        raise TomlFileError(f"cannot be read ({err.strerror or err})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise TomlFileError(f"larger than {limit:,} bytes; is it the right file?")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise TomlFileError(f"not UTF-8 text (byte 0x{data[err.start]:02x}); save it as UTF-8",
                            line=line) from None


def parse(text: str, depth: int = MAX_DEPTH) -> dict[str, Any]:
    """``tomllib.loads`` that raises only :class:`TomlFileError`: for bad syntax (with its line
    and column), a number Python will not read, and nesting deeper than ``depth``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise _syntax_error(str(err), text) from None
    except ValueError:  # an integer of more than 4,300 digits, which Python refuses to read
        raise TomlFileError("a number too long to read; numbers here are small") from None
    except RecursionError:
        raise TomlFileError(f"tables or arrays nested deeper than {depth} levels",
                            line=_deep_line(text, depth)) from None
    keys = too_deep(data, depth)
    if keys is not None:
        raise TomlFileError(f"nested deeper than {depth} levels", keys)
    return data


def _syntax_error(message: str, text: str) -> TomlFileError:
    """Python's "Invalid value (at line 3, column 8)" as a reason with its place; "(at end of
    document)" becomes the place where the text ends."""
    at = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if at is not None:
        return TomlFileError(f"not valid TOML: {message[: at.start()]}",
                             line=int(at.group(1)), column=int(at.group(2)))
    end = re.search(r"\s*\(at end of document\)$", message)
    if end is not None:
        lines = text.split("\n")
        return TomlFileError(f"not valid TOML: {message[: end.start()]} at the end of the file",
                             line=len(lines), column=len(lines[-1]) + 1)
    return TomlFileError(f"not valid TOML: {message}")


def too_deep(data: Mapping[str, Any], depth: int) -> tuple[str, ...] | None:
    """The key path of the first value nested deeper than ``depth``, or None."""
    stack: list[tuple[Any, tuple[str, ...], int]] = [(data, (), 0)]
    while stack:
        value, keys, level = stack.pop()
        if level > depth:
            return keys
        if isinstance(value, dict):
            stack.extend((item, (*keys, str(key)), level + 1) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, keys, level + 1) for item in value)
    return None


def _deep_line(text: str, depth: int) -> int:
    """The line where brackets first nest deeper than ``depth`` (a rough count that ignores
    strings: it only points the way in a file Python's reader could not even parse)."""
    level = 0
    for number, line in enumerate(text.splitlines(), start=1):
        for char in line:
            level += (char in "[{") - (char in "]}")
            if level > depth:
                return number
    return 1


def expand_home(path: str) -> Path:
    """``path`` with a leading ``~`` or ``~user`` expanded; an unknown user is a
    :class:`TomlFileError` rather than ``RuntimeError``."""
    try:
        return Path(path).expanduser()
    except RuntimeError:
        user = path[1:].split("/", 1)[0]
        who = f"no user {user!r} on this machine" if user else "no home folder is known"
        raise TomlFileError(f"{path!r} starts with ~ but {who}; write the full path") from None
