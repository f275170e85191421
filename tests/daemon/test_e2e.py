"""End to end: whole games played on mock pins through the real drivers, referee and journal.

The daemon is the one :func:`firmware_host.daemon.assemble` builds, run by its own loop on a
manual clock (the queue is the scenario runner's :class:`ScriptedTime`), so nothing sleeps.
A :class:`Player` polled by that loop acts as the hands at the table: it walks the start
menu with the knob, throws with the ROLL button, picks moves with the knob and SELECT, and
on a board with sensors moves the pieces and follows the screen's fixes.
"""

from __future__ import annotations

import json
import math
import random
import re
import sqlite3
from collections import Counter, deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack, closing
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image, ImageChops, ImageSequence

import games
from firmware_host import screens
from firmware_host.cli import main
from firmware_host.config import Config, GameConfig
from firmware_host.daemon import assemble
from firmware_host.journal import Journal
from firmware_host.loop import POLL_INTERVAL, Loop, every
from firmware_host.referee import Referee
from firmware_host.sim import scenario as scenarios
from firmware_host.sim.runner import ScriptedTime, play
from firmware_host.sim.scenario import Act, Step
from firmware_host.views import BoardFixView, GameView, MenuView, NoticeView, View
from games.core import GameState, Phase
from games.dalmatian import Dalmatian
from hardware.controls.mock_table import MockTable
from hardware.events import Control, Event
from hardware.pins.clock import ManualClock

CLICK_S = 0.03  # down long enough for the 20 ms debounce and two 5 ms polls
SETTLE_S = 0.03
PIECE_S = 0.2  # a hand moves a piece no faster: quicker, a cell changing 8 times a second
# reads as a chattering switch
MAX_DECISIONS = 5000
MISTAKES = 0.1  # how often a player at a board with sensors puts a piece down wrongly


def journaled(path: Path) -> list[tuple[dict[str, Any], list[str], str | None]]:
    """Every game in the journal at ``path``: its setup, its actions and its outcome.

    Read through a read-only connection, as another process would see the file."""
    with closing(sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT id, setup, outcome FROM games ORDER BY id").fetchall()
        found = []
        for game_id, setup, outcome in rows:
            actions = db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY seq",
                                 (game_id,)).fetchall()
            found.append((json.loads(setup), [a for (a,) in actions], outcome))
    return found


def replayed(setup: dict[str, Any], actions: list[str]) -> GameState[Any]:
    return games.from_json({**setup, "actions": actions})


# --- the shipped Dalmatian scenario


def test_the_dalmatian_scenario_plays_a_whole_game_scored_by_the_companion(
        tmp_path: Path) -> None:
    scenario = scenarios.load("dalmatian", "pi40-buttons")  # it names its own map
    out = tmp_path / "out"
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        played = play(scenario, Config(), journal, MockFactory(), out, seed=5)
        [game] = journal.finished_games()
    assert played.journal == "no game in progress"
    assert game.game == "dalmatian" and game.options["rounds"] == 12
    assert [(p.name, p.score, p.place) for p in game.players] == [("P1", 48, 1), ("P2", 42, 2)]
    [(setup, actions, outcome)] = journaled(path)
    assert outcome == "finished"
    assert actions[3:7] == ["roll 1-1-1-1-6", "reroll 1-1-1", "roll 6-6-6", "stop"]  # held
    final = replayed(setup, actions)
    assert isinstance(final, Dalmatian)
    assert final.is_over and final.scores() == (48, 42)
    assert final.sheet == ((4, 2), (4, 5)) * 6  # (P1, P2) in each round

    pngs = sorted(out.glob("frame-*.png"))
    assert played.frames == len(pngs) > 50
    with Image.open(played.gif) as gif:
        assert sum(1 for _ in ImageSequence.Iterator(gif)) == len(pngs)
    game_over = screens.render(GameView(final, (), 0, None, Config().hint))
    with Image.open(pngs[-1]) as last:
        assert ImageChops.difference(last.convert("1"), game_over).getbbox() is None


def test_the_dalmatian_scenario_runs_from_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "frames"
    status = main(["sim", "--scenario", "dalmatian", "--journal",
                   str(tmp_path / "j.sqlite3"), "--out", str(out)])
    assert status == 0
    said = capsys.readouterr().out
    assert said.startswith("scenario dalmatian: ") and "journal: no game in progress" in said
    assert (out / "dalmatian.gif").is_file()
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        assert [p.score for p in journal.finished_games()[0].players] == [48, 42]


# --- every game played to its end by a player at the table


