"""The self-test: a test pattern on the screen, then every input asked for in turn.

Each step names one action ("press ROLL", "put a magnet on B3") and passes when exactly the
event that action should cause arrives; anything else that arrives meanwhile is printed
beside the step, so a swapped wire shows as "saw C3 occupied". A step that sees nothing in
``timeout`` seconds fails with what to check, and the test goes on.

On mock pins each step also carries the hands that perform it (press, wait, release), so the
whole walk runs unattended against a :class:`~hardware.controls.mock_table.MockTable` and a manual
clock: that is how the tests and ``selftest --mock`` drive it.
"""

from __future__ import annotations

import operator
import queue
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from operator import methodcaller
from typing import TextIO

from PIL import Image, ImageDraw

from hardware.board.matrix import column_letter
from hardware.controls.inputs import InputSet
from hardware.controls.mock_table import MockTable
from hardware.dice.reader import PixelsReader, listen
from hardware.dice.throws import LOW_BATTERY
from hardware.display.protocol import HEIGHT, WIDTH, new_frame
from hardware.events import (
    CellChanged,
    CellFault,
    Control,
    ControlHeld,
    ControlPressed,
    ControlTurned,
    DeviceStatus,
    DiceRolled,
    Event,
    InputEdge,
)
from hardware.pins.driver_types import Ticks
from hardware.wiring.pinmap import CONTROL_KEYS, HOLDS, PinMap, button_use, physical_pin

POLL_S = 0.005
CLICK_S = 0.1  # how long the mock hands hold a button for a press
HOLD_S = 1.5  # ... and for a long press
CHECKER = 4  # side of a test-pattern square, pixels

Hand = tuple[float, Callable[[MockTable], object]]
"""What mock hands do, and when: seconds after the step began, and the action."""


@dataclass(frozen=True)
class Step:
    prompt: str
    accepts: Callable[[Event], bool]
    hint: str  # what to check when nothing arrives
    hands: tuple[Hand, ...]


