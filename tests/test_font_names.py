"""People's names on the OLED: every letter of a Latin, Greek or Cyrillic name drawn from a
glyph of its own, every other script spelt whole in Latin letters, never a ``?``.

"José Díaz" read "Jos? D?az", then "Jose Diaz", and "山田" a single "S", while the hub's
pages spelt them right.
"""

# ruff: noqa: RUF001  (names as their people write them, a Turkish one with a dotless i)

from __future__ import annotations

import random
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

import games
from firmware_host.players import clean, same
from firmware_host.screens import draw
from firmware_host.screens.font import BIG, SMALL, drawn, fit, glyph, spelt, text_rows, wrap
from firmware_host.screens.glyphs import GLYPHS, ROWS
from firmware_host.screens.layout import layout_problems
from firmware_host.screens.letters import LIKE, letter
from firmware_host.screens.names import shown_names
from firmware_host.screens.samples import SAMPLES, choices_of
from firmware_host.views import GameView, MenuView
from games.core import Phase

DRAWN_NAMES = (
    "José Díaz", "Begoña", "Ñandú", "João", "Conceição", "François", "Hélène", "Zoë", "Loïc",
    "Björn", "Jürgen", "Weiß", "Łukasz", "Żaneta", "Jiří", "Dvořák", "Tomáš", "Ľubomír",
    "Ďurica", "Ödön", "Győző", "Ștefan", "Țurcanu", "Şükrü", "Işıl", "İlkay", "Ağca", "Ægir",
    "Þórður", "Guðrún", "Søren", "Åse", "Đorđe", "Čedomir", "Ģirts", "Ķēniņš", "Žydrūnas",
    "Ąžuolas", "Ĵozefo", "Ġorġ", "Ħamrun", "Ψυχή", "Γιώργος", "Ελένη", "Ϊάσων", "Иван",
    "Наталья", "Фёдор", "Олексій", "Їжак", "Ґалина", "Ђорђе", "Љубица", "Његош", "Щерьо",
    "Nguyễn",
)
"""Names of Spanish, Portuguese, French, German, Polish, Czech, Slovak, Hungarian, Romanian,
Turkish, Icelandic, Danish, Norwegian, Serbo-Croatian, Latvian, Lithuanian, Esperanto,
Maltese, Greek, Russian, Ukrainian, Serbian, Bulgarian and Vietnamese speakers."""

SPELT_NAMES = {
    "山田": "ShanTian", "王芳": "WangFang", "김민준": "GimMinJun", "ゆき": "yuki",
    "محمد": "mhmd", "\u200fשרה": "srh", "अमित": "amit", "สมชาย": "smchay", "ნინო": "nino",
    "Արամ": "Aram",
}
"""Names of scripts the 5x7 cell cannot hold, and how they are spelt (anyascii's spelling:
Chinese, Korean, Japanese, Arabic, Hebrew, Hindi, Thai, Georgian, Armenian)."""

COVERED = [chr(c) for block in (range(0xA0, 0x180), range(0x386, 0x3CF), range(0x400, 0x460),
                                range(0x490, 0x492)) for c in block if chr(c).isalpha()]
"""Every letter of Latin-1 Supplement, Latin Extended-A, modern Greek and Cyrillic."""


def test_every_letter_of_the_covered_blocks_has_a_glyph_of_its_own() -> None:
    assert len(COVERED) > 300
    missing = [c for c in COVERED if not drawn(c)]
    assert missing == []
    for char in COVERED:
        rows = GLYPHS.get(char) or letter(char)
        assert rows is not None and len(rows) == ROWS, char
        assert all(len(row) == 5 and set(row) <= {"#", "."} for row in rows), char


def test_a_letter_with_a_mark_differs_from_its_base_and_from_its_other_case() -> None:
    """The mark shows ("é" is not "e"), marks differ ("ě" is not "ë"), and an accented
    capital is told from its lowercase letter ("Ś" is not "ś", "Ö" is not "ö"); only
    letters of one shape everywhere share one ("Đ" and "Ð")."""
    latin = [c for c in COVERED if c < "\u0180" and c not in LIKE]
    for char in latin:
        base = unicodedata.normalize("NFD", char)[0]
        if base != char and base.isascii():
            assert glyph(char, 1) != glyph(base, 1), char
    seen: dict[tuple[int, ...], str] = {}
    for char in latin:
        bitmap = glyph(char, 1)
        assert seen.setdefault(bitmap, char) == char, f"{char} is drawn as {seen[bitmap]}"


def test_a_mark_above_a_capital_stays_in_the_cell() -> None:
    """A capital under a mark is squeezed into the rows below it: no glyph has more than its
    eight rows, and a capital with a mark keeps the descender's row dark unless the mark
    is one below."""
    for char in "ÁÉÍÓÚÑÖÜŠŽŁŚŹŻĘĄŐŰĂȘȚÅ":
        rows = glyph(char, 1)
        assert len(rows) == ROWS
        below = unicodedata.normalize("NFD", char)[-1] in "\u0326\u0327\u0328"
        assert (rows[-1] != 0) == below, char
    assert len(glyph("Ö", 2)) == 2 * 7 + 1  # the big face: every pixel doubled


