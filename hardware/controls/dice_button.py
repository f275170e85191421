"""The big ROLL button: a click throws the dice, a long press is ``ControlHeld(ROLL)``.

The dice come from ``random.SystemRandom`` (the operating system's generator, which no
player can predict from earlier throws); tests hand in a seeded or scripted generator. What a
long press does is the daemon's choice. The roll animation is data: :func:`tumble_frames`
gives the faces to show, frame by frame, ending on the thrown dice; the daemon draws them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from hardware.controls.push_button import DEBOUNCE_S, DebouncedButton
from hardware.events import Control, ControlHeld, DiceRolled
from hardware.pins.driver_types import Emit, PinFactory, Ticks

HOLD_S = 1.0
TUMBLE_FRAMES = 8


def tumble_frames(final: tuple[int, ...], rng: random.Random,
                  frames: int = TUMBLE_FRAMES) -> tuple[tuple[int, ...], ...]:
    """The faces of a tumble that lands on ``final``: ``frames`` tuples, the last is ``final``.

    Dice land one after another, left to right, in the last frames; until it lands a
    die shows a new face every frame, so it visibly rolls.
    """
    if frames < 1:
        raise ValueError(f"a tumble needs at least one frame, not {frames}")
    lands_at = [max(0, frames - len(final) + i) for i in range(len(final))]
    shown = list(final)
    out: list[tuple[int, ...]] = []
    for frame in range(frames):
        for die, lands in enumerate(lands_at):
            if frame >= lands:
                shown[die] = final[die]
            else:
                shown[die] = rng.choice([face for face in range(1, 7) if face != shown[die]])
        out.append(tuple(shown))
    return tuple(out)


class DiceButton:
    """Rolls :attr:`count` dice when clicked and emits ``DiceRolled(source="button")``.

    The daemon sets :attr:`count` for the game and the moment (5 for Dalmatian, 3 for
    Centennial); ``hold_time=None`` rolls on the press and never holds.
    """

    def __init__(self, pin: int, factory: PinFactory, emit: Emit, *, ticks: Ticks = time.monotonic,
                 count: int = 2, rng: random.Random | None = None,
                 hold_time: float | None = HOLD_S, debounce: float = DEBOUNCE_S,
                 waker: Callable[[], None] | None = None) -> None:
        self.count = count
        self._emit = emit
        self._ticks = ticks
        self._rng = rng if rng is not None else random.SystemRandom()
        self._button = DebouncedButton(
            pin, factory, ticks, name="dice button", on_press=self._roll,
            on_hold=None if hold_time is None else self._hold, hold_time=hold_time,
            debounce=debounce, waker=waker)

    def roll(self) -> tuple[int, ...]:
        """Throw :attr:`count` dice (without emitting anything)."""
        return tuple(self._rng.randint(1, 6) for _ in range(self.count))

    def tumble(self, final: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """The animation frames for a throw that landed on ``final``."""
        return tumble_frames(final, self._rng)

    def poll(self) -> float | None:
        """Read the button; when it must be read again (None: at its next edge)."""
        return self._button.poll(self._ticks())

    def close(self) -> None:
        self._button.close()

    def _roll(self) -> None:
        self._emit(DiceRolled(self.roll(), source="button"))

    def _hold(self) -> None:
        self._emit(ControlHeld(Control.ROLL))
