"""The simulator's Pixels dice: key t throws the mock dice, which the same reader and throw
assembler as a Pi's read, a crooked die now and then rolled again."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_host.cli import main
from firmware_host.loop import DeviceLane
from firmware_host.pixels_device import PixelsDice
from firmware_host.sim.keys import Keyboard
from firmware_host.sim.pixels import MOCK_DICE, SIM_DICE, PixelsHand
from hardware.controls.mock_table import MockTable
from hardware.dice.mock import MockDice
from hardware.dice.reader import PixelsReader
from hardware.events import DeviceStatus, DiceRolled, Event
from hardware.wiring.pinmap import load_pin_map

MAPS = ("pi40", "pi40-buttons", "pi40-spi", "pi40-track")


def thrown(seed: int, count: int = 5, seconds: float = 6.0) -> tuple[str, list[Event]]:
    """What the hand says of one throw from ``seed``, and what the table then hears."""
    dice = MockDice(MOCK_DICE, rng=random.Random(seed))
    reader = PixelsReader(dice.scanner, MOCK_DICE)
    reader.start()
    assert dice.started.wait(2.0)
    lane = DeviceLane(limit=100)
    table = PixelsDice(SIM_DICE, reader, lane, lambda: count, 0.0)
    hand = PixelsHand(dice, lambda: count, random.Random(seed))
    said = hand.throw(0.0)
    assert hand.throw(0.1) == "the Pixels dice are still rolling"
    heard: list[Event] = []
    try:
        for step in range(round(seconds / 0.05)):
            dice.poll(step * 0.05)
            table.poll(step * 0.05)
            while (event := lane.take()) is not None:
                heard.append(event)
    finally:
        reader.close()
    return said, heard


def faces_of(said: str) -> tuple[int, ...]:
    return tuple(int(face) for face in said.split(": ")[1].split(";")[0].split("-"))


def test_a_throw_of_the_mock_dice_is_read_as_thrown() -> None:
    said, heard = thrown(seed=1)
    assert said.startswith("Pixels dice thrown: ") and "crooked" not in said
    assert heard == [DiceRolled(faces_of(said), "pixels")]


def test_a_crooked_die_is_asked_for_then_rolled_again() -> None:
    seed = next(s for s in range(200)
                if "crooked" in PixelsHand(MockDice(), lambda: 3, random.Random(s)).throw(0.0))
    said, heard = thrown(seed, count=3)
    assert "lands crooked, rolled again" in said, said
    die = int(said.split("; die ")[1].split(" ")[0])
    assert heard == [
        DeviceStatus("pixels", True, f"die {die} ({MOCK_DICE[die - 1]}) landed crooked: roll "
                                     "it again"),
        DiceRolled(faces_of(said), "pixels")]


@pytest.mark.parametrize("name", MAPS)
def test_key_t_throws_and_the_help_names_it_within_80_columns(name: str) -> None:
    pins = load_pin_map(name)
    factory = MockFactory()
    try:
        table = MockTable(pins, factory)
        typed = ["t"]
        keyboard = Keyboard(table, pins, lambda event: None, lambda: typed.pop() if typed else "",
                            quit=lambda: None, pixels=lambda now: f"thrown at {now}")
        assert len(keyboard.help()) <= 80 and "t dice" in keyboard.help()
        keyboard.poll(12.5)
        assert keyboard.status == "thrown at 12.5"
        keyboard.pixels, typed = None, ["t"]
        keyboard.poll(13.0)
        assert keyboard.status == "no Pixels dice here: start the simulator with --pixels"
        assert "t dice" not in keyboard.help()
    finally:
        factory.close()


def test_pixels_play_along_with_keys_only(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["sim", "--pixels", "--scenario", "demo", "--out", str(tmp_path)])
    assert stopped.value.code == 2
    assert "--pixels plays along with keys in a terminal" in capsys.readouterr().err
