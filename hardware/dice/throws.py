"""One throw out of many dice's advertisements: which dice moved, where they came to rest.

Each named die reports its roll state several times a second. A die that starts moving
(handling, rolling) joins the throw being made; once the dice that moved have all come to rest
(rolled, or on a face) and are exactly as many as a throw takes, their faces are one throw,
in the order the dice are named. Nothing else makes a throw: a die that lands crooked is asked
to be rolled again (the throw waits for it), a die that goes quiet while in a throw drops the
throw and is named, and rests of too few or too many dice drop it with a word of what was
seen. Dice not named are no business of this table's. The clock is passed in, so every timeout
is tested without sleeping.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hardware.dice.pixels import Advertisement, RollState
from hardware.events import DeviceStatus, DiceRolled, Event

SOURCE = "pixels"
MOVING = (RollState.HANDLING, RollState.ROLLING)
SETTLE = 4.0
"""Seconds the dice of a throw have, after the first came to rest, for the rest to land."""
QUIET = 2.0
"""Seconds a die in a throw may go unheard (it advertises every 187.5 ms) before the throw is
dropped and the die named: well within the 5 s a player waits to be told."""
ABSENT = 30.0
"""Seconds a die out of a throw may go unheard before it is named as missing."""
LOW_BATTERY = 15  # percent, when not charging
RECHARGED = 5  # percent above LOW_BATTERY before a low battery is told again


@dataclass
class _Die:
    """What one named die last said: when it was heard, and what is already told of it."""

    heard: float
    face: int | None = None  # the face it last rested on
    battery_told: bool = False
    absent_told: bool = False


class ThrowAssembler:
    """Throws of ``count`` dice out of the named ``dice``' reports. :meth:`heard` takes each
    report, :meth:`tick` the time passing; both return what the table must hear. ``count``
    may be changed between throws (a game that holds dice throws fewer)."""

    def __init__(self, dice: Sequence[str], count: int, now: float, *, settle: float = SETTLE,
                 quiet: float = QUIET, absent: float = ABSENT,
                 low_battery: int = LOW_BATTERY) -> None:
        if not dice or len(set(dice)) != len(dice):
            raise ValueError(f"the dice must be named once each, not {list(dice)}")
        self.names = {die: number for number, die in enumerate(dice, 1)}
        self.count = count
        self.settle, self.quiet, self.absent, self.low_battery = settle, quiet, absent, low_battery
        self._dice = {die: _Die(now) for die in dice}
        self._moved: dict[str, int | None] = {}  # die -> the face it rests on, None if moving
        self._crooked: set[str] = set()
        self._first_rest: float | None = None

    def name(self, die: str) -> str:
        return f"die {self.names[die]} ({die})"

    def heard(self, die: str, advert: Advertisement, now: float) -> list[Event]:
        """A report from ``die``: what it makes of the throw, and of its battery."""
        seen = self._dice.get(die)
        if seen is None:
            return []  # another table's die
        seen.heard = now
        seen.absent_told = False
        told = self._battery(die, seen, advert)
        rested_before, seen.face = seen.face, advert.face if advert.at_rest else None
        if advert.at_rest and die not in self._moved and rested_before not in (None, advert.face):
            self._moved[die] = None  # its motion was not heard, but it rests on another face
        if advert.state in MOVING:
            self._moved[die] = None
            self._crooked.discard(die)
        elif die not in self._moved or self._moved[die] is not None or die in self._crooked:
            pass  # at rest and not in the throw, or already counted: a report repeated
        elif advert.state is RollState.CROOKED:
            self._crooked.add(die)
            told.append(self._say(f"{self.name(die)} landed crooked: roll it again"))
        elif advert.at_rest:
            self._moved[die] = advert.face
            self._first_rest = now if self._first_rest is None else self._first_rest
        return told + self._finished()

    def tick(self, now: float) -> list[Event]:
        """What time passing makes of the throw: a die gone quiet, dice too few to land."""
        told: list[Event] = []
        quiet = [die for die in self._moved if now - self._dice[die].heard >= self.quiet]
        if quiet:
            named = ", ".join(self.name(die) for die in quiet)
            told.append(self._drop(f"{named} went quiet in the throw: no throw taken, "
                                   "throw again"))
        elif (self._first_rest is not None and now - self._first_rest >= self.settle
              and not self._crooked):
            told.append(self._drop(f"{self._landed()} of {self.count} dice came to rest: no "
                                   f"throw taken, throw {self.count} again"))
        for die, seen in self._dice.items():
            if not seen.absent_told and die not in self._moved and now - seen.heard >= self.absent:
                seen.absent_told = True
                told.append(DeviceStatus(SOURCE, False, f"{self.name(die)} not heard for "
                                         f"{self.absent:.0f} s: is it awake and near? (a phone "
                                         "connected to it keeps it silent)"))
        return told

    def due(self) -> float | None:
        """When :meth:`tick` has something to look at next, if no report comes first."""
        times = [self._dice[die].heard + self.quiet for die in self._moved]
        if self._first_rest is not None:
            times.append(self._first_rest + self.settle)
        times += [seen.heard + self.absent for seen in self._dice.values()
                  if not seen.absent_told]
        return min(times, default=None)

    def missing(self) -> list[str]:
        """The named dice told as not heard, for ``selftest`` and the screen."""
        return [die for die, seen in self._dice.items() if seen.absent_told]

    def _finished(self) -> list[Event]:
        moving = any(face is None for face in self._moved.values())
        if not self._moved or moving or self._crooked:
            return []
        if len(self._moved) > self.count:
            return [self._drop(f"{len(self._moved)} dice moved, a throw takes {self.count}: "
                               f"no throw taken, throw {self.count} again")]
        if len(self._moved) < self.count:
            return []  # the others may still land, within the settle time
        faces = tuple(face for die in self.names if (face := self._moved.get(die)) is not None)
        self._reset()
        return [DiceRolled(faces, SOURCE)]

    def _landed(self) -> int:
        return sum(face is not None for face in self._moved.values())

    def _battery(self, die: str, seen: _Die, advert: Advertisement) -> list[Event]:
        if seen.battery_told:  # told until charging, or clearly above the mark again
            seen.battery_told = not (advert.charging
                                     or advert.battery > self.low_battery + RECHARGED)
            return []
        if advert.battery > self.low_battery or advert.charging:
            return []
        seen.battery_told = True
        return [self._say(f"{self.name(die)} battery at {advert.battery}%: charge it soon")]

    def _drop(self, message: str) -> DeviceStatus:
        self._reset()
        return self._say(message)

    def _reset(self) -> None:
        self._moved.clear()
        self._crooked.clear()
        self._first_rest = None

    @staticmethod
    def _say(message: str) -> DeviceStatus:
        return DeviceStatus(SOURCE, True, message)
