"""Center Point board topology: read a TOML description, validate it, walk it.

No original Center Point board is known, so the board is data: circles of positions, each
colour's start, safeties and bypasses, and where each bypass leads. The shipped board
(``games/data/centerpoint.toml``) is a reconstruction; its header explains the design and the
file format. A user replaces it by naming another TOML file, with no change to code.

Reading that file is the only I/O in ``games``: :func:`load_board` reads a shipped board or a
path once per process and caches the validated :class:`Board`, so replay, undo and reloading a
saved game cost nothing. An edited file is therefore seen after a restart.
"""

from __future__ import annotations

import enum
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

from games.errors import TopologyError

SHIPPED_BOARD = "centerpoint"


class Place(NamedTuple):
    """A position on the board: circle 1 is the outermost, positions count from 0 clockwise."""

    circle: int
    position: int

    def __str__(self) -> str:
        return f"circle {self.circle}, position {self.position}"


class Off(enum.Enum):
    """Where a marker is when it is on no circle."""

    BEGINNING = "beginning"  # its colour's beginning, before the start position
    CENTRE = "centre"  # finished

    def __str__(self) -> str:
        return f"the {self.value}"


Location = Place | Off


class Feature(enum.Enum):
    SAFETY = "safety"
    BYPASS = "bypass"


class Mark(NamedTuple):
    """A coloured position: one colour's safety or bypass."""

    colour: int
    feature: Feature


