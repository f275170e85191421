"""One kit per game: every part the table brings for a game, declared once.

A game's rules are in :mod:`games` (``games.REGISTRY``, pure), with the facts the table reads
about the game itself as class attributes (:data:`FACTS`). Its kit here names the rest: the
screen module that draws it, the table that plays it and, for each matrix layout its board
can be sensed on, the recogniser that reads it (none: it is played with the controls). There
is no fallback: a registered game without a kit is an error when this module is imported, a
kit cannot be written without each of its parts, and :func:`problems` loads every part of a
kit and says what is wrong with it (the test over every registered game runs it).

Parts are named ``"module"`` or ``"module:attribute"`` and imported on first use, as the
rules are, so importing the kits imports none of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

import games

if TYPE_CHECKING:
    from firmware_host.referee.tables.base import GameTable
    from firmware_host.sensing.base import Recogniser

FACTS = ("THROW_SHOWN", "NO_MOVE_TOLD")
"""What every rules class says of its game (True or False), for the table's notices."""

SCREENS = "firmware_host.screens"
SENSING = "firmware_host.sensing"
TABLES = "firmware_host.referee.tables"
GAME_TABLE = f"{TABLES}.base:GameTable"  # a game played with the controls and the dice


class KitError(LookupError):
    """A game without a kit, or a kit that cannot be what it says."""


@dataclass(frozen=True)
class Kit:
    """What the table brings for one game, each part named where it is."""

    screen: str
    """The module whose ``draw(canvas, view)`` draws the game's view."""
    table: str
    """``"module:Class"``: the :class:`~firmware_host.referee.tables.base.GameTable` that
    plays the game (its list, its throws, its view)."""
    recognisers: Mapping[str, str]
    """Matrix layout -> ``"module:Class"``: the
    :class:`~firmware_host.sensing.base.Recogniser` that reads the game's board on it."""

    def __post_init__(self) -> None:
        named = [self.screen, self.table, *self.recognisers.values()]
        if not all(isinstance(part, str) and part.strip() for part in named):
            raise KitError(f"a kit names each part as a module or module:attribute: {self}")

    def screen_module(self) -> ModuleType:
        return import_module(self.screen)

    def table_class(self) -> type[GameTable]:
        found: type[GameTable] = _load(self.table)
        return found

    def recogniser(self, layout: str, columns: int) -> Recogniser | None:
        """A new recogniser for the game's board on a matrix of ``layout`` with ``columns``
        columns, or None when the game is not sensed there."""
        part = self.recognisers.get(layout)
        if part is None:
            return None
        found: Recogniser = _load(part).on_matrix(columns)
        return found


KITS: dict[str, Kit] = {
    "centennial": Kit(screen=f"{SCREENS}.centennial", table=GAME_TABLE,
                      recognisers={"track": f"{SENSING}.centennial:CentennialRecogniser"}),
    "sequence": Kit(screen=f"{SCREENS}.sequence", table=GAME_TABLE,
                    recognisers={"grid": f"{SENSING}.sequence:SequenceRecogniser"}),
    "centerpoint": Kit(screen=f"{SCREENS}.centerpoint", table=GAME_TABLE, recognisers={}),
    "dalmatian": Kit(screen=f"{SCREENS}.dalmatian", table=f"{TABLES}.dalmatian:DalmatianTable",
                     recognisers={}),
    "multigam": Kit(screen=f"{SCREENS}.multigam", table=GAME_TABLE, recognisers={}),
}
"""Each registered game's kit, by the game's name (its rules class's ``NAME``)."""


def kit_for(name: str) -> Kit:
    """The kit of the game registered as ``name``."""
    try:
        return KITS[name]
    except KeyError:
        raise KitError(f"game {name!r} has no kit: declare its parts in {__name__}.KITS") \
            from None


def _load(part: str) -> Any:
    module, _, attribute = part.partition(":")
    return getattr(import_module(module), attribute)


def problems(name: str) -> list[str]:
    """What is wrong with game ``name``'s kit and the facts its rules class must say, every
    part loaded; empty when the table has all it needs to play the game."""
    from firmware_host.referee.tables.base import GameTable
    from firmware_host.sensing.base import Recogniser
    from hardware.wiring.pinmap import LAYOUTS

    try:
        kit, rules = kit_for(name), games.game_class(name)
    except (KitError, games.GameError, ImportError, AttributeError) as err:
        return [str(err)]
    found = [f"{rules.__name__} does not say {fact} (True or False)" for fact in FACTS
             if not isinstance(getattr(rules, fact, None), bool)]
    wanted = [("screen", kit.screen, "a module with draw(canvas, view)", _draws),
              ("table", kit.table, "a GameTable", lambda part: _subclass(part, GameTable))]
    for layout, part in kit.recognisers.items():
        if layout not in LAYOUTS:
            found.append(f"{name}: no matrix layout {layout!r} (layouts: {', '.join(LAYOUTS)})")
        wanted.append((f"{layout} recogniser", part, "a Recogniser",
                       lambda part: _subclass(part, Recogniser)))
    for what, part, kind, fits in wanted:
        try:
            loaded = _load(part) if ":" in part else import_module(part)
        except (ImportError, AttributeError) as err:
            found.append(f"{name}: its {what} {part} cannot be loaded ({err})")
            continue
        if not fits(loaded):
            found.append(f"{name}: its {what} {part} is not {kind}")
    return found


def _draws(part: Any) -> bool:
    return isinstance(part, ModuleType) and callable(getattr(part, "draw", None))


def _subclass(part: Any, base: type) -> bool:
    return isinstance(part, type) and issubclass(part, base)


def _unkitted() -> list[str]:
    return [name for name in games.REGISTRY if name not in KITS]


if _unkitted():
    raise KitError(f"games without a kit: {', '.join(_unkitted())}; declare their parts in "
                   f"{__name__}.KITS")

__all__ = ["FACTS", "KITS", "Kit", "KitError", "kit_for", "problems"]
