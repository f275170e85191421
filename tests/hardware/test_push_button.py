"""The push button's eager-where-safe debounce, on gpiozero's mock pins and a manual clock.

The :class:`Rig` polls the button as the daemon's loop does: at once after an edge wakes it,
and at each time the button asks to be read again; so an action's time is its latency.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st
from pin_helpers import HeldDownPin

from hardware.controls.push_button import DEBOUNCE_S, DebouncedButton
from hardware.pins.clock import ManualClock
from hardware.pins.edges import earliest

PIN = 5
HOLD = 1.0


class Rig:
    """One button on ``PIN``, with a hold time or without, and what it did when.

    Its edge callback wakes the loop as :class:`~hardware.pins.edges.Waker` does: one read
    ``latency`` after the first edge of a burst, re-armed by any read.
    """

    def __init__(self, factory: MockFactory, *, hold_time: float | None = None,
                 pressed_at_start: bool = False, latency: float = 0.0) -> None:
        self.clock = ManualClock()
        self.pin = factory.pin(PIN, pin_class=HeldDownPin if pressed_at_start else None)
        self.acts: list[tuple[str, float]] = []
        self._latency = latency
        self._armed = True
        self._wakes: list[float] = []
        self.button = DebouncedButton(
            PIN, factory, self.clock, name="test button", on_press=self._act("press"),
            on_hold=None if hold_time is None else self._act("hold"), hold_time=hold_time,
            waker=self._wake)
        self.due = self._poll()  # the loop reads every input once as it starts

    def wait(self, until: float) -> None:
        """Let time run to ``until``, reading the button whenever it asked to be or an edge
        woke the loop."""
        while (read := earliest((self.due, *self._wakes))) is not None and read <= until:
            self.clock.now = max(self.clock.now, read)
            if self._wakes and self._wakes[0] == read:
                self._wakes.pop(0)
            self.due = self._poll()
        assert until >= self.clock.now
        self.clock.now = until

    def drive(self, at: float, *pressed: bool) -> None:
        """At ``at``, drive the pin through ``pressed`` (several levels: edges faster than the
        loop reads)."""
        self.wait(at)
        for level in pressed:
            self.pin.drive_low() if level else self.pin.drive_high()
        self.wait(at)

    def _poll(self) -> float | None:
        self._armed = True
        return self.button.poll(self.clock())

    def _wake(self) -> None:
        if self._armed:
            self._armed = False
            self._wakes.append(self.clock() + self._latency)

    def _act(self, what: str) -> Callable[[], None]:
        return lambda: self.acts.append((what, self.clock()))


def bounce(rig: Rig, start: float, gaps: list[float], pressed: bool) -> float:
    """Toggle from ``start`` after each of ``gaps`` (the first edge goes to ``pressed``); when
    the last edge came."""
    at = start
    level = pressed
    rig.drive(at, level)
    for gap in gaps:
        at += gap
        level = not level
        rig.drive(at, level)
    return at


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


def test_a_press_after_a_rest_acts_at_the_first_read(factory: MockFactory) -> None:
    rig = Rig(factory)
    rig.drive(1.0, True)
    assert rig.acts == [("press", 1.0)]
    assert rig.due == 1.02  # once more, to know the press is quiet; then nothing
    rig.wait(1.02)
    assert rig.due is None and rig.button.is_pressed


def test_a_plain_release_waits_for_the_debounce(factory: MockFactory) -> None:
    rig = Rig(factory)
    rig.drive(1.0, True)
    rig.drive(2.0, False)
    rig.wait(2.019)
    assert rig.button.is_pressed
    rig.wait(2.02)
    assert not rig.button.is_pressed and rig.due is None
    assert rig.acts == [("press", 1.0)]


def test_a_press_in_the_first_debounce_after_building_waits(factory: MockFactory) -> None:
    rig = Rig(factory)  # the build's read starts the quiet time: what came before is unknown
    rig.drive(0.01, True)
    rig.wait(0.029)
    assert rig.acts == []
    rig.wait(0.03)
    assert rig.acts == [("press", 0.03)]


def test_bounce_after_an_eager_press_gives_no_second_press(factory: MockFactory) -> None:
    rig = Rig(factory)
    bounce(rig, 1.0, [0.002, 0.002, 0.001, 0.004], pressed=True)
    bounce(rig, 1.5, [0.001, 0.003, 0.002, 0.002], pressed=False)
    rig.wait(3.0)
    assert rig.acts == [("press", 1.0)]


def test_bounce_longer_than_the_debounce_gives_one_press(factory: MockFactory) -> None:
    rig = Rig(factory)
    last = bounce(rig, 1.0, [0.003] * 14, pressed=True)  # 42 ms of chatter, ends pressed
    assert last == pytest.approx(1.042)
    bounce(rig, 1.5, [0.004] * 8, pressed=False)
    rig.wait(3.0)
    assert rig.acts == [("press", 1.0)]


def test_a_press_soon_after_a_release_is_no_second_press(factory: MockFactory) -> None:
    rig = Rig(factory)
    rig.drive(1.0, True)
    rig.drive(1.2, False)
    rig.drive(1.219, True)  # released 19 ms: bounce, so the release never settled
    rig.wait(2.0)
    assert rig.acts == [("press", 1.0)]
    rig.drive(2.0, False)
    rig.drive(2.021, True)  # released 21 ms: a release, then a press after a quiet spell
    assert rig.acts == [("press", 1.0), ("press", 2.021)]


def test_an_edge_since_the_last_read_counts_though_the_level_is_back(
        factory: MockFactory) -> None:
    rig = Rig(factory)
    rig.drive(1.0, True, False)  # down and up before the loop read it
    assert rig.acts == [] and rig.due == 1.02
    rig.drive(1.01, True)  # not quiet: the level changed 10 ms ago
    rig.wait(1.029)
    assert rig.acts == []
    rig.wait(1.03)
    assert rig.acts == [("press", 1.03)]


def test_a_click_acts_at_the_first_read_of_its_release(factory: MockFactory) -> None:
    rig = Rig(factory, hold_time=HOLD)
    rig.drive(1.0, True)
    rig.wait(1.019)
    assert not rig.button.is_pressed  # a press that may be held settles the slow way
    rig.wait(1.02)
    assert rig.button.is_pressed and rig.due == 2.0  # the hold time, from the press
    rig.drive(1.3, False)
    assert rig.acts == [("press", 1.3)]
    bounce(rig, 1.301, [0.002, 0.003, 0.001], pressed=True)  # closures after it are not quiet
    rig.wait(5.0)
    assert rig.acts == [("press", 1.3)] and rig.due is None


@pytest.mark.parametrize("glitch", [0.0005, 0.005, 0.0199])
def test_a_glitch_never_clicks_a_button_with_a_hold_time(factory: MockFactory,
                                                         glitch: float) -> None:
    rig = Rig(factory, hold_time=HOLD)
    rig.drive(1.0, True)
    rig.drive(1.0 + glitch, False)
    bounce(rig, 2.0, [0.015, 0.002, 0.019, 0.001, 0.012], pressed=True)  # 49 ms of glitches
    rig.wait(5.0)
    assert rig.acts == [] and rig.due is None


def test_a_hold_is_held_at_the_hold_time_and_its_release_does_nothing(
        factory: MockFactory) -> None:
    rig = Rig(factory, hold_time=HOLD)
    rig.drive(1.0, True)
    rig.wait(1.999)
    assert rig.acts == []
    rig.wait(2.0)
    assert rig.acts == [("hold", 2.0)]
    bounce(rig, 3.0, [0.002, 0.002], pressed=False)
    rig.wait(5.0)
    assert rig.acts == [("hold", 2.0)] and rig.due is None


def test_a_release_while_the_press_is_not_quiet_waits(factory: MockFactory) -> None:
    rig = Rig(factory, hold_time=HOLD)
    rig.drive(1.0, True)
    rig.drive(1.1, False, True)  # a drop-out, both edges before the read
    rig.drive(1.105, False)
    rig.wait(1.124)
    assert rig.acts == []
    rig.wait(1.125)
    assert rig.acts == [("press", 1.125)]


@pytest.mark.parametrize("hold_time", [None, HOLD])
def test_a_button_pressed_when_built_does_nothing_until_released(
        factory: MockFactory, hold_time: float | None) -> None:
    rig = Rig(factory, hold_time=hold_time, pressed_at_start=True)
    assert rig.button.is_pressed
    rig.wait(3.0)
    bounce(rig, 3.0, [0.002, 0.002], pressed=False)
    rig.wait(4.0)
    assert rig.acts == [] and rig.due is None
    rig.drive(4.0, True)
    rig.drive(4.5, False)
    assert rig.acts == [("press", 4.0 if hold_time is None else 4.5)]


@dataclass(frozen=True)
class Press:
    """A real press: rest released, bounce in, hold down, bounce out (bounces <= 30 ms)."""

    rest: float
    bounce_in: list[float]
    down: float
    bounce_out: list[float]
    glitch: list[float]  # before it, closed and open in turn, that is no press (closed < 20 ms)


GAPS = st.floats(0.0005, 0.005)
GLITCH = st.lists(st.tuples(st.floats(0.0005, 0.0195), st.floats(0.0005, 0.005)), max_size=3)
PRESSES = st.lists(st.builds(
    Press, rest=st.floats(0.025, 0.3),
    bounce_in=st.integers(0, 3).flatmap(lambda n: st.lists(GAPS, min_size=2 * n,
                                                           max_size=2 * n)),
    down=st.floats(0.025, 0.6),
    bounce_out=st.integers(0, 3).flatmap(lambda n: st.lists(GAPS, min_size=2 * n,
                                                            max_size=2 * n)),
    glitch=GLITCH.map(lambda pairs: [g for pair in pairs for g in pair][:-1])), min_size=1,
    max_size=6)


Window = tuple[float, float]


def play(rig: Rig, presses: list[Press], *, latency: float,
         glitches: bool) -> tuple[list[Window], list[Window]]:
    """Play ``presses`` from 1 s on; for each press and each release, when an action on it
    is due: at the loop's first read after its first edge, unless more edges came before
    that read (the level may be back: not quiet), then at the latest once the debounce has
    run from the burst's last read."""
    at = 1.0
    presses_due, releases_due = [], []

    def burst(start: float, gaps: list[float], pressed: bool) -> tuple[float, Window]:
        end = bounce(rig, start, gaps, pressed)
        first = start + latency
        return end, (first, first if not gaps or gaps[0] >= latency
                     else end + latency + DEBOUNCE_S)

    for press in presses:
        if glitches and press.glitch:
            at = bounce(rig, at + press.rest, press.glitch, pressed=True)
        at, due = burst(at + press.rest, press.bounce_in, True)
        presses_due.append(due)
        at, due = burst(at + press.down, press.bounce_out, False)
        releases_due.append(due)
    rig.wait(at + 2 * HOLD)
    return presses_due, releases_due


