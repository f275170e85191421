"""Luck and decisions in a game of Dalmatian, exactly, from its action list.

Each turn is measured against the advisor's exact values (:mod:`games.dalmatian_advice`):

- ``optimal``: the expected score of the turn played at best, before its first throw;
- ``decisions``: the expected points given away by the player's choices, summed over the
  turn's decisions (a decision costs the best hold's expected score less the chosen one's;
  never negative, zero for a best choice);
- ``chosen``: ``optimal - decisions``, what the player's choices were worth on average;
- ``scored``: the dice the final hand scores (the turn's score, before variation 2 keeps only
  the round's best);
- ``luck``: ``scored - chosen``, the dice's part, first throw included.

So ``scored = optimal - decisions + luck`` for every turn: a player who always holds the best
dice has zero decisions and a luck that averages zero over many turns. A turn that ends by
itself (five scoring dice, or no reroll left) has no decision there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.core import Phase, Setup
from games.dalmatian import Dalmatian, Reroll, Stop, Turn
from games.dalmatian_advice import choices, turn_value
from games.dalmatian_score import score


@dataclass(frozen=True)
class TurnLuck:
    """One finished turn (``round`` counts from 1; ``player`` is the seat)."""

    round: int
    player: int
    total: int
    optimal: float
    decisions: float
    scored: int

    @property
    def chosen(self) -> float:
        return self.optimal - self.decisions

    @property
    def luck(self) -> float:
        return self.scored - self.chosen


@dataclass(frozen=True)
class PlayerLuck:
    """A player's turns in one game, added up."""

    player: int
    name: str
    turns: tuple[TurnLuck, ...]

    @property
    def optimal(self) -> float:
        return sum(t.optimal for t in self.turns)

    @property
    def decisions(self) -> float:
        return sum(t.decisions for t in self.turns)

    @property
    def scored(self) -> int:
        return sum(t.scored for t in self.turns)

    @property
    def luck(self) -> float:
        return sum(t.luck for t in self.turns)

    def __str__(self) -> str:
        return line(self.name, self.luck, self.decisions)


def line(name: str, luck: float, decisions: float) -> str:
    """``Ann: +3.14 luck, -0.42 decisions`` (decisions as the points they cost): rounded
    once, to the hundredths a game night's messages carry, so the table and the hub's page
    say the same figure, and no figure shown is further than half a hundredth from the
    exact one. Nothing lost reads ``0.00``, never ``-0.00``."""
    return f"{name}: {points(luck)} luck, {points(-decisions)} decisions"


def points(value: float) -> str:
    """``+3.14``, ``-0.42``, or ``0.00``: hundredths of a point with their sign."""
    hundredths = round(value * 100)
    return f"{hundredths / 100:+.2f}" if hundredths else "0.00"


def turns(setup: Setup, actions: Iterable[str]) -> list[TurnLuck]:
    """Every finished turn of a Dalmatian game, in the order played.

    ``actions`` are the game's actions as the journal keeps them (``roll 3-4``,
    ``reroll 1-6``, ``stop``); an action the rules refuse raises the game's error."""
    game = Dalmatian(setup)
    several, budget = game.several_groups, game.budget
    found: list[TurnLuck] = []
    cost = 0.0
    for text in actions:
        before: Turn | None = game.last_turn
        action = game.parse(text)
        if isinstance(action, (Stop, Reroll)) and game.phase is Phase.MOVE:
            cost += _cost(game, action)
        round_number = game.round_number
        game.apply(action)
        turn = game.last_turn
        if turn is not None and turn is not before:
            found.append(TurnLuck(
                round=round_number, player=turn.player, total=turn.total,
                optimal=turn_value(turn.total, budget=budget, several_groups=several),
                decisions=cost, scored=score(turn.dice, turn.total, several)))
            cost = 0.0
    return found


def by_player(setup: Setup, found: Sequence[TurnLuck]) -> list[PlayerLuck]:
    """Each seat's turns, in seat order."""
    return [PlayerLuck(seat, name, tuple(t for t in found if t.player == seat))
            for seat, name in enumerate(setup.names)]


def _cost(game: Dalmatian, action: Stop | Reroll) -> float:
    """The expected points this choice gives away against the best one."""
    assert game.total is not None
    options = choices(game.dice, game.total, rerolls=game.rerolls_left,
                      budget=game.budget_left, several_groups=game.several_groups)
    kept = _kept(game.dice, action)
    picked = next((o for o in options if o.hold == kept), None)
    if picked is None:  # the rules refuse it; apply() names why
        return 0.0
    return max(0.0, options[0].expected - picked.expected)


def _kept(dice: tuple[int, ...], action: Stop | Reroll) -> tuple[int, ...]:
    if isinstance(action, Stop):
        return dice
    rest = list(dice)
    for die in action.dice:
        if die in rest:
            rest.remove(die)
    return tuple(rest)
