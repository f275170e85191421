"""Every screen readable on 128x64: no text off the frame, over or against something else,
or run into its neighbour ("10remove"); nothing cut with "…" but what scrolls or counts.

:func:`~firmware_host.screens.layout.layout_problems` looks at the text runs a drawn canvas
lists, kept pieces included; here it runs over every sample screen, every option menu at
every value, and the screens of whole games of each of the five, played with long names.
"""

from __future__ import annotations

import random

import pytest

import games
from firmware_host.referee.new_game import option_values
from firmware_host.screens import draw
from firmware_host.screens.canvas import Canvas, TextRun
from firmware_host.screens.font import BIG
from firmware_host.screens.layout import layout_problems
from firmware_host.screens.names import shown_names
from firmware_host.screens.samples import SAMPLES, choices_of, options_menu
from firmware_host.views import GameView, MenuView
from games.core import Phase

CUT_ON_PURPOSE = {
    "board_fix": "… and 2 more",  # a count of the fixes below the screen, not a cut
    "dalmatian_rerolled": "reroll 2-5 (di…",  # the highlighted choice: it scrolls
}
LONG_NAMES = ("Christine", "Christopher", "Guy", "Peggy")  # alike at first, descenders


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_sample_screen_reads_clearly(name: str) -> None:
    canvas = draw(SAMPLES[name]())
    assert canvas.texts, "a screen with no text recorded checks nothing"
    assert layout_problems(canvas) == []
    cut = [run.text for run in canvas.texts if "…" in run.text]
    assert cut == ([CUT_ON_PURPOSE[name]] if name in CUT_ON_PURPOSE else [])


@pytest.mark.parametrize("name", games.REGISTRY)
def test_every_option_reads_whole_at_every_value(name: str) -> None:
    cls = games.game_class(name)
    for cursor in range(1 + len(cls.OPTIONS)):
        view = options_menu(name, cursor)
        for key, option in cls.OPTIONS.items():
            for value in option_values(option):
                values = tuple(option.text(value) if item == option.label else shown
                               for item, shown in zip(view.items, view.values, strict=True))
                canvas = draw(MenuView(view.title, view.items, cursor, values=values))
                assert layout_problems(canvas) == [], (key, value)
                assert not [r.text for r in canvas.texts if "…" in r.text], (key, value)


@pytest.mark.parametrize("name", games.REGISTRY)
def test_the_screens_of_whole_games_read_clearly(name: str) -> None:
    """Three games of each, with names long and alike, every position drawn with its
    choices, the cursor on one of them, and a refusal over it now and then; the third with
    every yes-or-no option on."""
    rng = random.Random(name)
    cls = games.game_class(name)
    players = max(cls.MIN_PLAYERS, min(len(LONG_NAMES), cls.MAX_PLAYERS))
    for seed in range(3):  # the last with every yes-or-no option on
        options = {key: True for key, option in cls.OPTIONS.items()
                   if isinstance(option.default, bool) and seed == 2}
        game = games.new_game(name, players, LONG_NAMES[:players], **options)
        for _ in range(400):
            choices = choices_of(game)
            message = "not now: the dice are due" if rng.random() < 0.05 else None
            view = GameView(game, choices, rng.randrange(max(1, len(choices))), message=message)
            canvas = draw(view)
            moment = f"{name}, seed {seed}, after {len(game.history)} actions"
            assert layout_problems(canvas) == [], moment
            assert not [r.text for r in canvas.texts if _cut_name(r, LONG_NAMES)], moment
            if game.is_over:
                break
            if game.phase is Phase.ROLL:
                game.apply("roll " + "-".join(str(rng.randint(1, 6))
                                              for _ in range(game.dice_wanted)))
            else:
                game.apply(rng.choice(game.legal_actions()))


def _cut_name(run: TextRun, names: tuple[str, ...]) -> bool:
    """A name shown with "…" (names are cut plainly, and never alike)."""
    return any(name[:k] + "…" in run.text for name in names for k in range(1, len(name)))


def test_names_cut_alike_are_told_apart_by_their_seat() -> None:
    assert shown_names(("Christine", "Christopher", "Guy"), 5) == ("Chri1", "Chri2", "Guy")
    assert shown_names(("Dominic", "Alice"), 5) == ("Domin", "Alice")
    assert shown_names(("Ann", "Ann"), 5) == ("Ann", "Ann")  # the same whole name: as given
    assert all(len(n) <= 3 for n in shown_names(("Christine", "Christopher"), 3))


def test_the_check_finds_a_number_run_into_a_word_and_text_past_the_edge() -> None:
    canvas = Canvas()
    x = canvas.text(51, 17, "10", BIG)
    canvas.text(x, 16, "remove")
    canvas.text(100, 40, "cut at the edge")
    problems = layout_problems(canvas)
    assert any("'10' and 'remove'" in p for p in problems)
    assert any("'cut at the edge' leaves the frame" in p for p in problems)
    touching = Canvas()
    touching.fill(0, 0, 128, 16)
    touching.text(0, 16, "under the band")
    assert [p for p in layout_problems(touching) if "touches" in p]


def test_a_greyed_menu_row_is_whole_behind_a_cross() -> None:
    items = ("Back to the game", "Undo last action", "Type in dice")
    canvas = draw(MenuView("Menu", items, greyed=frozenset({1, 2})))
    texts = [run.text for run in canvas.texts]
    assert "× Undo last action" in texts and "× Type in dice" in texts  # noqa: RUF001
    assert layout_problems(canvas) == []
