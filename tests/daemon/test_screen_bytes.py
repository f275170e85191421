"""What a screen change costs on the wire: game screens keep what did not change in place.

A knob turn in a game's list moves a pointer, not an inverted row, and the notes that do not
change with the turn (Center Point's rule reminder, Sequence Dice's legend) stay where they
are, so the page diff of :mod:`hardware.display.pages` finds little to send. Lines that
change on their own sit inside one 8-row page of the panel where the layout allows.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from PIL import Image

from firmware_host.screens import render
from firmware_host.screens.samples import SAMPLES
from firmware_host.views import GameView
from games.centennial import Centennial
from hardware.display.pages import pack_pages, plan_windows

SSD1306_WINDOW = 6


def wire_bytes(old: Image.Image, new: Image.Image) -> int:
    windows = plan_windows(pack_pages(old), pack_pages(new), SSD1306_WINDOW, multi_page=True)
    return sum(window.data_bytes + SSD1306_WINDOW for window in windows)


def pages_changed(old: Image.Image, new: Image.Image) -> list[int]:
    return [page for page, (a, b) in enumerate(zip(pack_pages(old), pack_pages(new),
                                                       strict=True)) if a != b]


def cursor_moved(name: str) -> tuple[Image.Image, Image.Image]:
    view = SAMPLES[name]()
    assert isinstance(view, GameView) and len(view.choices) > 1
    other = (view.cursor + 1) % len(view.choices)
    return render(view), render(replace(view, cursor=other))


def test_a_knob_turn_in_center_point_moves_only_the_pointer() -> None:
    before, after = cursor_moved("centerpoint_playing")
    # the pointer leaves one row and reaches the next: two 5-column glyphs, each over two pages
    assert 0 < wire_bytes(before, after) <= 2 * 2 * (5 + SSD1306_WINDOW)


def test_a_knob_turn_in_dalmatian_rewrites_only_its_one_line() -> None:
    before, after = cursor_moved("dalmatian_turn")
    assert 0 < wire_bytes(before, after) <= 128 + SSD1306_WINDOW  # at most page 7, once


def test_center_point_keeps_its_rule_reminder_whether_or_not_moves_are_listed() -> None:
    view = SAMPLES["centerpoint_playing"]()
    assert isinstance(view, GameView)
    with_moves, without = render(view), render(replace(view, choices=()))
    reminder = (64, 46, 128, 64)  # the two lines at the bottom right
    assert with_moves.crop(reminder).tobytes() == without.crop(reminder).tobytes()
    assert with_moves.crop(reminder).getbbox() is not None  # and it is drawn


def test_the_pointed_item_scrolls_when_too_long_and_the_others_stay_cut() -> None:
    from firmware_host.screens.canvas import Canvas
    from firmware_host.screens.choices import PAUSE
    from firmware_host.screens.pointed import draw_pointed

    items = ["reroll 3,4,5 (5-5-6) for three", "reroll 1,2 (1-3) and keep the rest"]

    def rows(cursor: int, scroll: int) -> list[int]:
        canvas = Canvas()
        draw_pointed(canvas, (0, 0, 128, 18), items, cursor, scroll)
        return canvas.rows

    still, moved = rows(0, 0), rows(0, PAUSE + 3)
    assert still[:9] != moved[:9]  # the pointed row has moved on
    assert still[9:] == moved[9:]  # the other is cut, not scrolled


def test_dalmatian_hint_and_groups_lines_each_change_one_page() -> None:
    view = SAMPLES["dalmatian_turn"]()  # "keep 1-3 ≈4.0 pts"
    assert isinstance(view, GameView) and view.hint
    shown = render(view)
    hidden = render(replace(view, hint=False))
    assert pages_changed(shown, hidden) == [5, 6]  # the hint: rows 42-48, its p's tail 49
    below = (0, 50, 128, 64)
    assert shown.crop(below).tobytes() == hidden.crop(below).tobytes()
    groups_only = render(replace(view, hint=False, choices=())).crop((0, 32, 128, 64))
    _, top, _, bottom = groups_only.getbbox() or (0, 0, 0, 0)
    assert top >= 1 and bottom <= 8  # the groups line: rows 33-39, page 4 alone, under a gap


def test_the_next_player_in_centennial_inverts_a_name_not_a_row() -> None:
    view = SAMPLES["centennial_playing"]()
    assert isinstance(view, GameView)
    passed = copy.deepcopy(view.game)
    assert isinstance(passed, Centennial)
    passed.turn = (passed.turn + 1) % passed.players
    before, after = render(view), render(replace(view, game=passed))
    after.paste(before.crop((0, 0, 128, 16)))  # the band names the new player: not counted
    # two names of up to four letters (25 columns with the box), each over two pages
    assert 0 < wire_bytes(before, after) <= 2 * 2 * (25 + SSD1306_WINDOW)
