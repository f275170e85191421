"""requirements/pi.lock, what systemd/install.sh installs, still fits pyproject.toml: every
dependency (and the [pi] extra, and requirements/pi.in) is pinned to a version it allows,
and every pin carries hashes, as pip --require-hashes needs."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).parents[2]
LOCK = ROOT / "requirements" / "pi.lock"
REGENERATE = "out of date: run scripts/lock.sh"


def locked() -> dict[str, tuple[str, int]]:
    """Package -> (pinned version, number of hashes)."""
    pins: dict[str, tuple[str, int]] = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", LOCK.read_text()):
        match = re.match(r"([A-Za-z0-9_.\-]+)==(\S+)", block)
        if match:
            pins[canonicalize_name(match.group(1))] = (match.group(2),
                                                       block.count("--hash=sha256:"))
    return pins


def wanted() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lines = [*project["dependencies"], *project["optional-dependencies"]["pi"]]
    extra = (ROOT / "requirements" / "pi.in").read_text().splitlines()
    lines += [line for line in extra if line.strip() and not line.startswith("#")]
    return [Requirement(line) for line in lines]


def test_every_dependency_is_pinned_to_a_version_pyproject_allows() -> None:
    pins = locked()
    for requirement in wanted():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not in the lock; {REGENERATE}"
        version, _ = pins[name]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"the lock pins {name}=={version}, but pyproject wants {requirement}; {REGENERATE}")


def test_every_pin_has_hashes() -> None:
    pins = locked()
    assert len(pins) >= len(wanted())
    assert all(hashes > 0 for _, hashes in pins.values()), pins
