"""Each game at the table: the one its kit names, its choices values that travel to the
screen and back, kept only while the position stands; Dalmatian's row, holds and rerolls."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import firmware_host.referee.referee
from firmware_host.errors import UsageError
from firmware_host.referee.settings import Settings
from firmware_host.referee.tables import Choice, GameTable, table_for
from firmware_host.referee.tables.dalmatian import DalmatianTable, PickUp
from firmware_host.views import GameView
from games import game_class, new_game
from games.core import GameState, Phase, Result, Roll
from games.dalmatian import Dalmatian, Stop


class Turns(GameState[str]):
    """Six actions, any text; the list names the count and the last action, then "z"."""

    NAME = "turns"
    TITLE = "Turns"
    SUMMARY = "test game"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2

    def _start(self) -> None:
        pass

    @property
    def phase(self) -> Phase:
        return Phase.OVER if len(self.history) >= 6 else Phase.MOVE

    @property
    def current_player(self) -> int | None:
        return len(self.history) % 2

    def legal_actions(self) -> list[str]:
        return [f"{len(self.history)}{self.history[-1] if self.history else ''}", "z"]

    def parse_action(self, text: str) -> str:
        return text

    def _apply(self, action: str | Roll) -> None:
        pass

    def scores(self) -> tuple[int, ...]:
        return (0, 0)

    def result(self) -> Result | None:
        return None


def played(*actions: Any) -> list[tuple[Any, ...]]:
    return [actions]


def test_the_table_is_the_one_the_games_kit_names() -> None:
    assert type(table_for(new_game("dalmatian", 2))) is DalmatianTable
    for name in ("centennial", "sequence", "centerpoint", "multigam"):
        assert type(table_for(new_game(name, game_class(name).MIN_PLAYERS))) is GameTable


def test_the_referee_knows_no_game_class() -> None:
    """Whatever one game's table does differently lives in its table, not the referee."""
    tree = ast.parse(Path(firmware_host.referee.referee.__file__).read_text())
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert {m for m in modules if m and m.startswith("games")} <= {
        "games", "games.core", "games.errors", "games.words"}
    assert "isinstance" not in {getattr(n.func, "id", "") for n in ast.walk(tree)
                                if isinstance(n, ast.Call) and any(
                                    getattr(a, "id", "") in ("Dalmatian", "SequenceDice")
                                    for a in n.args)}


def test_the_action_chosen_is_the_very_value_listed() -> None:
    game = Turns.new()
    table = GameTable(game)
    chosen: list[tuple[Any, ...]] = []
    listed = table.choices()
    assert [c.label for c in listed] == ["0", "z"]
    table.move(1)
    table.choose(table.highlighted() or Choice("", None), lambda *a: chosen.append(a) or True)
    assert chosen == [(listed[1].action,)] and chosen[0][0] is listed[1].action


def test_choices_are_kept_while_the_position_stands_and_found_again_after() -> None:
    game = Turns.new()
    table = GameTable(game)
    first = table.choices()
    assert table.choices() is first  # kept
    same = "a"
    game.apply(same)
    assert [c.label for c in table.choices()] == ["1a", "z"]
    game.apply("c")
    game.apply(same)  # the very same object last again, two actions later
    assert [c.label for c in table.choices()] == ["3a", "z"]
    game.history[-1:] = ["d"]  # as a write taken back and another action at the same count
    assert [c.label for c in table.choices()] == ["3d", "z"]


def test_a_move_resets_the_cursor_and_the_message() -> None:
    table = GameTable(Turns.new())
    table.move(-1)
    table.message = "refused"
    assert table.cursor == 1 and table.highlighted_line() is None
    table.played(["z"])
    assert (table.cursor, table.scroll, table.message) == (0, 0, None)
    assert table.highlighted_line() == "0"


def test_hold_buttons_are_for_dalmatian_only() -> None:
    with pytest.raises(UsageError, match="keep Dalmatian dice"):
        GameTable(Turns.new()).hold(0)


def dalmatian_turn(dice: tuple[int, ...] = (1, 2, 2, 2, 2)) -> DalmatianTable:
    game = new_game("dalmatian", 2)
    assert isinstance(game, Dalmatian)
    table = DalmatianTable(game)
    for throw in ((6, 6, 6, 6, 6), (1, 1, 1, 1, 1), (3, 3), dice):
        game.apply(Roll(throw))
        table.played([Roll(throw)])
    assert game.phase is Phase.MOVE
    return table


def test_a_dalmatian_reroll_is_listed_by_its_places_and_played_as_the_rules_write_it() -> None:
    table = dalmatian_turn()
    choices = table.choices()
    assert choices[0] == Choice("stop", Stop())
    assert choices[1] == Choice("reroll 1 (die 1)", PickUp((0,)))
    plays: list[tuple[Any, ...]] = []
    table.choose(choices[1], lambda *a: plays.append(a) or True)
    assert plays == [("reroll 1",)] and table.layout.places[0] is None


def test_the_list_follows_the_row_as_laid_out() -> None:
    table = dalmatian_turn()
    assert table.choices()[1].label == "reroll 1 (die 1)"
    table.layout.places = [2, 1, 2, 2, 2]  # the same dice, another order on the table
    assert table.choices()[1].label == "reroll 2 (die 1)"


def test_holds_set_the_throw_and_a_refused_throw_leaves_the_row() -> None:
    table = dalmatian_turn()
    table.hold(1)
    table.hold(2)
    assert table.dice_to_throw() == 3
    row = tuple(table.laid_out().places)
    assert table.throw((5, 5, 5), lambda *a: False) is None
    assert tuple(table.layout.places) == row
    with pytest.raises(UsageError, match="3 dice to reroll, got 2"):
        table.throw((5, 5), lambda *a: True)
    landed = table.throw((4, 5, 6), lambda *a: True)
    assert landed == ((1, 2, 2, 2, 2), [0, 3, 4])
    view = table.view(Settings(), None)
    assert isinstance(view, GameView) and view.held == frozenset({1, 2})
