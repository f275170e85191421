"""The menu BACK opens, from a game or from the game choice, and what its entries show.

Its entries stay in the same places from every screen, the game choice included, so a
player who counts presses always lands on the same one; an entry that does not apply now
is greyed and says why.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from firmware_host.config import NightConfig
from firmware_host.journal import Journal, standings
from firmware_host.menu import Entry, Menu, entry
from firmware_host.referee.settings import SETTINGS, Setting, Settings
from firmware_host.views import NoticeView
from games.core import GameState, Phase


class Host(Protocol):
    """What the menu's entries act on: :class:`firmware_host.referee.Referee`."""

    @property
    def game(self) -> GameState[Any] | None: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def has_sound(self) -> bool: ...

    def open(self, page: Menu) -> None: ...

    def close(self, page: Menu) -> None: ...

    def ask(self, question: str, then: Callable[[], None]) -> None: ...

    def ask_undo(self) -> None: ...

    def say(self, text: str) -> None: ...

    def open_dice_entry(self) -> None: ...

    def open_game_choice(self) -> None: ...

    def show_standings(self) -> None: ...

    def abandon(self) -> None: ...

    def shut_down(self) -> None: ...

    def toggle(self, name: Setting) -> None: ...


def game_menu(host: Host) -> Menu:
    """The menu: back, undo, dice by hand, standings, settings, next game or abandon, the
    legal moves read out, and shut down."""
    menu = Menu("Menu", [])

    def back() -> None:
        host.close(menu)

    def over() -> bool:
        return host.game is not None and host.game.is_over

    def dice_by_hand() -> None:
        back()
        host.open_dice_entry()

    def end_game() -> None:
        """A game that is over leads to the next; one in play is abandoned, if confirmed."""
        if over():
            back()
            host.open_game_choice()
        else:
            host.ask("Abandon this game?", host.abandon)

    def read_moves() -> None:
        back()
        say_moves(host)

    menu.entries = [
        Entry(lambda: "Back to the game" if host.game else "Back to the game choice", back),
        entry("Undo last action", host.ask_undo, lambda: why_no_undo(host.game)),
        entry("Type in dice", dice_by_hand, lambda: why_no_dice(host.game)),
        entry("Standings", host.show_standings),
        entry("Settings", lambda: host.open(settings_menu(host))),
        Entry(lambda: "Next game" if over() else "Abandon game", end_game,
              unavailable=lambda: None if host.game else "no game is being played"),
        entry("Read the moves", read_moves, lambda: why_no_moves(host.game)),
        entry("Shut down", partial(host.ask, "Shut down?", host.shut_down)),
    ]
    return menu


def long_press(host: Host, what: str) -> None:
    """A long press on ROLL in a game, as the config's ``long_press`` says (``what``)."""
    if what == "undo":
        host.ask_undo()
    elif what == "dice" and host.game is not None and host.game.phase is Phase.ROLL:
        host.open_dice_entry()
    elif what == "dice":
        host.say("no dice are due now")
    elif what == "moves":
        say_moves(host)
    else:
        host.open(game_menu(host))


def settings_menu(host: Host) -> Menu:
    """What a table may change during the evening; each shows its setting. The sound of a
    table without a buzzer is greyed, with the reason, not shown as on."""
    def shown(name: Setting) -> str:
        return "none" if name == "sound" and not host.has_sound else host.settings.shown(name)

    def unavailable(name: Setting) -> str | None:
        return "this table has no buzzer" if name == "sound" and not host.has_sound else None

    return Menu("Settings", [Entry(partial(str.capitalize, name), partial(host.toggle, name),
                                   partial(shown, name), partial(unavailable, name))
                             for name in SETTINGS])


def say_moves(host: Host) -> None:
    """The legal moves as a notice, for a player who cannot see the screen's list: the
    voice says them in words (:func:`firmware_host.voice.phrases.legal`)."""
    reason = why_no_moves(host.game)
    if reason is not None:
        host.say(reason)
    else:
        assert host.game is not None
        host.say(moves_notice(host.game))


def moves_notice(game: GameState[Any]) -> str:
    """The legal moves in the game's notation, as asked for (none while dice are due)."""
    if game.phase is Phase.ROLL:
        return "no moves until the dice are thrown"
    actions = game.legal_actions()
    return "Moves: " + ", ".join(str(action) for action in actions) if actions \
        else "no moves now"


def why_no_moves(game: GameState[Any] | None) -> str | None:
    if game is None:
        return "no game is being played"
    return "the game is over" if game.is_over else None


def why_no_undo(game: GameState[Any] | None) -> str | None:
    if game is None:
        return "no game is being played"
    return None if game.history else "nothing to undo yet"


def why_no_dice(game: GameState[Any] | None) -> str | None:
    if game is None:
        return "no game is being played"
    return None if game.phase is Phase.ROLL else "no dice are due now"


def standings_notice(journal: Journal, night: NightConfig | None) -> NoticeView:
    """The night's standings; at a game night, beside the QR code of the night's page."""
    nights = journal.nights()
    rows = standings(journal.finished_games(nights[-1]) if nights else [])
    if night is None:
        lines = tuple(f"{s.name}: {s.wins} won of {s.played}" for s in rows)
        return NoticeView("Tonight", lines or ("no game finished yet",))
    # beside the QR code a line has half the width: games won of played, as "3/4"
    lines = tuple(f"{s.name} {s.wins}/{s.played}" for s in rows)
    return NoticeView("Won tonight", lines or ("no game yet",), qr=night.page_url)

