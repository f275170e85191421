"""Habits of real hands in Sequence Dice games, as JSON: what the referee blames on a sensor.

Whole games refereed from the daemon's own :class:`~hardware.board.matrix.ReedMatrix` on a
:class:`~hardware.board.mock.MockBoard` (gpiozero's ``MockFactory``), the real
:class:`~firmware_host.referee.Referee` and a journal in a temporary file, on a manual
clock (the players of :mod:`failing_cells`, with no failing cell). After 2-8 turns of
play, the player who throws next does one of these, ``TRIALS`` times each, every wait
drawn at random over what hands take:

- ``straighten_twice``: puts a chip down, then straightens it twice within 8 s (lifted for
  80-300 ms and put back, 0.4-2.5 s apart);
- ``hesitate``: puts the chip on X, moves it to Y (both allowed by the throw), back to X,
  and straightens it once;
- ``tap_three_times``: puts a chip down and taps it three times (off its switch for
  40-200 ms each);
- ``wrong_cell_twice``: puts the chip on a cell the throw does not allow, lifts it as the
  screen says, puts it there again, lifts it, then puts it on an allowed cell; the next
  player throws the number of that wrong cell and puts a chip on it (a legal chip there);
- ``replacement_retried``: lifts an opponent's chip and puts their own on that cell four
  times without SELECT (not trusting the first), then SELECT on the offer.

A player asked whether a hand is on a cell ("... keeps changing: is a hand on it?")
answers yes. Per habit: ``healthy_named`` trials in which a sensor was named (ignored, or
blamed under the fixes); ``taken_back`` trials in which a move the players made left the
journal; ``unsensed_legal_chips`` legal chips put down that made no move; ``asked`` trials
with a question.

``touches``: at a still table, a throw of 10 and an opponent's chip adjusted (off its
switch for 55 ms, or 60-70 ms, and back): ``touch_journaled`` trials in which that stood as
the turn's removal a second later, ``removal_missed`` in which the thrower's own removal
after it was not journaled.

``select_presses``: SELECT presses in whole games with no failing cell, per game, per chip
move and per throw.

``select_after_put``: the replacement made on the board (an opponent's chip lifted, one's
own put on it 100-300 ms later) and the SELECT button pressed 20, 50, 100 or 150 ms after
the chip lands, through the daemon's :class:`~hardware.controls.inputs.InputSet` on the
``pi40`` pin map's mock pins: ``wrong`` replacements journaled (another cell's).
"""

from __future__ import annotations

import json
import logging
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from failing_cells import Table
from gpiozero.pins.mock import MockFactory
from smoke import sized

from firmware_host.config import Config, GameConfig
from firmware_host.journal import Journal
from firmware_host.referee import Referee
from firmware_host.sensing import recogniser_for
from games import new_game
from games.core import GameState, Phase, Roll
from games.sequence import Cell, ChipMove, Verb
from hardware.controls.inputs import InputSet
from hardware.controls.mock_table import MockTable
from hardware.events import CellFault, Control, DiceRolled, Event, InputEdge
from hardware.pins.clock import ManualClock
from hardware.wiring.pinmap import load_pin_map

TRIALS = 40
HABITS = ("straighten_twice", "hesitate", "tap_three_times", "wrong_cell_twice",
          "replacement_retried")
SELECT_DELAYS_MS = (20, 50, 100, 150)
SELECT_TRIALS = 20
GAMES = 10
Square = tuple[int, int]


class Watched(Table):
    """A :class:`failing_cells.Table` that notes every naming and every take-back (its
    players answer a question whether a hand is on a cell: yes)."""

    def __init__(self, folder: Path, rng: random.Random) -> None:
        super().__init__(folder, rng)
        self.named = False
        self.taken_back = False
        self._length = 0

    def _named(self) -> None:
        super()._named()
        referee, table = self.referee, self.referee.table
        if referee.watch.ignored or (table is not None and table.suspects):
            self.named = True
        game = referee.game
        if game is not None:
            self.taken_back |= len(game.history) < self._length
            self._length = len(game.history)

    def faults(self) -> int:
        return sum(isinstance(event, CellFault) for event in self.board.events)


