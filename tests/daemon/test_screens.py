"""Golden images of every screen, and the contracts the referee relies on.

Each sample view (:mod:`firmware_host.screens.samples`) must render to exactly the pixels of
``tests/daemon/golden/<name>.png``. After a deliberate change of look, regenerate with
``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/daemon/test_screens.py`` and look at
the images. On a mismatch the frame drawn is written to ``tests/daemon/golden/actual/``
(ignored by git).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image

import games
from firmware_host.screens import game_screen, render
from firmware_host.screens.choices import page_of
from firmware_host.screens.font import SMALL, fit, wrap
from firmware_host.screens.samples import SAMPLES
from firmware_host.views import GameView, MenuView
from hardware.display.protocol import check_frame

GOLDEN = Path(__file__).parent / "golden"
ACTUAL = GOLDEN / "actual"


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_screen_matches_golden(name: str) -> None:
    frame = render(SAMPLES[name]())
    check_frame(frame)
    golden = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        frame.save(golden)
        return
    assert golden.exists(), f"no golden image {golden}: run with UPDATE_GOLDEN=1 to make it"
    with Image.open(golden) as reference:
        expected = reference.convert("1")
    if frame.tobytes() != expected.tobytes():
        ACTUAL.mkdir(exist_ok=True)
        actual = ACTUAL / f"{name}.png"
        frame.save(actual)
        pytest.fail(f"{name}: the frame differs from {golden}; what was drawn is in {actual}")


def test_same_view_same_pixels() -> None:
    view = SAMPLES["dalmatian_turn"]()
    assert render(view).tobytes() == render(view).tobytes()


def test_lit_pixels_are_stored_as_pillow_stores_them() -> None:
    frame = render(SAMPLES["sequence_over"]())
    assert frame.getextrema() == (0, 255)


def test_every_registered_game_has_a_screen() -> None:
    for name in games.REGISTRY:
        assert hasattr(game_screen(name), "draw")


def test_a_game_without_a_screen_of_its_own_gets_the_plain_one() -> None:
    assert game_screen("no-such-game").__name__.endswith(".plain")


def test_page_holds_the_cursor() -> None:
    assert page_of(9, 0, 4) == (0, 3)
    assert page_of(9, 8, 4) == (2, 3)
    assert page_of(0, 0, 4) == (0, 1)


def test_text_is_cut_and_wrapped_to_the_width() -> None:
    assert fit("Sequence Dice", SMALL, 6 * 8) == "Sequenc…"
    assert fit("short", SMALL, 128) == "short"
    assert wrap("a bb ccc", SMALL, 6 * 4) == ["a bb", "ccc"]
    assert wrap("abcdefghij", SMALL, 6 * 4) == ["abcd", "efgh", "ij"]


def test_cursor_moves_the_highlight() -> None:
    items = tuple(f"item {i}" for i in range(12))
    first, later = (render(MenuView("Menu", items, cursor=c)) for c in (0, 7))
    assert first.tobytes() != later.tobytes()


def test_a_message_covers_the_body_not_the_band() -> None:
    view = SAMPLES["sequence_choosing"]()
    assert isinstance(view, GameView)
    plain = render(view)
    told = render(GameView(view.game, view.choices, view.cursor, message="no"))
    band = (0, 0, 128, 16)
    assert plain.crop(band).tobytes() == told.crop(band).tobytes()
    assert plain.tobytes() != told.tobytes()
