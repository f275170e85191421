"""Fixtures for the game-night tests (tests/night/, tests/hub/): a real broker and hub, torn
down whatever happens."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from night_parts import (
    CHROMIUM,
    HOST_USER,
    HUB_USER,
    MOSQUITTO,
    MOSQUITTO_PASSWD,
    Broker,
    Hub,
    Table,
    missing,
)

TABLE_NAMES = ("Table 1", "Table 2", "Table 3", "Table 4")


@pytest.fixture
def readers() -> tuple[str, ...]:
    """Logins besides the night's that the broker lets read every topic: none, unless a
    test module that listens to the whole night overrides this."""
    return ()


@pytest.fixture
def broker(tmp_path: Path, readers: tuple[str, ...]) -> Iterator[Broker]:
    if MOSQUITTO is None or MOSQUITTO_PASSWD is None:
        missing("mosquitto")
    folder = tmp_path / "broker"
    folder.mkdir()
    broker = Broker(folder)
    broker.write_config([HUB_USER, HOST_USER,
                         *(name.lower().replace(" ", "-") for name in TABLE_NAMES)], readers)
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture
def hub(tmp_path: Path, broker: Broker) -> Iterator[Hub]:
    hub = Hub(tmp_path, broker).start()
    yield hub
    if hub.tool is not None:
        hub.tool.stop()


@pytest.fixture
def tables(tmp_path: Path, broker: Broker) -> Iterator[list[Table]]:
    """Three tables with their own players, not yet publishing."""
    players = (("Ann", "Ben"), ("Cat", "<script>alert(1)</script>"), ("Eve", "Fay"))
    made = [Table(tmp_path / f"table{n}", TABLE_NAMES[n], players[n], broker).write()
            for n in range(3)]
    yield made
    for table in made:
        if table.publisher is not None:
            table.publisher.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium, driven by Playwright."""
    if CHROMIUM is None:
        missing("chromium-headless-shell")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("playwright", "test.sh leaves it out on 32-bit ARM: greenlet has no wheel")
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()