def draw_test_pattern(title: str) -> Image.Image:
    """A frame that shows a dead pixel row, a shifted page or a wrong size at a glance:
    a one-pixel border, a checkerboard on the right half and two lines of text."""
    frame = new_frame()
    draw = ImageDraw.Draw(frame)
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
    for y in range(CHECKER, HEIGHT - CHECKER, CHECKER):
        for x in range(WIDTH // 2, WIDTH - CHECKER, CHECKER):
            if (x // CHECKER + y // CHECKER) % 2 == 0:
                draw.rectangle((x, y, x + CHECKER - 1, y + CHECKER - 1), fill=1)
    draw.text((4, 6), "self-test", fill=1)
    draw.text((4, 20), title[:10], fill=1)
    return frame


def _expect(event: Event) -> Callable[[Event], bool]:
    return partial(operator.eq, event)


def _is_button_roll(event: Event) -> bool:
    return isinstance(event, DiceRolled) and event.source == "button"


def _press(control: Control, seconds: float) -> tuple[Hand, ...]:
    return ((0.0, methodcaller("press", control)), (seconds, methodcaller("release", control)))


def _wire_hint(what: str, gpio: int) -> str:
    return f"check the {what} and its wires (GPIO{gpio} on pin {physical_pin(gpio)}, and ground)"


def steps_for(pin_map: PinMap) -> list[Step]:
    """Every input of ``pin_map``, in the order a builder checks them."""
    roll_hint = _wire_hint("dice button", pin_map.dice)
    steps = [Step("press ROLL (the dice button)", _is_button_roll, roll_hint,
                  _press(Control.ROLL, CLICK_S)),
             Step("hold ROLL down for a second", _expect(ControlHeld(Control.ROLL)), roll_hint,
                  _press(Control.ROLL, HOLD_S))]
    if pin_map.encoder is not None:
        a, b = pin_map.encoder
        hint = (f"check the encoder's A (GPIO{a}, pin {physical_pin(a)}), B (GPIO{b}, pin "
                f"{physical_pin(b)}) and C (ground); if the knob turns the wrong way, swap "
                "A and B")
        steps += [Step(f"turn the knob one click {way}", _expect(ControlTurned(detents)), hint,
                       ((0.0, methodcaller("turn", detents)),))
                  for way, detents in (("clockwise", 1), ("anticlockwise", -1))]
    for control in (*CONTROL_KEYS.values(), *HOLDS):
        if control in pin_map.buttons:
            knob = control is Control.SELECT and pin_map.encoder is not None
            prompt = "push the knob (SELECT)" if knob else f"press {control.name}"
            hint = _wire_hint("encoder's push switch" if knob else button_use(control),
                              pin_map.buttons[control])
            steps.append(Step(prompt, _expect(ControlPressed(control)), hint,
                              _press(control, CLICK_S)))
    matrix = pin_map.matrix
    for r, row_gpio in enumerate(matrix.rows):
        for c, col_gpio in enumerate(matrix.cols):
            label = matrix.label(r, c)
            hint = (f"check the reed switch at {label}, its diode (band towards the row), row "
                    f"{r + 1} (GPIO{row_gpio}) and column {column_letter(c)} (GPIO{col_gpio})")
            steps += [
                Step(f"put a magnet on {label}", _expect(CellChanged(r, c, True)), hint,
                     ((0.0, methodcaller("place", r, c)),)),
                Step(f"take the magnet off {label}", _expect(CellChanged(r, c, False)), hint,
                     ((0.0, methodcaller("lift", r, c)),)),
            ]
    return steps


def describe(event: Event, pin_map: PinMap) -> str:
    """One event in the words of the prompts, for the notes beside a step."""
    match event:
        case DiceRolled(dice, source):
            return f"dice {'-'.join(map(str, dice))} ({source})"
        case ControlPressed(control):
            return f"{control.name} pressed"
        case ControlHeld(control):
            return f"{control.name} held"
        case ControlTurned(steps):
            return f"knob turned {steps:+d}"
        case CellChanged(row, col, occupied):
            return f"{pin_map.matrix.label(row, col)} {'occupied' if occupied else 'empty'}"
        case CellFault(row, col, reason):
            return f"{pin_map.matrix.label(row, col)} {reason}"
        case DeviceStatus(device, _connected, message):
            return f"{device}: {message}"
        case InputEdge():
            return "a pin changed"


class SelfTest:
    """Runs steps against ``inputs``, whose events arrive on ``events``.

    ``clock`` and ``wait`` are the real clock and ``time.sleep`` on a Pi; on mock pins a
    :class:`~hardware.pins.clock.ManualClock` and its ``advance``, with ``table`` the
    hands that perform each step.
    """

    def __init__(self, inputs: InputSet, events: queue.SimpleQueue[Event], out: TextIO, *,
                 clock: Ticks, wait: Callable[[float], object], table: MockTable | None = None,
                 timeout: float = 30.0) -> None:
        self.inputs = inputs
        self.events = events
        self.out = out
        self.clock = clock
        self.wait = wait
        self.table = table
        self.timeout = timeout

    def run(self, steps: list[Step]) -> list[Step]:
        """Walk through ``steps``; the ones that failed."""
        failed = [step for number, step in enumerate(steps, start=1)
                  if not self._step(step, f"{number:>3}/{len(steps)}")]
        if failed:
            print(f"{len(failed)} of {len(steps)} checks failed: "
                  + "; ".join(step.prompt for step in failed), file=self.out)
        else:
            print(f"all {len(steps)} checks passed", file=self.out)
        return failed

    def _step(self, step: Step, number: str) -> bool:
        print(f"{number} {step.prompt} ... ", end="", file=self.out, flush=True)
        start = self.clock()
        hands = list(step.hands) if self.table is not None else []
        passed = False
        notes: list[str] = []
        while True:
            elapsed = self.clock() - start
            while hands and elapsed >= hands[0][0]:
                hands.pop(0)[1](self.table)  # type: ignore[arg-type]  # hands imply a table
            self.inputs.poll()
            while not self.events.empty():
                event = self.events.get()
                if isinstance(event, InputEdge):
                    continue  # only a wake-up: this loop reads the inputs anyway
                if not passed and step.accepts(event):
                    passed = True
                else:
                    notes.append(describe(event, self.inputs.pin_map))
            if (passed and not hands) or (not passed and elapsed >= self.timeout):
                break
            self.wait(POLL_S)
        if passed:
            print("ok" + (f" (also saw: {', '.join(notes)})" if notes else ""), file=self.out)
        else:
            seen = f"saw only: {', '.join(notes)}" if notes else "saw nothing"
            print(f"FAILED: {seen} in {self.timeout:g} s; {step.hint}", file=self.out)
        return passed


def check_pixels(reader: PixelsReader, named: Sequence[str], seconds: float, out: TextIO,
                 sleep: Callable[[float], object]) -> bool:
    """Listen up to ``seconds`` for the ``named`` Pixels dice and say how each is (heard, its
    battery); False when one was not heard."""
    print(f"Pixels dice: listening up to {seconds:g} s for the {len(named)} named (pick each "
          "up to wake it) ...", file=out, flush=True)
    heard = listen(reader, seconds, sleep, problem=lambda text: print(f"  {text}", file=out),
                   enough=lambda found: set(named) <= found.keys())
    for number, die in enumerate(named, start=1):
        advert = heard.get(die)
        if advert is None:
            print(f"  die {number} ({die}): NOT HEARD: is it awake and near? (a phone "
                  "connected to it keeps it silent)", file=out)
            continue
        low = advert.battery <= LOW_BATTERY and not advert.charging
        print(f"  die {number} ({die}): ok, battery {advert.battery}%"
              f"{', charging' if advert.charging else ''}{': charge it soon' if low else ''}",
              file=out)
    return set(named) <= heard.keys()
