"""Center Point: seeded random full games per second and their length, as JSON.

Random play rolls a random die in the ROLL phase and picks a random legal action in the MOVE
phase, for each player count with and without ``six_enters``; the same seed gives the same
games. Also prints the shipped board's route figures (the text's 110 and 20 spaces).
"""

from __future__ import annotations

import json
import random
import statistics
import time

from random_play import play_out
from smoke import sized

from games.centerpoint import CenterPoint
from games.centerpoint_board import load_board

GAMES = sized(40, 1)
SEED = 2024


def play(players: int, six_enters: bool, rng: random.Random) -> int:
    """One random game to its end; returns the number of actions played."""
    return len(play_out(CenterPoint.new(players, six_enters=six_enters), rng).history)


def main() -> None:
    rng = random.Random(SEED)
    board = load_board()
    configs = []
    total_games, total_seconds = 0, 0.0
    for players in (2, 3, 4):
        for six_enters in (False, True):
            started = time.perf_counter()
            actions = [play(players, six_enters, rng) for _ in range(GAMES)]
            seconds = time.perf_counter() - started
            total_games += GAMES
            total_seconds += seconds
            configs.append({
                "players": players,
                "six_enters": six_enters,
                "games_per_second": round(GAMES / seconds, 1),
                "mean_actions": round(statistics.mean(actions), 1),
                "max_actions": max(actions),
            })
    print(json.dumps({
        "bench": "centerpoint",
        "seed": SEED,
        "games": total_games,
        "games_per_second": round(total_games / total_seconds, 1),
        "longest_route": max(len(board.route(c)) for c in range(len(board.colours))),
        "shortest_route": min(board.shortest_route(c) for c in range(len(board.colours))),
        "configs": configs,
    }))


if __name__ == "__main__":
    main()
