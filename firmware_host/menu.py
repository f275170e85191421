"""Menus the controls step through: a list of entries, a cursor, and what SELECT does.

A :class:`Menu` is plain data plus callbacks, so the referee builds each menu where it knows
what the entries mean (new game, in-game choices, a confirmation) and the controls work the
same everywhere: UP/DOWN or the knob move the cursor (wrapping round), SELECT runs the entry.
An entry that does not apply now stays in its place, greyed, and SELECT on it says why, so
a player who counts presses always lands on the same entry. :class:`DiceEntry` is the one
page that is not a list: physical dice typed in with the controls, one die at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_host.views import DiceEntryView, MenuView


def _never() -> str | None:
    return None


@dataclass
class Entry:
    """One line of a menu.

    ``label`` may be recomputed (an entry may read differently once a game is over);
    ``value`` is a setting shown whole at the right ("no"); ``unavailable`` returns why the
    entry does not apply now (it is then greyed), or None.
    """

    label: Callable[[], str]
    run: Callable[[], None]
    value: Callable[[], str] | None = None
    unavailable: Callable[[], str | None] = _never


def entry(text: str, run: Callable[[], None],
          unavailable: Callable[[], str | None] = _never) -> Entry:
    """An entry whose label never changes."""
    return Entry(lambda: text, run, unavailable=unavailable)


@dataclass
class Menu:
    """A titled list; BACK leaves it unless ``closable`` is false (the start menu)."""

    title: str
    entries: list[Entry]
    cursor: int = 0
    closable: bool = True
    message: str | None = None
    scroll: int = 0  # ticks the highlighted entry has been shown (a long one scrolls)

    def move(self, steps: int) -> None:
        if self.entries:
            self.cursor = (self.cursor + steps) % len(self.entries)
            self.scroll = 0

    def select(self) -> None:
        if not self.entries:
            return
        chosen = self.entries[self.cursor]
        reason = chosen.unavailable()
        if reason is not None:
            self.message = reason
        else:
            chosen.run()

    def highlighted(self) -> str:
        """The text of the highlighted entry, label and value (what may need to scroll)."""
        if not self.entries:
            return ""
        chosen = self.entries[self.cursor]
        value = chosen.value() if chosen.value is not None else ""
        return f"{chosen.label()}: {value}" if value else chosen.label()

    def view(self) -> MenuView:
        values = tuple(e.value() if e.value is not None else "" for e in self.entries)
        greyed = frozenset(i for i, e in enumerate(self.entries) if e.unavailable() is not None)
        return MenuView(self.title, tuple(e.label() for e in self.entries), self.cursor,
                        self.message, values if any(values) else (), greyed, self.scroll)


def confirm(question: str, yes: Callable[[], None], close: Callable[[], None]) -> Menu:
    """A yes/no question; the cursor starts on "No" so a stray press changes nothing."""

    def accept() -> None:
        close()
        yes()

    return Menu(question, [entry("No", close), entry("Yes", accept)])


@dataclass
class DiceEntry:
    """Dice thrown by hand, entered with the controls: UP/DOWN set a die, SELECT goes on.

    SELECT on the last die hands the faces to ``done``; BACK on the first die gives up.
    """

    count: int
    done: Callable[[tuple[int, ...]], None]
    faces: list[int] = field(default_factory=list)
    cursor: int = 0

    def __post_init__(self) -> None:
        self.faces = [1] * self.count

    @property
    def closable(self) -> bool:
        return self.cursor == 0

    def move(self, steps: int) -> None:
        """UP (a negative step, as in a list) raises the face; DOWN lowers it; 6 wraps to 1."""
        self.faces[self.cursor] = (self.faces[self.cursor] - 1 - steps) % 6 + 1

    def select(self) -> None:
        if self.cursor < self.count - 1:
            self.cursor += 1
        else:
            self.done(tuple(self.faces))

    def back(self) -> None:
        self.cursor = max(0, self.cursor - 1)

    def view(self) -> DiceEntryView:
        return DiceEntryView(tuple(self.faces), self.cursor)
