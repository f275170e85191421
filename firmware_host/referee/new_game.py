"""The way to a new game: the game choice, then the number of players, then its options.

Each menu starts where the config file points (its game, as many players as it names, its
variants); another game starts from that game's recommended options, when it has them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from firmware_host.config import Config
from firmware_host.menu import Entry, Menu, entry
from games import REGISTRY, game_class
from games.core import Option

Start = Callable[[str, int, Mapping[str, Any]], None]
"""Starts game ``name`` for a number of players with these options."""


def game_choice(config: Config, open_page: Callable[[Menu], None], start: Start,
                closable: bool) -> Menu:
    """The menu of every game, on the config's; ``closable`` when a game lies under it."""
    default = config.game.name if config.game.name in REGISTRY else None
    entries = []
    for name in REGISTRY:
        cls = game_class(name)
        span = f"{cls.MIN_PLAYERS}" if cls.MIN_PLAYERS == cls.MAX_PLAYERS else \
            f"{cls.MIN_PLAYERS}-{cls.MAX_PLAYERS}"
        opened = partial(_open_players, config, name, open_page, start)
        entries.append(entry(f"{cls.TITLE} ({span})", opened))
    cursor = list(REGISTRY).index(default) if default else 0
    return Menu("New game", entries, cursor, closable=closable)


def _open_players(config: Config, name: str, open_page: Callable[[Menu], None],
                  start: Start) -> None:
    open_page(players_menu(config, name, open_page, start))


def players_menu(config: Config, name: str, open_page: Callable[[Menu], None],
                 start: Start) -> Menu:
    cls = game_class(name)
    counts = range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1)
    wanted = min(max(len(config.players), cls.MIN_PLAYERS), cls.MAX_PLAYERS)
    entries = [entry(f"{n} players", partial(_open_options, config, name, n, open_page, start))
               for n in counts]
    return Menu(f"{cls.TITLE} players", entries, counts.index(wanted))


def _open_options(config: Config, name: str, players: int,
                  open_page: Callable[[Menu], None], start: Start) -> None:
    open_page(options_menu(config, name, players, start))


def options_menu(config: Config, name: str, players: int, start: Start) -> Menu:
    """Start first, then each option that has values to step through, showing its value."""
    cls = game_class(name)
    values = dict(config.setup(name, players).options)
    recommended = getattr(cls, "recommended_options", None)
    if recommended is not None and name != config.game.name:
        values.update(recommended(players))
    entries = [entry("Start", lambda: start(name, players, values))]
    for key, option in cls.OPTIONS.items():
        steps = option_values(option)
        if len(steps) > 1:
            entries.append(Entry(partial(lambda text: text, option.label or key),
                                 partial(_cycle, values, key, steps),
                                 partial(lambda o, k: o.text(values[k]), option, key)))
    return Menu(f"{cls.TITLE} options", entries)


def option_values(option: Option) -> tuple[Any, ...]:
    """The values SELECT steps through; free-form options stay as the config sets them."""
    if option.choices is not None:
        return option.choices
    if isinstance(option.default, bool):
        return (False, True)
    if isinstance(option.default, int):
        return tuple(sorted({option.default, max(1, option.default // 2),
                             max(1, option.default // 4), option.default * 2}))
    return ()


def _cycle(values: dict[str, Any], key: str, steps: tuple[Any, ...]) -> None:
    current = values[key]
    index = steps.index(current) if current in steps else -1
    values[key] = steps[(index + 1) % len(steps)]
