"""The page-diff OLED driver: exact bytes on a recording interface, checked against a model
of the controller's RAM and against luma's own full-frame encoding."""

from __future__ import annotations

import errno
import sys

import pytest
from gpiozero import DigitalOutputDevice
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.oled.device import ssd1306
from PIL import Image, ImageDraw

from hardware.display.factory import (
    OledConfig,
    OledConfigError,
    build_luma_device,
    build_oled,
    open_oled,
)
from hardware.display.mock import RecordingInterface
from hardware.display.pages import changed_runs, pack_pages, pack_rows
from hardware.display.protocol import frame_from_rows, new_frame
from hardware.display.samples import sample_screen
from hardware.errors import DeviceMissingError, HardwareError

FULL_FRAME = 1024
# luma 3.16 still calls Image.getdata(), which Pillow 13 deprecates; not ours to fix
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


class PanelRam:
    """What the controller's RAM holds after the driver's transfers (128 visible columns)."""

    def __init__(self, controller: str) -> None:
        self.controller = controller
        self.pages = [bytearray(128) for _ in range(8)]

    def apply(self, transfers: list[tuple[str, bytes]]) -> None:
        cells: list[tuple[int, int]] = []
        for kind, payload in transfers:
            if kind == "command":
                cells = self._cells(payload)
            else:
                exact = self.controller == "ssd1306"  # a window is filled exactly
                assert len(payload) == len(cells) if exact else len(payload) <= len(cells)
                for (page, col), byte in zip(cells, payload, strict=False):
                    self.pages[page][col] = byte

    def _cells(self, cmd: bytes) -> list[tuple[int, int]]:
        if self.controller == "ssd1306":
            assert cmd[0] == 0x21 and cmd[3] == 0x22 and len(cmd) == 6
            return [(page, col) for page in range(cmd[4], cmd[5] + 1)
                    for col in range(cmd[1], cmd[2] + 1)]
        assert len(cmd) == 3 and cmd[0] & 0xF0 == 0xB0 and cmd[2] & 0xF0 == 0x10
        start = (cmd[1] & 0x0F) + ((cmd[2] & 0x0F) << 4) - 2
        return [(cmd[0] & 0x0F, col) for col in range(start, 128)]  # data may stop early

    def image(self) -> Image.Image:
        frame = new_frame()
        for page, row in enumerate(self.pages):
            for col, byte in enumerate(row):
                for bit in range(8):
                    if byte >> bit & 1:
                        frame.putpixel((col, page * 8 + bit), 1)
        return frame


def fresh(controller: str = "ssd1306", rotate: int = 0):  # type: ignore[no-untyped-def]
    interface = RecordingInterface()
    oled = build_oled(OledConfig(controller=controller, rotate=rotate), interface)
    interface.forget()  # luma's init sequence and clear
    return oled, interface


def test_pack_pages_matches_luma_full_frame_encoding() -> None:
    frame = new_frame()
    draw = ImageDraw.Draw(frame)
    draw.text((3, 5), "Player 2: 47", fill=1)
    draw.line((0, 63, 127, 0), fill=1)
    interface = RecordingInterface()
    device = ssd1306(interface)
    interface.forget()
    device.display(frame)
    assert interface.transfers[-1][1] == b"".join(pack_pages(frame))


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=FULL_FRAME, max_size=FULL_FRAME),
       st.binary(min_size=FULL_FRAME, max_size=FULL_FRAME), st.sets(st.integers(0, 7)))
def test_packing_rows_matches_luma_and_reuses_only_unchanged_pages(
        rows: bytes, other: bytes, kept: set[int]) -> None:
    """Pages packed from a frame's rows equal luma's encoding of the frame; given another
    frame's rows and pages, the pages whose rows they share are taken over, the rest packed."""
    frame = Image.frombytes("1", (128, 64), rows)
    interface = RecordingInterface()
    device = ssd1306(interface)
    interface.forget()
    device.display(frame)
    packed = pack_rows(rows)
    assert b"".join(packed) == interface.transfers[-1][1]
    band = FULL_FRAME // 8
    before = bytes(b"".join(rows[page * band:(page + 1) * band] if page in kept
                            else other[page * band:(page + 1) * band] for page in range(8)))
    before_pages = pack_rows(before)
    again = pack_rows(rows, (before, before_pages))
    assert again == packed
    assert all(again[page] is before_pages[page] for page in kept)


def test_a_frame_drawn_on_after_it_was_made_is_packed_as_it_is_now() -> None:
    """A frame keeps its rows for the driver; drawing on it afterwards must not leave the
    driver packing the rows it was made with."""
    frame = frame_from_rows(bytes(FULL_FRAME))
    ImageDraw.Draw(frame).point((0, 0), fill=1)
    assert frame.tobytes() != bytes(FULL_FRAME)
    oled, interface = fresh()
    oled.show(frame)
    assert interface.transfers[-1][1][0] == 1  # column 0 of page 0: its top pixel


