"""Framing of the TC1 serial line protocol, shared by the host and the Pico firmware.

The protocol is specified in ``hardware/serial_protocol.md``. This module is the only code
both ends run: it is copied beside ``firmware/pico/main.py`` on the Pico, so it must run
under MicroPython as well as CPython. Hence no imports at all, annotations that name only
built-in types (MicroPython does not evaluate them), and plain loops instead of library
helpers MicroPython may lack (``bytes.hex``, a ``decode`` that rejects non-ASCII).
"""

PROTOCOL = "TC1"
VERSION = 1
MAX_LINE = 120
"""Bytes in one line without its line end; a longer line is dropped whole as TOOLONG."""

CHECKSUM = "CHECKSUM"
FORMAT = "FORMAT"
VERSION_MISMATCH = "VERSION"
UNKNOWN = "UNKNOWN"
TOOLONG = "TOOLONG"


class ProtocolError(Exception):
    """A line that cannot be taken; ``code`` is the word an ERR reply carries."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(code + ": " + detail)
        self.code = code
        self.detail = detail


def crc8(data: bytes) -> int:
    """CRC-8/SMBUS: polynomial 0x07, initial value 0, no reflection (``123456789`` -> 0xF4).

    Unlike an XOR of the bytes it catches swapped characters and every burst of up to
    8 flipped bits, at a few microseconds per line on a Pico.
    """
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def encode_line(words: list[str | int]) -> bytes:
    """``["DICE", 3, 1, 4]`` -> ``b"TC1 DICE 3 1 4*0C\\n"``: prefix, words, checksum, newline."""
    texts = [str(word) for word in words]
    for text in texts:
        if not text or " " in text or "*" in text or not _printable(text.encode()):
            raise ValueError("a protocol word must be printable ASCII without spaces or '*': "
                             + repr(text))
    payload = " ".join([PROTOCOL, *texts]).encode()
    if len(payload) + 3 > MAX_LINE:
        raise ValueError(f"a protocol line must fit in {MAX_LINE} bytes")
    return payload + f"*{crc8(payload):02X}\n".encode()


def decode_line(line: bytes) -> list[str]:
    """The words after the prefix of one line (without its newline), checksum verified.

    Raises :class:`ProtocolError` with code CHECKSUM, FORMAT or VERSION.
    """
    if line.endswith(b"\r"):
        line = line[:-1]
    if not _printable(line):
        raise ProtocolError(FORMAT, "not printable ASCII")
    star = line.rfind(b"*")
    if star < 0:
        raise ProtocolError(CHECKSUM, "no '*' and checksum at the end")
    payload = line[:star]
    given = line[star + 1 :]
    if len(given) != 2 or not _is_hex(given):
        raise ProtocolError(CHECKSUM, "checksum must be two hex digits after '*'")
    expected = crc8(payload)
    if int(given.decode(), 16) != expected:
        raise ProtocolError(CHECKSUM, f"line says {given.decode()}, content gives {expected:02X}")
    words = payload.decode().split()
    prefix = words[0] if words else ""
    if len(prefix) < 3 or prefix[:2] != "TC" or not prefix[2:].isdigit():
        raise ProtocolError(FORMAT, "a line starts with " + PROTOCOL)
    if int(prefix[2:]) != VERSION:
        raise ProtocolError(VERSION_MISMATCH, "speaks " + prefix + ", not " + PROTOCOL)
    if len(words) < 2:
        raise ProtocolError(FORMAT, "no verb after " + PROTOCOL)
    return words[1:]


class LineSplitter:
    """Cuts a byte stream into lines at ``\\n`` and keeps memory bounded.

    :meth:`feed` returns the complete lines so far; an over-long line comes out as ``None``
    (its bytes are dropped up to the next newline) and blank lines are skipped.
    """

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self._buffer = bytearray()
        self._too_long = False

    def feed(self, data: bytes) -> list[bytes | None]:
        lines: list[bytes | None] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            chunk = data[start:] if end < 0 else data[start:end]
            if not self._too_long:
                self._buffer.extend(chunk)
                if len(self._buffer) > self.limit + 1:  # +1: a "\r" before the "\n"
                    self._too_long = True
                    self._buffer = bytearray()
            if end < 0:
                return lines
            if self._too_long:
                lines.append(None)
            elif bytes(self._buffer).strip():  # MicroPython's bytearray has no strip()
                lines.append(bytes(self._buffer))
            self._buffer = bytearray()
            self._too_long = False
            start = end + 1


def _printable(data: bytes) -> bool:
    return all(0x20 <= byte <= 0x7E for byte in data)


def _is_hex(data: bytes) -> bool:
    return all(chr(byte) in "0123456789ABCDEFabcdef" for byte in data)
