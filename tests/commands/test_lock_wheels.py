"""Every pin of requirements/pi.lock that a promised Pi installs has a wheel for it on the
package index, with a hash the lock carries: so systemd/install.sh (pip --require-hashes)
never has to compile anything there. A Pi without a wheel would build from source and stop
for want of gcc, swig or Rust, after minutes of trying.

The promised Pis are Python 3.11 (Debian 12 bookworm, glibc 2.36) and 3.13 (Debian 13 trixie,
glibc 2.41) on aarch64 and armv7l. The check reads the index's file list of each pinned
version (one small request each) and matches the wheels' tags against the tags pip accepts
on each Pi, without emulation. It needs the package index: outside CI it is skipped, with a
line that says so, when the index cannot be reached.

A 32-bit system on a 64-bit kernel (Raspberry Pi OS 32-bit on a Pi 3, 4 or 5) takes armv7l
wheels while pip's markers see aarch64: there the lock's markers pick Pillow, cbor2 and (on
3.13) adafruit-lgpio, and only what scripts/distribution.sh has install.sh leave out keeps
pip from compiling.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.tags import Tag, compatible_tags, cpython_tags
from packaging.utils import parse_wheel_filename

REPO = Path(__file__).parents[2]
LOCK = REPO / "requirements" / "pi.lock"
INDEX = "https://pypi.org/simple/{name}/"  # the index pip reads, in its JSON form (PEP 691)


@dataclass(frozen=True)
class Target:
    """A Pi the README promises: its Python, its machine, the glibc of its Debian."""

    python: tuple[int, int]
    machine: str
    glibc_minor: int
    system: str
    kernel: str = ""  # what uname says, when not the machine (a 32-bit system's 64-bit kernel)

    def __str__(self) -> str:
        return f"CPython {self.python[0]}.{self.python[1]} on {self.machine} ({self.system})"

    def environment(self) -> dict[str, str]:
        """The values environment markers see on this Pi."""
        version = f"{self.python[0]}.{self.python[1]}"
        return {"python_version": version, "python_full_version": f"{version}.0",
                "platform_machine": self.kernel or self.machine, "sys_platform": "linux",
                "platform_system": "Linux", "os_name": "posix",
                "implementation_name": "cpython", "platform_python_implementation": "CPython"}

    def tags(self) -> set[Tag]:
        """The wheel tags pip accepts on this Pi: manylinux down from its glibc, and the bare
        linux tag of its machine (lgpio's armv7l wheels have that alone)."""
        platforms = [f"manylinux_2_{minor}_{self.machine}"
                     for minor in range(self.glibc_minor, 16, -1)]
        platforms += [f"manylinux2014_{self.machine}", f"linux_{self.machine}"]
        interpreter = f"cp{self.python[0]}{self.python[1]}"
        return {*cpython_tags(self.python, platforms=platforms),
                *compatible_tags(self.python, interpreter, platforms)}


TARGETS = [
    Target((3, 11), "aarch64", 36, "bookworm 64-bit"),
    Target((3, 11), "armv7l", 36, "bookworm 32-bit"),
    Target((3, 13), "aarch64", 41, "trixie 64-bit"),
    Target((3, 13), "armv7l", 41, "trixie 32-bit"),
]
ON_64_BIT_KERNELS = [
    Target((3, 11), "armv7l", 36, "bookworm 32-bit on a 64-bit kernel", kernel="aarch64"),
    Target((3, 13), "armv7l", 41, "trixie 32-bit on a 64-bit kernel", kernel="aarch64"),
]

# The stand-ins distribution.sh asks on a plain Debian armhf Pi with a 64-bit kernel: nothing
# installed yet, no python3-lgpio in the archive; a Python of the target's version.
ARMHF_ON_64_BIT_KERNEL = {
    "dpkg": "echo armhf", "uname": "echo aarch64", "dpkg-query": "exit 1",
    "apt-cache": "echo '  Candidate: (none)'",
    "python3": 'case $2 in *"(3, 13)"*) [ "$MINOR" -ge 13 ] ;; esac',
}


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    marker: Marker | None
    hashes: frozenset[str]

    def wanted_on(self, target: Target) -> bool:
        return self.marker is None or self.marker.evaluate(target.environment())


def pins(text: str) -> list[Pin]:
    """The lock's requirements: ``name==version [; marker]`` and their ``--hash`` lines."""
    found = []
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        match = re.match(r"([A-Za-z0-9_.\-]+)==([^\s;]+)\s*(?:;\s*([^\\\n]+?))?\s*\\?\n", block)
        if match:
            name, version, marker = match.groups()
            found.append(Pin(name, version, Marker(marker) if marker else None,
                             frozenset(re.findall(r"--hash=sha256:([0-9a-f]{64})", block))))
    return found


def index_wheels(pin: Pin) -> list[tuple[str, str]]:
    """(file name, sha256) of every wheel the index has of the pinned version."""
    request = urllib.request.Request(INDEX.format(name=pin.name),
                                     headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        files = json.load(response)["files"]
    return [(file["filename"], file["hashes"]["sha256"]) for file in files
            if file["filename"].endswith(".whl")
            and str(parse_wheel_filename(file["filename"])[1]) == pin.version]


def from_distribution(target: Target, bin_dir: Path) -> set[str]:
    """The lock's names that install.sh leaves to the distribution on an armhf TARGET, as
    scripts/distribution.sh decides them there."""
    for name, body in ARMHF_ON_64_BIT_KERNEL.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    result = subprocess.run(
        ["bash", "-c", '. scripts/distribution.sh && lock_names_from_distribution python3'],
        cwd=REPO, capture_output=True, text=True, timeout=30, check=True,
        env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}",
             "MINOR": str(target.python[1])})
    return set(result.stdout.split())


