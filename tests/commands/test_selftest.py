"""The self-test walked by simulated hands on mock pins, and the input set it polls."""

from __future__ import annotations

import io
import queue
import threading
from collections import Counter
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image

from firmware_host.cli import main
from firmware_host.selftest import SelfTest, draw_test_pattern, steps_for
from hardware.controls.inputs import InputSet
from hardware.controls.mock_table import MockTable
from hardware.events import (
    CellChanged,
    Control,
    ControlPressed,
    ControlTurned,
    DiceRolled,
    Event,
    InputEdge,
)
from hardware.pins.clock import ManualClock
from hardware.pins.factory import NO_CHIP
from hardware.wiring.pinmap import load_pin_map


def rig(name: str, table_class: type[MockTable] = MockTable) \
        -> tuple[SelfTest, io.StringIO]:
    pin_map = load_pin_map(name)
    factory = MockFactory()
    table = table_class(pin_map, factory)
    events: queue.SimpleQueue[Event] = queue.SimpleQueue()
    clock = ManualClock()
    inputs = InputSet(pin_map, factory, events.put, ticks=clock)
    out = io.StringIO()
    return SelfTest(inputs, events, out, clock=clock, wait=clock.advance, table=table,
                    timeout=5.0), out


def test_the_steps_cover_every_input_of_the_default_map() -> None:
    prompts = [step.prompt for step in steps_for(load_pin_map("pi40"))]
    assert prompts[:11] == [
        "press ROLL (the dice button)", "hold ROLL down for a second",
        "turn the knob one click clockwise", "turn the knob one click anticlockwise",
        "push the knob (SELECT)", "press BACK", "press HOLD1", "press HOLD2", "press HOLD3",
        "press HOLD4", "press HOLD5"]
    assert prompts[11:15] == ["put a magnet on A1", "take the magnet off A1",
                              "put a magnet on B1", "take the magnet off B1"]
    assert "put a magnet on B3" in prompts
    assert len(prompts) == 11 + 2 * 36


def test_mock_hands_pass_every_step_of_every_map() -> None:
    for name in ("pi40", "pi40-buttons", "pi40-spi", "pi40-track"):
        test, out = rig(name)
        assert test.run(steps_for(test.inputs.pin_map)) == [], out.getvalue()
        assert out.getvalue().splitlines()[-1] == (
            f"all {len(steps_for(test.inputs.pin_map))} checks passed")


def test_a_dead_reed_switch_fails_its_steps_with_what_to_check() -> None:
    class DeadB3(MockTable):
        def place(self, row: int, col: int) -> None:
            if (row, col) != (2, 1):
                super().place(row, col)

    test, out = rig("pi40", DeadB3)
    failed = test.run(steps_for(test.inputs.pin_map))
    assert [step.prompt for step in failed] == ["put a magnet on B3", "take the magnet off B3"]
    lines = out.getvalue().splitlines()
    assert " 38/83 put a magnet on B3 ... FAILED: saw nothing in 5 s; check the reed switch at " \
           "B3, its diode (band towards the row), row 3 (GPIO9) and column B (GPIO21)" in lines
    assert lines[-1] == ("2 of 83 checks failed: put a magnet on B3; take the magnet off B3")


def test_a_swapped_column_shows_which_cell_answered_instead() -> None:
    class SwappedBC(MockTable):
        def place(self, row: int, col: int) -> None:
            super().place(row, {1: 2, 2: 1}.get(col, col))

        def lift(self, row: int, col: int) -> None:
            super().lift(row, {1: 2, 2: 1}.get(col, col))

    test, out = rig("pi40", SwappedBC)
    test.run(steps_for(test.inputs.pin_map)[:15])
    lines = out.getvalue().splitlines()
    assert lines[13].startswith(" 14/15 put a magnet on B1 ... FAILED: saw only: C1 occupied "
                                "in 5 s; check the reed switch at B1,")


