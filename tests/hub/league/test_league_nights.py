"""Three nights of a league through real publishers, Mosquitto and a hub process.

Each table's journal is written by the journal's own code, with a clock set to three past
evenings (the hub dates a game by its start, by its own clock); each table's publisher
sends it and the hub keeps every night. After the first night the host merges two names
with ``table-companion roster merge``, and the hub reads its roster file again. Then:
every game of every night is on the right player's page; the ratings the hub shows equal a
computation from scratch over the journals' games; each player's luck and decisions equal
the sum of an independent expectimax computation (tests/games/test_dalmatian_luck.py's
reference, from the rule text) over every Dalmatian turn they played; the fair roller's
dice are not flagged and the loaded one's (a six a third of the time) are; every "Add to
BG Stats" link decodes to its game's record; every JSON the hub serves validates against
the schema; and a player's page shows its rating chart and dice histogram in headless
Chromium at 390x844 (the screenshot is kept in build/night/).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import urllib.request
from collections import defaultdict
from collections.abc import Callable, Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from night_parts import PHONE, ROOT, Broker, Hub, Table, until
from schema_helpers import check
from test_dalmatian_luck import _turns_done, decide, reference
from test_game_page import linked_play, record

from firmware_host.hub.league.league import build
from firmware_host.hub.league.roster import read
from firmware_host.journal import Journal
from firmware_host.night.follow import as_game
from firmware_host.night.topics import Game
from games.core import Phase, Roll
from games.dalmatian import Dalmatian

SHOT = ROOT / "build" / "night" / "player-page-390x844.png"
# table name, players each night (Chris at one table and Christopher at the other are one
# person, merged after the first night), the dice
SEATS = {
    "Table 1": (("Ann", "Chris", "Ben"), "fair"),
    "Table 2": (("Christopher", "Cat", "José"), "loaded"),
}
GAMES_A_NIGHT = 2
LOADED_SIX = 1 / 3


class SetClock:
    """The journal's clock: an evening of the test's choosing, a minute on at each look."""

    def __init__(self) -> None:
        self.now = datetime.now().astimezone()

    def evening(self, night: date, hour: int) -> None:
        self.now = datetime(night.year, night.month, night.day, hour,
                            tzinfo=datetime.now().astimezone().tzinfo)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=20)
        return self.now


def roller(kind: str, seed: int) -> Callable[[int], tuple[int, ...]]:
    rng = random.Random(seed)
    weights = [1.0] * 5 + [5 * LOADED_SIX / (1 - LOADED_SIX) if kind == "loaded" else 1.0]
    return lambda count: tuple(rng.choices(range(1, 7), weights)[0] for _ in range(count))


def play_game(journal: Journal, names: tuple[str, ...], dice: Callable[[int], tuple[int, ...]],
              choices: random.Random) -> list[tuple[int, float, float, int]]:
    """A game of Dalmatian of two rounds into ``journal``, thrown by ``dice``; choices half
    the reference's best, half at random. Each turn as the reference values it: (seat,
    luck, decisions, scored), luck being the score less the chosen plays' expected worth."""
    game = Dalmatian.new(names=list(names), rounds=2)
    journal.start(game)
    turns: list[tuple[int, float, float, int]] = []
    cost = 0.0
    while not game.is_over:
        if game.phase is Phase.ROLL:
            journal.apply(game, Roll(dice(game.dice_wanted)), source="button")
        else:
            assert game.total is not None and game.rerolls_left is not None
            ref = reference(game.total, game.several_groups, False)
            decision, lost = decide(ref.holds(game.dice, game.rerolls_left), game.dice, choices)
            cost += lost
            journal.apply(game, decision)
        turn = game.last_turn
        if turn is not None and len(turns) < _turns_done(game):
            ref = reference(turn.total, game.several_groups, False)
            scored = ref.score(turn.dice)
            optimal = ref.throw((), 2)
            turns.append((turn.player, scored - (optimal - cost), cost, scored))
            cost = 0.0
    return turns


@pytest.fixture
def league_hub(tmp_path: Path, broker: Broker) -> Iterator[Hub]:
    opened = (date.today() - timedelta(days=3)).isoformat()  # the test's three past nights
    hub = Hub(tmp_path, broker, args=("--roster", str(tmp_path / "roster.toml"),
                                      "--open-since", opened)).start()
    yield hub
    if hub.tool is not None:
        hub.tool.stop()


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as reply:
        text = reply.read().decode()
    return json.loads(text) if reply.headers["Content-Type"] == "application/json" else text


