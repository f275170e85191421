"""The chatter bench's goals on fewer samples: bounce, slides and real moves on mock pins,
and failing cells in whole games."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).parents[2] / "bench"


def bench(name: str = "chatter") -> ModuleType:
    path = BENCH / f"{name}.py"
    spec = importlib.util.spec_from_file_location("chatter_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def bench_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """The benches import each other by name, as when run from their folder."""
    monkeypatch.syspath_prepend(str(BENCH))


def test_no_burst_of_chatter_up_to_30_ms_becomes_a_change_or_a_fault() -> None:
    chatter = bench()
    assert chatter.measured(chatter.chatter_bursts, 500, 11) == {
        "bursts": 500, "phantom": 0, "chatter_faults": 0}


def test_a_piece_slid_across_up_to_three_cells_is_one_lift_and_one_place() -> None:
    chatter = bench()
    assert chatter.measured(chatter.slides, 300, 12) == {
        "slides": 300, "phantom": 0, "missed": 0}


def test_real_moves_on_bouncing_switches_are_all_seen_within_150_ms() -> None:
    chatter = bench()
    found = chatter.measured(chatter.real_moves, 250, 13)
    assert (found["missed"], found["wrong"]) == (0, 0)
    assert min(found["kinds"].values()) > 40  # every kind of move was made
    assert found["latency_ms"]["max"] <= 150


def test_real_hands_make_no_phantom_and_miss_nothing_at_rest_or_busy() -> None:
    """Bounces, slides over neighbours, wrong cells first, swaps, two hands, pauses of up
    to 10 s: every change made is reported, none that was not, within 150 ms of the last
    magnet coming to rest, whether the table was still before or not."""
    chatter = bench()
    found = chatter.measured(chatter.hands, 400, 14)
    assert (found["phantom"], found["missed"], found["wrong_board_cells"]) == (0, 0, 0)
    assert found["kinds"]["swap_lift_first"] > 50 and found["kinds"]["move"] > 50
    for when in ("at_rest", "busy"):
        assert found["latency_ms"][when]["max"] <= 150, found["latency_ms"]


def test_a_failing_cell_in_a_game_is_named_within_10_s_and_leaves_no_phantom() -> None:
    """Two games for each way a cell fails (chattering, stuck closed, stuck open), played
    through the matrix, the referee and a journal: each failure named on the screen within
    10 s, no game stuck, and the journal holds what the players did."""
    found = bench("failing_cells").failing_cells(trials=2, seed=3)
    for kind, figures in found.items():
        assert figures["reported"] == 2, (kind, figures)
        assert (figures["phantom_actions"], figures["missed_actions"],
                figures["wrong_games"]) == (0, 0, 0), (kind, figures)
