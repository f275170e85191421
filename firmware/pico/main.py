"""table-companion board scanner: a Raspberry Pi Pico running MicroPython.

Scans a reed-switch matrix of up to 16 x 16 cells and reports it to the Pi over USB serial
in the TC1 protocol (``hardware/serial_protocol.md``): a CELL line for each cell that
settled into a new state, a full BOARD snapshot when asked, and HELLO in answer to HELLO.

On the Pico this file is ``main.py`` beside ``serial_framing.py`` (a copy of
``hardware/serial/framing.py``, the framing code the host runs too); see README.md.
Everything but :func:`main` runs on CPython as well, so it is tested on the host against a
fake ``machine`` module.
"""

import sys
import time

import serial_framing as tc
from machine import Pin

NAME = "pico-board"
VERSION = "1.0"
ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9)  # GP2-GP9 drive rows 0-7
COL_PINS = (10, 11, 12, 13, 14, 15, 16, 17)  # GP10-GP17 read columns 0-7
SCAN_MS = 5
STABLE_SCANS = 4  # a cell must read the same 4 scans in a row (20 ms) before it is reported
SETTLE_US = 10  # after driving a row, let the column lines settle before reading them


class Matrix:
    """Rows are driven low one at a time and left floating otherwise; columns have pull-ups.

    A closed reed switch, in series with its diode (anode on the column), pulls its column
    low while its row is driven; the diodes stop current sneaking through other closed
    switches, which would show ghost cells when three corners of a rectangle are occupied.
    """

    def __init__(self, row_pins: tuple, col_pins: tuple, settle=None) -> None:
        self.rows = [Pin(number, Pin.IN) for number in row_pins]
        self.cols = [Pin(number, Pin.IN, Pin.PULL_UP) for number in col_pins]
        self.settle = settle

    def scan(self) -> list:
        """One bit mask per row: bit c set when cell (row, c) is occupied."""
        masks = []
        for row in self.rows:
            row.init(Pin.OUT, value=0)
            if self.settle is not None:
                self.settle()
            mask = 0
            for index, col in enumerate(self.cols):
                if not col.value():
                    mask |= 1 << index
            row.init(Pin.IN)
            masks.append(mask)
        return masks


class Firmware:
    """The protocol end of the scanner: debounces scans, answers the host, writes lines.

    ``write`` takes the bytes of one line. Nothing is scanned or sent until :meth:`start`.
    """

    def __init__(self, matrix: Matrix, write, stable_scans: int = STABLE_SCANS) -> None:
        self.matrix = matrix
        self.write = write
        self.stable_scans = stable_scans
        self.splitter = tc.LineSplitter()
        self.stable = [0] * len(matrix.rows)
        self.counts = [[0] * len(matrix.cols) for _ in matrix.rows]

    def start(self) -> None:
        """Take the board as it is at power-on, and say so."""
        self.stable = self.matrix.scan()
        self.send("HELLO", NAME, VERSION)
        self.send_board()

    def scan(self) -> None:
        """Scan once; report each cell that has read its new state ``stable_scans`` times."""
        for row, raw in enumerate(self.matrix.scan()):
            differs = raw ^ self.stable[row]
            counts = self.counts[row]
            for col in range(len(counts)):
                if not differs >> col & 1:
                    counts[col] = 0
                    continue
                counts[col] += 1
                if counts[col] >= self.stable_scans:
                    counts[col] = 0
                    self.stable[row] ^= 1 << col
                    self.send("CELL", row, col, raw >> col & 1)

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
        verb = words[0]
        if verb == "HELLO":
            self.send("HELLO", NAME, VERSION)
            self.send_board()
        elif verb in ("SNAP", "ERR"):  # after an ERR the host may have missed a CELL
            self.send_board()
        else:
            self.send("ERR", tc.UNKNOWN)

    def send_board(self) -> None:
        rows = [f"{mask:X}" for mask in self.stable]
        self.send("BOARD", len(self.matrix.rows), len(self.matrix.cols), *rows)

    def send(self, *words) -> None:
        self.write(tc.encode_line(list(words)))


def main() -> None:
    """Scan every SCAN_MS and answer the host, for ever (MicroPython only)."""
    import select

    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    stdout = getattr(sys.stdout, "buffer", sys.stdout)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    firmware = Firmware(Matrix(ROW_PINS, COL_PINS, lambda: time.sleep_us(SETTLE_US)),
                        stdout.write)
    firmware.start()
    next_scan = time.ticks_ms()
    while True:
        while poller.poll(0):
            data = stdin.read(1)
            firmware.receive(data.encode() if isinstance(data, str) else data)
        if time.ticks_diff(time.ticks_ms(), next_scan) >= 0:
            next_scan = time.ticks_add(next_scan, SCAN_MS)
            firmware.scan()
        time.sleep_ms(1)


if __name__ == "__main__":
    main()
