"""Refusals are atomic: a refused event leaves the game and the journal exactly as they were.

Everything an event will do is checked before anything is committed, so a Dalmatian throw
that is refused does not leave its reroll behind; and a commit that fails takes its actions
back from the game before the frame is shown. Through the loop, a frame is sent only once
its actions are on disk.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from test_loop import FakeClock, ScriptedQueue

from firmware_host.config import Config, GameConfig
from firmware_host.journal import Journal
from firmware_host.loop import Loop
from firmware_host.notify import Notifier
from firmware_host.referee import Referee
from firmware_host.referee.tables.dalmatian import DalmatianTable
from firmware_host.views import GameView, View
from games.centerpoint import CenterPoint
from games.core import Phase, Roll
from games.dalmatian import Dalmatian
from hardware.display.protocol import new_frame
from hardware.events import Control, ControlPressed, DiceRolled, Event

CONFIG = Config(players=("Ann", "Ben"), game=GameConfig("dalmatian", {"rounds": 2}))
HOLDS = [Control.HOLD1, Control.HOLD2, Control.HOLD3, Control.HOLD4, Control.HOLD5]


def blank(view: View) -> Image.Image:
    return new_frame()


def journaled(path: Path) -> list[str]:
    """The actions of the latest game as another reader sees them: only what is committed."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT action FROM actions WHERE game_id = (SELECT max(id) FROM games) "
                      "ORDER BY seq").fetchall()
    db.close()
    return [action for (action,) in rows]


@pytest.fixture
def referee(tmp_path: Path) -> Iterator[Referee]:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        game = Dalmatian.new(2, ["Ann", "Ben"], rounds=2)
        journal.start(game)
        yield Referee(CONFIG, journal, game=game, render=blank)


def send(referee: Referee, event: Event) -> None:
    """Hand ``event`` to the referee as the loop does: a new frame follows."""
    referee.handle(event)
    assert referee.frame() is not None


def into_a_turn(referee: Referee) -> Dalmatian:
    for dice in ((6, 6, 6, 6, 6), (1, 1, 1, 1, 1), (3, 3), (1, 2, 2, 2, 2)):
        send(referee, DiceRolled(dice, "serial"))
    game = referee.game
    assert isinstance(game, Dalmatian) and game.phase is Phase.MOVE
    return game


def test_a_refused_reroll_throw_leaves_the_turn_as_it_was(referee: Referee) -> None:
    game = into_a_turn(referee)
    before = [str(a) for a in game.history]
    send(referee, DiceRolled((1, 2, 7, 2, 2), "serial"))
    assert [str(a) for a in game.history] == before == journaled(referee.journal.path)
    assert game.dice == (1, 2, 2, 2, 2)
    view = referee.view()
    assert isinstance(view, GameView) and view.message == "a die shows 1 to 6, got 7"
    send(referee, DiceRolled((1, 2, 3, 4, 5), "serial"))  # the turn goes on as if never refused
    assert journaled(referee.journal.path)[-2:] == ["reroll 1-2-2-2-2", "roll 1-2-3-4-5"]


def test_a_commit_that_fails_is_taken_back_before_the_frame(referee: Referee) -> None:
    game = into_a_turn(referee)
    before = [str(a) for a in game.history]
    denied = []

    def no_commit(action: int, arg1: Any, *rest: Any) -> int:
        if action == sqlite3.SQLITE_TRANSACTION and arg1 == "COMMIT":
            denied.append(arg1)
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    referee.journal._db.set_authorizer(no_commit)
    send(referee, DiceRolled((4, 4, 4, 4, 4), "serial"))
    assert denied == ["COMMIT"]
    assert [str(a) for a in game.history] == before == journaled(referee.journal.path)
    view = referee.view()
    assert isinstance(view, GameView) and view.message is not None
    assert "not authorized" in view.message
    referee.journal._db.set_authorizer(None)
    send(referee, DiceRolled((4, 4, 4, 4, 4), "serial"))
    view = referee.view()
    assert isinstance(view, GameView) and view.message is None
    assert journaled(referee.journal.path) == [*before, "reroll 1-2-2-2-2", "roll 4-4-4-4-4"]


