"""Pixels dice end to end: advertisements through the mock scanner at bleak's interface, the
reader's thread, the throw assembler and the referee, into the journal.

The mock dice's scanner is handed to the reader as bleak's ``BleakScanner`` would be: the
reader starts it in its own thread, and the dice on the table (and another table's) advertise
to every scanner started. The clock is a fake one; only the reader's thread is real.
"""

from __future__ import annotations

import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from firmware_host.config import Config, DiceConfig, GameConfig
from firmware_host.journal import Journal
from firmware_host.loop import DeviceLane
from firmware_host.pixels_device import PixelsDice
from firmware_host.referee import Referee
from firmware_host.views import GameView, View
from games.centennial import Centennial
from games.core import GameState, Phase
from games.dalmatian import Dalmatian
from hardware.dice.mock import MockDice
from hardware.dice.pixels import RollState
from hardware.dice.reader import Detection, MissingBleakError, PixelsReader, bleak_scanners
from hardware.display.protocol import new_frame
from hardware.events import Control, ControlPressed, DeviceStatus, DiceRolled, Event

OURS = ("0000A001", "0000A002", "0000A003", "0000A004", "0000A005")
THEIRS = ("0000B001", "0000B002", "0000B003")
STARTED = 2.0  # seconds a fake scanner may take to be started by the reader's thread


class Roller:
    """What the referee tells how many dice a throw takes (the dice button, in the daemon)."""

    def __init__(self) -> None:
        self.count = 5

    def tumble(self, final: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        return ()


def blank(view: View) -> Image.Image:
    return new_frame()


class PixelsTable:
    """A referee fed by Pixels dice through the reader and the lane, on a fake clock."""

    def __init__(self, air: MockDice, referee: Referee, roller: Roller, now: float = 0.0) -> None:
        self.air, self.referee, self.roller = air, referee, roller
        self.now = now
        self.lane = DeviceLane(limit=10_000)
        self.reader = PixelsReader(air.scanner, OURS)
        self.reader.start()
        assert air.started.wait(STARTED), "the reader never started its scanner"
        self.dice = PixelsDice(DiceConfig("pixels", OURS, 5), self.reader, self.lane,
                               lambda: roller.count, self.now)
        self.events: list[Event] = []
        self.rng = random.Random(36)

    def close(self) -> None:
        self.reader.close()

    def run(self, seconds: float) -> None:
        """``seconds`` pass, the loop polling the dice and handing the referee their events."""
        end = self.now + seconds
        while True:
            self.air.chatter()
            self.dice.poll(self.now)
            while (event := self.lane.take()) is not None:
                self.events.append(event)
                self.referee.handle(event)
            if self.now >= end:
                return
            self.now = min(end, self.now + 0.1)

    def throw(self, faces: dict[str, int], *, crooked: str | None = None) -> None:
        """The dice in ``faces`` picked up, thrown and landed, another table throwing too."""
        for die in faces:
            self.air.advertise(die, RollState.HANDLING)
        self.run(0.3)
        for die in (*faces, *THEIRS):
            self.air.advertise(die, RollState.ROLLING, self.rng.randint(1, 6))
        self.run(0.5)
        for die, face in faces.items():
            if die == crooked:
                self.air.advertise(die, RollState.CROOKED, 3)
                self.run(1.0)
                self.air.advertise(die, RollState.ROLLING)
                self.run(0.3)
            self.air.advertise(die, RollState.ROLLED, face)
            self.air.advertise(die, RollState.ROLLED, face)
            self.run(0.1)
        for die in THEIRS:
            self.air.advertise(die, RollState.ROLLED, self.rng.randint(1, 6))
        self.run(0.2)

    def messages(self) -> list[str]:
        return [e.message for e in self.events if isinstance(e, DeviceStatus)]

    def throws(self) -> list[tuple[int, ...]]:
        return [e.dice for e in self.events if isinstance(e, DiceRolled)]


@pytest.fixture
def air() -> MockDice:
    return MockDice((*OURS, *THEIRS))  # every die lies on a table, saying so


def journaled_sources(path: Path) -> list[str | None]:
    db = sqlite3.connect(path)
    rows = db.execute("SELECT source FROM actions WHERE action LIKE 'roll %' ORDER BY game_id, "
                      "seq").fetchall()
    db.close()
    return [source for (source,) in rows]


def play_to_the_end(table: PixelsTable, game: GameState[Any], *, crooked_at: int,
                    quiet_at: int) -> list[tuple[int, ...]]:
    """Throw the dice the referee asks for, and take the highlighted choice otherwise, until
    the game is over; the ``crooked_at``-th throw has a crooked die, the ``quiet_at``-th a die
    that goes quiet (then thrown again). Returns the throws thrown."""
    thrown: list[tuple[int, ...]] = []
    for _ in range(2_000):
        if game.is_over:
            return thrown
        if game.phase is Phase.MOVE and table.rng.random() < 0.6:
            table.referee.handle(ControlPressed(Control.SELECT))
            table.referee.pages.clear()
            continue
        dice = OURS[:table.roller.count]
        faces = {die: table.rng.randint(1, 6) for die in dice}
        if len(thrown) == quiet_at:
            moves = len(game.history)
            for die in dice:
                table.air.advertise(die, RollState.ROLLING)
            table.run(0.3)
            table.air.silent.add(dice[0])  # never heard again this throw
            for die in dice[1:]:
                table.air.advertise(die, RollState.ROLLED, 4)
            table.run(4.0)
            assert len(game.history) == moves  # no throw of fewer dice
            table.air.silent.clear()
            assert f"die 1 ({OURS[0]}) went quiet in the throw" in table.messages()[-1]
            said = table.referee.view()
            assert isinstance(said, GameView) and "went quiet" in (said.message or "")
            table.referee.handle(ControlPressed(Control.SELECT))  # read: cleared
        table.throw(faces, crooked=dice[-1] if len(thrown) == crooked_at else None)
        thrown.append(tuple(faces.values()))
        assert table.throws()[-1] == thrown[-1]
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("cls", "options"), [(Dalmatian, {"rounds": 1}), (Centennial, {})])
def test_whole_games_are_played_with_pixels_dice(
        air: MockDice, tmp_path: Path, cls: type[GameState[Any]], options: dict[str, Any]) -> None:
    path = tmp_path / "journal.sqlite3"
    config = Config(players=("Ann", "Ben"), game=GameConfig(cls.NAME, options))
    roller = Roller()
    with Journal.open(path) as journal:
        game = cls.new(2, ["Ann", "Ben"], **options)
        journal.start(game)
        referee = Referee(config, journal, game=game, render=blank, roller=roller)
        table = PixelsTable(air, referee, roller)
        try:
            thrown = play_to_the_end(table, game, crooked_at=2, quiet_at=4)
        finally:
            table.close()
    assert table.throws() == thrown  # none lost, none doubled, none of the other table's
    crooked, quiet = table.messages()
    assert crooked.endswith("landed crooked: roll it again") and crooked.startswith("die ")
    assert quiet == (f"die 1 ({OURS[0]}) went quiet in the throw: no throw taken, throw again")
    assert journaled_sources(path) == ["pixels"] * len(thrown)
    assert air.listening == []  # the scan was stopped