@dataclass(frozen=True)
class Plan:
    """A game to play: which, with how many players, on which pin map, with which options
    changed in the options menu (option -> value as the menu shows it)."""

    game: str
    players: int
    pin_map: str = "pi40"
    options: dict[str, str] = field(default_factory=dict)


PLANS = {
    "centennial": Plan("centennial", 2, "pi40-track"),  # auto mode, markers on the track
    "sequence": Plan("sequence", 2, options={"sequence_length": "5"}),  # chips on the grid
    "centerpoint": Plan("centerpoint", 2),
    "dalmatian": Plan("dalmatian", 2),  # the config's game: two rounds
    "multigam": Plan("multigam", 4),
}
FIXES = (  # each fix the screen words, and the cells it moves a piece from and to
    (re.compile(r"move .+ from box (\d+) to box (\d+)"), "from", "to"),
    (re.compile(r"put .+ on (?:box )?(\w+)"), "to"),
    (re.compile(r"take .+ off the track from box (\d+)"), "from"),
    (re.compile(r"lift the \w+ from (?:box )?(\w+)"), "all from"),
)


class Player:
    """The hands at the table, polled by the daemon's loop like the simulator's keys.

    Once what it did last has settled (and the loop has handled what that caused), it looks
    at the referee's screen and does the next thing; ``rng`` chooses among legal moves.
    ``pieces`` counts the pieces on each cell: several markers may share a box, and the
    sensor sees only whether a box holds any.
    """

    def __init__(self, plan: Plan, table: MockTable, rng: random.Random,
                 decisions: int = MAX_DECISIONS) -> None:
        self.plan = plan
        self.limit = decisions
        self.table = table
        self.rng = rng
        self.loop: Loop | None = None
        self.referee: Referee | None = None
        self.pieces: Counter[tuple[int, int]] = Counter()
        self.acts: deque[Act] = deque()
        self.ready_at = 0.0
        self.quiet = False
        self.decisions = 0
        self.fixes_followed = 0
        self.moves_by_hand = 0
        self.mistakes: list[str] = []  # the cells of pieces put down wrongly
        self.erring = False  # since the last mistake, nothing but fixes

    def poll(self, now: float) -> None:
        while self.acts and self.acts[0].at <= now:
            self.acts.popleft().perform(self.table, self._no_dice)
        if self.acts or now < self.ready_at:
            self.quiet = False
            return
        if not self.quiet:  # the inputs were polled just before: let the loop take that first
            self.quiet = True
            return
        if self.referee is not None and self.referee.timers.tumble.busy:
            return  # the dice still tumble on the screen: nobody knows the throw yet
        self.decisions += 1
        steps = self.decide() if self.decisions <= self.limit else None
        if steps is None:
            assert self.loop is not None
            self.loop.stop()
            return
        at = now
        for step in steps:
            acts, at = step.acts(at)
            self.acts.extend(acts)
        self.ready_at = at
        self.quiet = False

    @staticmethod
    def _no_dice(event: Event) -> None:
        raise AssertionError(f"the player typed in {event}")

    # -- what to do next ------------------------------------------------------------------

    def decide(self) -> list[Step] | None:
        referee = self.referee
        assert referee is not None
        view = referee.view()
        match view:
            case MenuView():
                return self.in_menu(view)
            case BoardFixView(fixes=fixes):
                self.fixes_followed += 1
                return self.fix(fixes[0])
            case NoticeView():
                return [click(Control.SELECT)]
            case GameView(game=game, choices=choices):
                if game.is_over:
                    return None
                sensed = referee.table.recogniser is not None
                if sensed and self.rng.random() < MISTAKES and (wrong := self.mistake(choices)):
                    self.erring = True
                    return wrong
                self.erring = False
                if game.phase is Phase.ROLL:
                    return [click(Control.ROLL)]
                if sensed:
                    self.moves_by_hand += 1
                    return self.by_hand(self.rng.choice(choices))
                return self.choose(self.rng.randrange(len(choices)), len(choices), view.cursor)
        raise AssertionError(f"no plan for {view}")

    def in_menu(self, view: MenuView) -> list[Step]:
        """The plan's game, then its player count, then its options, then Start."""
        title = games.game_class(self.plan.game).TITLE
        if view.title == "New game":
            wanted = f"{title} ("
        elif view.title == f"{title} players":
            wanted = f"{self.plan.players} players"
        elif view.title == f"{title} options":
            options = games.game_class(self.plan.game).OPTIONS
            shown = set(zip(view.items, view.values, strict=True))
            changes = [options[key].label for key, value in self.plan.options.items()
                       if (options[key].label, options[key].text(value)) not in shown]
            wanted = changes[0] if changes else "Start"
        else:
            raise AssertionError(f"an unexpected menu: {view}")
        [target] = [i for i, item in enumerate(view.items) if item.startswith(wanted)]
        return self.choose(target, len(view.items), view.cursor)

    def choose(self, target: int, count: int, cursor: int) -> list[Step]:
        """Turn the knob from ``cursor`` to ``target`` (either way round), and SELECT."""
        detents = (target - cursor) % count
        if detents and self.rng.random() < 0.5:
            detents -= count
        turn = [Step("turn", "e2e", detents=detents, after=0.0)] if detents else []
        return [*turn, click(Control.SELECT)]

    def by_hand(self, move: str) -> list[Step]:
        """A Sequence Dice move made with the chips on the board."""
        verb, name = move.split()
        cell = self.cell(name)
        if verb == "place":
            return self.put(cell)
        if verb == "remove":
            return self.take(cell, all_of_them=True)
        assert verb == "replace", move  # the sensors cannot tell it from a change of mind:
        # the put offers it, SELECT plays it
        return [*self.take(cell, all_of_them=True), *self.put(cell), click(Control.SELECT)]

    def mistake(self, choices: tuple[str, ...]) -> list[Step]:
        """A piece put down where no move may put one now (none when every empty cell may
        take one)."""
        matrix = self.table.pin_map.matrix
        due = {choice.split()[-1] for choice in choices}
        wrong = [(row, col) for row in range(len(matrix.rows)) for col in range(len(matrix.cols))
                 if not self.pieces[row, col] and matrix.label(row, col) not in due]
        if not wrong:
            return []
        cell = self.rng.choice(wrong)
        self.mistakes.append(matrix.label(*cell))
        return self.put(cell)

    def fix(self, text: str) -> list[Step]:
        """Do what one line of the board-fix screen says."""
        for pattern, *roles in FIXES:
            found = pattern.fullmatch(text)
            if found is None:
                continue
            steps: list[Step] = []
            for role, name in zip(roles, found.groups(), strict=True):
                cell = self.cell(name)
                steps += self.put(cell) if role == "to" else \
                    self.take(cell, all_of_them=role == "all from")
            return steps
        raise AssertionError(f"cannot follow {text!r}")

    def cell(self, name: str | None) -> tuple[int, int]:
        assert name is not None
        cell = scenarios.cell_named(self.table.pin_map.matrix, name)
        assert cell is not None, name
        return cell

    def put(self, cell: tuple[int, int]) -> list[Step]:
        self.pieces[cell] += 1
        return [Step("place", "e2e", cell=cell, after=PIECE_S)] if self.pieces[cell] == 1 else []

    def take(self, cell: tuple[int, int], all_of_them: bool = False) -> list[Step]:
        assert self.pieces[cell] > 0, f"no piece on {cell} to take"
        self.pieces[cell] = 0 if all_of_them else self.pieces[cell] - 1
        return [Step("lift", "e2e", cell=cell, after=PIECE_S)] if not self.pieces[cell] else []


