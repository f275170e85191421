"""Who plays: each seat picks a name from a list, or types a new one, seat after seat.

The list holds every name the table knows (:meth:`NewGame.pool
<firmware_host.referee.new_game.NewGame.pool>`), the cursor on the seat's name as it
stands, so SELECT keeps it; the first seat's list starts with "Same as last game", one
press for the whole table. A name an earlier seat has is greyed and says so; a later seat
that had the name just picked is left empty, to be chosen. "New player" opens the
keyboard (:mod:`firmware_host.keyboard`). BACK goes back a seat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from firmware_host.keyboard import Keyboard
from firmware_host.menu import Menu, entry
from firmware_host.players import Player, problem, same
from firmware_host.referee.page_stack import Page

NEW_PLAYER = "New player"
SAME = "Same as last game: "


@dataclass
class SeatChoice:
    """The players seat by seat (None: a seat still to choose), the last game's players,
    where the names come from, and the page stack to open the lists on. ``chosen`` runs
    once every seat has its player."""

    seats: list[Player | None]
    last: tuple[Player, ...]
    pool: Callable[[], list[Player]]
    open_page: Callable[[Page], None]
    close_page: Callable[[Page], None]
    chosen: Callable[[], None] = lambda: None
    pages: list[Page] = field(default_factory=list)

    def names(self) -> list[str]:
        return [p.name if p is not None else "?" for p in self.seats]

    def lineup(self) -> tuple[Player, ...]:
        return tuple(p for p in self.seats if p is not None)

    def missing(self) -> str | None:
        """Why the game cannot start with these players yet, or None."""
        empty = [str(seat) for seat, p in enumerate(self.seats, start=1) if p is None]
        return f"choose the player of seat {', '.join(empty)} first" if empty else None

    def open(self) -> None:
        self._seat(0)

    def _seat(self, index: int) -> None:
        known = self.pool()
        entries = [entry(SAME + ", ".join(p.name for p in self.last), self._same)] \
            if index == 0 and self.last else []
        current = self.seats[index]
        cursor = next((len(entries) + at for at, p in enumerate(known)
                       if current is not None and same(p.name, current.name)), 0)
        for player in known:
            entries.append(entry(player.name, partial(self._pick, index, player),
                                 partial(self._taken, index, player)))
        entries.append(entry(NEW_PLAYER, partial(self._type, index)))
        menu = Menu(f"Player {index + 1} of {len(self.seats)}", entries, cursor)
        self._open(menu)

    def _open(self, page: Page) -> None:
        self.pages.append(page)
        self.open_page(page)

    def _taken(self, index: int, player: Player) -> str | None:
        return problem(player.name, self.seats[:index])

    def _pick(self, index: int, player: Player) -> None:
        self.seats[index] = player
        for later in range(index + 1, len(self.seats)):
            held = self.seats[later]
            if held is not None and same(held.name, player.name):
                self.seats[later] = None
        if index + 1 < len(self.seats):
            self._seat(index + 1)
        else:
            self._done()

    def _same(self) -> None:
        self.seats = list(self.last)
        self._done()

    def _type(self, index: int) -> None:
        self._open(Keyboard(f"seat {index + 1}", partial(self._typed, index)))

    def _typed(self, index: int, name: str) -> str | None:
        why = problem(name, self.seats[:index])
        if why is None:
            self._pick(index, Player(name))
        return why

    def _done(self) -> None:
        for page in self.pages:
            self.close_page(page)
        self.pages.clear()
        self.chosen()
