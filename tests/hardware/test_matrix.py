"""The reed-switch matrix scanned on a simulated board of gpiozero mock pins."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.board.matrix import STUCK, ReedMatrix, cell_name
from hardware.board.mock import MockBoard
from hardware.events import CellChanged, CellFault, Event
from hardware.pins.clock import ManualClock

ROWS = (7, 8, 9, 10, 11, 12)
COLS = (20, 21, 22, 23, 24, 25)


def rig(rows: tuple[int, ...] = ROWS, cols: tuple[int, ...] = COLS, *, diodes: bool = True,
        **kwargs: object) -> tuple[ReedMatrix, MockBoard, list[Event], ManualClock]:
    factory = MockFactory()
    board = MockBoard(factory, rows, cols, diodes=diodes)
    events: list[Event] = []
    clock = ManualClock()
    matrix = ReedMatrix(rows, cols, factory, events.append, ticks=clock,
                        **kwargs)  # type: ignore[arg-type]
    return matrix, board, events, clock


def scans(matrix: ReedMatrix, clock: ManualClock, count: int) -> list[list[Event]]:
    out = []
    for _ in range(count):
        clock.advance(0.01)
        out.append(matrix.scan())
    return out


def test_the_first_scan_is_the_baseline_and_emits_nothing_on_a_resumed_board() -> None:
    matrix, board, events, clock = rig(start_empty=False)
    board.set({(0, 0), (5, 5), (2, 3)})
    assert matrix.occupied() == frozenset()
    assert matrix.scan() == []
    assert matrix.occupied() == {(0, 0), (5, 5), (2, 3)}
    assert scans(matrix, clock, 5) == [[]] * 5
    assert events == []


def test_a_piece_on_an_empty_start_is_reported_stuck() -> None:
    matrix, board, events, clock = rig()
    board.place(1, 2)
    assert matrix.scan() == [CellFault(1, 2, STUCK)]
    assert STUCK == "stuck: closed at start; lift the piece, or the reed switch is stuck closed"
    board.lift(1, 2)
    assert scans(matrix, clock, 3) == [[], [], [CellChanged(1, 2, False)]]
    assert events == [CellFault(1, 2, STUCK), CellChanged(1, 2, False)]


def test_a_change_is_emitted_once_three_scans_agree() -> None:
    matrix, board, events, clock = rig()
    matrix.scan()
    board.place(2, 1)
    assert scans(matrix, clock, 4) == [[], [], [CellChanged(2, 1, True)], []]
    board.lift(2, 1)
    board.place(4, 4)
    assert scans(matrix, clock, 3) == [[], [], [CellChanged(2, 1, False),
                                                CellChanged(4, 4, True)]]
    assert matrix.occupied() == {(4, 4)}
    assert events == [CellChanged(2, 1, True), CellChanged(2, 1, False), CellChanged(4, 4, True)]


def test_a_flicker_shorter_than_the_debounce_emits_nothing() -> None:
    matrix, board, events, clock = rig(stable_scans=3)
    matrix.scan()
    board.place(3, 3)
    scans(matrix, clock, 2)
    board.lift(3, 3)
    scans(matrix, clock, 10)
    assert events == []
    assert matrix.occupied() == frozenset()


def test_a_chattering_cell_is_reported_once_then_recovers_after_a_quiet_window() -> None:
    matrix, board, events, clock = rig()
    matrix.scan()
    fault = CellFault(0, 5, "chattering: 8 changes within 1 s; check the reed switch, its "
                            "diode and the wiring")
    for flip in range(20):  # flips every other scan: never three scans alike
        board.place(0, 5) if flip % 2 == 0 else board.lift(0, 5)
        scans(matrix, clock, 2)
    assert events == [fault]
    board.place(0, 5)
    quiet = scans(matrix, clock, 110)  # 1.1 s
    assert [e for batch in quiet for e in batch] == [CellChanged(0, 5, True)]
    assert quiet.index([CellChanged(0, 5, True)]) >= 100  # only after a full quiet second
    assert matrix.occupied() == {(0, 5)}


def test_slow_honest_moves_are_not_chatter() -> None:
    matrix, board, events, clock = rig()
    matrix.scan()
    for move in range(12):
        board.place(0, 0) if move % 2 == 0 else board.lift(0, 0)
        scans(matrix, clock, 30)  # 0.3 s per move
    assert events == [CellChanged(0, 0, move % 2 == 0) for move in range(12)]


def test_diodes_prevent_ghosting_and_their_absence_shows_it() -> None:
    corners = {(0, 0), (0, 3), (4, 0)}
    with_diodes, board, _events, _clock = rig()
    board.set(corners)
    with_diodes.scan()
    assert with_diodes.occupied() == corners
    without, board, _events, _clock = rig(diodes=False, start_empty=False)
    board.set(corners)
    without.scan()
    assert without.occupied() == corners | {(4, 3)}  # the phantom fourth corner


@pytest.mark.parametrize(("rows", "cols"), [((7, 8), (20, 21, 22, 23, 24, 25)),
                                            ((7, 8, 9), (20, 21, 22, 23)),
                                            (tuple(range(4, 12)), tuple(range(16, 24)))])
def test_track_and_largest_sizes_see_every_cell(rows: tuple[int, ...],
                                                cols: tuple[int, ...]) -> None:
    matrix, board, events, clock = rig(rows, cols)
    matrix.scan()
    every = {(r, c) for r in range(len(rows)) for c in range(len(cols))}
    board.set(every)
    scans(matrix, clock, 3)
    assert matrix.occupied() == every
    assert len(events) == len(rows) * len(cols)
    assert matrix.read() == [True] * len(every)


def test_sizes_outside_one_to_eight_are_refused() -> None:
    factory = MockFactory()
    with pytest.raises(ValueError, match="1 to 8 rows, not 9"):
        ReedMatrix(tuple(range(4, 13)), (20,), factory, lambda event: None)
    with pytest.raises(ValueError, match="1 to 8 columns, not 0"):
        ReedMatrix((4,), (), factory, lambda event: None)


def test_the_mock_board_must_come_before_the_matrix() -> None:
    factory = MockFactory()
    ReedMatrix(ROWS, COLS, factory, lambda event: None)
    with pytest.raises(ValueError, match="GPIO20 was already made by this factory"):
        MockBoard(factory, ROWS, COLS)


def test_cells_are_named_column_letter_then_row_number() -> None:
    assert [cell_name(0, 0), cell_name(2, 1), cell_name(7, 7)] == ["A1", "B3", "H8"]


cells = st.tuples(st.integers(0, 5), st.integers(0, 5))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.frozensets(cells, max_size=8), st.integers(1, 5)), max_size=8))
def test_settled_changes_are_exactly_the_differences(
        steps: list[tuple[frozenset[tuple[int, int]], int]]) -> None:
    matrix, board, events, clock = rig(start_empty=False, chatter_flips=1000)
    matrix.scan()
    state: frozenset[tuple[int, int]] = frozenset()
    for placed, held in steps:
        board.set(placed)
        scans(matrix, clock, held)
        if held >= 3:  # settled: the events are the difference, in scan order
            expected = [CellChanged(r, c, (r, c) in placed) for r in range(6) for c in range(6)
                        if ((r, c) in placed) != ((r, c) in state)]
            assert events == expected
            assert matrix.occupied() == placed
            state = placed
        events.clear()
        board.set(state)  # back to the settled state before the next step
        scans(matrix, clock, 3)
        assert events == []
