"""Sequence Dice: seeded random full games per second and their length, as JSON.

Random play rolls random dice in the ROLL phase and picks a random legal action in the MOVE
phase, for each player count and sequence length; the same seed gives the same games.
"""

from __future__ import annotations

import json
import random
import statistics
import time

from random_play import play_out
from smoke import sized

from games.sequence import SequenceDice

GAMES = sized(60, 1)
SEED = 2024


def play(players: int, length: int, rng: random.Random) -> int:
    """One random game to its end; returns the number of actions played."""
    return len(play_out(SequenceDice.new(players, sequence_length=length), rng).history)


def main() -> None:
    rng = random.Random(SEED)
    configs = []
    total_games, total_seconds = 0, 0.0
    for players in (2, 3, 4):
        for length in (5, 6):
            started = time.perf_counter()
            actions = [play(players, length, rng) for _ in range(GAMES)]
            seconds = time.perf_counter() - started
            total_games += GAMES
            total_seconds += seconds
            configs.append({
                "players": players,
                "sequence_length": length,
                "games_per_second": round(GAMES / seconds, 1),
                "mean_actions": round(statistics.mean(actions), 1),
                "max_actions": max(actions),
            })
    print(json.dumps({
        "bench": "sequence",
        "seed": SEED,
        "games": total_games,
        "games_per_second": round(total_games / total_seconds, 1),
        "configs": configs,
    }))


if __name__ == "__main__":
    main()