def test_three_nights_of_a_league(tmp_path: Path, broker: Broker, league_hub: Hub,
                                  browser: Any) -> None:
    hub = league_hub
    tables = {name: Table(tmp_path / name.replace(" ", ""), name, seats, broker).write()
              for name, (seats, _) in SEATS.items()}
    clock = SetClock()
    journals = {name: Journal.open(table.journal, clock) for name, table in tables.items()}
    dice = {name: roller(kind, seed) for seed, (name, (_, kind)) in enumerate(SEATS.items())}
    choices = random.Random(7)
    expected_luck: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for table in tables.values():
        table.publish()
    nights = [date.today() - timedelta(days=days) for days in (3, 2, 1)]
    roster = tmp_path / "roster.toml"
    try:
        for number, night in enumerate(nights):
            for hour, name in enumerate(SEATS):
                clock.evening(night, 19 + hour)
                names = SEATS[name][0]
                for _ in range(GAMES_A_NIGHT):
                    for seat, luck, cost, _ in play_game(journals[name], names, dice[name],
                                                         choices):
                        expected_luck[names[seat]][0] += luck
                        expected_luck[names[seat]][1] += cost
            held = {(g.night, g.table, g.id) for t in tables.values() for g in finished(t)}
            until(lambda so_far=nights[:number + 1], held=held: at_hub(hub, so_far) == held,
                  30, f"night {number + 1}'s games at the hub")
            if number == 0:
                merged = subprocess.run(
                    [sys.executable, "-m", "firmware_host.cli", "roster", "merge",
                     "Christopher", "Chris", "--roster", str(roster)],
                    cwd=ROOT, capture_output=True, text=True, timeout=30, check=True)
                assert "christopher: Christopher, also Chris" in merged.stdout
                until(lambda: "chris" not in {p["id"] for p in get(hub.url + "league.json")[
                    "players"]}, 10, "the hub reading the roster again")
        games = [g for t in tables.values() for g in finished(t)]
        check_league(hub, games, read(roster), expected_luck)
        check_dice(hub)
        check_links_and_schema(hub, tables, nights)
        look_at_a_player(hub, browser)
    finally:
        for journal in journals.values():
            journal.close()
        for table in tables.values():
            if table.publisher is not None:
                table.publisher.stop()


def finished(table: Table) -> list[Game]:
    """The table's finished games as its publisher sends them (before the hub dates them:
    the same night here, where the hub and the tables share a clock)."""
    with Journal.open_existing(table.journal) as journal:
        return [as_game(table.id, table.name, g) for g in journal.finished_games()]


def at_hub(hub: Hub, nights: list[date]) -> set[tuple[str, str, int]]:
    """The games of ``nights`` the hub shows: (night, table, game id)."""
    found = set()
    for night in nights:
        try:
            games = get(f"{hub.url}nights/{night.isoformat()}.json")["games"]
        except OSError:  # not found: no game of that night yet
            continue
        found |= {(g["night"], g["table"], g["id"]) for g in games}
    return found


def check_league(hub: Hub, games: list[Game], roster: Any,
                 expected_luck: dict[str, list[float]]) -> None:
    league = get(hub.url + "league.json")
    check("hubLeague", league)
    fresh = build(games, roster)
    shown = {p["id"]: p for p in league["players"]}
    assert shown.keys() == fresh.players.keys() == {
        "ann", "christopher", "ben", "cat", "jose"}
    for player_id, player in fresh.players.items():
        record_ = shown[player_id]
        assert record_["rating"]["mu"] == pytest.approx(player.rating.mu, abs=1e-3)
        assert record_["rating"]["sigma"] == pytest.approx(player.rating.sigma, abs=1e-3)
        # three nights at one table, or for Chris and Christopher, one at each
        assert record_["rating"]["games"] == len(player.appearances) == 3 * GAMES_A_NIGHT * (
            2 if player_id == "christopher" else 1)
        # every game of every night on the right page, once
        page = get(f"{hub.url}players/{player_id}.json")
        check("hubPlayer", page)
        assert [(g["night"], g["table"], g["id"]) for g in page["games"]] == [
            (a.game.night, a.game.table, a.game.id) for a in player.appearances]
        luck = sum(g["luck"] for g in page["games"])
        decisions = sum(g["decisions"] for g in page["games"])
        spelled = {a.name for a in player.appearances}
        want = [sum(expected_luck[n][i] for n in spelled) for i in (0, 1)]
        games_played = len(page["games"])  # each game's figures are sent in hundredths
        assert luck == pytest.approx(want[0], abs=0.006 * games_played)
        assert decisions == pytest.approx(want[1], abs=0.006 * games_played)
    assert {a.name for a in fresh.players["christopher"].appearances} == {"Chris",
                                                                          "Christopher"}


def check_dice(hub: Hub) -> None:
    """The loaded roller is flagged, the fair one not, on the night's dice report and on
    the players' pages."""
    report = get(hub.url + "dice")
    sections = {part.split("</h2>")[0].split(",")[0]: part.split("</section>")[0]
                for part in report.split('<section class="dice-report"><h2>')[1:]}
    assert "nothing unusual" in sections["Table 1"]
    assert "unusual: fair dice throw this unevenly" in sections["Table 2"]
    assert '<p class="verdict">Unusual once all ' in report  # one verdict for the page
    jose = get(hub.url + "players/jose")
    assert "unusual" in jose and '<svg class="histogram"' in jose


def check_links_and_schema(hub: Hub, tables: dict[str, Table], nights: list[date]) -> None:
    for night in nights:
        check("hubNight", get(f"{hub.url}nights/{night.isoformat()}.json"))
    check("hubNight", get(hub.url + "night.json"))
    for table in tables.values():
        with Journal.open_existing(table.journal) as journal:
            for game in journal.finished_games():
                page = get(f"{hub.url}nights/{game.night.isoformat()}/{table.id}/{game.id}")
                assert linked_play(page) == record(table, game, journal.actions(game))


def look_at_a_player(hub: Hub, browser: Any) -> None:
    phone = browser.new_page(viewport=PHONE)
    phone.goto(hub.url + "players/christopher", wait_until="domcontentloaded")
    chart = phone.locator("svg.rating-chart")
    histogram = phone.locator("#dice svg.histogram")
    assert chart.is_visible() and histogram.is_visible()
    assert chart.bounding_box()["width"] <= PHONE["width"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SHOT), full_page=True)
    phone.close()
