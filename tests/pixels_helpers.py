"""Pixels advertisement bytes the decoder's tests and the Pico W bridge's tests share.

Built from GameWithPixels' own description of the advertisement (``GameWithPixels/.github``,
``doc/CommunicationsProtocol.md``, "Manufacturer data" and "Service data"): a D6 has 6 LEDs
and die type 2, onyx black is colorway 1.
"""

from __future__ import annotations

from hardware.dice.pixels import COMPANY_ID, RollState

D6_ONYX = 0x21  # die type d6 (2) << 4 | onyx black (1)

STATES = [
    (bytes([6, D6_ONYX, 0, 0, 80]), RollState.UNKNOWN, 1),
    (bytes([6, D6_ONYX, 1, 5, 80]), RollState.ROLLED, 6),
    (bytes([6, D6_ONYX, 2, 2, 80]), RollState.HANDLING, 3),
    (bytes([6, D6_ONYX, 3, 3, 80]), RollState.ROLLING, 4),
    (bytes([6, D6_ONYX, 4, 1, 80]), RollState.CROOKED, 2),
    (bytes([6, D6_ONYX, 5, 4, 80]), RollState.ON_FACE, 5),
]
"""(manufacturer data, its roll state, the face up) for each roll state."""

SERVICE = bytes([0x4D, 0x3C, 0x2B, 0x1A, 0x00, 0xF1, 0x53, 0x65])
"""Service data of pixel id 0x1A2B3C4D, then its build timestamp."""


def advert(state: RollState, face: int, battery: int = 80) -> bytes:
    """A D6's manufacturer data (without its company id)."""
    return bytes([6, D6_ONYX, state, face - 1, battery])


def payloads(manufacturer: bytes, service: bytes | None = None) -> list[bytes]:
    """The raw advertisement and scan response a die sends, as a radio without bleak's
    parsing hands them over: flags and manufacturer data, then the pixel id's service data."""
    company = COMPANY_ID.to_bytes(2, "little")
    adv = bytes([2, 0x01, 0x06, 3 + len(manufacturer), 0xFF]) + company + manufacturer
    if service is None:
        return [adv, b""]
    return [adv, bytes([3 + len(service), 0x16, 0x0A, 0x18]) + service]
