"""TC1 framing and message parsing: exact lines, checksums and refusals."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hardware.serial.framing
from hardware.serial.framing import (
    MAX_LINE,
    LineSplitter,
    ProtocolError,
    crc8,
    decode_line,
    encode_line,
)
from hardware.serial.messages import Board, Cell, Dice, ErrorReply, Hello, parse_message


def test_crc8_is_crc8_smbus() -> None:
    assert crc8(b"123456789") == 0xF4  # the catalogue check value
    assert crc8(b"") == 0


@pytest.mark.parametrize(
    ("words", "line"),
    [
        (["DICE", 3, 1, 4], b"TC1 DICE 3 1 4*4E\n"),
        (["CELL", 2, 3, 1], b"TC1 CELL 2 3 1*08\n"),
        (["HELLO", "pico-board", "1.0"], b"TC1 HELLO pico-board 1.0*76\n"),
    ],
)
def test_encode_line_golden(words: list[str | int], line: bytes) -> None:
    assert encode_line(words) == line
    assert decode_line(line[:-1]) == [str(word) for word in words]
    assert decode_line(line[:-1] + b"\r") == [str(word) for word in words]  # CRLF tolerated


@pytest.mark.parametrize(
    ("line", "code", "detail"),
    [
        (b"TC1 DICE 3 1 4*4F", "CHECKSUM", "line says 4F, content gives 4E"),
        (b"TC1 DICE 3 1 5*4E", "CHECKSUM", "line says 4E, content gives 49"),
        (b"TC1 DICE 3 1 4", "CHECKSUM", "no '*' and checksum at the end"),
        (b"TC1 DICE 3 1 4*4", "CHECKSUM", "checksum must be two hex digits after '*'"),
        (b"TC1 DICE \xe9*00", "FORMAT", "not printable ASCII"),
        (b"HELLO*" + b"%02X" % crc8(b"HELLO"), "FORMAT", "a line starts with TC1"),
        (b"TC2 DICE 1*" + b"%02X" % crc8(b"TC2 DICE 1"), "VERSION", "speaks TC2, not TC1"),
        (b"TC1*" + b"%02X" % crc8(b"TC1"), "FORMAT", "no verb after TC1"),
    ],
)
def test_bad_lines_are_refused_with_a_code(line: bytes, code: str, detail: str) -> None:
    with pytest.raises(ProtocolError) as raised:
        decode_line(line)
    assert (raised.value.code, raised.value.detail) == (code, detail)


def test_encode_refuses_words_that_would_break_the_frame() -> None:
    for bad in ("two words", "a*b", "", "é"):
        with pytest.raises(ValueError, match="printable ASCII without spaces"):
            encode_line(["ERR", bad])
    with pytest.raises(ValueError, match="fit in 120 bytes"):
        encode_line(["ERR", "x" * 120])


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["HELLO", "pico-board", "1.0"], Hello("pico-board", "1.0")),
        (["DICE", "6", "6", "1"], Dice((6, 6, 1))),
        (["CELL", "15", "0", "0"], Cell(15, 0, False)),
        (["BOARD", "2", "6", "21", "0"], Board(2, 6, frozenset({(0, 0), (0, 5)}))),
        (["ERR", "CHECKSUM"], ErrorReply("CHECKSUM", "")),
    ],
)
def test_messages_parse_to_typed_values(words: list[str], message: object) -> None:
    assert parse_message(words) == message


@pytest.mark.parametrize(
    ("words", "code", "detail"),
    [
        (["ROLL"], "UNKNOWN", "no verb 'ROLL' from a device"),
        (["DICE"], "FORMAT", "DICE takes 1 to 10 arguments, got 0"),
        (["DICE", "0"], "FORMAT", "DICE argument '0' is not a number 1 to 99"),
        (["DICE", "-3"], "FORMAT", "DICE argument '-3' is not a number 1 to 99"),
        (["CELL", "16", "0", "1"], "FORMAT", "CELL argument '16' is not a number 0 to 15"),
        (["CELL", "1", "1", "2"], "FORMAT", "CELL argument '2' is not a number 0 to 1"),
        (["BOARD", "2", "4", "F"], "FORMAT", "BOARD takes 4 arguments, got 3"),
        (["BOARD", "1", "4", "1F"], "FORMAT", "BOARD row 0 '1F' has cells beyond 4"),
        (["BOARD", "1", "4", "0x1"], "FORMAT", "BOARD row 0 '0x1' is not hex"),
        (["HELLO", "x"], "FORMAT", "HELLO takes 2 arguments, got 1"),
    ],
)
def test_bad_messages_name_what_was_wrong(words: list[str], code: str, detail: str) -> None:
    with pytest.raises(ProtocolError) as raised:
        parse_message(words)
    assert (raised.value.code, raised.value.detail) == (code, detail)


def test_splitter_joins_pieces_and_drops_blank_and_overlong_lines() -> None:
    splitter = LineSplitter()
    assert splitter.feed(b"TC1 A") == []
    assert splitter.feed(b"B*00\n\r\n\nTC1") == [b"TC1 AB*00"]
    assert splitter.feed(b"x" * 500) == []
    assert splitter.feed(b"y" * 500 + b"\nok\n") == [None, b"ok"]
    assert splitter.feed(b"z" * MAX_LINE + b"\r\n") == [b"z" * MAX_LINE + b"\r"]


@settings(max_examples=200)
@given(st.binary(max_size=400), st.lists(st.integers(1, 50), max_size=20))
def test_splitting_does_not_depend_on_how_the_stream_is_cut(
    stream: bytes, cuts: list[int]
) -> None:
    whole = LineSplitter().feed(stream)
    pieces, splitter, start = [], LineSplitter(), 0
    for cut in cuts:
        pieces += splitter.feed(stream[start:start + cut])
        start += cut
    pieces += splitter.feed(stream[start:])
    assert pieces == whole
    assert all(line is None or (0 < len(line) <= MAX_LINE + 1 and b"\n" not in line)
               for line in whole)


@settings(max_examples=200)
@given(st.binary(max_size=200))
def test_decoding_garbage_only_ever_raises_protocol_error(line: bytes) -> None:
    try:
        parse_message(decode_line(line.replace(b"\n", b"")))
    except ProtocolError as err:
        assert err.code in {"CHECKSUM", "FORMAT", "VERSION", "UNKNOWN"}


def test_the_shared_framing_module_stays_runnable_on_micropython() -> None:
    """It is copied to the Pico as is: no imports (not even typing or __future__), and none
    of the CPython-only helpers the module's docstring warns about."""
    source = Path(hardware.serial.framing.__file__).read_text()
    tree = ast.parse(source)
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]
    for call in (".hex(", "dataclass", "typing", "bytearray().strip", "errors="):
        assert call not in source
