"""Menu controls on gpiozero's mock pins: buttons, holds, the rotary encoder, no threads."""

from __future__ import annotations

import threading

import pytest
from gpiozero import InputDevice
from gpiozero.pins.mock import MockFactory

from hardware.board.matrix import REST_PATROL_S
from hardware.controls.menu_controls import Controls
from hardware.errors import PinInUseError
from hardware.events import Control, ControlHeld, ControlPressed, ControlTurned, Event
from hardware.pins.clock import ManualClock

BUTTONS = {Control.UP: 5, Control.DOWN: 6, Control.SELECT: 13, Control.BACK: 19}
HOLDS = {Control.HOLD1: 4, Control.HOLD2: 16, Control.HOLD3: 18, Control.HOLD4: 26,
         Control.HOLD5: 27}
ENCODER = (22, 23)


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


def press(factory: MockFactory, controls: Controls, clock: ManualClock, pin: int,
          seconds: float = 0.1) -> None:
    """Press for ``seconds`` and release, polling every 10 ms."""
    factory.pin(pin).drive_low()
    for _ in range(round(seconds / 0.01)):
        controls.poll()
        clock.advance(0.01)
    factory.pin(pin).drive_high()
    for _ in range(5):
        controls.poll()
        clock.advance(0.01)


def detent(factory: MockFactory, first: int, second: int) -> None:
    """One full quadrature cycle: ``first`` leads ``second``."""
    a, b = factory.pin(first), factory.pin(second)
    a.drive_low()
    b.drive_low()
    a.drive_high()
    b.drive_high()


def test_each_button_is_its_control(factory: MockFactory) -> None:
    events: list[Event] = []
    clock = ManualClock()
    controls = Controls({**BUTTONS, **HOLDS}, factory, events.append, ticks=clock)
    for pin in (*BUTTONS.values(), *HOLDS.values()):
        press(factory, controls, clock, pin)
    assert events == [ControlPressed(c) for c in (
        Control.UP, Control.DOWN, Control.SELECT, Control.BACK, Control.HOLD1, Control.HOLD2,
        Control.HOLD3, Control.HOLD4, Control.HOLD5)]


def test_a_button_without_a_hold_time_acts_at_the_first_read_of_its_press(
        factory: MockFactory) -> None:
    events: list[Event] = []
    clock = ManualClock()
    controls = Controls({Control.UP: 5}, factory, events.append, ticks=clock)
    assert controls.poll() == 0.02  # once more, to know it has been quiet since it was built
    clock.advance(0.02)
    assert controls.poll() is None
    clock.advance(1.0)
    factory.pin(5).drive_low()
    controls.poll()
    assert events == [ControlPressed(Control.UP)]


def test_a_button_with_a_hold_time_clicks_or_holds(factory: MockFactory) -> None:
    events: list[Event] = []
    clock = ManualClock()
    controls = Controls(BUTTONS, factory, events.append, ticks=clock,
                        hold_times={Control.SELECT: 0.8})
    press(factory, controls, clock, 13, seconds=0.3)
    assert events == [ControlPressed(Control.SELECT)]
    press(factory, controls, clock, 13, seconds=2.0)
    assert events == [ControlPressed(Control.SELECT), ControlHeld(Control.SELECT)]
    press(factory, controls, clock, 19, seconds=2.0)  # BACK has no hold time: a press
    assert events[-1] == ControlPressed(Control.BACK)


def test_the_encoder_turns_one_step_per_detent(factory: MockFactory) -> None:
    events: list[Event] = []
    controls = Controls({Control.SELECT: 13}, factory, events.append, encoder=ENCODER,
                        ticks=ManualClock())
    detent(factory, *ENCODER)
    detent(factory, *ENCODER)
    detent(factory, *reversed(ENCODER))
    assert events == [ControlTurned(1), ControlTurned(1), ControlTurned(-1)]
    controls.close()


