"""Dalmatian at the table: five dice in a row, a hold button under each, and rerolls listed
by the places of the dice they pick up (:mod:`firmware_host.dice_layout` keeps the row).

The ROLL button throws the dice not held back into the places they left; a reroll chosen
from the list picks its dice up and leaves the places for the next throw. Either way the
journal gets the same actions: the reroll and, with the button, the throw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.dice_layout import DiceLayout
from firmware_host.errors import UsageError
from firmware_host.referee.parts import Recogniser
from firmware_host.referee.settings import Settings
from firmware_host.referee.tables.base import Before, Choice, Faces, GameTable, Play, Position
from games.core import Phase, Roll
from games.dalmatian import Dalmatian, Stop
from games.dice_multisets import HAND_SIZE
from games.words import count


@dataclass(frozen=True)
class PickUp:
    """A reroll as the list shows it: pick up the dice in ``places`` (0-4) to throw them."""

    places: tuple[int, ...]


class DalmatianTable(GameTable):
    """The row of dice, the places the hold buttons keep, and rerolls by place."""

    game: Dalmatian

    def __init__(self, game: Dalmatian, recogniser: Recogniser | None = None) -> None:
        super().__init__(game, recogniser)
        self.held: set[int] = set()  # the places (0-4) the hold buttons keep
        self.layout = DiceLayout()  # the dice in the places the players see
        self.stop_asked = False  # SELECT on "stop" with rerolls left asked to be pressed again

    def laid_out(self) -> DiceLayout:
        """The row, agreeing with the game whatever moved it (a commit that failed and was
        taken back, an undo, a resume)."""
        self.layout.follow(self.game)
        return self.layout

    def _position(self) -> Position:
        base = super()._position()
        return Position(base.count, base.last, tuple(self.laid_out().places))

    def _find_choices(self) -> tuple[Choice, ...]:
        if self.game.phase is not Phase.MOVE:
            return super()._find_choices()
        return tuple(Choice(label, PickUp(places) if places else Stop())
                     for label, places in self.laid_out().choices(self.game))

    def choose(self, choice: Choice, play: Play) -> None:
        if isinstance(choice.action, PickUp):
            self._reroll_at(choice.action.places, None, play)
        elif isinstance(choice.action, Stop) and not self.stop_asked and self._rerolls_left():
            # "stop" is the list's first item: a SELECT pressed as the dice land, or to
            # read what they did, must not end a turn that could still reroll
            self.stop_asked = True
            self.told = f"{self._rerolls_left()} left: SELECT again to stop"
        else:
            play(choice.action)

    def _rerolls_left(self) -> str:
        """What the turn may still reroll ("2 rerolls", "3 dice"), '' when nothing."""
        game = self.game
        if len(self.choices()) < 2:
            return ""
        if game.rerolls_left is not None:
            return count(game.rerolls_left, "reroll")
        return count(game.budget_left or 0, "die")

    def move(self, steps: int) -> None:
        super().move(steps)
        self.stop_asked = False

    def dice_to_throw(self) -> int:
        if self.game.phase is Phase.MOVE:
            return max(1, HAND_SIZE - len(self.held))
        return self.game.dice_wanted

    def throw(self, dice: Faces, play: Play) -> tuple[Faces, Sequence[int]] | None:
        """In a turn, the dice not held are picked up and ``dice`` land in their places."""
        row = self.laid_out().shown()  # the dice as they lay before this throw
        if self.game.phase is Phase.MOVE:
            places = [p for p in range(len(self.layout.places)) if p not in self.held]
            played = self._reroll_at(places, dice, play)
        else:
            places = self.layout.empty()
            played = play(Roll(tuple(dice)))
        return (row, places) if played else None

    def before_throw(self) -> Before:
        return replace(super().before_throw(), total=self.game.total)

    def throw_notice(self, before: Before, dice: Faces) -> str | None:
        """A round's starting total is said as a total; a turn the throw ended by itself
        (all five dice score, or the last reroll) with the row as it landed and what it
        scored; other throws as any game's."""
        game, thrower, now = self.game, before.thrower, self.game.current_player
        if before.total is None and game.total is not None and thrower is not None \
                and now is not None and not before.deciding:
            return f"{game.name(thrower)} threw {'-'.join(map(str, dice))}: total " \
                f"{game.total}; {game.name(now)}'s turn"  # the round's starting total
        if thrower is None or before.deciding or before.total is None or now == thrower:
            return super().throw_notice(before, dice)
        if now is None:
            return None  # the game is over: its screen says so
        gained = game.scores()[thrower] - before.scores[thrower]
        hand = "-".join(map(str, self.layout.shown()))  # the row as it landed
        return f"{game.name(thrower)} threw {hand}: +{gained}; {game.name(now)}'s turn"

    def hold(self, place: int) -> None:
        if self.game.phase is not Phase.MOVE:
            super().hold(place)
        self.held ^= {place}
        self.stop_asked = False

    def _reroll_at(self, places: Sequence[int], dice: Faces | None, play: Play) -> bool:
        """Pick up the dice in ``places`` and, when ``dice`` came with the ROLL button,
        throw them into the same places. A reroll chosen from the list comes without dice:
        the places wait for the next throw."""
        if not places:
            raise UsageError("every die is held: choose 'stop' to score them")
        if dice is not None and len(dice) != len(places):
            raise UsageError(f"{count(len(places), 'die')} to reroll, got {len(dice)}")
        before = list(self.layout.places)
        picked = self.layout.pick_up(places)
        rolled = (Roll(tuple(dice)),) if dice is not None else ()
        if not play(f"reroll {'-'.join(map(str, picked))}", *rolled):  # both or neither
            self.layout.places = before
            return False
        return True

    def played(self, actions: Sequence[Any]) -> None:
        for action in actions:
            if isinstance(action, Roll):
                self.layout.put_down(action.dice)
        super().played(actions)
        self.held.clear()
        self.stop_asked = False

    def pause(self, settings: Settings) -> None:
        """Build the advisor's tables for a starting total just shown, so that the first
        hint of the round does not wait for them."""
        if settings.hint:
            self.game.prepare_advice()

    def _dice_shown(self) -> dict[str, Any]:
        return {"held": frozenset(self.held), "layout": self.laid_out().shown()}