def dice_for(game: GameState[Any], need: Callable[[GameState[Any]], bool],
             rng: random.Random) -> tuple[int, int] | None:
    """Dice whose throw leaves the thrower a move ``need`` likes, at random; None: none."""
    found: list[tuple[int, int]] = []
    if game.phase is not Phase.ROLL:
        return None
    for first in range(1, 7):
        for second in range(1, 7):
            trial = game.copy()
            trial.apply(Roll((first, second)))
            if trial.phase is Phase.MOVE and need(trial):
                found.append((first, second))
    return rng.choice(found) if found else None


def places(game: GameState[Any]) -> list[Square]:
    return [(a.cell.row, a.cell.col) for a in game.legal_actions()
            if isinstance(a, ChipMove) and a.verb is Verb.PLACE]


def name(square: Square) -> str:
    return str(Cell(*square))


def throw(table: Watched, dice: tuple[int, int]) -> None:
    table.referee.handle(DiceRolled(dice, "button"))
    table.made.append(f"roll {dice[0]}-{dice[1]}")
    table.run(table.rng.uniform(0.5, 1.5))


def put(table: Watched, square: Square, closed: bool, after: tuple[float, float]) -> None:
    table.board.set(square, closed)
    table.run(table.rng.uniform(*after))


def straighten(table: Watched, square: Square, off: tuple[float, float] = (0.08, 0.3),
               after: tuple[float, float] = (0.4, 2.5)) -> None:
    put(table, square, False, off)
    put(table, square, True, after)


def placing(table: Watched, at_least: int = 1) -> GameState[Any] | None:
    """Throw for a placement (``at_least`` cells allowed); the game, or None."""
    game = table.referee.game
    assert game is not None
    dice = dice_for(game, lambda trial: len(places(trial)) >= at_least, table.rng)
    if dice is None or game.phase is not Phase.ROLL:
        return None
    throw(table, dice)
    return game


def straighten_twice(table: Watched) -> tuple[list[str], list[str]] | None:
    game = placing(table)
    if game is None:
        return None
    cell = table.rng.choice(places(game))
    put(table, cell, True, (0.4, 1.5))
    straighten(table, cell)
    straighten(table, cell)
    return [f"place {name(cell)}"], []


def hesitate(table: Watched) -> tuple[list[str], list[str]] | None:
    game = placing(table, at_least=2)
    if game is None:
        return None
    first, second = table.rng.sample(places(game), 2)
    put(table, first, True, (0.3, 1.2))
    put(table, first, False, (0.1, 0.4))
    put(table, second, True, (0.3, 1.2))
    put(table, second, False, (0.1, 0.4))
    put(table, first, True, (0.5, 2.0))
    straighten(table, first)
    return [f"place {name(first)}"], []


def tap_three_times(table: Watched) -> tuple[list[str], list[str]] | None:
    game = placing(table)
    if game is None:
        return None
    cell = table.rng.choice(places(game))
    put(table, cell, True, (0.4, 1.5))
    for _ in range(3):
        straighten(table, cell, off=(0.04, 0.2), after=(0.2, 1.0))
    return [f"place {name(cell)}"], []


def wrong_cell_twice(table: Watched) -> tuple[list[str], list[str]] | None:
    """The wrong cell is one the next throw can make legal (not a 10 nor an 11)."""
    def with_a_wrong_cell(trial: GameState[Any]) -> bool:
        return bool(places(trial)) and bool(wrong_cells(trial))

    game = table.referee.game
    assert game is not None
    dice = dice_for(game, with_a_wrong_cell, table.rng)
    if dice is None or game.phase is not Phase.ROLL:
        return None
    throw(table, dice)
    wrong = table.rng.choice(wrong_cells(game))
    for _ in range(2):
        put(table, wrong, True, (0.5, 2.0))
        put(table, wrong, False, (0.3, 1.5))
    cell = table.rng.choice(places(game))
    put(table, cell, True, (0.5, 2.0))
    number = Cell(*wrong).number
    if game.phase is not Phase.ROLL or number in (2, 12):  # another turn: not the next player
        return [f"place {name(cell)}"], []
    low = max(1, number - 6)
    first = table.rng.randint(low, min(6, number - 1))
    throw(table, (first, number - first))
    if wrong not in places(game):
        return [f"place {name(cell)}"], []
    put(table, wrong, True, (1.0, 2.0))
    return [f"place {name(cell)}"], [f"place {name(wrong)}"]


