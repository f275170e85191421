"""The simulator's Pixels dice: five mock dice (:mod:`hardware.dice.mock`) scanned as a Pi
scans real ones, thrown with a key, so a newcomer sees the whole flow: the dice picked up,
rolling, landing, now and then one crooked and rolled again, the throw played."""

from __future__ import annotations

import random
from collections.abc import Callable

from firmware_host.config import DiceConfig
from hardware.dice.mock import MockDice

MOCK_DICE = ("0000A001", "0000A002", "0000A003", "0000A004", "0000A005")
SIM_DICE = DiceConfig("pixels", MOCK_DICE, 5)
CROOKED_CHANCE = 0.2  # of a throw having one die land crooked


class PixelsHand:
    """Throws the ``count`` dice a throw takes now, faces from ``rng``."""

    def __init__(self, dice: MockDice, count: Callable[[], int],
                 rng: random.Random | None = None) -> None:
        self.dice = dice
        self.count = count
        self.rng = rng or random.Random()

    def throw(self, now: float) -> str:
        """Plan a throw from ``now``; what the status line says of it."""
        if self.dice.throwing:
            return "the Pixels dice are still rolling"
        named = MOCK_DICE[:max(1, min(self.count(), len(MOCK_DICE)))]
        faces = {die: self.rng.randint(1, 6) for die in named}
        crooked = self.rng.choice(named) if self.rng.random() < CROOKED_CHANCE else None
        self.dice.throw(faces, now, crooked)
        said = f"Pixels dice thrown: {'-'.join(map(str, faces.values()))}"
        return said + ("" if crooked is None else
                       f"; die {named.index(crooked) + 1} lands crooked, rolled again")
