"""Every pin of requirements/pi.lock that a promised Pi installs has a wheel for it on the
package index, with a hash the lock carries: so systemd/install.sh (pip --require-hashes)
never has to compile anything there. A Pi without a wheel would build from source and stop
for want of gcc, swig or Rust, after minutes of trying.

The promised Pis are Python 3.11 (Debian 12 bookworm, glibc 2.36) and 3.13 (Debian 13 trixie,
glibc 2.41) on aarch64 and armv7l. The check reads the index's file list of each pinned
version (one small request each) and matches the wheels' tags against the tags pip accepts
on each Pi, without emulation. It needs the package index: outside CI it is skipped, with a
line that says so, when the index cannot be reached.
"""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.tags import Tag, compatible_tags, cpython_tags
from packaging.utils import parse_wheel_filename

LOCK = Path(__file__).parents[2] / "requirements" / "pi.lock"
INDEX = "https://pypi.org/simple/{name}/"  # the index pip reads, in its JSON form (PEP 691)


@dataclass(frozen=True)
class Target:
    """A Pi the README promises: its Python, its machine, the glibc of its Debian."""

    python: tuple[int, int]
    machine: str
    glibc_minor: int
    system: str

    def __str__(self) -> str:
        return f"CPython {self.python[0]}.{self.python[1]} on {self.machine} ({self.system})"

    def environment(self) -> dict[str, str]:
        """The values environment markers see on this Pi."""
        version = f"{self.python[0]}.{self.python[1]}"
        return {"python_version": version, "python_full_version": f"{version}.0",
                "platform_machine": self.machine, "sys_platform": "linux",
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


def missing_wheels(text: str, targets: list[Target]) -> list[str]:
    """One line per pin and target where pip would find no wheel it may install."""
    locked = pins(text)
    with ThreadPoolExecutor(max_workers=6) as pool:
        files = dict(zip(locked, pool.map(index_wheels, locked), strict=True))
    problems = []
    for target in targets:
        accepted = target.tags()
        for pin in locked:
            if not pin.wanted_on(target):
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
