"""A piezo buzzer: a chirp for an accepted action, a low double buzz for a refusal, a tune
at a game's end.

The buzzer is optional: a pin map without a ``[sound]`` section has none, and then nothing
here is built. A passive piezo plays notes through gpiozero's ``TonalBuzzer`` (PWM); an
active buzzer, which has its own oscillator, is switched on and off by gpiozero's ``Buzzer``
and plays every note at its one pitch. Timing is driven by the loop's polls
(:meth:`Buzzer.poll` with the clock's time), never by ``sleep``: the loop keeps reading the
buttons while a tune plays. A silent buzzer asks for no polls: :meth:`Buzzer.play` wakes the
loop, and each poll says when the note sounding ends, so an idle daemon never wakes for it.
A new sound replaces one still playing, so a quick run of presses never queues a backlog of
chirps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

Note = tuple[float | None, float]
"""(frequency in Hz, or None for a rest; seconds)."""

CHIRP: tuple[Note, ...] = ((1318.5, 0.04),)  # E6, short: "got it"
REFUSAL: tuple[Note, ...] = ((220.0, 0.12), (None, 0.08), (220.0, 0.12))  # A3 twice, low
TUNE: tuple[Note, ...] = ((523.25, 0.12), (659.25, 0.12), (783.99, 0.12), (1046.5, 0.36))
SOUNDS = {"accepted": CHIRP, "refused": REFUSAL, "game over": TUNE}
"""What the referee asks for, by name."""

LOWEST, HIGHEST = 110.0, 1760.0  # TonalBuzzer's range with mid_tone A4 and two octaves
KINDS = ("passive", "active")


class Output(Protocol):
    """The part of gpiozero's ``TonalBuzzer`` (``play(hz)``, ``stop()``) or ``Buzzer``
    (``on()``, ``off()``) used here, behind one face."""

    def sound(self, hz: float) -> None: ...

    def quiet(self) -> None: ...

    def close(self) -> None: ...


class _Tonal:
    def __init__(self, device: Any) -> None:
        self.device = device

    def sound(self, hz: float) -> None:
        from gpiozero.tones import Tone

        self.device.play(Tone.from_frequency(min(max(hz, LOWEST), HIGHEST)))

    def quiet(self) -> None:
        self.device.stop()

    def close(self) -> None:
        self.device.close()


class _OnOff:
    def __init__(self, device: Any) -> None:
        self.device = device

    def sound(self, hz: float) -> None:
        self.device.on()

    def quiet(self) -> None:
        self.device.off()

    def close(self) -> None:
        self.device.close()


def open_output(pin: int, kind: str, factory: Any) -> Output:
    """The buzzer on GPIO ``pin`` of ``factory``: ``passive`` (tones) or ``active``."""
    if kind == "passive":
        from gpiozero import TonalBuzzer
        from gpiozero.pins.mock import MockFactory, MockPWMPin
        from gpiozero.tones import Tone

        if not isinstance(factory, MockFactory) or issubclass(factory.pin_class, MockPWMPin):
            return _Tonal(TonalBuzzer(pin, mid_tone=Tone("A4"), octaves=2,
                                      pin_factory=factory))
        default, factory.pin_class = factory.pin_class, MockPWMPin  # a mock pin takes PWM
        try:  # only when made as a PWM pin; the others stay as the factory makes them
            return _Tonal(TonalBuzzer(pin, mid_tone=Tone("A4"), octaves=2,
                                      pin_factory=factory))
        finally:
            factory.pin_class = default
    from gpiozero import Buzzer as OnOffBuzzer

    return _OnOff(OnOffBuzzer(pin, pin_factory=factory))


class Buzzer:
    """Plays one sound at a time on ``output``, a note a poll; see the module docstring."""

    def __init__(self, output: Output, wake: Callable[[], None] = lambda: None) -> None:
        self.output = output
        self._wake = wake  # asks the loop to poll now (the daemon queues an InputEdge)
        self._notes: list[Note] = []
        self._until: float | None = None  # when the note sounding now ends

    @property
    def playing(self) -> bool:
        return bool(self._notes) or self._until is not None

    def play(self, notes: Sequence[Note]) -> None:
        """Start ``notes`` at the next poll, cutting short whatever is playing."""
        self._notes = list(notes)
        self._until = None
        self._wake()

    def poll(self, now: float) -> float | None:
        """Start the next note when the one sounding is over; silence after the last. Returns
        when the sounding note ends (None: silent, no poll needed until :meth:`play`)."""
        if self._until is not None and now < self._until:
            return self._until
        if not self._notes:
            if self._until is not None:
                self.output.quiet()
                self._until = None
            return None
        hz, seconds = self._notes.pop(0)
        if hz is None:
            self.output.quiet()
        else:
            self.output.sound(hz)
        self._until = now + seconds
        return self._until

    def close(self) -> None:
        self.output.quiet()
        self.output.close()
