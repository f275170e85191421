"""The ROLL button on gpiozero's mock pins: debounce, click, long press, animation frames."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st
from pin_helpers import HeldDownPin

from hardware.controls.dice_button import DiceButton, tumble_frames
from hardware.events import Control, ControlHeld, DiceRolled, Event
from hardware.pins.clock import ManualClock

PIN = 17


class ScriptedDice(random.Random):
    """Deals the given faces in order, for rolls and tumbles alike."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = iter(faces)

    def randint(self, a: int, b: int) -> int:
        return next(self.faces)

    def choice(self, seq):  # type: ignore[no-untyped-def, override]
        face = next(self.faces)
        assert face in seq
        return face


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


def make(factory: MockFactory, faces: Iterable[int] = (3, 5), **kwargs: object) \
        -> tuple[DiceButton, list[Event], ManualClock]:
    events: list[Event] = []
    clock = ManualClock()
    button = DiceButton(PIN, factory, events.append, ticks=clock, rng=ScriptedDice(faces),
                        **kwargs)  # type: ignore[arg-type]
    return button, events, clock


def step(button: DiceButton, clock: ManualClock, seconds: float) -> None:
    clock.advance(seconds)
    button.poll()


def test_a_click_rolls_at_its_release_once_the_press_has_settled(factory: MockFactory) -> None:
    button, events, clock = make(factory)
    pin = factory.pin(PIN)
    pin.drive_low()
    button.poll()
    step(button, clock, 0.019)
    pin.drive_high()  # pressed 19 ms: never settled, so no click
    step(button, clock, 0.2)
    pin.drive_low()
    step(button, clock, 0.02)
    step(button, clock, 0.2)
    assert events == []  # a hold is possible, so the click is decided on release
    pin.drive_high()
    button.poll()  # the press had been quiet for the debounce: the release acts at once
    assert events == [DiceRolled((3, 5), source="button")]
    step(button, clock, 0.5)
    assert events == [DiceRolled((3, 5), source="button")]


def test_bounces_shorter_than_the_debounce_make_one_roll(factory: MockFactory) -> None:
    button, events, clock = make(factory, faces=(6, 6, 1, 1))
    pin = factory.pin(PIN)
    for level in (0, 1, 0, 1, 0):  # contact bounce while pressing, polled every 5 ms
        pin.drive_low() if level == 0 else pin.drive_high()
        step(button, clock, 0.005)
    step(button, clock, 0.1)
    for level in (1, 0, 1):
        pin.drive_low() if level == 0 else pin.drive_high()
        step(button, clock, 0.005)
    step(button, clock, 0.05)
    assert events == [DiceRolled((6, 6), source="button")]


def test_a_long_press_is_held_once_and_rolls_nothing(factory: MockFactory) -> None:
    button, events, clock = make(factory)
    pin = factory.pin(PIN)
    pin.drive_low()
    button.poll()
    step(button, clock, 0.999)
    assert events == []
    step(button, clock, 0.002)
    assert events == [ControlHeld(Control.ROLL)]  # at the hold time, still pressed
    step(button, clock, 2.0)
    pin.drive_high()
    step(button, clock, 0.1)
    step(button, clock, 0.1)
    assert events == [ControlHeld(Control.ROLL)]


def test_without_a_hold_time_the_press_rolls_at_once(factory: MockFactory) -> None:
    button, events, clock = make(factory, faces=(2, 4, 6), count=3, hold_time=None)
    pin = factory.pin(PIN)
    pin.drive_low()
    button.poll()
    step(button, clock, 0.02)
    assert events == [DiceRolled((2, 4, 6), source="button")]
    step(button, clock, 5.0)
    pin.drive_high()
    step(button, clock, 0.1)
    step(button, clock, 0.1)
    assert events == [DiceRolled((2, 4, 6), source="button")]


def test_a_button_pressed_at_start_acts_only_after_release(factory: MockFactory) -> None:
    factory.pin(PIN, pin_class=HeldDownPin)  # a finger on it, or a stuck switch
    button, events, clock = make(factory, faces=(1, 2))
    step(button, clock, 3.0)
    factory.pin(PIN).drive_high()
    step(button, clock, 0.1)
    step(button, clock, 0.1)
    assert events == []
    factory.pin(PIN).drive_low()
    step(button, clock, 0.1)
    step(button, clock, 0.1)
    factory.pin(PIN).drive_high()
    step(button, clock, 0.1)
    step(button, clock, 0.1)
    assert events == [DiceRolled((1, 2), source="button")]


def test_the_daemon_sets_how_many_dice_a_press_rolls(factory: MockFactory) -> None:
    button, _events, _clock = make(factory, faces=(1, 2, 3, 4, 5))
    button.count = 5
    assert button.roll() == (1, 2, 3, 4, 5)


def test_default_dice_come_from_the_system_generator(factory: MockFactory) -> None:
    button = DiceButton(PIN, factory, lambda event: None, count=200)
    faces = button.roll()
    assert len(faces) == 200
    assert set(faces) <= {1, 2, 3, 4, 5, 6}
    assert len(set(faces)) == 6


def test_tumble_frames_settle_left_to_right_on_the_throw() -> None:
    # 2 dice, 4 frames: die 0 tumbles in frames 0-1, die 1 in frames 0-2.
    rng = ScriptedDice([4, 1, 6, 2, 4])
    assert tumble_frames((3, 5), rng, frames=4) == ((4, 1), (6, 2), (3, 4), (3, 5))


@settings(max_examples=200)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=6).map(tuple),
       st.integers(1, 12), st.integers(0, 2**32))
def test_tumble_frames_always_land_on_the_throw(final: tuple[int, ...], frames: int,
                                                seed: int) -> None:
    shown = tumble_frames(final, random.Random(seed), frames)
    assert len(shown) == frames
    assert shown[-1] == final
    for die, face in enumerate(final):
        settle = max(0, frames - len(final) + die)
        column = [frame[die] for frame in shown]
        assert all(1 <= f <= 6 for f in column)
        assert column[settle:] == [face] * (frames - settle)
        tumbling = column[:settle]
        assert all(a != b for a, b in itertools.pairwise(tumbling))


def test_a_tumble_needs_a_frame() -> None:
    with pytest.raises(ValueError, match="at least one frame, not 0"):
        tumble_frames((1,), random.Random(0), 0)
