"""Display costs: bytes per update on a recording bus, and time to draw and encode a frame.

Prints one JSON object. Bytes are what the driver hands to luma's serial interface
(command + data bytes); ``ms_at_100khz``/``ms_at_400khz`` estimate the I2C time, counting
9 clock cycles per byte and, per transfer, the address and control bytes.
"""

from __future__ import annotations

import io
import json
import statistics
import time
import warnings
from collections.abc import Callable

from PIL import Image
from smoke import sized

from hardware.display.emulators import TerminalView
from hardware.display.factory import OledConfig, build_luma_device, build_oled
from hardware.display.mock import RecordingInterface
from hardware.display.pages import pack_pages
from hardware.display.protocol import new_frame
from hardware.display.samples import sample_screen

REPEATS = sized(200, 3)

warnings.filterwarnings("ignore", category=DeprecationWarning)  # luma's use of getdata()


def i2c_ms(interface: RecordingInterface, bus_hz: int) -> float:
    overhead = 2 * len(interface.transfers)  # address byte + control byte per transfer
    return round((interface.byte_count() + overhead) * 9 / bus_hz * 1000, 2)


def update_cost(controller: str, before: Image.Image, after: Image.Image) -> dict[str, float]:
    interface = RecordingInterface()
    oled = build_oled(OledConfig(controller=controller), interface)
    oled.show(before)
    interface.forget()
    oled.show(after)
    return {"bytes": interface.byte_count(), "transfers": len(interface.transfers),
            "ms_at_100khz": i2c_ms(interface, 100_000), "ms_at_400khz": i2c_ms(interface, 400_000)}


def luma_full_frame() -> dict[str, float]:
    interface = RecordingInterface()
    device = build_luma_device(OledConfig(), interface)
    interface.forget()
    device.display(sample_screen(11))
    return {"bytes": interface.byte_count(), "transfers": len(interface.transfers),
            "ms_at_100khz": i2c_ms(interface, 100_000), "ms_at_400khz": i2c_ms(interface, 400_000)}


def median_ms(action: Callable[[int], object]) -> float:
    times = []
    for index in range(REPEATS):
        start = time.perf_counter()
        action(index)
        times.append(time.perf_counter() - start)
    return round(statistics.median(times) * 1000, 3)


def main() -> None:
    blank, lit = new_frame(), Image.new("1", (128, 64), 1)
    updates = {
        controller: {
            "one_line_change": update_cost(controller, sample_screen(9), sample_screen(11)),
            "full_change": update_cost(controller, blank, lit),
            "unchanged": update_cost(controller, sample_screen(9), sample_screen(9)),
        }
        for controller in ("ssd1306", "sh1106")
    }
    oled = build_oled(OledConfig(), RecordingInterface())
    frames = [sample_screen(score) for score in range(2)]
    luma_device = build_luma_device(OledConfig(), RecordingInterface())
    view = TerminalView(io.StringIO(), in_place=False)
    result = {
        "bench": "display",
        "full_frame_data_bytes": 1024,
        "updates": updates,
        "luma_ssd1306_every_frame": luma_full_frame(),
        "one_line_change_share_of_frame": round(
            updates["ssd1306"]["one_line_change"]["bytes"] / 1024, 3),
        "render_ms": median_ms(lambda index: sample_screen(index)),
        "pack_pages_ms": median_ms(lambda index: pack_pages(frames[index % 2])),
        "driver_show_ms": median_ms(lambda index: oled.show(frames[index % 2])),
        "luma_display_ms": median_ms(lambda index: luma_device.display(frames[index % 2])),
        "terminal_view_ms": median_ms(lambda index: view.show(frames[index % 2])),
        "repeats": REPEATS,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
