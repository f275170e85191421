"""The typed events drivers put on the daemon's queue. Drivers know nothing of the games.

Each event is a small frozen value; the daemon dispatches on the type with ``match``.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any


class Control(enum.Enum):
    """A logical control, whatever hardware provides it (buttons, encoder, serial, keys)."""

    ROLL = "roll"
    UP = "up"
    DOWN = "down"
    SELECT = "select"
    BACK = "back"
    HOLD1 = "hold1"
    HOLD2 = "hold2"
    HOLD3 = "hold3"
    HOLD4 = "hold4"
    HOLD5 = "hold5"


@dataclass(frozen=True)
class DiceRolled:
    """Dice thrown: by the button roller, entered by hand, read by a serial device or from
    Pixels dice."""

    dice: tuple[int, ...]
    source: str  # "button", "manual", "serial" or "pixels"


@dataclass(frozen=True)
class ControlPressed:
    control: Control


@dataclass(frozen=True)
class ControlHeld:
    """A long press (the hold time is configurable)."""

    control: Control


@dataclass(frozen=True)
class ControlTurned:
    """The rotary encoder moved; +1 per detent clockwise, -1 anticlockwise."""

    steps: int


@dataclass(frozen=True)
class CellChanged:
    """A board sensor settled into a new state (after debounce). ``alone``: how often the
    cell's reading changed by itself (after a steady reading, the cells around it steady)
    within the matrix's slow-chatter window, this change included: hands make one or two
    such changes a move, a switch failing slowly one every second or so. It says how the
    change came, not what changed, so equal reports of a change are equal whatever it is."""

    row: int
    col: int
    occupied: bool
    alone: int = field(default=0, compare=False)


@dataclass(frozen=True)
class CellFault:
    """A sensor that is stuck or chattering; ``reason`` says which, for the screen.
    ``chattering``: the cell changed by itself, so its latest changes were no hand's."""

    row: int
    col: int
    reason: str
    chattering: bool = False


@dataclass(frozen=True)
class InputEdge:
    """A watched input pin changed level: the loop reads the inputs now.

    Edge callbacks (lgpio's alert thread on a Pi, the driving thread on mock pins) only put
    this on the queue, so every pin read and every debounce decision happens on the loop's
    thread. The loop takes it itself; controllers never see it."""


@dataclass(frozen=True)
class DeviceStatus:
    """A device came, went or failed; ``message`` is one line for the screen and the log."""

    device: str
    connected: bool
    message: str


Event = (
    DiceRolled
    | ControlPressed
    | ControlHeld
    | ControlTurned
    | CellChanged
    | CellFault
    | DeviceStatus
    | InputEdge
)


def describe(event: Event) -> str:
    """``ControlPressed control=select``: the event's type and fields, for the log."""
    fields = " ".join(f"{f.name}={_plain(getattr(event, f.name))}"
                      for f in dataclasses.fields(event))
    return f"{type(event).__name__} {fields}".strip()


def _plain(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return "-".join(str(v) for v in value)
    return str(value)
