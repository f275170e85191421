"""The way to a new game: the game choice, then the number of players, then who plays and
the options.

Each menu starts where the config file points (its game, as many players as it names, its
variants); another game starts from that game's recommended options, when it has them.
The last menu starts on Start, with the same players as the last game when it had as many
(else the config's names): one press starts a game again. Its "Players" line opens a
choice seat by seat (:mod:`.seats`). At a game night, when the host's seating names
players for this table, the game choice offers "Next round: Ann, Bob, Cy" first: one press
starts the game the seating says with those players in that order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from firmware_host.config import Config
from firmware_host.menu import Entry, Menu, entry
from firmware_host.next_round import Seat
from firmware_host.players import Player, pool, problem
from firmware_host.referee.page_stack import Page
from firmware_host.referee.seats import SeatChoice
from games import REGISTRY, game_class
from games.core import Option
from games.errors import UnknownGameError

Start = Callable[[str, tuple[Player, ...], Mapping[str, Any]], None]
"""Starts game ``name`` for these players, seat by seat, with these options."""


@dataclass
class NewGame:
    """The new-game menus of a table: ``open_page``/``close_page`` work its page stack,
    ``start`` starts the game chosen; ``recent`` gives the players of its latest games
    (the latest first), ``roster`` the night's roster (none without a network), and
    ``seat`` the next round at this table, if the host has seated one."""

    config: Config
    open_page: Callable[[Page], None]
    close_page: Callable[[Page], None]
    start: Start
    recent: Callable[[], list[tuple[Player, ...]]] = list
    roster: Callable[[], tuple[Player, ...]] = tuple
    seat: Callable[[], Seat | None] = lambda: None

    def game_choice(self, closable: bool) -> Menu:
        """The menu of every game, on the config's (on the next round, when there is one);
        ``closable`` when a game lies under it."""
        default = self.config.game.name if self.config.game.name in REGISTRY else None
        entries = []
        seat = self.seat()
        if seat is not None and not self._played(seat):
            why = seat_problem(seat)
            entries.append(entry("Next round: " + ", ".join(p.name for p in seat.players),
                                 partial(self._start_seat, seat), lambda: why))
        for name in REGISTRY:
            cls = game_class(name)
            span = _span(cls.MIN_PLAYERS, cls.MAX_PLAYERS, "-")
            entries.append(entry(f"{cls.TITLE} ({span})", partial(self._open_players, name)))
        cursor = 0 if len(entries) > len(REGISTRY) else \
            list(REGISTRY).index(default) if default else 0
        return Menu("New game", entries, cursor, closable=closable)

    def _played(self, seat: Seat) -> bool:
        """Whether the latest game was this seat's (already played, or being played)."""
        latest = next(iter(self.recent()), ())
        return tuple(p.name for p in latest) == tuple(p.name for p in seat.players)

    def _start_seat(self, seat: Seat) -> None:
        name = game_class(seat.game).NAME
        self.start(name, seat.players, self.values(name, len(seat.players)))

    def _open_players(self, name: str) -> None:
        self.open_page(self.players_menu(name))

    def players_menu(self, name: str) -> Menu:
        cls = game_class(name)
        counts = range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1)
        wanted = min(max(len(self.config.players), cls.MIN_PLAYERS), cls.MAX_PLAYERS)
        entries = [entry(f"{n} players", partial(self._open_options, name, n)) for n in counts]
        return Menu(f"{cls.TITLE} players", entries, counts.index(wanted))

    def _open_options(self, name: str, count: int) -> None:
        self.open_page(self.options_menu(name, count))

    def values(self, name: str, count: int) -> dict[str, Any]:
        """The options a new game of ``name`` for ``count`` starts with."""
        cls = game_class(name)
        values = dict(self.config.setup(name, count).options)
        recommended = getattr(cls, "recommended_options", None)
        if recommended is not None and name != self.config.game.name:
            values.update(recommended(count))
        return values

    def options_menu(self, name: str, count: int) -> Menu:
        """Start first, then who plays, then each option that has values to step through,
        showing its value."""
        cls = game_class(name)
        values = self.values(name, count)
        last = self.last_players(count)
        choice = SeatChoice(list(last or (Player(n) for n in self.config.names_for(count))),
                            last, self.pool, self.open_page, self.close_page)
        entries = [entry("Start", lambda: self.start(name, choice.lineup(), values),
                         choice.missing),
                   Entry(lambda: "Players: " + ", ".join(choice.names()), choice.open)]
        for key, option in cls.OPTIONS.items():
            steps = option_values(option)
            if len(steps) > 1:
                entries.append(Entry(partial(lambda text: text, option.label or key),
                                     partial(_cycle, values, key, steps),
                                     partial(lambda o, k: o.text(values[k]), option, key)))
        menu = Menu(f"{cls.TITLE} options", entries)
        choice.chosen = partial(setattr, menu, "cursor", 0)  # then Start is a press away
        return menu

    def last_players(self, count: int) -> tuple[Player, ...]:
        """The latest game's players, if it had ``count`` of them and they may play again."""
        latest = next(iter(self.recent()), ())
        return latest if len(latest) == count and _distinct(latest) else ()

    def pool(self) -> list[Player]:
        """Every name a seat may pick: the next round's, the config's, the journal's (the
        latest first) and the night's roster's, each once."""
        seat = self.seat()
        return list(pool(seat.players if seat is not None else (),
                         (Player(name) for name in self.config.players),
                         (p for game in self.recent() for p in game), self.roster()))


def seat_problem(seat: Seat) -> str | None:
    """Why the table cannot play the seating's game with its players, in one line; None
    when it can."""
    try:
        cls = game_class(seat.game)
    except UnknownGameError:
        return f"the seating's game {seat.game!r} is not one this table plays"
    if not cls.MIN_PLAYERS <= len(seat.players) <= cls.MAX_PLAYERS:
        return (f"the seating gives {cls.TITLE} {len(seat.players)} players; it takes "
                f"{_span(cls.MIN_PLAYERS, cls.MAX_PLAYERS, ' to ')}")
    for index, player in enumerate(seat.players):
        why = problem(player.name, seat.players[:index])
        if why is not None:
            return f"the seating names {player.name} twice" if "already" in why else why
    return None


def _span(low: int, high: int, between: str) -> str:
    return f"{low}" if low == high else f"{low}{between}{high}"


def _distinct(players: tuple[Player, ...]) -> bool:
    return all(problem(p.name, players[:i]) is None for i, p in enumerate(players))


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
