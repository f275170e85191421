"""The chatter bench's goals on fewer samples: bounce, slides and real moves on mock pins,
and failing cells in whole games."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.events import CellChanged, DiceRolled

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
    through the matrix, the referee and a journal, with players who wait on a fix they
    cannot make and with players who play on: each failure named on the screen within 10 s,
    no game stuck, and the journal holds what the players did."""
    found = bench("failing_cells").failing_cells(trials=2, seed=3)
    for kind, figures in found.items():
        assert figures["reported"] == 2, (kind, figures)
        assert (figures["phantom_actions"], figures["missed_actions"],
                figures["wrong_games"]) == (0, 0, 0), (kind, figures)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.floats(0.1, 1.0), min_size=3, max_size=6), st.floats(0.3, 1.5))
def test_a_switch_failing_slowly_for_a_few_seconds_is_named_within_10_s_and_leaves_no_phantom(
        tmp_path_factory: pytest.TempPathFactory, gaps: list[float], pause: float) -> None:
    """C2 flips by itself 4-7 times, 0.1-1 s apart (a close shorter than 0.12 s never settles),
    as Ann throws an 8 (C2 is one), then rests open or closed: too few changes for the
    matrix's chatter rule, and over too soon for a fix left unmade. Ann puts her chip on E3
    (an 8 too) after ``pause``. Through the real matrix and referee, the journal holds Ann's
    move and no move of C2's, and C2 is named within 10 s of its first flip once any of its
    changes was reported (when none settled, the game never saw it, and it is not)."""
    cells = bench("failing_cells")
    table = cells.Table(tmp_path_factory.mktemp("slow"), random.Random(1))
    game = table.referee.game
    for dice in ((6, 6), (1, 1), (1, 2), (2, 1)):  # the opening: the first player starts
        if game.opening is not None:
            table.referee.handle(DiceRolled(dice, "button"))
    table.referee.handle(DiceRolled((4, 4), "button"))
    thrown = len(game.history)
    start = table.board.clock()
    table.fault = ("chattering", (1, 2), start)
    table.flips = [start + sum(gaps[:n]) for n in range(len(gaps) + 1)]
    table.run(pause)
    table.due = game.parse_action("place E3")
    table.turn()
    table.run(12.0 - pause)
    reported = [event for event in table.board.events
                if isinstance(event, CellChanged) and (event.row, event.col) == (1, 2)]
    if reported:  # else every flip was too brief to settle, and the game never wrong
        assert table.reported_at is not None and table.reported_at - start <= 10.0, gaps
    assert [str(action) for action in game.history[thrown:]] == ["place E3"]
    table.journal.close()
