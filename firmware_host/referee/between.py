"""Between games: the game choice, and the next round's seat that a game night's host gives
the table (:mod:`firmware_host.next_round`, looked for beside the journal while no game is
in play)."""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from firmware_host import next_round
from firmware_host.menu import Menu
from firmware_host.next_round import NextRound
from firmware_host.referee.new_game import NewGame, seat_problem
from firmware_host.referee.page_stack import Page, PageStack
from firmware_host.referee.tables import GameTable


class Host(Protocol):
    """What the game choice and the next round's news act on: the referee."""

    @property
    def table(self) -> GameTable | None: ...

    @property
    def pages(self) -> PageStack: ...

    def open(self, page: Page) -> None: ...

    def say(self, text: str) -> None: ...


class Between:
    """Opens the game choice (``new_game`` makes it), and between games looks for the next
    round's seat at each tick (:meth:`on`, due as the seat's file is looked at again)."""

    def __init__(self, host: Host, seat: NextRound, new_game: NewGame) -> None:
        self.host = host
        self.next_round = seat
        self.new_game = new_game
        self._choice: Menu | None = None
        self.due: float | None = None

    def open_game_choice(self) -> None:
        self._choice = self.new_game.game_choice(self.host.table is not None)
        self.host.open(self._choice)

    def on(self, now: float) -> bool:
        """Between games, the next round's news; whether the screen changed."""
        table = self.host.table
        if table is not None and not table.game.is_over:
            self.due = None
            return False
        changed = self._news(now)
        self.due = self.next_round.due  # look for the next round's seat again
        return changed

    def _news(self, now: float) -> bool:
        """Look beside the journal for the next round: a new seat is the game choice's first
        line when that is the page open, and a new line is said once, unless that first line
        says it already (it is said with the reason the table cannot play it, if it cannot).
        Whether the screen changed."""
        was = self.next_round.seat
        line = self.next_round.look(now)
        seat = self.next_round.seat
        changed = seat != was and self._on_game_choice()
        if changed:
            self.host.pages.pop()  # opened again: the next round first, or no more
            self.open_game_choice()
        if not line:
            return changed
        why = seat_problem(seat) if seat is not None else None
        if seat is None or not self._on_game_choice() or why:
            self._seat(f"{line}: {why}" if why else line)
        return True

    def _on_game_choice(self) -> bool:
        """Whether the game choice is the one page open (nothing chosen in it yet)."""
        return self.host.pages.pages == [self._choice]

    def _seat(self, line: str) -> None:
        """The next round's seat: in turn with a notice shown (a game's end), else said."""
        pages = self.host.pages
        if pages.notice is None:
            self.host.say(line)
        else:
            pages.notice = replace(pages.notice, then=next_round.notice(line))