def runs_column_by_column(old: bytes, new: bytes, gap: int) -> list[tuple[int, int]]:
    """What :func:`changed_runs` means, spelt out one column at a time."""
    runs: list[list[int]] = []
    for column, (a, b) in enumerate(zip(old, new, strict=True)):
        if a != b:
            if runs and column - runs[-1][1] - 1 <= gap:
                runs[-1][1] = column
            else:
                runs.append([column, column])
    return [(first, last) for first, last in runs]


@settings(max_examples=300)
@given(
    old=st.binary(min_size=128, max_size=128),
    edits=st.lists(st.tuples(st.integers(0, 127), st.integers(0, 255)), max_size=20),
    gap=st.integers(0, 8),
)
def test_changed_runs_are_the_differing_columns_joined_across_small_gaps(
    old: bytes, edits: list[tuple[int, int]], gap: int
) -> None:
    new = bytearray(old)
    for column, byte in edits:
        new[column] = byte
    assert changed_runs(old, bytes(new), gap) == runs_column_by_column(old, bytes(new), gap)


def test_first_frame_is_sent_whole_and_an_unchanged_frame_sends_nothing() -> None:
    oled, interface = fresh()
    frame = new_frame()
    oled.show(frame)
    assert interface.transfers == [
        ("command", bytes([0x21, 0, 127, 0x22, 0, 7])),
        ("data", bytes(FULL_FRAME)),
    ]
    interface.forget()
    oled.show(frame.copy())
    assert interface.transfers == []


@pytest.mark.parametrize(
    ("controller", "expected"),
    [
        # one 10-column window over pages 2 and 3: 6 command bytes + 20 data bytes
        ("ssd1306", [("command", bytes([0x21, 10, 19, 0x22, 2, 3])),
                     ("data", b"\xf0" * 10), ("data-2", b"\x0f" * 10)]),
        # page addressing, column 10 + offset 2 = 0x0C: one page at a time
        ("sh1106", [("command", bytes([0xB2, 0x0C, 0x10])), ("data", b"\xf0" * 10),
                    ("command", bytes([0xB3, 0x0C, 0x10])), ("data", b"\x0f" * 10)]),
    ],
)
def test_a_small_change_sends_exactly_its_column_span(
    controller: str, expected: list[tuple[str, bytes]]
) -> None:
    oled, interface = fresh(controller)
    frame = new_frame()
    oled.show(frame)
    interface.forget()
    ImageDraw.Draw(frame).rectangle((10, 20, 19, 27), fill=1)  # rows 20-27: pages 2 and 3
    oled.show(frame)
    if controller == "ssd1306":  # the two pages travel in one data transfer
        expected = [expected[0], ("data", expected[1][1] + expected[2][1])]
    assert interface.transfers == expected
    assert interface.byte_count() == 26


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_a_one_line_text_change_costs_under_30_percent_of_a_frame(controller: str) -> None:
    oled, interface = fresh(controller)
    oled.show(sample_screen(9))
    interface.forget()
    oled.show(sample_screen(11))
    sent = interface.byte_count()
    assert 0 < sent <= 0.30 * FULL_FRAME
    ram = PanelRam(controller)
    oled2, interface2 = fresh(controller)
    oled2.show(sample_screen(9))
    oled2.show(sample_screen(11))
    ram.apply(interface2.transfers)
    assert ram.image().tobytes() == sample_screen(11).tobytes()


rectangles = st.lists(
    st.tuples(st.integers(0, 127), st.integers(0, 63), st.integers(0, 127),
              st.integers(0, 63), st.integers(0, 1)),
    max_size=4,
)


@settings(max_examples=120, deadline=None)
@given(
    controller=st.sampled_from(["ssd1306", "sh1106"]),
    rotate=st.sampled_from([0, 2]),
    edits=st.lists(rectangles, min_size=1, max_size=4),
)
def test_the_panel_always_ends_up_showing_the_last_frame(
    controller: str, rotate: int, edits: list[list[tuple[int, int, int, int, int]]]
) -> None:
    oled, interface = fresh(controller, rotate)
    ram = PanelRam(controller)
    frame = new_frame()
    for edit in edits:
        draw = ImageDraw.Draw(frame)
        for x0, y0, x1, y1, fill in edit:
            draw.rectangle((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)), fill=fill)
        oled.show(frame)
    ram.apply(interface.transfers)
    shown = frame.rotate(180) if rotate == 2 else frame
    assert ram.image().tobytes() == shown.tobytes()


