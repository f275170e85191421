"""What every GPIO driver is handed: a pin factory, an ``emit`` function and a clock.

Drivers never open hardware, pick a factory or read the wall clock themselves, so the same
code runs on a Pi, on gpiozero's mock pins, and in tests that move time by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hardware.events import Event

PinFactory = Any
"""A gpiozero pin factory (``LGPIOFactory`` on a Pi, ``MockFactory`` elsewhere); untyped."""

Emit = Callable[[Event], None]
"""Where a driver puts its events: usually the daemon queue's ``put``, so it must be
thread-safe (the rotary encoder calls it from the GPIO library's callback thread)."""

Ticks = Callable[[], float]
"""A monotonic clock in seconds, ``time.monotonic`` outside tests."""
