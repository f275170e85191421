"""The throw assembler: many dice's reports become one throw, or a clear word of why not."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.dice.pixels import Advertisement, RollState, decode
from hardware.dice.throws import ThrowAssembler
from hardware.events import DeviceStatus, DiceRolled, Event

DICE = ("A1", "B2", "C3")


def report(state: RollState, face: int = 1, battery: int = 80, charging: bool = False
           ) -> Advertisement:
    return decode(bytes([6, 0x21, state, face - 1, battery | charging << 7]))


class Table:
    """An assembler on a fake clock; ``throw`` makes dice go through a whole roll."""

    def __init__(self, dice: tuple[str, ...] = DICE, count: int = 3) -> None:
        self.now = 0.0
        self.dice = ThrowAssembler(dice, count, self.now)
        self.told: list[Event] = []

    def hear(self, die: str, state: RollState, face: int = 1, **kw: object) -> list[Event]:
        got = self.dice.heard(die, report(state, face, **kw), self.now)  # type: ignore[arg-type]
        self.told += got
        return got

    def wait(self, seconds: float) -> list[Event]:
        self.now += seconds
        got = self.dice.tick(self.now)
        self.told += got
        return got

    def throw(self, faces: dict[str, int]) -> list[Event]:
        for die in faces:
            self.hear(die, RollState.HANDLING)
        self.now += 0.2
        for die in faces:
            self.hear(die, RollState.ROLLING)
        self.now += 0.2
        got: list[Event] = []
        for die, face in faces.items():
            got += self.hear(die, RollState.ROLLED, face)
            got += self.hear(die, RollState.ROLLED, face)  # each state is advertised again
            self.now += 0.1
        return got

    def messages(self) -> list[str]:
        return [event.message for event in self.told if isinstance(event, DeviceStatus)]


def test_three_dice_landing_make_one_throw_in_the_named_order() -> None:
    table = Table()
    assert table.throw({"C3": 6, "A1": 2, "B2": 4}) == [DiceRolled((2, 4, 6), "pixels")]
    assert table.throw({"B2": 1, "A1": 1, "C3": 5}) == [DiceRolled((1, 1, 5), "pixels")]
    assert table.messages() == []


def test_on_face_after_handling_counts_as_landed() -> None:
    table = Table(count=1)
    table.hear("B2", RollState.HANDLING)
    assert table.hear("B2", RollState.ON_FACE, 3) == [DiceRolled((3,), "pixels")]


def test_resting_dice_are_a_baseline_not_a_throw() -> None:
    table = Table()
    for die in DICE:
        assert table.hear(die, RollState.ROLLED, 4) == []
        assert table.hear(die, RollState.ON_FACE, 4) == []
    assert table.wait(1.0) == []


def test_a_face_changed_unheard_moves_the_die() -> None:
    """The radio may miss a short roll's reports: resting on another face is a throw too."""
    table = Table(count=1)
    table.hear("A1", RollState.ROLLED, 2)
    assert table.hear("A1", RollState.ROLLED, 5) == [DiceRolled((5,), "pixels")]


def test_a_throw_of_fewer_dice_when_the_game_holds_some() -> None:
    table = Table()
    table.dice.count = 2
    assert table.throw({"A1": 3, "C3": 3}) == [DiceRolled((3, 3), "pixels")]


def test_too_few_dice_landing_is_no_throw_and_says_so() -> None:
    table = Table()
    assert table.throw({"A1": 3, "B2": 4}) == []
    for _ in range(7):  # resting dice keep reporting
        table.hear("A1", RollState.ROLLED, 3)
        table.hear("B2", RollState.ROLLED, 4)
        table.hear("C3", RollState.ON_FACE, 1)
        assert table.wait(0.5) == []
    assert table.wait(0.5) == [DeviceStatus(
        "pixels", True, "2 of 3 dice came to rest: no throw taken, throw 3 again")]
    assert table.throw({"A1": 1, "B2": 2, "C3": 3}) == [DiceRolled((1, 2, 3), "pixels")]


def test_too_many_dice_moving_is_no_throw() -> None:
    table = Table()
    table.dice.count = 2
    assert table.throw({"A1": 3, "B2": 4, "C3": 5}) == [DeviceStatus(
        "pixels", True, "3 dice moved, a throw takes 2: no throw taken, throw 2 again")]


