"""The service unit and the install script, checked by systemd's own tools."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.commands.run import EXIT_CONFIG, EXIT_JOURNAL

ROOT = Path(__file__).parents[2]
SYSTEMD = ROOT / "systemd"
UNIT = SYSTEMD / "table-companion.service"
INSTALL = SYSTEMD / "install.sh"
MAX_EXPOSURE = 1.5

needs_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (apt install systemd); .ci/run installs it",
)


def settings() -> dict[str, list[str]]:
    """``Section.Key`` -> every value given, in order (units may repeat a key)."""
    found: dict[str, list[str]] = {}
    section = ""
    for line in UNIT.read_text().splitlines():
        if line.startswith("["):
            section = line.strip("[]")
        elif "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            found.setdefault(f"{section}.{key}", []).append(value)
    return found


def unit_with_existing_executable(tmp_path: Path) -> Path:
    """A copy whose ExecStart is this Python, since /opt/table-companion is not here."""
    copy = tmp_path / UNIT.name
    copy.write_text(re.sub(r"(?m)^ExecStart=\S+", f"ExecStart={sys.executable}",
                           UNIT.read_text()))
    return copy


@needs_analyze
def test_systemd_analyze_verify_is_silent(tmp_path: Path) -> None:
    result = subprocess.run(["systemd-analyze", "verify", str(unit_with_existing_executable(
        tmp_path))], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


@needs_analyze
def test_the_exposure_score_is_at_most_1_5(tmp_path: Path) -> None:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager",
         str(unit_with_existing_executable(tmp_path))],
        capture_output=True, text=True, timeout=60)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert match is not None, result.stdout + result.stderr
    assert float(match.group(1)) <= MAX_EXPOSURE


def test_the_unit_notifies_restarts_and_does_not_loop_on_a_bad_config() -> None:
    unit = settings()
    assert unit["Service.Type"] == ["notify"]
    assert unit["Service.ExecStart"] == ["/opt/table-companion/venv/bin/table-companion run"]
    assert unit["Service.WatchdogSec"] == ["30"]
    assert unit["Service.Restart"] == ["on-failure"]
    assert set(unit["Service.RestartPreventExitStatus"][0].split()) == {
        str(EXIT_CONFIG), str(EXIT_JOURNAL)}
    assert unit["Service.User"] == ["table-companion"]
    assert {"gpio", "i2c", "dialout"} <= set(unit["Service.SupplementaryGroups"][0].split())
    assert unit["Service.StateDirectory"] == ["table-companion"]
    assert unit["Service.WorkingDirectory"] == ["/var/lib/table-companion"]
    assert unit["Service.Environment"][0] == "LG_WD=/run/table-companion"
    assert unit["Service.RuntimeDirectory"] == ["table-companion"]
    assert "ExecStop" not in " ".join(unit)  # systemd's SIGTERM is the clean stop


def test_the_devices_the_companion_drives_stay_reachable() -> None:
    unit = settings()
    assert unit["Service.DevicePolicy"] == ["closed"]
    allowed = {entry.split()[0] for entry in unit["Service.DeviceAllow"]}
    assert {"char-gpiochip", "char-i2c", "char-spi", "char-ttyUSB", "char-ttyACM",
            "char-ttyAMA"} <= allowed
    assert "Service.PrivateDevices" not in unit  # it would hide /dev/gpiochip* and the rest
    assert "Service.PrivateUsers" not in unit  # it would drop the gpio/i2c/dialout groups


def test_the_journal_default_is_in_the_state_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware_host.config import SERVICE_JOURNAL, Config

    state = Path("/var/lib") / settings()["Service.StateDirectory"][0]
    monkeypatch.setenv("STATE_DIRECTORY", str(state))  # as systemd sets it for the service
    assert Config().journal == SERVICE_JOURNAL and SERVICE_JOURNAL.parent == state


def test_install_script_parses() -> None:
    subprocess.run(["bash", "-n", str(INSTALL)], check=True, timeout=30)


SHELL_SCRIPTS = [ROOT / "run.sh", ROOT / "test.sh", ROOT / ".ci" / "run",
                 *sorted((ROOT / "systemd").glob("*.sh")), *sorted((ROOT / "scripts").glob("*.sh"))]


@pytest.mark.skipif(shutil.which("shellcheck") is None and not os.environ.get("TABLE_COMPANION_CI"),
                    reason="shellcheck is not installed (.ci/run installs it)")
def test_every_shell_script_passes_shellcheck() -> None:
    scripts = [str(path.relative_to(ROOT)) for path in SHELL_SCRIPTS]  # sourced ones: found
    result = subprocess.run(["shellcheck", *scripts], capture_output=True, text=True,
                            timeout=60, cwd=ROOT)
    assert result.returncode == 0, result.stdout


def test_install_script_refuses_politely_without_root(tmp_path: Path) -> None:
    fake_id = tmp_path / "id"
    fake_id.write_text("#!/bin/sh\necho 1000\n")
    fake_id.chmod(0o755)
    result = subprocess.run(["bash", str(INSTALL)], capture_output=True, text=True, timeout=30,
                            env={"PATH": f"{tmp_path}:/usr/bin:/bin"})
    assert result.returncode == 1
    assert result.stderr.startswith("install.sh changes system folders and services, so it "
                                    "must run as root:\n    sudo ")
    assert result.stdout == ""
