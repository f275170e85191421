"""Every throw the journal keeps was on the screen: in all five games, with hands that press
early, press twice, open menus and step through choices, each journaled throw's dice were
drawn (as dice, or written out in a line) on a frame after it was made and before the next
throw. A throw nobody saw is a move the players cannot check.

The referee is driven as the service loop drives it: every event is followed by a frame,
the referee's tick when it is due, and a frame again.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from firmware_host.config import Config, GameConfig
from firmware_host.journal import Journal
from firmware_host.referee import Referee
from firmware_host.screens import banner, dice, opening
from firmware_host.screens import draw as draw_screen
from firmware_host.sensing import recogniser_for
from firmware_host.views import View
from games import game_class, new_game
from games.core import Roll
from hardware.events import Control, ControlPressed, DiceRolled, Event

GAMES = [("centennial", None), ("centennial", "track"), ("sequence", None),
         ("sequence", "grid"), ("centerpoint", None), ("dalmatian", None), ("multigam", None)]
NAMES = ("Ann", "Ben", "Cy", "Di")
PRESSES = [Control.SELECT, Control.UP, Control.DOWN, Control.BACK, Control.HOLD1,
           Control.HOLD3, Control.HOLD5]


Frame = tuple[Counter[int], list[tuple[int, ...]], str]
"""What one frame showed: the dice drawn as dice, the throws written out (the opening's
panel), and its text."""


class Witness:
    """Renders the real screens and keeps, frame by frame, what each one showed."""

    def __init__(self) -> None:
        self.frames: list[Frame] = []

    @contextmanager
    def watching(self, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
        drawn: Counter[int] = Counter()
        written: list[tuple[int, ...]] = []
        real_die, real_throw = dice.draw_die, opening.draw_throw

        def draw_die(canvas: Any, x: int, y: int, face: int, solid: bool = False) -> None:
            drawn[face] += 1
            real_die(canvas, x, y, face, solid)

        def draw_throw(canvas: Any, right: int, y: int, faces: tuple[int, ...]) -> int:
            written.append(faces)
            return real_throw(canvas, right, y, faces)

        def render(view: View) -> Image.Image:
            drawn.clear()
            written.clear()
            banner.banner_bitmap.cache_clear()  # a kept band draws no dice: draw it again
            canvas = draw_screen(view)
            self.frames.append((Counter(drawn), list(written),
                                " ".join(run.text for run in canvas.texts)))
            return canvas.to_image()

        monkeypatch.setattr(dice, "draw_die", draw_die)
        monkeypatch.setattr(opening, "draw_throw", draw_throw)
        self.render = render
        yield


def shown(throw: tuple[int, ...], frame: Frame) -> bool:
    """Whether a frame showed ``throw``: its dice drawn, or its faces written out."""
    drawn, written, text = frame
    if not Counter(throw) - drawn or throw in written:
        return True
    return any(sep.join(map(str, faces)) in text
               for faces in (throw, sorted(throw)) for sep in ("-", "+", " "))


def throws(history: Sequence[Any]) -> list[int]:
    """Indexes of the throws in a game's history."""
    return [index for index, action in enumerate(history) if isinstance(action, Roll)]


@pytest.mark.parametrize(("name", "layout"), GAMES)
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_journaled_throw_was_drawn_on_a_frame(
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
        name: str, layout: str | None, data: st.DataObject) -> None:
    witness = Witness()
    path = tmp_path_factory.mktemp("j") / "j.sqlite3"
    with witness.watching(monkeypatch), Journal.open(path) as journal:
        stopped = threading.Event()  # the menu's "Shut down": the service ends
        players = NAMES[:max(2, game_class(name).MIN_PLAYERS)]
        game = new_game(name, len(players), list(players))
        journal.start(game)
        referee = Referee(
            Config(players=players, game=GameConfig(name)), journal, game=journal.resume(),
            render=witness.render, board=lambda: frozenset(), shutdown=stopped.set,
            recognise=(lambda g: recogniser_for(g, layout)) if layout else None)
        now, due = 0.0, referee.tick(0.0)
        seen_from: dict[int, int] = {}  # a throw's index in the history -> its first frame

        def step(event: Event | None) -> None:
            nonlocal due
            if event is not None:
                referee.handle(event)
            referee.frame()
            due = referee.tick(now)
            referee.frame()

        def wake(until: float) -> None:
            """The loop's timers due in a pause, each at its time."""
            nonlocal now
            spins = 0
            while due is not None and due <= until:
                spins = spins + 1 if due <= now else 0
                assert spins < 3, f"the referee asks to be woken at {due} again and again"
                now = max(now, due)
                step(None)
            now = until

        for _ in range(data.draw(st.integers(20, 80), "events")):
            table = referee.table
            if table is None or table.game.is_over or stopped.is_set():
                break
            before = len(table.game.history)
            wait = data.draw(st.sampled_from([0.0, 0.05, 0.3, 1.0, 3.0]), "wait")
            wake(now + wait)
            count = table.game.dice_wanted or 5
            event: Event = data.draw(st.one_of(
                st.tuples(*[st.integers(1, 6)] * count).map(lambda f: DiceRolled(f, "button")),
                st.sampled_from(PRESSES).map(ControlPressed)), "event")
            first = len(witness.frames)
            step(event)
            game = referee.table.game if referee.table is not None else table.game
            for index in throws(game.history[before:]):
                seen_from[before + index] = first
        wake(now + 5.0)  # the last throw tumbles on to its end
        history = (referee.table.game if referee.table is not None else game).history
        indexes = throws(history)
        for at, index in enumerate(indexes):
            start = seen_from[index]
            end = seen_from[indexes[at + 1]] if at + 1 < len(indexes) else len(witness.frames)
            throw = history[index].dice
            assert any(shown(throw, frame) for frame in witness.frames[start:end]), (
                f"{name}: throw #{at + 1} {throw} journaled and never drawn; the frames "
                f"after it wrote: {[text for _, _, text in witness.frames[start:end]]}")
