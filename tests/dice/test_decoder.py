"""The Pixels advertisement decoder: the documented layout, read byte by byte, and refusals.

The example bytes are built from GameWithPixels' own description of the advertisement
(``GameWithPixels/.github``, ``doc/CommunicationsProtocol.md``, "Manufacturer data" and
"Service data") with the values its firmware puts there (``DiceFirmware``,
``src/modules/accelerometer.h`` for the roll states, ``bluetooth_custom_advertising_data.cpp``
for designAndColor = dieType << 4 | colorway and the charging bit): a D6 has 6 LEDs and die
type 2, onyx black is colorway 1.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pixels_helpers import D6_ONYX, SERVICE, STATES

from hardware.dice.pixels import (
    COMPANY_ID,
    Advertisement,
    BadAdvertisement,
    RollState,
    decode,
    format_id,
    pixel_id,
)


@pytest.mark.parametrize(("data", "state", "face"), STATES)
def test_each_roll_state_and_its_face(data: bytes, state: RollState, face: int) -> None:
    advert = decode(data)
    assert (advert.state, advert.face, advert.leds, advert.die_type, advert.colorway) == (
        state, face, 6, 2, 1)
    assert advert.at_rest == (state in (RollState.ROLLED, RollState.ON_FACE))


@pytest.mark.parametrize(("byte", "battery", "charging"), [
    (0x00, 0, False), (0x64, 100, False), (0x0F, 15, False),
    (0x80, 0, True), (0x80 | 57, 57, True), (0xE4, 100, True),
])
def test_battery_level_and_charging_bit(byte: int, battery: int, charging: bool) -> None:
    advert = decode(bytes([6, D6_ONYX, 1, 0, byte]))
    assert (advert.battery, advert.charging) == (battery, charging)


def test_the_company_id_is_systemic_games() -> None:
    assert COMPANY_ID == 3385  # 0x0D39, as the firmware's bluetooth_stack.cpp sends it


@pytest.mark.parametrize(("data", "words"), [
    (b"", "5 bytes, not 0 (nothing)"),
    (bytes([6, D6_ONYX, 1, 0]), "5 bytes, not 4 (06 21 01 00)"),
    (bytes(7), "5 bytes, not 7"),  # the layout before July 2022
    (bytes([6, D6_ONYX, 6, 0, 50]), "roll state 6"),
    (bytes([6, D6_ONYX, 1, 6, 50]), "face index 6 on a die of 6 LEDs"),
    (bytes([0, D6_ONYX, 1, 0, 50]), "face index 0 on a die of 0 LEDs"),
    (bytes([6, D6_ONYX, 1, 0, 101]), "battery level 101% is over 100%"),
    (bytes([6, D6_ONYX, 1, 0, 0xFF]), "battery level 127%"),
])
def test_malformed_advertisements_are_refused_by_name(data: bytes, words: str) -> None:
    with pytest.raises(BadAdvertisement) as caught:
        decode(data)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_service_data_gives_the_pixel_id_little_endian() -> None:
    # pixel id 0x1A2B3C4D, build timestamp 1700000000 (0x6553F100), both little-endian
    data = SERVICE
    assert pixel_id(data) == 0x1A2B3C4D
    assert format_id(pixel_id(data)) == "1A2B3C4D"


@pytest.mark.parametrize(("data", "words"), [
    (bytes(4), "8 bytes, not 4"), (bytes(8), "pixel id 0"), (bytes(9), "8 bytes, not 9")])
def test_bad_service_data_is_refused(data: bytes, words: str) -> None:
    with pytest.raises(BadAdvertisement) as caught:
        pixel_id(data)
    assert words in str(caught.value)


@given(st.binary(max_size=40))
def test_any_bytes_decode_or_are_refused_clearly(data: bytes) -> None:
    try:
        advert = decode(data)
    except BadAdvertisement as refusal:
        message = str(refusal)
        assert message and "\n" not in message and len(message) < 200
        return
    assert isinstance(advert, Advertisement)
    assert len(data) == 5
    assert 1 <= advert.face <= advert.leds and 0 <= advert.battery <= 100
    assert bytes([advert.leds, advert.die_type << 4 | advert.colorway, advert.state,
                  advert.face_index, advert.battery | advert.charging << 7]) == data


@given(st.binary(max_size=40))
def test_any_service_data_gives_an_id_or_a_refusal(data: bytes) -> None:
    try:
        ident = pixel_id(data)
    except BadAdvertisement as refusal:
        assert "\n" not in str(refusal)
        return
    assert 0 < ident < 2**32 and len(data) == 8 and int(format_id(ident), 16) == ident
