"""Named views of every screen, built by playing games through their public API.

The golden-image tests and the render benchmark draw these; a view here is what the
referee would hand over at that point of a real game. Dice come from a fixed arithmetic
sequence, not :mod:`random`, so every Python gives the same games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import games
from firmware_host.dice_layout import DiceLayout
from firmware_host.night.topics import short_path
from firmware_host.views import (
    BoardFixView,
    DiceEntryView,
    GameView,
    MenuView,
    NoticeView,
    View,
    game_over_notice,
)
from games.core import GameState, Phase
from games.dalmatian import Dalmatian
from games.errors import IllegalAction
from games.sequence import CELLS, SequenceDice


def dice_stream(seed: int) -> Iterator[int]:
    """Faces 1-6 from a small linear congruential generator: the same on every machine."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state // 65536 % 6 + 1


def play(game: GameState[Any], seed: int, stop: Callable[[GameState[Any]], bool],
         pick: int = 0, limit: int = 20000) -> GameState[Any]:
    """Roll dice from ``seed`` and take choice ``pick`` (or the last) until ``stop(game)``."""
    faces = dice_stream(seed)
    for _ in range(limit):
        if stop(game) or game.is_over:
            return game
        if game.phase is Phase.ROLL:
            game.apply("roll " + "-".join(str(next(faces)) for _ in range(game.dice_wanted)))
        else:
            legal = game.legal_actions()
            game.apply(legal[min(pick, len(legal) - 1)])
    raise AssertionError(f"{game!r} did not reach the wanted position in {limit} actions")


def choices_of(game: GameState[Any]) -> tuple[str, ...]:
    return tuple(str(action) for action in game.legal_actions())


def refusal(game: GameState[Any], text: str) -> str:
    """The refusal the rules give for ``text``; the game is left unchanged."""
    try:
        game.apply(text)
    except IllegalAction as err:
        return str(err)
    raise AssertionError(f"{text!r} was accepted")


WORLD = ("José Díaz", "Zoë", "Łukasz", "Ægir", "Ψυχή", "Иван", "山田", "Nguyễn", "Đorđe",
         "Þórdís", "Jiří", "김민준", "Ödön", "Милош", "Şükrü", "Ελένη", "Фёдор", "محمد")
"""Players' names from around the world, for the screens that show names: each drawn with
its own letters, or spelt in Latin letters where the font has none of its script."""


def centennial_playing(names: tuple[str, ...] = ("Ann", "Bob", "Cy", "Dee")) -> View:
    game = games.new_game("centennial", 4, names=list(names))
    for action in ("roll 3", "roll 5", "roll 2", "roll 1"):
        game.apply(action)
    play(game, 11, lambda g: len(g.history) >= 16)
    return GameView(game)


def _declare_game() -> GameState[Any]:
    game = games.new_game("centennial", 4, mode="declare")
    for action in ("roll 3", "roll 5", "roll 2", "roll 1", "roll 1-2-4", "P2 stops at 5"):
        game.apply(action)
    return game


def centennial_claims() -> View:
    game = _declare_game()
    game.apply("roll 1-1-1")
    game.apply("P3 stops off board")
    return GameView(game, choices_of(game), cursor=1)


def centennial_stop_paged() -> View:
    """A long list: from off the board 1-2-3 allows seven stops, shown a page at a time."""
    game = _declare_game()
    game.apply("roll 1-2-3")
    return GameView(game, choices_of(game), cursor=5)


def centennial_over() -> View:
    game = games.new_game("centennial", 3)
    return GameView(play(game, 5, lambda g: False))


def sequence_playing() -> View:
    game = games.new_game("sequence", 3)
    play(game, 4, lambda g: len(g.history) >= 30 and g.phase is Phase.ROLL, pick=1)
    return GameView(game)


def sequence_choosing() -> View:
    game = games.new_game("sequence", 2)
    play(game, 9, lambda g: len(g.history) >= 20 and g.phase is Phase.MOVE
         and len(g.legal_actions()) > 4, pick=2)
    return GameView(game, choices_of(game), cursor=3)


def sequence_refused() -> View:
    view = sequence_choosing()
    assert isinstance(view, GameView)
    game = view.game
    assert isinstance(game, SequenceDice)
    own = next(cell for cell in CELLS if game.chip(cell) == game.colour(game.turn))
    return GameView(game, view.choices, view.cursor, message=refusal(game, f"remove {own}"))