@pytest.mark.parametrize("name", DRAWN_NAMES)
def test_a_latin_greek_or_cyrillic_name_is_drawn_letter_by_letter(name: str) -> None:
    shown = spelt(name)
    assert shown == unicodedata.normalize("NFC", name)
    assert all(drawn(c) for c in shown), [c for c in shown if not drawn(c)]
    question = glyph("?", 1)
    assert all(glyph(c, 1) != question for c in shown)
    assert text_rows(name, 2)[0] == BIG.width(name) + 2  # width as counted: a cell a letter


@pytest.mark.parametrize("name", sorted(SPELT_NAMES))
def test_a_name_of_another_script_is_spelt_whole_in_latin_letters(name: str) -> None:
    shown = spelt(name)
    assert shown == SPELT_NAMES[name]
    assert len(shown) >= 2 and shown.isascii() and shown.isalpha()
    assert SMALL.width(name) == SMALL.width(shown) == len(shown) * 6 - 1
    assert text_rows(name, 1) == text_rows(shown, 1)


def test_names_are_cut_and_told_apart_as_they_are_spelt() -> None:
    assert shown_names(("山田", "山田太郎", "José"), 5) == ("Shan1", "Shan2", "José")
    assert shown_names(("山田", "José"), 20) == ("ShanTian", "José")
    assert fit("山田太郎", SMALL, SMALL.width("ShanTia")) == "ShanTi…"
    assert wrap("with 山田 and Zoë", SMALL, 60) == ["with", "ShanTian", "and Zoë"]


def test_a_name_typed_two_ways_is_one_player_drawn_alike() -> None:
    composed, decomposed = "José", "Jose\u0301"
    assert clean(decomposed) == composed
    assert same(composed, decomposed)
    assert text_rows(decomposed, 1) == text_rows(composed, 1)
    assert clean("\u200fZoë\u200e") == "Zoë"  # direction marks dropped, as pasted names hold
    assert clean("Zo\u202eë") is None  # an override turning text around is still refused


def test_a_question_mark_stays_only_for_what_is_not_a_letter() -> None:
    question = glyph("?", 1)
    assert glyph("€", 1) == question and glyph("✓", 1) == question
    assert spelt("Ann ✓") == "Ann ✓"


@given(st.text(st.characters(categories=("Lu", "Ll", "Lo", "Lm", "Mn", "Nd", "Zs")),
               max_size=12))
def test_any_name_is_drawn_a_cell_a_character_with_no_question_mark_for_a_letter(
        name: str) -> None:
    shown = spelt(name)
    width, _ = text_rows(name, 1)
    assert width == len(shown) * SMALL.advance
    assert SMALL.width(name) == max(width - 1, 0)
    for char in shown:
        if unicodedata.category(char)[0] == "L":
            assert drawn(char), (name, char)


@pytest.mark.parametrize("scroll", range(0, 40, 3))
def test_a_long_name_of_another_script_scrolls_on_its_menu_line_within_the_screen(
        scroll: int) -> None:
    """A highlighted line scrolls a character a tick; it must count the spelt letters, or
    four CJK characters cut from a long name would be drawn as sixteen past the edge."""
    names = ("山田太郎左衛門", "山田 Hanako Suzuki-Yamamoto", "Иван Александрович Петров")
    for cursor in range(len(names)):
        canvas = draw(MenuView("Player 2 of 3", (*names, "New player"), cursor=cursor,
                               scroll=scroll))
        assert layout_problems(canvas) == [], (cursor, scroll)


@pytest.mark.parametrize("game_name", games.REGISTRY)
def test_whole_games_with_names_from_around_the_world_read_clearly(game_name: str) -> None:
    """Every position of a game, its choices shown, with accented, Greek, Cyrillic, CJK and
    Arabic names: nothing off the frame, overdrawn or touching."""
    rng = random.Random(game_name)
    cls = games.game_class(game_name)
    players = max(cls.MIN_PLAYERS, min(4, cls.MAX_PLAYERS))
    names = rng.sample(("Şükrü Ağca", "Ψυχή", "山田太郎", "Ægir", "Jürgen", "Иван", "Ľubomír",
                        "محمد"), players)
    game = games.new_game(game_name, players, names)
    while not game.is_over and len(game.history) < 400:
        choices = choices_of(game)
        canvas = draw(GameView(game, choices, rng.randrange(max(1, len(choices)))))
        assert layout_problems(canvas) == [], f"{names} after {len(game.history)} actions"
        if game.phase is Phase.ROLL:
            game.apply("roll " + "-".join(str(rng.randint(1, 6))
                                          for _ in range(game.dice_wanted)))
        else:
            game.apply(rng.choice(game.legal_actions()))


def test_the_contact_sheet_of_names_from_around_the_world(tmp_path: Path) -> None:
    from firmware_host.screens import sheet

    out = tmp_path / "world.png"
    assert sheet.main([str(out), "--world"]) == 0
    world = [name for name in SAMPLES if name.startswith("names_")]
    assert len(world) >= 7
    with Image.open(out) as image:
        rows = -(-len(world) // sheet.COLUMNS)
        assert image.size[1] == rows * (64 * sheet.SCALE + sheet.LABEL + 2 * sheet.MARGIN)
