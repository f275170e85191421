"""Players' names in the room a screen has for them: cut, never ambiguous.

A name longer than its room is cut to the letters that fit, without "…" (a name has few
letters to spare: "Domin" reads, "Domi…" hardly). Two players whose names would be cut
alike ("Christine" and "Christopher" in five letters) keep one letter fewer and their
seat's number instead ("Chri1", "Chri3"), so nobody reads another's line as theirs.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from firmware_host.screens.font import SMALL, spelt
from games.core import GameState


def shown_names(names: tuple[str, ...], chars: int) -> tuple[str, ...]:
    """Each of ``names`` in at most ``chars`` characters, no two alike that differ whole;
    spelt as the font draws them (:func:`spelt`: "山田" -> "ShanTian")."""
    names = tuple(spelt(name) for name in names)
    cut = [name[:chars] for name in names]
    twins = Counter(cut)
    shown = []
    for seat, (name, short) in enumerate(zip(names, cut, strict=True)):
        if twins[short] > 1 and short != name:
            number = str(seat + 1)
            short = name[: max(chars - len(number), 0)] + number
        shown.append(short)
    return tuple(shown)


def shown_name(game: GameState[Any], player: int, pixels: int) -> str:
    """``player``'s name as it fits ``pixels`` of small text beside the others'."""
    names = tuple(game.name(p) for p in range(game.players))
    return shown_names(names, SMALL.chars_in(pixels))[player]
