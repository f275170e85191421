"""Counted nouns for messages a person reads: "1 die", "2 dice", "1 event", "3 events"."""

from __future__ import annotations

_PLURALS = {"die": "dice"}


def count(number: int, noun: str) -> str:
    """``number`` and ``noun``, the noun in the plural unless the number is one."""
    return f"{number} {noun if number == 1 else _PLURALS.get(noun, noun + 's')}"
