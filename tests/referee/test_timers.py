"""Each timer on its own: when it is due, what it changes, and that it rests when idle."""

from __future__ import annotations

import pytest

from firmware_host.referee.timers import (
    PAGE_S,
    ROW_CHARS,
    SCROLL_S,
    TUMBLE_FRAME_S,
    UNMADE_FIX_S,
    Pager,
    Scroller,
    Timers,
    Tumble,
    UnmadeFixes,
)


def animation(final: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [tuple(9 for _ in final), final]


def test_a_throw_tumbles_into_its_places_then_lies_still() -> None:
    tumble = Tumble()
    tumble.throw((1, 2, 3, 4, 5), [1, 3], (6, 6), animation)
    assert tumble.due is None and tumble.rolling is None  # the throw's own frame: no faces
    assert tumble.on(10.0) and tumble.rolling == (1, 9, 3, 9, 5)
    assert tumble.due == pytest.approx(10.0 + TUMBLE_FRAME_S)
    assert not tumble.on(10.01)  # not yet due
    assert tumble.on(10.06) and tumble.rolling == (1, 6, 3, 6, 5)
    assert tumble.on(10.13) and tumble.rolling is None  # landed: the game's own dice show
    assert not tumble.on(10.3) and tumble.due is None


def test_a_throw_without_places_is_the_whole_row_and_a_new_throw_lands_the_last() -> None:
    tumble = Tumble()
    tumble.throw((), [], (3, 4), animation)
    assert tumble.on(0.0) and tumble.rolling == (9, 9)
    tumble.land()
    assert tumble.rolling is None and not tumble.on(0.1) and tumble.due is None


def test_a_long_line_scrolls_once_an_event_has_shown_it() -> None:
    line, moved = ["x" * (ROW_CHARS + 1)], []
    scroller = Scroller(lambda: line[0], lambda: moved.append(True))
    assert not scroller.on(0.0)  # nothing known before the first event
    scroller.line_changed()
    assert not scroller.on(1.0) and scroller.due == pytest.approx(1.0 + SCROLL_S)
    line[0] = "asked only once an event"
    assert not scroller.on(1.1) and not moved
    assert scroller.on(1.0 + SCROLL_S) and moved == [True]
    line[0] = "x" * ROW_CHARS
    scroller.line_changed()
    assert not scroller.on(2.0) and scroller.due is None and moved == [True]


def test_a_piece_the_players_were_not_placing_is_never_blamed_on_its_sensor() -> None:
    unseen = UnmadeFixes()  # the screen asks for the piece; nobody has touched the board
    assert not unseen.on(0.0, frozenset({(0, 0)})) and unseen.due is None
    assert not unseen.on(1000.0, frozenset({(0, 0)})) and unseen.suspected == frozenset()


def test_a_piece_unseen_once_the_board_is_still_after_a_change_is_suspected() -> None:
    unseen = UnmadeFixes()
    unseen.on(0.0, frozenset({(0, 0)}))
    unseen.worked()  # the players lift a piece: they are working the board
    assert not unseen.on(5.0, frozenset({(0, 0), (1, 1)}))
    assert unseen.due == 5.0 + UNMADE_FIX_S
    unseen.worked()  # and set another down: the wait starts again
    assert not unseen.on(10.0, frozenset({(0, 0), (1, 1)}))
    assert not unseen.on(10.0 + UNMADE_FIX_S - 0.1, frozenset({(0, 0), (1, 1)}))
    assert unseen.on(10.0 + UNMADE_FIX_S, frozenset({(0, 0), (1, 1)}))
    assert unseen.suspected == {(0, 0), (1, 1)} and unseen.due is None
    assert not unseen.on(200.0, frozenset({(0, 0), (1, 1)}))  # said once
    assert unseen.on(201.0, frozenset({(1, 1)})) and unseen.suspected == {(1, 1)}
    assert unseen.on(202.0, frozenset()) and unseen.suspected == frozenset()
    assert not unseen.on(203.0, frozenset({(0, 0)}))  # gone again, not yet worked on


def test_the_timers_are_moved_on_in_turn_and_wait_for_the_soonest() -> None:
    timers = Timers(lambda: None, lambda: None, lambda: "long", lambda: None,
                    lambda *waiting: True)
    assert not timers.on(0.0) and timers.due() == PAGE_S  # the message's next page
    timers.tumble.throw((), [], (1,), animation)
    assert timers.on(1.0) and timers.due() == pytest.approx(1.0 + TUMBLE_FRAME_S)


def test_a_message_turns_its_pages_and_a_new_one_starts_at_its_first() -> None:
    shown: list[str | None] = [None]
    pager = Pager(lambda: shown[0])
    assert not pager.on(0.0) and pager.due is None
    shown[0] = "long"
    assert not pager.on(1.0) and pager.due == 1.0 + PAGE_S
    assert pager.page_of("long") == 0 and not pager.on(2.0)
    assert pager.on(1.0 + PAGE_S) and pager.page_of("long") == 1
    assert pager.page_of("another") == 0  # a message just come, before the next tick
    shown[0] = "another"
    assert not pager.on(6.0) and pager.page_of("another") == 0
    shown[0] = None
    assert not pager.on(7.0) and pager.due is None
