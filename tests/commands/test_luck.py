"""``table-companion luck``: a journal's Dalmatian games through the real CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from journal_helpers import FakeClock, new_game, play, register_highdie

from firmware_host.cli import main
from firmware_host.journal import Journal
from games.dalmatian import Dalmatian
from games.dalmatian_luck import by_player, turns


@pytest.fixture(autouse=True)
def _highdie(monkeypatch: pytest.MonkeyPatch) -> None:
    register_highdie(monkeypatch)


def random_game(journal: Journal, seed: int, names: list[str], **options: Any) -> Dalmatian:
    """A finished game of three rounds: random dice, and the advisor's choice or a stop."""
    rng = random.Random(seed)
    game = Dalmatian.new(names=names, rounds=3, **options)
    journal.start(game)
    while not game.is_over:
        advice = game.advice()
        if advice is None:
            dice = "-".join(str(rng.randint(1, 6)) for _ in range(game.dice_wanted))
            journal.apply(game, f"roll {dice}")
        elif advice.stops or rng.random() < 0.3:
            journal.apply(game, "stop")
        else:
            journal.apply(game, "reroll " + "-".join(map(str, advice.reroll)))
    return game


@pytest.fixture
def journal_path(tmp_path: Path) -> tuple[Path, list[Dalmatian]]:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path, FakeClock()) as journal:
        played = [random_game(journal, 1, ["Ann", "Bob"]),
                  random_game(journal, 2, ["Bob", "Cy", "Ann"], reroll_budget="8")]
        game = new_game()  # another game: not in the report
        journal.start(game)
        play(journal, game, "roll 5", "bank")
    return path, played


def test_each_player_of_each_game_and_the_nights_totals(
        journal_path: tuple[Path, list[Dalmatian]], capsys: pytest.CaptureFixture[str]) -> None:
    path, played = journal_path
    assert main(["luck", "--journal", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    expected = [by_player(g.setup, turns(g.setup, [str(a) for a in g.history])) for g in played]
    assert out[0] == "Dalmatian #1, 2026-11-21 20:01"
    assert out[1] == (f"  {expected[0][0]} (scored {expected[0][0].scored}; best play "
                      f"averages {expected[0][0].optimal:.2f})")
    assert out[1].startswith("  Ann: ") and " luck, " in out[1]
    assert out[3].startswith("Dalmatian #2, ")
    assert out[7] == "All these games:"
    totals = {name: sum(p.luck for game in expected for p in game if p.name == name)
              for name in ("Ann", "Bob", "Cy")}
    assert [line.split(":")[0].strip() for line in out[8:]] == sorted(totals,
                                                                       key=lambda n: -totals[n])


def test_json_has_every_turn(journal_path: tuple[Path, list[Dalmatian]],
                             capsys: pytest.CaptureFixture[str],
                             ) -> None:
    path, played = journal_path
    assert main(["luck", "--journal", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [g["id"] for g in data] == [1, 2]
    for game, record in zip(played, data, strict=True):
        found = turns(game.setup, [str(a) for a in game.history])
        assert [p["name"] for p in record["players"]] == list(game.setup.names)
        for seat, player in enumerate(record["players"]):
            mine = [t for t in found if t.player == seat]
            assert [t["scored"] for t in player["turns"]] == [t.scored for t in mine]
            assert [t["luck"] for t in player["turns"]] == pytest.approx([t.luck for t in mine])
            assert player["scored"] == game.scores()[seat]


def test_a_night_without_dalmatian(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   ) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path, FakeClock()) as journal:
        game = new_game()
        journal.start(game)
        play(journal, game, "roll 5", "bank")
    assert main(["luck", "--journal", str(path)]) == 0
    assert capsys.readouterr().out == "No finished Dalmatian game on that night.\n"


def test_under_best_score_only_the_report_names_the_score_it_explains(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Luck explains the dice's score; the game keeps only each round's best, and the
    report says both where they differ."""
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path, FakeClock()) as journal:
        game = random_game(journal, 3, ["Ann", "Bob"], round_winner_only=True)
    report = by_player(game.setup, turns(game.setup, [str(a) for a in game.history]))
    differ = [p for p in report if p.scored != game.scores()[p.player]]
    assert differ, "the seed should give a player a round that is not the round's best"
    assert main(["luck", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    for player in differ:
        assert (f"the dice scored {player.scored}, the game kept "
                f"{game.scores()[player.player]}: a round's best score only") in out
    assert "-0.00" not in out