def missing_wheels(text: str, targets: list[Target],
                   left_out: dict[Target, set[str]] | None = None) -> list[str]:
    """One line per pin and target where pip would find no wheel it may install; LEFT_OUT:
    the names install.sh does not ask pip for on a target."""
    locked = pins(text)
    with ThreadPoolExecutor(max_workers=6) as pool:
        files = dict(zip(locked, pool.map(index_wheels, locked), strict=True))
    problems = []
    for target in targets:
        accepted = target.tags()
        for pin in locked:
            if not pin.wanted_on(target) or pin.name in (left_out or {}).get(target, set()):
                continue
            wheels = [(name, digest) for name, digest in files[pin]
                      if parse_wheel_filename(name)[3] & accepted]
            if not wheels:
                problems.append(f"{pin.name}=={pin.version}: no wheel for {target}")
            elif not any(digest in pin.hashes for _, digest in wheels):
                problems.append(f"{pin.name}=={pin.version}: the lock has no hash of its wheel "
                                f"for {target} ({wheels[0][0]})")
    return problems


def test_the_lock_parses_names_markers_and_hashes() -> None:
    locked = {pin.name: pin for pin in pins(LOCK.read_text())}
    assert {"gpiozero", "luma-oled", "pillow", "lgpio", "adafruit-lgpio"} <= set(locked)
    assert all(pin.hashes for pin in locked.values())
    assert locked["gpiozero"].marker is None
    armv7l_trixie = TARGETS[3]
    assert not locked["pillow"].wanted_on(armv7l_trixie)  # python3-pil there
    assert not locked["lgpio"].wanted_on(armv7l_trixie)
    assert locked["adafruit-lgpio"].wanted_on(TARGETS[2])
    assert locked["lgpio"].wanted_on(TARGETS[1])


def test_every_promised_pi_finds_a_wheel_of_every_pin() -> None:
    try:
        problems = missing_wheels(LOCK.read_text(), TARGETS)
    except (urllib.error.URLError, TimeoutError) as exc:
        if os.environ.get("TABLE_COMPANION_CI"):
            raise
        pytest.skip(f"the package index cannot be reached ({exc}): the lock's wheels are not "
                    "checked here")
    assert not problems, ("a Pi would have to compile these (run scripts/lock.sh, or take "
                          "the package from the distribution):\n" + "\n".join(problems))


def test_a_32_bit_system_on_a_64_bit_kernel_installs_wheels_only(tmp_path: Path) -> None:
    """The markers alone would have pip compile Pillow and cbor2 there (and adafruit-lgpio on
    3.13); what distribution.sh leaves to apt is exactly what has no armv7l wheel."""
    left_out = {target: from_distribution(target, tmp_path) for target in ON_64_BIT_KERNELS}
    assert left_out == {ON_64_BIT_KERNELS[0]: {"pillow", "cbor2"},
                        ON_64_BIT_KERNELS[1]: {"pillow", "cbor2", "lgpio", "adafruit-lgpio"}}
    try:
        by_markers = missing_wheels(LOCK.read_text(), ON_64_BIT_KERNELS)
        after_apt = missing_wheels(LOCK.read_text(), ON_64_BIT_KERNELS, left_out)
    except (urllib.error.URLError, TimeoutError) as exc:
        if os.environ.get("TABLE_COMPANION_CI"):
            raise
        pytest.skip(f"the package index cannot be reached ({exc}): the lock's wheels are not "
                    "checked here")
    assert {line.split("==")[0] for line in by_markers} == {"pillow", "cbor2", "adafruit-lgpio"}
    assert not after_apt, "\n".join(after_apt)
