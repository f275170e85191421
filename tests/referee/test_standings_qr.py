"""The standings screen at a game night: the page's address as a QR code a phone can read."""

from __future__ import annotations

from pathlib import Path

import segno
from zbar_helpers import decoded

from firmware_host.screens import render
from firmware_host.screens.qr import MODULE, QUIET, qr_size
from firmware_host.screens.samples import game_over_qr
from firmware_host.views import NoticeView

URL = "http://hub.local:8080/"


def test_the_code_is_drawn_module_for_module_dark_on_a_lit_quiet_zone() -> None:
    frame = render(NoticeView("Won tonight", ("Ann 3/4",), qr=URL))
    side = qr_size(URL, 64)
    left, top = 128 - side, (64 - side) // 2
    pixels = frame.load()
    matrix = segno.make_qr(URL, error="m", boost_error=True).matrix
    for y in range(side):
        for x in range(side):
            row, column = (y - QUIET) // MODULE, (x - QUIET) // MODULE
            inside = QUIET <= y < side - QUIET and QUIET <= x < side - QUIET
            dark = inside and bool(matrix[row][column])
            assert bool(pixels[left + x, top + y]) is not dark, (x, y)


def test_an_address_too_long_for_the_screen_is_left_out_not_cut() -> None:
    long = "http://" + "x" * 80 + ".example/"
    assert qr_size(long, 64) == 0
    frame = render(NoticeView("Won tonight", ("Ann 3/4",), qr=long))
    assert frame.getpixel((127, 32)) == 0  # no code drawn: the lines have the width


def test_a_games_code_is_read_back_from_the_frame_for_the_longest_table_id(
        tmp_path: Path) -> None:
    """The short address is as long for a table id of 32 characters and game 999999999 as
    for any: zbar reads it from the 128x64 frame the OLED gets."""
    view = game_over_qr()
    assert decoded(render(view), tmp_path) == [view.qr]  # type: ignore[union-attr]
