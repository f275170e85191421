"""The benches' smoke mode: ``--smoke`` on a bench's command line runs its same code on
small sizes, in seconds, and prints the same JSON; the test suite runs every bench so
(``tests/test_benches.py``), so a change that breaks one fails there. Its figures are no
measurement. Not a benchmark itself."""

from __future__ import annotations

import sys
from typing import TypeVar

T = TypeVar("T")

SMOKE = "--smoke" in sys.argv[1:]


def sized(full: T, smoke: T) -> T:
    """``smoke`` in a smoke run, else ``full``."""
    return smoke if SMOKE else full