@dataclass(frozen=True, eq=False)
class Board:
    """A validated topology. Colours are indexes into ``colours``.

    ``sizes[c - 1]`` is the number of positions on circle ``c``; ``starts[colour]`` the start
    position; ``marks`` the safeties and bypasses; ``leads_to`` where each bypass leads (a
    place on a later circle, or ``Off.CENTRE``).
    """

    name: str
    title: str
    reconstruction: bool
    colours: tuple[str, ...]
    sizes: tuple[int, ...]
    starts: tuple[Place, ...]
    marks: Mapping[Place, Mark] = field(repr=False)
    leads_to: Mapping[Place, Location] = field(repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> Board:
        """A board is a value the rules never change, loaded once: a copied game shares it."""
        return self

    def next_location(self, place: Place, colour: int, resting: bool) -> Location:
        """One space on from ``place`` for a marker of ``colour``.

        A marker turns inward through its own bypass, and through any bypass it rests on:
        it can only rest on another colour's bypass by having landed there exactly, which
        is the short cut.
        """
        mark = self.marks.get(place)
        turns_inward = mark is not None and (resting or mark.colour == colour)
        if turns_inward and place in self.leads_to:
            return self.leads_to[place]
        return Place(place.circle, (place.position + 1) % self.sizes[place.circle - 1])

    @lru_cache(maxsize=65536)  # noqa: B019 - boards live as long as the process anyway
    def path(self, colour: int, place: Place, steps: int) -> tuple[Location, ...]:
        """Every location a move of ``steps`` spaces enters, the last being where it ends.

        Shorter than ``steps`` when the centre comes first. Cached: the move generator asks
        the same questions all game long.
        """
        visited: list[Location] = []
        here: Location = place
        while len(visited) < steps and isinstance(here, Place):
            here = self.next_location(here, colour, resting=here == place)
            visited.append(here)
        return tuple(visited)

    def route(self, colour: int) -> list[Location]:
        """The way from the colour's start to the centre with no short cuts, start excluded."""
        visited: list[Location] = []
        here: Location = self.starts[colour]
        while isinstance(here, Place):
            here = self.next_location(here, colour, resting=False)
            visited.append(here)
        return visited

    def shortest_route(self, colour: int) -> int:
        """Spaces from the colour's start to the centre taking the best short cuts."""
        distance = {self.starts[colour]: 0}
        frontier = [self.starts[colour]]
        while frontier:
            later: list[Place] = []
            for place in frontier:
                for there in self.next_locations(place, colour):
                    if there is Off.CENTRE:
                        return distance[place] + 1
                    if isinstance(there, Place) and there not in distance:
                        distance[there] = distance[place] + 1
                        later.append(there)
            frontier = later
        raise AssertionError("a validated board always leads to the centre")

    def next_locations(self, place: Place, colour: int) -> set[Location]:
        """Where one space on from ``place`` can lead, short cuts included."""
        return {self.next_location(place, colour, False), self.next_location(place, colour, True)}

    def mark_name(self, place: Place) -> str:
        """``the blue safety`` for a coloured position, ``a plain position`` otherwise."""
        mark = self.marks.get(place)
        if mark is None:
            return "a plain position"
        return f"the {self.colours[mark.colour]} {mark.feature.value}"


def load_board(name: str = SHIPPED_BOARD) -> Board:
    """The board called ``name``: a shipped board's name, or a path to a TOML file."""
    return _load_cached(name)


@lru_cache(maxsize=8)
def _load_cached(name: str) -> Board:
    text, label = _read(name)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise TopologyError(f"board {label}: not valid TOML: {err}") from None
    return parse_board(data, label)


def _read(name: str) -> tuple[str, str]:
    """The text of the board file and the label errors use for it."""
    if "/" in name or "\\" in name or name.endswith(".toml"):
        path = Path(name).expanduser()
        try:
            return path.read_text(encoding="utf-8"), str(path)
        except (OSError, UnicodeDecodeError) as err:
            reason = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
            raise TopologyError(f"board file {path} cannot be read: {reason}") from None
    shipped = resources.files("games") / "data" / f"{name}.toml"
    if not name or not shipped.is_file():
        raise TopologyError(
            f"no shipped board {name!r}: the shipped board is {SHIPPED_BOARD!r}; "
            "for another board give the path of its .toml file"
        )
    return shipped.read_text(encoding="utf-8"), name


def parse_board(data: Mapping[str, Any], name: str) -> Board:
    """Validate a parsed board file; TopologyError names the first bad entry."""
    return _BoardReader(data, name).board()


class _BoardReader:
    """Checks one board file entry by entry, so each error can say where it is."""

    TOP_KEYS = ("title", "reconstruction", "colours", "circle")
    CIRCLE_KEYS = ("positions", "start", "safety", "bypass")

    def __init__(self, data: Mapping[str, Any], name: str) -> None:
        self.data = data
        self.name = name

    def fail(self, where: str, what: str) -> NoReturn:
        raise TopologyError(f"board {self.name}: {where}: {what}")

    def board(self) -> Board:
        self.known_keys(self.data, self.TOP_KEYS, "top level")
        title = self.data.get("title", self.name)
        if not isinstance(title, str):
            self.fail("title", f"must be text, not {title!r}")
        reconstruction = self.data.get("reconstruction", False)
        if not isinstance(reconstruction, bool):
            self.fail("reconstruction", f"must be true or false, not {reconstruction!r}")
        colours = self.colours()
        circles = self.data.get("circle")
        if not isinstance(circles, list) or not circles:
            self.fail("circle", "the board needs at least one [[circle]] table")
        sizes = tuple(self.size(number, table) for number, table in enumerate(circles, 1))
        starts: dict[str, Place] = {}
        marks: dict[Place, Mark] = {}
        leads_to: dict[Place, Location] = {}
        for number, table in enumerate(circles, 1):
            self.read_starts(number, table, colours, sizes, starts)
            self.read_marks(number, table, colours, sizes, marks, leads_to)
        missing = [c for c in colours if c not in starts]
        if missing:
            self.fail(f"colour {missing[0]}", "has no start position; add it to a circle's start")
        board = Board(
            self.name, title, reconstruction, colours, sizes,
            tuple(starts[c] for c in colours), marks, leads_to,
        )
        for colour in range(len(colours)):
            self.check_reaches_centre(board, colour)
        return board

    def known_keys(self, table: Mapping[str, Any], keys: tuple[str, ...], where: str) -> None:
        unknown = sorted(set(table) - set(keys))
        if unknown:
            self.fail(where, f"unknown key {unknown[0]!r}; keys: {', '.join(keys)}")

    def colours(self) -> tuple[str, ...]:
        colours = self.data.get("colours")
        if not isinstance(colours, list) or len(colours) < 2:
            self.fail("colours", "must list at least two colours, e.g. [\"red\", \"blue\"]")
        for colour in colours:
            if not isinstance(colour, str) or not colour.strip():
                self.fail("colours", f"a colour must be a name, not {colour!r}")
        if len(set(colours)) != len(colours):
            self.fail("colours", f"each colour may appear once: {colours}")
        return tuple(colours)

    def size(self, number: int, table: Any) -> int:
        where = f"circle {number}"
        if not isinstance(table, dict):
            self.fail(where, "must be a [[circle]] table")
        self.known_keys(table, self.CIRCLE_KEYS, where)
        positions = table.get("positions")
        if type(positions) is not int or positions < 2:
            self.fail(where, f"positions must be a whole number of at least 2, not {positions!r}")
        return positions

    def coloured_table(self, where: str, value: Any, colours: tuple[str, ...]) -> dict[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.fail(where, f"must be a table of colour = position, not {value!r}")
        for colour in value:
            if colour not in colours:
                self.fail(where, f"unknown colour {colour!r}; colours: {', '.join(colours)}")
        return value

    def place(self, where: str, circle: int, position: Any, sizes: tuple[int, ...]) -> Place:
        size = sizes[circle - 1]
        if type(position) is not int or not 0 <= position < size:
            self.fail(where, f"position {position!r} is not on circle {circle} (0 to {size - 1})")
        return Place(circle, position)

    def read_starts(
        self, number: int, table: dict[str, Any], colours: tuple[str, ...],
        sizes: tuple[int, ...], starts: dict[str, Place],
    ) -> None:
        where = f"circle {number}, start"
        for colour, position in self.coloured_table(where, table.get("start"), colours).items():
            place = self.place(f"{where} of {colour}", number, position, sizes)
            if colour in starts:
                self.fail(f"colour {colour}", f"has two start positions: {starts[colour]} "
                          f"and {place}")
            shared = [c for c, p in starts.items() if p == place]
            if shared:
                self.fail(str(place), f"is the start of both {shared[0]} and {colour}")
            starts[colour] = place

    def read_marks(
        self, number: int, table: dict[str, Any], colours: tuple[str, ...],
        sizes: tuple[int, ...], marks: dict[Place, Mark], leads_to: dict[Place, Location],
    ) -> None:
        safeties = self.coloured_table(f"circle {number}, safety", table.get("safety"), colours)
        for colour, position in safeties.items():
            place = self.place(f"circle {number}, {colour} safety", number, position, sizes)
            self.add_mark(place, Mark(colours.index(colour), Feature.SAFETY), colours, marks)
        bypasses = self.coloured_table(f"circle {number}, bypass", table.get("bypass"), colours)
        for colour, entry in bypasses.items():
            where = f"circle {number}, {colour} bypass"
            if not isinstance(entry, dict) or set(entry) != {"at", "to"}:
                self.fail(where, "must be { at = position, to = { circle = C, position = P } } "
                          "or to = \"centre\"")
            place = self.place(where, number, entry["at"], sizes)
            self.add_mark(place, Mark(colours.index(colour), Feature.BYPASS), colours, marks)
            leads_to[place] = self.target(place, entry["to"], sizes)

    def add_mark(
        self, place: Place, mark: Mark, colours: tuple[str, ...], marks: dict[Place, Mark]
    ) -> None:
        if place in marks:
            old = marks[place]
            self.fail(str(place), f"holds both the {colours[old.colour]} {old.feature.value} "
                      f"and the {colours[mark.colour]} {mark.feature.value}; one per position")
        marks[place] = mark

    def target(self, bypass: Place, to: Any, sizes: tuple[int, ...]) -> Location:
        where = str(bypass)
        if to == "centre":
            return Off.CENTRE
        if not isinstance(to, dict) or set(to) != {"circle", "position"}:
            self.fail(where, f"bypass must lead to {{ circle = C, position = P }} or \"centre\", "
                      f"not {to!r}")
        circle = to["circle"]
        if type(circle) is not int or not 1 <= circle <= len(sizes):
            self.fail(where, f"bypass leads to unknown circle {circle!r} "
                      f"(circles are 1 to {len(sizes)})")
        if circle <= bypass.circle:
            inward = f"circle {bypass.circle + 1}" if bypass.circle < len(sizes) else "the centre"
            self.fail(where, f"bypass leads to circle {circle}, but a bypass leads inward "
                      f"(to {inward} or beyond)")
        return self.place(f"{where}: bypass target", circle, to["position"], sizes)

    def check_reaches_centre(self, board: Board, colour: int) -> None:
        """Every circle a marker can reach must hold its colour's bypass, or it circles forever."""
        own_bypass_circles = {
            place.circle for place, mark in board.marks.items()
            if mark == Mark(colour, Feature.BYPASS)
        }
        seen = {board.starts[colour]}
        frontier = [board.starts[colour]]
        while frontier:
            place = frontier.pop()
            if place.circle not in own_bypass_circles:
                self.fail(f"colour {board.colours[colour]}", f"can reach circle {place.circle} but "
                          "has no bypass there, so its markers could never leave it")
            for there in board.next_locations(place, colour):
                if isinstance(there, Place) and there not in seen:
                    seen.add(there)
                    frontier.append(there)