def test_a_thousand_throws_arrive_once_each(air: MockDice, tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        game = Dalmatian.new(2, ["Ann", "Ben"])
        referee = Referee(Config(players=("Ann", "Ben")), journal, game=game, render=blank)
        roller = Roller()
        table = PixelsTable(air, referee, roller)
        table.referee = _Recorder()  # type: ignore[assignment]
        try:
            sent = []
            for n in range(1_000):
                roller.count = 5 if n % 3 else 2
                faces = {die: table.rng.randint(1, 6) for die in OURS[:roller.count]}
                table.throw(faces)
                sent.append(tuple(faces.values()))
        finally:
            table.close()
    assert table.throws() == sent
    assert table.messages() == []


class _Recorder:
    def handle(self, event: Event) -> None:
        pass


def test_without_bleak_the_reason_and_the_fix_are_said(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "bleak", None)
    with pytest.raises(MissingBleakError, match=r"^Pixels dice need bleak: pip install "
                       r"'table-companion\[pixels\]'"):
        bleak_scanners()


def test_a_scan_that_fails_is_told_once_and_retried(air: MockDice) -> None:
    failures = iter([OSError("org.bluez.Error.NotReady"), OSError("org.bluez.Error.NotReady")])

    def flaky(detected: Detection) -> Any:
        error = next(failures, None)
        if error is not None:
            raise error
        return air.scanner(detected)

    from hardware.backoff import Backoff
    reader = PixelsReader(flaky, OURS, backoff=Backoff(first=0.01, ceiling=0.01))
    reader.start()
    try:
        assert air.started.wait(STARTED)
    finally:
        reader.close()
    assert reader.problems() == [
        "Bluetooth scan failed (OSError: org.bluez.Error.NotReady); is bluetoothd running "
        "and the adapter on? retrying", "Bluetooth scan running again"]


