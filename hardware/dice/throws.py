"""One throw out of many dice's advertisements: which dice moved, where they came to rest.

The rules (who joins a throw, crooked dice, dice gone quiet, too few or too many) are
:class:`hardware.dice.portable.Assembler`'s, the same code the Pico W bridge runs; here its
words become the table's events: a throw a :class:`DiceRolled` from source ``pixels``, a word
about the dice a :class:`DeviceStatus`.
"""

from __future__ import annotations

from collections.abc import Sequence

from hardware.dice.portable import ABSENT, LOW_BATTERY, QUIET, SETTLE, Assembler
from hardware.events import DeviceStatus, DiceRolled

SOURCE = "pixels"
__all__ = ["ABSENT", "LOW_BATTERY", "QUIET", "SETTLE", "SOURCE", "ThrowAssembler"]


class ThrowAssembler(Assembler):
    """Throws of ``count`` dice out of the named ``dice``' reports, as the table's events.
    ``count`` may be changed between throws (a game that holds dice throws fewer)."""

    def __init__(self, dice: Sequence[str], count: int, now: float, *, settle: float = SETTLE,
                 quiet: float = QUIET, absent: float = ABSENT,
                 low_battery: int = LOW_BATTERY) -> None:
        super().__init__(list(dice), count, now, settle, quiet, absent, low_battery)

    def thrown(self, faces: tuple[int, ...]) -> DiceRolled:
        return DiceRolled(faces, SOURCE)

    def said(self, heard: bool, message: str) -> DeviceStatus:
        return DeviceStatus(SOURCE, heard, message)