def test_the_loop_sends_a_frame_only_once_what_it_shows_is_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    drawn: list[tuple[Image.Image, View]] = []
    sent: list[tuple[View, list[str], list[str]]] = []  # shown, on disk, played

    def render(view: View) -> Image.Image:
        drawn.append((new_frame(), view))
        return drawn[-1][0]

    def deny_commits(deny: bool) -> None:
        refuse = sqlite3.SQLITE_DENY
        journal._db.set_authorizer(
            (lambda action, arg1, *rest: refuse if arg1 == "COMMIT" else sqlite3.SQLITE_OK)
            if deny else None)

    class Screen:
        """Each frame shown notes what another reader of the journal finds at that moment."""

        def show(self, image: Image.Image) -> None:
            view = next(v for i, v in drawn if i is image)
            sent.append((view, journaled(path), [str(a) for a in game.history]))

    throws = [(6, 6, 6, 6, 6), (1, 1, 1, 1, 1), (3, 3), (1, 2, 2, 2, 2), (4, 4, 4, 4, 4)]
    with Journal.open(path) as journal:
        game = Dalmatian.new(2, ["Ann", "Ben"], rounds=2)
        journal.start(game)
        referee = Referee(CONFIG, journal, game=game, render=render)
        clock = FakeClock()
        script: list[tuple[float, Event | Callable[[], None]]] = [
            (101.0 + i, DiceRolled(faces, "serial")) for i, faces in enumerate(throws)]
        script[-1:] = [(104.5, lambda: deny_commits(True)), script[-1],
                       (105.5, lambda: deny_commits(False)), (106.0, script[-1][1]),
                       (107.0, lambda: loop.stop())]
        loop = Loop(referee, Screen(), Notifier(), events=ScriptedQueue(clock, script),
                    clock=clock)
        loop.run()
    for _, on_disk, played in sent:
        assert on_disk == played  # nothing shown that a power cut would lose
    assert len(sent) == 1 + len(throws) + 1  # the first frame, and one an event
    denied = sent[-2][0]  # the frame for the throw whose commit failed says why...
    assert isinstance(denied, GameView) and denied.message is not None
    assert "not authorized" in denied.message
    assert sent[-2][2] == sent[-3][2]  # ...and shows the game without it
    assert sent[-1][1][-2:] == ["reroll 1-2-2-2-2", "roll 4-4-4-4-4"]


def dice(count: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Mostly the right count of good faces; sometimes a bad face or a wrong count."""
    good = st.lists(st.integers(1, 6), min_size=count, max_size=count)
    bad = st.lists(st.integers(0, 7), min_size=0, max_size=6)
    return st.one_of(good, good, bad).map(tuple)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_the_journal_always_equals_a_clean_replay_of_what_was_accepted(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    path = tmp_path_factory.mktemp("j") / "j.sqlite3"
    with Journal.open(path) as journal:
        game = Dalmatian.new(2, ["Ann", "Ben"], rounds=2)
        journal.start(game)
        referee = Referee(CONFIG, journal, game=game, render=blank)
        for _ in range(data.draw(st.integers(10, 60), "events")):
            if game.is_over:
                break
            before = list(game.history)
            assert isinstance(referee.table, DalmatianTable)
            count = game.dice_wanted or 5 - len(referee.table.held)
            event: Event = data.draw(st.one_of(
                dice(count).map(lambda faces: DiceRolled(faces, "serial")),
                st.sampled_from([Control.UP, Control.DOWN, Control.SELECT, *HOLDS])
                .map(ControlPressed),
            ) if game.phase is Phase.MOVE else dice(count).map(lambda f: DiceRolled(f, "serial")))
            send(referee, event)
            if referee.pages:  # the dice-entry page SELECT may open is not under test here
                referee.pages.clear()
            added = game.history[len(before):]
            assert game.history[:len(before)] == before
            if isinstance(event, DiceRolled):  # the whole throw, or nothing of it
                assert added in ([], [Roll(event.dice)]) or (
                    len(added) == 2 and str(added[0]).startswith("reroll")
                    and added[1] == Roll(event.dice)), added
            else:
                assert len(added) <= 1
            assert journaled(path) == [str(a) for a in game.history]
    with Journal.open(path) as journal:
        replayed = journal.resume()
        assert journal.problems == []
    if game.is_over:
        assert replayed is None
    else:
        assert replayed is not None and replayed.to_json() == game.to_json()


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_the_choices_shown_are_always_the_positions_own_whatever_writes_fail(
        tmp_path: Path, data: st.DataObject) -> None:
    """The referee keeps a position's choices between the frame and the next press; a
    write that fails takes the position back, and the next action, played at the same count
    (another die, another move), must not show the choices of the one taken back."""
    name = f"j{len(list(tmp_path.iterdir()))}.sqlite3"
    with Journal.open(tmp_path / name) as journal:
        game = CenterPoint.new(2, ["Ann", "Ben"])
        journal.start(game)
        referee = Referee(Config(players=("Ann", "Ben"), game=GameConfig("centerpoint")),
                          journal, game=game, render=blank)

        def refused(action: int, *rest: Any) -> int:
            return sqlite3.SQLITE_DENY if action == sqlite3.SQLITE_INSERT else sqlite3.SQLITE_OK

        for _ in range(40):
            if game.is_over:
                break
            journal._db.set_authorizer(refused if data.draw(st.booleans()) else None)
            if game.phase is Phase.ROLL:
                send(referee, DiceRolled((data.draw(st.integers(1, 6)),), "serial"))
            else:
                send(referee, ControlPressed(Control.SELECT))  # clears a message, or moves
            journal._db.set_authorizer(None)
            view = referee.view()
            assert isinstance(view, GameView)
            assert view.choices == tuple(str(a) for a in game.legal_actions())