def click(control: Control) -> Step:
    return Step("click", "e2e", control=control, seconds=CLICK_S, after=SETTLE_S)


class ShownMessages:
    """Each notice the screen showed (a refusal, a warning), once per appearance, and
    whether the player had just made a mistake then."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.seen: list[tuple[str, bool]] = []
        self.fix_screens = 0
        self._showing: str | None = None

    def render(self, view: View) -> Image.Image:
        message = None
        match view:
            case GameView() | MenuView():
                message = view.message
            case BoardFixView():
                self.fix_screens += 1
            case NoticeView(lines=lines):
                message = " / ".join(lines)
        if message is not None and message != self._showing:
            self.seen.append((message, self.player.erring))
        if not isinstance(view, BoardFixView):  # the fixes cover a notice for a while
            self._showing = message
        return RENDER(view)


RENDER = screens.render


class LastFrame:
    """The screen: keeps the latest frame only."""

    def __init__(self) -> None:
        self.image: Image.Image | None = None

    def show(self, image: Image.Image) -> None:
        self.image = image


@dataclass
class Evening:
    """What one game at the table left behind."""

    referee: Referee
    player: Player
    messages: ShownMessages
    screen: LastFrame
    journal: Path
    magnets: frozenset[tuple[int, int]]  # on the board at the end


@pytest.fixture
def evening(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[
        Callable[..., Evening]]:
    def run(plan: Plan, seed: int, *, decisions: int = MAX_DECISIONS,
            resume: Evening | None = None) -> Evening:
        """Play ``plan``; with ``resume``, go on with that evening's journal and board."""
        config = replace(Config(), pin_map=plan.pin_map, display=None, players=("Ann", "Ben"),
                         game=GameConfig("dalmatian", {"rounds": 2}))
        factory = MockFactory()
        clock = ManualClock()
        table = MockTable(config.pins(), factory)  # before the drivers claim the pins
        player = Player(plan, table, random.Random(seed), decisions)
        if resume is not None:
            table.board.set(resume.magnets)
            player.pieces.update(resume.player.pieces)
        messages = ShownMessages(player)
        monkeypatch.setattr(screens, "render", messages.render)
        events = ScriptedTime(clock, [], math.inf, table)
        path = resume.journal if resume else tmp_path / f"{plan.game}-{seed}.sqlite3"
        screen = LastFrame()
        with ExitStack() as resources:
            resources.callback(factory.close)
            journal = resources.enter_context(Journal.open(path))
            daemon = assemble(config, journal, factory, screen, resources, events=events,
                              clock=clock, rng=random.Random(seed),
                              pollers=[every(POLL_INTERVAL, player.poll)])
            referee = daemon.loop.controller
            assert isinstance(referee, Referee)
            player.loop, player.referee = daemon.loop, referee
            daemon.loop.run()
        return Evening(referee, player, messages, screen, path, frozenset(table.board.magnets))

    yield run


