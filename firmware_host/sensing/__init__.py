"""Board sensing: settled square changes become game actions, or fixes that guide the
players back when the board and the game disagree. Pure logic: no pins, no clock.

Each game's kit (:mod:`firmware_host.kits`) names its recogniser on each matrix layout: Sequence
Dice is sensed on the "grid" layout and Centennial on the "track"; the other games are played
with the controls.
"""

from __future__ import annotations

from typing import Any

from firmware_host.kits import kit_for
from firmware_host.sensing.base import Outcome, Recogniser, Square, attempt
from firmware_host.sensing.centennial import CentennialRecogniser
from firmware_host.sensing.sequence import SequenceRecogniser
from games.core import GameState


def recogniser_for(
    game: GameState[Any], layout: str, *, columns: int = 4
) -> Recogniser | None:
    """A recogniser when ``game`` can be sensed on a matrix of ``layout``, else None, as the
    game's kit says.

    ``columns`` is the track's column count (the pin map's ``len(matrix.cols)``).
    """
    return kit_for(game.NAME).recogniser(layout, columns)


__all__ = [
    "CentennialRecogniser",
    "Outcome",
    "Recogniser",
    "SequenceRecogniser",
    "Square",
    "attempt",
    "recogniser_for",
]
