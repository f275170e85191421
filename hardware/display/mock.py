"""A stand-in for luma's I2C or SPI interface that records every transfer, for tests and
benchmarks that count the bytes a display update costs."""

from __future__ import annotations

from collections.abc import Iterable

I2C_CHUNK = 32
"""luma's I2C interface sends data in writes of at most 32 bytes, each its own transaction."""
I2C_BITS_PER_BYTE = 9  # eight data bits and the acknowledge
I2C_TRANSACTION_BITS = 2 + 2 * I2C_BITS_PER_BYTE  # start, stop, address and control bytes


class RecordingInterface:
    """Has luma's serial interface methods; keeps ``("command" | "data", bytes)`` pairs."""

    def __init__(self) -> None:
        self.transfers: list[tuple[str, bytes]] = []

    def command(self, *cmd: int) -> None:
        self.transfers.append(("command", bytes(cmd)))

    def data(self, data: Iterable[int]) -> None:
        self.transfers.append(("data", bytes(data)))

    def cleanup(self) -> None:
        """luma calls this at exit; there is nothing to release."""

    def byte_count(self) -> int:
        """Command and data bytes sent since the last :meth:`forget`."""
        return sum(len(payload) for _, payload in self.transfers)

    def i2c_seconds(self, hz: int) -> float:
        """How long the transfers since the last :meth:`forget` take on an I2C bus at ``hz``,
        as luma sends them: a command list is one write, data goes in 32-byte writes, and
        each write adds start, stop, the address and a control byte (clock stretching and
        the gaps between writes, which the kernel driver adds, are left out)."""
        bits = 0
        for kind, payload in self.transfers:
            writes = 1 if kind == "command" else -(-len(payload) // I2C_CHUNK)
            bits += writes * I2C_TRANSACTION_BITS + len(payload) * I2C_BITS_PER_BYTE
        return bits / hz

    def forget(self) -> None:
        self.transfers.clear()