@settings(max_examples=120, deadline=None)
@given(
    controller=st.sampled_from(["ssd1306", "sh1106"]),
    edits=st.lists(rectangles, min_size=1, max_size=4),
    order=st.lists(st.integers(0, 3), min_size=1, max_size=6),
)
def test_a_prepared_frame_sends_nothing_until_sent_and_is_right_whenever_it_is(
    controller: str, edits: list[list[tuple[int, int, int, int, int]]], order: list[int]
) -> None:
    """Frames prepared one after another, sent in any order, some twice, some never: each
    send leaves the panel showing its frame (one diffed against what went out since is
    diffed again)."""
    oled, interface = fresh(controller)
    ram = PanelRam(controller)
    frame = new_frame()
    oled.show(frame)  # the panel's content known: from now on only differences go
    ram.apply(interface.transfers)
    interface.forget()
    prepared = []
    for edit in edits:
        draw = ImageDraw.Draw(frame)
        for x0, y0, x1, y1, fill in edit:
            draw.rectangle((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)), fill=fill)
        prepared.append((frame.copy(), oled.prepare(frame.copy())))
    assert interface.transfers == []
    for pick in order:
        image, send = prepared[pick % len(prepared)]
        send()
        ram.apply(interface.transfers)
        interface.forget()
        assert ram.image().tobytes() == image.tobytes()


def test_the_worst_case_full_change_costs_no_more_than_luma() -> None:
    oled, interface = fresh("ssd1306")
    oled.show(new_frame())
    interface.forget()
    full = Image.new("1", (128, 64), 1)
    oled.show(full)
    assert interface.transfers == [
        ("command", bytes([0x21, 0, 127, 0x22, 0, 7])),
        ("data", b"\xff" * FULL_FRAME),
    ]


def test_the_device_persists_so_exit_does_not_blank_the_score() -> None:
    interface = RecordingInterface()
    device = build_luma_device(OledConfig(), interface)
    assert device.persist is True
    interface.forget()
    device.cleanup()  # what luma's exit hook runs
    assert interface.transfers == []


def test_a_wrong_frame_is_refused_with_what_to_draw_on() -> None:
    oled, interface = fresh()
    with pytest.raises(ValueError, match=r"mode '1' image of 128x64 pixels, got mode 'RGB'"):
        oled.show(Image.new("RGB", (128, 64)))
    assert interface.transfers == []


@pytest.mark.parametrize(
    ("settings_", "message"),
    [
        ({"controller": "ssd1309"},
         "display controller = 'ssd1309' is not supported; use ssd1306 or sh1106"),
        ({"interface": "uart"}, "display interface = 'uart' is not supported; use i2c or spi"),
        ({"i2c_address": 0x80},
         "display i2c_address = 0x80 is not supported; use 0x03 to 0x77 (usually 0x3C)"),
        ({"rotate": 1}, "display rotate = 1 is not supported; use 0 or 2"),
    ],
)
def test_bad_settings_name_the_setting_and_the_choices(
    settings_: dict[str, object], message: str
) -> None:
    with pytest.raises(OledConfigError) as raised:
        OledConfig(**settings_)  # type: ignore[arg-type]
    assert str(raised.value) == message
    assert raised.value.key == next(iter(settings_))
    assert f"display {raised.value.key} = {raised.value.problem}" == message


def test_a_missing_i2c_bus_says_how_to_enable_it() -> None:
    with pytest.raises(DeviceMissingError) as raised:
        open_oled(OledConfig(i2c_bus=97))
    assert str(raised.value).startswith("SSD1306 on I2C bus 97 at 0x3C: /dev/i2c-97 not found")
    assert "raspi-config" in str(raised.value)


class SilentBus:
    """An smbus with nothing at the address: every write is NACKed."""

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        raise OSError(errno.EREMOTEIO, "Remote I/O error")


def test_nothing_at_the_address_names_the_address_and_i2cdetect() -> None:
    with pytest.raises(DeviceMissingError) as raised:
        open_oled(OledConfig(i2c_address=0x3D), smbus=SilentBus())
    text = str(raised.value)
    assert text.startswith("SSD1306 on I2C bus 1 at 0x3D: nothing answers")
    assert "sudo i2cdetect -y 1" in text
    assert isinstance(raised.value, OSError)


class FakeSpiDev:
    def __init__(self) -> None:
        self.written: list[int] = []
        self.opened: tuple[int, int] | None = None
        self.max_speed_hz = 0

    def open(self, port: int, device: int) -> None:
        self.opened = (port, device)

    def writebytes(self, data: list[int]) -> None:
        self.written.extend(data)

    def close(self) -> None:
        self.opened = None


