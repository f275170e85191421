"""What a Pixels die says in every advertisement, decoded without a connection.

The layout is the one GameWithPixels documents (``.github/doc/CommunicationsProtocol.md``,
"Advertisement") and its firmware sends (``DiceFirmware/src/bluetooth/``
``bluetooth_custom_advertising_data.cpp`` and ``bluetooth_stack.cpp``): manufacturer data
under the Systemic Games company id ``[ledCount, designAndColor, rollState, faceIndex,
battery | charging << 7]``, and service data under the Device Information service's UUID
``[pixelId: u32 little-endian, buildTimestamp: u32 little-endian]``. Anything the radio hands
us is hostile: every value is checked, and a refusal says what was wrong.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hardware.errors import HardwareError

COMPANY_ID = 0x0D39
"""Systemic Games' Bluetooth company identifier, the key of a die's manufacturer data."""
INFO_SERVICE = "0000180a-0000-1000-8000-00805f9b34fb"
"""The Device Information service (0x180A) whose service data carries the pixel id."""
MANUFACTURER_BYTES = 5
SERVICE_BYTES = 8


class RollState(enum.IntEnum):
    """The die's own account of its motion, as its firmware numbers it."""

    UNKNOWN = 0
    ROLLED = 1  # came to rest on a face after what looked like a proper roll
    HANDLING = 2
    ROLLING = 3
    CROOKED = 4  # came to rest, but not flat on a face
    ON_FACE = 5  # at rest on a face without having been rolled (or too little to count)


class BadAdvertisement(HardwareError, ValueError):
    """Bytes that are not a Pixels die's advertisement; the message says which part is wrong."""


@dataclass(frozen=True)
class Advertisement:
    """One manufacturer-data reading: where the die is in a roll, its face, its battery."""

    leds: int
    die_type: int  # the firmware's PixelDieType: the high nibble of designAndColor
    colorway: int  # the low nibble
    state: RollState
    face_index: int
    battery: int  # percent
    charging: bool

    @property
    def face(self) -> int:
        """The face up as players count it (a D6's faces are its face index plus one)."""
        return self.face_index + 1

    @property
    def at_rest(self) -> bool:
        return self.state in (RollState.ROLLED, RollState.ON_FACE)


def _hex(data: bytes) -> str:
    return data.hex(" ") or "nothing"


def decode(data: bytes) -> Advertisement:
    """The advertisement in ``data`` (the manufacturer data without its company id).

    Raises BadAdvertisement for a wrong length, an unknown roll state, a face index beyond
    the die's LEDs or a battery level over 100%."""
    if len(data) != MANUFACTURER_BYTES:
        raise BadAdvertisement(f"a Pixels advertisement has {MANUFACTURER_BYTES} bytes, not "
                               f"{len(data)} ({_hex(data[:16])}): not a Pixels die, or a "
                               "firmware from before July 2022 (update it in the Pixels app)")
    leds, design, state, face_index, battery = data
    if state not in RollState._value2member_map_:
        raise BadAdvertisement(f"roll state {state} is not one a Pixels die sends "
                               f"({_hex(data)})")
    if leds == 0 or face_index >= leds:
        raise BadAdvertisement(f"face index {face_index} on a die of {leds} LEDs "
                               f"({_hex(data)})")
    level = battery & 0x7F
    if level > 100:
        raise BadAdvertisement(f"battery level {level}% is over 100% ({_hex(data)})")
    return Advertisement(leds, design >> 4, design & 0x0F, RollState(state), face_index,
                         level, bool(battery & 0x80))


def pixel_id(data: bytes) -> int:
    """The die's unique id from its service data (``[pixelId, buildTimestamp]``, both u32
    little-endian). Raises BadAdvertisement for a wrong length or an id of 0, which the
    firmware never sends."""
    if len(data) != SERVICE_BYTES:
        raise BadAdvertisement(f"a Pixels service data has {SERVICE_BYTES} bytes, not "
                               f"{len(data)} ({_hex(data[:16])})")
    ident = int.from_bytes(data[:4], "little")
    if ident == 0:
        raise BadAdvertisement(f"pixel id 0 is no die's ({_hex(data)})")
    return ident


def format_id(ident: int) -> str:
    """A pixel id as the config and the Pixels app write it: eight hex digits."""
    return f"{ident:08X}"
