"""The game night's two services, checked by systemd's own tools: silent, hardened as far
as a networked service goes, and starting commands that exist with options that parse."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.cli import build_parser

SYSTEMD = Path(__file__).parents[2] / "systemd"
UNITS = ("table-companion-publish.service", "table-companion-hub.service")
MAX_EXPOSURE = 1.0  # both measured 1.0: network access (0.8) and the root file system (0.1)


def exec_start(unit: str) -> list[str]:
    text = (SYSTEMD / unit).read_text().replace("\\\n", " ")
    line = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    return shlex.split(line.removeprefix("ExecStart="))


def runnable(unit: str, folder: Path) -> Path:
    """A copy whose ExecStart is this Python, since /opt/table-companion is not here."""
    copy = folder / unit
    copy.write_text(re.sub(r"(?m)^ExecStart=\S+", f"ExecStart={sys.executable}",
                           (SYSTEMD / unit).read_text()))
    return copy


@pytest.mark.parametrize("unit", UNITS)
def test_the_command_and_its_options_exist(unit: str) -> None:
    args = exec_start(unit)
    assert args[0] == "/opt/table-companion/venv/bin/table-companion"
    command = args[1]
    parsed = build_parser(command).parse_args(args[1:])
    assert parsed.command == command


@pytest.mark.parametrize("unit", UNITS)
def test_verify_is_silent_and_the_exposure_is_low(unit: str, tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (apt install systemd); .ci/run does")
    copy = runnable(unit, tmp_path)
    verify = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True,
                            text=True, timeout=60)
    assert (verify.returncode, verify.stderr) == (0, "")
    security = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager",
                               str(copy)], capture_output=True, text=True, timeout=60)
    score = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", security.stdout)
    assert score is not None, security.stdout + security.stderr
    assert float(score.group(1)) <= MAX_EXPOSURE
