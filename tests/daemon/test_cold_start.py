"""The daemon's start loads only what its config asks for: no pyserial without a serial
device, luma's devices only when a panel is built (luma.core.virtual, which
luma.oled.device imports, starts a 4-thread pool at import), segno only for a QR code,
Pillow's GIF writer only for a GIF."""

from __future__ import annotations

import subprocess
import sys

WATCHED = {"gpiozero", "luma.oled.device", "luma.core.virtual", "serial", "segno",
           "PIL.GifImagePlugin"}


def loaded_after(code: str) -> set[str]:
    """Which of :data:`WATCHED` ``code`` leaves imported."""
    script = f"{code}\nimport sys\nprint(' '.join(sorted(set(sys.modules) & {WATCHED!r})))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=30, check=True)
    return set(done.stdout.split())


def test_the_run_command_config_and_screens_load_neither_pyserial_nor_luma_devices() -> None:
    code = "import firmware_host.commands.run, firmware_host.config, firmware_host.screens"
    assert loaded_after(code) == {"gpiozero"}  # the pins: the daemon cannot start without them


def test_building_a_panel_loads_luma_and_a_serial_port_loads_pyserial() -> None:
    code = ("from hardware.display.factory import OledConfig, build_oled\n"
            "from hardware.display.mock import RecordingInterface\n"
            "build_oled(OledConfig(), RecordingInterface())\n"
            "from hardware.serial.bridge import serial_for_url\n"
            "serial_for_url('loop://').close()\n"
            "from firmware_host.screens.qr import qr_size\n"
            "qr_size('http://table.local/', 64)\n"
            "import tempfile, pathlib\n"
            "from hardware.display.emulators import GifRecorder\n"
            "from hardware.display.protocol import new_frame\n"
            "gif = GifRecorder(pathlib.Path(tempfile.mkdtemp()) / 'a.gif')\n"
            "gif.show(new_frame())\n"
            "gif.save()")
    assert loaded_after(code) == {"luma.oled.device", "luma.core.virtual", "serial", "segno",
                                  "PIL.GifImagePlugin"}
