"""``table-companion seat``: a night's TOML in, the seating and its reasons out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from seat_helpers import seat

NIGHT = """\
players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
apart = [["Ann", "Bob"]]
rounds = [[["Ann", "Cy", "Eve", "Gus"], ["Bob", "Dee", "Fay", "Hal"]]]
ratings.Ann = 1500
ratings.Bob = 1400
ratings.Cy = 1600
ratings.Dee = 1450
ratings.Eve = 1300
ratings.Fay = 1550
ratings.Gus = 1500
ratings.Hal = 1700
[[tables]]
name = "1"
game = "centennial"
[[tables]]
name = "2"
game = "sequence"
"""


def test_the_seating_is_explained(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = seat(tmp_path, capsys, NIGHT, "--seed", "7")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "8 players at 2 tables (4, 4): as even as the games allow"
    assert "4 repeated meetings: no grouping has fewer." in lines
    assert "Kept apart: Ann and Bob." in lines
    assert any(line.startswith("  teams: ") and " against " in line for line in lines)
    assert sum("met once already" in line for line in lines) == 4
    assert seat(tmp_path, capsys, NIGHT, "--seed", "7")[1] == out  # the same seed, the same


def test_json_names_every_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = seat(tmp_path, capsys, NIGHT, "--json")
    data = json.loads(out)
    assert status == 0 and data["repeats"] == 4 and data["exhaustive"] is True
    assert sorted(p for t in data["tables"] for p in t["players"]) == sorted(
        ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"])
    sequence = next(t for t in data["tables"] if t["game"] == "sequence")
    assert len(sequence["teams"]) == 2


@pytest.mark.parametrize(("text", "message"), [
    ("players = [\"Ann\"]\n", "night.toml: tables: missing or not a list of tables"),
    (NIGHT.replace('game = "sequence"', 'game = "chess"'), "table 2: no game 'chess'"),
    (NIGHT.replace("Hal = 1700", "Hal = \"high\""), "night.toml: ratings.Hal: 'high' is not"),
    (NIGHT.replace("ratings.Gus = 1500\n", ""), "Gus has no rating"),
    (NIGHT.replace("Hal = 1700", "Hal = inf"), "night.toml: ratings.Hal: inf is not a number"),
    (NIGHT.replace('"Hal"]\n', '"Hal", "Ivy", "Jo", "Kim", "Lu", "Max", "Ned", "Oz"]\n', 1)
     .replace("ratings.", "# ratings."),
     "15 players but the tables seat at most 12 (table 1 Centennial 2-8, "),
    (NIGHT.replace('["Ann", "Bob"]]', '["Ann", "Bob"], ["Ann", "Cy"], ["Ann", "Dee"], '
                   '["Ann", "Eve"], ["Ann", "Fay"], ["Ann", "Gus"], ["Ann", "Hal"]]'),
     "Ann is marked apart from every other present player"),
    (NIGHT.replace("rounds = [[[", "rounds = [[[\"Ann\"], ["), "Ann sits at two tables"),
    ("colour = 1\n" + NIGHT, "night.toml: colour: unknown key"),
    ("players = [", "night.toml, line 1, column 12: not valid TOML: Invalid value at the end"),
    ("players = [\"Ann\"]\n[[tables]\n",
     "night.toml, line 2, column 9: not valid TOML: Expected ']]'"),
])
def test_bad_input_is_one_line_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         text: str, message: str) -> None:
    status, out, err = seat(tmp_path, capsys, text)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("table-companion seat: error: ")
    assert message in err


def test_an_impossible_apart_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Four players at one Multi-Gam table cannot keep Ann and Bob apart."""
    text = ('players = ["Ann", "Bob", "Cy", "Dee"]\napart = [["Ann", "Bob"]]\n'
            '[[tables]]\nname = "1"\ngame = "multigam"\n')
    status, _, err = seat(tmp_path, capsys, text)
    assert status == 2
    assert ("no seating of 4 players keeps every apart pair apart (Ann and Bob would sit "
            "together at tables of 4)") in err


def test_apart_pairs_may_need_uneven_tables(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Ann may sit with Fay only: tables of 3 and 3 cannot keep her apart, 4 and 2 can."""
    text = ('players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]\n'
            'apart = [["Ann", "Bob"], ["Ann", "Cy"], ["Ann", "Dee"], ["Eve", "Ann"]]\n'
            '[[tables]]\nname = "1"\ngame = "centennial"\n'
            '[[tables]]\nname = "2"\ngame = "dalmatian"\n')
    status, out, _ = seat(tmp_path, capsys, text)
    assert status == 0
    assert out.splitlines()[:3] == [
        "6 players at 2 tables (4, 2): as even as the games allow with the apart pairs apart",
        "Table 1 (Centennial): Bob, Cy, Dee, Eve",
        "Table 2 (Dalmatian): Ann, Fay"]
