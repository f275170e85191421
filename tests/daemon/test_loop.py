"""The event loop under a fake clock and a scripted queue: no test here sleeps."""

from __future__ import annotations

import os
import queue
import signal
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from PIL import Image

from firmware_host.loop import Loop
from firmware_host.notify import Notifier
from firmware_host.signals import stop_on_signals
from hardware.display.protocol import new_frame
from hardware.events import (
    CellChanged,
    Control,
    ControlPressed,
    DiceRolled,
    Event,
    InputEdge,
    describe,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@dataclass
class ScriptedQueue:
    """Arrivals at given times; ``get(timeout)`` moves the clock instead of waiting.

    An arrival is an event, or a callable run at its time (a signal arriving, say).
    """

    clock: FakeClock
    arrivals: list[tuple[float, Event | Callable[[], None]]]
    timeouts: list[float | None] = field(default_factory=list)
    queued: list[Event | None] = field(default_factory=list)

    def put(self, item: Event | None) -> None:
        self.queued.append(item)

    def get(self, block: bool = True, timeout: float | None = None) -> Event | None:
        self.timeouts.append(timeout)
        while True:
            if self.queued:
                return self.queued.pop(0)
            if not self.arrivals:
                raise AssertionError("the loop waited on an empty script: it never stopped")
            at, what = self.arrivals[0]
            if timeout is not None and at > self.clock.now + timeout:
                self.clock.now += timeout
                raise queue.Empty
            self.arrivals.pop(0)
            self.clock.now = max(self.clock.now, at)
            if callable(what):
                what()
            else:
                return what


class RecordingNotifier(Notifier):
    def __init__(self, watchdog_usec: int | None = None) -> None:
        super().__init__("@test", watchdog_usec)
        self.sent: list[tuple[float, str]] = []
        self.clock: FakeClock | None = None

    def send(self, *fields: str) -> None:
        self.sent.append((self.clock.now if self.clock else 0.0, "\n".join(fields)))


@dataclass
class RecordingController:
    """Remembers events and when a frame was drawn (as the referee, only after a change:
    an event, or a tick whose ``on_tick`` says so by returning a time)."""

    log: list[str] = field(default_factory=list)
    ticks: list[float] = field(default_factory=list)
    on_handle: Callable[[Event], None] | None = None
    on_tick: Callable[[float], float | None] | None = None
    changed: bool = True

    def handle(self, event: Event) -> None:
        self.changed = True
        self.log.append(f"handle {describe(event)}")
        if self.on_handle is not None:
            self.on_handle(event)

    def tick(self, now: float) -> float | None:
        self.ticks.append(now)
        due = self.on_tick(now) if self.on_tick is not None else None
        self.changed = self.changed or due is not None
        return due

    def frame(self) -> Image.Image | None:
        if not self.changed:
            return None
        self.changed = False
        self.log.append("frame")
        return new_frame()


@dataclass
class RecordingDisplay:
    shown: int = 0

    def show(self, image: Image.Image) -> None:
        self.shown += 1


def make_loop(arrivals: list[tuple[float, Event | Callable[[], None]]],
              watchdog_usec: int | None = None, **kwargs: object
              ) -> tuple[Loop, RecordingController, RecordingNotifier, ScriptedQueue]:
    clock = FakeClock()
    events = ScriptedQueue(clock, arrivals)
    notifier = RecordingNotifier(watchdog_usec)
    notifier.clock = clock
    controller = RecordingController()
    loop = Loop(controller, RecordingDisplay(), notifier, events=events, clock=clock,
                **kwargs)  # type: ignore[arg-type]
    return loop, controller, notifier, events


def test_events_are_handled_in_order_each_followed_by_its_frame() -> None:
    loop, controller, notifier, _ = make_loop([(101.0, lambda: loop.stop())])
    loop.emit(ControlPressed(Control.SELECT))
    loop.emit(DiceRolled((3, 5), "button"))
    loop.events.put(None)  # a bare wake-up is no event
    loop.emit(CellChanged(2, 3, True))
    loop.run()
    assert controller.log == [
        "frame",
        "handle ControlPressed control=select", "frame",
        "handle DiceRolled dice=3-5 source=button", "frame",
        "handle CellChanged row=2 col=3 occupied=True alone=0", "frame",
    ]
    assert [text for _, text in notifier.sent] == ["READY=1", "STOPPING=1"]
    assert loop.handled == 3


def test_the_watchdog_is_pinged_at_half_its_timeout_while_idle() -> None:
    stop_at = 110.0
    loop, _, notifier, events = make_loop([(stop_at, lambda: loop.stop())],
                                          watchdog_usec=4_000_000)
    loop.run()
    pings = [at for at, text in notifier.sent if text == "WATCHDOG=1"]
    assert pings == [100.0, 102.0, 104.0, 106.0, 108.0]
    assert events.timeouts == [2.0] * 5
    assert notifier.sent[-1] == (110.0, "STOPPING=1")


def test_without_pollers_or_watchdog_the_loop_waits_without_a_timeout() -> None:
    loop, _, _, events = make_loop([(500.0, ControlPressed(Control.UP)),
                                    (900.0, lambda: loop.stop())])
    loop.run()
    assert events.timeouts == [None, None]


def test_pollers_run_when_they_ask_and_what_they_emit_is_handled() -> None:
    polls: list[float] = []

    def poll(now: float) -> float:
        polls.append(now)
        if len(polls) == 3:
            loop.emit(ControlPressed(Control.BACK))
        return now + 0.25

    loop, controller, _, events = make_loop([(101.25, lambda: loop.stop())], pollers=[poll])
    loop.run()
    assert polls == [100.0, 100.25, 100.5, 100.75, 101.0]
    assert controller.ticks == [100.0, 100.5]  # at the start and after the event
    assert "handle ControlPressed control=back" in controller.log
    assert controller.log.count("frame") == 2  # the start and the event: rounds changed nothing
    assert events.timeouts[:2] == [0.25, 0.25]


def test_an_idle_loop_waits_on_its_queue_without_a_timeout_and_edges_wake_the_pollers() -> None:
    polls: list[float] = []

    def poll(now: float) -> float | None:
        polls.append(now)
        return now + 0.02 if len(polls) == 2 else None  # one more read, then rest

    loop, controller, _, events = make_loop([(103.0, InputEdge()), (107.0, InputEdge()),
                                             (109.0, lambda: loop.stop())], pollers=[poll])
    loop.run()
    assert polls == [100.0, 103.0, 103.02, 107.0]
    assert events.timeouts == [None, pytest.approx(0.02), None, None]
    assert loop.handled == 0 and not any("InputEdge" in line for line in controller.log)


def test_the_controllers_timer_sets_the_wait() -> None:
    loop, controller, _, events = make_loop([(100.5, lambda: loop.stop())])
    due = iter([100.1, 100.3, None])
    controller.on_tick = lambda now: next(due)
    loop.run()
    assert controller.ticks == [100.0, 100.1, 100.3]
    assert events.timeouts[:3] == [pytest.approx(0.1), pytest.approx(0.2), None]


def test_a_stop_in_the_middle_of_an_event_finishes_that_event_only() -> None:
    loop, controller, notifier, _ = make_loop([])
    controller.on_handle = lambda event: loop.stop()
    loop.emit(ControlPressed(Control.UP))
    loop.emit(ControlPressed(Control.DOWN))
    loop.run()
    assert controller.log == ["frame", "handle ControlPressed control=up", "frame"]
    assert notifier.sent[-1][1] == "STOPPING=1"


def test_stopping_is_reported_even_when_the_controller_fails() -> None:
    loop, controller, notifier, _ = make_loop([])

    def broken(event: Event) -> None:
        raise RuntimeError("referee bug")

    controller.on_handle = broken
    loop.emit(ControlPressed(Control.UP))
    with pytest.raises(RuntimeError, match="referee bug"):
        loop.run()
    assert notifier.sent[-1][1] == "STOPPING=1"


def test_sigterm_stops_the_loop_after_the_current_event() -> None:
    controller = RecordingController()
    notifier = RecordingNotifier()
    loop = Loop(controller, RecordingDisplay(), notifier)
    controller.on_handle = lambda event: os.kill(os.getpid(), signal.SIGTERM)
    loop.emit(ControlPressed(Control.SELECT))
    loop.emit(ControlPressed(Control.BACK))
    before = signal.getsignal(signal.SIGTERM)
    with stop_on_signals(loop.stop):
        loop.run()
    assert signal.getsignal(signal.SIGTERM) is before
    assert controller.log == ["frame", "handle ControlPressed control=select", "frame"]
    assert [text for _, text in notifier.sent] == ["READY=1", "STOPPING=1"]
