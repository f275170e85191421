"""A game as the table plays it: what the list offers, where the cursor is, what the screen
says beside the position, and how a throw of the dice becomes the game's actions.

:class:`GameTable` serves every game played with the controls and the dice as the rules
see them; a game whose table works otherwise (Dalmatian's row of dice and hold buttons) has
a subclass of its own in this package; the game's kit (:mod:`firmware_host.kits`) names it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from firmware_host.errors import UsageError
from firmware_host.referee.parts import Recogniser, Sensed
from firmware_host.referee.settings import Settings
from firmware_host.views import BoardFixView, GameView
from games.core import GameState, Roll
from hardware.events import CellChanged

Play = Callable[..., bool]
"""Commits actions (all or none) through the journal; False when refused (the reason is
on the screen)."""

Faces = tuple[int, ...]


@dataclass(frozen=True)
class Choice:
    """One line of the list: its label, and the action SELECT on it plays, which is the
    very value listed (a game's action, or a table's own, such as a Dalmatian reroll by
    the places of its dice)."""

    label: str
    action: Any


class GameTable:
    """One game at the table: its choices, the cursor over them, a message or the fixes the
    board needs, and its recogniser when the board is sensed."""

    def __init__(self, game: GameState[Any], recogniser: Recogniser | None = None) -> None:
        self.game = game
        self.recogniser = recogniser
        self.cursor = 0
        self.scroll = 0  # ticks the highlighted choice has been shown (a long one scrolls)
        self.message: str | None = None  # a refusal or a notice, until the next press
        self.told: str | None = None  # what the last throw did, until the next press or
        # throw; unlike a message, the press that takes it away does what it does
        self.fixes: tuple[str, ...] = ()  # what to put right on the board, if it disagrees
        self.suspects: tuple[str, ...] = ()  # sensors that may be at fault, under the fixes
        self._kept: tuple[Position, tuple[Choice, ...]] | None = None

    # -- the list ---------------------------------------------------------------------------

    def choices(self) -> tuple[Choice, ...]:
        """The legal actions as the list shows them, kept while the position stands: the
        frame finds them, and the press that picks one needs them again."""
        position = self._position()
        kept = self._kept
        if kept is not None and kept[0] == position:
            return kept[1]
        found = self._find_choices()
        self._kept = (position, found)
        return found

    def _position(self) -> Position:
        history = self.game.history
        return Position(len(history), history[-1] if history else None)

    def _find_choices(self) -> tuple[Choice, ...]:
        return tuple(Choice(str(action), action) for action in self.game.legal_actions())

    def highlighted(self) -> Choice | None:
        choices = self.choices()
        return choices[min(self.cursor, len(choices) - 1)] if choices else None

    def highlighted_line(self) -> str | None:
        """The highlighted choice's label while the list shows (no message, no fixes)."""
        choice = self.highlighted() if self.shown_message() is None and not self.fixes else None
        return choice.label if choice is not None else None

    def move(self, steps: int) -> None:
        """The cursor ``steps`` down the list (up when negative), round the ends."""
        choices = self.choices()
        if choices:
            self.cursor = (self.cursor + steps) % len(choices)
            self.scroll = 0

    def choose(self, choice: Choice, play: Play) -> None:
        play(choice.action)

    def missing(self) -> frozenset[tuple[int, int]]:
        """Squares where the game expects a piece the sensors do not see."""
        return self.recogniser.missing(self.game) if self.recogniser is not None else frozenset()

    def extra(self) -> frozenset[tuple[int, int]]:
        """Squares where the sensors see a piece the game does not have."""
        return self.recogniser.extra(self.game) if self.recogniser is not None else frozenset()

    def offer(self, label: str, why: str | None) -> None:
        """Highlight the choice ``label`` (a move the board cannot tell from none), saying
        ``why`` until the next press, which does what it does (SELECT plays it)."""
        labels = [choice.label for choice in self.choices()]
        if label in labels:
            self.cursor, self.scroll = labels.index(label), 0
            self.told = why

    def offer_at(self, label: str, why: str) -> bool:
        """Highlight the first choice at the cell or box ``label`` (its last word), saying
        ``why``, as :meth:`offer` does; whether there was one."""
        found = [choice.label for choice in self.choices()
                 if choice.label.rsplit(" ", 1)[-1] == label]
        if found:
            self.offer(found[0], why)
        return bool(found)

    def ignored_changed(self, label: str, occupied: bool) -> None:
        """A change at the cell ``label``, whose sensor is ignored: told, never silent
        (unless a message is shown), and a move a chip put there makes highlighted for
        SELECT."""
        if self.shown_message() is not None:
            return
        why = f"{label} is ignored (its sensor seemed to fail): its moves are made from the list"
        if not occupied or not self.offer_at(label, f"{why}; SELECT plays the one highlighted"):
            self.told = why

    def hint(self) -> str | None:
        """How to make the move due on the board, when the board alone does not say."""
        return self.recogniser.hint(self.game) if self.recogniser is not None else None

    def sensed(self, event: CellChanged) -> Sensed | None:
        """What a change on the board means, its fixes kept; None: the board is not read."""
        if self.recogniser is None:
            return None
        outcome = self.recogniser.changed(self.game, event)
        self.fixes = tuple(outcome.fixes)
        return outcome

    # -- dice -------------------------------------------------------------------------------

    def dice_to_throw(self) -> int:
        """How many dice the button throws now (0: leave it as it is)."""
        return self.game.dice_wanted

    def throw(self, dice: Faces, play: Play) -> tuple[Faces, Sequence[int]] | None:
        """Play a throw of ``dice``; the row they tumble into and their places in it (an
        empty row: the dice are the row), or None when refused."""
        return ((), ()) if play(Roll(tuple(dice))) else None

    def before_throw(self) -> Before:
        """What a throw's notice compares the game after it with."""
        game = self.game
        return Before(game.current_player, game.scores(), _deciding(game))

    def throw_notice(self, before: Before, dice: Faces) -> str | None:
        """What a throw did that the next screen would not show, said over it once the
        dice land: the last opening throw (who starts), or a throw that passed the turn by
        itself (with no move, in a game whose moves follow the throw)."""
        game, thrower = self.game, before.thrower
        now = game.current_player
        if thrower is None or now is None:
            return None  # the game is over: its screen says so
        threw = f"{game.name(thrower)} threw {'-'.join(map(str, dice))}"
        if before.deciding:
            return None if _deciding(game) else f"{threw}: {game.name(now)} starts"
        if now == thrower or not isinstance(game.history[-1], Roll) or game.THROW_SHOWN:
            return None
        return f"{threw}{': no move' if game.NO_MOVE_TOLD else ''}; " \
            f"{game.name(now)}'s turn"

    def hold(self, place: int) -> None:
        """A hold button, pressed to keep the die in ``place`` (0-4)."""
        raise UsageError("the hold buttons keep Dalmatian dice between rerolls")

    # -- after an action, and between events ------------------------------------------------

    def played(self, actions: Sequence[Any]) -> None:
        """``actions`` are on disk: the list starts again, and the board is looked at anew
        (a move made with the controls: what must follow on the board)."""
        self.message = self.told = None
        self.cursor = self.scroll = 0
        if self.recogniser is not None:
            self.fixes = tuple(self.recogniser.review(self.game).fixes)

    def pause(self, settings: Settings) -> None:
        """The table's pause after a frame: work the next event would otherwise wait for."""

    # -- the screen -------------------------------------------------------------------------

    def view(self, settings: Settings, rolling: Faces | None, page: int = 0,
             thrower: int | None = None) -> GameView | BoardFixView:
        """The game, or the fixes the board needs; ``page``: the message's page shown;
        ``thrower``: whose throw tumbles (the band names them until it lands, and what
        it did is said once it has)."""
        if self.fixes:
            return BoardFixView(self.game.TITLE, self.fixes + self.suspects,
                                self.shown_message(), page, rolling or self._last_throw())
        return GameView(self.game, tuple(choice.label for choice in self.choices()),
                        self.cursor, self.message if thrower is not None else self.shown_message(),
                        settings.hint,
                        rolling=rolling, scroll=self.scroll, page=page, thrower=thrower,
                        **self._dice_shown())

    def _last_throw(self) -> tuple[int, ...]:
        """The dice of the game's last action, when it was a throw."""
        history = self.game.history
        return history[-1].dice if history and isinstance(history[-1], Roll) else ()

    def shown_message(self) -> str | None:
        """The message over the game: a refusal or notice, else what the last throw did."""
        return self.message if self.message is not None else self.told

    def _dice_shown(self) -> dict[str, Any]:
        """What a game's view shows of the dice beyond the position (nothing here)."""
        return {}


@dataclass(frozen=True)
class Before:
    """The game as a throw found it: who threw, the scores, whether the opening was on."""

    thrower: int | None
    scores: tuple[int, ...]
    deciding: bool
    total: int | None = None  # Dalmatian's starting total


def _deciding(game: GameState[Any]) -> bool:
    """Whether the opening throws are still deciding who starts."""
    opening = getattr(game, "opening", None)
    return opening is not None and opening.winner is None


@dataclass(frozen=True, eq=False)
class Position:
    """Where a game stands, to keep what was found from it: its number of actions and the
    last, as the very object (the game replays from its actions, and nothing else can be
    that object while it is kept), and the places its dice lie in, for a table that
    places them."""

    count: int
    last: object
    places: tuple[int | None, ...] = ()

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Position) and self.count == other.count
                and self.last is other.last and self.places == other.places)

    __hash__ = None  # type: ignore[assignment]  # compared, never looked up