def test_encoder_contact_bounce_adds_no_steps(factory: MockFactory) -> None:
    events: list[Event] = []
    controls = Controls({}, factory, events.append, encoder=ENCODER, ticks=ManualClock())
    a, b = factory.pin(ENCODER[0]), factory.pin(ENCODER[1])
    a.drive_low()
    a.drive_high()  # a bounce back to rest
    a.drive_low()
    b.drive_low()
    b.drive_high()  # a bounce on B mid-way
    b.drive_low()
    a.drive_high()
    b.drive_high()
    assert events == [ControlTurned(1)]
    controls.close()


def test_the_full_set_of_inputs_starts_no_thread(factory: MockFactory) -> None:
    before = threading.active_count()
    controls = Controls({**BUTTONS, **HOLDS}, factory, lambda event: None,
                        encoder=ENCODER, ticks=ManualClock())
    assert threading.active_count() == before
    controls.close()


def test_a_pin_used_twice_is_named_and_nothing_is_left_claimed(factory: MockFactory) -> None:
    with pytest.raises(PinInUseError) as caught:
        Controls({Control.UP: 5, Control.DOWN: 5}, factory, lambda event: None)
    assert str(caught.value) == (
        "DOWN button on GPIO5: GPIO5 is already used by another part; give each part its "
        "own pin in the pin map (table-companion wiring shows them)")
    assert isinstance(caught.value, OSError)
    InputDevice(5, pin_factory=factory).close()  # the UP button was closed again


def test_roll_belongs_to_the_dice_button(factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="ROLL is the dice button's"):
        Controls({Control.ROLL: 17}, factory, lambda event: None)


def test_the_knob_and_the_buttons_bring_back_the_quick_patrol_of_a_still_board() -> None:
    from firmware_host.config import Config  # the pin map the daemon uses by default
    from hardware.controls.inputs import InputSet
    from hardware.controls.mock_table import MockTable

    factory, clock, events = MockFactory(), ManualClock(), list[Event]()
    pin_map = Config().pins()
    table = MockTable(pin_map, factory)
    table.place(2, 3)
    inputs = InputSet(pin_map, factory, events.append, ticks=clock, start_empty=False)

    def still(seconds: float) -> float:
        """Poll when asked for ``seconds``; the last interval asked for."""
        due, end = inputs.poll(), clock() + seconds
        while clock() < end:
            assert due is not None
            clock.advance(due - clock())
            due = inputs.poll()
        assert due is not None
        return round(due - clock(), 6)

    assert still(8) == REST_PATROL_S  # a still table
    table.turn(1)  # the knob reports by itself: no edge wakes the loop
    clock.advance(0.2)
    assert inputs.poll() == clock() + 0.02
    assert still(4) == 0.02
    assert still(2) == REST_PATROL_S  # still again after 5 s
    table.press(Control.BACK)
    assert inputs.poll() == clock() + 0.02  # a button's edge, at once
    inputs.close()


@pytest.mark.parametrize("control", [Control.ROLL, Control.SELECT])
@pytest.mark.parametrize("after", [0.0, 0.02, 0.03, 0.05, 0.1])
def test_a_throw_or_press_made_while_a_piece_settles_comes_after_the_piece(
        after: float, control: Control) -> None:
    """ROLL or SELECT clicked within 150 ms of a chip landing: the game hears the chip,
    then the dice (not dice that are not due yet, the throw refused and lost) or the press
    (SELECT on the replacement the put offers, not on the one highlighted before)."""
    from firmware_host.config import Config
    from hardware.controls.inputs import InputSet
    from hardware.controls.mock_table import MockTable
    from hardware.events import CellChanged, DiceRolled

    factory, clock, events = MockFactory(), ManualClock(), list[Event]()
    pin_map = Config().pins()
    table = MockTable(pin_map, factory)
    inputs = InputSet(pin_map, factory, events.append, ticks=clock, dice_hold_time=None)

    def run(seconds: float) -> None:
        end = clock() + seconds
        while clock() < end:
            clock.advance(0.001)
            inputs.poll()

    run(1.0)
    table.place(2, 3)
    run(after)
    table.press(control)
    run(0.05)
    table.release(control)
    run(0.5)
    kinds = [type(e) for e in events if isinstance(e, CellChanged | DiceRolled | ControlPressed)]
    assert kinds == [CellChanged, DiceRolled if control is Control.ROLL else ControlPressed]
