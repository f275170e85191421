"""The buzzer on gpiozero's mock pins: what each sound does to the pin, poll by poll."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.pins.factory import mock_factory
from hardware.sound.buzzer import CHIRP, REFUSAL, TUNE, Buzzer, open_output

PIN = 18


@pytest.fixture
def factory() -> MockFactory:
    return mock_factory()  # the simulator's and --mock's pins


def sounding(factory: MockFactory) -> float | None:
    """The frequency the piezo pin sounds, or None when it is silent."""
    pin = factory.pin(PIN, pin_class=MockPWMPin)
    return pin.frequency if pin.state else None


def test_a_chirp_sounds_high_and_briefly_then_stops(factory: MockFactory) -> None:
    buzzer = Buzzer(open_output(PIN, "passive", factory))
    buzzer.play(CHIRP)
    buzzer.poll(10.0)
    assert sounding(factory) == pytest.approx(CHIRP[0][0], rel=0.01)
    buzzer.poll(10.0 + CHIRP[0][1] / 2)
    assert sounding(factory) is not None  # still the same note: no sleep, no early stop
    buzzer.poll(10.0 + CHIRP[0][1])
    assert sounding(factory) is None and not buzzer.playing
    buzzer.close()


def test_a_refusal_is_two_low_buzzes_with_a_rest_between(factory: MockFactory) -> None:
    buzzer = Buzzer(open_output(PIN, "passive", factory))
    buzzer.play(REFUSAL)
    heard, now = [], 0.0
    for _ in range(200):
        buzzer.poll(now)
        heard.append(sounding(factory))
        now += 0.005
    changes = [f for i, f in enumerate(heard) if i == 0 or heard[i - 1] != f]
    assert changes == [pytest.approx(220.0, rel=0.01), None, pytest.approx(220.0, rel=0.01),
                       None]
    assert all(f is None or f < 400 for f in heard)  # low
    buzzer.close()


def test_a_tune_rises_and_a_new_sound_cuts_it_short(factory: MockFactory) -> None:
    buzzer = Buzzer(open_output(PIN, "passive", factory))
    buzzer.play(TUNE)
    notes = []
    for step in range(4):
        buzzer.poll(sum(seconds for _, seconds in TUNE[:step]))
        notes.append(sounding(factory))
    assert notes == sorted(notes) and len(set(notes)) == 4
    buzzer.play(CHIRP)
    buzzer.poll(0.5)  # the last note had 0.36 s to go: the chirp starts at once
    assert sounding(factory) == pytest.approx(CHIRP[0][0], rel=0.01)
    buzzer.close()


def test_an_active_buzzer_is_switched_on_and_off(factory: MockFactory) -> None:
    buzzer = Buzzer(open_output(PIN, "active", factory))
    buzzer.play(REFUSAL)
    buzzer.poll(0.0)
    assert factory.pin(PIN).state is True
    buzzer.poll(0.12)
    assert factory.pin(PIN).state is False
    buzzer.close()


def test_a_sound_wakes_the_loop_and_each_poll_says_when_the_next_is_due(
        factory: MockFactory) -> None:
    woken: list[bool] = []
    buzzer = Buzzer(open_output(PIN, "passive", factory), wake=lambda: woken.append(True))
    assert buzzer.poll(0.0) is None and woken == []  # silent: asks for no poll at all
    buzzer.play(REFUSAL)
    assert woken == [True]
    due = buzzer.poll(1.0)
    assert due == pytest.approx(1.0 + REFUSAL[0][1])  # the first buzz's end
    assert buzzer.poll(1.05) == due  # the same note: the same end
    for _, seconds in REFUSAL[1:]:  # polled when asked, each next note says its end
        assert due is not None
        now, due = due, buzzer.poll(due)
        assert due == pytest.approx(now + seconds)
    assert due is not None
    assert buzzer.poll(due) is None and sounding(factory) is None  # over: no more polls
    buzzer.close()
