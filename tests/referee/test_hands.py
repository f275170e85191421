"""Habits of real hands through the real matrix, referee and journal (bench/hands.py on
fewer trials): no healthy sensor named, no real move taken back, no legal chip unsensed."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).parents[2] / "bench"


@pytest.fixture
def hands(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))  # the benches import each other by name
    spec = importlib.util.spec_from_file_location("hands_bench", BENCH / "hands.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("habit", ["straighten_twice", "hesitate", "tap_three_times",
                                   "wrong_cell_twice", "replacement_retried"])
def test_a_habit_of_real_hands_blames_no_sensor_and_keeps_every_move(
        hands: ModuleType, habit: str) -> None:
    found = hands.habit_trials(habit, trials=4, seed=5)
    assert (found["healthy_named"], found["taken_back"], found["unsensed_legal_chips"]) == (
        0, 0, 0), found


def test_select_pressed_as_the_chip_lands_plays_that_cells_replacement(
        hands: ModuleType) -> None:
    """Through the pi40 pins: SELECT 20-100 ms after the put waits for the chip to settle,
    then plays the replacement the put offers."""
    found = hands.select_after_put(delays=(20, 50, 100), trials=3, seed=8)
    assert all(figures == {"trials": 3, "wrong": 0, "not_played": 0}
               for figures in found.values()), found
