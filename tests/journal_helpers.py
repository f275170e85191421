"""Shared by the journal and export tests: a clock that moves on, and short games of High Die."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from test_core import HighDie

import games
from firmware_host.journal import Journal

CET = timezone(timedelta(hours=1))


class FakeClock:
    """Starts at 20:00 on 21 November 2026 (CET) and moves on a minute per reading."""

    def __init__(self, start: datetime = datetime(2026, 11, 21, 20, 0, tzinfo=CET)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


def new_game(target: int = 5, names: tuple[str, ...] = ("Ann", "Ben")) -> HighDie:
    return HighDie.new(names=names, target=target)


def play(journal: Journal, game: HighDie, *actions: str) -> None:
    for action in actions:
        journal.apply(game, action)


def register_highdie(monkeypatch: pytest.MonkeyPatch) -> None:
    """Resume goes through games.from_json, so the test game must be findable by name."""
    monkeypatch.setitem(games.REGISTRY, "highdie", "test_core:HighDie")
