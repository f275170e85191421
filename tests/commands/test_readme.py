"""What the README tells a newcomer, checked against the thing itself: the pin maps and the
games they sense (from wiring/), the example config (it names the players of a game started
in the simulator), and the terminal sizes each view needs (measured in a pseudo-terminal)."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest
from pty_helpers import Terminal

import games
from firmware_host.journal import Journal
from firmware_host.sensing import recogniser_for
from firmware_host.sim.view import VIEWS
from hardware.wiring.pinmap import DEFAULT_MAP, load_pin_map, map_names

ROOT = Path(__file__).parents[2]
README = (ROOT / "README.md").read_text()
EXAMPLE = ROOT / "docs" / "examples" / "centennial-on-the-track.toml"
BOARDS = {"grid": "6x6 grid", "track": "12-box track"}


def test_the_readmes_table_of_pin_maps_is_the_wiring() -> None:
    rows = re.findall(r"^\| `([\w-]+)`(?: \(default\))? \| (.+?) \| (.+?) \| (.+?) \|$",
                      README, flags=re.M)
    table = {name: (board, sensed, holds) for name, board, sensed, holds in rows
             if (board, sensed) != ("board", "sensed game")}
    expected = {}
    for name in map_names():
        pins = load_pin_map(name)
        layout = pins.matrix.layout
        sensed = [games.game_class(game).TITLE for game in games.REGISTRY
                  if recogniser_for(games.new_game(game), layout,
                                    columns=len(pins.matrix.cols)) is not None]
        holds = sum(control.value.startswith("hold") for control in pins.buttons)
        expected[name] = (BOARDS[layout], " and ".join(sensed), str(holds or "none"))
    assert table == expected
    assert f"| `{DEFAULT_MAP}` (default) |" in README


def test_the_example_config_names_the_players_of_a_game_in_the_simulator(
        tmp_path: Path) -> None:
    assert f"./run.sh sim --config {EXAMPLE.relative_to(ROOT)}" in README
    journal = tmp_path / "journal.sqlite3"
    with Terminal(80, 24, "sim", "--config", str(EXAMPLE), "--journal", str(journal)) as sim:
        sim.wait_for("pin map pi40-track")
        for _ in range(3):  # the game, the players, Start: as the README says
            sim.type(b"\r")
            time.sleep(0.3)
        sim.type(b"q")
        assert sim.wait() == 0
    with Journal.open_existing(journal) as opened:
        game = opened.resume()
    assert game is not None and game.TITLE == "Centennial"
    assert game.setup.names == ("Ann", "Ben", "Cat")


@pytest.mark.parametrize(("view", "stated"), [
    ("braille", "it needs 80x21, or 66x22 in a narrower terminal"),
    ("sextants", "`--view sextants` (2x3\npixels a character, 80x27 or 66x28"),
    ("blocks", "From 130x37 it is drawn in half blocks"),
])
def test_the_terminal_sizes_in_the_readme_are_the_smallest_that_draw(
        view: str, stated: str, tmp_path: Path) -> None:
    assert stated in README
    sizes = [tuple(map(int, size)) for size in re.findall(r"(\d\d+)x(\d\d+)", stated)]
    with Terminal(*sizes[0], "sim", "--view", view, "--journal",
                  str(tmp_path / "journal.sqlite3")) as sim:
        sim.wait_for("q quit")  # the first frame: from here on a resize is followed
        for columns, rows in sizes:
            smaller = [(columns, rows - 1)]
            if columns == VIEWS[view].columns:
                smaller.append((columns - 1, rows))
            for size in smaller:
                assert "Enlarge" in sim.resize(*size), (view, size)
            assert "Enlarge" not in sim.resize(columns, rows), (view, columns, rows)
        sim.type(b"q")
        assert sim.wait() == 0


def test_the_simulator_keeps_taking_keys_through_a_storm_of_resizes(tmp_path: Path) -> None:
    """A SIGWINCH that lands while the loop waits on its queue must not leave it asleep."""
    with Terminal(80, 24, "sim", "--journal", str(tmp_path / "journal.sqlite3")) as sim:
        sim.wait_for("q quit")
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:
            for _ in range(200):
                os.kill(sim.child.pid, signal.SIGWINCH)
            sim.read(0.001)
        sim.type(b"q")
        assert sim.wait(10) == 0


def layout_folders() -> set[str]:
    """The folders the README's layout names, each level indented two spaces further."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("\ngames/ ")
    block = text[start + 1:text.index("```", start)]
    folders: list[str] = []
    named = set()
    for line in block.splitlines():
        found = re.match(r"( *)([\w-]+)/ ", line)
        if found:
            depth = len(found.group(1)) // 2
            folders[depth:] = [found.group(2)]
            named.add("/".join(folders))
    return named


def test_the_readmes_layout_names_every_package_of_the_programs_and_every_test_folder() -> None:
    packages = {p.parent.relative_to(ROOT).as_posix()
                for p in (ROOT / "firmware_host").rglob("__init__.py")}
    test_folders = {p.parent.relative_to(ROOT).as_posix()
                    for p in (ROOT / "tests").rglob("test_*.py")}
    assert sorted((packages | test_folders) - layout_folders()) == []