def wrong_cells(game: GameState[Any]) -> list[Square]:
    """Free cells the throw does not allow whose number a throw of two dice can make."""
    taken = {(cell.row, cell.col) for cell in getattr(game, "taken", ())}
    allowed = set(places(game))
    return [(r, c) for r in range(6) for c in range(6)
            if (r, c) not in taken and (r, c) not in allowed
            and Cell(r, c).number not in (2, 10, 11, 12)]


def replacement_retried(table: Watched) -> tuple[list[str], list[str]] | None:
    game = table.referee.game
    assert game is not None

    def replacing(trial: GameState[Any]) -> bool:
        return any(a.verb is Verb.REPLACE for a in trial.legal_actions())

    dice = dice_for(game, replacing, table.rng)
    if dice is None or game.phase is not Phase.ROLL:
        return None
    throw(table, dice)
    target = table.rng.choice([a for a in game.legal_actions() if a.verb is Verb.REPLACE])
    cell = (target.cell.row, target.cell.col)
    for _ in range(4):
        put(table, cell, False, (0.1, 0.4))
        put(table, cell, True, (0.4, 1.5))
    table.confirm()
    table.run(0.5)
    return [str(target)], []


def touches(trials: int = TRIALS, seed: int = 33) -> dict[str, Any]:
    """At a still table (5.5-8 s without a change), a throw of 10 and a player's quick
    adjustment of an opponent's chip (off its switch for 55 or 60-70 ms, back on its cell),
    then the thrower's own removal: how often the touch stood as the turn's removal in the
    journal a second later, and how often the journal missed the thrower's removal."""
    logging.disable(logging.WARNING)
    rng = random.Random(seed)
    found: dict[str, Any] = {}
    for name, off in (("55_ms", (0.055, 0.055)), ("60_70_ms", (0.06, 0.07))):
        stood = missed = played = 0
        while played < trials:
            with tempfile.TemporaryDirectory() as folder:
                table = Watched(Path(folder), rng)
                crowded(table)
                while table.due is not None:
                    table.turn()
                game = table.referee.game
                assert game is not None
                if game.is_over or game.phase is not Phase.ROLL or not any(
                        a.verb is Verb.REMOVE for a in _after(game, (4, 6))):
                    table.journal.close()
                    continue
                table.run(rng.uniform(5.5, 8.0))  # the table still
                throw(table, (4, 6))
                table.run(rng.uniform(5.5, 8.0) - 1.5)
                removals = [a for a in game.legal_actions() if a.verb is Verb.REMOVE]
                touched = rng.choice(removals)
                cell = (touched.cell.row, touched.cell.col)
                put(table, cell, False, off)
                put(table, cell, True, (1.0, 1.0))
                stood += str(game.history[-1]) == str(touched)
                chosen = rng.choice(removals)
                if str(game.history[-1]) != str(chosen):
                    put(table, (chosen.cell.row, chosen.cell.col), False, (0.5, 0.5))
                missed += str(chosen) not in [str(a) for a in game.history[-2:]]
                played += 1
                table.journal.close()
        found[name] = {"trials": trials, "touch_journaled": stood, "removal_missed": missed}
    logging.disable(logging.NOTSET)
    return found


def _after(game: GameState[Any], dice: tuple[int, int]) -> list[Any]:
    trial = game.copy()
    trial.apply(Roll(dice))
    return list(trial.legal_actions()) if trial.phase is Phase.MOVE else []


