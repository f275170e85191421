"""What moves on by itself between events, each with its own deadline: the dice tumbling
after a throw, a long line scrolling, a long message's pages, actions waiting for the
journal's lock, and fixes of the board left unmade for a while.

Each is a :class:`Due`: moved on to the time at the referee's tick (given at its making
whatever else it looks at), it answers when it is due next (None: not until something new
happens), so the tick is one loop over them and the loop sleeps until the soonest.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from firmware_host.dice_layout import replaced

TUMBLE_FRAME_S = 0.06  # eight faces in about half a second: a roll, not a wait
SCROLL_S = 0.3  # a long menu line moves a character this often: read, not chased
ROW_CHARS = 16  # a line longer than this may not fit its row: it may need to scroll
PAGE_S = 4.0  # a message too long for one page shows its next one this often
UNMADE_FIX_S = 8.0  # the board still this long after a change, a fix still unmade: its sensor
# is named (a failing one within 10 s)

LOCK_LOOK_S = 0.2  # how often the loop looks whether another program let go of the journal

Faces = tuple[int, ...]
Square = tuple[int, int]


class Due(Protocol):
    """What moves on by itself: ``on(now)`` moves it on to ``now`` (whether the screen
    changed); ``due`` is when it is due next (None: not until something new happens)."""

    @property
    def due(self) -> float | None: ...

    def on(self, now: float) -> bool: ...


class Tumble:
    """A button's throw shown as dice tumbling into their places before they land.

    The faces are made at the first tick after the throw (the throw's own frame needs
    none of them), then one is shown every :data:`TUMBLE_FRAME_S`."""

    def __init__(self) -> None:
        self.rolling: Faces | None = None  # the faces shown now; None: the dice lie still
        self.thrower: int | None = None  # whose throw tumbles
        self.due: float | None = None
        self._frames: list[Faces] = []
        self._thrown: tuple[Faces, Sequence[int], Faces, Callable[[Faces], Iterable[Faces]]] \
            | None = None

    def throw(self, row: Faces, places: Sequence[int], dice: Faces,
              tumble: Callable[[Faces], Iterable[Faces]], thrower: int | None = None) -> None:
        """``dice`` thrown into ``places`` of ``row`` (none: the dice are the row) by
        player ``thrower``; ``tumble`` gives the animation's faces, ending on ``dice``."""
        self._thrown = (row, places, dice, tumble)
        self.thrower = thrower
        self.due = None

    @property
    def busy(self) -> bool:
        """Whether a throw is still to land: thrown, or tumbling."""
        return self._thrown is not None or self.rolling is not None or bool(self._frames)

    def land(self) -> None:
        """A new throw came: whatever still tumbles has landed."""
        self._thrown, self._frames, self.rolling = None, [], None

    def on(self, now: float) -> bool:
        """Show the next face when it is due; whether the screen changed."""
        if self._thrown is not None:
            row, places, dice, tumble = self._thrown
            self._thrown = None
            self._frames = [replaced(row, places, faces) if places else faces
                            for faces in tumble(dice)]
        if self.rolling is None and not self._frames:
            self.due = None
            return False
        if self.due is not None and now < self.due:
            return False
        self.rolling = self._frames.pop(0) if self._frames else None
        self.due = now + TUMBLE_FRAME_S
        return True


class Scroller:
    """Moves the highlighted line (``line`` gives it) on by a character every
    :data:`SCROLL_S` while it is too long for its row (``moved`` moves it). Whether it is too
    long is found once an event, not every tick."""

    def __init__(self, line: Callable[[], str | None], moved: Callable[[], None]) -> None:
        self._line, self._moved = line, moved
        self.due: float | None = None
        self._long = False
        self._unknown = False  # the first screen's line is looked at after the first event

    def line_changed(self) -> None:
        """An event came: the highlighted line may be another."""
        self._unknown = True

    def on(self, now: float) -> bool:
        """Whether the line moved on a character now."""
        if self._unknown:
            self._unknown = False
            self._long = len(self._line() or "") > ROW_CHARS
        if not self._long:
            self.due = None
            return False
        if self.due is None:
            self.due = now + SCROLL_S
            return False
        if now < self.due:
            return False
        self.due = now + SCROLL_S
        self._moved()
        return True


class Pager:
    """Counts the pages turned of the message shown, one every :data:`PAGE_S` (a message of
    one page looks the same after a turn, so its frame sends nothing); a new message starts
    at its first page. A notice with another to turn with is paged the same way. ``text``
    gives the message on the screen (None: nothing to page)."""

    def __init__(self, text: Callable[[], object]) -> None:
        self._shown = text
        self.due: float | None = None
        self.page = 0
        self._text: object = None

    def on(self, now: float) -> bool:
        """Whether the page shown changes now."""
        text = self._shown()
        if text != self._text:
            self._text, self.page = text, 0
            self.due = None if text is None else now + PAGE_S
            return False
        if self.due is None or now < self.due:
            return False
        self.page += 1
        self.due = now + PAGE_S
        return True

    def page_of(self, text: object) -> int:
        """The pages turned of ``text``: none yet, if it has just come."""
        return self.page if text == self._text else 0


