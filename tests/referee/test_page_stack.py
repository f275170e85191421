"""The pages over the game: the top one takes the controls, a notice goes before all."""

from __future__ import annotations

from firmware_host.menu import DiceEntry, Menu, entry
from firmware_host.referee.page_stack import PageStack
from firmware_host.views import DiceEntryView, MenuView, NoticeView
from hardware.events import Control


def menu(title: str, closable: bool = True) -> Menu:
    return Menu(title, [entry("One", lambda: None), entry("A line too long for its row", print)],
                closable=closable)


def test_with_no_page_the_game_takes_the_press() -> None:
    stack = PageStack()
    opened: list[str] = []
    assert not stack and stack.top is None and stack.view() is None
    assert not stack.press(Control.SELECT, 1, lambda: opened.append("menu"))
    assert opened == []


def test_the_top_page_takes_the_controls_and_back_closes_it() -> None:
    stack = PageStack()
    below, above = menu("Below"), menu("Above")
    stack.open(below)
    stack.open(above)
    assert stack.press(Control.DOWN, 3, lambda: None)
    assert (above.cursor, below.cursor) == (1, 0)
    view = stack.view()
    assert isinstance(view, MenuView) and view.title == "Above"
    assert stack.highlighted() == "A line too long for its row"
    stack.scroll_on()
    assert above.scroll == 1
    assert stack.press(Control.BACK, 1, lambda: None)
    assert stack.top is below


def test_back_on_the_game_choice_opens_the_menu_instead() -> None:
    stack = PageStack()
    stack.open(menu("New game", closable=False))
    opened: list[str] = []
    assert stack.press(Control.BACK, 1, lambda: opened.append("menu"))
    assert opened == ["menu"] and stack.top is not None and stack.top.title == "New game"


def test_back_in_dice_entry_steps_back_a_die_before_closing() -> None:
    stack = PageStack()
    typed: list[tuple[int, ...]] = []
    dice = DiceEntry(2, typed.append)
    stack.open(dice)
    stack.press(Control.UP, 2, lambda: None)
    stack.press(Control.SELECT, 1, lambda: None)
    stack.press(Control.BACK, 1, lambda: None)
    assert stack.top is dice and dice.cursor == 0
    assert isinstance(stack.view(), DiceEntryView) and stack.highlighted() is None
    stack.press(Control.BACK, 1, lambda: None)
    assert not stack and typed == []


def test_a_notice_covers_the_pages_until_select_or_back() -> None:
    stack = PageStack()
    stack.open(menu("Menu"))
    stack.notice = NoticeView("Tonight", ("Ann: 1 won of 1",))
    assert stack.view() == stack.notice and stack.highlighted() is None
    assert stack.press(Control.DOWN, 1, lambda: None) and stack.notice is not None
    assert stack.top is not None and stack.top.cursor == 0  # the menu under it did not move
    assert stack.press(Control.SELECT, 1, lambda: None) and stack.notice is None


def test_a_message_goes_to_the_menu_on_top_only() -> None:
    stack = PageStack()
    assert not stack.say("no menu")
    stack.open(DiceEntry(1, print))
    assert not stack.say("dice entry has no line for it")
    top = menu("Menu")
    stack.open(top)
    assert stack.say("nothing to undo yet") and top.message == "nothing to undo yet"
    assert stack.highlighted() is None  # the message covers the line
    stack.pop()
    stack.clear()
    assert not stack
