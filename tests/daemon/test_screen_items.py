"""Menus and typed-in dice as a player reads them: words not identifiers, values always
whole, long lines scrolled, greyed entries in place, the dice being typed in shown."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

import games
from firmware_host.referee.new_game import option_values
from firmware_host.screens import centerpoint, dice, render, sheet
from firmware_host.screens.banner import BODY_TOP, draw_banner
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.chips import chip_bitmap
from firmware_host.screens.choices import PAUSE, scrolled
from firmware_host.screens.dalmatian import hint_line
from firmware_host.screens.dice import SIZE
from firmware_host.screens.font import SMALL
from firmware_host.screens.opening import draw_throw
from firmware_host.screens.pointed import MARK
from firmware_host.screens.samples import SAMPLES, play
from firmware_host.screens.sequence import LINE, PANEL
from firmware_host.views import DiceEntryView, GameView, MenuView
from games.dalmatian import Dalmatian


def test_every_option_has_a_label_and_words_a_player_understands() -> None:
    for name in games.REGISTRY:
        for key, option in games.game_class(name).OPTIONS.items():
            assert option.label and "_" not in option.label, (name, key)
            for value in option.choices or (option.default,):
                assert "_" not in option.text(value), (name, key, value)


def test_every_option_reads_whole_beside_each_of_its_values() -> None:
    """A set-up row is ``Label:`` and the value at the right, 21 characters in all: no
    label is cut or scrolls, whatever value it shows."""
    for name in games.REGISTRY:
        for key, option in games.game_class(name).OPTIONS.items():
            if len(option_values(option)) < 2:
                continue  # free-form (a board file): set in the config, not on the screen
            for value in option_values(option):
                row = f"{option.label}: {option.text(value)}"
                assert len(row) <= SMALL.chars_in(128), (name, key, row)
    dalmatian = games.game_class("dalmatian").OPTIONS
    assert (dalmatian["dice_in_several_groups"].label,
            dalmatian["dice_in_several_groups"].text(False)) == ("Shared dice", "no")
    rule = games.game_class("multigam").OPTIONS["dice_rule"]
    assert (rule.label, rule.text(rule.default)) == ("Dice rule", "standard")


def test_a_long_line_starts_cut_then_scrolls_to_its_end_and_back() -> None:
    text = "Only the round's best scores:"
    assert scrolled(text, 16, 0) == "Only the round'…"
    assert scrolled(text, 16, PAUSE + 1) == "nly the round's…"
    shown = {scrolled(text, 16, tick) for tick in range(60)}
    assert "round's best scores:"[-16:] in shown  # the end is reached
    assert all(len(line) == 16 for line in shown)
    assert scrolled("Start", 16, 7) == "Start"


def test_a_value_is_always_whole_and_a_highlighted_label_moves() -> None:
    items, values = ("Start", "Only the round's best scores"), ("", "no")
    still, moved = (render(MenuView("Options", items, 1, values=values, scroll=s))
                    for s in (0, 9))
    row = (0, 27, 128, 36)  # the highlighted row, second of the list
    assert still.crop(row).tobytes() != moved.crop(row).tobytes()
    value = (110, 27, 128, 36)  # "no" at the right stays where it is
    assert still.crop(value).tobytes() == moved.crop(value).tobytes()


def test_a_greyed_entry_keeps_its_place_and_looks_different() -> None:
    items = ("Back to the game", "Undo last action", "Standings")
    plain = render(MenuView("Menu", items))
    greyed = render(MenuView("Menu", items, greyed=frozenset({1})))
    second, third = (0, 27, 128, 36), (0, 36, 128, 45)
    assert plain.crop(second).tobytes() != greyed.crop(second).tobytes()
    assert greyed.crop(second).getbbox() is not None  # dimmed, not gone
    assert plain.crop(third).tobytes() == greyed.crop(third).tobytes()


def test_typed_in_dice_are_drawn_and_up_changes_the_face_shown() -> None:
    before = render(DiceEntryView((1, 1, 1, 1, 1), 1))
    after = render(DiceEntryView((1, 4, 1, 1, 1), 1))
    changed = {y for x in range(128) for y in range(64)
               if before.getpixel((x, y)) != after.getpixel((x, y))}
    assert changed and changed <= set(range(16)) | set(range(20, 20 + SIZE))  # band, dice
    # the help line sits below the dice and their numbers, never over them
    help_rows = before.crop((0, 56, 128, 64))
    assert help_rows.getbbox() is not None
    assert before.crop((0, 20 + SIZE + 2 + 9, 128, 56)).getbbox() is None


def test_the_hint_labels_what_it_expects_or_says_the_play_alone_where_short() -> None:
    game = games.new_game("dalmatian", 2)
    for action in ("roll 6-6-6-6-5", "roll 1-2-3-4-5", "roll 3-4", "roll 1-3-5-5-6"):
        game.apply(action)
    assert isinstance(game, Dalmatian)
    advice = game.advice()
    assert advice is not None and not advice.stops
    keep, reroll = (f"{verb} {'-'.join(map(str, dice))}"
                    for verb, dice in (("keep", advice.hold), ("reroll", advice.reroll)))
    play = min(keep, reroll, key=len)  # the fewer dice
    assert hint_line(game, 40) == f"{play} ≈{advice.expected:.1f} pts"
    assert hint_line(game, len(play) + 8) == play  # never a number without its label


def test_the_roll_off_shows_every_players_throw_beside_a_whole_name() -> None:
    view = SAMPLES["dalmatian_opening_six"]()
    frame = render(view)
    assert isinstance(view, GameView)
    for player in range(6):
        y = 17 + player * 8
        throw = view.game.opening.latest.get(player)
        expected = Canvas()
        if throw is None:
            continue
        draw_throw(expected, 127, y, throw)
        left = draw_throw(Canvas(), 127, y, throw)
        box = (left, y, 128, y + 7)
        assert frame.crop(box).tobytes() == expected.to_image().crop(box).tobytes()
        name = view.game.name(player)
        assert len(name) <= 8
        named = Canvas()
        named.text(SMALL.advance, y, name)
        box = (SMALL.advance, y, SMALL.advance + SMALL.width(name), y + 7)
        assert frame.crop(box).tobytes() == named.to_image().crop(box).tobytes()


def test_the_contact_sheet_draws_the_changed_screens(tmp_path: Path) -> None:
    out = tmp_path / "sheet.png"
    assert sheet.main([str(out), "--changed"]) == 0
    with Image.open(out) as image:
        rows = -(-len(sheet.CHANGED) // sheet.COLUMNS)
        assert image.size[0] == sheet.COLUMNS * (128 * sheet.SCALE + 2 * sheet.MARGIN)
        assert image.size[1] == rows * (64 * sheet.SCALE + sheet.LABEL + 2 * sheet.MARGIN)
    assert set(sheet.CHANGED) <= set(SAMPLES)


def test_dice_and_marks_read_at_arms_length() -> None:
    assert dice.SIZE >= 14 and dice.PIP >= 2  # faces 15 px, pips 3x3
    marks = [chip_bitmap(colour) for colour in range(4)]
    lit = [sum(bin(row).count("1") for row in mark) for mark in marks]
    assert lit[3] >= 16  # the fourth mark as bold as the others, not a 2x2 dot
    differing = [sum(bin(a ^ b).count("1") for a, b in zip(marks[i], marks[j], strict=True))
                 for i in range(4) for j in range(i + 1, 4)]
    assert min(differing) >= 8


def test_names_keep_five_letters_beside_center_points_markers() -> None:
    view = SAMPLES["centerpoint_playing"]()
    assert isinstance(view, GameView)
    frame = render(view)
    expected = Canvas()
    expected.text(centerpoint.NAME_X, 17 + 2 * 9 + 1, "Carol")
    box = (centerpoint.NAME_X, 36, centerpoint.NAME_X + SMALL.width("Carol"), 43)
    assert frame.crop(box).tobytes() == expected.to_image().crop(box).tobytes()
    pointed = [row for row in range(len(view.game.markers))  # the player to move's alone
               if frame.crop((0, 17 + row * 9, MARK, 26 + row * 9)).getbbox() is not None]
    assert pointed == [view.game.turn]


def test_sequence_scores_and_multigam_counts_say_what_they_are() -> None:
    view = SAMPLES["sequence_over"]()
    assert isinstance(view, GameView)
    frame = render(view)
    label = Canvas()
    right = label.text_right(127, 19, "run 3")
    box = (right, 19, 128, 26)
    assert frame.crop(box).tobytes() == label.to_image().crop(box).tobytes()
    view = SAMPLES["multigam_rolling"]()
    assert isinstance(view, GameView)
    band = Canvas()
    draw_banner(band, view.game.name(view.game.turn), ("b: on bar", "o: off"))
    box = (0, 0, 128, 16)
    assert render(view).crop(box).tobytes() == band.to_image().crop(box).tobytes()


def test_the_sequence_legend_follows_a_game_drawn_as_it_is_played() -> None:
    game = games.new_game("sequence", 2)
    seen = set()
    for seed in range(40):  # one game object, drawn after each step: its runs change under it
        played = len(game.history)
        play(game, seed, lambda g: len(g.history) > played)  # noqa: B023 (used at once)
        if game.opening is not None:  # the roll for who starts: no legend yet
            continue
        frame = render(GameView(game))
        legend = (BODY_TOP + 1 if game.is_over else BODY_TOP + 2 * LINE) + 1
        turn = game.current_player
        for line, run in enumerate(game.scores()[:2]):  # one seat of each colour
            label = Canvas()
            top = legend + line * LINE
            playing = turn is not None and game.colour(turn) == line  # pointed at
            right = label.text_right(127, top, f"run {run}")
            box = (right, top, 128, top + 7)
            assert frame.crop(box).tobytes() == label.to_image().crop(box).tobytes(), run
            pointer = frame.crop((PANEL, top, PANEL + MARK, top + 7)).getbbox() is not None
            assert pointer == playing, (line, turn)
            seen.add(run)
    assert len(seen) >= 3


def test_a_tie_of_every_player_says_so_and_a_throw_of_the_tie_goes_once_one_throws_again(
        ) -> None:
    """Both tied: the band says "tie: roll again" (it said "who starts", as if nothing
    had been thrown); once Ann throws again, Ben's throw of the tie is no longer shown."""
    game = games.new_game("dalmatian", 2, names=["Ann", "Ben"])
    for action in ("roll 3-3-3-3-3", "roll 3-3-3-3-3"):
        game.apply(action)
    band = (0, 0, 128, BODY_TOP)
    expected = Canvas()
    draw_banner(expected, "Ann", ("tie: roll", "again"), ())
    assert render(GameView(game)).crop(band).tobytes() == \
        expected.to_image().crop(band).tobytes()
    game.apply("roll 2-2-2-2-2")
    ben = BODY_TOP + 1 + 9
    row = (40, ben, 128, ben + 7)
    dash = Canvas()
    dash.text_right(127, ben, "-")
    assert render(GameView(game)).crop(row).tobytes() == dash.to_image().crop(row).tobytes()