def test_a_crooked_die_is_asked_again_and_the_throw_waits_for_it() -> None:
    table = Table()
    table.throw({"A1": 6, "B2": 6})
    table.hear("C3", RollState.ROLLING)
    assert table.hear("C3", RollState.CROOKED, 2) == [DeviceStatus(
        "pixels", True, "die 3 (C3) landed crooked: roll it again")]
    assert table.hear("C3", RollState.CROOKED, 2) == []  # asked once
    for _ in range(20):  # the settle time passes while it is asked for: still waiting
        table.hear("A1", RollState.ROLLED, 6)
        table.hear("B2", RollState.ROLLED, 6)
        table.hear("C3", RollState.CROOKED, 2)
        assert table.wait(0.5) == []
    table.hear("C3", RollState.HANDLING)
    table.hear("C3", RollState.ROLLING)
    assert table.hear("C3", RollState.ROLLED, 1) == [DiceRolled((6, 6, 1), "pixels")]


def test_a_die_gone_quiet_in_a_throw_drops_it_and_is_named_within_five_seconds() -> None:
    table = Table()
    table.throw({"A1": 2, "B2": 2})
    table.hear("C3", RollState.ROLLING)
    told: list[Event] = []
    for _ in range(50):  # the others keep talking, C3 is never heard again
        table.hear("A1", RollState.ROLLED, 2)
        table.hear("B2", RollState.ROLLED, 2)
        told += table.wait(0.1)
        if told:
            break
    assert table.now <= 5.0
    assert told == [DeviceStatus("pixels", True, "die 3 (C3) went quiet in the throw: no "
                                 "throw taken, throw again")]
    assert table.hear("C3", RollState.ROLLED, 4) == []  # late: no throw of it now


def test_other_tables_dice_are_ignored() -> None:
    table = Table(count=1)
    for state in RollState:
        assert table.hear("FF00FF00", state, 1, battery=3) == []
    assert table.throw({"B2": 5}) == [DiceRolled((5,), "pixels")]


def test_low_battery_is_told_once_and_again_after_a_charge() -> None:
    table = Table()
    assert table.hear("B2", RollState.ON_FACE, battery=40) == []
    low = [DeviceStatus("pixels", True, "die 2 (B2) battery at 12%: charge it soon")]
    assert table.hear("B2", RollState.ON_FACE, battery=12) == low
    assert table.hear("B2", RollState.ON_FACE, battery=11) == []
    assert table.hear("B2", RollState.ON_FACE, battery=16) == []  # a reading that wavers
    assert table.hear("B2", RollState.ON_FACE, battery=14) == []  # is not told again
    assert table.hear("B2", RollState.ON_FACE, battery=11, charging=True) == []
    assert table.hear("B2", RollState.ON_FACE, battery=12) == low
    assert table.hear("B2", RollState.ON_FACE, battery=21) == []
    assert table.hear("B2", RollState.ON_FACE, battery=15) == [
        DeviceStatus("pixels", True, "die 2 (B2) battery at 15%: charge it soon")]


def test_a_die_not_heard_is_named_once_until_heard() -> None:
    table = Table()
    for _ in range(40):
        table.hear("A1", RollState.ON_FACE)
        table.hear("B2", RollState.ON_FACE)
        table.wait(1.0)
    assert table.messages() == [
        "die 3 (C3) not heard for 30 s: is it awake and near? (a phone connected to it "
        "keeps it silent)"]
    assert table.dice.missing() == ["C3"]
    table.hear("C3", RollState.ON_FACE)
    assert table.dice.missing() == []


def test_due_says_when_the_next_tick_matters() -> None:
    table = Table()
    assert table.dice.due() == 30.0
    table.hear("A1", RollState.ROLLING)
    assert table.dice.due() == pytest.approx(2.0)


def test_dice_must_be_named_once() -> None:
    with pytest.raises(ValueError, match="named once"):
        ThrowAssembler(("A1", "A1"), 2, 0.0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from((*DICE, "ZZ")), st.sampled_from(list(RollState)),
                          st.integers(1, 6), st.floats(0, 1.5)), max_size=80))
def test_any_reports_give_only_throws_of_the_count(
        reports: list[tuple[str, RollState, int, float]]) -> None:
    table = Table(count=2)
    for die, state, face, pause in reports:
        table.wait(pause)
        table.hear(die, state, face)
    throws = [event for event in table.told if isinstance(event, DiceRolled)]
    assert all(len(throw.dice) == 2 and set(throw.dice) <= set(range(1, 7)) for throw in throws)