def test_unexpected_events_are_noted_beside_a_passing_step() -> None:
    test, out = rig("pi40")
    test.table.press(Control.BACK)  # type: ignore[union-attr]  # someone leans on BACK
    test.run(steps_for(test.inputs.pin_map)[:1])
    assert out.getvalue().splitlines()[0] == (
        "  1/1 press ROLL (the dice button) ... ok (also saw: BACK pressed)")


def test_the_test_pattern_has_a_whole_border_and_a_checkerboard(tmp_path: Path) -> None:
    pattern = draw_test_pattern("pi40")
    assert (pattern.mode, pattern.size) == ("1", (128, 64))
    border = [(x, 0) for x in range(128)] + [(x, 63) for x in range(128)] + \
             [(0, y) for y in range(64)] + [(127, y) for y in range(64)]
    assert all(pattern.getpixel(xy) for xy in border)
    assert [bool(pattern.getpixel((64 + 4 * k, 8))) for k in range(4)] == [True, False] * 2
    assert [bool(pattern.getpixel((64 + 4 * k, 12))) for k in range(4)] == [False, True] * 2
    assert not pattern.getpixel((1, 62))
    assert main(["selftest", "--mock", "--map", "pi40-track", "--png",
                 str(tmp_path / "p.png")]) == 0
    with Image.open(tmp_path / "p.png") as saved:
        assert saved.convert("1").tobytes() == draw_test_pattern("pi40-track").tobytes()


def test_selftest_mock_runs_unattended(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selftest", "--mock", "--map", "pi40-buttons"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "self-test of pin map pi40-buttons: four buttons, hold buttons, 6x6 board, I2C OLED" \
        in out
    assert "  3/83 press UP ... ok" in out
    assert " 38/83 put a magnet on B3 ... ok" in out
    assert out[-1] == "all 83 checks passed"


def test_selftest_without_gpio_is_one_line(no_gpio: None,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selftest", "--map", "pi40"]) == 69
    assert capsys.readouterr().err == f"table-companion selftest: error: {NO_CHIP}\n"


def test_selftest_refuses_a_bad_map_or_timeout(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in ((["--map", "pi50"], "no pin map 'pi50'"),
                          (["--timeout", "0"], "--timeout must be more than 0 seconds, not 0")):
        with pytest.raises(SystemExit) as exited:
            main(["selftest", "--mock", *argv])
        assert exited.value.code == 2
        assert message in capsys.readouterr().err


def test_the_input_set_of_the_full_map_starts_no_thread_and_polls_all() -> None:
    pin_map = load_pin_map("pi40")
    factory = MockFactory()
    table = MockTable(pin_map, factory)
    events: list[Event] = []
    clock = ManualClock()
    before = threading.active_count()
    inputs = InputSet(pin_map, factory, events.append, ticks=clock, dice_hold_time=None)
    assert threading.active_count() == before
    inputs.poll()
    table.press(Control.ROLL)
    table.press(Control.HOLD3)
    table.place(5, 0)
    for _ in range(14):
        clock.advance(0.01)
        inputs.poll()
    table.turn(-2)
    rolls = [e for e in events if isinstance(e, DiceRolled)]
    assert [len(roll.dice) for roll in rolls] == [2]
    assert Counter(e for e in events if e not in rolls and e != InputEdge()) == Counter([
        ControlPressed(Control.HOLD3), CellChanged(5, 0, True), ControlTurned(-1),
        ControlTurned(-1)])
    inputs.close()


def test_mock_hands_refuse_what_the_map_lacks() -> None:
    table = MockTable(load_pin_map("pi40-buttons"), MockFactory())
    with pytest.raises(ValueError, match="pin map pi40-buttons has no rotary encoder"):
        table.turn(1)
    table = MockTable(load_pin_map("pi40-track"), MockFactory())
    with pytest.raises(ValueError, match="pin map pi40-track has no HOLD1 button"):
        table.press(Control.HOLD1)
