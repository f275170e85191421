"""./run.sh on a Raspberry Pi: the daemon on the real pins, or, while the service runs, a
word on how to watch it or stop it. The Pi is made in a private mount namespace: a /proc
whose device tree names a Raspberry Pi, and a systemctl that answers as told."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from namespace_helpers import needs_private_mounts

REPO = Path(__file__).parents[2]

AS_A_PI = r"""
set -eu
mount -t tmpfs tmpfs /proc
mkdir /proc/device-tree
printf 'Raspberry Pi Zero 2 W Rev 1.0\0' >/proc/device-tree/model
exec bash "$1/run.sh"
"""


def executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)


def run_on_a_pi(checkout: Path, tmp_path: Path, service_active: bool,
                **extra_env: str) -> subprocess.CompletedProcess[str]:
    executable(tmp_path / "bin" / "systemctl", f"#!/bin/sh\nexit {0 if service_active else 3}\n")
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}", **extra_env}
    return subprocess.run(["unshare", "--mount", "--propagation", "private", "bash", "-c",
                           AS_A_PI, "pi", str(checkout)],
                          capture_output=True, text=True, timeout=60, env=env)


@needs_private_mounts
def test_while_the_service_runs_run_sh_says_how_to_watch_or_stop_it(tmp_path: Path) -> None:
    result = run_on_a_pi(REPO, tmp_path, service_active=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "table-companion already runs as a service on this Pi. Watch it:",
        "    journalctl -u table-companion -f",
        "or stop it to run the companion by hand (start it again with systemctl start):",
        "    sudo systemctl stop table-companion && ./run.sh"]
    assert result.stdout == ""


def copy_of_run_sh(checkout: Path) -> None:
    (checkout / "scripts").mkdir(parents=True)
    for name in ("run.sh", "scripts/venv.sh", "scripts/distribution.sh", "pyproject.toml"):
        shutil.copy(REPO / name, checkout / name)


@needs_private_mounts
def test_otherwise_run_sh_starts_the_daemon(tmp_path: Path) -> None:
    """In a copy whose .venv is up to date and whose command says what it was asked."""
    checkout = tmp_path / "checkout"
    copy_of_run_sh(checkout)
    executable(checkout / ".venv" / "bin" / "python", "#!/bin/sh\nexit 1\n")  # no lgpio
    executable(checkout / ".venv" / "bin" / "table-companion", '#!/bin/sh\necho "ran $*"\n')
    (checkout / ".venv" / ".installed-pi").touch()  # the [pi] extra, as a Pi without lgpio
    result = run_on_a_pi(checkout, tmp_path, service_active=False)
    assert (result.returncode, result.stdout, result.stderr) == (0, "ran run\n", "")


@needs_private_mounts
def test_on_32_bit_arm_with_python_3_13_run_sh_names_what_apt_must_bring(
        tmp_path: Path) -> None:
    """Debian trixie on a Zero 2 W: no wheel of Pillow, cbor2 or lgpio; the distribution's
    packages are named before pip would try to compile them, and no .venv is made."""
    checkout = tmp_path / "checkout"
    copy_of_run_sh(checkout)
    executable(tmp_path / "bin" / "dpkg", "#!/bin/sh\necho armhf\n")
    executable(tmp_path / "bin" / "dpkg-query", "#!/bin/sh\nexit 1\n")  # nothing installed
    executable(tmp_path / "bin" / "apt-cache", "#!/bin/sh\necho '  Candidate: (none)'\n")
    python = tmp_path / "bin" / "python3.13"
    executable(python, '#!/bin/sh\n[ "$1" = -V ] && echo "Python 3.13.5"; exit 0\n')
    result = run_on_a_pi(checkout, tmp_path, service_active=False, PYTHON=str(python))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        "The package index has no wheel of these for Python 3.13.5 on armv7l, so pip would "
        "have to compile them; take the distribution's:",
        "    sudo apt install python3-pil python3-cbor2 python3-rpi.gpio"]
    assert not (checkout / ".venv").exists()


FAKE_PYTHON = r"""#!/bin/sh
# Python 3.$MINOR as venv.sh asks it things; pip only notes what it was asked to install
case $1 in
    -V) echo "Python 3.$MINOR.2" ;;
    -c) case $2 in *"(3, 13)"*) [ "$MINOR" -ge 13 ] ;; esac ;;
    -m) case $2 in
            venv) mkdir -p .venv/bin && cp "$0" .venv/bin/python ;;
            pip) shift 2; echo "$*" >>"$PIP_LOG" ;;
        esac ;;
esac
"""

ENSURE_VENV_ON_A_PI = r"""
set -eu
mount -t tmpfs tmpfs /proc
mkdir /proc/device-tree
printf 'Raspberry Pi 4 Model B Rev 1.5\0' >/proc/device-tree/model
. "$1/scripts/venv.sh"
ensure_venv dev
"""


@needs_private_mounts
@pytest.mark.parametrize(("userland", "minor", "extras"), [
    ("armhf", 11, "dev,pi"),  # lgpio's armv7l wheel; no mypy, Playwright
    ("armhf", 13, "dev"),  # RPi.GPIO from apt: not adafruit-lgpio, which has no armv7l wheel
    ("arm64", 13, "dev,pi,dev-64bit"),
])
def test_a_32_bit_system_on_a_64_bit_kernel_asks_pip_only_for_what_has_its_wheels(
        tmp_path: Path, userland: str, minor: int, extras: str) -> None:
    """Raspberry Pi OS 32-bit on a Pi 4 runs a 64-bit kernel: uname, and so pip's
    platform_machine marker, says aarch64 under an armhf Python. test.sh's venv takes its
    extras from the userland (dpkg), so pip is never asked for mypy, Playwright or
    adafruit-lgpio there, which it would have to compile."""
    checkout = tmp_path / "checkout"
    copy_of_run_sh(checkout)
    bin_dir = tmp_path / "bin"
    executable(bin_dir / "uname", "#!/bin/sh\necho aarch64\n")
    executable(bin_dir / "dpkg", f"#!/bin/sh\necho {userland}\n")
    executable(bin_dir / "dpkg-query",  # what apt brought: all but python3-lgpio
               "#!/bin/sh\n[ \"$3\" = python3-lgpio ] && exit 1; printf 'install ok installed'\n")
    executable(bin_dir / "apt-cache", "#!/bin/sh\necho '  Candidate: (none)'\n")
    executable(bin_dir / f"python3.{minor}", FAKE_PYTHON)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "MINOR": str(minor),
           "PYTHON": str(bin_dir / f"python3.{minor}"), "PIP_LOG": str(tmp_path / "pip.log")}
    result = subprocess.run(["unshare", "--mount", "--propagation", "private", "bash", "-c",
                             ENSURE_VENV_ON_A_PI, str(checkout / "test.sh"), str(checkout)],
                            capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "Creating .venv ...", f"Installing table-companion[{extras}] into .venv ..."]
    assert (tmp_path / "pip.log").read_text().split()[-1] == f".[{extras}]"
