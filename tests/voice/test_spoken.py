"""What the table says, heard through a recording sink: a whole game of each of the five
games, driven as the service loop drives the referee (an event, a frame, the tick)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from voice_helpers import NAMES, Recorder, play_out, spoken_table, step

from firmware_host.menu import Menu
from firmware_host.voice import phrases
from games import new_game
from games.core import Phase, Roll
from hardware.events import Control, ControlHeld, ControlPressed, DeviceStatus, DiceRolled

GAMES = ("centennial", "centerpoint", "dalmatian", "multigam", "sequence")

def expected(name: str, history: Sequence[object], players: int) -> list[str]:
    """The turns and moves a replay of ``history`` says, in order (what a throw did and
    messages left out)."""
    game = new_game(name, players, list(NAMES[:players]))
    said = [phrases.turn(game.name(game.current_player))] if game.current_player is not None \
        else []
    for action in history:
        player = game.current_player
        game.apply(action)  # type: ignore[arg-type]
        said.append(phrases.dice(action.dice) if isinstance(action, Roll)
                    else phrases.played(game, player, action))
        if not game.is_over and game.current_player not in (None, player):
            said.append(phrases.turn(game.name(game.current_player)))
    return said


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_game_is_said_move_by_move(tmp_path: Path, name: str) -> None:
    sink = Recorder()
    table = spoken_table(tmp_path / "j.sqlite3", name, sink)
    play_out(table, seed=1)
    game = table.referee.game
    assert game is not None and game.is_over
    result = game.result()
    assert result is not None
    assert sink.said[0] == "resumed after 0 moves"  # the screen's notice, not a refusal
    assert sink.said[-1] == phrases.end(game.setup.names, result.scores, result.winners)
    moves_and_turns = expected(name, game.history, game.players)
    heard = [text for text in sink.said[1:-1] if text in set(moves_and_turns)]
    assert heard == moves_and_turns
    assert not any(text.startswith("not allowed") for text in sink.said)
    assert sink.prepared[:len(game.setup.names)] == [f"{n}, your turn" for n in game.setup.names]


def test_a_dalmatian_game_is_said_for_the_ear(tmp_path: Path) -> None:
    sink = Recorder()
    play_out(spoken_table(tmp_path / "j.sqlite3", "dalmatian", sink), seed=1)
    assert sink.said[:7] == [
        "resumed after 0 moves", "Ann, your turn", "two, five, one, three, one: total twelve",
        "Ben, your turn", "four, four, four, six, four: total twenty-two", "Ben starts",
        "two, one: total three"]
    assert "plus 5" in sink.said
    assert sink.said[-1] == "Ben wins, 30 to 28"


WORDS = {  # a game's move as the screen writes it -> as the table says it
    "centennial": [("P1 stops at 12", "Ann stops at twelve"),
                   ("P2 stops at 11 back", "Ben stops at eleven back"),
                   ("P1 stops off board", "Ann stops off the board"),
                   ("P2 claims 5", "Ben claims five"), ("P2 passes", "Ben passes"),
                   ("no more claims", "no more claims")],
    "centerpoint": [("m1+3", "Ann moves marker one three spaces"),
                    ("m4+1", "Ann moves marker four one space")],
    "dalmatian": [("reroll 1-1-1", "Ann rerolls three dice: one, one, one"),
                  ("reroll 5", "Ann rerolls one die: five"), ("stop", "Ann stops")],
    "multigam": [("1/4", "Ann moves a checker from one to four"),
                 ("bar/5 bar/1", "Ann moves a checker from the bar to five, "
                                 "then one from the bar to one"),
                 ("3/5* 6/off", "Ann moves a checker from three to five, hitting, "
                                "then one off from six")],
    "sequence": [("place C2", "Ann places on C2"), ("replace B3", "Ann replaces the chip on B3"),
                 ("remove F6", "Ann removes the chip on F6")],
}


@pytest.mark.parametrize("name", GAMES)
def test_each_game_s_moves_are_said_in_words(name: str) -> None:
    players = 4 if name == "multigam" else 2
    game = new_game(name, players, list(NAMES[:players]))
    for written, said in WORDS[name]:
        assert phrases.played(game, 0, game.parse_action(written)) == said


def test_a_move_nobody_is_named_for_is_said_as_written() -> None:
    game = new_game("sequence", 2, ["Ann", "Ben"])
    assert phrases.played(game, None, game.parse_action("place C2")) == "place C2"


def test_a_refusal_is_said_not_allowed_and_a_device_s_news_as_it_reads(
        tmp_path: Path) -> None:
    sink = Recorder()
    table = spoken_table(tmp_path / "j.sqlite3", "sequence", sink)
    sink.said.clear()
    step(table, DiceRolled((3, 4, 5), "manual"), 1.0)  # Sequence Dice throws two
    assert len(sink.said) == 1 and sink.said[0].startswith("not allowed: ")
    step(table, ControlPressed(Control.SELECT), 2.0)  # closes the refusal: nothing new
    assert len(sink.said) == 1
    step(table, DeviceStatus("serial", False, "dice tray lost; reconnecting"), 3.0)
    assert sink.said[1:] == ["dice tray lost"]
    step(table, ControlPressed(Control.SELECT), 4.0)
    step(table, DiceRolled((3, 4), "manual"), 5.0)
    assert sink.said[2] == "three, four: total seven"


def test_phrases_are_written_for_the_ear() -> None:
    assert phrases.dice((4, 5, 2)) == "four, five, two: total eleven"
    assert phrases.dice((6,)) == "six"
    assert [phrases.number(n) for n in (0, 13, 34, 40, 105, 1234)] == [
        "zero", "thirteen", "thirty-four", "forty", "one hundred and five", "1234"]
    assert phrases.end(("Ann", "Ben"), (29, 34), (1,)) == "Ben wins, 34 to 29"
    assert phrases.end(("Ann", "Ben", "Cy"), (30, 12, 30), (0, 2)) == (
        "Ann and Cy share the win, 30 to 30 to 12")
    assert phrases.refused("C2 is a seven, the roll is four. Pick another") == (
        "not allowed: C2 is a seven, the roll is four")
    assert phrases.move("reroll 2-5-6") == "reroll two, five, six"
    assert phrases.what_it_did("Ben threw 1-1-1-1-3: +5") == ("plus 5",)
    assert phrases.what_it_did("Ben threw 2-1: total 3") == ()
    assert phrases.vocabulary(("Ann",), top=2) == ("Ann, your turn", "one", "two")


def test_the_moves_asked_for_are_said_as_a_notice(tmp_path: Path) -> None:
    sink = Recorder()
    table = spoken_table(tmp_path / "j.sqlite3", "sequence", sink)
    throws = iter([(6, 5), (1, 2), (3, 4)])  # who starts, then the starter's throw
    while (game := table.referee.game) is not None and game.phase is Phase.ROLL:
        step(table, DiceRolled(next(throws), "manual"), 1.0)
    sink.said.clear()
    step(table, ControlPressed(Control.BACK), 2.0)
    menu = table.referee.pages.top
    assert isinstance(menu, Menu)
    for _ in range([e.label() for e in menu.entries].index("Read the moves")):
        step(table, ControlPressed(Control.DOWN), 3.0)
    step(table, ControlPressed(Control.SELECT), 4.0)
    game = table.referee.game
    assert game is not None
    assert sink.said == [phrases.legal(game)]
    assert re.fullmatch(r"[a-z-]+ moves?: Ann places on [A-F][1-6](, or places on [A-F][1-6])*",
                        sink.said[0])


def test_the_moves_asked_for_while_dice_are_due_say_to_throw_them(tmp_path: Path) -> None:
    sink = Recorder()
    table = spoken_table(tmp_path / "j.sqlite3", "dalmatian", sink)
    sink.said.clear()
    step(table, ControlHeld(Control.ROLL), 1.0)  # the config's long press: the menu
    menu = table.referee.pages.top
    assert isinstance(menu, Menu)
    for _ in range([e.label() for e in menu.entries].index("Read the moves")):
        step(table, ControlPressed(Control.DOWN), 2.0)
    step(table, ControlPressed(Control.SELECT), 3.0)
    assert sink.said == ["Ann, throw the dice"]
    step(table, ControlPressed(Control.SELECT), 4.0)  # closes it
    step(table, DiceRolled((1, 2, 3, 4, 5), "manual"), 5.0)
    assert sink.said[1:] == ["one, two, three, four, five: total fifteen", "Ben, your turn"]


def test_legal_moves_are_said_in_words_the_mover_named_once() -> None:
    game = new_game("multigam", 4, list(NAMES))
    assert phrases.legal(game) == "Ann, throw the dice"
    for face in (6, 5, 4, 3):  # Ann starts with the opening 6 and 3: one move
        game.apply(Roll((face,)))
    assert phrases.legal(game) == (
        "one move: Ann moves a checker from the bar to six, then one from the bar to three")
    game.apply(game.legal_actions()[0])
    game.apply(Roll((1, 2)))
    assert phrases.legal(game) == (
        "two moves: Ben moves a checker from the bar to two, then one from the bar to one, "
        "or moves a checker from the bar to two, then one from two to three, hitting")
    assert phrases.legal(game, most=1) == (
        "two moves: Ben moves a checker from the bar to two, then one from the bar to one, "
        "and one more")


class Roller:
    """A dice button's part the referee uses: its count, and three tumbling faces."""

    count = 2

    def tumble(self, final: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        return ((1,) * len(final), (6,) * len(final), final)


def test_a_thrown_die_is_said_as_it_lands_not_while_it_tumbles(tmp_path: Path) -> None:
    sink = Recorder()
    table = spoken_table(tmp_path / "j.sqlite3", "sequence", sink, roller=Roller())
    sink.said.clear()
    step(table, DiceRolled((3, 4), "button"), 1.0)
    assert sink.said == []
    now = 1.0
    while table.referee.timers.tumble.busy:
        now += 0.05
        table.tick(now)
        assert sink.said == [] or not table.referee.timers.tumble.busy
    assert sink.said[0] == "three, four: total seven"
