"""Golden images of every screen, and the contracts the referee relies on.

Each sample view (:mod:`firmware_host.screens.samples`) must render to exactly the pixels of
``tests/daemon/golden/<name>.png``. After a deliberate change of look, regenerate with
``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/daemon/test_screens.py`` and look at
the images. On a mismatch the frame drawn is written to ``tests/daemon/golden/actual/``
(ignored by git).

The screens keep pieces they have drawn (the band, text lines, Sequence Dice's board rows
and legend, Center Point's marker rows), each keyed by what it shows; a piece keyed by too
little would be shown for a position it was not drawn for, so frames of whole games drawn
with everything kept must equal the same frames drawn with nothing kept.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

import firmware_host.screens as screens_package
import games
from firmware_host.dice_layout import DiceLayout
from firmware_host.kits import KitError
from firmware_host.screens import game_screen, render
from firmware_host.screens.choices import page_of
from firmware_host.screens.dalmatian import hint_line
from firmware_host.screens.font import SMALL, fit, wrap
from firmware_host.screens.message import message_pages
from firmware_host.screens.samples import SAMPLES, choices_of
from firmware_host.views import GameView, MenuView
from games.core import GameState, Phase
from games.dalmatian import Dalmatian
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


def test_a_game_without_a_kit_gets_no_plainer_screen() -> None:
    with pytest.raises(KitError, match=r"^game 'no-such-game' has no kit"):
        game_screen("no-such-game")


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


@given(st.lists(st.text("abcdefgh:-;,.", min_size=1, max_size=30), min_size=1, max_size=40),
       st.integers(1, 6), st.booleans())
def test_a_message_is_paged_whole_never_cut(words: list[str], rows: int, refusal: bool) -> None:
    text = " ".join(words) + ("; allowed: remove E1" if refusal else "")
    pages = message_pages(text, rows, 124)
    assert all(len(page) <= rows for page in pages)
    shown = " ".join(line for page in pages for line in page)
    assert "…" not in shown
    if refusal and len(pages) > 1:
        assert shown.startswith("allowed: remove E1.")  # what the player acts on, first
        rest = shown.removeprefix("allowed: remove E1. ")
        assert "".join(rest.split()).lower() == "".join(" ".join(words).split()).lower()
    elif len(pages) == 1 and not refusal:
        assert "".join(shown.split()) == "".join(text.split())


def test_a_long_refusal_turns_its_pages() -> None:
    view = SAMPLES["sequence_refused_long"]()
    assert isinstance(view, GameView) and view.message is not None
    first, second, again = (render(replace(view, page=p)) for p in (0, 1, 2))
    assert first.tobytes() != second.tobytes() and first.tobytes() == again.tobytes()


def test_the_hint_says_faces_and_labels_the_expected_score() -> None:
    """The list, the hint and ``advise`` all say dice by their faces; the list adds the
    places the hold buttons number, and the hint labels what it expects."""
    seen = set()
    for seed in range(4):
        for game in positions("dalmatian", seed):
            if not isinstance(game, Dalmatian) or game.phase is not Phase.MOVE:
                continue
            hint = hint_line(game, SMALL.chars_in(128))
            assert re.fullmatch(r"stop: scores \d|(keep|reroll) ([1-6](-[1-6])*|all) ≈\d\.\d pts",
                                hint), hint
            seen.add(hint.split()[0])
            layout = DiceLayout()
            layout.follow(game)
            for label, _ in layout.choices(game)[1:]:
                assert re.fullmatch(r"reroll [1-6](-[1-6])* \(dic?e [1-5](,[1-5])*\)", label)
    assert seen == {"stop:", "keep", "reroll"}


NAMES = ("Peggy", "Guy", "Jo", "Quig")  # descenders, and names of several lengths


def kept_pieces() -> list[tuple[object, str]]:
    """Every cached drawing function in the screens, as (module, name) wherever it is bound."""
    found = []
    for info in pkgutil.iter_modules(screens_package.__path__):
        module = importlib.import_module(f"{screens_package.__name__}.{info.name}")
        found += [(module, name) for name, value in vars(module).items()
                  if hasattr(value, "cache_clear") and hasattr(value, "__wrapped__")]
    return found


@contextmanager
def nothing_kept(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with monkeypatch.context() as patch:
        for module, name in kept_pieces():
            patch.setattr(module, name, getattr(module, name).__wrapped__)
        yield


def positions(name: str, seed: int) -> Iterator[GameState[Any]]:
    """One game played with random dice and random choices, after each action."""
    rng = random.Random(seed)
    players = max(2, min(len(NAMES), games.game_class(name).MAX_PLAYERS))
    game = games.new_game(name, players, NAMES[:players])
    for _ in range(400):
        yield game
        if game.is_over:
            return
        if game.phase is Phase.ROLL:
            game.apply("roll " + "-".join(str(rng.randint(1, 6)) for _ in range(game.dice_wanted)))
        else:
            game.apply(rng.choice(game.legal_actions()))


def test_the_screens_keep_pieces() -> None:
    assert {name for _, name in kept_pieces()} >= {
        "banner_bitmap", "text_rows", "_board_row", "_cell", "_legend", "_marker_row"}


@pytest.mark.parametrize("name", games.REGISTRY)
def test_a_frame_drawn_from_kept_pieces_is_the_frame_drawn_afresh(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(name)
    for seed in range(3):
        for game in positions(name, seed):
            choices = choices_of(game)
            view = GameView(game, choices, rng.randrange(max(1, len(choices))))
            kept = render(view)
            with nothing_kept(monkeypatch):
                afresh = render(view)
            moment = f"{name}, seed {seed}, after {len(game.history)} actions"
            assert kept.tobytes() == afresh.tobytes(), moment