def acted_within(acts: list[tuple[str, float]], windows: list[Window]) -> bool:
    return len(acts) == len(windows) and all(
        what == "press" and first <= when <= last + 1e-9
        for (what, when), (first, last) in zip(acts, windows, strict=True))


LATENCY = st.sampled_from([0.0, 0.0004, 0.003])  # from an edge to the loop's read


@settings(max_examples=150, deadline=None)
@given(PRESSES, LATENCY)
def test_each_real_press_acts_once_and_at_once(presses: list[Press], latency: float) -> None:
    rig = Rig(MockFactory(), latency=latency)
    presses_due, _releases_due = play(rig, presses, latency=latency, glitches=False)
    assert acted_within(rig.acts, presses_due), (rig.acts, presses_due)
    assert rig.due is None


@settings(max_examples=150, deadline=None)
@given(PRESSES, LATENCY)
def test_each_real_click_acts_once_at_its_release_and_glitches_never(
        presses: list[Press], latency: float) -> None:
    rig = Rig(MockFactory(), hold_time=HOLD, latency=latency)
    _presses_due, releases_due = play(rig, presses, latency=latency, glitches=True)
    assert acted_within(rig.acts, releases_due), (rig.acts, releases_due)
    assert rig.due is None


def test_a_poll_made_for_another_input_reads_no_pin(monkeypatch: pytest.MonkeyPatch) -> None:
    rig = Rig(MockFactory(), hold_time=HOLD)
    rig.wait(1.0)  # quiet since the build: nothing to time
    reads = [0]
    state = type(rig.pin)._get_state

    def counted(pin: object) -> object:
        reads[0] += 1
        return state(pin)

    monkeypatch.setattr(type(rig.pin), "_get_state", counted)
    for _ in range(50):  # the loop woke for the knob, the board, the serial dice ...
        rig.clock.advance(0.01)
        assert rig.button.poll(rig.clock()) is None
    assert reads == [0]
    rig.drive(1.6, True)  # its own edge: read at once
    assert reads[0] >= 1
    rig.drive(1.7, False)
    assert rig.acts == [("press", 1.7)]



def late_clicks() -> ModuleType:
    """The bench, importing its siblings (``smoke``) by name as when run from its folder."""
    folder = str(Path(__file__).parents[2] / "bench")
    spec = importlib.util.spec_from_file_location("late_clicks_bench", f"{folder}/late_clicks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(folder)
    return module


LATE = late_clicks()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([None, HOLD]))
def test_every_click_counts_once_however_late_the_loop(seed: int,
                                                       hold_time: float | None) -> None:
    """Clicks of 30-300 ms read by a loop late by 0-200 ms at every read: each counts once."""
    rng = random.Random(seed)
    loop = LATE.LateLoop(hold_time, rng, late=0.2)
    loop.play(LATE.clicks(rng, 100))
    assert loop.acts == ["press"] * 100
