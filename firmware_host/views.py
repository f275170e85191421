"""What the referee asks the screens to draw: small frozen values, one per kind of screen.

The referee decides *what* is on the screen (which game, which choices, where the cursor
is, what was refused); :mod:`firmware_host.screens` decides *how* it looks on 128x64 pixels.
Keeping the two apart lets golden-image tests build any screen from a view alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_host.journal import places
from games.core import GameState


@dataclass(frozen=True)
class GameView:
    """A game in progress (or just over): the position, what may be chosen, and a notice.

    ``choices`` are the legal actions as their notation prints them, in the order the
    controls step through them; ``cursor`` indexes the highlighted one (0 when there are
    none). ``message`` is a refusal or a notice ("point 4 is blocked ..."), shown until the
    next accepted input. ``hint`` turns the advisor's hint on (Dalmatian's best hold).
    ``rolling`` holds the faces of a roll animation frame while dice tumble. ``layout`` is a
    Dalmatian turn's dice in the places the players see (0: a die still due), numbered as
    the hold buttons are; ``held`` are the places (0-4) a player keeps with the hold
    buttons; the ROLL button then throws the others. ``scroll`` counts the ticks the
    highlighted choice has been shown, for a choice too long for its row. ``page`` counts
    the pages of a message too long for one turned since it was shown. ``thrower`` is the
    player whose throw is tumbling: the band names them until it lands.
    """

    game: GameState[Any]
    choices: tuple[str, ...] = ()
    cursor: int = 0
    message: str | None = None
    hint: bool = True
    rolling: tuple[int, ...] | None = None
    held: frozenset[int] = frozenset()
    scroll: int = 0
    layout: tuple[int, ...] = ()
    page: int = 0
    thrower: int | None = None


@dataclass(frozen=True)
class MenuView:
    """A list to choose from: the game menu, the player count, a variant, a confirmation.

    ``values`` (empty, or one a item, "" for none) are shown at the right of their items,
    always whole: an option's setting. ``greyed`` indexes items that do not apply now; they
    keep their place, so counting presses still works. ``scroll`` counts the ticks the
    highlighted item has been shown: a line too long for the screen scrolls by it.
    """

    title: str
    items: tuple[str, ...]
    cursor: int = 0
    message: str | None = None
    values: tuple[str, ...] = ()
    greyed: frozenset[int] = frozenset()
    scroll: int = 0


@dataclass(frozen=True)
class DiceEntryView:
    """Dice thrown by hand being typed in: every die's face so far, and the one being set."""

    faces: tuple[int, ...]
    cursor: int


@dataclass(frozen=True)
class KeyboardView:
    """A name being typed: the name so far, the keyboard's keys (groups of letters as they
    would be typed, then delete and OK), the key the cursor is on and, once a group is
    open, the letter in it (None: choosing a group); a message over it when a name is
    refused."""

    title: str
    text: str
    keys: tuple[str, ...]
    key: int
    letter: int | None = None
    message: str | None = None


@dataclass(frozen=True)
class BoardFixView:
    """The board sensors disagree with the game: what to put back, one line a cell."""

    title: str
    fixes: tuple[str, ...]  # e.g. "put a chip on B3", "lift the chip from C4"
    message: str | None = None  # why the board was refused, above the fixes
    page: int = 0  # pages of a long message turned since it was shown
    dice: tuple[int, ...] = ()  # the throw the fixes follow (tumbling, or as it landed)


@dataclass(frozen=True)
class NoticeView:
    """A full-screen notice: the night's standings, shutting down, a fault. ``qr`` is an
    address shown as a QR code beside the lines (the game night's page). ``then`` is shown
    in turn with it (the next round's seat at a game's end), so neither waits for a press."""

    title: str
    lines: tuple[str, ...]
    qr: str = ""
    then: NoticeView | None = None

    def turned(self, turns: int) -> NoticeView:
        """What shows after ``turns`` turns: ``then`` first, as it is the news."""
        return self.then if self.then is not None and turns % 2 == 0 else self


View = GameView | MenuView | DiceEntryView | KeyboardView | BoardFixView | NoticeView


def game_over_notice(game: GameState[Any], url: str) -> NoticeView:
    """A finished game's players and scores, the winner first, beside the QR code of its
    page on the hub, where the players find it with its "Add to BG Stats" link. (Beside the
    code a line has 10 characters: the order says the places.)"""
    result = game.result()
    assert result is not None
    placed = places(result)
    order = sorted(placed, key=lambda seat: (placed[seat], seat))
    lines = tuple(f"{game.name(seat)} {result.scores[seat]}" for seat in order)
    return NoticeView("Game over", lines, qr=url)
