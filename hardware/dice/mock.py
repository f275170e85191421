"""Pixels dice without a radio: a scanner at bleak's interface that hears dice made of bytes.

As gpiozero ships its mock pins, this ships the mock dice: the tests and the simulator hand
:meth:`MockDice.scanner` to the reader where a Pi hands bleak's. Every scanner started hears
every die; a die keeps saying what it last said (as a die advertises every 187.5 ms) each
time :meth:`chatter` is called, unless it is ``silent``. :meth:`throw` plans a whole throw
(picked up, rolling, landed, a crooked die rolled again) that :meth:`poll` plays on time.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from hardware.dice.pixels import COMPANY_ID, INFO_SERVICE, RollState
from hardware.dice.reader import Detection

BUILT = 1_700_000_000  # the firmware build time the mock dice advertise
CHATTER_S = 0.5  # seconds between the mock dice's repeated reports in :meth:`poll`


@dataclass(frozen=True)
class Device:
    """bleak's ``BLEDevice``, as far as the reader reads it."""

    address: str


@dataclass(frozen=True)
class Data:
    """bleak's ``AdvertisementData``, as far as the reader reads it."""

    manufacturer_data: dict[int, bytes]
    service_data: dict[str, bytes] = field(default_factory=dict)


def address_of(die: str) -> str:
    """The Bluetooth address of ``die``: its name when it is one, else one made up for its
    pixel id."""
    return die if ":" in die else "C4:5A:00:00:" + die[-4:-2] + ":" + die[-2:]


class MockScanner:
    """bleak's ``BleakScanner`` as the reader uses it: started and stopped, calling back."""

    def __init__(self, dice: MockDice, detected: Detection) -> None:
        self.dice = dice
        self.detected = detected

    async def start(self) -> None:
        self.dice.listening.append(self.detected)
        self.dice.started.set()

    async def stop(self) -> None:
        self.dice.listening.remove(self.detected)


class MockDice:
    """Dice named by pixel id (eight hex digits) or address, all lying on a face at first."""

    def __init__(self, dice: Sequence[str] = (), battery: int = 90,
                 rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()
        self.listening: list[Detection] = []
        self.started = threading.Event()
        self.battery = battery
        self.last: dict[str, tuple[RollState, int]] = {die: (RollState.ON_FACE, 1) for die in dice}
        self.silent: set[str] = set()
        self._planned: list[tuple[float, str, RollState, int]] = []
        self._chattered = float("-inf")

    def scanner(self, detected: Detection) -> MockScanner:
        return MockScanner(self, detected)

    def advertise(self, die: str, state: RollState, face: int = 1) -> None:
        self.last[die] = (state, face)
        manufacturer = bytes([6, 0x21, state, face - 1, self.battery])
        # a die named by its address is heard without the scan response that has its id
        service = {} if ":" in die else {
            INFO_SERVICE: int(die, 16).to_bytes(4, "little") + BUILT.to_bytes(4, "little")}
        data = Data({COMPANY_ID: manufacturer}, service)
        for detected in list(self.listening):
            detected(Device(address_of(die)), data)

    def chatter(self) -> None:
        for die, (state, face) in list(self.last.items()):
            if die not in self.silent:
                self.advertise(die, state, face)

    def wait(self, seconds: float) -> None:
        """A listener's wait without the time passing: once a scan has started (waited for up
        to ``seconds``), the dice say what they last said."""
        self.started.wait(seconds)
        self.chatter()

    def throw(self, faces: dict[str, int], now: float, crooked: str | None = None) -> None:
        """Plan a throw from ``now``: the dice picked up, rolling, landing on ``faces`` one
        after another; ``crooked`` lands crooked first and is rolled again a second later."""
        at = now
        for die in faces:
            self._planned.append((at, die, RollState.HANDLING, 1))
        at += 0.4
        for die in faces:
            self._planned.append((at, die, RollState.ROLLING, self.rng.randint(1, 6)))
        at += 0.8
        for die, face in faces.items():
            if die == crooked:
                self._planned += [(at, die, RollState.CROOKED, face),
                                  (at + 1.0, die, RollState.ROLLING, face)]
                at += 1.5
            self._planned.append((at, die, RollState.ROLLED, face))
            at += 0.1
        self._planned.sort(key=lambda planned: planned[0])

    def poll(self, now: float) -> None:
        """Play what is planned up to ``now``; the dice repeat themselves every half second."""
        while self._planned and self._planned[0][0] <= now:
            _, die, state, face = self._planned.pop(0)
            self.advertise(die, state, face)
        if now - self._chattered >= CHATTER_S:
            self._chattered = now
            self.chatter()

    @property
    def throwing(self) -> bool:
        return bool(self._planned)
