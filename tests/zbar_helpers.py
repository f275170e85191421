"""QR codes read back from a frame with zbar (Debian's zbar-tools), as a phone would."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image


def decoded(frame: Image.Image, folder: Path) -> list[str]:
    """What zbar reads in ``frame`` as it is (one pixel a pixel), one line a code."""
    zbarimg = shutil.which("zbarimg")
    if zbarimg is None:  # .ci/run installs it
        (pytest.fail if os.environ.get("TABLE_COMPANION_CI") else pytest.skip)(
            "zbarimg is not installed (sudo apt install zbar-tools)")
    path = folder / "frame.png"
    frame.save(path)
    found = subprocess.run([zbarimg, "--quiet", "--raw", str(path)], capture_output=True,
                           text=True, timeout=30)
    return found.stdout.splitlines()
