"""The Center Point board file: the text's route figures, validation errors, user boards."""

from __future__ import annotations

import copy
import random
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from games.centerpoint import CenterPoint
from games.centerpoint_board import Off, Place, load_board, parse_board
from games.core import Phase
from games.errors import OptionError, TopologyError

SHIPPED_FILE = resources.files("games") / "data" / "centerpoint.toml"


def shipped_data() -> dict[str, Any]:
    return tomllib.loads(SHIPPED_FILE.read_text(encoding="utf-8"))


class RawBoard:
    """The board straight from the TOML data, walked without games.centerpoint_board."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.colours = data["colours"]
        self.sizes = [circle["positions"] for circle in data["circle"]]
        self.bypass: dict[tuple[int, int], tuple[str, Any]] = {}
        self.start: dict[str, tuple[int, int]] = {}
        for number, circle in enumerate(data["circle"], 1):
            for colour, position in circle.get("start", {}).items():
                self.start[colour] = (number, position)
            for colour, entry in circle.get("bypass", {}).items():
                to = entry["to"]
                target = "centre" if to == "centre" else (to["circle"], to["position"])
                self.bypass[(number, entry["at"])] = (colour, target)

    def around(self, place: tuple[int, int]) -> tuple[int, int]:
        return place[0], (place[1] + 1) % self.sizes[place[0] - 1]

    def longest(self, colour: str) -> int:
        """Round each circle to the colour's own bypass, never a short cut."""
        place: Any = self.start[colour]
        spaces = 0
        while place != "centre":
            owner, target = self.bypass.get(place, (None, None))
            place = target if owner == colour else self.around(place)
            spaces += 1
        return spaces

    def shortest(self, colour: str) -> int:
        """Breadth first: a stop on any bypass leads into the next circle."""
        frontier: list[Any] = [self.start[colour]]
        seen = set(frontier)
        spaces = 0
        while frontier:
            spaces += 1
            later = []
            for place in frontier:
                owner, target = self.bypass.get(place, (None, None))
                steps = [target] if owner == colour else [self.around(place)]
                if owner is not None and owner != colour:
                    steps.append(target)
                for there in steps:
                    if there == "centre":
                        return spaces
                    if there not in seen:
                        seen.add(there)
                        later.append(there)
            frontier = later
        raise AssertionError("no way to the centre")


def test_the_texts_figures_110_and_20_come_from_the_file() -> None:
    raw = RawBoard(shipped_data())
    assert max(raw.longest(colour) for colour in raw.colours) == 110
    assert min(raw.shortest(colour) for colour in raw.colours) == 20
    board = load_board()
    assert [len(board.route(c)) for c in range(4)] == [raw.longest(c) for c in raw.colours]
    assert [board.shortest_route(c) for c in range(4)] == [raw.shortest(c) for c in raw.colours]


def test_the_shipped_board_says_it_is_a_reconstruction() -> None:
    board = load_board()
    assert board.reconstruction is True
    assert "reconstruct" in board.title.lower()
    assert "RECONSTRUCTION" in SHIPPED_FILE.read_text(encoding="utf-8")
    assert board.colours == ("red", "blue", "yellow", "green")
    assert board.sizes == (48, 40, 32)


def test_routes_turn_inward_at_the_own_bypass_and_end_in_the_centre() -> None:
    board = load_board()
    red = board.route(0)
    assert red[41:44] == [Place(1, 0), Place(2, 0), Place(2, 1)]
    assert red[-2:] == [Place(3, 26), Off.CENTRE]
    # a stop on blue's bypass is a short cut: the next space is inside it
    assert board.path(0, Place(1, 12), 2) == (Place(2, 10), Place(2, 11))
    assert board.path(0, Place(1, 10), 3) == (Place(1, 11), Place(1, 12), Place(1, 13))


def test_the_board_is_read_once_and_cached() -> None:
    assert load_board("centerpoint") is load_board()


def bad(edit: Any) -> str:
    data = shipped_data()
    edit(data)
    with pytest.raises(TopologyError) as caught:
        parse_board(data, "test")
    return str(caught.value)


def test_a_bypass_to_an_unknown_circle_is_named() -> None:
    def edit(data: dict[str, Any]) -> None:
        data["circle"][1]["bypass"]["blue"] = {"at": 17, "to": {"circle": 5, "position": 0}}

    assert bad(edit) == (
        "board test: circle 2, position 17: bypass leads to unknown circle 5 (circles are 1 to 3)"
    )