def sequence_over() -> View:
    game = games.new_game("sequence", 4)
    return GameView(play(game, 21, lambda g: False))


def centerpoint_playing(names: tuple[str, ...] = ("Alice", "Bob", "Carol", "Dominic")) -> View:
    game = games.new_game("centerpoint", 4, names=list(names))
    play(game, 3, lambda g: len(g.history) >= 150 and g.phase is Phase.MOVE
         and len(g.legal_actions()) > 1, pick=99)
    return GameView(game, choices_of(game), cursor=1)


def centerpoint_no_move() -> View:
    """A throw that passed the turn with no move, said over the next player's screen."""
    game = games.new_game("centerpoint", 2, names=["Alice", "Bob"])
    for action in ("roll 5", "roll 3", "roll 4"):
        game.apply(action)
    return GameView(game, message="Alice threw 4: no move; Bob's turn")


def centerpoint_tumbling() -> View:
    """Alice's throw tumbling: the band names her, not the next to throw."""
    game = games.new_game("centerpoint", 2, names=["Alice", "Bob"])
    for action in ("roll 5", "roll 3", "roll 4"):
        game.apply(action)
    return GameView(game, rolling=(2,), thrower=0)


def centerpoint_over() -> View:
    game = games.new_game("centerpoint", 2, six_enters=True)
    return GameView(play(game, 8, lambda g: False, pick=99))


def dalmatian_turn() -> View:
    game = games.new_game("dalmatian", 3, names=["Alice", "Bob", "Carol"])
    for action in ("roll 6-6-6-6-5", "roll 1-2-3-4-5", "roll 2-2-2-2-2", "roll 3-4",
                   "roll 1-6-3-5-5"):
        game.apply(action)
    return _turn_view(game, [1, 3, 5, 5, 6], cursor=3, held=frozenset({0, 1}))


def dalmatian_rerolled() -> View:
    """After a reroll of the middle die: the new die lies where the old one was."""
    game = games.new_game("dalmatian", 3, names=["Alice", "Bob", "Carol"])
    for action in ("roll 6-6-6-6-5", "roll 1-2-3-4-5", "roll 2-2-2-2-2", "roll 3-4",
                   "roll 1-2-3-5-5", "reroll 3", "roll 6"):
        game.apply(action)
    return _turn_view(game, [1, 2, 6, 5, 5], cursor=9)


def _turn_view(game: GameState[Any], places: list[int | None], cursor: int,
               held: frozenset[int] = frozenset()) -> GameView:
    """A Dalmatian turn as the referee shows it, the dice lying in ``places``."""
    assert isinstance(game, Dalmatian)
    layout = DiceLayout()
    layout.places = places
    layout.follow(game)
    choices = tuple(label for label, _ in layout.choices(game))
    return GameView(game, choices, cursor, held=held, layout=layout.shown())


def dalmatian_round_end() -> View:
    game = games.new_game("dalmatian", 5)
    play(game, 2, lambda g: isinstance(g, Dalmatian) and len(g.sheet) == 3 and g.total is None
         and g.phase is Phase.ROLL)
    return GameView(game)


def dalmatian_over() -> View:
    game = games.new_game("dalmatian", 4, rounds=4)
    return GameView(play(game, 6, lambda g: False, pick=5))


def dalmatian_opening_tie() -> View:
    game = games.new_game("dalmatian", 3)
    for action in ("roll 6-6-6-6-5", "roll 1-2-3-4-5", "roll 6-6-6-5-6"):
        game.apply(action)
    return GameView(game)


def dalmatian_opening_six(names: tuple[str, ...] = ("Beatrice", "Ann", "Clemence", "Dominic",
                                                    "Eve", "Florence")) -> View:
    """Six players, names of eight letters: every throw of the roll-off on screen."""
    game = games.new_game("dalmatian", 6, names=list(names))
    for action in ("roll 6-6-6-6-5", "roll 1-2-3-4-5", "roll 6-6-6-5-6", "roll 2-2-2-2-2",
                   "roll 4-4-4-4-4"):
        game.apply(action)
    return GameView(game)


