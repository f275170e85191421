"""The rules of the five games: pure, replayable, no I/O, no clock, no randomness.

Rule modules are imported on first use so that ``import games`` stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from games.core import GameState, Option, Phase, Result, Roll, Setup
from games.errors import GameError, IllegalAction, OptionError, UnknownGameError

# name -> "module:class"; the order is the order the menu and `games` list them in.
REGISTRY: dict[str, str] = {
    "centennial": "games.centennial:Centennial",
    "sequence": "games.sequence:SequenceDice",
    "centerpoint": "games.centerpoint:CenterPoint",
    "dalmatian": "games.dalmatian:Dalmatian",
    "multigam": "games.multigam:MultiGam",
}

# other names a player may type: titles that are not their registry name, the rule sheets'
# alternate names
ALIASES: dict[str, str] = {"sequencedice": "sequence", "ohio": "centennial",
                           "martinetti": "centennial"}


def game_class(name: str) -> type[GameState[Any]]:
    """The rule class registered under ``name``, its title or an alternate name, in any case
    and with or without spaces, dashes and underscores ("Sequence Dice", "sequence-dice");
    UnknownGameError lists the known ones."""
    key = name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")
    key = ALIASES.get(key, key)
    if key not in REGISTRY:
        raise UnknownGameError(f"no game {name!r}; games: {', '.join(REGISTRY)}")
    module, cls = REGISTRY[key].split(":")
    found: type[GameState[Any]] = getattr(import_module(module), cls)
    return found


def new_game(
    name: str, players: int | None = None, names: Any = None, **options: Any
) -> GameState[Any]:
    """A new game of ``name`` from options as a user gives them."""
    return game_class(name).new(players, names, **options)


def from_json(data: dict[str, Any]) -> GameState[Any]:
    """Rebuild a state saved with :meth:`GameState.to_json` by replaying its actions."""
    try:
        cls = game_class(data["game"])
        setup = cls.make_setup(None, data["names"], data.get("options", {}))
        actions = data.get("actions", [])
    except (KeyError, TypeError) as err:
        raise OptionError(f"saved game data is malformed: missing or bad {err}") from None
    return cls.replay(setup, actions)


__all__ = [
    "REGISTRY",
    "GameError",
    "GameState",
    "IllegalAction",
    "Option",
    "OptionError",
    "Phase",
    "Result",
    "Roll",
    "Setup",
    "UnknownGameError",
    "from_json",
    "game_class",
    "new_game",
]
