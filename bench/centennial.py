"""Centennial: seeded random full games per second per mode, and chain look-ups, as JSON."""

from __future__ import annotations

import json
import random
import time
from itertools import product

from random_play import play_out
from smoke import sized

from games.centennial import HOME, Centennial, targets_reached

GAMES = sized(200, 3)
SETUPS = {
    "auto": {},
    "auto_no_reuse": {"dice_reuse": False},
    "declare_first_caller": {"mode": "declare"},
    "declare_turn_order": {"mode": "declare", "claim_mode": "turn_order"},
}


def random_game(seed: int, options: dict[str, object]) -> int:
    """Play one game with random dice and random choices; returns its number of actions."""
    rng = random.Random(seed)
    state = play_out(Centennial.new(rng.randint(2, 8), **options), rng)
    return len(state.history)


def games_per_second(options: dict[str, object]) -> dict[str, float]:
    began = time.perf_counter()
    lengths = [random_game(seed, options) for seed in range(GAMES)]
    elapsed = time.perf_counter() - began
    return {
        "games_per_s": round(GAMES / elapsed, 1),
        "mean_actions": round(sum(lengths) / GAMES, 1),
        "max_actions": max(lengths),
    }


def chains_per_second() -> float:
    """targets_reached calls per second over every position, throw and reuse rule."""
    cases = [(p, d, r) for p in range(HOME + 1) for d in product(range(1, 7), repeat=3)
             for r in (True, False)]
    began = time.perf_counter()
    for progress, dice, reuse in cases:
        targets_reached(progress, dice, reuse)
    return round(len(cases) / (time.perf_counter() - began))


def main() -> None:
    print(json.dumps({
        "bench": "centennial",
        "games_per_setup": GAMES,
        **{name: games_per_second(options) for name, options in SETUPS.items()},
        "chains_per_s": chains_per_second(),
    }))


if __name__ == "__main__":
    main()
