"""Counted nouns read as a person would write them."""

from __future__ import annotations

from games.words import count


def test_one_is_singular_and_dice_are_dice() -> None:
    assert count(1, "die") == "1 die"
    assert count(2, "die") == "2 dice"
    assert count(0, "event") == "0 events"
    assert count(1, "event") == "1 event"
    assert count(3, "space") == "3 spaces"
