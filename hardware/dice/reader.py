"""The scan-only reader: Bluetooth advertisements in, the named dice's reports out.

No connection is made to any die (a die allows one connected central, and advertisements
carry all a throw needs). The scanner is handed in as a factory, so a laptop and the tests
run the same code with a fake one; on a Pi it is bleak's ``BleakScanner``, which the entry
point imports (bleak is the optional extra ``pixels``). bleak is asyncio: the scan runs in a
thread of its own with its own event loop, and what it hears waits in a bounded deque the
daemon's loop drains, so neither blocks the other. asyncio is imported by that thread only:
a table without Pixels dice starts without it (80 ms here).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Collection
from typing import TYPE_CHECKING, Any, Protocol

from hardware.backoff import Backoff
from hardware.dice.pixels import (
    COMPANY_ID,
    INFO_SERVICE,
    Advertisement,
    decode,
)
from hardware.dice.portable import which_die
from hardware.errors import HardwareError

if TYPE_CHECKING:
    import asyncio

log = logging.getLogger(__name__)

Detection = Callable[[Any, Any], None]
"""What the scanner calls for each advertisement: ``(device, advertisement_data)`` as bleak
does, the device with ``.address``, the data with ``.manufacturer_data`` (company id ->
bytes) and ``.service_data`` (UUID string -> bytes)."""

LISTEN_STEP = 0.1  # seconds between looks at what was heard, when only listening
HEARD_LIMIT = 512  # reports kept for the loop: 5 dice at 187.5 ms make 27 a second


class MissingBleakError(HardwareError, ImportError):
    """Pixels dice are configured, and bleak is not installed."""


class Scanner(Protocol):
    """The part of ``bleak.BleakScanner`` the reader uses."""

    def start(self) -> Awaitable[None]: ...

    def stop(self) -> Awaitable[None]: ...


ScannerFactory = Callable[[Detection], Scanner]


def identify(device: Any, data: Any, named: Collection[str] | None
             ) -> tuple[str, Advertisement] | None:
    """The named die this advertisement is from (by pixel id or by address) and what it
    says; None for anything else: another table's die, another device, bytes that are not a
    die's (logged, never raised: the radio is hostile). ``named`` None: any die, by its
    pixel id (its address when it sends none), as pairing looks for them."""
    manufacturer = getattr(data, "manufacturer_data", {}).get(COMPANY_ID)
    if manufacturer is None:
        return None
    address = str(getattr(device, "address", "")).upper()
    service = getattr(data, "service_data", {}).get(INFO_SERVICE)
    try:
        die = which_die(address, None if service is None else bytes(service), named)
        if die is None:
            return None
        return die, decode(bytes(manufacturer))
    except ValueError as err:  # BadAdvertisement, or the service data's refusal
        log.debug("advertisement from %s skipped: %s", address, err)
        return None


class PixelsReader:
    """Scans for the ``named`` dice with a scanner from ``make_scanner`` until closed.

    :meth:`take` gives what was heard since the last call; :meth:`problems` what went wrong
    with the scan itself (no adapter, BlueZ not running), once each, while it is retried."""

    def __init__(self, make_scanner: ScannerFactory, named: Collection[str] | None, *,
                 backoff: Backoff | None = None) -> None:
        self.named = None if named is None else frozenset(named)
        self._make = make_scanner
        self._heard: deque[tuple[str, Advertisement]] = deque(maxlen=HEARD_LIMIT)
        self._problems: deque[str] = deque(maxlen=8)
        self._backoff = backoff or Backoff(first=2.0, ceiling=30.0)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._closed = threading.Event()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="pixels-scan", daemon=True)
        self._thread.start()

    def take(self) -> list[tuple[str, Advertisement]]:
        taken = []
        while self._heard:
            taken.append(self._heard.popleft())
        return taken

    def problems(self) -> list[str]:
        found = []
        while self._problems:
            found.append(self._problems.popleft())
        return found

    def detected(self, device: Any, data: Any) -> None:
        """The scanner's callback (any thread): keep a named die's report."""
        found = identify(device, data, self.named)
        if found is not None:
            self._heard.append(found)

    def close(self, timeout: float = 5.0) -> None:
        self._closed.set()
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            loop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        import asyncio

        asyncio.run(self._scan())

    async def _scan(self) -> None:
        import asyncio
        import contextlib

        # set before _closed is read: close() reads them after setting it, so one of the
        # two sees the other and the scan never waits on a stop nobody will set
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        told = ""
        while not self._closed.is_set():
            try:
                scanner = self._make(self.detected)
                await scanner.start()
            except Exception as err:  # bleak's and D-Bus's errors have no common base
                problem = f"Bluetooth scan failed ({type(err).__name__}: {err}); " \
                          "is bluetoothd running and the adapter on? retrying"
                if problem != told:
                    self._problems.append(problem)
                    told = problem
                log.warning("%s", problem)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), self._backoff.next_delay())
                continue
            self._backoff.reset()
            if told:
                self._problems.append("Bluetooth scan running again")
                told = ""
            await self._stop.wait()
            try:
                await scanner.stop()
            except Exception as err:
                log.warning("Bluetooth scan did not stop cleanly: %s", err)


def bleak_scanners() -> ScannerFactory:
    """Scanners from bleak, imported only now: a table without Pixels dice never loads it.
    Raises MissingBleakError with how to install it."""
    try:
        from bleak import BleakScanner  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise MissingBleakError(
            "Pixels dice need bleak: pip install 'table-companion[pixels]' (or on Debian "
            "sudo apt install python3-bleak), or set [dice] source = \"button\"") from None

    def make(detected: Detection) -> Scanner:
        scanner: Scanner = BleakScanner(detection_callback=detected)
        return scanner

    return make


def listen(reader: PixelsReader, seconds: float, sleep: Callable[[float], object], *,
           heard: Callable[[str, Advertisement], None] = lambda die, advert: None,
           problem: Callable[[str], None] = lambda text: None,
           enough: Callable[[dict[str, Advertisement]], bool] = lambda found: False
           ) -> dict[str, Advertisement]:
    """Every die ``reader`` hears within ``seconds`` (or until ``enough``), in the order
    first heard, with what it last said; ``heard`` is told each die once, ``problem`` what
    went wrong with the scan. The reader is started here and closed before returning."""
    found: dict[str, Advertisement] = {}
    reader.start()
    try:
        for _ in range(max(1, round(seconds / LISTEN_STEP))):
            sleep(LISTEN_STEP)
            for die, advert in reader.take():
                if die not in found:
                    heard(die, advert)
                found[die] = advert
            for text in reader.problems():
                problem(text)
            if enough(found):
                break
    finally:
        reader.close()
    return found