@pytest.mark.parametrize("name", list(games.REGISTRY))
def test_every_game_is_played_to_its_end_at_the_table(
        name: str, evening: Callable[..., Evening]) -> None:
    plan = PLANS[name]
    played = evening(plan, 1)
    game = played.referee.game
    assert game is not None and name == game.NAME
    assert game.is_over, f"{name} did not end in {MAX_DECISIONS} decisions"
    assert game.players == plan.players
    for key, value in plan.options.items():
        assert str(game.setup.options[key]) == value
    told = [(text, erring) for text, erring in played.messages.seen  # what a throw did, said
            if not any(said in text for said in (" threw ", "to replace:", "SELECT replaces",
                                                    "SELECT again to stop"))]
    # over the next screen, how a replacement is made (the sensors see no colour), and the
    # question a stop with rerolls left asks
    unexplained = [text for text, erring in told if not erring]
    assert unexplained == [], ("a refusal or notice the player did not cause", played.messages.seen)
    assert bool(told) == bool(played.player.mistakes)

    [(setup, actions, outcome)] = journaled(played.journal)
    assert outcome == "finished"
    assert actions == [str(action) for action in game.history]
    again = replayed(setup, actions)
    assert again.is_over and again.result() == game.result()
    assert again.scores() == game.scores()
    result = game.result()
    assert result is not None
    with Journal.open(played.journal) as journal:
        [finished] = journal.finished_games()
    assert [p.score for p in finished.players] == list(result.scores)
    assert {p.seat for p in finished.players if p.place == 1} == set(result.winners)
    assert played.screen.image is not None  # the last screen: the result
    game_over = RENDER(GameView(game, (), 0, None, played.referee.settings.hint))
    assert ImageChops.difference(played.screen.image, game_over).getbbox() is None

    sensed = played.referee.table.recogniser is not None
    assert sensed == (name in ("centennial", "sequence"))
    if name == "sequence":  # every kind of move, made with the chips
        assert {str(a).split()[0] for a in game.history} == {"roll", "place", "replace", "remove"}
        assert played.player.moves_by_hand > 0
    if name == "centennial":  # auto mode: every move of a marker came as a fix to follow
        assert played.player.fixes_followed > 0 and played.messages.fix_screens > 0
    if sensed:  # mistakes were made and put right; the board agrees with the game at the end
        assert played.player.mistakes
        assert played.referee.table.fixes == ()


def test_a_sensed_game_resumes_with_its_pieces_on_the_board(
        evening: Callable[..., Evening]) -> None:
    first = evening(PLANS["sequence"], 1, decisions=40)
    assert first.referee.game is not None and not first.referee.game.is_over
    assert first.referee.table.fixes == () and first.magnets
    again = evening(PLANS["sequence"], 1, decisions=0, resume=first)  # only look
    assert again.referee.game is not None
    assert [str(a) for a in again.referee.game.history] == [
        str(a) for a in first.referee.game.history]
    assert again.referee.table.fixes == ()
    resumed = f"resumed after {len(first.referee.game.history)} moves"
    assert again.messages.seen == [(resumed, False)]
