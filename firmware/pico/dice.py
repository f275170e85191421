"""table-companion dice bridge: a Raspberry Pi Pico W running MicroPython with ``aioble``.

Scans the table's Pixels dice over Bluetooth and sends each throw to the Pi over USB serial as
a ``DICE`` line of the TC1 protocol (``hardware/serial/protocol.md``), the line a serial
roller sends: a Pi Zero 2 W, whose one radio does both Bluetooth and Wi-Fi, keeps its radio
for Wi-Fi, and the Pi reads the dice with its serial bridge as they are.

On the Pico this file is ``main.py`` beside ``serial_framing.py`` and ``dice_portable.py``
(copies of ``hardware/serial/framing.py`` and ``hardware/dice/portable.py``: the framing, the
decoder and the throw assembler the Pi runs); see README.md. Everything but :func:`main`
runs on CPython as well, so it is tested on the host with the same advertisement bytes.
"""

import sys
import time

import dice_portable as pixels
import serial_framing as tc

NAME = "pico-dice"
VERSION = "1.0"
DICE = ()
"""This table's dice, by pixel id (``"1A2B3C4D"``, as ``table-companion dice pair`` writes
them) or by address (``"AA:BB:CC:DD:EE:FF"``), in the order their faces are sent."""
COUNT = 0
"""Dice a throw takes; 0: the dice that moved (the Pi checks the count, and a game that holds
dice rerolls some of them)."""
TICK_MS = 50  # how often time passing is looked at: a die gone quiet, dice that never landed
SCAN_INTERVAL_US = 30000
SCAN_WINDOW_US = 30000  # listen all the time: the Pico W's radio has nothing else to do


class Bridge:
    """The dice end of the serial line: advertisements and the host's lines in, lines out.

    ``write`` takes the bytes of one line. Only throws travel: TC1 has no line for a word
    about a die (crooked, gone quiet, battery low), so those are left out and the throw is
    simply not sent."""

    def __init__(self, dice, count: int, now: float, write) -> None:
        self.named = list(dice)
        self.assembler = pixels.Assembler(self.named, count, now)
        self.write = write
        self.splitter = tc.LineSplitter()

    def start(self) -> None:
        self.send("HELLO", NAME, VERSION)

    def advertised(self, address: str, payloads: list, now: float) -> None:
        """One advertisement (its raw payload and scan response) from ``address``."""
        manufacturer, service = pixels.pixels_parts(payloads)
        if manufacturer is None:
            return  # no die at all
        try:
            die = pixels.which_die(address.upper(), service, self.named)
            if die is not None:
                self.tell(self.assembler.heard(die, pixels.reading(manufacturer), now))
        except ValueError:
            pass  # bytes that are not a die's: the radio is hostile, and nobody to tell

    def tick(self, now: float) -> None:
        self.tell(self.assembler.tick(now))

    def tell(self, words: list) -> None:
        for word in words:
            if word[0] == "DICE":
                self.send("DICE", *word[1])

    def receive(self, data: bytes) -> None:
        """Bytes from the host; each complete line is answered."""
        for line in self.splitter.feed(data):
            self.answer(line)

    def answer(self, line) -> None:
        if line is None:
            self.send("ERR", tc.TOOLONG)
            return
        try:
            words = tc.decode_line(line)
        except tc.ProtocolError as err:
            self.send("ERR", err.code)
            return
        if words[0] == "HELLO":
            self.send("HELLO", NAME, VERSION)
        elif words[0] not in ("SNAP", "ERR"):  # no board to snap; an ERR is never answered
            self.send("ERR", tc.UNKNOWN)

    def send(self, *words) -> None:
        self.write(tc.encode_line(list(words)))


class Clock:
    """Seconds since start from ``time.ticks_ms``, which wraps after a few days."""

    def __init__(self) -> None:
        self.last = time.ticks_ms()
        self.ms = 0

    def __call__(self) -> float:
        tick = time.ticks_ms()
        self.ms += time.ticks_diff(tick, self.last)
        self.last = tick
        return self.ms / 1000


def main() -> None:
    """Scan the dice and answer the host, for ever (MicroPython only)."""
    import asyncio
    import select

    import aioble

    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    stdout = getattr(sys.stdout, "buffer", sys.stdout)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    clock = Clock()
    bridge = Bridge(DICE, COUNT, clock(), stdout.write)

    async def scan() -> None:
        async with aioble.scan(0, interval_us=SCAN_INTERVAL_US, window_us=SCAN_WINDOW_US,
                               active=True) as results:
            async for result in results:
                bridge.advertised(result.device.addr_hex(), [result.adv_data, result.resp_data],
                                  clock())
                # aioble hands a device over again only when something it sent changed; a die
                # at rest repeats itself while the others land, and must still be heard
                result.rssi = None

    async def serve() -> None:
        bridge.start()
        while True:
            while poller.poll(0):
                data = stdin.read(1)
                bridge.receive(data.encode() if isinstance(data, str) else data)
            bridge.tick(clock())
            await asyncio.sleep_ms(TICK_MS)

    async def both() -> None:
        scanning = asyncio.create_task(scan())
        await serve()
        await scanning

    asyncio.run(both())


if __name__ == "__main__":
    main()
