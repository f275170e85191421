"""Board sensing: settled square changes become game actions, or fixes that guide the
players back when the board and the game disagree. Pure logic: no pins, no clock.

Sequence Dice is sensed on the "grid" layout and Centennial on the "track"; the other games
are played with the controls.
"""

from __future__ import annotations

from typing import Any

from firmware_host.sensing.base import Outcome, Recogniser, Square, attempt
from firmware_host.sensing.centennial import CentennialRecogniser
from firmware_host.sensing.sequence import SequenceRecogniser
from games.core import GameState


def recogniser_for(
    game: GameState[Any], layout: str, *, columns: int = 4
) -> Recogniser | None:
    """A recogniser when ``game`` can be sensed on a matrix of ``layout``, else None;
    found by the game's name, as its screen and its table are.

    ``columns`` is the track's column count (the pin map's ``len(matrix.cols)``).
    """
    if layout == "grid" and game.NAME == "sequence":
        return SequenceRecogniser()
    if layout == "track" and game.NAME == "centennial":
        return CentennialRecogniser(columns)
    return None


__all__ = [
    "CentennialRecogniser",
    "Outcome",
    "Recogniser",
    "SequenceRecogniser",
    "Square",
    "attempt",
    "recogniser_for",
]