def multigam_playing(names: tuple[str, ...] = ("Ann", "Bob", "Cy", "Dee")) -> View:
    game = games.new_game("multigam", 4, names=list(names))
    play(game, 13, lambda g: len(g.history) >= 14 and g.phase is Phase.MOVE
         and len(g.legal_actions()) > 2, pick=1)
    return GameView(game, choices_of(game), cursor=2)


def multigam_rolling() -> View:
    """Between turns the band says what the letters beside the names stand for."""
    game = games.new_game("multigam", 4, names=["Ann", "Bob", "Cy", "Dee"])
    play(game, 13, lambda g: len(g.history) >= 14 and g.phase is Phase.ROLL, pick=1)
    return GameView(game)


def multigam_over() -> View:
    game = games.new_game("multigam", 4)
    return GameView(play(game, 17, lambda g: False))


def menu_long() -> View:
    items = ("Centennial", "Sequence Dice", "Center Point", "Dalmatian", "Multi-Gam",
             "Resume last game", "Standings", "Settings", "Shut down")
    return MenuView("Choose a game", items, cursor=6)


def menu_players() -> View:
    return MenuView("Players", ("2", "3", "4"), cursor=1,
                    message="Sequence Dice: 4 players play as two teams")


def options_menu(name: str, cursor: int, scroll: int = 0) -> MenuView:
    """A game's options as the set-up screen lists them, each at its default."""
    cls = games.game_class(name)
    shown = [(o.label, o.text(o.default)) for o in cls.OPTIONS.values() if o.label != "Board"]
    return MenuView(f"{cls.TITLE} options", ("Start", *(label for label, _ in shown)), cursor,
                    values=("", *(value for _, value in shown)), scroll=scroll)


def menu_options() -> View:
    return options_menu("dalmatian", cursor=2)


def menu_options_centennial() -> View:
    """The game with the most options: every label and value whole on one screen."""
    return options_menu("centennial", cursor=4)


def menu_options_multigam() -> View:
    return options_menu("multigam", cursor=1)


def menu_game_greyed() -> View:
    items = ("Back to the game", "Undo last action", "Type in dice", "Standings",
             "Settings", "Abandon game", "Shut down")
    return MenuView("Menu", items, cursor=2, greyed=frozenset({1, 2}))


def dice_entry() -> View:
    return DiceEntryView((3, 6, 1, 1, 1), cursor=2)


def board_fix() -> View:
    return BoardFixView("Fix the board", ("put a chip on B3", "lift the chip from C4",
                                          "put a chip on F6", "lift the chip from A1",
                                          "put a chip on D2"))


def sequence_on_a_ten() -> SequenceDice:
    """Sequence Dice after a roll of 10, one chip on the board to remove."""
    game = games.new_game("sequence", 2)
    for action in ("roll 6-6", "roll 1-2", "roll 5-4"):
        game.apply(action)
    game.apply(game.legal_actions()[0])
    game.apply("roll 4-6")
    assert isinstance(game, SequenceDice)
    return game


def board_fix_refused(page: int = 0) -> View:
    """A chip put on a cell a roll of 10 does not allow: the fix, then why and what the
    roll allows."""
    return BoardFixView("Sequence Dice", ("lift the chip from D4",),
                        refusal(sequence_on_a_ten(), "place D4"), page)


def sequence_refused_long() -> View:
    """A refusal too long for the box: what is allowed first, then the reason, in pages."""
    game = sequence_on_a_ten()
    return GameView(game, choices_of(game), message=refusal(game, "place D4"))


def notice() -> View:
    return NoticeView("Tonight", ("Ann: 3 won of 4", "Bob: 2 won of 4",
                                  "Cyrille: 1 won of 10", "Dominic: 0 won of 2"))


def standings_qr() -> View:
    return NoticeView("Won tonight", ("Ann 3/4", "Bob 1/4", "Cyrille 1/2",
                                      "Dee 0/1", "Eve 0/1", "Fay 0/1"),
                      qr="http://hub.local:8080/")


def game_over_qr(names: tuple[str, ...] = ("Ann", "Ben", "Cyrille", "Dee")) -> View:
    """At a game night, a game's end: its places beside the QR code of its page on the hub,
    for the table of the longest name there is."""
    game = games.new_game("dalmatian", 4, names=list(names), rounds=4)
    play(game, 6, lambda g: False, pick=5)
    return game_over_notice(game, "http://hub.local:8080" + short_path("t" * 32, 999_999_999))


