"""One kit per game: every registered game brings each part the table needs, and a game that
misses one is caught, shown on a sixth game planted in a module of the test's own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import games
from firmware_host.kits import GAME_TABLE, KITS, Kit, KitError, problems
from firmware_host.referee.settings import Settings
from firmware_host.referee.tables import GameTable, table_for
from firmware_host.screens import draw, game_screen
from firmware_host.sensing import recogniser_for

ROOT = Path(__file__).resolve().parents[2]

SIXTH = '''
from test_core import HighDie


class Sixth(HighDie):
    NAME = "sixth"
    TITLE = "Sixth"
    THROW_SHOWN = False
    NO_MOVE_TOLD = True


class Mute(HighDie):
    NAME = "sixth"
    TITLE = "Sixth"


class NotATable:
    pass
'''

WHOLE = Kit(screen="firmware_host.screens.plain", table=GAME_TABLE, recognisers={})
SEQUENCE_READER = "firmware_host.sensing.sequence:SequenceRecogniser"


def incomplete() -> dict[str, list[str]]:
    """Each registered game whose kit or rules miss a part, with what is missing."""
    return {name: found for name in games.REGISTRY if (found := problems(name))}


@pytest.fixture
def sixth(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sixth game registered as a new one would be: a rules module and one kit entry."""
    (tmp_path / "sixth_game.py").write_text(SIXTH)
    monkeypatch.syspath_prepend(tmp_path)
    monkeypatch.setitem(games.REGISTRY, "sixth", "sixth_game:Sixth")
    monkeypatch.setitem(KITS, "sixth", WHOLE)


def test_every_registered_game_has_a_whole_kit() -> None:
    assert list(KITS) == list(games.REGISTRY)
    assert incomplete() == {}


def test_a_planted_sixth_game_with_its_kit_is_played_and_drawn(sixth: None) -> None:
    assert incomplete() == {}
    game = games.new_game("sixth", names=["Ann", "Ben"])
    table = table_for(game)
    assert type(table) is GameTable
    assert recogniser_for(game, "grid") is None
    assert game_screen("sixth").__name__ == "firmware_host.screens.plain"
    shown = [run.text for run in draw(table.view(Settings(), None)).texts]
    assert shown == ["roll 1", "Ann", "Ann", "0", "Ben", "0"]  # the plain screen's


@pytest.mark.parametrize(("rules", "kit", "missing"), [
    ("Mute", WHOLE, ["Mute does not say THROW_SHOWN (True or False)",
                     "Mute does not say NO_MOVE_TOLD (True or False)"]),
    ("Sixth", None, ["game 'sixth' has no kit: declare its parts in firmware_host.kits.KITS"]),
    ("Sixth", Kit("firmware_host.screens.sixth", GAME_TABLE, {}),
     ["sixth: its screen firmware_host.screens.sixth cannot be loaded (No module named "
      "'firmware_host.screens.sixth')"]),
    ("Sixth", Kit("sixth_game", GAME_TABLE, {}),
     ["sixth: its screen sixth_game is not a module with draw(canvas, view)"]),
    ("Sixth", Kit("firmware_host.screens.plain", "sixth_game:NotATable", {}),
     ["sixth: its table sixth_game:NotATable is not a GameTable"]),
    ("Sixth", Kit("firmware_host.screens.plain", "sixth_game:SixthTable", {}),
     ["sixth: its table sixth_game:SixthTable cannot be loaded (module 'sixth_game' has no "
      "attribute 'SixthTable')"]),
    ("Sixth", Kit("firmware_host.screens.plain", GAME_TABLE, {"hex": SEQUENCE_READER}),
     ["sixth: no matrix layout 'hex' (layouts: grid, track)"]),
    ("Sixth", Kit("firmware_host.screens.plain", GAME_TABLE, {"grid": "sixth_game:NotATable"}),
     ["sixth: its grid recogniser sixth_game:NotATable is not a Recogniser"]),
])
def test_a_sixth_game_missing_a_part_fails_the_test_over_every_game(
        sixth: None, monkeypatch: pytest.MonkeyPatch, rules: str, kit: Kit | None,
        missing: list[str]) -> None:
    monkeypatch.setitem(games.REGISTRY, "sixth", f"sixth_game:{rules}")
    if kit is None:
        monkeypatch.delitem(KITS, "sixth")
    else:
        monkeypatch.setitem(KITS, "sixth", kit)
    assert incomplete() == {"sixth": missing}


def test_a_game_without_a_kit_gets_no_plainer_table(sixth: None,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(KITS, "sixth")
    game = games.new_game("sixth", names=["Ann", "Ben"])
    for lookup in (lambda: table_for(game), lambda: game_screen("sixth"),
                   lambda: recogniser_for(game, "grid")):
        with pytest.raises(KitError, match=r"^game 'sixth' has no kit"):
            lookup()


def test_a_kit_is_written_with_every_part() -> None:
    with pytest.raises(TypeError, match="recognisers"):
        Kit(screen="firmware_host.screens.plain", table=GAME_TABLE)  # type: ignore[call-arg]
    with pytest.raises(KitError, match="names each part"):
        Kit(screen="firmware_host.screens.plain", table=" ", recognisers={})


def test_a_registered_game_without_a_kit_is_an_error_at_import() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import games\ngames.REGISTRY['sixth'] = 'sixth_game:Sixth'\n"
         "import firmware_host.kits"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "firmware_host.kits.KitError: games without a kit: sixth; declare their parts in "
        "firmware_host.kits.KITS")