class UnmadeFixes:
    """Squares where the board and the game disagree (a piece the sensors do not see, or
    one they see that the game does not have), and since when.

    The screen asks for the fix, so players slow to make it are not a fault: a square is
    suspected only once the players have worked the board since it disagreed (a sensed
    change: they are at it) and then :data:`UNMADE_FIX_S` have passed with the fix still
    unmade and no change of the board at a square that disagreed before or after it (a fix
    made, a piece put down wrongly, one lifted to be straightened): each such change starts
    the wait again, so a piece just placed is never blamed on its sensor. Players who play
    on meanwhile do not hold it off: a move, a replacement's lift and put leave their square
    agreeing with the game. A square that agrees again is no longer suspected."""

    def __init__(self) -> None:
        self.due: float | None = None
        self._since: dict[Square, float | None] = {}  # None: not worked on since missing
        self.suspected: frozenset[Square] = frozenset()
        self._worked = False  # the board changed since the last call of :meth:`on`
        self._played = False  # the board changed where it agrees with the game, since then

    def worked(self, *, fixing: bool = True) -> None:
        """The sensors saw the board change; ``fixing``: at a square that disagreed with
        the game before or after the change."""
        if fixing:
            self._worked = True
        else:
            self._played = True

    def on(self, now: float, disagreeing: frozenset[Square]) -> bool:
        """Note the squares that disagree now; whether the suspected squares changed."""
        worked, self._worked = self._worked, False
        played, self._played = self._played, False
        self._since = {square: now if worked or (played and self._since.get(square) is None)
                       else self._since.get(square) for square in disagreeing}
        suspected = frozenset(square for square, since in self._since.items()
                              if since is not None and now >= since + UNMADE_FIX_S)
        self.due = min((since + UNMADE_FIX_S for since in self._since.values()
                        if since is not None and now < since + UNMADE_FIX_S), default=None)
        changed = suspected != self.suspected
        self.suspected = suspected
        return changed


class Watch(Protocol):
    """What tells that another program's lock on the journal has gone
    (:class:`firmware_host.journal.threads.LockWatch`)."""

    free: threading.Event


Write = Callable[[object, tuple[Any, ...], str | None], bool]
"""Writes actions kept from the journal (the game they belong to, the actions, where a throw
among them came from); whether the screen changed."""


class Unwritten:
    """Actions another program's lock on the journal kept from being written, until it
    goes (then ``write`` writes them): a thread of the journal's waits for that, and the
    loop looks at what it found every :data:`LOCK_LOOK_S`, never waiting on the lock
    itself."""

    def __init__(self, write: Write) -> None:
        self._write = write
        self.due: float | None = None
        self.actions: tuple[Any, ...] = ()
        self.source: str | None = None  # where a throw among them came from
        self.game: object = None  # the game they belong to
        self._watch: Watch | None = None

    def hold(self, game: object, actions: tuple[Any, ...], source: str | None,
             watch: Watch) -> None:
        self.game, self.actions, self.source, self._watch = game, actions, source, watch

    def on(self, now: float) -> bool:
        """Write the actions once the lock has gone; whether the screen changed."""
        if self._watch is None or not self._watch.free.is_set():
            self.due = None if self._watch is None else now + LOCK_LOOK_S
            return False
        actions, self.actions, self._watch, self.due = self.actions, (), None, None
        return self._write(self.game, actions, self.source)


class Timers:
    """The referee's timers, and every owner of what moves on by itself moved on in turn:
    ``owners``, in their order at a tick (the timers here, and the referee's other owners
    among them). What each timer looks at is given as in :class:`Scroller`, :class:`Pager`
    and :class:`Unwritten`."""

    def __init__(self, line: Callable[[], str | None], moved: Callable[[], None],
                 shown: Callable[[], object], turning: Callable[[], object],
                 write: Write) -> None:
        self.tumble = Tumble()
        self.scroll = Scroller(line, moved)
        self.pager = Pager(shown)
        self.turns = Pager(turning)  # a notice and the seat shown in turn with it
        self.unwritten = Unwritten(write)
        self.owners: tuple[Due, ...] = (self.scroll, self.tumble, self.unwritten, self.pager,
                                        self.turns)

    def on(self, now: float) -> bool:
        """Move every owner on to ``now``; whether the screen changed."""
        changed = False
        for owner in self.owners:
            changed |= owner.on(now)
        return changed

    def due(self) -> float | None:
        """When the soonest owner is due (None: none is)."""
        return min((owner.due for owner in self.owners if owner.due is not None), default=None)
