"""The shared machinery of games.core, exercised through a tiny game of 'highest die'."""

from __future__ import annotations

import pytest

from games.core import GameState, Opening, Option, Phase, Result, Roll, Setup, rank_by
from games.errors import (
    BadDiceError,
    GameOverError,
    NotationError,
    OptionError,
    WrongPhaseError,
)


class HighDie(GameState[str]):
    """Each player rolls one die per turn and may 'pass' or 'bank' it; first to 10 wins."""

    NAME = "highdie"
    TITLE = "High Die"
    SUMMARY = "test game"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 3
    OPTIONS = {"target": Option(10, "points to win", (5, 10))}

    def _start(self) -> None:
        self.points = [0] * self.players
        self.turn = 0
        self.die: int | None = None

    @property
    def phase(self) -> Phase:
        if max(self.points) >= self.setup.options["target"]:
            return Phase.OVER
        return Phase.ROLL if self.die is None else Phase.MOVE

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.turn

    @property
    def dice_wanted(self) -> int:
        return 1 if self.phase is Phase.ROLL else 0

    def legal_actions(self) -> list[str]:
        return ["bank", "pass"] if self.phase is Phase.MOVE else []

    def parse_action(self, text: str) -> str:
        if text not in ("bank", "pass"):
            raise NotationError(f"{text!r} is not bank or pass")
        return text

    def _apply(self, action: str | Roll) -> None:
        if isinstance(action, Roll):
            self.die = action.dice[0]
            return
        if action == "bank":
            assert self.die is not None
            self.points[self.turn] += self.die
        self.die = None
        self.turn = (self.turn + 1) % self.players

    def scores(self) -> tuple[int, ...]:
        return tuple(self.points)

    def result(self) -> Result | None:
        return Result(self.scores(), rank_by(self.points)) if self.is_over else None


def test_options_are_validated_with_the_allowed_values_named() -> None:
    with pytest.raises(OptionError, match=r"'target' cannot be 7: allowed 5 \| 10"):
        HighDie.new(target=7)
    with pytest.raises(OptionError, match="no option 'speed'; options: target"):
        HighDie.new(speed=1)
    with pytest.raises(OptionError, match="2 to 3 players, not 4"):
        HighDie.new(4)
    with pytest.raises(OptionError, match="distinct"):
        HighDie.new(names=["Ann", "Ann"])
    assert HighDie.new(target="5").setup.options == {"target": 5}
    assert Option("none", "budget", ("none", "8")).validate("budget", 8) == "8"
    assert HighDie.new(names=["Ann", "Bob"]).name(1) == "Bob"


def test_dice_and_phase_are_checked_before_the_rules_see_them() -> None:
    state = HighDie.new()
    with pytest.raises(BadDiceError, match="1 die is due, got 2"):
        state.roll(1, 2)
    with pytest.raises(BadDiceError, match="1 to 6, got 7"):
        state.roll(7)
    with pytest.raises(WrongPhaseError, match="P1 must roll 1 die before moving"):
        state.apply("bank")
    state.apply("roll 6")
    with pytest.raises(WrongPhaseError, match="no dice are due"):
        state.roll(3)
    assert state.history == [Roll((6,))]


def test_undo_replay_and_json_agree() -> None:
    state = HighDie.new(target=5)
    for text in ["roll 4", "bank", "roll 2", "pass", "roll 3", "bank"]:
        state.apply(text)
    assert state.is_over and state.result() == Result((7, 0), ((0,), (1,)))
    with pytest.raises(GameOverError):
        state.roll(1)
    data = state.to_json()
    assert data["actions"][0] == "roll 4"
    again = HighDie.replay(Setup(**{k: v for k, v in data.items() if k != "actions"}),
                           data["actions"])
    assert again.points == state.points
    assert state.undo() == "bank"
    assert state.points == [4, 0] and state.phase is Phase.MOVE


def test_roll_notation_round_trips() -> None:
    assert str(Roll((1, 2, 3))) == "roll 1-2-3"
    assert Roll.parse("ROLL 1 2, 3") == Roll((1, 2, 3))
    assert Roll.parse("bank") is None
    with pytest.raises(NotationError):
        Roll.parse("roll")


def test_opening_rerolls_only_the_tied() -> None:
    opening = Opening(players=4, dice=1)
    for die in (5, 5, 3, 2):
        assert opening.record((die,)) is None
    assert opening.to_roll == [0, 1]
    opening.record((4,))
    assert opening.record((1,)) == 0
    assert min(d for roll in opening.latest.values() for d in roll) == 1


def test_restore_takes_a_snapshot_in_place_and_the_snapshot_stays_as_it_was() -> None:
    game = HighDie.new(target=10)
    game.roll(5)
    game.apply("bank")
    kept, actions = game.snapshot(), list(game.history)
    assert kept.history == [] and kept.points == [5, 0]
    game.roll(4)
    game.apply("bank")
    same = game
    game.restore(kept, actions)
    assert game is same and game.points == [5, 0] and game.history == actions
    game.roll(3)
    game.apply("bank")
    assert kept.points == [5, 0] and kept.history == []
    game.restore(kept, actions)
    assert game.points == [5, 0]
