"""Pixels dice on a real Pi: how long a throw takes from the last die's ``rolled`` to the
screen, and the Wi-Fi round trip to the hub while Bluetooth scans (one radio does both on a
Zero 2 W). Not run in CI: it needs the dice, bleak and BlueZ; its pure parts are tested.

    sudo systemctl stop table-companion   # the screen and the scan are the daemon's otherwise
    .venv/bin/python scripts/dice_check.py [--config FILE] [--minutes M] [--hub HOST:PORT]

Throw the config's ``[dice]`` Pixels dice as in a game. Each throw prints a JSON line: its
faces and ``landed_to_screen_ms``, from the moment the report of the die that landed last
reached this program to the OLED having the frame with the faces (without a screen in the
config, to the frame being drawn). Every second the hub's port is connected to (a TCP
handshake: one round trip, by default to the config's ``[night] broker``), the time printed
as ``hub_ms`` (null when it failed). At the end (``--minutes``, or Ctrl-C) a summary line:
the median, 90th percentile and most of each.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from firmware_host.config import ConfigError, load
from firmware_host.pixels_device import POLL
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.dice import dice_width, draw_dice
from hardware.dice.pixels import RollState
from hardware.dice.reader import PixelsReader, ScannerFactory, bleak_scanners, identify
from hardware.dice.throws import ThrowAssembler
from hardware.display.protocol import HEIGHT, WIDTH
from hardware.errors import HardwareError
from hardware.events import DiceRolled

BROKER_PORTS = {"mqtt": 1883, "mqtts": 8883}
HUB_EVERY = 1.0  # seconds between two round trips to the hub


class Landings:
    """When each die's first ``rolled`` after its motion reached us, to time a throw from the
    last of them. Fed from the scan's thread; read from the main one."""

    def __init__(self) -> None:
        self._moving: set[str] = set()
        self._rolled: dict[str, float] = {}
        self._lock = threading.Lock()

    def heard(self, die: str, state: RollState, at: float) -> None:
        with self._lock:
            if state in (RollState.HANDLING, RollState.ROLLING):
                self._moving.add(die)
                self._rolled.pop(die, None)
            elif state is RollState.ROLLED and die in self._moving:
                self._moving.discard(die)
                self._rolled[die] = at

    def last(self) -> float | None:
        """The last die's landing of the throw just taken (forgotten once asked)."""
        with self._lock:
            last = max(self._rolled.values(), default=None)
            self._rolled.clear()
            return last


class StampedReader(PixelsReader):
    """The daemon's reader, noting when each named die's report arrives, in the scan's
    thread, before the loop takes it."""

    def __init__(self, make_scanner: ScannerFactory, named: Sequence[str],
                 landings: Landings) -> None:
        super().__init__(make_scanner, named)
        self.landings = landings

    def detected(self, device: Any, data: Any) -> None:
        found = identify(device, data, self.named)
        if found is not None:
            self.landings.heard(found[0], found[1].state, time.perf_counter())
        super().detected(device, data)


def hub_address(broker: str) -> tuple[str, int]:
    """``mqtts://hub.local:8883`` or ``hub.local:1883`` -> the host and port to connect to."""
    parts = urlsplit(broker if "://" in broker else "tcp://" + broker)
    if not parts.hostname:
        raise ValueError(f"no host in {broker!r}: give HOST:PORT")
    return parts.hostname, parts.port or BROKER_PORTS.get(parts.scheme, 1883)


def round_trip(address: tuple[str, int], timeout: float = 2.0,
               clock: Callable[[], float] = time.perf_counter) -> float | None:
    """Milliseconds to connect to ``address`` (one round trip), None when it cannot be."""
    start = clock()
    try:
        with socket.create_connection(address, timeout):
            return (clock() - start) * 1000
    except OSError:
        return None


def summary(values: Iterable[float | None]) -> dict[str, Any]:
    """Count, failures, median, 90th percentile and most of ``values`` (ms, None a failure)."""
    values = list(values)
    taken = sorted(value for value in values if value is not None)
    if not taken:
        return {"count": 0, "failed": len(values)}
    p90 = taken[min(len(taken) - 1, int(0.9 * len(taken)))]
    return {"count": len(taken), "failed": len(values) - len(taken),
            "median_ms": round(statistics.median(taken), 1), "p90_ms": round(p90, 1),
            "max_ms": round(taken[-1], 1)}


def throw_frame(faces: Sequence[int]) -> Canvas:
    """The faces of a throw, centred, as the table shows a throw."""
    canvas = Canvas()
    draw_dice(canvas, max(0, (WIDTH - dice_width(len(faces))) // 2), HEIGHT // 3, faces)
    return canvas


def ping_hub(address: tuple[str, int], stop: threading.Event,
             seen: list[float | None]) -> None:
    while not stop.wait(HUB_EVERY):
        took = round_trip(address)
        seen.append(took)
        print(json.dumps({"hub_ms": None if took is None else round(took, 1)}), flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", type=Path, metavar="FILE")
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--hub", metavar="HOST:PORT",
                        help="where the hub listens (default: the config's [night] broker)")
    args = parser.parse_args(argv)
    try:
        config = load(args.config)
        broker = args.hub or (config.night.broker if config.night else None)
        hub = hub_address(broker) if broker else None
    except (ConfigError, ValueError) as err:
        print(f"dice_check: {err}", file=sys.stderr)
        return 2
    if config.dice.source != "pixels":
        print("dice_check: the config's [dice] names no Pixels dice (source = \"pixels\")",
              file=sys.stderr)
        return 2
    screen = None
    try:
        scanners = bleak_scanners()
        if config.display is not None:
            from hardware.display.factory import open_oled
            from hardware.pins.factory import open_pin_factory
            screen = open_oled(config.display,
                               pin_factory=open_pin_factory(config.pin_library))
    except HardwareError as err:
        print(f"dice_check: {err}", file=sys.stderr)
        return 1
    named = config.dice.pixels
    landings = Landings()
    reader = StampedReader(scanners, named, landings)
    assembler = ThrowAssembler(named, config.dice.count, time.monotonic())
    throws: list[float | None] = []
    hub_times: list[float | None] = []
    stop = threading.Event()
    if hub is not None:
        threading.Thread(target=ping_hub, args=(hub, stop, hub_times), daemon=True).start()
    reader.start()
    end = time.monotonic() + args.minutes * 60
    try:
        while time.monotonic() < end:
            now = time.monotonic()
            told = [event for die, advert in reader.take()
                    for event in assembler.heard(die, advert, now)]
            for event in told + assembler.tick(now):
                if not isinstance(event, DiceRolled):
                    print(json.dumps({"said": str(event)}), flush=True)
                    continue
                frame = throw_frame(event.dice).to_image()
                if screen is not None:
                    screen.show(frame)
                landed, shown = landings.last(), time.perf_counter()
                took = None if landed is None else (shown - landed) * 1000
                throws.append(took)
                print(json.dumps({"faces": list(event.dice), "landed_to_screen_ms":
                                  None if took is None else round(took, 1)}), flush=True)
            due = assembler.due()
            time.sleep(POLL if due is None else max(0.0, min(POLL, due - now)))
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        reader.close()
        if screen is not None:
            screen.close()
    print(json.dumps({"throws": summary(throws), "hub": summary(hub_times),
                      "screen": "oled" if screen is not None else "none"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
