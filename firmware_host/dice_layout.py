"""Where each Dalmatian die lies on the table: five places, numbered as the hold buttons are.

The rules see a turn's dice as a multiset (``games.dalmatian``: ``reroll 5-6`` picks up a 5
and a 6, whichever ones), which keeps the journal simple. The players see five dice in a
row and five hold buttons under them, so the companion keeps the row: a turn's first throw
is laid out sorted, and a reroll puts the new dice back in the places the picked-up ones
left, so hold button N is always the Nth die shown. A reroll picked from the list and the
same dice left unheld before ROLL go through the same places with the same result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.dalmatian import Dalmatian, Reroll
from games.dice_multisets import HAND_SIZE


class DiceLayout:
    """The faces in places 0-4 (None: a place whose die is being thrown)."""

    def __init__(self) -> None:
        self.places: list[int | None] = []

    def follow(self, game: Dalmatian) -> None:
        """Agree with the game: keep the row while it holds the game's dice, else lay the
        game's dice out afresh (after a resume, an undo, or a new turn)."""
        if game.total is None:
            self.places = []
            return
        known = sorted(face for face in self.places if face is not None)
        if len(self.places) != HAND_SIZE or known != list(game.dice):
            self.places = [*game.dice, *[None] * (HAND_SIZE - len(game.dice))]

    def empty(self) -> list[int]:
        """The places waiting for dice, left to right."""
        return [place for place, face in enumerate(self.places) if face is None]

    def pick_up(self, places: Sequence[int]) -> tuple[int, ...]:
        """Empty ``places``; returns the faces picked up, in place order."""
        faces = tuple(self.places[p] or 0 for p in sorted(places))
        for place in places:
            self.places[place] = None
        return faces

    def put_down(self, dice: Sequence[int]) -> None:
        """Thrown ``dice`` fill the empty places left to right; a whole new throw is sorted."""
        empty = self.empty()
        if len(empty) != len(dice):
            return
        ordered = sorted(dice) if len(empty) == len(self.places) else list(dice)
        for place, face in zip(empty, ordered, strict=True):
            self.places[place] = face

    def _where(self) -> dict[int, list[int]]:
        """Each face shown, and the places showing it, left to right."""
        where: dict[int, list[int]] = {}
        for place, face in enumerate(self.places):
            if face is not None:
                where.setdefault(face, []).append(place)
        return where

    def choices(self, game: Dalmatian) -> list[tuple[str, tuple[int, ...]]]:
        """The moves of a turn as the list shows them, each with the places it picks up:
        ``stop`` (no places) first, then each different reroll by its leftmost places,
        fewest dice first, ``reroll 5-5-6 (dice 3,4,5)``."""
        where = self._where()  # once for the twenty-odd rerolls of a turn
        rerolls = sorted((_leftmost(where, a.dice) for a in game.legal_actions()
                          if isinstance(a, Reroll)), key=lambda places: (len(places), places))
        shown = self.shown()
        return [("stop", ()), *((reroll_label(places, [shown[p] for p in places]), places)
                                for places in rerolls)]

    def shown(self) -> tuple[int, ...]:
        """The row as drawn: 0 for a die still due."""
        return tuple(face or 0 for face in self.places)


def _leftmost(where: dict[int, list[int]], faces: Sequence[int]) -> tuple[int, ...]:
    """The leftmost places showing ``faces`` (a multiset, all of them shown), in place
    order, given where each face shows."""
    return tuple(sorted(place for face, n in Counter(faces).items() for place in where[face][:n]))


def replaced(row: Sequence[int], places: Sequence[int], faces: Sequence[int]) -> tuple[int, ...]:
    """``row`` with ``places`` showing ``faces``: a frame of dice tumbling into them."""
    new = list(row)
    for place, face in zip(places, faces, strict=True):
        new[place] = face
    return tuple(new)


def reroll_label(places: Sequence[int], faces: Sequence[int]) -> str:
    """A reroll as the list shows it: the faces, as everywhere a player reads dice, then
    the places as the hold buttons number them, ``reroll 5-5-6 (dice 3,4,5)``."""
    where = f"{'dice' if len(places) > 1 else 'die'} {','.join(str(p + 1) for p in places)}"
    return f"reroll {'-'.join(map(str, faces))} ({where})"
