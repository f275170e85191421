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

from hardware.dice import portable
from hardware.dice.portable import COMPANY_ID, parse_advert, parse_pixel_id
from hardware.errors import HardwareError

__all__ = ["COMPANY_ID", "INFO_SERVICE", "Advertisement", "BadAdvertisement", "RollState",
           "decode", "format_id", "pixel_id"]
INFO_SERVICE = "0000180a-0000-1000-8000-00805f9b34fb"
"""The Device Information service (0x180A) whose service data carries the pixel id."""


class RollState(enum.IntEnum):
    """The die's own account of its motion, as its firmware numbers it."""

    UNKNOWN = portable.UNKNOWN
    ROLLED = portable.ROLLED  # came to rest on a face after what looked like a proper roll
    HANDLING = portable.HANDLING
    ROLLING = portable.ROLLING
    CROOKED = portable.CROOKED  # came to rest, but not flat on a face
    ON_FACE = portable.ON_FACE  # at rest on a face without being rolled (or too little)


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


def decode(data: bytes) -> Advertisement:
    """The advertisement in ``data`` (the manufacturer data without its company id), read by
    the code the Pico W bridge runs too (:mod:`hardware.dice.portable`).

    Raises BadAdvertisement for a wrong length, an unknown roll state, a face index beyond
    the die's LEDs or a battery level over 100%."""
    try:
        leds, design, state, face_index, level, charging = parse_advert(bytes(data))
    except ValueError as err:
        raise BadAdvertisement(str(err)) from None
    return Advertisement(leds, design >> 4, design & 0x0F, RollState(state), face_index,
                         level, charging)


def pixel_id(data: bytes) -> int:
    """The die's unique id from its service data (``[pixelId, buildTimestamp]``, both u32
    little-endian). Raises BadAdvertisement for a wrong length or an id of 0, which the
    firmware never sends."""
    try:
        ident: int = parse_pixel_id(bytes(data))
    except ValueError as err:
        raise BadAdvertisement(str(err)) from None
    return ident


def format_id(ident: int) -> str:
    """A pixel id as the config and the Pixels app write it: eight hex digits."""
    text: str = portable.format_id(ident)
    return text
