"""Random play to a game's end, as several benchmarks time it (not a benchmark itself).

Each roll's dice and each choice among the legal actions come from ``rng``, so a seed
gives the same game on every machine.
"""

from __future__ import annotations

import random
from typing import Any, TypeVar

from games.core import GameState, Phase

State = TypeVar("State", bound=GameState[Any])


def play_out(state: State, rng: random.Random) -> State:
    """Play ``state`` to its end with random dice and random legal actions; return it."""
    while not state.is_over:
        if state.phase is Phase.ROLL:
            state.roll(*(rng.randint(1, 6) for _ in range(state.dice_wanted)))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state
