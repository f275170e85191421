"""The pages over the game screen: menus, questions and dice typed in, the top one shown and
worked by the controls; and a notice (the standings, shutting down) over all of them.

With no page open the controls play the game; the new-game menu is never closed by BACK
(there is nothing under it), so BACK there opens the menu instead, as it does in a game.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware_host.keyboard import Keyboard
from firmware_host.menu import DiceEntry, Menu
from firmware_host.views import NoticeView, View
from hardware.events import Control

Page = Menu | DiceEntry | Keyboard


class PageStack:
    """The open pages, the last on top, and the notice shown over them."""

    def __init__(self) -> None:
        self.pages: list[Page] = []
        self.notice: NoticeView | None = None

    def __bool__(self) -> bool:
        """Whether a page is open (a notice aside)."""
        return bool(self.pages)

    @property
    def top(self) -> Page | None:
        return self.pages[-1] if self.pages else None

    @property
    def turning(self) -> NoticeView | None:
        """The notice, when another is shown in turn with it."""
        return self.notice if self.notice is not None and self.notice.then is not None else None

    def open(self, page: Page) -> None:
        self.pages.append(page)

    def close(self, page: Page) -> None:
        if page in self.pages:
            self.pages.remove(page)

    def pop(self) -> None:
        """Close the page on top."""
        self.pages.pop()

    def clear(self) -> None:
        """Back to the game, whichever way the pages came."""
        self.pages.clear()

    def say(self, text: str) -> bool:
        """Put ``text`` on the menu on top; False when no menu is on top."""
        if isinstance(self.top, Menu | Keyboard):
            self.top.message = text
            return True
        return False

    def highlighted(self) -> str | None:
        """The top menu's highlighted line, when it is shown and could scroll."""
        if self.notice is not None:
            return None
        page = self.top
        return page.highlighted() if isinstance(page, Menu) and not page.message else None

    def scroll_on(self) -> None:
        """Move the top menu's highlighted line on by a character."""
        if isinstance(self.top, Menu):
            self.top.scroll += 1

    def press(self, control: Control, steps: int, open_menu: Callable[[], None]) -> bool:
        """Work a press on the notice or the top page; False when neither is there to
        take it (the game does). ``open_menu`` opens the game menu."""
        if self.notice is not None:
            if control in (Control.SELECT, Control.BACK):
                self.notice = None
            return True
        page = self.top
        if page is None:
            return False
        if isinstance(page, Menu | Keyboard) and page.message is not None:
            page.message = None  # as over the game: the first press closes the message alone
            return True
        if control in (Control.UP, Control.DOWN):
            page.move(steps if control is Control.DOWN else -steps)
        elif control is Control.SELECT:
            page.select()
        elif control is Control.BACK:
            if isinstance(page, DiceEntry | Keyboard) and not page.closable:
                page.back()
            elif page.closable:
                self.close(page)
            else:  # the game choice: BACK opens the menu, as it does in a game
                open_menu()
        return True

    def view(self, turns: int = 0) -> View | None:
        """What the pages show, or None: the game screen shows. ``turns``: how often the
        notice has turned since it was shown."""
        if self.notice is not None:
            return self.notice.turned(turns)
        return self.top.view() if self.top is not None else None