def test_spi_drives_dc_and_reset_through_the_given_pin_factory() -> None:
    factory = MockFactory()
    spidev = FakeSpiDev()
    config = OledConfig(controller="sh1106", interface="spi", spi_device=1, dc_pin=22,
                        reset_pin=27, rotate=0)
    oled = open_oled(config, spidev=spidev, pin_factory=factory)
    assert spidev.opened == (0, 1) and spidev.max_speed_hz == 8_000_000
    assert factory.pin(27).state is True  # reset released
    spidev.written.clear()
    frame = new_frame()
    frame.putpixel((0, 0), 1)
    oled.show(frame)
    assert factory.pin(22).state is True  # data mode after the last transfer
    assert len(spidev.written) == 8 * (3 + 128)  # first frame: all pages


def test_a_pin_in_use_is_named() -> None:
    factory = MockFactory()
    blocker = DigitalOutputDevice(24, pin_factory=factory)
    with pytest.raises(HardwareError) as raised:
        open_oled(OledConfig(interface="spi"), spidev=FakeSpiDev(), pin_factory=factory)
    blocker.close()
    assert "GPIO24" in str(raised.value)


def test_missing_spidev_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spidev", None)
    with pytest.raises(DeviceMissingError) as raised:
        open_oled(OledConfig(interface="spi"), pin_factory=MockFactory())
    assert str(raised.value) == (
        "SSD1306 on SPI 0.0 (DC GPIO24): the Python package spidev is missing; install it "
        "(sudo apt install python3-spidev, or pip install spidev)"
    )


class FailingInterface(RecordingInterface):
    fail = False

    def data(self, data: object) -> None:
        if self.fail:
            raise OSError(errno.EIO, "Input/output error")
        super().data(data)  # type: ignore[arg-type]


def test_a_failed_transfer_names_the_panel_and_the_next_frame_goes_whole() -> None:
    interface = FailingInterface()
    oled = build_oled(OledConfig(), interface)
    frame = new_frame()
    oled.show(frame)
    interface.fail = True
    frame.putpixel((5, 5), 1)
    with pytest.raises(DeviceMissingError, match=r"^SSD1306 on I2C bus 1 at 0x3C stopped"):
        oled.show(frame)
    interface.fail = False
    interface.forget()
    oled.show(frame)
    assert interface.byte_count() == 6 + FULL_FRAME


class AbsentSpiDev(FakeSpiDev):
    def open(self, port: int, device: int) -> None:
        raise FileNotFoundError(errno.ENOENT, "No such file or directory")


def test_a_failed_spi_open_frees_its_pins_for_the_next_try() -> None:
    factory = MockFactory()
    config = OledConfig(interface="spi")
    with pytest.raises(DeviceMissingError, match="enable SPI"):
        open_oled(config, spidev=AbsentSpiDev(), pin_factory=factory)
    spidev = FakeSpiDev()
    oled = open_oled(config, spidev=spidev, pin_factory=factory)  # GPIO24/25 free again
    oled.close()
    assert spidev.opened is None


def test_close_releases_the_bus_without_blanking_the_panel() -> None:
    oled, interface = fresh()
    oled.show(new_frame())
    interface.forget()
    oled.close()
    assert interface.transfers == []


def test_two_changes_far_apart_in_a_page_go_as_two_windows() -> None:
    oled, interface = fresh()
    frame = new_frame()
    oled.show(frame)
    interface.forget()
    draw = ImageDraw.Draw(frame)
    draw.rectangle((0, 0, 9, 7), fill=1)  # a name at the left of page 0
    draw.rectangle((110, 0, 127, 7), fill=1)  # dice at the right
    oled.show(frame)
    assert interface.transfers == [
        ("command", bytes([0x21, 0, 9, 0x22, 0, 0])), ("data", b"\xff" * 10),
        ("command", bytes([0x21, 110, 127, 0x22, 0, 0])), ("data", b"\xff" * 18),
    ]


def test_the_wire_time_counts_luma_s_i2c_writes() -> None:
    oled, interface = fresh()
    oled.show(new_frame())
    # one 6-byte command write and 32 data writes of 32 bytes: each write adds start, stop,
    # address and control byte (20 bit times), each byte 9 bit times
    bits = 20 + 6 * 9 + 32 * 20 + 1024 * 9
    assert interface.i2c_seconds(100_000) == pytest.approx(bits / 100_000)  # about 99 ms


def test_a_frame_made_from_rows_is_pillows_own_frame_of_those_rows() -> None:
    rows = bytes(range(256)) * 4
    frame = frame_from_rows(rows)
    assert type(frame) is Image.Image and frame.mode == "1" and frame.size == (128, 64)
    assert frame.tobytes() == rows and frame.getpixel((7, 0)) == 0
    oled, interface = fresh()
    oled.show(frame)
    plain, sent = fresh()
    plain.show(Image.frombytes("1", (128, 64), rows))
    assert interface.transfers == sent.transfers
