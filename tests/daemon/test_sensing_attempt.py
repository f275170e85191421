"""A trial of an action leaves the game it was tried on exactly as it was."""

from __future__ import annotations

from firmware_host.sensing import attempt
from games.sequence import SequenceDice


def test_a_trial_plays_on_its_own_copy() -> None:
    game = SequenceDice.new(2)
    game.roll(6, 1)
    game.roll(2, 1)  # the opening throws: the higher total starts
    game.roll(3, 4)
    before = [str(action) for action in game.history]
    board = game.board
    move = str(game.legal_actions()[0])

    trial = attempt(game, move)

    assert not isinstance(trial, str)
    assert [str(action) for action in trial.history] == [*before, move]
    assert [str(action) for action in game.history] == before
    assert game.board == board and trial.board != board
    assert trial.history is not game.history


def test_a_refused_trial_is_the_rules_refusal() -> None:
    game = SequenceDice.new(2)
    refusal = attempt(game, "place B3")
    assert isinstance(refusal, str) and refusal
    assert game.history == []
