"""A name typed in with UP/DOWN (or the knob) and SELECT: an on-screen keyboard in two steps.

A list of every letter is 30 lines long, about 8 moves a letter on average. The keyboard
is a list of groups instead ("abcde", "fghij", ... then delete and OK): SELECT on a group
opens its five letters, SELECT on a letter types it and goes back to the groups, with
the cursor left on that group. That is about 5 presses a letter: a 6-letter name takes
about 33 presses (``bench/typing_names.py`` counts them). Letters come capitalised where
a name's words start (the first letter, after a space, a hyphen or an apostrophe) and
small elsewhere, so nobody has to shift. BACK goes from the letters back to the groups,
and from the groups takes back the last letter; with nothing typed it leaves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from firmware_host.players import MAX_TYPED
from firmware_host.views import KeyboardView

GROUPS = ("abcde", "fghij", "klmno", "pqrst", "uvwxy", "z -'")
DELETE, DONE = "del", "OK"
KEYS = (*GROUPS, DELETE, DONE)
"""What the groups' list holds, in order."""
STARTS_A_WORD = " -'"


def shown(char: str, text: str) -> str:
    """``char`` as it would be typed after ``text``: a capital where a word starts."""
    return char.upper() if not text or text[-1] in STARTS_A_WORD else char


@dataclass
class Keyboard:
    """The name typed so far and where the cursor is. ``done`` gets the name on OK and
    returns why it cannot be taken (shown as :attr:`message`), or None."""

    title: str
    done: Callable[[str], str | None]
    text: str = ""
    group: int = 0  # the cursor in the groups' list (KEYS)
    letter: int | None = None  # the cursor in the group's letters, None: in the groups
    message: str | None = None

    @property
    def closable(self) -> bool:
        return self.letter is None and not self.text

    def move(self, steps: int) -> None:
        if self.letter is None:
            self.group = (self.group + steps) % len(KEYS)
        else:
            self.letter = (self.letter + steps) % len(GROUPS[self.group])

    def select(self) -> None:
        if self.letter is not None:
            self._type(GROUPS[self.group][self.letter])
            self.letter = None
        elif KEYS[self.group] == DELETE:
            self.back()
        elif KEYS[self.group] == DONE:
            self.message = self.done(self.text.strip())
        else:
            self.letter = 0

    def back(self) -> None:
        if self.letter is not None:
            self.letter = None
        else:
            self.text = self.text[:-1]

    def _type(self, char: str) -> None:
        if len(self.text) >= MAX_TYPED:
            self.message = f"a typed name has at most {MAX_TYPED} letters"
        elif char == " " and (not self.text or self.text.endswith(" ")):
            return  # no name starts with a space or holds two
        else:
            self.text += shown(char, self.text)

    def view(self) -> KeyboardView:
        return KeyboardView(self.title, self.text, tuple(
            "".join(shown(c, self.text) for c in key) if key in GROUPS else key for key in KEYS),
            self.group, self.letter, self.message)


SELECT = 0
"""In a :func:`route`, a press of SELECT (any other number is a move of that many steps,
negative upwards)."""


def route(name: str) -> list[int]:
    """The fewest presses that type ``name`` (letters, spaces, ``-`` and ``'``) from a
    fresh keyboard and take it with OK: each a move (steps, the shorter way round) or
    :data:`SELECT`. What the bench counts, and what a test presses."""
    presses: list[int] = []
    group = 0
    for char in name.lower():
        target = next((i for i, letters in enumerate(GROUPS) if char in letters), None)
        if target is None:
            raise ValueError(f"{char!r} is not on the keyboard")
        presses += [*_moves(group, target, len(KEYS)), SELECT]
        presses += [*_moves(0, GROUPS[target].index(char), len(GROUPS[target])), SELECT]
        group = target
    return [*presses, *_moves(group, KEYS.index(DONE), len(KEYS)), SELECT]


def _moves(start: int, end: int, ring: int) -> list[int]:
    """The presses that move a cursor from ``start`` to ``end`` on a list of ``ring``
    entries that wraps round, one step a press."""
    ahead = (end - start) % ring
    return [1] * ahead if ahead <= ring - ahead else [-1] * (ring - ahead)
