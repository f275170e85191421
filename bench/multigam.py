"""Multi-Gam: the cost of listing the legal full-turn plays, and random full games per second.

Random play rolls two random dice in the ROLL phase and picks a random legal play in the MOVE
phase; the same seed gives the same games. Every position of those games where a turn began
(the checkers, the player to move, the dice) is timed twice:

- ``cold``: with the memo emptied first, so the plays are worked out from scratch;
- ``as_played``: in the order the games met them, with the memo kept from game to game, as a
  long-running referee would see it.

Each time covers what the referee pays at the start of a turn: packing the position from the
game's counts and listing the legal plays. Games per second include everything (parsing each
chosen play back from text, checking it, undo-free play).
"""

from __future__ import annotations

import json
import random
import statistics
import time

from smoke import sized

from games.core import Phase
from games.multigam import DICE_RULES, MultiGam, legal_plays

GAMES = sized(300, 2)
SEED = 2024

Position = tuple[list[list[int]], int, tuple[int, int]]  # counts, player to move, dice


def play(rng: random.Random, rule: str, seen: list[Position]) -> int:
    """One random game to its end, noting each turn's position; returns the actions played."""
    state = MultiGam.new(dice_rule=rule)
    while not state.is_over:
        if state.phase is Phase.ROLL and state.opening.winner is None:
            state.roll(rng.randint(1, 6))
            if state.opening.winner is not None:
                assert state.dice is not None
                seen.append(([list(row) for row in state._counts], state.turn, state.dice))
        elif state.phase is Phase.ROLL:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            seen.append(([list(row) for row in state._counts], state.turn, dice))
            state.roll(*dice)
        else:
            state.apply(str(rng.choice(state.legal_actions())))
    return len(state.history)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def figures(times_ns: list[int]) -> dict[str, float]:
    micro = [t / 1000 for t in times_ns]
    return {"median_us": round(statistics.median(micro), 2),
            "p99_us": round(percentile(micro, 0.99), 2),
            "max_us": round(max(micro), 1)}


def time_positions(rule: str, positions: list[Position], cold: bool) -> list[int]:
    state = MultiGam.new(dice_rule=rule)
    clock = time.perf_counter_ns
    times = []
    legal_plays.cache_clear()
    for counts, player, dice in positions:
        state._counts = counts
        if cold:
            legal_plays.cache_clear()
        started = clock()
        state._legal(player, dice)
        times.append(clock() - started)
    return times


def main() -> None:
    results = {}
    for rule in DICE_RULES:
        rng = random.Random(f"{SEED}-{rule}")
        legal_plays.cache_clear()
        seen: list[Position] = []
        started = time.perf_counter()
        actions = [play(rng, rule, seen) for _ in range(GAMES)]
        seconds = time.perf_counter() - started
        results[rule] = {
            "games_per_second": round(GAMES / seconds, 1),
            "mean_actions": round(statistics.mean(actions), 1),
            "max_actions": max(actions),
            "positions": len(seen),
            "cold": figures(time_positions(rule, seen, cold=True)),
            "as_played": figures(time_positions(rule, seen, cold=False)),
        }
    print(json.dumps({"bench": "multigam", "seed": SEED, "games": GAMES, "rules": results}))


if __name__ == "__main__":
    main()