HABIT: dict[str, Callable[[Watched], tuple[list[str], list[str]] | None]] = {
    "straighten_twice": straighten_twice, "hesitate": hesitate,
    "tap_three_times": tap_three_times, "wrong_cell_twice": wrong_cell_twice,
    "replacement_retried": replacement_retried}


def crowded(table: Watched) -> None:
    """Play on until some number's four cells are all taken (so a replacement can be due)."""
    game = table.referee.game
    assert game is not None
    for _ in range(200):
        if game.is_over or dice_for(game, lambda trial: any(
                a.verb is Verb.REPLACE for a in trial.legal_actions()), table.rng):
            return
        table.turn()


def habit_trials(habit: str, trials: int = TRIALS, seed: int = 30) -> dict[str, Any]:
    """``trials`` games in which a player does ``habit``; see the module docstring."""
    logging.disable(logging.WARNING)
    rng = random.Random(f"{habit}-{seed}")
    named = taken = unsensed = asked = played = 0
    while played < trials:
        with tempfile.TemporaryDirectory() as folder:
            table = Watched(Path(folder), rng)
            for _ in range(rng.randint(2, 8)):
                table.turn()
            if habit == "replacement_retried":
                crowded(table)
            while table.due is not None:  # the move of a throw made in the last turn
                table.turn()
            game = table.referee.game
            assert game is not None
            found = None if game.is_over else HABIT[habit](table)
            if found is None:
                table.journal.close()
                continue
            moves, legal_later = found
            table.run(3.0)
            played += 1
            history = [str(action) for action in game.history]
            named += table.named or table.faults() > 0
            taken += table.taken_back or any(move not in history for move in moves)
            unsensed += sum(move not in history for move in legal_later)
            asked += table.asked > 0
            table.journal.close()
    logging.disable(logging.NOTSET)
    return {"trials": trials, "healthy_named": named, "taken_back": taken,
            "unsensed_legal_chips": unsensed, "asked": asked}


class Pins:
    """The ``pi40`` table's inputs on mock pins, the referee and a journal, on a manual
    clock stepped 1 ms at a time, as the daemon's loop runs them."""

    def __init__(self, folder: Path) -> None:
        pin_map = load_pin_map("pi40")
        factory = MockFactory()
        self.hands = MockTable(pin_map, factory)
        self.clock = ManualClock()
        self.events: list[Event] = []
        self.inputs = InputSet(pin_map, factory, self.events.append, ticks=self.clock,
                               dice_hold_time=None)
        self.journal = Journal.open(folder / "select.sqlite3")
        self.journal.start(new_game("sequence", 2))
        matrix = self.inputs.matrix
        self.referee = Referee(Config(game=GameConfig("sequence")), self.journal,
                               game=self.journal.resume(), render=lambda view: None,
                               recognise=lambda game: recogniser_for(game, "grid"),
                               board=matrix.occupied, restless=matrix.changes_by_itself)
        self.due: float | None = self.inputs.poll()
        self.next_tick = 0.0

    def run(self, seconds: float) -> None:
        end = self.clock() + seconds
        while self.clock() < end - 1e-9:
            self.clock.advance(0.001)
            edged = bool(self.events) and isinstance(self.events[0], InputEdge)
            if edged or (self.due is not None and self.clock() >= self.due):
                self.due = self.inputs.poll()
            events, self.events[:] = list(self.events), []
            for event in events:
                if isinstance(event, InputEdge):
                    self.due = self.inputs.poll()
                else:
                    self.referee.handle(event)
            if self.clock() >= self.next_tick:
                self.referee.tick(self.clock())
                self.next_tick = self.clock() + 0.05

    def history(self) -> list[str]:
        game = self.referee.game
        assert game is not None
        return [str(action) for action in game.history]


THREES = ((0, 1), (1, 5), (4, 0), (5, 4))  # B1 and A5 Ann's, F2 and E6 Ben's


