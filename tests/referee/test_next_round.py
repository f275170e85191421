"""The next round's seat on the table's own screen: the referee (offline) reads the line the
publisher wrote beside the journal, shows it between games once when it changes, and never
in the middle of a game; whatever the file holds is shown as bounded, printable text."""

from __future__ import annotations

import random
from pathlib import Path

from firmware_host import next_round
from firmware_host.config import Config, GameConfig
from firmware_host.journal import Journal
from firmware_host.referee import Referee
from firmware_host.views import GameView, View
from games.core import Phase
from games.dalmatian import Dalmatian
from hardware.display.protocol import new_frame

CONFIG = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian", {"rounds": 1}))
LINE = "Next round: table 3 with Ann, Bob, Cy"


def shown(view: View) -> str | None:
    message = getattr(view, "message", None)
    if message is None and hasattr(view, "menu"):
        message = view.menu.message
    return message


def play_out(game: Dalmatian, journal: Journal) -> None:
    rng = random.Random(1)
    while not game.is_over:
        if game.phase is Phase.ROLL:
            dice = "-".join(str(rng.randint(1, 6)) for _ in range(game.dice_wanted))
            journal.apply(game, f"roll {dice}")
        else:
            journal.apply(game, str(game.legal_actions()[0]))


def test_the_seat_is_shown_between_games_once_and_never_mid_game(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    seat = next_round.beside(path)
    with Journal.open(path) as journal:
        game = Dalmatian.new(2, ["Ann", "Ben"], rounds=1)
        journal.start(game)
        referee = Referee(CONFIG, journal, game=game, render=lambda view: new_frame())
        next_round.write(seat, LINE)
        referee.tick(10.0)
        assert shown(referee.view()) != LINE, "not in the middle of a game"
        play_out(game, journal)
        due = referee.tick(11.0)
        assert isinstance(referee.view(), GameView) and shown(referee.view()) == LINE
        assert due == 11.0 + next_round.LOOK_S, "and it looks again"
        assert referee.frame() is not None
        referee.table.message = None  # a press closes it  # type: ignore[union-attr]
        referee.tick(20.0)
        assert shown(referee.view()) is None, "shown once, not again and again"
        next_round.write(seat, "Next round: table 1 with Ann, Dee\x1b[2J\u202e")
        referee.tick(30.0)
        assert shown(referee.view()) == "Next round: table 1 with Ann, Dee[2J"
        next_round.write(seat, "")
        assert not seat.exists()


def test_with_no_game_the_new_game_menu_shows_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    next_round.write(next_round.beside(path), "Next round: " + "x" * 1000)
    with Journal.open(path) as journal:
        referee = Referee(CONFIG, journal, render=lambda view: new_frame())
        referee.tick(1.0)
        message = shown(referee.view())
        assert message is not None and message.startswith("Next round: xxx")
        assert len(message) == next_round.MAX_CHARS