def next_round_seat() -> View:
    """At a game night, the next round's seat, shown in turn with the game's end."""
    from firmware_host import next_round

    return next_round.notice("Next round: table 3 with Ann, Bob, Cy")


def next_round_eight(names: tuple[str, ...] = ("Christine", "Christopher", "Guy", "Peggy",
                                               "Dominic", "Anneliese", "Bob", "Cy")) -> View:
    """The next round's seat at a table of eight (Centennial's most), names long and short."""
    from firmware_host import next_round

    return next_round.notice("Next round: table 12 with " + ", ".join(names))


def keyboard_groups() -> View:
    """A name being typed, the cursor on a group of letters."""
    from firmware_host.keyboard import Keyboard

    keyboard = Keyboard("seat 3", lambda name: None, text="Dor", group=3)
    return keyboard.view()


def keyboard_letters() -> View:
    """A group opened: the letter the cursor is on lit inside it."""
    from firmware_host.keyboard import Keyboard

    keyboard = Keyboard("seat 3", lambda name: None, text="Dor", group=1, letter=3)
    return keyboard.view()


def keyboard_refused() -> View:
    from firmware_host.keyboard import Keyboard

    keyboard = Keyboard("seat 2", lambda name: None, text="Ann", group=7,
                        message="Ann plays at seat 1 already")
    return keyboard.view()


def menu_seat(names: tuple[str, ...] = ("Ann", "Ben", "Cy", "Dorian")) -> View:
    """A seat's list: the last game's players first, a name taken greyed, "New player"."""
    return MenuView("Player 2 of 3", (*names, "New player"), cursor=3, greyed=frozenset({2}))


SAMPLES: dict[str, Callable[[], View]] = {
    "standings_qr": standings_qr,
    "game_over_qr": game_over_qr,
    "next_round_seat": next_round_seat,
    "next_round_eight": next_round_eight,
    "centennial_playing": centennial_playing,
    "centennial_claims": centennial_claims,
    "centennial_stop_paged": centennial_stop_paged,
    "centennial_over": centennial_over,
    "sequence_playing": sequence_playing,
    "sequence_choosing": sequence_choosing,
    "sequence_refused": sequence_refused,
    "sequence_over": sequence_over,
    "centerpoint_playing": centerpoint_playing,
    "centerpoint_over": centerpoint_over,
    "dalmatian_turn": dalmatian_turn,
    "dalmatian_round_end": dalmatian_round_end,
    "dalmatian_over": dalmatian_over,
    "dalmatian_opening_tie": dalmatian_opening_tie,
    "dalmatian_opening_six": dalmatian_opening_six,
    "dalmatian_rerolled": dalmatian_rerolled,
    "multigam_playing": multigam_playing,
    "multigam_rolling": multigam_rolling,
    "multigam_over": multigam_over,
    "menu_long": menu_long,
    "menu_players": menu_players,
    "menu_options": menu_options,
    "menu_options_centennial": menu_options_centennial,
    "menu_options_multigam": menu_options_multigam,
    "menu_game_greyed": menu_game_greyed,
    "dice_entry": dice_entry,
    "keyboard_groups": keyboard_groups,
    "keyboard_letters": keyboard_letters,
    "keyboard_refused": keyboard_refused,
    "menu_seat": menu_seat,
    "board_fix": board_fix,
    "centerpoint_no_move": centerpoint_no_move,
    "centerpoint_tumbling": centerpoint_tumbling,
    "board_fix_refused": board_fix_refused,
    "board_fix_refused_page_2": partial(board_fix_refused, 1),
    "sequence_refused_long": sequence_refused_long,
    "notice": notice,
    "names_centennial": partial(centennial_playing, WORLD[0:4]),
    "names_centerpoint": partial(centerpoint_playing, WORLD[4:8]),
    "names_dalmatian_opening": partial(dalmatian_opening_six, WORLD[8:14]),
    "names_multigam": partial(multigam_playing, WORLD[14:18]),
    "names_game_over": partial(game_over_qr, WORLD[4:8]),
    "names_next_round": partial(next_round_eight, WORLD[0:8]),
    "names_menu_seat": partial(menu_seat, WORLD[9:13]),
}
"""Every sample view by name; each call builds a fresh one."""