def select_after_put(delays: tuple[int, ...] = SELECT_DELAYS_MS, trials: int = SELECT_TRIALS,
                     seed: int = 31) -> dict[str, Any]:
    """A replacement made on the board and SELECT pressed ``delays`` ms after the put, on
    the pins; how many journaled another cell's replacement, or none."""
    logging.disable(logging.WARNING)
    rng = random.Random(seed)
    found: dict[str, Any] = {}
    for delay in delays:
        wrong = none = 0
        for _ in range(trials):
            with tempfile.TemporaryDirectory() as folder:
                pins = Pins(Path(folder))
                for dice in ((6, 6), (1, 1)):  # Ann starts
                    pins.referee.handle(DiceRolled(dice, "button"))
                for cell in THREES:
                    pins.referee.handle(DiceRolled((1, 2), "button"))
                    pins.run(0.3)
                    pins.hands.place(*cell)
                    pins.run(0.5)
                pins.referee.handle(DiceRolled((2, 1), "button"))  # Ann: replace F2 or E6
                pins.run(rng.uniform(0.5, 1.5))
                cell = rng.choice(THREES[1::2])
                pins.hands.lift(*cell)
                pins.run(rng.uniform(0.1, 0.3))
                pins.hands.place(*cell)
                pins.run(delay / 1000)
                pins.hands.press(Control.SELECT)
                pins.run(0.05)
                pins.hands.release(Control.SELECT)
                pins.run(1.0)
                last = pins.history()[-1]
                wrong += last.startswith("replace") and last != f"replace {name(cell)}"
                none += not last.startswith("replace")
                pins.journal.close()
        found[f"{delay}_ms"] = {"trials": trials, "wrong": wrong, "not_played": none}
    logging.disable(logging.NOTSET)
    return found


class Counted(Table):
    """A :class:`failing_cells.Table` whose players' SELECT presses are counted."""

    def __init__(self, folder: Path, rng: random.Random) -> None:
        super().__init__(folder, rng)
        self.selects = 0

    def press(self, control: Control) -> None:
        self.selects += control is Control.SELECT
        super().press(control)


def selects_per_game(games: int = GAMES, seed: int = 32) -> dict[str, Any]:
    """Whole Sequence Dice games with no failing cell, the players making every move on
    the board and pressing SELECT where the screen asks: presses per game, per chip move
    and per throw."""
    logging.disable(logging.WARNING)
    rng = random.Random(seed)
    selects = moves = throws = 0
    for _ in range(games):
        with tempfile.TemporaryDirectory() as folder:
            table = Counted(Path(folder), rng)
            for _turn in range(400):
                if not table.turn():
                    break
            game = table.referee.game
            assert game is not None
            selects += table.selects
            throws += sum(isinstance(action, Roll) for action in game.history)
            moves += sum(not isinstance(action, Roll) for action in game.history)
            table.journal.close()
    logging.disable(logging.NOTSET)
    return {"games": games, "selects_per_game": round(selects / games, 1),
            "selects_per_move": round(selects / max(1, moves), 2),
            "selects_per_throw": round(selects / max(1, throws), 2)}


def hands(trials: int = TRIALS) -> dict[str, Any]:
    """Every habit ``trials`` times, and SELECT after the put half as often; with goals."""
    habits = {habit: habit_trials(habit, trials) for habit in HABITS}
    selects = select_after_put(trials=max(2, trials // 2))
    goals = {f"{habit}_{name}": {"value": figures[name], "goal": 0, "ok": figures[name] == 0}
             for habit, figures in habits.items()
             for name in ("healthy_named", "taken_back", "unsensed_legal_chips")}
    goals |= {f"select_{delay}_wrong": {"value": figures["wrong"], "goal": 0,
                                        "ok": figures["wrong"] == 0}
              for delay, figures in selects.items()}
    touched = touches(trials)
    goals |= {f"touch_{length}_journaled": {"value": figures["touch_journaled"], "goal": 0,
                                            "ok": figures["touch_journaled"] == 0}
              for length, figures in touched.items()}
    return {"habits": habits, "select_after_put": selects, "touches": touched,
            "select_presses": selects_per_game(max(1, trials // 4)), "goals": goals}


if __name__ == "__main__":
    print(json.dumps({"bench": "hands", **hands(sized(TRIALS, 2))}))
