"""A stand-in for luma's I2C or SPI interface that records every transfer, for tests and
benchmarks that count the bytes a display update costs."""

from __future__ import annotations

from collections.abc import Iterable


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

    def forget(self) -> None:
        self.transfers.clear()