def test_a_bypass_must_lead_inward() -> None:
    def edit(data: dict[str, Any]) -> None:
        data["circle"][1]["bypass"]["blue"]["to"] = {"circle": 1, "position": 3}

    assert bad(edit) == (
        "board test: circle 2, position 6: bypass leads to circle 1, but a bypass leads inward "
        "(to circle 3 or beyond)"
    )


def test_a_bypass_target_must_exist() -> None:
    def edit(data: dict[str, Any]) -> None:
        data["circle"][0]["bypass"]["red"]["to"]["position"] = 40

    assert bad(edit) == (
        "board test: circle 1, position 0: bypass target: position 40 is not on circle 2 (0 to 39)"
    )


def test_positions_colours_and_keys_are_checked() -> None:
    def far_safety(data: dict[str, Any]) -> None:
        data["circle"][0]["safety"]["red"] = 50

    def purple(data: dict[str, Any]) -> None:
        data["circle"][0]["start"]["purple"] = 1

    def typo(data: dict[str, Any]) -> None:
        data["circle"][0]["bypasses"] = {}

    def shared(data: dict[str, Any]) -> None:
        data["circle"][0]["safety"]["red"] = 12

    def no_start(data: dict[str, Any]) -> None:
        del data["circle"][0]["start"]["green"]

    def no_bypass(data: dict[str, Any]) -> None:
        del data["circle"][1]["bypass"]["red"]

    def tiny(data: dict[str, Any]) -> None:
        data["circle"][2]["positions"] = 1

    assert bad(far_safety) == (
        "board test: circle 1, red safety: position 50 is not on circle 1 (0 to 47)"
    )
    assert bad(purple) == (
        "board test: circle 1, start: unknown colour 'purple'; colours: red, blue, yellow, green"
    )
    assert bad(typo) == (
        "board test: circle 1: unknown key 'bypasses'; keys: positions, start, safety, bypass"
    )
    assert bad(shared) == (
        "board test: circle 1, position 12: holds both the red safety and the blue bypass; "
        "one per position"
    )
    assert bad(no_start) == (
        "board test: colour green: has no start position; add it to a circle's start"
    )
    assert bad(no_bypass) == (
        "board test: colour red: can reach circle 2 but has no bypass there, "
        "so its markers could never leave it"
    )
    assert bad(tiny) == (
        "board test: circle 3: positions must be a whole number of at least 2, not 1"
    )


def test_a_missing_or_broken_file_is_reported_without_a_traceback(tmp_path: Path) -> None:
    with pytest.raises(TopologyError, match="no shipped board 'castle': the shipped board is"):
        load_board("castle")
    missing = tmp_path / "none.toml"
    with pytest.raises(TopologyError, match=f"board file {missing} cannot be read: No such"):
        load_board(str(missing))
    broken = tmp_path / "broken.toml"
    broken.write_text("colours = [\n", encoding="utf-8")
    with pytest.raises(TopologyError, match=f"board {broken}: not valid TOML"):
        load_board(str(broken))


SMALL_BOARD = """
title = "two colours, one circle"
colours = ["black", "white"]

[[circle]]
positions = 12
start = { black = 1, white = 7 }
safety = { black = 4, white = 10 }
bypass.black = { at = 11, to = "centre" }
bypass.white = { at = 5, to = "centre" }
"""


def test_a_user_board_plays_without_code_changes(tmp_path: Path) -> None:
    path = tmp_path / "small.toml"
    path.write_text(SMALL_BOARD, encoding="utf-8")
    rng = random.Random(3)
    state = CenterPoint.new(2, board=str(path))
    assert state.board.reconstruction is False and state.colours == (0, 1)
    assert len(state.board.route(0)) == 11 and state.board.shortest_route(0) == 5
    while not state.is_over:
        if state.phase is Phase.ROLL:
            state.roll(rng.randint(1, 6))
        else:
            state.apply(rng.choice(state.legal_actions()))
        state.check_invariants()
    assert state.result() is not None
    with pytest.raises(OptionError, match="has 2 colours, so at most 2 can play, not 3"):
        CenterPoint.new(3, board=str(path))


def test_the_shipped_data_is_left_untouched_by_the_checks() -> None:
    data = shipped_data()
    before = copy.deepcopy(data)
    parse_board(data, "copy")
    assert data == before
