"""Whether a sensor's changes are a failing switch's or a hand's: a sensor is blamed only for
what a hand cannot do.

Hands work a cell over and over for reasons of their own: a chip straightened or tapped
after it is put down, a player hesitating between two cells the throw allows, an
opponent's chip lifted and one's own put on it again and again. None of that strays from
the game: a lift of a chip the game has, a chip put back where the game has one, a chip
offered as the move instead of another are what hands do. What hands do not do is put a
chip, again and again, on a free cell the rules refuse, nor leave one there for less than
a put takes to settle (a close that came back before it settled, the cells around it
still: :meth:`Blame.brief`). A cell changes by itself (``CellChanged.alone``: the cells
around it steady) while a failing switch flips; its strays are counted while it keeps
changing by itself, and forgotten once it has been still for the matrix's window (its
change is then the first by itself in the window).

- A change that makes a move, or an offer, clears the cell's strays.
- A close on a free cell the rules refuse, or a move of its taken back, strays; so does a
  move offered instead of another from its second time, or after the cell strayed (a hand
  hesitating between two cells offers the second once).
- Two strays are ambiguous (a player may put the same chip on the same wrong cell twice),
  and so is a move taken back with the cell changing by itself :data:`RESTLESS` times (a
  chip the players said was not theirs, taken away as the screen asks, or flipping on;
  markers moved over a box again and again are no sign): the players are asked ("C2 keeps
  changing: is a hand on it?"); "yes" trusts the cell afresh, "no" names its sensor, and
  any other press, or the game moving on, withdraws the question. So is a chip the game has
  lifted by itself a fourth time with no move between (hands straighten a chip twice, or tap
  it three times: a switch chattering under a chip flips on).
- Three strays name the sensor without asking; so does a close too brief for a hand at a
  cell that strayed or keeps changing by itself (:data:`RESTLESS` times).
"""

from __future__ import annotations

import enum

from firmware_host.sensing.base import RESTLESS

Square = tuple[int, int]

ASK_AT = 2
NAME_AT = 3
LIFTS_ASK_AT = 4  # lifts of a chip the game has, by themselves, with no move between: hands
# straighten a chip twice or tap it three times after putting it down


def question(label: str) -> str:
    """What the players are asked about the cell ``label`` whose changes may be a hand's."""
    return f"{label} keeps changing: is a hand on it? SELECT: yes, BACK: no"


class Verdict(enum.Enum):
    """What a cell's latest change says about its sensor."""

    HAND = "hand"  # nothing a hand could not do
    ASK = "ask"  # ambiguous: ask the players whether a hand is on it
    FAILING = "failing"  # what no hand does: name the sensor


class Blame:
    """Each cell's strays since it last changed by itself after a still spell, and the
    question asked about one."""

    def __init__(self) -> None:
        self._strays: dict[Square, int] = {}
        self._offered: set[Square] = set()  # offered instead of another, this spell
        self._disowned: set[Square] = set()  # a move of its taken back, this spell
        self._alone: dict[Square, int] = {}  # how often it changed by itself, as last seen
        self._lifts: dict[Square, int] = {}  # lifts of a chip the game has, this spell
        self.asking: Square | None = None  # the cell the players are asked about

    def seen(self, square: Square, alone: int, *, made: bool, stray: bool,
             offered: bool = False, lifted: bool = False) -> Verdict:
        """A change at ``square`` that ``made`` a move or an offer, or else ``stray``\\ed
        (a close on a free cell the rules refuse), was ``offered`` instead of the move the
        board made elsewhere, or ``lifted`` a chip the game has; ``alone``: how often the
        cell changed by itself of late, this change included."""
        if alone <= 1:  # the first change by itself after a still spell: a fresh start
            self.forget(square)
        self._alone[square] = alone
        if made:
            self._strays.pop(square, None)
            self._lifts.pop(square, None)
            return Verdict.HAND
        if lifted:
            self._lifts[square] = lifts = self._lifts.get(square, 0) + 1
            if lifts >= LIFTS_ASK_AT and self.asking is None:
                self.asking = square
                return Verdict.ASK
        if offered:  # a hand hesitating offers a cell once; a failing switch again and
            stray = square in self._offered or square in self._strays  # again
            self._offered.add(square)
        strays = self._strays.get(square, 0) + stray
        if strays == 0:
            return Verdict.HAND
        self._strays[square] = strays
        if strays >= NAME_AT:
            self.forget(square)
            return Verdict.FAILING
        if (strays >= ASK_AT or (square in self._disowned and alone >= RESTLESS)) \
                and self.asking is None:
            self.asking = square
            return Verdict.ASK
        return Verdict.HAND

    def taken_back(self, square: Square) -> Verdict:
        """A move the change at ``square`` made was taken back (the players said it was
        not theirs): it strayed. Ambiguous when the cell had changed by itself
        :data:`RESTLESS` times by then."""
        self._strays[square] = self._strays.get(square, 0) + 1
        self._disowned.add(square)
        if self._alone.get(square, 0) >= RESTLESS and self.asking is None:
            self.asking = square
            return Verdict.ASK
        return Verdict.HAND

    def brief(self, square: Square, alone: int) -> bool:
        """A close at ``square`` came back before it settled (shorter than a hand can
        put a chip down and take it away), the cell having changed by itself ``alone``
        times of late: whether its sensor is failing (it strayed too, or it keeps
        changing)."""
        failing = self._strays.get(square, 0) >= 1 or alone >= RESTLESS
        if failing:
            self.forget(square)
        return failing

    def answered(self, hand: bool) -> Square | None:
        """The players' answer to the question: ``hand`` on the cell (it is trusted
        afresh) or not (its sensor is failing). The cell asked about."""
        square, self.asking = self.asking, None
        if square is not None and hand:
            self.forget(square)
        return square

    def forget(self, square: Square) -> None:
        """Start the cell's count again (named, or a hand's)."""
        self._strays.pop(square, None)
        self._offered.discard(square)
        self._disowned.discard(square)
        self._alone.pop(square, None)
        self._lifts.pop(square, None)
        if self.asking == square:
            self.asking = None
