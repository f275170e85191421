"""Every registered game, played at random to its end under random options.

What must hold for any game: whose turn it is is always known, dice are asked for only in
the ROLL phase, a MOVE phase always offers a choice, every action prints and parses back to
itself, the result exists exactly when the game is over and ranks every player once, and the
saved form (JSON), a replay of the action list and undo all give back the same state.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import games
from games.core import GameState, Phase

GAMES_PER_NAME = 12
MAX_ACTIONS = 5000


def random_options(cls: type[GameState[Any]], rng: random.Random) -> dict[str, Any]:
    options = {}
    for key, option in cls.OPTIONS.items():
        if option.choices is not None:
            options[key] = rng.choice(option.choices)
        elif isinstance(option.default, bool):
            options[key] = rng.choice((False, True))
    return options


def snapshot(state: GameState[Any]) -> dict[str, Any]:
    """What a player can observe of a state."""
    return {
        "phase": state.phase,
        "player": state.current_player,
        "dice": state.dice_wanted,
        "legal": sorted(str(a) for a in state.legal_actions()),
        "scores": state.scores(),
        "result": state.result(),
        "actions": [str(a) for a in state.history],
    }


def play_at_random(state: GameState[Any], rng: random.Random) -> None:
    """One step of random play, checking what the ROLL and MOVE phases promise."""
    assert state.current_player is not None
    assert 0 <= state.current_player < state.players
    assert state.result() is None, "a result before the game is over"
    if state.phase is Phase.ROLL:
        assert state.dice_wanted > 0
        assert state.legal_actions() == []
        state.roll(*(rng.randint(1, 6) for _ in range(state.dice_wanted)))
        return
    assert state.phase is Phase.MOVE and state.dice_wanted == 0
    legal = state.legal_actions()
    assert legal, f"{state.NAME}: MOVE phase with nothing to choose"
    action = rng.choice(legal)
    text = str(action)
    assert str(state.parse_action(text)) == text, f"{text!r} does not parse back to itself"
    state.apply(text)


@pytest.mark.parametrize("name", list(games.REGISTRY))
def test_random_games_end_and_replay(name: str) -> None:
    cls = games.game_class(name)
    lengths = []
    for seed in range(GAMES_PER_NAME):
        rng = random.Random(f"{name}-{seed}")
        players = rng.randint(cls.MIN_PLAYERS, cls.MAX_PLAYERS)
        state = cls.new(players, **random_options(cls, rng))
        undo_points = set(rng.sample(range(1, 400), 3))
        while not state.is_over:
            assert len(state.history) < MAX_ACTIONS, f"{name} seed {seed} does not end"
            before = snapshot(state) if len(state.history) in undo_points else None
            play_at_random(state, rng)
            state.check_invariants()
            if before is not None:
                state.undo()
                assert snapshot(state) == before, "undo did not restore the state"
                play_at_random(state, random.Random(seed))
        result = state.result()
        assert result is not None and state.current_player is None
        assert state.legal_actions() == []
        ranked = sorted(p for place in result.ranking for p in place)
        assert ranked == list(range(players)), "the ranking must name every player once"
        assert len(result.scores) == players
        saved = json.loads(json.dumps(state.to_json()))
        assert snapshot(games.from_json(saved)) == snapshot(state)
        assert snapshot(cls.replay(state.setup, state.history)) == snapshot(state)
        lengths.append(len(state.history))
    assert min(lengths) > 0


@pytest.mark.parametrize("name", list(games.REGISTRY))
def test_a_game_is_found_by_its_name_or_title_in_any_case(name: str) -> None:
    cls = games.game_class(name)
    for typed in (name.upper(), cls.TITLE, cls.TITLE.upper(), cls.TITLE.lower().replace(" ", "-"),
                  f" {cls.TITLE.lower().replace(' ', '_')} "):
        assert games.game_class(typed) is cls, typed
    with pytest.raises(games.UnknownGameError, match="no game 'chess'; games: centennial, "):
        games.game_class("chess")


def test_the_rule_sheets_other_names_find_their_game() -> None:
    assert games.game_class("Ohio") is games.game_class("Martinetti") is games.game_class(
        "centennial")


@pytest.mark.parametrize("name", list(games.REGISTRY))
def test_a_copy_plays_alone_and_a_snapshot_restores_its_position(name: str) -> None:
    """The game owns its copies: a copy played on leaves the game as it was, and a snapshot
    taken back in place (as undo and the journal do) gives the position it was taken at."""
    cls = games.game_class(name)
    rng = random.Random(f"copies-{name}")
    state = cls.new(cls.MIN_PLAYERS, **random_options(cls, rng))
    for _ in range(4):
        for _ in range(rng.randint(1, 30)):
            if not state.is_over:
                play_at_random(state, rng)
        seen, actions, kept = snapshot(state), list(state.history), state.snapshot()
        assert kept.history == [] and kept.setup is state.setup
        trial = state.copy()
        assert trial.history == state.history and trial.history is not state.history
        assert all(a is b for a, b in zip(trial.history, state.history, strict=True))
        for _ in range(20):
            if not trial.is_over:
                play_at_random(trial, rng)
        assert snapshot(state) == seen, "playing a copy changed the game"
        for _ in range(20):
            if not state.is_over:
                play_at_random(state, rng)
        same = state
        state.restore(kept, actions)
        assert state is same and snapshot(state) == seen
        state.check_invariants()
