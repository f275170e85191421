"""Blame: which changes a hand can make, and when the players are asked or a sensor named."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware_host.referee.blame import Blame, Verdict

C2 = (1, 2)


def test_two_refused_chips_ask_a_third_names_and_a_still_spell_forgets() -> None:
    blame = Blame()
    assert blame.seen(C2, 1, made=False, stray=True) is Verdict.HAND
    assert blame.seen(C2, 2, made=False, stray=False) is Verdict.HAND  # taken away again
    assert blame.seen(C2, 3, made=False, stray=True) is Verdict.ASK
    assert blame.asking == C2
    assert blame.seen(C2, 5, made=False, stray=True) is Verdict.FAILING
    assert blame.asking is None
    assert blame.seen(C2, 1, made=False, stray=True) is Verdict.HAND  # after 8 s still


def test_a_yes_trusts_the_cell_afresh_and_a_move_clears_it() -> None:
    blame = Blame()
    blame.seen(C2, 1, made=False, stray=True)
    assert blame.seen(C2, 3, made=False, stray=True) is Verdict.ASK
    assert blame.answered(True) == C2 and blame.asking is None
    assert blame.seen(C2, 5, made=False, stray=True) is Verdict.HAND
    assert blame.seen(C2, 6, made=True, stray=False) is Verdict.HAND
    assert blame.seen(C2, 7, made=False, stray=True) is Verdict.HAND


def test_an_offer_strays_only_the_second_time_or_after_a_move_taken_back() -> None:
    blame = Blame()
    assert blame.seen(C2, 2, made=False, stray=False, offered=True) is Verdict.HAND
    assert blame.seen(C2, 4, made=False, stray=False, offered=True) is Verdict.HAND
    assert blame.seen(C2, 5, made=False, stray=False, offered=True) is Verdict.ASK
    other = Blame()
    other.taken_back(C2)
    assert other.seen(C2, 3, made=False, stray=False, offered=True) is Verdict.ASK


def test_a_close_too_brief_for_a_hand_names_a_cell_that_strayed_or_keeps_changing() -> None:
    blame = Blame()
    assert not blame.brief(C2, 3)
    assert blame.brief(C2, 4)
    blame.seen(C2, 2, made=False, stray=True)
    assert blame.brief(C2, 2)


@given(st.lists(st.tuples(st.booleans(), st.integers(2, 12)), max_size=30))
def test_changes_a_hand_makes_never_name_a_sensor_nor_ask(
        changes: list[tuple[bool, int]]) -> None:
    """Moves, offers and changes that stray from nothing (a chip lifted and put back,
    straightened, tapped), however many and however often the cell changed by itself."""
    blame = Blame()
    for made, alone in changes:
        assert blame.seen(C2, alone, made=made, stray=False) is Verdict.HAND
    assert blame.asking is None


def test_a_move_taken_back_from_a_cell_that_kept_changing_asks() -> None:
    blame = Blame()
    blame.seen(C2, 4, made=True, stray=False)
    assert blame.taken_back(C2) is Verdict.ASK and blame.asking == C2
    calm = Blame()
    calm.seen(C2, 1, made=True, stray=False)
    assert calm.taken_back(C2) is Verdict.HAND


def test_a_chip_lifted_by_itself_a_fourth_time_with_no_move_between_asks() -> None:
    """Straightened twice, tapped three times: a hand; a fourth lift: ambiguous."""
    blame = Blame()
    blame.seen(C2, 1, made=True, stray=False)
    for alone in (2, 4, 6):
        assert blame.seen(C2, alone, made=False, stray=False, lifted=True) is Verdict.HAND
    assert blame.seen(C2, 8, made=False, stray=False, lifted=True) is Verdict.ASK
